r"""Fast path of the implicit midpoint rule for linear time-invariant systems.

For :math:`\dot x = Ax + Bu` (quadratic :math:`H = \tfrac12 x^\top Q x`, constant
matrices, no state feedback) a step of size :math:`h` is the linear solve

.. math::

    (I - \tfrac h2 A)\,\delta_k = h\,(A x_k + B u_{k+1/2}),\qquad x_{k+1} = x_k + \delta_k,

with one (sparse) LU factorization per step size and structure, reused.  The loop
over a block of steps does only a matrix-vector product, one LU solve and the input
evaluation per step; the energy bookkeeping of the whole block is then computed at
once with the same formulas as :class:`.midpoint.Midpoint` (:math:`\bar x =
\tfrac12(x_k + x_{k+1})`, :math:`\bar z = Q\bar x`):

.. math::

    \Delta H_k = \bar z^\top \delta_k,\quad
    W^{\mathrm{in}}_k = h\,u^\top\big(C\bar x + Du\big),\quad
    W^{\mathrm{d}}_k = h\,\big(\bar z^\top R\bar z + 2\bar z^\top P u + u^\top S u\big).

The increment form keeps the round-off of :math:`\delta_k` relative to
:math:`|\delta_k|`, not :math:`|x_k|`, so the discrete power balance holds to
round-off at small steps as well.

The :math:`s`-stage Gauss–Legendre methods (:class:`.gauss.Gauss`) get the same
treatment through the decoupled stage systems of :mod:`.gauss_coefficients`: per step
one solve :math:`(I - h\lambda_l A)k_l = Ax_k + B\hat u_l` per real eigenvalue and per
complex pair of the Butcher matrix, :math:`\delta_k = h\sum_l \rho_l k_l`.  The stage
states :math:`X = \mathbb 1x_k^\top + hCk` and the Gauss-quadrature bookkeeping
(:math:`W^{\mathrm{in}}_k = h\sum_i b_i u_i^\top y_i`, likewise the dissipation;
:math:`\Delta H_k = (x_k + \tfrac12\delta_k)^\top Q\,\delta_k`) are computed for the
whole block at once.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .base import Dynamics
from .gauss import Gauss
from .midpoint import Midpoint

__all__ = ["midpoint_block", "gauss_block", "BLOCK_STEPS"]

#: steps per block: bounds the memory of the block's states (BLOCK_STEPS × n floats)
BLOCK_STEPS = 256


def _rows(M: object, X: np.ndarray) -> np.ndarray:
    """``(M @ X.T).T`` for a dense or sparse ``M`` and row vectors ``X``."""
    return np.asarray((M @ X.T).T)


def midpoint_block(
    stepper: Midpoint, dyn: Dynamics, x: np.ndarray, times: np.ndarray, h: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Steps from ``times[0]`` to ``times[-1]`` (``len(times) − 1`` steps of size ``h``).

    Returns the states ``X`` (one row per time) and per step the columns
    (work supplied, work dissipated, power residual) in J.
    """
    num = dyn.num
    hA, hB = stepper.scaled(h)
    solve = stepper._factor(h).solve
    signal: Callable[[float, np.ndarray], np.ndarray] = dyn.signal
    K, m = times.size - 1, dyn.m
    X = np.empty((K + 1, dyn.n))
    U = np.empty((K, m))
    X[0] = x
    for j in range(K):  # the hot loop: one matvec, one LU solve, no other temporaries
        if m:
            u = signal(0.5 * (times[j] + times[j + 1]), x)
            U[j] = u
            d = solve(hA @ x + hB @ u)
        else:
            d = solve(hA @ x)
        x = np.add(x, d, out=X[j + 1])
    Xm = 0.5 * (X[:-1] + X[1:])
    Zm = _rows(num.Q, Xm)
    dH = np.einsum("ij,ij->i", Zm, X[1:] - X[:-1])
    supplied, dissipated = _port_work(dyn, Xm, Zm, U, h)
    return X, np.column_stack([supplied, dissipated, dH - (supplied - dissipated)])


def _port_work(dyn: Dynamics, X: np.ndarray, Z: np.ndarray, U: np.ndarray,
               h: float) -> tuple[np.ndarray, np.ndarray]:
    r"""Per row: :math:`h\,u^\top(CX + Du)` and :math:`h\,(z^\top Rz + 2z^\top Pu +
    u^\top Su)` (J), for states ``X``, efforts ``Z = QX`` and inputs ``U`` (rows)."""
    num, x = dyn.num, X[0]
    dissipated = h * np.einsum("ij,ij->i", Z, _rows(num.matrix("R", x), Z))
    if not dyn.m:
        return np.zeros(X.shape[0]), dissipated
    supplied = h * np.einsum("ij,ij->i", U, _rows(num.C, X) + _rows(num.D, U))
    dissipated += h * (2.0 * np.einsum("ij,ij->i", Z, _rows(num.matrix("P", x), U))
                       + np.einsum("ij,ij->i", U, _rows(num.matrix("S", x), U)))
    return supplied, dissipated


def gauss_block(
    stepper: Gauss, dyn: Dynamics, x: np.ndarray, times: np.ndarray, h: float,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`midpoint_block` for the ``s``-stage Gauss–Legendre method (see the module
    docstring); same returns."""
    num, s, n, m = dyn.num, stepper.s, dyn.n, dyn.m
    A, B, c, dec = num.A, num.B, stepper.c, stepper.decoupled
    # per solved eigenvalue: (LU solve, weight h ρ_l of k_l in δ, k_l real)
    solved = [(stepper.factor(h, r).solve, h * (rho.real if real else rho), real)
              for r, (rho, real) in enumerate(zip(dec.rho, dec.real, strict=True))]
    signal: Callable[[float, np.ndarray], np.ndarray] = dyn.signal
    K = times.size - 1
    X = np.empty((K + 1, n))
    k_all = np.empty((K, len(solved), n), dtype=complex)
    U = np.empty((K, s, m))
    X[0] = x
    for j in range(K):  # hot loop: one matvec, one LU solve per solved eigenvalue
        Ax = A @ x
        if m:
            U[j] = [signal(times[j] + ci * h, x) for ci in c]
            BU = B @ (dec.Uin @ U[j]).T  # column l: B û_l
        d = np.zeros(n)
        for r, (solve, weight, real) in enumerate(solved):
            rhs = Ax if not m else Ax + (BU[:, r].real if real else BU[:, r])
            k = solve(rhs)
            k_all[j, r] = k
            d += (weight * k).real
        x = np.add(x, d, out=X[j + 1])
    # stage states X_i = x_k + h Re(C k)_i
    Xs = X[:-1, None, :] + h * (np.matmul(dec.C.real, k_all.real)
                                - np.matmul(dec.C.imag, k_all.imag))
    Zs = _rows(num.Q, Xs.reshape(K * s, n))
    supplied, dissipated = _port_work(dyn, Xs.reshape(K * s, n), Zs, U.reshape(K * s, m), h)
    bw = np.tile(stepper.b, K)
    supplied = (bw * supplied).reshape(K, s).sum(axis=1)
    dissipated = (bw * dissipated).reshape(K, s).sum(axis=1)
    D = X[1:] - X[:-1]
    dH = np.einsum("ij,ij->i", _rows(num.Q, X[:-1] + 0.5 * D), D)
    return X, np.column_stack([supplied, dissipated, dH - (supplied - dissipated)])
