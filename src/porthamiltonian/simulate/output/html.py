r"""The notebook view of a result: a compact HTML summary, never the arrays.

:func:`result_html` is :meth:`~.result.SimulationResult._repr_html_`: one table with the
model, the method, the steps and saved points, the time span (s), success or the
failure message, the energy balance (:math:`H` at the start and the end, the work
supplied and dissipated, J; the largest drift :math:`|H - H(t_0) - \int(u^\top y - d)|`, J,
and relative to :math:`|H(t_0)|` when that is not 0; the largest per-interval power
residual, J) and, for a DAE, the largest constraint residual; then the final values of
the shown variables (``res.shown``, the states when nothing else is shown) with their
units and kinds — at most :data:`MAX_ROWS` of them.
"""

from __future__ import annotations

from html import escape
from typing import Any

import numpy as np

__all__ = ["result_html", "energy_drift", "MAX_ROWS"]

#: at most this many final values in the table
MAX_ROWS = 20

_STYLE = "text-align:left;padding:0.1em 0.8em 0.1em 0"


def _num(v: float, unit: str = "") -> str:
    text = f"{v:.6g}" if np.isfinite(v) else str(v)
    return f"{text} {unit}" if unit else text


def _row(cells: list[str], header: bool = False) -> str:
    tag = "th" if header else "td"
    return "<tr>" + "".join(f'<{tag} style="{_STYLE}">{c}</{tag}>' for c in cells) + "</tr>"


def energy_drift(res: Any) -> float:
    """``max_k |H_k − H_0 − Σ (work supplied − work dissipated)|`` (J): the energy
    balance in absolute terms (``res.energy_error`` divides it by ``|H_0|``)."""
    if not len(res.t):
        return 0.0
    net = np.cumsum(np.asarray(res.work_supplied) - np.asarray(res.work_dissipated))
    return float(np.max(np.abs(np.asarray(res.H) - res.H[0] - net)))


def _energy(res: Any) -> list[list[str]]:
    if not len(res.t):
        return []
    H0, H1 = float(res.H[0]), float(res.H[-1])
    supplied = float(np.sum(res.work_supplied))
    dissipated = float(np.sum(res.work_dissipated))
    rows = [["energy H", f"{_num(H0, 'J')} → {_num(H1, 'J')} (change {_num(H1 - H0, 'J')})"],
            ["work", f"supplied {_num(supplied, 'J')}, dissipated {_num(dissipated, 'J')}"]]
    residual = res.extra.get("max_abs_power_residual",
                             float(np.max(np.abs(res.power_residual))))
    drift = energy_drift(res)
    relative = f" ({_num(drift / abs(H0))} of |H(t₀)|)" if H0 != 0.0 else ""
    rows.append(["energy balance", f"max |H − H(t₀) − net work| {_num(drift, 'J')}{relative}; "
                 f"max |power residual| {_num(float(residual), 'J')}"])
    cr = getattr(res, "constraint_residual", None)
    if cr is not None and np.size(cr):
        rows.append(["constraints", f"max ‖Bᵀz‖ {_num(float(np.max(np.abs(cr))))}"])
    return rows


def _finals(res: Any) -> tuple[list[list[str]], int]:
    try:
        names = list(res.shown) or list(res.states)
        meaning = {v.name: v for v in res.variables}
    except Exception:  # a notebook view must not fail on a broken annotation
        names, meaning = list(res.states), {}
    rows = []
    for name in names[:MAX_ROWS]:
        v = meaning.get(name)
        try:
            value = _num(float(np.asarray(res[name])[-1]))
        except Exception:  # same: show the name, not a traceback
            value = "—"
        rows.append([escape(name), value, escape(v.unit) if v else "",
                     escape(v.kind) if v else ""])
    return rows, len(names)


def result_html(res: Any) -> str:
    """The HTML summary of ``res`` (see the module docstring)."""
    n = len(res.t)
    status = ("✔ " + escape(res.message)) if res.success else \
        '<span style="color:#b00">✘ ' + escape(res.message) + "</span>"
    span = f"{res.t[0]:.6g} … {res.t[-1]:.6g} s" if n else "(no saved points)"
    head = [["model", escape(res.model or "—")], ["method", escape(str(res.method))],
            ["steps", f"{res.nsteps} ({n} saved points)"], ["time", span],
            ["status", status], *_energy(res)]
    parts = ['<div class="porthamiltonian-result">',
             f"<strong>{escape(type(res).__name__)}</strong>",
             "<table>", *(_row([f"<b>{k}</b>", v]) for k, v in head), "</table>"]
    if n:
        rows, total = _finals(res)
        if rows:
            parts += ["<table>", _row(["variable", "final value", "unit", "kind"], header=True),
                      *(_row(r) for r in rows)]
            if total > len(rows):
                parts.append(_row([f"… {total - len(rows)} more (res.variables lists all)",
                                   "", "", ""]))
            parts.append("</table>")
    parts.append("</div>")
    return "\n".join(parts)
