"""Small helpers that let the core treat NumPy, SciPy-sparse and SymPy matrices alike.

The IR keeps a matrix in one of three kinds:

* ``"dense"``  — ``numpy.ndarray`` of floats,
* ``"sparse"`` — ``scipy.sparse.csr_array`` (large discretized systems),
* ``"symbolic"`` — ``sympy.ImmutableMatrix`` (parameters as symbols, entries that
  may depend on the state).

SymPy (≥ 1.9) stores every matrix, dense or sparse, as a dictionary of its non-zero
entries (``DomainMatrix`` in the ``SDM`` format), so a symbolic model of thousands of
states costs memory and time in its non-zeros, provided the code around it never goes
through the flat list of all ``n²`` entries: :func:`immutable` converts without it and
:func:`nonzero_entries` walks the non-zeros only.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp

from .errors import ModelError, StructureError

Matrix = Any  # np.ndarray | sps.sparray | sp.ImmutableMatrix


def is_sympy(obj: Any) -> bool:
    """True if ``obj`` is a SymPy matrix or a nested list holding SymPy objects."""
    if isinstance(obj, (sp.MatrixBase, sp.Basic)):
        return True
    if isinstance(obj, (list, tuple)):
        return any(is_sympy(v) for v in obj)
    if isinstance(obj, np.ndarray) and obj.dtype == object:
        return any(isinstance(v, sp.Basic) for v in obj.flat)
    return False


def kind_of(A: Matrix) -> str:
    if isinstance(A, sp.MatrixBase):
        return "symbolic"
    if sps.issparse(A):
        return "sparse"
    return "dense"


def as_symbolic(A: Any, shape: tuple[int, int], name: str) -> sp.ImmutableMatrix:
    """Convert to an immutable SymPy matrix of the given shape (``None`` → zeros)."""
    if A is None:
        return sp.ImmutableMatrix.zeros(*shape)
    if sps.issparse(A):
        A = A.toarray()
    M = sp.ImmutableMatrix(sp.Matrix(A)) if not isinstance(A, sp.MatrixBase) else A
    if M.shape == (0, 0) and shape != (0, 0) and 0 in shape:
        return sp.ImmutableMatrix.zeros(*shape)
    M = _fix_vector_shape(M, shape)
    if M.shape != shape:
        raise StructureError(f"{name} has shape {M.shape}; expected {shape}")
    for (i, j), v in nonzero_entries(M):
        if v.has(sp.nan, sp.zoo, sp.oo, -sp.oo) or (v.is_Number and not v.is_finite):
            raise StructureError(f"{name} has a NaN or infinite entry at row {i}, column {j} "
                                 f"({v}); every entry of a system matrix must be finite")
    return immutable(M)


def immutable(M: sp.MatrixBase) -> sp.ImmutableMatrix:
    """``sp.ImmutableMatrix(M)`` in time proportional to the non-zeros of ``M``.

    SymPy's constructor rebuilds a matrix from the flat list of its ``n²`` entries
    (1.3 s for a 2000 × 2000 matrix with 2000 non-zeros); sharing a copy of the
    entry dictionary gives the same immutable matrix at once."""
    if isinstance(M, sp.ImmutableDenseMatrix):
        return M
    rep = getattr(M, "_rep", None)
    if rep is not None and hasattr(sp.ImmutableDenseMatrix, "_fromrep"):
        return sp.ImmutableDenseMatrix._fromrep(rep.copy())
    return sp.ImmutableMatrix(M)


def mutable(M: sp.MatrixBase) -> sp.MutableDenseMatrix:
    """A mutable copy of ``M`` for intermediate arithmetic: an immutable SymPy matrix
    also holds the flat tuple of all its entries, so each sum, transpose or substitution
    of immutable matrices costs ``n²``; on mutable ones it costs the non-zeros."""
    rep = getattr(M, "_rep", None)
    if rep is not None and hasattr(sp.MutableDenseMatrix, "_fromrep"):
        return sp.MutableDenseMatrix._fromrep(rep.copy())
    return sp.Matrix(M)


def nonzero_entries(M: sp.MatrixBase) -> list[tuple[tuple[int, int], Any]]:
    """``((i, j), value)`` of the non-zero entries of ``M``, row by row."""
    return sorted((ij, v) for ij, v in M.todok().items() if v != 0)


def as_numeric(A: Any, shape: tuple[int, int], name: str, *, sparse: bool) -> Matrix:
    """Convert to a float ndarray (or CSR array when ``sparse``) of the given shape."""
    if A is None:
        return sps.csr_array(shape, dtype=float) if sparse else np.zeros(shape)
    if isinstance(A, sp.MatrixBase):
        if A.free_symbols:
            raise StructureError(f"{name} contains symbols {sorted(map(str, A.free_symbols))}")
        A = np.array(A.tolist(), dtype=float)
    if sps.issparse(A):
        out = sps.csr_array(A, dtype=float)
    else:
        arr = np.asarray(A, dtype=float)
        if arr.ndim == 1 and 0 in shape:
            arr = arr.reshape(shape)
        elif arr.ndim == 1:
            arr = arr.reshape(shape) if arr.size == shape[0] * shape[1] else arr
        elif arr.ndim == 0:
            arr = arr.reshape(1, 1)
        out = sps.csr_array(arr) if sparse else arr
    if out.shape != shape:
        raise StructureError(f"{name} has shape {out.shape}; expected {shape}")
    values = out.data if sps.issparse(out) else out
    if not np.all(np.isfinite(values)):
        raise StructureError(f"{name} has a NaN or infinite entry at {_first_bad(out)}; every "
                             "entry of a system matrix must be a finite number")
    return out


def _first_bad(A: Any) -> str:
    """``"row 0, column 1 (nan)"``: where the first non-finite entry of ``A`` is."""
    coo = sps.coo_array(A) if sps.issparse(A) else None
    if coo is not None:
        k = int(np.flatnonzero(~np.isfinite(coo.data))[0])
        i, j, v = int(coo.row[k]), int(coo.col[k]), coo.data[k]
    else:
        i, j = (int(v) for v in np.argwhere(~np.isfinite(A))[0])
        v = A[i, j]
    return f"row {i}, column {j} ({v})"


def _fix_vector_shape(M: sp.MatrixBase, shape: tuple[int, int]) -> sp.MatrixBase:
    if M.shape != shape and M.shape[1] == 1 and M.shape[0] == shape[0] * shape[1]:
        return M.reshape(*shape)
    return M


def shape_of(A: Any) -> tuple[int, int] | None:
    """Shape of a matrix-like object, or None if it is None."""
    if A is None:
        return None
    if isinstance(A, sp.MatrixBase) or sps.issparse(A):
        return tuple(A.shape)  # type: ignore[return-value]
    arr = np.asarray(A, dtype=object)
    if arr.ndim == 2:
        return arr.shape  # type: ignore[return-value]
    if arr.ndim == 1:
        return (arr.shape[0], 1)
    return (1, 1)


def to_dense(A: Matrix) -> np.ndarray:
    """``A`` (SciPy sparse, SymPy or array-like) as a dense float array."""
    if sps.issparse(A):
        return np.asarray(A.toarray(), dtype=float)
    if isinstance(A, sp.MatrixBase):
        return np.array(A.tolist(), dtype=float)
    return np.asarray(A, dtype=float)


def block(rows: Sequence[Sequence[Matrix]], kind: str, *, frozen: bool = True) -> Matrix:
    """Assemble a block matrix of one kind (symbolic: immutable unless not ``frozen``)."""
    if kind == "symbolic":  # not BlockMatrix.as_explicit: it visits every entry
        out = sp.Matrix.vstack(*(sp.Matrix.hstack(*(mutable(b) for b in r)) for r in rows))
        return immutable(out) if frozen else out
    if kind == "sparse":
        return sps.csr_array(sps.block_array([[sps.csr_array(b) for b in r] for r in rows]))
    return np.block([[to_dense(b) for b in r] for r in rows])


def transpose(A: Matrix) -> Matrix:
    return A.T


def norm_scale(*mats: Matrix) -> float:
    """A scale for tolerances: the largest absolute entry among the matrices (≥ 1)."""
    scale = 1.0
    for A in mats:
        if A is None:
            continue
        if sps.issparse(A):
            if A.nnz:
                scale = max(scale, float(abs(A).max()))
        else:
            arr = np.asarray(A, dtype=float)
            if arr.size:
                scale = max(scale, float(np.max(np.abs(arr))))
    return scale


def block_inverse(W: Any, max_block: int = 96, cond_limit: float | None = None) -> Any | None:
    """The inverse of a block-diagonal sparse matrix, block by block (all blocks of one
    size at once), or ``None`` when a block — a connected component of its sparsity
    graph — is larger than ``max_block`` (the inverse would no longer be sparse) or, with
    ``cond_limit``, has a larger condition number (its inverse would be noise).
    Raises :class:`ModelError` for a singular block."""
    W = sps.csr_array(W)
    n = W.shape[0]
    if n == 0:
        return sps.csr_array((0, 0))
    diagonal = W.diagonal()
    if W.nnz == n and np.all(diagonal != 0.0):  # a diagonal matrix: a division each
        return sps.csr_array(sps.diags(1.0 / diagonal, format="csr"))
    from scipy.sparse.csgraph import connected_components  # here: 0.1 s at start-up

    ncomp, label = connected_components(W, directed=False)
    sizes = np.bincount(label)
    if sizes.max() > max_block:
        return None
    rows, cols, vals = [], [], []
    order = np.argsort(label, kind="stable")
    starts = np.concatenate([[0], np.cumsum(sizes)])
    for s in np.unique(sizes):  # invert all blocks of one size at once
        comps = np.flatnonzero(sizes == s)
        idx = np.stack([order[starts[c]:starts[c] + s] for c in comps])  # (nb, s)
        if s == 1:  # 1 × 1 blocks: a division each (what LAPACK would do, without it)
            dense = W.diagonal()[idx]
            if np.any(dense == 0.0):
                raise ModelError(_SINGULAR_BLOCK)
            inv = 1.0 / dense
        else:
            dense = np.stack([W[i][:, i].toarray() for i in idx])
            if cond_limit is not None and np.any(np.linalg.cond(dense) > cond_limit):
                return None
            try:
                inv = np.linalg.inv(dense)
            except np.linalg.LinAlgError as exc:
                raise ModelError(_SINGULAR_BLOCK) from exc
        rows.append(np.repeat(idx, s, axis=1).ravel())
        cols.append(np.tile(idx, (1, s)).ravel())
        vals.append(inv.ravel())
    return sps.csr_array((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                         shape=(n, n))


_SINGULAR_BLOCK = ("a block-diagonal mass matrix is singular: check that densities, "
                   "compliances and capacities are positive")

#: sparse matrices at least this large try the symmetric ordering first
SYMMETRIC_ORDERING_FROM = 200


def sparse_lu(A: Any) -> Any:
    """SuperLU factors of a sparse ``A``, with the least fill that stays backward stable.

    Step matrices of discretized PDEs (``I − (h/2)JQ``, ``W − (h/2)J``) have a
    symmetric pattern; a minimum-degree ordering of ``A + Aᵀ`` with the pivots kept on
    the diagonal then fills 10–15× less than the default column ordering with partial
    pivoting (a Mindlin plate of 5760 states: 2.6·10⁵ against 3.7·10⁶ nonzeros), and
    each solve is as much faster.  Pivoting on the diagonal is not always stable, so
    the factors are accepted only when a solve with a probe right-hand side is backward
    stable (residual ≤ 10³ε‖A‖‖x‖); otherwise the default ordering and partial pivoting
    are used.
    """
    import scipy.sparse.linalg as spla  # here: with scipy.linalg, 0.1 s at start-up

    A = sps.csc_matrix(A)
    if A.shape[0] >= SYMMETRIC_ORDERING_FROM:
        try:
            lu = spla.splu(A, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0,
                           options={"SymmetricMode": True})
        except RuntimeError:  # a zero pivot on the diagonal
            lu = None
        if lu is not None:
            probe = np.cos(np.arange(A.shape[0]) * 0.7) + 0.5
            x = lu.solve(probe)
            norm = float(abs(A).sum(axis=1).max())
            err = float(np.max(np.abs(A @ x - probe)))
            eps = float(np.finfo(float).eps)
            if np.all(np.isfinite(x)) and err <= 1e3 * eps * (norm * np.max(np.abs(x)) + 1.0):
                return lu
    return spla.splu(A)
