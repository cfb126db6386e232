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
implicit midpoint rule.  LTI systems solve the stage equations through the
eigen-decomposition of the Butcher matrix: ``s`` decoupled (complex) systems of size
n, each factored once per step size (Hairer & Wanner, *Solving ODEs II*, §IV.8).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps

from .base import Dynamics, StepInfo
from .midpoint import identity_minus
from .newton import Factorization, SimplifiedNewton, cached_factorization

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
        lam, V = np.linalg.eig(self.A)
        self._lam, self._V, self._Vinv = lam, V, np.linalg.inv(V)
        # solve each real eigenvalue, and one of each complex-conjugate pair
        self._pairs: list[tuple[int, int]] = []
        for i in range(s):
            if lam[i].imag < 0:
                continue
            j = -1
            if lam[i].imag > 0:
                j = int(np.argmin(np.abs(lam - np.conj(lam[i]))))
            self._pairs.append((i, j))
        self.newton_tol, self.max_newton = newton_tol, max_newton
        self._newton = SimplifiedNewton(newton_tol, max_newton)
        self._lu: dict[tuple[float, Any], Factorization] = {}

    def _stages(self, x: np.ndarray, K: np.ndarray, h: float) -> np.ndarray:
        return x[None, :] + h * (self.A @ K)

    def _jacobian(self, t: float, h: float, X: np.ndarray, U: np.ndarray) -> Any:
        dyn, s, n = self.dyn, self.s, self.dyn.n
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

        if dyn.affine:
            K = self._affine_stages(x, h, stage_inputs(np.tile(x, (s, 1))))
            iterations = nfev = 1
        else:
            res = self._newton.solve(F, Jac, np.tile(dyn.f(x, dyn.u(t, x)), s),
                                     float(np.max(np.abs(x), initial=0.0)), (h, dyn.key))
            K, iterations, nfev = res.w.reshape(s, n), res.iterations, res.nfev
        X = self._stages(x, K, h)
        U = stage_inputs(X)
        x_new = x + h * (self.b @ K)
        supplied = dissipated = 0.0
        for i in range(s):
            p_in, p_d = dyn.port_powers(X[i], dyn.num.gradient(X[i]), U[i])
            supplied += h * self.b[i] * p_in
            dissipated += h * self.b[i] * p_d
        return x_new, StepInfo(supplied, dissipated, dyn.delta_H(x, x_new), iterations, nfev)

    def _affine_stages(self, x: np.ndarray, h: float, U: np.ndarray) -> np.ndarray:
        r"""Stage derivatives of an LTI step, :math:`K - hA_{RK}KA^\top = \mathbb 1(Ax)^\top
        + UB^\top`, through the eigenvectors :math:`A_{RK} = V\Lambda V^{-1}`: ``s``
        decoupled systems :math:`(I - h\lambda_i A)\tilde k_i = (V^{-1}F_0)_i` of size
        n (complex for the complex pairs, of which one is solved and the other is its
        conjugate) instead of one of size ``s·n`` (Hairer & Wanner, *Solving ODEs II*,
        §IV.8)."""
        dyn = self.dyn
        A, B = dyn.num.A, dyn.num.B
        F0 = np.tile(A @ x, (self.s, 1))
        if dyn.m:
            F0 = F0 + np.asarray((B @ U.T).T)
        G = self._Vinv @ F0
        Kt = np.empty_like(G)
        for i, partner in self._pairs:
            lam = self._lam[i]
            lu = cached_factorization(self._lu, (h, dyn.key, i),
                                      lambda lam=lam: identity_minus(h * lam, A))
            Kt[i] = lu.solve(G[i] if lam.imag else G[i].real)
            if partner >= 0:
                Kt[partner] = np.conj(Kt[i])
        return (self._V @ Kt).real
