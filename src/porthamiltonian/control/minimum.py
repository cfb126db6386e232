r"""Strict-minimum check of a closed-loop energy at the target equilibrium.

:math:`x^\star` is a strict (local) minimum of :math:`H_d` when
:math:`\nabla H_d(x^\star) = 0` and :math:`\nabla^2 H_d(x^\star) \succ 0` (sufficient
second-order condition).  Then :math:`H_d - H_d(x^\star)` is a Lyapunov function of any
closed loop :math:`\dot x = (J_d - R_d)\nabla H_d` (Ortega et al., *Automatica* 38, 2002,
Prop. 1(iii)): :math:`\dot H_d = -\nabla H_d^\top R_d \nabla H_d \le 0`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError

__all__ = ["MinimumCheck", "check_strict_minimum", "state_vector"]


@dataclass(frozen=True)
class MinimumCheck:
    """Gradient and Hessian of an energy at a point (numbers, SI units of the energy)."""

    gradient: np.ndarray
    hessian: np.ndarray
    eigenvalues: np.ndarray


def state_vector(x: Any, states: Sequence[str], what: str = "x_star") -> np.ndarray:
    """A state as a float array, from an array or ``{state name: value}`` (all required)."""
    if isinstance(x, Mapping):
        unknown = sorted(set(map(str, x)) - set(states))
        missing = [s for s in states if s not in {str(k) for k in x}]
        if unknown or missing:
            raise ModelError(
                f"{what}: unknown state(s) {unknown} / missing state(s) {missing}; give a "
                f"value for each of {', '.join(states)}"
            )
        vals = {str(k): v for k, v in x.items()}
        arr = np.array([float(vals[s]) for s in states])
    else:
        arr = np.asarray(x, dtype=float).ravel()
        if arr.size != len(states):
            raise ModelError(f"{what} has {arr.size} values for {len(states)} states "
                             f"({', '.join(states)})")
    if not np.all(np.isfinite(arr)):
        raise ModelError(f"{what} contains NaN or Inf")
    return arr


def check_strict_minimum(
    H: sp.Expr, xs: Sequence[sp.Symbol], x_star: np.ndarray, name: str = "Hd",
    tol: float = 1e-9,
) -> MinimumCheck:
    """Raise :class:`ModelError` unless ``x_star`` is a strict minimum of ``H`` (numeric).

    ``H`` may contain no symbol other than ``xs``.  The gradient is compared with the
    scale ``max(1, |∇²H(x*)|·|x*|)``; the Hessian must have all eigenvalues above
    ``tol`` times its largest one.
    """
    xs = list(xs)
    extra = sorted(s.name for s in H.free_symbols - set(xs))
    if extra:
        raise ModelError(f"{name} contains symbols without a value: {', '.join(extra)}; give "
                         "them with parameters={...}")
    at = dict(zip(xs, (sp.Float(v) for v in x_star), strict=True))
    grad = np.array([float(sp.diff(H, x).xreplace(at)) for x in xs])
    hess = np.array(sp.hessian(H, xs).xreplace(at).tolist(), dtype=float)
    lam, vec = np.linalg.eigh(hess)
    scale = max(1.0, float(np.max(np.abs(hess))) * max(1.0, float(np.max(np.abs(x_star)))))
    names = [x.name for x in xs]
    worst = int(np.argmax(np.abs(grad)))
    if abs(grad[worst]) > tol * scale:
        raise ModelError(
            f"x* is not a stationary point of {name}: ∂{name}/∂{names[worst]} = "
            f"{grad[worst]:.6g} at x* (∇{name} = {np.array2string(grad, precision=4)}); "
            "x* is not an equilibrium of the closed loop — choose the free function / "
            "controller energy so that the gradient vanishes there"
        )
    top = max(float(np.max(np.abs(lam))), 1e-300)
    if lam[0] <= tol * top:
        v = vec[:, 0]
        along = ", ".join(f"{names[k]} ({v[k]:+.2f})" for k in np.argsort(-np.abs(v))[:3]
                          if abs(v[k]) > 1e-3)
        raise ModelError(
            f"x* is not a strict minimum of {name}: its Hessian has the eigenvalue "
            f"{lam[0]:.6g} ≤ 0 along {along}; increase the curvature of the shaped energy "
            "in these directions (larger gains in the free function / controller energy)"
        )
    return MinimumCheck(grad, hess, lam)
