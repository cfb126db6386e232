r"""A constant matrix applied to many states at once, row by row, without temporaries.

The recorder and the LTI block loop evaluate the same few products for every saved point
or step of a block: with states :math:`X` (one row :math:`x_k` per point) and a constant
matrix :math:`M`,

.. math::

    \mathrm{rows}(M; B)_k = M b_k,\qquad
    \mathrm{forms}(M; A, B)_k = a_k^\top M\, b_k,

where a row :math:`a_k = \alpha_0 A_k + \alpha_1 A_{k+1}` may combine two consecutive rows
(the midpoint :math:`\bar x_k = \tfrac12(x_k + x_{k+1})` is :math:`(\tfrac12, \tfrac12)`,
the increment :math:`\delta_k = x_{k+1} - x_k` is :math:`(-1, 1)`), likewise :math:`b_k`.
For a sparse :math:`M` (CSR) and the Numba engine (:mod:`porthamiltonian.jit`), each
product is one compiled pass over :math:`M`'s nonzeros per row, reading the rows of
:math:`X` in place: no transposed copy, no midpoint or increment array, no
:math:`MX^\top` — memory stays at the inputs and the result, and the row combination
costs nothing.  Without Numba (``PORTHAMILTONIAN_JIT=0``) the same products are formed
with SciPy/NumPy temporaries; dense matrices always go to BLAS.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps

from ... import jit

__all__ = ["RowOperator", "Rows"]

#: ``(array, α₀, α₁)``: the rows α₀ A_k + α₁ A_{k+1} of ``array`` (α₁ = 0: the rows themselves)
Rows = tuple[np.ndarray, float, float]


@jit.njit
def _at(A: np.ndarray, k: int, i: int, a0: float, a1: float) -> float:  # pragma: no cover
    """Element ``i`` of the combined row ``a0 A[k] + a1 A[k+1]``."""
    return a0 * A[k, i] if a1 == 0.0 else a0 * A[k, i] + a1 * A[k + 1, i]


@jit.njit
def _csr_forms(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray,  # pragma: no cover
               A: np.ndarray, a0: float, a1: float, B: np.ndarray, b0: float, b1: float,
               out: np.ndarray) -> None:
    """out[k] = (a0 A[k] + a1 A[k+1])ᵀ M (b0 B[k] + b1 B[k+1]) for CSR M."""
    for k in range(out.shape[0]):
        s = s1 = 0.0
        for i in range(indptr.shape[0] - 1):
            lo, hi = indptr[i], indptr[i + 1]
            if lo == hi:
                continue
            t = 0.0
            if b1 == 0.0:
                for p in range(lo, hi):
                    t += data[p] * B[k, indices[p]]
                t *= b0
            else:
                for p in range(lo, hi):
                    j = indices[p]
                    t += data[p] * (b0 * B[k, j] + b1 * B[k + 1, j])
            if i & 1:  # two partial sums: the additions do not wait on each other
                s1 += _at(A, k, i, a0, a1) * t
            else:
                s += _at(A, k, i, a0, a1) * t
        out[k] = s + s1


@jit.njit
def _csr_rows(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray,  # pragma: no cover
              B: np.ndarray, b0: float, b1: float, out: np.ndarray) -> None:
    """out[k, i] = (M (b0 B[k] + b1 B[k+1]))_i for CSR M."""
    for k in range(out.shape[0]):
        for i in range(indptr.shape[0] - 1):
            t = 0.0
            if b1 == 0.0:
                for p in range(indptr[i], indptr[i + 1]):
                    t += data[p] * B[k, indices[p]]
                out[k, i] = b0 * t
            else:
                for p in range(indptr[i], indptr[i + 1]):
                    j = indices[p]
                    t += data[p] * (b0 * B[k, j] + b1 * B[k + 1, j])
                out[k, i] = t


@jit.njit
def _csr_affine(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray,  # pragma: no cover
                x: np.ndarray, bptr: np.ndarray, bind: np.ndarray, bdata: np.ndarray,
                u: np.ndarray, out: np.ndarray) -> None:
    """out = M x + N u for CSR M, N (the right-hand side of an LTI step, in place)."""
    for i in range(indptr.shape[0] - 1):
        t = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            t += data[p] * x[indices[p]]
        for p in range(bptr[i], bptr[i + 1]):
            t += bdata[p] * u[bind[p]]
        out[i] = t


@jit.njit
def _diag_forms(d: np.ndarray, A: np.ndarray, a0: float, a1: float,  # pragma: no cover
                B: np.ndarray, b0: float, b1: float, out: np.ndarray) -> None:
    """out[k] = Σ_i d_i a_ki b_ki for a diagonal M = diag(d), in four partial sums (the
    additions do not wait on each other and the compiler may pack them)."""
    n = d.shape[0]
    n4 = n - n % 4
    plain = a1 == 0.0 and b1 == 0.0
    for k in range(out.shape[0]):
        s0 = s1 = s2 = s3 = 0.0
        if plain:  # the rows themselves (saved points)
            for i in range(0, n4, 4):
                s0 += d[i] * A[k, i] * B[k, i]
                s1 += d[i + 1] * A[k, i + 1] * B[k, i + 1]
                s2 += d[i + 2] * A[k, i + 2] * B[k, i + 2]
                s3 += d[i + 3] * A[k, i + 3] * B[k, i + 3]
            for i in range(n4, n):
                s0 += d[i] * A[k, i] * B[k, i]
            out[k] = a0 * b0 * ((s0 + s1) + (s2 + s3))
            continue
        if a1 != 0.0 and b1 != 0.0:  # both combine two rows (midpoints, increments)
            for i in range(0, n4, 4):
                s0 += d[i] * (a0 * A[k, i] + a1 * A[k + 1, i]) * (b0 * B[k, i] + b1 * B[k + 1, i])
                s1 += d[i + 1] * (a0 * A[k, i + 1] + a1 * A[k + 1, i + 1]) * (
                    b0 * B[k, i + 1] + b1 * B[k + 1, i + 1])
                s2 += d[i + 2] * (a0 * A[k, i + 2] + a1 * A[k + 1, i + 2]) * (
                    b0 * B[k, i + 2] + b1 * B[k + 1, i + 2])
                s3 += d[i + 3] * (a0 * A[k, i + 3] + a1 * A[k + 1, i + 3]) * (
                    b0 * B[k, i + 3] + b1 * B[k + 1, i + 3])
            for i in range(n4, n):
                s0 += d[i] * (a0 * A[k, i] + a1 * A[k + 1, i]) * (b0 * B[k, i] + b1 * B[k + 1, i])
            out[k] = (s0 + s1) + (s2 + s3)
            continue
        for i in range(0, n4, 4):
            s0 += d[i] * _at(A, k, i, a0, a1) * _at(B, k, i, b0, b1)
            s1 += d[i + 1] * _at(A, k, i + 1, a0, a1) * _at(B, k, i + 1, b0, b1)
            s2 += d[i + 2] * _at(A, k, i + 2, a0, a1) * _at(B, k, i + 2, b0, b1)
            s3 += d[i + 3] * _at(A, k, i + 3, a0, a1) * _at(B, k, i + 3, b0, b1)
        for i in range(n4, n):
            s0 += d[i] * _at(A, k, i, a0, a1) * _at(B, k, i, b0, b1)
        out[k] = (s0 + s1) + (s2 + s3)


def _combine(rows: Rows, K: int) -> np.ndarray:
    A, a0, a1 = rows
    if a1 == 0.0:
        return A[:K] if a0 == 1.0 else a0 * A[:K]
    return a0 * A[:K] + a1 * A[1:K + 1]


class RowOperator:
    """A constant matrix ``M`` (dense or sparse, ``p × q``) applied to rows of states.

    ``zero`` says ``M = 0`` (a missing coupling: products are then skipped)."""

    def __init__(self, M: Any) -> None:
        self.shape = tuple(M.shape)
        self.sparse = bool(sps.issparse(M))
        if self.sparse:
            csr = sps.csr_array(M, dtype=float)  # shares the arrays of a CSR float M
            if not csr.has_canonical_format or not np.all(csr.data):
                csr = csr.copy()  # sps.diags keeps explicit zeros: no work for them
                csr.sum_duplicates()
                csr.eliminate_zeros()
            self.csr = (csr.indptr, csr.indices, csr.data)
            if self.shape[0] > self.shape[1]:
                t = sps.csr_array(csr.T)
                self.csr_t = (t.indptr, t.indices, t.data)
            self.matrix: Any = csr
            self.zero = csr.nnz == 0
            rows = np.repeat(np.arange(self.shape[0]), np.diff(csr.indptr))
            #: the diagonal of a diagonal M (lumped storages, dampers): a plain vector
            self.diag = (csr.diagonal() if self.shape[0] == self.shape[1]
                         and np.array_equal(rows, csr.indices) else None)
        else:
            self.matrix = np.asarray(M, dtype=float)
            self.zero = not np.any(self.matrix)
            self.diag = None
        self.compiled = self.sparse and jit.enabled()

    def rows(self, B: Rows, K: int) -> np.ndarray:
        """``(K, p)``: row ``k`` is ``M b_k`` with ``b_k`` the combined rows ``B``."""
        if self.zero:
            return np.zeros((K, self.shape[0]))
        if self.compiled and self.diag is None:
            out = np.empty((K, self.shape[0]))
            _csr_rows(*self.csr, np.ascontiguousarray(B[0]), float(B[1]), float(B[2]), out)
            return out
        b = _combine(B, K)
        if self.diag is not None:
            return b * self.diag
        if self.sparse:
            return np.asarray(self.matrix @ b.T).T
        return b @ self.matrix.T

    def forms(self, A: Rows, B: Rows, K: int) -> np.ndarray:
        """``(K,)``: ``a_kᵀ M b_k`` for the combined rows ``A`` and ``B``."""
        if self.zero or K == 0:
            return np.zeros(K)
        if self.compiled:
            out = np.empty(K)
            a = (np.ascontiguousarray(A[0]), float(A[1]), float(A[2]))
            b = (np.ascontiguousarray(B[0]), float(B[1]), float(B[2]))
            if self.diag is not None:
                _diag_forms(self.diag, *a, *b, out)
            elif self.shape[0] > self.shape[1]:  # aᵀMb = bᵀMᵀa: loop over the q < p rows of Mᵀ
                _csr_forms(*self.csr_t, *b, *a, out)
            else:
                _csr_forms(*self.csr, *a, *b, out)
            return out
        return np.einsum("ij,ij->i", _combine(A, K), self.rows(B, K))

    def affine_into(self, N: RowOperator, x: np.ndarray, u: np.ndarray,
                    out: np.ndarray) -> np.ndarray:
        """``out[:] = M x + N u`` (one pass when both are sparse and compiled)."""
        if self.compiled and N.compiled:
            _csr_affine(*self.csr, x, *N.csr, u, out)
            return out
        out[:] = self.matrix @ x
        if not N.zero:
            out += N.matrix @ u
        return out
