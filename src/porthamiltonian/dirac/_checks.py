"""Dirac conditions, rank and subspace equality of kernel representations."""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as spla
import sympy

from . import _linalg as la
from ._linalg import DEFAULT_RTOL
from ._protocol import DiracT


def problems(d: DiracT, tol: float | None) -> list[str]:
    """Messages for every Dirac condition ``d`` violates (empty when Dirac)."""
    rtol = DEFAULT_RTOL if tol is None else tol
    n, kind = d.n, d.kind
    k = d.F.shape[0]
    problems: list[str] = []
    F, E = d.F, d.E
    P = F @ E.T + E @ F.T
    if kind == "symbolic":
        P = sympy.Matrix(P)
        atoms = d.free_symbols
        for i in range(k):
            for j in range(i, k):
                if not la.sym_is_zero(P[i, j], atoms):
                    problems.append(
                        f"not power conserving: (F Eᵀ + E Fᵀ)[{i},{j}] = "
                        f"{sympy.simplify(P[i, j])} ≠ 0 ({_rows(i, j)} not compatible "
                        "with eᵀf = 0)"
                    )
                    break
            if problems:
                break
    elif k:
        Pd = P.toarray() if kind == "sparse" else np.asarray(P)
        if kind == "sparse":
            scale = float(sp.csr_array(F).power(2).sum() + sp.csr_array(E).power(2).sum())
        else:
            scale = float(np.sum(F * F) + np.sum(E * E))
        i, j = np.unravel_index(np.argmax(np.abs(Pd)), Pd.shape)
        if abs(Pd[i, j]) > rtol * max(scale, np.finfo(float).tiny):
            problems.append(
                f"not power conserving: (F Eᵀ + E Fᵀ)[{i},{j}] = {Pd[i, j]:.6g} ≠ 0 "
                f"(tolerance {rtol:.1e} relative to ‖[F | E]‖²); {_rows(i, j)} "
                "not compatible with eᵀf = 0"
            )
    r = stacked_rank(d, rtol, power_ok=not problems)
    if r < n:
        free = n - r
        problems.append(
            f"not maximal: rank [F | E] = {r} < {n} ports; the structure leaves "
            f"{free} port variable{'s' if free > 1 else ''} free (add {free} independent "
            f"constraint{'s' if free > 1 else ''} relating the ports "
            f"{', '.join(d.ports)})"
        )
    elif r > n:
        problems.append(
            f"over-constrained: rank [F | E] = {r} > {n} ports; a Dirac structure on "
            f"{n} ports has exactly {n} independent constraints"
        )
    return problems

def stacked_rank(d: DiracT, rtol: float, power_ok: bool) -> int:
    """``rank [F | E]`` (sparse LU shortcut for large sparse structures)."""
    n = d.n
    if d.kind != "sparse" or n <= 1000:
        return la.rank(d._stacked(), d.kind, rtol)
    # Large sparse: if F Eᵀ + E Fᵀ = 0 then (F+E)(F+E)ᵀ = F Fᵀ + E Eᵀ, so
    # rank [F | E] = rank (F + E); test it with a sparse LU.
    S = sp.csc_array(d.F + d.E)
    if S.shape[0] != n:
        S = sp.csc_array(S.T @ S)
    try:
        lu = spla.splu(S)
    except RuntimeError:
        return la.rank(d._stacked(), d.kind, rtol) if n <= 4000 else n - 1
    pivots = np.abs(lu.U.diagonal())
    if not power_ok or pivots.min(initial=np.inf) <= rtol * pivots.max(initial=0.0):
        return la.rank(d._stacked(), d.kind, rtol) if n <= 4000 else n - 1
    return n


def equal_subspaces(d1: DiracT, d2: DiracT, tol: float | None) -> bool:
    """Whether ``d1`` and ``d2`` are the same subspace (ports matched by name)."""
    if set(d1.ports) != set(d2.ports) or d1.n != d2.n:
        return False
    d2 = d2.reorder(d1.ports)
    kind = la.common_kind(d1.kind, d2.kind)
    rtol = DEFAULT_RTOL if tol is None else tol
    if kind == "symbolic":
        K1 = la.as_kind(d1._stacked(), "symbolic")
        K2 = la.as_kind(d2._stacked(), "symbolic")
        atoms = la.free_atoms(K1) | la.free_atoms(K2)
        for t in range(2):
            A = la.sym_eval(K1, t, atoms)
            B = la.sym_eval(K2, t, atoms)
            if not _same_rowspace(A, B, rtol):
                return False
        return True
    return _same_rowspace(la.to_dense(d1._stacked()), la.to_dense(d2._stacked()), rtol)


def _rows(i: int, j: int) -> str:
    where = "of the kernel representation F f + E e = 0"
    return f"row {i} {where} is" if i == j else f"rows {i} and {j} {where} are"


def _same_rowspace(A: np.ndarray, B: np.ndarray, rtol: float) -> bool:
    ra = la.numeric_rank(A, rtol)
    rb = la.numeric_rank(B, rtol)
    if ra != rb:
        return False
    # compare the projections on orthonormal row bases (scale-free)
    QA = la.row_basis(A, rtol)
    QB = la.row_basis(B, rtol)
    resid = QB - (QB @ QA.T) @ QA
    return bool(np.linalg.norm(resid) <= max(1e-6, 1e3 * rtol) * max(1, ra))
