"""Linear-algebra helpers for Dirac structures: numeric dense, SciPy sparse, SymPy.

Every helper takes a ``kind`` (``"dense"``, ``"sparse"`` or ``"symbolic"``) or works
it out from its arguments.  Numeric ranks use a *relative* tolerance ``rtol``: a
singular value (or a pivot of a column-pivoted QR) counts when it exceeds
``rtol`` times the largest one.

Symbolic ranks are *generic* ranks: the matrix is evaluated at pseudo-random
values of its symbols (a fixed seed, so results are reproducible) and the numeric
rank is taken.  This is the rank for all values of the symbols outside a set of
measure zero (where some minor vanishes); it is what SymPy's own ``rank`` and
``nullspace`` assume too when they divide by symbolic pivots.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sp
import sympy
from sympy.core.function import AppliedUndef

Kind = Literal["dense", "sparse", "symbolic"]

#: Default relative tolerance for numeric rank and zero tests.
DEFAULT_RTOL = 1e-9

#: Above this many ports, numeric results of compositions are kept sparse.
SPARSE_THRESHOLD = 200

_SEEDS = (20240611, 7919)


# ----------------------------------------------------------------------------- kinds


def _has_sympy(obj: Any) -> bool:
    if isinstance(obj, sympy.MatrixBase | sympy.Basic):
        return True
    if isinstance(obj, np.ndarray):
        return obj.dtype == object and any(isinstance(x, sympy.Basic) for x in obj.flat)
    if isinstance(obj, list | tuple):
        return any(_has_sympy(x) for x in obj)
    return False


def kind_of(M: Any) -> Kind:
    """The kind of a matrix-like object."""
    if _has_sympy(M):
        return "symbolic"
    if sp.issparse(M):
        return "sparse"
    return "dense"


def common_kind(*kinds: Kind) -> Kind:
    """Symbolic wins over sparse, which wins over dense."""
    if "symbolic" in kinds:
        return "symbolic"
    if "sparse" in kinds:
        return "sparse"
    return "dense"


def as_kind(M: Any, kind: Kind, shape: tuple[int, int] | None = None) -> Any:
    """Convert ``M`` to the representation of ``kind`` (a 2-D matrix)."""
    if kind == "symbolic":
        if isinstance(M, sympy.MatrixBase):
            out = sympy.ImmutableMatrix(M)
        elif sp.issparse(M):
            out = sympy.ImmutableMatrix(M.toarray().tolist())
        else:
            arr = np.asarray(M, dtype=object)
            if arr.ndim == 1:
                arr = arr.reshape(1, -1) if arr.size else arr.reshape(0, 0)
            if arr.size == 0 and shape is not None:
                return sympy.ImmutableMatrix(sympy.zeros(*shape))
            out = sympy.ImmutableMatrix(arr.tolist()) if arr.size else sympy.ImmutableMatrix(
                sympy.zeros(*arr.shape)
            )
        return out.applyfunc(sympy.sympify)
    if kind == "sparse":
        if isinstance(M, sympy.MatrixBase):
            M = np.array(M.evalf().tolist(), dtype=float).reshape(M.shape)
        out = sp.csr_array(M, dtype=float)
        return out
    # dense
    if sp.issparse(M):
        arr = M.toarray()
    elif isinstance(M, sympy.MatrixBase):
        arr = np.array(M.evalf().tolist(), dtype=float).reshape(M.shape)
    else:
        arr = np.array(M, dtype=float)
    if arr.ndim == 1:
        arr = arr.reshape(1, -1) if arr.size else arr.reshape(0, 0)
    if arr.size == 0 and shape is not None:
        arr = np.zeros(shape)
    return arr


def zeros(k: int, n: int, kind: Kind) -> Any:
    if kind == "symbolic":
        return sympy.ImmutableMatrix(sympy.zeros(k, n))
    if kind == "sparse":
        return sp.csr_array((k, n), dtype=float)
    return np.zeros((k, n))


def eye(n: int, kind: Kind) -> Any:
    if kind == "symbolic":
        return sympy.ImmutableMatrix(sympy.eye(n))
    if kind == "sparse":
        return sp.eye_array(n, format="csr")
    return np.eye(n)


def hstack(mats: Sequence[Any], kind: Kind) -> Any:
    if kind == "symbolic":
        return sympy.ImmutableMatrix(sympy.Matrix.hstack(*mats))
    if kind == "sparse":
        return sp.hstack(mats, format="csr")
    return np.hstack(mats)


def vstack(mats: Sequence[Any], kind: Kind) -> Any:
    if kind == "symbolic":
        return sympy.ImmutableMatrix(sympy.Matrix.vstack(*mats))
    if kind == "sparse":
        return sp.vstack(mats, format="csr")
    return np.vstack(mats)


def block_diag(A: Any, B: Any, kind: Kind) -> Any:
    if kind == "symbolic":
        return sympy.ImmutableMatrix(sympy.diag(sympy.Matrix(A), sympy.Matrix(B)))
    if kind == "sparse":
        return sp.block_diag([A, B], format="csr")
    return sla.block_diag(A, B)


def cols(M: Any, idx: Sequence[int], kind: Kind) -> Any:
    """Columns ``idx`` of ``M`` (in that order)."""
    idx = list(idx)
    if kind == "symbolic":
        if not idx:
            return sympy.ImmutableMatrix(sympy.zeros(M.shape[0], 0))
        return sympy.ImmutableMatrix(M.extract(list(range(M.shape[0])), idx))
    if kind == "sparse":
        return M.tocsc()[:, idx].tocsr()
    return M[:, idx]


def rows(M: Any, idx: Sequence[int], kind: Kind) -> Any:
    """Rows ``idx`` of ``M`` (in that order)."""
    idx = list(idx)
    if kind == "symbolic":
        if not idx:
            return sympy.ImmutableMatrix(sympy.zeros(0, M.shape[1]))
        return sympy.ImmutableMatrix(M.extract(idx, list(range(M.shape[1]))))
    if kind == "sparse":
        return M.tocsr()[idx, :]
    return M[idx, :]


def to_dense(M: Any) -> np.ndarray:
    """A float NumPy copy (SymPy matrices must have no free symbols)."""
    return as_kind(M, "dense")


# ------------------------------------------------------------------------ symbolic


def free_atoms(M: Any) -> set[Any]:
    """Free symbols and undefined applied functions (``x(t)``) of a SymPy object."""
    if not isinstance(M, sympy.Basic | sympy.MatrixBase):
        return set()
    atoms: set[Any] = set(M.free_symbols)
    atoms |= set(M.atoms(AppliedUndef))
    # symbols that only appear inside an applied function are not free on their own
    inner: set[Any] = set()
    for f in M.atoms(AppliedUndef):
        inner |= f.free_symbols
    return (atoms - inner) | set(M.atoms(AppliedUndef))


def random_point(atoms: set[Any], trial: int = 0) -> dict[Any, Any]:
    """Pseudo-random values in [0.5, 2] for ``atoms`` (deterministic for a trial)."""
    rng = np.random.default_rng(_SEEDS[trial % len(_SEEDS)] + trial)
    ordered = sorted(atoms, key=sympy.default_sort_key)
    return {a: sympy.Float(rng.uniform(0.5, 2.0), 30) for a in ordered}


def sym_eval(M: Any, trial: int = 0, atoms: set[Any] | None = None) -> np.ndarray:
    """Evaluate a SymPy matrix at the random point of ``trial`` (float array)."""
    M = sympy.Matrix(M)
    if M.shape[0] == 0 or M.shape[1] == 0:
        return np.zeros(M.shape)
    atoms = free_atoms(M) if atoms is None else atoms
    point = random_point(atoms, trial)
    vals = M.xreplace(point).evalf(20) if point else M.evalf(20)
    out = np.array([[complex(v) for v in row] for row in vals.tolist()], dtype=complex)
    if np.all(np.abs(out.imag) <= 1e-12 * (1.0 + np.abs(out.real))):
        return out.real.copy()
    return out


def sym_is_zero(expr: Any, atoms: set[Any] | None = None) -> bool:
    """Whether a SymPy expression vanishes identically (for generic symbol values).

    A cheap numeric test at two random points comes first: a clearly non-zero value
    decides.  Otherwise ``simplify`` is tried; if it cannot prove zero, the two
    numeric zeros are taken as the answer (a probabilistic identity test).
    """
    expr = sympy.sympify(expr)
    if expr == 0:
        return True
    atoms = free_atoms(expr) if atoms is None else atoms
    try:
        for trial in range(2):
            val = complex(expr.xreplace(random_point(atoms, trial)).evalf(30))
            if abs(val) > 1e-12:
                return False
        numeric_zero = True
    except (TypeError, ValueError):
        numeric_zero = False
    if sympy.simplify(expr) == 0:
        return True
    return numeric_zero


def simplify_matrix(M: Any) -> Any:
    """Entry-wise ``cancel``/``simplify`` of a SymPy matrix (cheap first)."""

    def _s(e: Any) -> Any:
        e = sympy.sympify(e)
        if e.is_number or e.is_Symbol:
            return e
        c = sympy.cancel(e)
        s = sympy.simplify(c)
        return s if sympy.count_ops(s) <= sympy.count_ops(c) else c

    return sympy.ImmutableMatrix(sympy.Matrix(M).applyfunc(_s))


def generic_eval(M: Any, kind: Kind, trial: int = 0) -> np.ndarray:
    """A dense float array: ``M`` itself (numeric) or at a random point (symbolic)."""
    if kind == "symbolic":
        return sym_eval(M, trial)
    return to_dense(M)


# ------------------------------------------------------------------------- numeric


def numeric_rank(A: np.ndarray, rtol: float = DEFAULT_RTOL) -> int:
    """Rank from the singular values, relative tolerance ``rtol``."""
    if A.size == 0:
        return 0
    s = np.linalg.svd(A, compute_uv=False)
    if s[0] == 0:
        return 0
    return int(np.sum(s > rtol * s[0]))


def rank(M: Any, kind: Kind, rtol: float = DEFAULT_RTOL) -> int:
    """Rank of ``M``: numeric, or generic for symbolic (max over two random points)."""
    if kind == "symbolic":
        if M.shape[0] == 0 or M.shape[1] == 0:
            return 0
        return max(numeric_rank(sym_eval(M, t), rtol) for t in range(2))
    return numeric_rank(to_dense(M), rtol)


def row_basis(A: np.ndarray, rtol: float = DEFAULT_RTOL) -> np.ndarray:
    """Orthonormal rows spanning the row space of ``A`` (SVD)."""
    if A.shape[0] == 0:
        return A.copy()
    _, s, vt = np.linalg.svd(A, full_matrices=False)
    if s.size == 0 or s[0] == 0:
        return np.zeros((0, A.shape[1]))
    r = int(np.sum(s > rtol * s[0]))
    return vt[:r].copy()


def nearest_dirac(F: np.ndarray, E: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
    r"""Project an almost-Dirac ``n × n`` kernel representation onto a Dirac structure.

    Scattering (Cayley) representation: with ``a = f + e`` and ``b = f − e``,
    ``F f + E e = ½[(F + E) a + (F − E) b]`` and ``eᵀf = (‖a‖² − ‖b‖²)/4``; ``D`` is
    Dirac iff ``F + E`` is invertible and ``a = O b`` with
    ``O = −(F + E)⁻¹(F − E)`` orthogonal (van der Schaft & Jeltsema 2014, §2.1 and
    the scattering representation of Dirac structures).  Round-off makes ``O``
    slightly non-orthogonal; it is replaced by its orthogonal polar factor (the
    nearest orthogonal matrix in the Frobenius norm) and ``F = (I − O)/2``,
    ``E = (I + O)/2`` (then ``F Fᵀ + E Eᵀ = I`` and ``F Eᵀ + E Fᵀ = 0`` exactly up
    to round-off).  Used after each dense composition so errors do not accumulate
    along long chains.  Returns ``None`` if ``F + E`` is singular (not Dirac).
    """
    n = F.shape[1]
    if F.shape[0] != n or n == 0:
        return None
    S = F + E
    try:
        O = -np.linalg.solve(S, F - E)
    except np.linalg.LinAlgError:
        return None
    if not np.all(np.isfinite(O)) or np.linalg.cond(S) > 1e8:
        return None
    u, _, vt = np.linalg.svd(O)
    O = u @ vt
    eye_n = np.eye(n)
    return 0.5 * (eye_n - O), 0.5 * (eye_n + O)


def null_space(A: np.ndarray, rtol: float = DEFAULT_RTOL) -> np.ndarray:
    """Orthonormal columns spanning ``ker A``."""
    n = A.shape[1]
    if A.shape[0] == 0:
        return np.eye(n)
    _, s, vt = np.linalg.svd(A, full_matrices=True)
    r = int(np.sum(s > rtol * s[0])) if s.size and s[0] > 0 else 0
    return vt[r:].T.copy()


def _pivoted_qr(A: np.ndarray, rtol: float, scale: float | None = None):
    """``A P = Q R``; returns ``(Q, R, piv, r)`` with numeric rank ``r``."""
    if A.shape[1] == 0 or A.shape[0] == 0:
        return (np.zeros((A.shape[0], 0)), np.zeros((0, A.shape[1])),
                np.arange(A.shape[1]), 0)
    Q, R, piv = sla.qr(A, mode="economic", pivoting=True)
    d = np.abs(np.diag(R))
    ref = d[0] if scale is None else scale
    r = int(np.sum(d > rtol * ref)) if ref > 0 else 0
    return Q, R, piv, r


def select_columns(
    A: np.ndarray,
    forced: Sequence[int],
    candidates: Sequence[int],
    rtol: float = DEFAULT_RTOL,
) -> tuple[list[int], np.ndarray | None]:
    """Extend the ``forced`` columns of ``A`` by ``candidates`` to a column basis.

    Returns ``(chosen, None)`` with ``chosen = forced + extra`` spanning the span of
    ``A[:, forced + candidates]`` (extras picked by column-pivoted QR on what the
    forced columns leave unexplained), or ``([], c)`` when the forced columns are
    linearly dependent, ``c`` a unit vector with ``A[:, forced] @ c ≈ 0``.
    """
    forced = list(forced)
    candidates = list(candidates)
    scale = float(np.max(np.linalg.norm(A, axis=0))) if A.size else 0.0
    B = A[:, forced]
    if forced:
        Q, R, piv, r = _pivoted_qr(B, rtol, scale)
        if r < len(forced):
            _, _, vt = np.linalg.svd(B)
            return [], vt[-1].copy()
        Qf = Q[:, :r]
    else:
        Qf = np.zeros((A.shape[0], 0))
    C = A[:, candidates]
    C = C - Qf @ (Qf.T @ C)
    C = C - Qf @ (Qf.T @ C)  # re-orthogonalise
    _, _, piv2, r2 = _pivoted_qr(C, rtol, scale)
    extra = [candidates[i] for i in piv2[:r2]]
    return forced + extra, None


# -------------------------------------------------------------------- elimination


def eliminate(M_ext: Any, M_int: Any, kind: Kind, rtol: float = DEFAULT_RTOL) -> Any:
    """Kernel representation of ``{x : ∃ z, M_ext x + M_int z = 0}``.

    The rows of ``M_int`` that are not zero are split into a set ``S`` of
    ``r = rank M_int`` independent rows and the rest ``R``; then ``M_int[R] =
    C M_int[S]`` and the projection is ``{x : M_ext[U] x = 0, (M_ext[R] − C M_ext[S])
    x = 0}`` with ``U`` the rows not involving ``z``: the ``S`` rows can always be
    solved for ``z``.  This is the left-annihilator elimination of Cervera, van der
    Schaft & Baños, *Automatica* 43 (2007) 212–225, §4, with the annihilator chosen
    as ``[−C  I]`` so that untouched rows and sparsity are kept.

    Numeric: ``S`` and ``C`` from a column-pivoted QR of ``M_int[T]ᵀ`` (``T`` the
    touched rows).  Symbolic: ``S`` and an invertible ``r × r`` block chosen at a
    random point (generic), then ``C = M_int[R, cols] M_int[S, cols]⁻¹`` exactly.
    """
    k, p = M_int.shape
    if p == 0:
        return M_ext
    if kind == "symbolic":
        return _eliminate_symbolic(M_ext, M_int, rtol)
    if kind == "sparse":
        Mi = sp.csr_array(M_int)
        touched = np.unique(Mi.tocoo().row)
        A = Mi[touched, :].toarray()
    else:
        Mi = np.asarray(M_int)
        touched = np.flatnonzero(np.any(Mi != 0, axis=1))
        A = Mi[touched, :]
    untouched = np.setdiff1d(np.arange(k), touched)
    if touched.size == 0:
        return M_ext
    _, R, piv, r = _pivoted_qr(A.T, rtol)
    S = touched[piv[:r]]
    Rr = touched[piv[r:]]
    if r > 0 and Rr.size:
        X = sla.solve_triangular(R[:r, :r], R[:r, r:])  # A_R = Xᵀ A_S
    else:
        X = np.zeros((r, Rr.size))
    if kind == "sparse":
        Me = sp.csr_array(M_ext)
        Xt = X.T.copy()
        Xt[np.abs(Xt) <= 1e-14 * max(1.0, float(np.max(np.abs(Xt), initial=0.0)))] = 0.0
        reduced = Me[Rr, :] - sp.csr_array(Xt) @ Me[S, :]
        out = sp.vstack([Me[untouched, :], reduced], format="csr")
        return drop_zero_rows_sparse(out, rtol)
    Me = np.asarray(M_ext)
    reduced = Me[Rr, :] - X.T @ Me[S, :]
    return np.vstack([Me[untouched, :], reduced])


def _eliminate_symbolic(M_ext: Any, M_int: Any, rtol: float) -> Any:
    M_ext = sympy.Matrix(M_ext)
    M_int = sympy.Matrix(M_int)
    k, p = M_int.shape
    touched = [i for i in range(k) if any(e != 0 for e in M_int.row(i))]
    untouched = [i for i in range(k) if i not in touched]
    if not touched:
        return sympy.ImmutableMatrix(M_ext)
    A = M_int.extract(touched, list(range(p)))
    An = sym_eval(A, 0)
    _, _, piv, r = _pivoted_qr(An.T, rtol)
    S = [touched[i] for i in piv[:r]]
    Rr = [touched[i] for i in piv[r:]]
    out_rows = [M_ext.row(i) for i in untouched]
    if Rr:
        if r > 0:
            AS = M_int.extract(S, list(range(p)))
            _, _, pc, _ = _pivoted_qr(sym_eval(AS, 0), rtol)
            cs = list(pc[:r])
            ASQ = AS.extract(list(range(r)), cs)
            ARQ = M_int.extract(Rr, cs)
            C = ARQ * ASQ.inv(method="LU")
            red = M_ext.extract(Rr, list(range(M_ext.shape[1]))) - C * M_ext.extract(
                S, list(range(M_ext.shape[1]))
            )
        else:
            red = M_ext.extract(Rr, list(range(M_ext.shape[1])))
        red = clear_denominators(simplify_matrix(red))
        out_rows += [red.row(i) for i in range(red.shape[0])]
    out = (
        sympy.Matrix.vstack(*out_rows) if out_rows else sympy.zeros(0, M_ext.shape[1])
    )
    return independent_rows_symbolic(out, rtol)


def clear_denominators(M: Any) -> Any:
    """Multiply each row of a SymPy matrix by the lcm of its denominators."""
    M = sympy.Matrix(M)
    for i in range(M.shape[0]):
        row = [sympy.together(e) for e in M.row(i)]
        dens = [sympy.fraction(e)[1] for e in row if e != 0]
        if not dens:
            continue
        lcm = sympy.lcm(dens) if len(dens) > 1 else dens[0]
        if lcm != 1:
            M[i, :] = sympy.Matrix([[sympy.cancel(e * lcm) for e in row]])
    return sympy.ImmutableMatrix(M)


def independent_rows_symbolic(M: Any, rtol: float = DEFAULT_RTOL) -> Any:
    """Keep a generically independent subset of the rows of a SymPy matrix."""
    M = sympy.Matrix(M)
    if M.shape[0] == 0:
        return sympy.ImmutableMatrix(M)
    keep = [i for i in range(M.shape[0]) if any(e != 0 for e in M.row(i))]
    if not keep:
        return sympy.ImmutableMatrix(sympy.zeros(0, M.shape[1]))
    M = M.extract(keep, list(range(M.shape[1])))
    _, _, piv, r = _pivoted_qr(sym_eval(M, 0).T, rtol)
    chosen = sorted(int(i) for i in piv[:r])
    return sympy.ImmutableMatrix(M.extract(chosen, list(range(M.shape[1]))))


def drop_zero_rows_sparse(M: Any, rtol: float = DEFAULT_RTOL) -> Any:
    """Remove rows of a sparse matrix that are (numerically) zero."""
    M = sp.csr_array(M)
    if M.shape[0] == 0:
        return M
    rowmax = np.zeros(M.shape[0])
    np.maximum.at(rowmax, M.tocoo().row, np.abs(M.tocoo().data))
    ref = float(rowmax.max(initial=0.0))
    keep = np.flatnonzero(rowmax > 1e-3 * rtol * ref) if ref > 0 else np.arange(0)
    return M[keep, :]
