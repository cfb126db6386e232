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
from typing import Any

import numpy as np
import scipy.sparse as sps

from ..problem.dynamics import Dynamics

__all__ = ["midpoint_block", "gauss_block", "BLOCK_STEPS"]

#: steps per block: bounds the memory of the block's states (BLOCK_STEPS × n floats)
BLOCK_STEPS = 256


def _rows(M: Any, X: np.ndarray) -> np.ndarray:
    """``(M @ X.T).T`` for a dense or sparse ``M`` and row vectors ``X``; a zero or
    diagonal sparse ``M`` (no coupling, lumped storages: the common case) is applied
    without the transposed copy of ``X``."""
    if sps.issparse(M):
        if M.nnz == 0:
            return np.zeros((X.shape[0], M.shape[0]))
        d = M.diagonal()
        if M.shape[0] == M.shape[1] and (M - sps.diags_array(d)).count_nonzero() == 0:
            return X * d
    return np.asarray((M @ X.T).T)


def midpoint_block(
    stepper: Any, dyn: Dynamics, x: np.ndarray, times: np.ndarray, h: float,
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


def _nonzero(M: Any) -> bool:
    return bool(M.count_nonzero() if sps.issparse(M) else np.any(M))


def gauss_block(
    stepper: Any, dyn: Dynamics, x: np.ndarray, times: np.ndarray, h: float,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`midpoint_block` for the ``s``-stage Gauss–Legendre method (see the module
    docstring); same returns."""
    num, s, n, m = dyn.num, stepper.s, dyn.n, dyn.m
    c, dec = stepper.c, stepper.decoupled
    weights = h * dec.rho  # δ = Re Σ_l h ρ_l k_l
    signal: Callable[[float, np.ndarray], np.ndarray] = dyn.signal
    K, nl = times.size - 1, len(dec.real)
    X = np.empty((K + 1, n))
    k_re = np.zeros((nl, K, n))  # real and imaginary parts of the k_l
    k_im = np.zeros((nl, K, n))
    U = np.empty((K, s, m))
    X[0] = x
    for j in range(K):  # hot loop: one matvec, one LU solve per solved eigenvalue
        if m:
            U[j] = [signal(times[j] + ci * h, x) for ci in c]
        d = np.zeros(n)
        for r, k in enumerate(stepper.solve_decoupled(x, U[j], h)):
            if dec.real[r]:
                k_re[r, j] = k
                d += weights[r].real * k
            else:
                k_re[r, j], k_im[r, j] = k.real, k.imag
                d += weights[r].real * k.real - weights[r].imag * k.imag
        x = np.add(x, d, out=X[j + 1])
    if m or _nonzero(num.matrix("R", x)):
        # stage states X_i = x_k + h Re(C k)_i, stage-major: rows (i, k) of an (s·K) × n
        # array; the Gauss rule on them gives the work and the dissipation
        Xs = np.broadcast_to(X[None, :-1], (s, K, n)).copy()
        for r in range(nl):
            Xs += (h * dec.C.real[:, r, None, None]) * k_re[r]
            if not dec.real[r]:
                Xs -= (h * dec.C.imag[:, r, None, None]) * k_im[r]
        Xs = Xs.reshape(s * K, n)
        Us = U.transpose(1, 0, 2).reshape(s * K, m)
        supplied, dissipated = _port_work(dyn, Xs, _rows(num.Q, Xs), Us, h)
        bw = np.repeat(stepper.b, K)
        supplied = (bw * supplied).reshape(s, K).sum(axis=0)
        dissipated = (bw * dissipated).reshape(s, K).sum(axis=0)
    else:  # lossless and unforced: no work, no dissipation
        supplied = dissipated = np.zeros(K)
    D = X[1:] - X[:-1]
    dH = np.einsum("ij,ij->i", _rows(num.Q, X[:-1] + 0.5 * D), D)
    return X, np.column_stack([supplied, dissipated, dH - (supplied - dissipated)])
