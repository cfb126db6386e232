r"""Pass-through to :func:`scipy.integrate.solve_ivp` (RK45, DOP853, Radau, BDF, LSODA).

For comparison with the structure-preserving methods.  The implicit solvers get the
exact Jacobian :math:`\partial\dot x/\partial x` (the constant, possibly sparse,
:math:`A` of an LTI system).  Solutions are reported on the output grid; the energy
bookkeeping between two output points uses the trapezoidal rule on the port powers
sampled there, so the reported power residual mixes the solver's own error with that
:math:`O(\Delta t^3)` quadrature error (the solver exposes no step-wise quantities).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.integrate as si

from .base import Dynamics

__all__ = ["SCIPY_METHODS", "solve_scipy"]

SCIPY_METHODS = ("RK45", "DOP853", "Radau", "BDF", "LSODA")


def solve_scipy(
    dyn: Dynamics,
    method: str,
    t_span: tuple[float, float],
    x0: np.ndarray,
    t_eval: np.ndarray,
    rtol: float,
    atol: float,
) -> Any:
    """Run ``solve_ivp``; returns its ``OdeResult`` (``t``, ``y``, ``status``, ``nfev``)."""

    def fun(t: float, x: np.ndarray) -> np.ndarray:
        return dyn.f(x, dyn.u(t, x))

    kw: dict[str, Any] = {}
    if method in ("Radau", "BDF", "LSODA"):
        if dyn.affine:
            A = dyn.num.A
            kw["jac"] = A.toarray() if method == "LSODA" and hasattr(A, "toarray") else A
        else:
            def jac(t: float, x: np.ndarray) -> Any:
                J = dyn.jac(t, x, dyn.u(t, x))
                return J.toarray() if method == "LSODA" and hasattr(J, "toarray") else J

            kw["jac"] = jac
    with np.errstate(all="ignore"):
        return si.solve_ivp(fun, t_span, x0, method=method, t_eval=t_eval,
                            rtol=rtol, atol=atol, **kw)
