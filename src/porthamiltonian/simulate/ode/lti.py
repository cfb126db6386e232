r"""Fast path of the implicit midpoint rule for linear time-invariant systems.

For :math:`\dot x = Ax + Bu` (quadratic :math:`H = \tfrac12 x^\top Q x`, constant
matrices, no state feedback) a step of size :math:`h` is the linear solve

.. math::

    (I - \tfrac h2 A)\,\delta_k = h\,(A x_k + B u_{k+1/2}),\qquad x_{k+1} = x_k + \delta_k,

with one (sparse) LU factorization per step size and structure, reused.  The loop
over a block of steps does only a matrix-vector product (written into the next row of
the block; by diagonals for a banded :math:`A`), one LU solve and the input evaluation
per step; the energy bookkeeping of the whole block is then computed at once with the
same formulas as :class:`.midpoint.Midpoint` (:math:`\bar x = \tfrac12(x_k + x_{k+1})`,
:math:`\bar z = Q\bar x`): the state-quadratic terms :math:`\bar x^\top Q\delta_k` and
:math:`\bar z^\top R\bar z = \bar x^\top (Q^\top RQ)\bar x` in one pass over the
block's rows (:class:`..output.rowwise.FormSet`, :math:`\bar x` and :math:`\delta_k`
read from consecutive rows, never stored), the input terms by their own (small)
matrices:

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

import weakref
from collections.abc import Callable
from typing import Any

import numpy as np

from ..output.points import LinearPoints, linear_points
from ..output.rowwise import RowOperator, Rows, use_compiled
from ..problem.dynamics import Dynamics

__all__ = ["midpoint_block", "gauss_block", "release", "BLOCK_STEPS"]

#: steps per block: bounds the memory of the block's states (BLOCK_STEPS × n floats)
BLOCK_STEPS = 256

#: per stepper: the block's work array (reused: a block's states are valid until the next
#: block of the same stepper) and the row operators of its scaled matrices (hA, hB)
_WORK: weakref.WeakKeyDictionary[Any, dict[str, Any]] = weakref.WeakKeyDictionary()


def _work(stepper: Any) -> dict[str, Any]:
    work = _WORK.get(stepper)
    if work is None:
        work = _WORK[stepper] = {"X": np.empty((0, 0)), "scaled": (None, None)}
    return work


def _states(stepper: Any, x: np.ndarray, K: int) -> np.ndarray:
    """The ``(K + 1) × n`` rows of the block's states, row 0 = ``x``: a view of the
    stepper's work array, grown when too small and reused by its next block (so a
    streamed run holds one block, not one per call)."""
    work = _work(stepper)
    buf = work["X"]
    if buf.shape[0] < K + 1 or buf.shape[1] != x.size:
        buf = work["X"] = np.empty((K + 1, x.size))
    X = buf[: K + 1]
    X[0] = x
    return X


def release(buffer: Any) -> None:
    """Forget the work array ``buffer`` (the base of a block's states) if a stepper keeps
    it: its next block allocates a new one.  A streamed run drops its block this way
    before the result is made, so that the two are not held at once."""
    for work in list(_WORK.values()):
        if work["X"] is buffer:
            work["X"] = np.empty((0, 0))


def _scaled(stepper: Any, h: float) -> tuple[RowOperator, RowOperator]:
    """Row operators of ``(hA, hB)``, formed once per step size and structure."""
    work = _work(stepper)
    hA, hB = stepper.scaled(h)
    compiled = use_compiled()
    key, ops = work["scaled"]
    if key is None or key[0] is not hA or key[1] is not hB or key[2] != compiled:
        ops = (RowOperator(hA, compiled), RowOperator(hB, compiled))
        work["scaled"] = ((hA, hB, compiled), ops)
    return ops


def midpoint_block(
    stepper: Any, dyn: Dynamics, x: np.ndarray, times: np.ndarray, h: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Steps from ``times[0]`` to ``times[-1]`` (``len(times) − 1`` steps of size ``h``).

    Returns the states ``X`` (one row per time; the stepper's work array, valid until its
    next block) and per step the columns (work supplied, work dissipated, power residual)
    in J.
    """
    hA, hB = _scaled(stepper, h)
    solve = stepper._factor(h).solve
    signal: Callable[[float, np.ndarray], np.ndarray] = dyn.signal
    K, m = times.size - 1, dyn.m
    X = _states(stepper, x, K)
    U = np.zeros((K, m))
    for j in range(K):  # the hot loop: one matvec into X[j + 1], one LU solve
        if m:
            U[j] = signal(0.5 * (times[j] + times[j + 1]), X[j])
        hA.affine_into(hB, X[j], U[j], X[j + 1])
        np.add(X[j], solve(X[j + 1]), out=X[j + 1])
    ops = linear_points(dyn.num)
    xm: Rows = (X, 0.5, 0.5)
    # one pass over the block: x̄ᵀQδ (increments, no cancellation) and x̄ᵀ(QᵀRQ)x̄
    quad = ops.steps.over_steps(X[: K + 1])
    dH = quad[:, 0]
    supplied, dissipated = _port_work(ops, xm, U, h, K, h * quad[:, 1])
    return X, np.column_stack([supplied, dissipated, dH - (supplied - dissipated)])


def _port_work(ops: LinearPoints, X: Rows, U: np.ndarray, h: float, K: int,
               dissipated: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Per row: :math:`h\,u^\top(Cx + Du)` and :math:`h\,(z^\top Rz + 2z^\top Pu +
    u^\top Su)` (J) with :math:`z = Qx`, for the (combined) state rows ``X`` and the
    inputs ``U``, given the state part ``dissipated`` = :math:`h\,z^\top Rz`."""
    if not U.shape[1]:
        return np.zeros(K), dissipated
    u: Rows = (U, 1.0, 0.0)
    supplied = h * np.einsum("ij,ij->i", U, ops.C.rows(X, K) + ops.D.rows(u, K))
    dissipated += h * (2.0 * ops.QP.forms(X, u, K) + ops.S.forms(u, u, K))
    return supplied, dissipated


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
    X = _states(stepper, x, K)
    k_re = np.zeros((nl, K, n))  # real and imaginary parts of the k_l
    k_im = np.zeros((nl, K, n))
    U = np.empty((K, s, m))
    for j in range(K):  # hot loop: one matvec, one LU solve per solved eigenvalue
        x = X[j]
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
        np.add(x, d, out=X[j + 1])
    ops = linear_points(num)
    if m or not ops.QRQ.zero:
        # stage states X_i = x_k + h Re(C k)_i, stage-major: rows (i, k) of an (s·K) × n
        # array; the Gauss rule on them gives the work and the dissipation
        Xs = np.broadcast_to(X[None, :-1], (s, K, n)).copy()
        for r in range(nl):
            Xs += (h * dec.C.real[:, r, None, None]) * k_re[r]
            if not dec.real[r]:
                Xs -= (h * dec.C.imag[:, r, None, None]) * k_im[r]
        Xs = Xs.reshape(s * K, n)
        Us = U.transpose(1, 0, 2).reshape(s * K, m)
        xs: Rows = (Xs, 1.0, 0.0)
        supplied, dissipated = _port_work(ops, xs, Us, h, s * K,
                                          h * ops.QRQ.forms(xs, xs, s * K))
        bw = np.repeat(stepper.b, K)
        supplied = (bw * supplied).reshape(s, K).sum(axis=0)
        dissipated = (bw * dissipated).reshape(s, K).sum(axis=0)
    else:  # lossless and unforced: no work, no dissipation
        supplied = dissipated = np.zeros(K)
    dH = ops.Q.forms((X, 0.5, 0.5), (X, -1.0, 1.0), K)
    return X, np.column_stack([supplied, dissipated, dH - (supplied - dissipated)])
