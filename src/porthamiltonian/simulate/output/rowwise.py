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
costs nothing.  The state-quadratic forms of the energy bookkeeping are grouped
(:class:`FormSet`: H, Ḣ and d of saved points; ΔH and the dissipation of steps), so a
block's rows are read once for all of them; long sums may be reassociated (SIMD).  The
step's product :math:`Ax + Bu` goes by diagonals when :math:`A` is banded.  Without
Numba (``PORTHAMILTONIAN_JIT=0``) or in a run with ``engine="numpy"`` (:func:`engine`)
the same products are formed with SciPy/NumPy temporaries; dense matrices always go to
BLAS.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sps

from ... import jit

__all__ = ["RowOperator", "FormSet", "Rows", "engine", "use_compiled"]

#: whether the run in progress may use the compiled row kernels (``engine="numpy"``: no)
_COMPILED: contextvars.ContextVar[bool] = contextvars.ContextVar("rowwise_compiled",
                                                                  default=True)
#: most diagonals a sparse step matrix is stored by (else CSR)
MAX_BANDS = 16


def use_compiled() -> bool:
    """Whether row operators built now use the Numba kernels: Numba is on
    (:func:`porthamiltonian.jit.enabled`) and the run did not ask for ``engine="numpy"``."""
    return _COMPILED.get() and jit.enabled()


@contextlib.contextmanager
def engine(name: str) -> Iterator[None]:
    """The run's ``engine`` option in force for the row operators within (``"numpy"``:
    SciPy/NumPy products only; ``"auto"``, ``"compiled"``: the Numba kernels)."""
    token = _COMPILED.set(name != "numpy")
    try:
        yield
    finally:
        _COMPILED.reset(token)


def _summing(func: Any) -> Any:
    """:func:`porthamiltonian.jit.njit` for kernels that sum long rows, allowed to
    reassociate the sums (``fastmath={"reassoc"}``: several partial sums in SIMD lanes,
    ≈ 3× faster; the rounding error stays that of a sum of n terms, as with BLAS)."""
    return jit.njit(func, fastmath={"reassoc"})

#: ``(array, α₀, α₁)``: the rows α₀ A_k + α₁ A_{k+1} of ``array`` (α₁ = 0: the rows themselves)
Rows = tuple[np.ndarray, float, float]


@jit.njit
def _at(A: np.ndarray, k: int, i: int, a0: float, a1: float) -> float:  # pragma: no cover
    """Element ``i`` of the combined row ``a0 A[k] + a1 A[k+1]``."""
    return a0 * A[k, i] if a1 == 0.0 else a0 * A[k, i] + a1 * A[k + 1, i]


@_summing
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
def _scatter_columns(colptr: np.ndarray, rows: np.ndarray, data: np.ndarray,  # pragma: no cover
                     u: np.ndarray, out: np.ndarray) -> None:
    """out += N u for N in CSC (work ∝ the nonzeros of N, not its rows)."""
    for c in range(u.shape[0]):
        uc = u[c]
        for p in range(colptr[c], colptr[c + 1]):
            out[rows[p]] += data[p] * uc


@jit.njit
def _csr_affine(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray,  # pragma: no cover
                x: np.ndarray, colptr: np.ndarray, rows: np.ndarray, ndata: np.ndarray,
                u: np.ndarray, out: np.ndarray) -> None:
    """out = M x + N u for CSR M and CSC N (the right-hand side of an LTI step)."""
    for i in range(indptr.shape[0] - 1):
        t = 0.0
        for p in range(indptr[i], indptr[i + 1]):
            t += data[p] * x[indices[p]]
        out[i] = t
    _scatter_columns(colptr, rows, ndata, u, out)


@jit.njit
def _band_affine(offsets: np.ndarray, bands: np.ndarray, x: np.ndarray,  # pragma: no cover
                 colptr: np.ndarray, rows: np.ndarray, ndata: np.ndarray, u: np.ndarray,
                 out: np.ndarray) -> None:
    """out = M x + N u for M stored by diagonals, ``M[i, i + o_d] = bands[d, i]``, and CSC
    N.  Each diagonal is a contiguous multiply-add over the rows (vectorized), where CSR
    gathers one index per nonzero and sums short rows."""
    n = out.shape[0]
    out[:] = 0.0
    for d in range(offsets.shape[0]):
        o = offsets[d]
        lo, hi = max(0, -o), min(n, n - o)
        # slices and a 0-based index: no negative-index test per element (vectorizes)
        y, b, xs = out[lo:hi], bands[d, lo:hi], x[lo + o:hi + o]
        for i in range(hi - lo):
            y[i] += b[i] * xs[i]
    _scatter_columns(colptr, rows, ndata, u, out)


@_summing
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


@_summing
def _diag_points(d: np.ndarray, X: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover
    """out[k, q] = Σ_i d[q, i] X[k, i]² (three diagonal forms xᵀM_q x, one pass)."""
    d0, d1, d2 = d[0], d[1], d[2]
    for k in range(out.shape[0]):
        x = X[k]
        s0 = s1 = s2 = 0.0
        for i in range(x.shape[0]):
            sq = x[i] * x[i]
            s0 += d0[i] * sq
            s1 += d1[i] * sq
            s2 += d2[i] * sq
        out[k, 0], out[k, 1], out[k, 2] = s0, s1, s2


@_summing
def _diag_steps(d: np.ndarray, X: np.ndarray, out: np.ndarray) -> None:  # pragma: no cover
    """out[k] = (x̄ᵀ diag(d[0]) δ, x̄ᵀ diag(d[1]) x̄) with x̄ = ½(X[k] + X[k+1]),
    δ = X[k+1] − X[k] (one pass over consecutive rows)."""
    d0, d1 = d[0], d[1]
    for k in range(out.shape[0]):
        a, b = X[k], X[k + 1]
        s0 = s1 = 0.0
        for i in range(a.shape[0]):
            m = 0.5 * (a[i] + b[i])
            s0 += d0[i] * m * (b[i] - a[i])
            s1 += d1[i] * m * m
        out[k, 0], out[k, 1] = s0, s1


@_summing
def _csr_points(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray,  # pragma: no cover
                X: np.ndarray, out: np.ndarray) -> None:
    """:func:`_diag_points` for three CSR matrices on one pattern (``data[q]``: the values
    of matrix q, zero where only another one has an entry)."""
    d0, d1, d2 = data[0], data[1], data[2]
    for k in range(out.shape[0]):
        x = X[k]
        s0 = s1 = s2 = 0.0
        for i in range(indptr.shape[0] - 1):
            t0 = t1 = t2 = 0.0
            for p in range(indptr[i], indptr[i + 1]):
                xj = x[indices[p]]
                t0 += d0[p] * xj
                t1 += d1[p] * xj
                t2 += d2[p] * xj
            s0 += x[i] * t0
            s1 += x[i] * t1
            s2 += x[i] * t2
        out[k, 0], out[k, 1], out[k, 2] = s0, s1, s2


@_summing
def _csr_steps(indptr: np.ndarray, indices: np.ndarray, data: np.ndarray,  # pragma: no cover
               X: np.ndarray, out: np.ndarray) -> None:
    """:func:`_diag_steps` for two CSR matrices on one pattern."""
    d0, d1 = data[0], data[1]
    for k in range(out.shape[0]):
        a, b = X[k], X[k + 1]
        s0 = s1 = 0.0
        for i in range(indptr.shape[0] - 1):
            t0 = t1 = 0.0
            for p in range(indptr[i], indptr[i + 1]):
                j = indices[p]
                t0 += d0[p] * (b[j] - a[j])
                t1 += d1[p] * (a[j] + b[j])
            m = 0.5 * (a[i] + b[i])
            s0 += m * t0
            s1 += m * (0.5 * t1)
        out[k, 0], out[k, 1] = s0, s1


def _combine(rows: Rows, K: int) -> np.ndarray:
    A, a0, a1 = rows
    if a1 == 0.0:
        return A[:K] if a0 == 1.0 else a0 * A[:K]
    return a0 * A[:K] + a1 * A[1:K + 1]


def _bands(csr: Any, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    """``(offsets, bands)`` with ``M[i, i + offsets[d]] = bands[d, i]`` for a square ``M``
    whose nonzeros lie on at most :data:`MAX_BANDS` diagonals filled at least half (chains,
    ladders, lumped couplings), else ``None``."""
    n = csr.shape[0]
    if csr.shape[1] != n or csr.nnz == 0:
        return None
    diagonal = csr.indices.astype(np.int64) - rows
    offsets = np.unique(diagonal)
    if offsets.size > MAX_BANDS or 2 * csr.nnz < offsets.size * n:
        return None
    bands = np.zeros((offsets.size, n))
    bands[np.searchsorted(offsets, diagonal), rows] = csr.data
    return offsets, bands


class RowOperator:
    """A constant matrix ``M`` (dense or sparse, ``p × q``) applied to rows of states.

    ``zero`` says ``M = 0`` (a missing coupling: products are then skipped); ``compiled``
    (default :func:`use_compiled`) whether the Numba kernels run its products."""

    def __init__(self, M: Any, compiled: bool | None = None) -> None:
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
            self.bands = _bands(csr, rows)
            csc = sps.csc_array(csr)
            self.csc = (csc.indptr, csc.indices, csc.data)
        else:
            self.matrix = np.asarray(M, dtype=float)
            self.zero = not np.any(self.matrix)
            self.diag = self.bands = None
        self.compiled = self.sparse and (use_compiled() if compiled is None
                                         else compiled and jit.enabled())

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
        """``out[:] = M x + N u`` (one compiled call when both are sparse and compiled: by
        diagonals for a banded ``M``, else by CSR rows; ``N u`` by the columns of ``N``)."""
        if self.compiled and N.compiled:
            if self.bands is not None:
                _band_affine(*self.bands, x, *N.csc, u, out)
            else:
                _csr_affine(*self.csr, x, *N.csc, u, out)
            return out
        out[:] = self.matrix @ x
        if not N.zero:
            out += N.matrix @ u
        return out


class FormSet:
    r"""The quadratic forms of several square matrices :math:`M_q` on a block's rows, all
    in one pass (each row read once; diagonal matrices as vectors, others on the union
    of their patterns) when compiled and sparse, else one product per matrix:

    :meth:`at_points` (up to three matrices): :math:`x_k^\top M_q x_k` of rows
    :math:`x_k`; :meth:`over_steps` (two matrices): :math:`\bar x_k^\top M_0\,\delta_k`
    and :math:`\bar x_k^\top M_1 \bar x_k` of consecutive rows, :math:`\bar x_k =
    \tfrac12(x_k + x_{k+1})`, :math:`\delta_k = x_{k+1} - x_k`."""

    def __init__(self, mats: Sequence[Any], compiled: bool | None = None) -> None:
        if not 1 <= len(mats) <= 3:
            raise ValueError("a FormSet holds one to three matrices")
        self.ops = [RowOperator(M, compiled) for M in mats]
        n = self.ops[0].shape[0]
        self.fused = all(op.compiled and op.shape == (n, n) for op in self.ops)
        self.diag: np.ndarray | None = None
        self.csr: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        if not self.fused:
            return
        if all(op.diag is not None or op.zero for op in self.ops):
            self.diag = np.zeros((3, n))
            for q, op in enumerate(self.ops):
                if op.diag is not None:
                    self.diag[q] = op.diag
            return
        # the union pattern: entries keyed by i·n + j, each matrix's values at its keys
        keys, values = [], []
        for op in self.ops:
            indptr, indices, data = op.csr
            rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
            keys.append(rows * n + indices)
            values.append(data)
        union = np.unique(np.concatenate(keys))
        data3 = np.zeros((3, union.size))
        for q, (k, v) in enumerate(zip(keys, values, strict=True)):
            data3[q, np.searchsorted(union, k)] = v
        indptr = np.concatenate([[0], np.cumsum(np.bincount(union // n, minlength=n))])
        self.csr = (indptr, union % n, data3)

    def at_points(self, X: np.ndarray) -> np.ndarray:
        r"""``(K, len(matrices))``: :math:`x_k^\top M_q x_k` for the rows of ``X``."""
        K = X.shape[0]
        if not self.fused:
            x: Rows = (X, 1.0, 0.0)
            return np.column_stack([op.forms(x, x, K) for op in self.ops])
        out = np.empty((K, 3))
        X = np.ascontiguousarray(X)
        if self.diag is not None:
            _diag_points(self.diag, X, out)
        else:
            assert self.csr is not None
            _csr_points(*self.csr, X, out)
        return out[:, :len(self.ops)]

    def over_steps(self, X: np.ndarray) -> np.ndarray:
        r"""``(K, 2)`` for the ``K + 1`` rows of ``X``: :math:`\bar x_k^\top M_0\delta_k`
        and :math:`\bar x_k^\top M_1\bar x_k` (the increment read as it is: no
        cancellation between the energies of two states)."""
        K = X.shape[0] - 1
        if not self.fused:
            xm: Rows = (X, 0.5, 0.5)
            return np.column_stack([self.ops[0].forms(xm, (X, -1.0, 1.0), K),
                                    self.ops[1].forms(xm, xm, K)])
        out = np.empty((K, 2))
        X = np.ascontiguousarray(X)
        if self.diag is not None:
            _diag_steps(self.diag, X, out)
        else:
            assert self.csr is not None
            _csr_steps(*self.csr, X, out)
        return out
