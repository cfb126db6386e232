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
:math:`-Q^\top RQ`).  The three state-quadratic forms of a whole block are one pass over
its rows (:class:`.rowwise.FormSet`), the input terms one pass each of their small
matrices, without the state-sized temporaries :math:`Qx`, :math:`Ax`.
Nonlinear systems are evaluated point by point with the compiled system's functions.
"""

from __future__ import annotations

import functools
import weakref
from typing import Any

import numpy as np
import scipy.sparse as sps

from .rowwise import FormSet, RowOperator, use_compiled

__all__ = ["LinearPoints", "linear_points", "point_quantities"]

Quantities = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]

#: per compiled system: its LinearPoints with the compiled kernels (True) or without
_CACHE: weakref.WeakKeyDictionary[Any, dict[bool, LinearPoints]] = weakref.WeakKeyDictionary()


class LinearPoints:
    """The constant matrices of the point quantities of a linear compiled system ``num``
    (``Q``, ``A``, ``B``, ``C``, ``D`` and ``R``, ``P``, ``S``; see the module docstring),
    as row operators; ``compiled`` (default :func:`.rowwise.use_compiled`): with the Numba
    kernels.

    The state-quadratic parts are grouped so that a block's rows are read once for all of
    them (:class:`.rowwise.FormSet`): ``points`` = (½Q, sym(QᵀA), sym(QᵀRQ)) for H, Ḣ and d
    of saved points, ``steps`` = (Q, sym(QᵀRQ)) for ΔH and the dissipation of steps."""

    def __init__(self, num: Any, compiled: bool | None = None) -> None:
        Q, A, B = num.Q, num.A, num.B
        const = num.constant_matrices
        R, P, S = const["R"], const["P"], const["S"]
        Qt = Q.T
        ops = functools.partial(RowOperator, compiled=compiled)
        QRQ = _sym(Qt @ (R @ Q))
        self.Q, self.QRQ = ops(Q), ops(QRQ)
        # quadratic forms see only the symmetric part: xᵀQᵀA x = xᵀ sym(QᵀA) x, where the
        # skew part QᵀJQ cancels (for lumped storages sym(QᵀA) = −QᵀRQ, diagonal)
        self.points = FormSet([0.5 * Q, _sym(Qt @ A), QRQ], compiled)  # ½ scales exactly
        self.steps = FormSet([Q, QRQ], compiled)
        self.QB, self.QP, self.S = ops(Qt @ B), ops(Qt @ P), ops(S)
        self.C, self.D = ops(num.C), ops(num.D)

    def __call__(self, X: np.ndarray, U: np.ndarray) -> Quantities:
        """``(Y, H, stored, supplied, dissipated)`` of the points ``X`` with inputs ``U``."""
        K = X.shape[0]
        x, u = (X, 1.0, 0.0), (U, 1.0, 0.0)
        quad = self.points.at_points(X)
        H, stored, dissipated = quad[:, 0], quad[:, 1], quad[:, 2]
        if not U.shape[1]:
            return np.zeros((K, 0)), H, stored, np.zeros(K), dissipated
        stored = stored + self.QB.forms(x, u, K)
        dissipated = dissipated + 2.0 * self.QP.forms(x, u, K) + self.S.forms(u, u, K)
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
    """The :class:`LinearPoints` of ``num`` for the engine in force
    (:func:`.rowwise.use_compiled`), formed once per compiled system and engine."""
    compiled = use_compiled()
    try:
        per_engine = _CACHE.setdefault(num, {})
    except TypeError:  # not weakly referable: no cache
        return LinearPoints(num, compiled)
    lp = per_engine.get(compiled)
    if lp is None:
        lp = per_engine[compiled] = LinearPoints(num, compiled)
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
