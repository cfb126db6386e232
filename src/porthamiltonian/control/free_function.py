r"""Choice of the free function Φ(z) of the general solution of the matching equations.

Default (Ortega et al., *Automatica* 38, 2002, §4: pick Φ to place the minimum):
:math:`\Phi = g_0^\top(z - z^\star) + \tfrac12 (z - z^\star)^\top K_z (z - z^\star)`, with
:math:`g_0` from :math:`\nabla h_p(x^\star) + (\partial z/\partial x)^\top g_0 = 0` (so
:math:`\nabla H_d(x^\star) = 0`) and :math:`\nabla^2 H_d(x^\star) = \nabla^2 h_p
+ \sum_j g_{0,j}\nabla^2 z_j + D^\top K_z D`, :math:`D = \partial z/\partial x`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError
from .matching import MatchingSolution
from .symbolic import substitute_by_name

__all__ = ["choose_free_function"]


def choose_free_function(
    sol: MatchingSolution, phi: Any, xs: list[sp.Symbol], xstar: np.ndarray,
    values: dict[str, Any], params: Mapping[str, Any],
) -> tuple[sp.Expr, sp.Expr | None]:
    if not sol.arguments:
        return sol.particular, None
    zsyms = [sp.Symbol(f"z{j}", real=True) for j in range(len(sol.arguments))]
    if callable(phi) and not isinstance(phi, (sp.MatrixBase, np.ndarray)):
        Hd = sol.with_free_function(phi)
        return Hd, sp.sympify(phi(*zsyms))
    at = dict(zip(xs, (sp.Float(v) for v in xstar), strict=True))
    Hp = substitute_by_name(sol.particular, values)
    z = [substitute_by_name(e, values) for e in sol.arguments]
    gp = np.array([float(sp.diff(Hp, x).xreplace(at)) for x in xs])
    H0 = np.array(sp.hessian(Hp, xs).xreplace(at).tolist(), dtype=float)
    D = np.array(sp.Matrix(z).jacobian(xs).xreplace(at).tolist(), dtype=float)
    zstar = np.array([float(e.xreplace(at)) for e in z])
    g0, *_ = np.linalg.lstsq(D.T, -gp, rcond=None)
    if np.max(np.abs(D.T @ g0 + gp), initial=0.0) > 1e-8 * max(1.0, np.max(np.abs(gp))):
        raise ModelError("no choice of the free function makes ∇Hd(x*) = 0: x* is not an "
                         "equilibrium reachable with this Jd − Rd")
    H1 = H0 + sum((g0[j] * np.array(sp.hessian(z[j], xs).xreplace(at).tolist(), dtype=float)
                   for j in range(len(z))), np.zeros_like(H0))
    if phi is None:
        Kz = _default_gain(H1, D) * np.eye(len(z))
    else:
        Kz = np.asarray(phi, dtype=float) * (np.eye(len(z)) if np.ndim(phi) == 0 else 1)
    dz = sp.Matrix(zsyms) - sp.Matrix(zstar.tolist())
    Phi = (sp.Matrix(g0.tolist()).T * dz)[0] + (dz.T * sp.Matrix(Kz.tolist()) * dz)[0] / 2
    Phi = sp.expand(Phi)
    Hd = sol.particular + Phi.xreplace(dict(zip(zsyms, sol.arguments, strict=True)))
    return Hd, Phi


def _default_gain(H1: np.ndarray, D: np.ndarray) -> float:
    """``max(2κ0, ‖H1‖/‖DᵀD‖)``, κ0 the least κ with H1 + κ DᵀD ≻ 0 (λ_min grows with κ).

    The floor gives the free function a curvature of the order of the rest of ``Hd``
    even when κ0 is 0 or tiny."""
    P = D.T @ D

    def pd(k: float) -> bool:
        lam = np.linalg.eigvalsh(H1 + k * P)
        return bool(lam[0] > 1e-12 * max(1.0, np.max(np.abs(lam))))

    scale = max(np.linalg.norm(H1, 2), 1e-12) / max(np.linalg.norm(P, 2), 1e-300)
    if pd(0.0):
        return float(scale)
    hi = scale
    for _ in range(60):
        if pd(hi):
            break
        hi *= 10.0
    else:
        raise ModelError("no quadratic free function makes x* a strict minimum of Hd: the "
                         "Hessian of the particular solution is indefinite along ker(∂z/∂x); "
                         "choose another Jd/Rd (or Md)")
    lo = 0.0
    while hi - lo > 1e-6 * hi:
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if pd(mid) else (mid, hi)
    return float(max(2.0 * hi, scale))
