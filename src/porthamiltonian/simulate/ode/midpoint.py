r"""Implicit midpoint rule.

.. math::

    x_{k+1} = x_k + h\,\big[(J-R)(\bar x)\,\nabla H(\bar x) + (G-P)(\bar x)\,u_{k+1/2}\big],
    \qquad \bar x = \tfrac12 (x_k + x_{k+1}),\quad u_{k+1/2} = u(t_k + h/2, \bar x).

Second order, symplectic, A-stable; it is the one-stage Gauss–Legendre method.
For quadratic :math:`H = \tfrac12 x^\top Q x`, :math:`\nabla H(\bar x)` *is* the
discrete gradient, so the discrete power balance

.. math::

    H(x_{k+1}) - H(x_k) = h\,\big(u_{k+1/2}^\top \bar y - \bar d\big),\quad
    \bar y = (G+P)^\top \nabla H(\bar x) + (M+S)u_{k+1/2},

holds exactly (up to round-off), with the dissipation :math:`\bar d` evaluated at
the midpoint (Kotyczka & Lefèvre, *Discrete-time port-Hamiltonian systems: a
definition based on symplectic integration*, Systems & Control Letters 133, 2019).
For non-quadratic :math:`H` the residual of that balance is :math:`O(h^3)` per step;
use :mod:`.discrete_gradient` there.

Linear time-invariant systems solve :math:`(I - \tfrac h2 A)\,\delta = h(Ax_k + Bu)`
with one LU factorization per step size, reused for every step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sps

from ..dae.midpoint import DAEMidpoint
from ..linalg.newton import Factorization, SimplifiedNewton, cached_factorization
from ..method import StepInfo
from ..problem.dynamics import Dynamics
from .base import OneStepMethod
from .lti import midpoint_block

__all__ = ["Midpoint"]


def identity_minus(c: float, A: Any) -> Any:
    """``I − c A`` keeping ``A`` sparse or dense."""
    n = A.shape[0]
    if sps.issparse(A):  # CSC for SuperLU, built without a format conversion per call
        return sps.csc_matrix(sps.eye(n, format="csc", dtype=np.result_type(c, A.dtype))
                              - c * sps.csc_matrix(A))
    return np.eye(n) - c * np.asarray(A)


class Midpoint(OneStepMethod):
    """Implicit midpoint rule (order 2); see the module docstring."""

    name = "midpoint"
    order = 2
    problems = frozenset({"ode", "dae"})
    energy = "quadratic"
    kernel = "midpoint"
    dae_step = staticmethod(lambda model, signal, options: DAEMidpoint.create(
        model, signal, options, discrete_gradient=False))

    def __init__(self, dyn: Dynamics, *, newton_tol: float = 1e-12, max_newton: int = 20) -> None:
        super().__init__(dyn, newton_tol=newton_tol, max_newton=max_newton)
        self._lu: dict[tuple[float, Any], Factorization] = {}
        self._scaled_key: Any = None
        self._newton = SimplifiedNewton(newton_tol, max_newton)
        self._scaled: tuple[Any, Any] = (None, None)

    @classmethod
    def create(cls, problem: Any, options: Any) -> Any:
        """The stepper.  A model may offer its own compiled midpoint step:
        ``fused_midpoint(base, problem, options)`` on its compiled form returns a stepper
        with the same step equations (``base``: this NumPy stepper, for the steps it
        cannot take) or ``None``; it is asked unless ``engine="numpy"``, the input feeds
        back the state or the structure is switched."""
        base = super().create(problem, options)
        dyn = problem.dynamics
        fused = getattr(dyn.num, "fused_midpoint", None)
        if (fused is None or options.engine == "numpy" or dyn.signal.feedback
                or dyn.modulation is not None):
            return base
        return fused(base, problem, options) or base

    def lti_block(self) -> Callable[..., Any] | None:
        """The block stepper of :mod:`.lti` when the step equations are affine."""
        return (lambda *a: midpoint_block(self, *a)) if self.dyn.affine else None

    def scaled(self, h: float) -> tuple[Any, Any]:
        """``(hA, hB)`` of the structure in force (cached with the LU factors)."""
        key = (h, self.dyn.key)
        if self._scaled_key != key:
            num = self.dyn.num
            self._scaled_key, self._scaled = key, (h * num.A, h * num.B)
        return self._scaled

    def _factor(self, h: float) -> Factorization:
        A = self.dyn.num.A
        return cached_factorization(self._lu, (h, self.dyn.key),
                                    lambda: identity_minus(0.5 * h, A))

    def step(self, t: float, x: np.ndarray, h: float) -> tuple[np.ndarray, StepInfo]:
        dyn = self.dyn
        tm = t + 0.5 * h
        u_at = dyn.input_at(tm, x)

        def F(d: np.ndarray) -> np.ndarray:
            xm = x + 0.5 * d
            return d - h * dyn.f(xm, u_at(xm))

        def Jac(d: np.ndarray) -> Any:
            xm = x + 0.5 * d
            return identity_minus(0.5 * h, dyn.jac(tm, xm, u_at(xm)))

        if dyn.affine:  # (I − h/2 A) δ = h (A x + B u): one solve with the cached LU
            d = self._factor(h).solve(h * dyn.f(x, u_at(x)))
            iterations = nfev = 1
        else:
            res = self._newton.solve(F, Jac, h * dyn.f(x, dyn.u(t, x)),
                                     float(np.max(np.abs(x), initial=0.0)), (h, dyn.key))
            d, iterations, nfev = res.w, res.iterations, res.nfev
        x_new = x + d
        xm = x + 0.5 * d
        um = u_at(xm)
        supplied, dissipated = dyn.port_powers(xm, dyn.num.gradient(xm), um)
        info = StepInfo(h * supplied, h * dissipated, dyn.delta_H(x, x_new), iterations, nfev)
        return x_new, info
