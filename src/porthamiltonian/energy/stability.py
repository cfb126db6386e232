r"""Intrinsic stability: convexity of a storage energy.

A storage (or a simple thermodynamic system) is *intrinsically stable* where its energy
:math:`E(q)` is convex, i.e. its Hessian :math:`\partial^2 E/\partial q^2` is positive
(semi)definite: then the law :math:`e = \partial E/\partial q` is monotone, the co-energy
exists (:mod:`.legendre_transform`), and a small exchange of :math:`q` between two halves of the
storage cannot lower the energy (Callen, *Thermodynamics*, 2nd ed., §8.1; Duindam et
al., *Modeling and Control of Complex Physical Systems*, Springer 2009, App. B.2).  A
double-well spring is a legitimate model but not intrinsically stable near its top.

:func:`intrinsic_stability` decides it

* symbolically when SymPy can: every leading principal minor of the Hessian positive
  (Sylvester), or a constant Hessian judged by its eigenvalues;
* else at the points given, or sampled over a box ``domain`` (a grid in one or two
  variables, seeded random points beyond), with numbers for the parameters.

The result says which (``method``) and where it fails (``point``, the eigenvalues there).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

from ..bounded import SymbolicLimit, bounded
from ..errors import ModelError

__all__ = ["Stability", "intrinsic_stability", "describe_point", "hessian_verdict"]

#: default sampling box for a variable without a given range (its sign assumption kept)
_REAL_BOX, _POSITIVE_BOX = (-1.0, 1.0), (1e-2, 2.0)


@dataclass(frozen=True)
class Stability:
    """The verdict: ``stable`` True/False (``None``: undecided), ``method``
    (``"symbolic"``, ``"at given points"``, ``"sampled"`` or ``"undecided"``), the
    failing ``point`` and the Hessian's ``eigenvalues`` there, the number of ``points``
    judged, and a readable ``message``."""

    stable: bool | None
    method: str
    message: str
    point: dict[str, float] | None = None
    eigenvalues: tuple[float, ...] | None = None
    points: int = 0

    def __bool__(self) -> bool:
        return self.stable is True


def describe_point(names: Sequence[str], x: Sequence[float]) -> str:
    """``q = 0`` or ``(q1, q2) = (0, 1.5)``."""
    vals = [f"{float(v):.4g}" for v in x]
    if len(names) == 1:
        return f"{names[0]} = {vals[0]}"
    return f"({', '.join(names)}) = ({', '.join(vals)})"


def hessian_verdict(lam: np.ndarray, tol: float) -> str | None:
    """``None`` when positive semidefinite, else "negative" (1×1), "negative definite" or
    "indefinite" — how the Hessian fails."""
    if lam.min() >= -tol:
        return None
    if lam.size == 1:
        return "negative"
    return "negative definite" if lam.max() < -tol else "indefinite"


def _failure(names: list[str], x: Sequence[float], lam: np.ndarray, verdict: str,
             method: str, count: int, where: str, how: str) -> Stability:
    at = describe_point(names, x)
    shown = ", ".join(f"{v:.4g}" for v in lam)
    what = "second derivative" if lam.size == 1 else "Hessian"
    msg = (f"{where} is not intrinsically stable: the {what} of its energy is {verdict} at "
           f"{at} ({'value' if lam.size == 1 else 'eigenvalues'} {shown}); checked {how}")
    return Stability(False, method, msg, dict(zip(names, map(float, x), strict=True)),
                     tuple(map(float, lam)), count)


def _symbolic(Hm: sp.Matrix) -> bool | None:
    """Sylvester's criterion under SymPy's assumptions (``None``: cannot tell)."""
    try:
        with bounded("deciding the sign of the Hessian's minors", 2.0):
            minors = [Hm[:k, :k].det() for k in range(1, Hm.rows + 1)]
            signs = [sp.simplify(m).is_positive for m in minors]
    except SymbolicLimit:
        return None
    if all(s is True for s in signs):
        return True
    return None


def _box(x: sp.Symbol, domain: Mapping[Any, tuple[float, float]] | None) -> tuple[float, float]:
    for key in (x, x.name):
        if domain and key in domain:
            lo, hi = domain[key]
            return float(lo), float(hi)
    return _POSITIVE_BOX if x.is_positive else _REAL_BOX


def intrinsic_stability(E: Any, q: Any, *, values: Mapping[Any, Any] | None = None,
                        domain: Mapping[Any, tuple[float, float]] | None = None,
                        points: Sequence[Sequence[float]] | None = None,
                        samples: int = 400, where: str = "the storage",
                        seed: int = 0) -> Stability:
    """Convexity of the energy ``E`` in the variables ``q`` (see the module docstring).

    ``values`` gives numbers to parameters (symbols or names); ``points`` judges those
    states only; else ``domain`` maps variables to ``(low, high)`` (default ``(-1, 1)``,
    ``(0.01, 2)`` for a positive symbol) and about ``samples`` points are judged.
    """
    qs = list(q) if isinstance(q, (list, tuple, sp.MatrixBase)) else [q]
    names = [str(x) for x in qs]
    E = sp.sympify(E)
    if values:
        by_name = {str(k): v for k, v in values.items()}
        E = E.xreplace({s: sp.sympify(by_name[s.name]) for s in E.free_symbols
                        if s.name in by_name and s not in qs})
    Hm = sp.hessian(E, qs)
    if points is None:
        if not Hm.free_symbols:
            lam = np.linalg.eigvalsh(np.array(Hm.tolist(), dtype=float))
            verdict = hessian_verdict(lam, 1e-12 * max(1.0, float(np.abs(lam).max())))
            zero = [0.0] * len(qs)
            if verdict:
                return _failure(names, zero, lam, verdict, "symbolic", 0, where,
                                "symbolically (a constant Hessian)")
            return Stability(True, "symbolic", f"{where} is intrinsically stable: its "
                             "Hessian is constant and positive semidefinite")
        if _symbolic(Hm):
            return Stability(True, "symbolic", f"{where} is intrinsically stable: every "
                             "leading principal minor of its Hessian is positive (Sylvester)")
    rest = Hm.free_symbols - set(qs)
    if rest:
        return Stability(None, "undecided", f"{where}: cannot decide convexity: give values "
                         f"for {', '.join(sorted(map(str, rest)))}")
    f = sp.lambdify(qs, Hm, "numpy")
    if points is not None:
        pts = np.atleast_2d(np.asarray(points, dtype=float))
        method = "at given points"
        sampled = f"the {len(pts)} given point(s)"
    else:
        boxes = [_box(x, domain) for x in qs]
        if len(qs) <= 2:
            per = max(2, int(round(samples ** (1 / len(qs)))))
            axes = [np.linspace(lo, hi, per) for lo, hi in boxes]
            pts = np.stack([g.ravel() for g in np.meshgrid(*axes, indexing="ij")], axis=1)
        else:
            rng = np.random.default_rng(seed)
            lo, hi = np.array(boxes).T
            pts = lo + (hi - lo) * rng.random((samples, len(qs)))
        method = "sampled"
        grid = "grid" if len(qs) <= 2 else "random points"
        sampled = (f"a {grid} of {len(pts)} points over "
                   + " × ".join(f"[{lo:g}, {hi:g}]" for lo, hi in boxes))
    if pts.shape[1] != len(qs):
        raise ModelError(f"intrinsic_stability: points need {len(qs)} coordinates ({names})")
    worst: tuple[float, np.ndarray, np.ndarray] | None = None
    judged = 0
    for x in pts:
        with np.errstate(all="ignore"):
            h = np.asarray(f(*x), dtype=complex)
        if not np.all(np.isfinite(h)) or np.abs(h.imag).max() > 1e-12 * max(1.0, np.abs(h).max()):
            continue  # outside the energy's domain
        judged += 1
        lam = np.linalg.eigvalsh(h.real.reshape(len(qs), len(qs)))
        if worst is None or lam.min() < worst[0]:
            worst = (float(lam.min()), x, lam)
    if worst is None:
        return Stability(None, method, f"{where}: its energy is not defined at any point "
                         f"judged ({sampled})", points=0)
    lam = worst[2]
    verdict = hessian_verdict(lam, 1e-10 * max(1.0, float(np.abs(lam).max())))
    if verdict:
        return _failure(names, worst[1], lam, verdict, method, judged, where,
                        f"numerically at {sampled}")
    return Stability(True, method, f"{where} is intrinsically stable: its Hessian is "
                     f"positive semidefinite at {sampled}", points=judged)
