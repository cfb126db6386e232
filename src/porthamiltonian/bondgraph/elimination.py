r"""Sparse elimination of a square linear system in block-lower-triangular order.

The element equations of a bond graph are a square system :math:`A v = B w` in the
bond variables :math:`v` (every effort and flow) with known right-hand sides
:math:`w` (storage co-energies, source values).  Eliminating the interior variables
is the composition of the junctions' Dirac structures; done naively it is a dense
solve.  Here it is done the way equation-based simulators sort equations
(Duff & Reid, *ACM TOMS* 4, 1978; the "BLT" sorting of Modelica tools):

1. a maximum bipartite matching pairs every equation with the variable it
   determines — on a bond graph this *is* a causal assignment; no perfect
   matching means the system is structurally singular (dependent storages or
   sources);
2. the strongly connected components of the resulting dependency graph are the
   algebraic loops; ordered topologically, they are solved one after the other,
   singletons by one division, loops by a small dense solve.

Every variable is carried as a sparse linear combination of the knowns
(``{known index: coefficient}``), so the work is proportional to the number of
non-zeros of the result: linear in the size of a ladder.  Coefficients are floats
or SymPy expressions; the same code serves the numeric and the symbolic path.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp
from scipy.sparse.csgraph import connected_components, maximum_bipartite_matching

Combination = dict[int, Any]  # known index → coefficient


class SingularSystem(Exception):
    """The equations ``rows`` cannot be solved for the variables ``cols``.

    ``structural``: no matching exists (an equation is redundant / a variable
    undetermined whatever the parameter values); else the loop's matrix is singular
    for the given values.
    """

    def __init__(self, rows: list[int], cols: list[int], structural: bool) -> None:
        super().__init__(f"singular in equations {rows}")
        self.rows, self.cols, self.structural = rows, cols, structural


def solve_sorted(rows: Sequence[dict[int, Any]], rhs: Sequence[Combination],
                 n_vars: int, exact: bool) -> list[Combination]:
    """Every variable as a combination of the knowns: ``v = A⁻¹ B w``.

    ``rows[i]``: equation i's left-hand side ``{variable: coefficient}``;
    ``rhs[i]``: its right-hand side ``{known: coefficient}``.
    """
    n_eq = len(rows)
    if n_eq != n_vars:
        raise SingularSystem(list(range(n_eq)), [], structural=True)
    pattern = _pattern(rows, n_vars)
    match = _matching(pattern, n_vars)
    eq_of = np.empty(n_vars, dtype=np.int64)
    eq_of[match] = np.arange(n_eq)
    order = _blocks(pattern, match, eq_of)
    value: list[Combination | None] = [None] * n_vars
    matched = match.tolist()
    for block in order:
        if len(block) == 1:
            i = block[0]
            j = matched[i]
            value[j] = (_singleton(rows[i], rhs[i], j, value, exact) if exact
                        else _singleton_float(rows[i], rhs[i], j, value))
        else:
            _loop(block, rows, rhs, match, value, exact)
    return value  # type: ignore[return-value]


def combine(terms: dict[int, Any], value: Sequence[Combination]) -> Combination:
    """``Σ coef · value[var]`` as one combination of the knowns."""
    if len(terms) == 1:  # a storage's rate or a source's output: one bond variable
        ((var, a),) = terms.items()
        if a == 1:
            return {k: _add(0, c) for k, c in value[var].items()}
    out: Combination = {}
    for var, a in terms.items():
        for k, c in value[var].items():
            out[k] = _add(out.get(k, 0), a * c)
    return out


def _add(old: Any, term: Any) -> Any:
    """``old + term``; a float sum that cancels to round-off is exactly zero.

    Cancellation is judged against the two summands, not against the largest entry
    of the result, so badly scaled parameters (1e-9 next to 2e4) survive.
    """
    new = old + term
    if isinstance(new, float) and abs(new) <= 1e-13 * (abs(old) + abs(term)):
        return 0.0
    return new


# ---------------------------------------------------------------------- sorting
def _pattern(rows: Sequence[dict[int, Any]], n: int) -> sps.csr_matrix:
    """The equations' sparsity pattern: row i holds the variables of equation i."""
    indptr = np.zeros(len(rows) + 1, dtype=np.int64)
    indptr[1:] = np.cumsum([len(r) for r in rows])
    indices = np.fromiter((j for r in rows for j in r), dtype=np.int32, count=int(indptr[-1]))
    return sps.csr_matrix((np.ones(len(indices)), indices, indptr), shape=(len(rows), n))


def _matching(pattern: sps.csr_matrix, n: int) -> np.ndarray:
    match = maximum_bipartite_matching(pattern, perm_type="column")
    if np.any(match < 0):
        unmatched_rows = [int(i) for i in np.flatnonzero(match < 0)]
        used = set(int(j) for j in match[match >= 0])
        free_cols = [j for j in range(n) if j not in used]
        raise SingularSystem(unmatched_rows, free_cols, structural=True)
    return match


def _blocks(pattern: sps.csr_matrix, match: np.ndarray,
            eq_of: np.ndarray) -> list[list[int]]:
    """Equations grouped into strongly connected blocks, dependencies first."""
    n = pattern.shape[0]
    # equation i needs the equation that determines each of its other variables j
    row_of = np.repeat(np.arange(n), np.diff(pattern.indptr))
    other = pattern.indices != match[row_of]
    src, dst = row_of[other], eq_of[pattern.indices[other]]
    graph = sps.csr_matrix((np.ones(len(src)), (src, dst)), shape=(n, n))
    n_blocks, label = connected_components(graph, directed=True, connection="strong")
    la, lb = label[src], label[dst]
    cross = la != lb
    by_label = np.argsort(label, kind="stable")
    starts = np.concatenate([[0], np.cumsum(np.bincount(label, minlength=n_blocks))]).tolist()
    flat = by_label.tolist()
    members = [flat[starts[b]:starts[b + 1]] for b in range(n_blocks)]
    if np.all(lb[cross] < la[cross]):
        # SciPy numbers the components of Pearce's algorithm so that a block's
        # dependencies come first; checked, not assumed (Kahn's algorithm otherwise)
        return members
    return [members[b] for b in _topological(n_blocks, la[cross], lb[cross])]


def _topological(n_blocks: int, needer: np.ndarray, needed: np.ndarray) -> list[int]:
    """Kahn's algorithm on the condensation: a block is ready when every block it
    depends on is done."""
    edges = np.unique(needer.astype(np.int64) * n_blocks + needed)
    needer, needed = (edges // n_blocks).tolist(), (edges % n_blocks).tolist()
    pending = np.bincount(np.asarray(needer, dtype=np.int64), minlength=n_blocks).tolist()
    needed_by: list[list[int]] = [[] for _ in range(n_blocks)]
    for a, b in zip(needer, needed, strict=True):
        needed_by[b].append(a)
    ready = [b for b in range(n_blocks) if pending[b] == 0]
    order: list[int] = []
    while ready:
        b = ready.pop()
        order.append(b)
        for c in needed_by[b]:
            pending[c] -= 1
            if pending[c] == 0:
                ready.append(c)
    return order


# ---------------------------------------------------------------------- solving
def _is_zero(c: Any, exact: bool) -> bool:
    """Structurally zero.  Not SymPy's ``is_zero``: on a rational function of the
    parameters its assumption system may look for the real roots of a polynomial of high
    degree (minutes); a coefficient that is zero but not written as 0 only stays in."""
    return c == 0 if exact else c == 0.0


def _residual(row: dict[int, Any], rhs: Combination, skip: set[int],
              value: Sequence[Combination | None]) -> Combination:
    """``rhs − Σ a_l v_l`` over the variables already known (all but ``skip``)."""
    acc: Combination = dict(rhs)
    for var, a in row.items():
        if var in skip:
            continue
        for k, c in value[var].items():  # type: ignore[union-attr]
            acc[k] = _add(acc.get(k, 0), -a * c)
    return acc


def _residual_float(row: dict[int, Any], rhs: Combination, j: int,
                    value: Sequence[Combination | None]) -> Combination:
    """:func:`_residual` of one float equation without ``j``, with :func:`_add` inlined
    (a call per term was a third of a large numeric generation)."""
    acc: Combination = dict(rhs)
    for var, a in row.items():
        if var == j:
            continue
        for k, c in value[var].items():  # type: ignore[union-attr]
            term = -a * c
            old = acc.get(k)
            if old is None:
                acc[k] = term
            else:
                new = old + term
                acc[k] = 0.0 if abs(new) <= 1e-13 * (abs(old) + abs(term)) else new
    return acc


def _singleton_float(row: dict[int, Any], rhs: Combination, j: int,
                     value: Sequence[Combination | None]) -> Combination:
    """:func:`_singleton` in floats, the zero test inlined."""
    pivot = row[j]
    if not rhs and len(row) == 2 and pivot in (1, -1):
        # v_j = v_o, or −v_o: a junction's equal efforts or flows, most rows of a large
        # graph; the combination of v_o holds no zeros already
        ((o, a),) = ((k, c) for k, c in row.items() if k != j)
        if a == -pivot:
            return dict(value[o])  # type: ignore[arg-type]
        if a == pivot:
            return {k: -c for k, c in value[o].items()}  # type: ignore[union-attr]
    acc = _residual_float(row, rhs, j, value)
    if pivot == 1:
        return {k: c for k, c in acc.items() if c != 0.0}
    if pivot == -1:
        return {k: -c for k, c in acc.items() if c != 0.0}
    return {k: c / pivot for k, c in acc.items() if c != 0.0}


def _singleton(row: dict[int, Any], rhs: Combination, j: int,
               value: Sequence[Combination | None], exact: bool) -> Combination:
    acc = _residual(row, rhs, {j}, value)
    pivot = row[j]
    if pivot == 1:
        return {k: c for k, c in acc.items() if not _is_zero(c, exact)}
    if pivot == -1:
        return {k: -c for k, c in acc.items() if not _is_zero(c, exact)}
    return {k: c / pivot for k, c in acc.items() if not _is_zero(c, exact)}


def _loop(block: list[int], rows: Sequence[dict[int, Any]], rhs: Sequence[Combination],
          match: np.ndarray, value: list[Combination | None], exact: bool) -> None:
    """Solve an algebraic loop: the block's equations for its matched variables."""
    cols = [int(match[i]) for i in block]
    where = {j: c for c, j in enumerate(cols)}
    inside = set(cols)
    parts = [_residual(rows[i], rhs[i], inside, value) for i in block]
    knowns = sorted({k for p in parts for k in p})
    s = len(block)
    if exact:
        A = sp.zeros(s, s)
        Bm = sp.zeros(s, len(knowns))
    else:
        A = np.zeros((s, s))
        Bm = np.zeros((s, len(knowns)))
    kpos = {k: c for c, k in enumerate(knowns)}
    for r, i in enumerate(block):
        for j, a in rows[i].items():
            if j in where:
                A[r, where[j]] = a
        for k, c in parts[r].items():
            Bm[r, kpos[k]] = c
    if exact:
        X = _solve_exact(A, Bm)
        if X is None:
            raise SingularSystem(block, cols, structural=False)
    else:
        if np.linalg.cond(A) > 1e12:
            raise SingularSystem(block, cols, structural=False)
        X = np.linalg.solve(A, Bm)
    for c, j in enumerate(cols):
        value[j] = {k: X[c, kpos[k]] for k in knowns if not _is_zero(X[c, kpos[k]], exact)}


def _solve_exact(A: sp.Matrix, B: sp.Matrix) -> sp.Matrix | None:
    """``A⁻¹B`` in exact arithmetic, ``None`` when ``A`` is singular.

    Over the field of rational functions of the parameters (SymPy's ``DomainMatrix``):
    the entries stay reduced fractions throughout, where ``Matrix.LUsolve`` followed by
    ``cancel`` builds products that grow with every pivot (four resistors in parallel took
    40 s that way).  Entries outside a polynomial domain (``sqrt``, functions of states)
    fall back to the LU solve."""
    from sympy.polys.matrices import DomainMatrix
    from sympy.polys.polyerrors import BasePolynomialError

    try:
        dA, dB = DomainMatrix.from_Matrix(A), DomainMatrix.from_Matrix(B)
        dA, dB = dA.unify(dB)
        dA, dB = dA.to_field(), dB.to_field()
        if dA.det() == dA.domain.zero:
            return None
        return dA.lu_solve(dB).to_Matrix()
    except (BasePolynomialError, NotImplementedError, ValueError, TypeError):
        if sp.simplify(A.det()) == 0:
            return None
        return A.LUsolve(B).applyfunc(sp.cancel)

