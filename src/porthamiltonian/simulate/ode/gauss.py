r"""Gauss–Legendre collocation with :math:`s = 1, \ldots, 6` stages (order :math:`2s`).

Stage derivatives :math:`K_i` solve

.. math::

    K_i = f\big(X_i,\ u(t_k + c_i h, X_i)\big),\qquad
    X_i = x_k + h \sum_j a_{ij} K_j,\qquad x_{k+1} = x_k + h\sum_i b_i K_i,

with :math:`c_i` the Gauss–Legendre nodes on :math:`[0, 1]` and :math:`a_{ij}, b_j`
the integrals of the Lagrange polynomials on them (Butcher tableau computed here
from the nodes).  The input is sampled at the stage times (and stage states for
feedback).  The energy bookkeeping uses the same quadrature:

.. math::

    \int u^\top y\,dt \approx h\sum_i b_i\, u_i^\top y(X_i, u_i),\qquad
    \int d\,dt \approx h\sum_i b_i\, d(X_i, u_i).

For quadratic :math:`H` the collocation polynomial makes :math:`dH/dt` a polynomial of
degree :math:`2s-1`, integrated exactly by the :math:`s`-point Gauss rule, so the
discrete power balance is exact (Kotyczka & Lefèvre, *Discrete-time
port-Hamiltonian systems: a definition based on symplectic integration*, Systems &
Control Letters 133, 2019; Mehrmann & Morandin, *Structure-preserving
discretization for port-Hamiltonian descriptor systems*, CDC 2019).  ``s = 1`` is the
implicit midpoint rule.  LTI systems solve the stage equations through the
eigen-decomposition of the Butcher matrix: ``s`` decoupled (complex) systems of size
n, each factored once per step size (Hairer & Wanner, *Solving ODEs II*, §IV.8).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sps

from ..linalg.newton import Factorization, SimplifiedNewton, cached_factorization
from ..method import StepInfo
from ..problem.dynamics import Dynamics
from .base import OneStepMethod
from .gauss_coefficients import STAGES, decoupling, gauss_tableau
from .lti import gauss_block
from .midpoint import identity_minus

__all__ = ["Gauss", "GAUSS_METHODS", "gauss_tableau", "STAGES"]


class Gauss(OneStepMethod):
    """``s``-stage Gauss–Legendre collocation (s = 1, …, 6); see the module docstring.

    The registry holds one subclass per ``s`` (``gauss1`` … ``gauss6``, with ``stages``
    set); ``Gauss(dyn, s)`` builds the ``s``-stage method directly."""

    energy = "quadratic"
    kernel = "gauss"
    #: number of stages of the registered subclasses
    stages: int = 0

    def __init__(
        self, dyn: Dynamics, s: int | None = None, *, newton_tol: float = 1e-12,
        max_newton: int = 20
    ) -> None:
        s = type(self).stages if s is None else s
        if s not in STAGES:
            raise ValueError("Gauss–Legendre collocation is provided for s = 1, …, 6")
        super().__init__(dyn, newton_tol=newton_tol, max_newton=max_newton)
        self.s = s
        self.name, self.order = f"gauss{s}", 2 * s  # type: ignore[misc]
        self.A, self.b, self.c = gauss_tableau(s)
        #: LTI stage decoupling (:mod:`.gauss_coefficients`)
        self.decoupled = decoupling(s)
        self.newton_tol, self.max_newton = newton_tol, max_newton
        self._newton = SimplifiedNewton(newton_tol, max_newton)
        self._lu: dict[tuple[float, Any], Factorization] = {}

    def lti_block(self) -> Callable[..., Any] | None:
        """The Gauss block stepper of :mod:`.lti` when the step equations are affine."""
        return (lambda *a: gauss_block(self, *a)) if self.dyn.affine else None

    def _stages(self, x: np.ndarray, K: np.ndarray, h: float) -> np.ndarray:
        return x[None, :] + h * (self.A @ K)

    def _jacobian(self, t: float, h: float, X: np.ndarray, U: np.ndarray) -> Any:
        r""":math:`I - h\,\mathrm{blockdiag}(\partial_x f(X_i))\,(A_{RK}\otimes I)` for the
        stacked stage derivatives; sparse (CSC) when the stage Jacobians are."""
        dyn, s, n = self.dyn, self.s, self.dyn.n
        blocks = [dyn.jac(t + self.c[i] * h, X[i], U[i]) for i in range(s)]
        if all(sps.issparse(b) for b in blocks):
            grid = [[(sps.eye(n, format="csr") if i == j else None)
                     for j in range(s)] for i in range(s)]
            for i in range(s):
                for j in range(s):
                    term = (-h * self.A[i, j]) * blocks[i]
                    grid[i][j] = term if grid[i][j] is None else grid[i][j] + term
            return sps.csc_matrix(sps.bmat(grid))
        dense = [b.toarray() if sps.issparse(b) else np.asarray(b) for b in blocks]
        Jm = np.eye(s * n)
        for i in range(s):
            for j in range(s):
                Jm[i * n:(i + 1) * n, j * n:(j + 1) * n] -= h * self.A[i, j] * dense[i]
        return Jm

    def step(self, t: float, x: np.ndarray, h: float) -> tuple[np.ndarray, StepInfo]:
        dyn, s, n = self.dyn, self.s, self.dyn.n
        ts = t + self.c * h

        def stage_inputs(X: np.ndarray) -> np.ndarray:
            return np.array([dyn.u(ts[i], X[i]) for i in range(s)]).reshape(s, dyn.m)

        def F(w: np.ndarray) -> np.ndarray:
            K = w.reshape(s, n)
            X = self._stages(x, K, h)
            U = stage_inputs(X)
            return (K - np.array([dyn.f(X[i], U[i]) for i in range(s)])).ravel()

        def Jac(w: np.ndarray) -> Any:
            X = self._stages(x, w.reshape(s, n), h)
            return self._jacobian(t, h, X, stage_inputs(X))

        if dyn.affine:
            K, delta = self._affine_stages(x, h, stage_inputs(np.tile(x, (s, 1))))
            iterations = nfev = 1
        else:
            res = self._newton.solve(F, Jac, np.tile(dyn.f(x, dyn.u(t, x)), s),
                                     float(np.max(np.abs(x), initial=0.0)), (h, dyn.key))
            K, iterations, nfev = res.w.reshape(s, n), res.iterations, res.nfev
            delta = h * (self.b @ K)
        X = self._stages(x, K, h)
        U = stage_inputs(X)
        x_new = x + delta
        supplied = dissipated = 0.0
        for i in range(s):
            p_in, p_d = dyn.port_powers(X[i], dyn.num.gradient(X[i]), U[i])
            supplied += h * self.b[i] * p_in
            dissipated += h * self.b[i] * p_d
        return x_new, StepInfo(supplied, dissipated, dyn.delta_H(x, x_new), iterations, nfev)

    def _affine_stages(self, x: np.ndarray, h: float,
                       U: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Stage derivatives ``K`` (rows) and increment :math:`x_{k+1} - x_k` of an LTI step
        (:meth:`solve_decoupled`)."""
        dec = self.decoupled
        k = np.array(self.solve_decoupled(x, U, h))
        return (dec.P @ k).real, h * (dec.rho @ k).real

    def solve_decoupled(self, x: np.ndarray, U: np.ndarray, h: float) -> list[np.ndarray]:
        r"""The :math:`k_l` of an LTI step from ``x`` with stage inputs ``U`` (s × m):
        :math:`(I - h\lambda_l A)k_l = Ax + B\hat u_l`, one real or complex solve of size n
        per real eigenvalue or complex pair of the Butcher matrix instead of one of size
        ``s·n`` (:mod:`.gauss_coefficients`)."""
        dec, num = self.decoupled, self.dyn.num
        Ax = num.A @ x
        BU = num.B @ (dec.Uin @ U).T if self.dyn.m else None
        return [self.factor(h, r).solve(
                    Ax if BU is None else Ax + (BU[:, r].real if real else BU[:, r]))
                for r, real in enumerate(dec.real)]

    def factor(self, h: float, r: int) -> Factorization:
        r"""LU factors of :math:`I - h\lambda_r A` for the ``r``-th solved eigenvalue of
        the Butcher matrix (complex for a complex pair), cached per step size and
        structure."""
        lam, A = self.decoupled.lam[r], self.dyn.num.A
        real = self.decoupled.real[r]
        return cached_factorization(self._lu, (h, self.dyn.key, r),
                                    lambda: identity_minus(h * (lam.real if real else lam), A))


def _registered(s: int) -> type[Gauss]:
    return type(f"Gauss{s}", (Gauss,), {
        "name": f"gauss{s}", "order": 2 * s, "stages": s, "__module__": __name__,
        "__doc__": f"{s}-stage Gauss–Legendre collocation (order {2 * s})."})


#: the registered ``gauss1`` … ``gauss6`` methods
GAUSS_METHODS: tuple[type[Gauss], ...] = tuple(_registered(s) for s in STAGES)
