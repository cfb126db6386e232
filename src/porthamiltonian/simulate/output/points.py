r"""Outputs, energy and powers of many saved points at once.

For states :math:`x_k` (rows of :math:`X`) and inputs :math:`u_k` (rows of :math:`U`),
with :math:`z = \nabla H(x)`:

.. math::

    y = (G+P)^\top z + (M+S)u,\quad H(x),\quad
    \dot H = z^\top\big((J-R)z + (G-P)u\big),\quad u^\top y,\quad
    d = z^\top R z + 2 z^\top P u + u^\top S u,

the formulas of :meth:`porthamiltonian.compiled.NumericPHS.power_balance` and
:meth:`~porthamiltonian.compiled.NumericPHS.output`.  For a **linear** system
(:math:`H = \tfrac12 x^\top Qx`, :math:`z = Qx`, constant matrices) they are bilinear
forms in :math:`(x, u)` with constant matrices, which :class:`LinearPoints` forms once:

.. math::

    y = Cx + Du,\quad H = \tfrac12 x^\top Q x,\quad
    \dot H = x^\top \mathrm{sym}(Q^\top\!A)\,x + x^\top (Q^\top\! B)\,u,\quad
    d = x^\top (Q^\top R Q)\,x + 2\,x^\top (Q^\top P)\,u + u^\top S u,

(:math:`\mathrm{sym}(M) = \tfrac12(M + M^\top)` has the quadratic form of :math:`M`;
the skew part :math:`Q^\top JQ` drops out, so for lumped storages it is the diagonal
:math:`-Q^\top RQ`).  Each quantity of a whole block is then one pass of one constant
matrix over the rows (:mod:`.rowwise`), without the state-sized temporaries
:math:`Qx`, :math:`Ax`.
Nonlinear systems are evaluated point by point with the compiled system's functions.
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
import scipy.sparse as sps

from .rowwise import RowOperator

__all__ = ["LinearPoints", "linear_points", "point_quantities"]

Quantities = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]

_CACHE: weakref.WeakKeyDictionary[Any, LinearPoints] = weakref.WeakKeyDictionary()


class LinearPoints:
    """The constant matrices of the point quantities of a linear compiled system ``num``
    (``Q``, ``A``, ``B``, ``C``, ``D`` and ``R``, ``P``, ``S``; see the module docstring)."""

    def __init__(self, num: Any) -> None:
        Q, A, B = num.Q, num.A, num.B
        const = num.constant_matrices
        R, P, S = const["R"], const["P"], const["S"]
        Qt = Q.T
        self.Q = RowOperator(Q)
        # quadratic forms see only the symmetric part: xᵀQᵀA x = xᵀ sym(QᵀA) x, where the
        # skew part QᵀJQ cancels (for lumped storages sym(QᵀA) = −QᵀRQ, diagonal)
        self.QA, self.QB = RowOperator(_sym(Qt @ A)), RowOperator(Qt @ B)
        self.QRQ = RowOperator(_sym(Qt @ (R @ Q)))
        self.QP, self.S = RowOperator(Qt @ P), RowOperator(S)
        self.C, self.D = RowOperator(num.C), RowOperator(num.D)

    def __call__(self, X: np.ndarray, U: np.ndarray) -> Quantities:
        """``(Y, H, stored, supplied, dissipated)`` of the points ``X`` with inputs ``U``."""
        K = X.shape[0]
        x, u = (X, 1.0, 0.0), (U, 1.0, 0.0)
        H = 0.5 * self.Q.forms(x, x, K)
        stored = self.QA.forms(x, x, K) + self.QB.forms(x, u, K)
        dissipated = (self.QRQ.forms(x, x, K) + 2.0 * self.QP.forms(x, u, K)
                      + self.S.forms(u, u, K))
        Y = self.C.rows(x, K) + self.D.rows(u, K)
        supplied = np.einsum("ij,ij->i", U, Y)
        return Y, H, stored, supplied, dissipated


def _sym(M: Any) -> Any:
    """½(M + Mᵀ): the matrix of the same quadratic form, often much sparser.  Entries
    within the rounding error of their two terms (a skew pair computed as products that
    round differently, such as q_i J_ij q_j) are zero."""
    S = 0.5 * (M + M.T)
    noise = (4.0 * np.finfo(float).eps) * (abs(M) + abs(M.T))
    if sps.issparse(S):
        return sps.csr_array(S.multiply(abs(S) > 0.5 * noise))
    return np.where(np.abs(S) > 0.5 * noise, S, 0.0)


def linear_points(num: Any) -> LinearPoints:
    """The :class:`LinearPoints` of ``num``, formed once per compiled system."""
    try:
        lp = _CACHE.get(num)
    except TypeError:  # not weakly referable: no cache
        return LinearPoints(num)
    if lp is None:
        lp = _CACHE[num] = LinearPoints(num)
    return lp


def point_quantities(num: Any, X: np.ndarray, U: np.ndarray) -> Quantities:
    """``(Y, H, stored, supplied, dissipated)`` — outputs (K × m), energy (J) and the
    stored, supplied and dissipated powers (W) — of the points ``X`` (K × n) with inputs
    ``U`` (K × m) of the compiled system ``num``."""
    if getattr(num, "linear", False) and getattr(num, "A", None) is not None:
        return linear_points(num)(X, U)
    K = X.shape[0]
    Y = np.empty((K, num.m))
    H, stored, supplied, dissipated = (np.empty(K) for _ in range(4))
    for i in range(K):
        pb = num.power_balance(X[i], U[i])
        Y[i] = num.output(X[i], U[i])
        H[i] = num.energy(X[i])
        stored[i], supplied[i], dissipated[i] = pb.stored, pb.supplied, pb.dissipated
    return Y, H, stored, supplied, dissipated
