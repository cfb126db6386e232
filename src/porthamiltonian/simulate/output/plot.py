"""Plot of a :class:`~porthamiltonian.simulate.SimulationResult` (Matplotlib).

One panel per physical quantity kind (voltage, current, angle …) with its SI unit on
the axis, the inputs in their own panel(s), then the energy with its balance and the
powers.  By default the variables of ``res.shown`` (co-energies; the joint angles and
rates of a mechanism); ``vars=[...]`` picks any of ``res.variables``.  The legend names
elements; the title names the model and the method.

The figure is a bare :class:`matplotlib.figure.Figure` (no pyplot), which renders with
the Agg canvas: it works headless and never opens a window.  Its layout is
``constrained``, so labels and legends are kept inside the figure.
"""

from __future__ import annotations

import pathlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...quantities import pretty_unit

__all__ = ["plot_result", "panels"]

#: more lines than this in one panel: the legend goes beside the axes in small print
_LEGEND_INSIDE = 6
#: more lines than this: no legend at all (a crowd of colours names nothing)
_LEGEND_MAX = 24


def panels(res: Any, names: Sequence[str] | None = None) -> list[tuple[str, list[str]]]:
    """The panels of the plot: ``[(axis label, [variable names]), …]``, one per
    quantity kind and unit, the chosen variables first, then the inputs."""
    table = {v.name: v for v in res.variables}
    chosen = list(names) if names is not None else list(res.shown)
    if names is None and not chosen:  # a model with nothing to show: its states
        chosen = list(res.states)[:_LEGEND_MAX]
    unknown = [n for n in chosen if n not in table]
    if unknown:
        from ...errors import ModelError

        raise ModelError(f"cannot plot {', '.join(map(repr, unknown))}: not a variable of "
                         f"this result; choose from {', '.join(list(table)[:40])}"
                         + (" …" if len(table) > 40 else ""))
    groups: dict[tuple[str, str, bool], list[str]] = {}
    for name in chosen:
        v = table[name]
        groups.setdefault((v.kind, v.unit, False), []).append(name)
    if names is None:
        for name in res.inputs:
            v = table[name]
            groups.setdefault((v.kind, v.unit, True), []).append(name)
    out = []
    for (kind, unit, is_input), members in groups.items():
        label = f"{kind} ({pretty_unit(unit)})" if unit else kind
        out.append((f"input: {label}" if is_input and kind != "input" else label, members))
    return out


def plot_result(res: Any, path: str | pathlib.Path | None = None,
                vars: Sequence[str] | None = None) -> Any:  # noqa: A002 — the public keyword
    """The figure of ``res`` (see the module docstring); saved to ``path`` if given.

    Returns the :class:`matplotlib.figure.Figure`.  Raises
    :class:`~porthamiltonian.errors.ModelError` for a name in ``vars`` that is not a
    variable of the result, listing the variables.
    """
    from matplotlib.figure import Figure  # no pyplot: no GUI backend, no global state

    groups = panels(res, vars)
    n_panels = len(groups) + 2
    fig = Figure(figsize=(9, 2.0 + 1.9 * n_panels), layout="constrained")
    axes = np.atleast_1d(fig.subplots(n_panels, 1, sharex=True))
    t = res.t
    for ax, (label, members) in zip(axes, groups, strict=False):
        for name in members:
            ax.plot(t, res[name], label=name)
        ax.set_ylabel(label)
        _legend(ax)
    ax_h, ax_p = axes[-2], axes[-1]
    ax_h.plot(t, res.H, color="k", label="H (stored energy)")
    balance = res.H[0] + np.cumsum(res.work_supplied - res.work_dissipated)
    ax_h.plot(t, balance, color="tab:orange", linestyle="--",
              label="H₀ + ∫uᵀy dt − ∫d dt (balance)")
    ax_h.set_ylabel("energy (J)")
    _legend(ax_h)
    ax_p.plot(t, res.stored, label="stored dH/dt")
    ax_p.plot(t, res.supplied, label="supplied uᵀy")
    ax_p.plot(t, res.dissipated, label="dissipated d")
    ax_p.set_ylabel("power (W)")
    ax_p.set_xlabel("time (s)")
    _legend(ax_p)
    residual = float(np.max(np.abs(res.power_residual))) if len(res.power_residual) else 0.0
    title = f"{res.model or 'simulation'} — {res.method}"
    fig.suptitle(f"{title}; max |power residual| = {residual:.3g} J"
                 + ("" if res.success else f"\nstopped: {res.message}"))
    if path is not None:
        fig.savefig(path, dpi=100)
    return fig


def _legend(ax: Any) -> None:
    lines = ax.get_lines()
    if not lines or len(lines) > _LEGEND_MAX:
        return
    if len(lines) <= _LEGEND_INSIDE:
        ax.legend(loc="best", fontsize="small")
    else:  # beside the axes; the constrained layout makes room for it
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize="x-small",
                  ncols=1 + len(lines) // 13)
