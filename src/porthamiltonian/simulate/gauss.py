r"""Gauss–Legendre collocation with :math:`s = 1, 2, 3` stages (order :math:`2s`).

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
implicit midpoint rule.  LTI systems factor :math:`I - h\,(A_{\mathrm{RK}}\otimes A)`
once per step size.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps

from .base import Dynamics, StepInfo
from .newton import Factorization, cached_factorization, newton

__all__ = ["Gauss", "gauss_tableau"]


def gauss_tableau(s: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Butcher tableau ``(A, b, c)`` of the ``s``-stage Gauss–Legendre method."""
    x, _ = np.polynomial.legendre.leggauss(s)
    c = 0.5 * (x + 1.0)
    V = np.vander(c, s, increasing=True)  # V[i, k] = c_i^k
    L = np.linalg.inv(V)  # Lagrange basis coefficients: ℓ_j(τ) = Σ_k L[k, j] τ^k
    k = np.arange(s)
    A = (c[:, None] ** (k + 1) / (k + 1)) @ L
    b = (1.0 / (k + 1)) @ L
    return A, b, c


class Gauss:
    """``s``-stage Gauss–Legendre collocation (s = 1, 2, 3); see the module docstring."""

    def __init__(
        self, dyn: Dynamics, s: int, *, newton_tol: float = 1e-12, max_newton: int = 20
    ) -> None:
        if s not in (1, 2, 3):
            raise ValueError("Gauss–Legendre collocation is provided for s = 1, 2, 3")
        self.dyn, self.s = dyn, s
        self.name, self.order = f"gauss{s}", 2 * s
        self.A, self.b, self.c = gauss_tableau(s)
        self.newton_tol, self.max_newton = newton_tol, max_newton
        self._lu: dict[tuple[float, Any], Factorization] = {}

    def _stages(self, x: np.ndarray, K: np.ndarray, h: float) -> np.ndarray:
        return x[None, :] + h * (self.A @ K)

    def _jacobian(self, t: float, h: float, X: np.ndarray, U: np.ndarray) -> Any:
        dyn, s, n = self.dyn, self.s, self.dyn.n
        if dyn.affine:
            A = dyn.num.A
            if sps.issparse(A):
                return sps.csc_matrix(sps.identity(s * n) - h * sps.kron(self.A, A))
            return np.eye(s * n) - h * np.kron(self.A, np.asarray(A))
        blocks = []
        for i in range(s):
            Jf = dyn.jac(t + self.c[i] * h, X[i], U[i])
            blocks.append(Jf.toarray() if sps.issparse(Jf) else np.asarray(Jf))
        Jm = np.eye(s * n)
        for i in range(s):
            for j in range(s):
                Jm[i * n:(i + 1) * n, j * n:(j + 1) * n] -= h * self.A[i, j] * blocks[i]
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

        lu = None
        if dyn.affine:
            lu = cached_factorization(self._lu, (h, dyn.key),
                                      lambda: self._jacobian(t, h, None, None))  # type: ignore[arg-type]
            w0 = np.zeros(s * n)
        else:
            w0 = np.tile(dyn.f(x, dyn.u(t, x)), s)
        res = newton(F, Jac, w0, scale=float(np.max(np.abs(x), initial=0.0)),
                     tol=self.newton_tol, max_iter=self.max_newton,
                     factorization=lu, affine=dyn.affine)
        K = res.w.reshape(s, n)
        X = self._stages(x, K, h)
        U = stage_inputs(X)
        x_new = x + h * (self.b @ K)
        supplied = dissipated = 0.0
        for i in range(s):
            p_in, p_d = dyn.port_powers(X[i], dyn.num.gradient(X[i]), U[i])
            supplied += h * self.b[i] * p_in
            dissipated += h * self.b[i] * p_d
        return x_new, StepInfo(supplied, dissipated, dyn.delta_H(x, x_new),
                               res.iterations, res.nfev)
