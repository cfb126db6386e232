r"""The check every user-written nonlinear storage energy goes through.

Where a user gives a storage's energy as an expression — a bond-graph C or I with
``hamiltonian:`` (:class:`~porthamiltonian.bondgraph.BondGraph`, Python or model file)
or a model file's ``phs:`` section — :func:`check_storage_law` judges it at the states
that matter: the rest state :math:`q = 0` and, when known, the initial state.

* **Error** (:class:`~porthamiltonian.errors.ModelError`): the energy is undefined or
  not a real number at the initial state — no physical state has that energy.
* **Warning** (:class:`~porthamiltonian.errors.ModelWarning`): its Hessian in the
  element's own state is not positive semidefinite there — the storage is not
  intrinsically stable (:mod:`.stability`).  Legitimate for a double-well or buckling
  spring, a slip for a wrong sign; the warning says which and where.

It is cheap on purpose (it runs on every model): second derivatives by ``diff`` and
numbers at one or two points, never a ``simplify``.  Linear and quadratic energies (a
constant Hessian) are skipped — the structure checks judge those — and so are energies
with symbolic parameters left, or more than :data:`MAX_STATES` states.  A rest state
outside the energy's domain (``q*log(q)`` at 0) is skipped, not an error.
"""

from __future__ import annotations

import cmath
import functools
import warnings
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError, ModelWarning
from .stability import Stability, describe_point, hessian_verdict

__all__ = ["check_storage_law", "check_graph_storages", "MAX_STATES"]

#: more states than this and the check is skipped (n² second derivatives)
MAX_STATES = 12


def _number(expr: sp.Expr, point: Mapping[sp.Symbol, Any]) -> complex | None:
    """The value at ``point``; ``None`` when undefined (a pole, ``log(0)``) or not a number."""
    v = expr.xreplace(point)
    if v.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
        return None
    try:
        z = complex(sp.N(v))
    except (TypeError, ValueError):
        return None
    return z if cmath.isfinite(z) else None


def _numeric_values(values: Mapping[Any, Any] | None,
                    names: set[str]) -> tuple[tuple[str, Any], ...]:
    """The values of the parameters ``names`` (and of those their values name), hashable;
    ``None`` values and text are left out (this check never parses)."""
    if not values:
        return ()
    by_name = {str(k): v for k, v in values.items()}
    out: dict[str, Any] = {}
    todo = list(names)
    while todo:
        name = todo.pop()
        v = by_name.get(name)
        if name in out or isinstance(v, bool) or not isinstance(v, (int, float, sp.Basic)):
            continue
        out[name] = v
        todo += [s.name for s in getattr(v, "free_symbols", ())]
    return tuple(sorted(out.items()))


def _substitute(expr: sp.Expr, values: tuple[tuple[str, Any], ...]) -> sp.Expr:
    by_name = {k: sp.sympify(v) for k, v in values}
    for _ in range(3):  # a parameter's value may name another parameter
        todo = {s: by_name[s.name] for s in expr.free_symbols
                if s.name in by_name and not s.name.startswith("_x")}
        if not todo:
            break
        expr = expr.xreplace(todo)
    return expr


def _real(z: complex | None) -> bool:
    return z is not None and abs(z.imag) <= 1e-12 * max(1.0, abs(z.real))


@functools.lru_cache(maxsize=512)
def _judge(H: sp.Expr, n: int, values: tuple[tuple[str, Any], ...],
           at: tuple[float, ...] | None) -> tuple[Any, ...] | None:
    """The verdict on an energy in the canonical states ``_x0 … _x{n-1}`` (cached: a
    graph of many equal storages pays once): ``None``, ``("error", value, x0)`` or
    ``("warn", x, eigenvalues, verdict)``."""
    xs = [sp.Symbol(f"_x{i}", real=True) for i in range(n)]
    grad = [sp.diff(H, x) for x in xs]
    hess = sp.Matrix(n, n, lambda i, j: sp.diff(grad[i], xs[j]))
    if not (hess.free_symbols & set(xs)):
        return None  # linear or quadratic: the structure checks judge it
    H, hess = _substitute(H, values), _substitute(hess, values)
    if (H.free_symbols | hess.free_symbols) - set(xs):
        return None  # parameters without numbers: nothing to judge here
    points = [(0.0,) * n]
    if at is not None:
        energy = _number(H, dict(zip(xs, map(sp.Float, at), strict=True)))
        if not _real(energy):
            return ("error", energy, at)
        points.append(at)
    for x in points:
        point = dict(zip(xs, map(sp.Float, x), strict=True))
        entries = [_number(h, point) for h in hess]
        if not _real(_number(H, point)) or not all(_real(z) for z in entries):
            continue  # the rest state outside the energy's domain
        h = np.array([z.real for z in entries]).reshape(n, n)  # type: ignore[union-attr]
        lam = np.linalg.eigvalsh((h + h.T) / 2)
        verdict = hessian_verdict(lam, 1e-12 * max(1.0, float(np.abs(lam).max())))
        if verdict is not None:
            return ("warn", x, tuple(map(float, lam)), verdict)
    return None


def check_storage_law(H: Any, states: Sequence[Any], *, values: Mapping[Any, Any] | None = None,
                      at: Sequence[float] | None = None,
                      where: str = "a storage") -> Stability | None:
    """Judge a user energy ``H`` in its ``states`` (symbols or names) at the rest state
    and at the initial state ``at`` (one number per state); see the module docstring.

    Returns the failing :class:`~.stability.Stability` (after warning) or ``None``.
    """
    H = sp.sympify(H)
    free = {s.name: s for s in H.free_symbols}
    xs = [s if isinstance(s, sp.Symbol) else free.get(str(s), sp.Symbol(str(s), real=True))
          for s in states]
    if not xs or len(xs) > MAX_STATES or not (H.free_symbols & set(xs)):
        return None
    names = [str(x) for x in xs]
    x0 = None if at is None else tuple(float(v) for v in at)
    if x0 is not None and len(x0) != len(xs):
        raise ModelError(f"{where}: the initial state has {len(x0)} value(s) for "
                         f"{len(xs)} state(s) {names}")
    canonical = H.xreplace({x: sp.Symbol(f"_x{i}", real=True) for i, x in enumerate(xs)})
    found = _judge(canonical, len(xs), _numeric_values(values, set(free) - set(names)), x0)
    if found is None:
        return None
    if found[0] == "error":
        value, x = found[1], found[2]
        what = "undefined" if value is None else f"not a real number ({value:.4g})"
        raise ModelError(f"{where}: its energy {H} is {what} at the initial state "
                         f"{describe_point(names, x)}; start from a state where the energy "
                         "is a finite real number of joules (or correct the energy)")
    _, x, lam, verdict = found
    what = "second derivative" if len(xs) == 1 else "Hessian"
    shown = ", ".join(f"{v:.4g}" for v in lam)
    msg = (f"{where} is not intrinsically stable: the {what} of its energy is {verdict} "
           f"at {describe_point(names, x)} ({'value' if len(xs) == 1 else 'eigenvalues'} "
           f"{shown}) — fine for a deliberately non-convex law (a double well, a "
           "buckling spring), else check the signs of its coefficients")
    warnings.warn(msg, ModelWarning, stacklevel=3)
    return Stability(False, "at the rest and initial states", msg,
                     dict(zip(names, x, strict=True)), lam, 1 + (x0 is not None))


def _initial_of(el: Any, initial: Mapping[str, Any]) -> list[float] | None:
    """An element's initial state from ``simulate.initial`` (by state or element name)."""
    states = list(el.states)
    if len(states) == 1:
        for key in (states[0], el.name):
            v = initial.get(key)
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return [float(v)]
        return None
    whole = initial.get(el.name)
    if isinstance(whole, (list, tuple)) and len(whole) == len(states):
        return [float(v) for v in whole]
    parts = [initial.get(s) for s in states]
    if all(isinstance(v, (int, float)) for v in parts):
        return [float(v) for v in parts]  # type: ignore[arg-type]
    return None


def check_graph_storages(graph: Any, *, values: Mapping[Any, Any] | None = None,
                         initial: Mapping[str, Any] | None = None) -> None:
    """:func:`check_storage_law` on each storage of a bond graph with a ``hamiltonian``
    (``values`` default: the graph's parameters; ``initial`` by state or element name)."""
    graph.state_names()  # qualifies the states named like a parameter (La → La.p)
    values = graph.parameters if values is None else values
    for el in graph.storages():
        H = el.params.get("hamiltonian")
        if H is None or not isinstance(H, sp.Basic) or el.type == "Ce":
            continue
        at = _initial_of(el, initial) if initial else None
        check_storage_law(H, el.states, values=values, at=at, where=el.where())
