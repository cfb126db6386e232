r"""Numeric generation of a linear bond graph by array assembly.

The general path (:mod:`.equations`, :mod:`.elimination`) carries every bond variable
as a dictionary of coefficients; on a graph of 10⁵ elements that is 10⁶ small Python
objects.  This module builds the same square system :math:`A v = B w` (bond efforts
:math:`e_b = v_{2b}` and flows :math:`f_b = v_{2b+1}`; knowns :math:`w` = storage
co-energies :math:`z`, then source values :math:`u`) as SciPy sparse matrices from
integer arrays, with the equations of :mod:`.equations`:

* a 0-junction: :math:`\sum_i s_i f_i = 0` and :math:`e_i = e_1`; a 1-junction with
  efforts and flows exchanged (:math:`s_i = \pm 1` for a bond in / out) — the rows of
  one sparse incidence matrix;
* C: :math:`e = z`; I: :math:`f = z`; R: :math:`e = r f`; Se: :math:`e = u`;
  Sf: :math:`f = u`; TF (bond :math:`a` in, :math:`b` out): :math:`f_b = m f_a`,
  :math:`e_a = m e_b`; GY: :math:`e_b = m f_a`, :math:`e_a = m f_b` — coefficient
  vectors.

It is solved in the order of the general path (Duff & Reid, *ACM TOMS* 4, 1978): a
maximum matching (the causal assignment), the strongly connected blocks of the
dependency graph (algebraic loops), and then — instead of one block after the
other — all blocks of one *level* at once, a level being the length of the longest
dependency chain below a block:

.. math::
    V_L = D_L^{-1}\big(B_L - A_{L,<L}\, V_{<L}\big),

:math:`D_L` the block-diagonal of the level's own variables (a division per
singleton, a dense inverse per loop).  A sum whose terms cancel to round-off
(:math:`|s| \le 10^{-13}\sum|t_i|`) is set to exactly zero, as the general path does.
The work is a few sparse products per level; a ladder has a handful of levels
whatever its length.

Scope: a checked graph of scalar C, I, R, Se, Sf, TF, GY (and their modulated types
with constant values) on 0/1-junctions, every parameter a number once the graph's
values are substituted, every storage in integral causality.  Anything else — and a
graph whose dependency chains are long (:data:`MAX_LEVELS`) — returns ``None``, and
:func:`~porthamiltonian.bondgraph.to_phs` takes the general path, which gives the
same model to round-off and explains what it refuses.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp
from scipy.sparse.csgraph import connected_components, maximum_bipartite_matching

from .. import _matrices as mx
from ..errors import ModelError
from ..naming import expand
from ..phs import PHS
from .elements import HamiltonianData
from .graph import BondGraph
from .linear_map import explicit_phs, split

__all__ = ["numeric_phs", "MAX_LEVELS"]

#: Beyond this many levels the general path is taken (each level costs a few sparse
#: products over everything solved so far).
MAX_LEVELS = 64

# element codes
_C, _I, _R, _SE, _SF, _TF, _GY, _J0, _J1 = range(9)
_CODE = {"C": _C, "I": _I, "R": _R, "MR": _R, "Se": _SE, "MSe": _SE, "Sf": _SF,
         "MSf": _SF, "TF": _TF, "MTF": _TF, "GY": _GY, "MGY": _GY, "0": _J0, "1": _J1}
_KEY = {_C: "c", _I: "i", _R: "r", _TF: "ratio", _GY: "ratio"}
_CANCEL = 1e-13


class _OutOfScope(Exception):
    """The graph needs the general path."""


def numeric_phs(bg: BondGraph) -> PHS | None:
    """The numeric explicit PHS of the checked graph ``bg``, or ``None`` when it is
    outside this path's scope (module docstring)."""
    try:
        code, value = _elements(bg)
        ends = bg.bond_ends()  # made by the checks
        tails, heads = ends[:, 0], ends[:, 1]
        A, B, targets, n_states = _system(code, value, tails, heads)
        Z = _solve(A, B, targets)
    except _OutOfScope:
        return None
    states = bg.state_names()
    if len(states) != n_states:  # cannot happen for a scalar graph; be safe
        return None
    inputs = [p for el in bg.sources() for p in expand(el.name, el.dim)]
    ns = n_states  # Z: rows [ẋ; y], columns [z; u]
    K, Au, Cz, D = Z[:ns, :ns], Z[:ns, ns:], Z[ns:, :ns], Z[ns:, ns:]
    storage = value[(code == _C) | (code == _I)]
    Q = sps.diags(1.0 / storage, format="csr") if storage.size else sps.csr_matrix((0, 0))
    return explicit_phs(bg, split(K, Au, Cz, D), HamiltonianData(None, Q), states, inputs)


# ---------------------------------------------------------------------- the graph as arrays
def _elements(bg: BondGraph) -> tuple[np.ndarray, np.ndarray]:
    """Each element's code and its parameter's value (``nan`` for junctions and sources)."""
    if any(v is None for v in bg.parameters.values()):
        raise _OutOfScope  # the general path names the parameters without values
    elements = list(bg.elements.values())
    n = len(elements)
    # by type: chemical and switched elements have none (out of scope)
    code = np.fromiter((_CODE.get(el.type, -1) for el in elements), np.int8, count=n)
    if np.any(code < 0) or any(el.dim != 1 for el in elements):
        raise _OutOfScope  # multi-bonds, switches, chemistry
    value = np.full(n, np.nan)
    number: dict[int, float] = {}  # a ladder shares one parameter object: convert it once
    with_law = np.flatnonzero((code <= _R) | (code == _TF) | (code == _GY)).tolist()
    keys = [_KEY[c] for c in code[with_law].tolist()]
    got = []
    for i, key in zip(with_law, keys, strict=True):
        p = elements[i].params
        if "hamiltonian" in p:
            raise _OutOfScope  # a nonlinear storage
        v = p.get(key)
        x = number.get(id(v))
        if x is None:
            x = number[id(v)] = _number(v, bg.parameters)
        got.append(x)
    value[with_law] = got
    if np.any(np.isnan(value[code <= _R])) or np.any(value[code <= _I] == 0.0):
        raise _OutOfScope  # a missing or singular law: the general path names it
    return code, value


def _number(v: Any, values: dict[str, Any]) -> float:
    """A parameter's value as a float; out of scope unless it is a constant."""
    if v is None or isinstance(v, sp.MatrixBase):
        raise _OutOfScope
    free = getattr(v, "free_symbols", ())
    if free:
        if any(s.name not in values for s in free):
            raise _OutOfScope  # a state (modulated) or an unknown name
        v = v.xreplace({s: sp.sympify(values[s.name]) for s in free})
        if getattr(v, "free_symbols", ()):
            raise _OutOfScope
    try:
        x = float(v)
    except (TypeError, ValueError):
        raise _OutOfScope from None
    if not np.isfinite(x):
        raise _OutOfScope
    return x


# ---------------------------------------------------------------------- the equations
def _system(code: np.ndarray, value: np.ndarray, tails: np.ndarray,
            heads: np.ndarray) -> tuple[sps.csr_matrix, sps.csr_matrix, np.ndarray, int]:
    """``A`` (equations × bond variables), ``B`` (equations × knowns) and the variables
    read off as results: the storages' rates, then the sources' outputs."""
    n_el, n_b = len(code), len(tails)
    bond = np.arange(n_b)
    ct, ch = code[tails], code[heads]
    # the one bond of a one-port (check(): bonds point into C, I, R and out of Se, Sf)
    one = np.full(n_el, -1)
    into = ch <= _R
    one[heads[into]] = bond[into]
    out = (ct == _SE) | (ct == _SF)
    one[tails[out]] = bond[out]
    # the bond in and the bond out of a two-port
    b_in = np.full(n_el, -1)
    b_out = np.full(n_el, -1)
    m = (ch == _TF) | (ch == _GY)
    b_in[heads[m]] = bond[m]
    m = (ct == _TF) | (ct == _GY)
    b_out[tails[m]] = bond[m]

    rows: list[np.ndarray] = []
    cols: list[np.ndarray] = []
    vals: list[np.ndarray] = []
    n_eq = 0

    def add(var: np.ndarray, coef: np.ndarray | float, row: np.ndarray) -> None:
        rows.append(row)
        cols.append(var)
        vals.append(np.broadcast_to(np.asarray(coef, dtype=float), var.shape))

    storage = np.flatnonzero((code == _C) | (code == _I))
    source = np.flatnonzero((code == _SE) | (code == _SF))
    n_s = len(storage)
    # C: e = z (q̇ = f read off), I: f = z (ṗ = e); Se: e = u (y = f), Sf: f = u (y = e)
    given_s = 2 * one[storage] + (code[storage] == _I)
    given_u = 2 * one[source] + (code[source] == _SF)
    r_s = np.arange(n_s)
    r_u = n_s + np.arange(len(source))
    add(given_s, 1.0, r_s)
    add(given_u, 1.0, r_u)
    n_eq = n_s + len(source)
    B = sps.csr_matrix((np.ones(n_eq), (np.arange(n_eq), np.arange(n_eq))),
                       shape=(2 * n_b, n_eq))
    targets = np.concatenate([given_s ^ 1, given_u ^ 1])
    # R: e − r f = 0
    res = np.flatnonzero(code == _R)
    r_r = n_eq + np.arange(len(res))
    add(2 * one[res], 1.0, r_r)
    add(2 * one[res] + 1, -value[res], r_r)
    n_eq += len(res)
    # TF: f_b − m f_a = 0, e_a − m e_b = 0; GY: e_b − m f_a = 0, e_a − m f_b = 0
    tp = np.flatnonzero((code == _TF) | (code == _GY))
    if tp.size:
        if np.any(b_in[tp] < 0) or np.any(b_out[tp] < 0):
            raise _OutOfScope
        a, b, gy = b_in[tp], b_out[tp], (code[tp] == _GY).astype(np.int64)
        r1 = n_eq + np.arange(len(tp))
        r2 = r1 + len(tp)
        add(2 * b + 1 - gy, 1.0, r1)
        add(2 * a + 1, -value[tp], r1)
        add(2 * a, 1.0, r2)
        add(2 * b + gy, -value[tp], r2)
        n_eq += 2 * len(tp)
    n_eq = _junctions(code, tails, heads, add, n_eq)
    if n_eq != 2 * n_b:
        raise _OutOfScope  # the general path says which equations are missing
    row, col, val = np.concatenate(rows), np.concatenate(cols), np.concatenate(vals)
    keep = val != 0.0  # as the general path: a zero coefficient is no entry
    A = sps.csr_matrix((val[keep], (row[keep], col[keep])), shape=(n_eq, 2 * n_b))
    A.sum_duplicates()
    return A, B, targets, n_s


def _junctions(code: np.ndarray, tails: np.ndarray, heads: np.ndarray, add: Any,
               n_eq: int) -> int:
    """0: ``Σ s_i f_i = 0``, ``e_i = e_1``; 1: ``Σ s_i e_i = 0``, ``f_i = f_1``; one
    incidence list of (junction, bond, sign), the bonds of a junction in graph order."""
    bond = np.arange(len(tails))
    jh = code[heads] >= _J0
    jt = code[tails] >= _J0
    junc = np.concatenate([heads[jh], tails[jt]])
    b = np.concatenate([bond[jh], bond[jt]])
    sign = np.concatenate([np.ones(jh.sum()), -np.ones(jt.sum())])
    order = np.lexsort((b, junc))
    junc, b, sign = junc[order], b[order], sign[order]
    if not junc.size:
        return n_eq
    first = np.r_[True, junc[1:] != junc[:-1]]
    group = np.cumsum(first) - 1
    one = (code[junc] == _J1).astype(np.int64)  # summed: efforts at a 1, flows at a 0
    summed = 2 * b + 1 - one
    shared = 2 * b + one
    n_j = int(group[-1]) + 1
    add(summed, sign, n_eq + group)
    n_eq += n_j
    head_of = np.flatnonzero(first)[group]  # each incidence's junction's first one
    rest = np.flatnonzero(~first)
    r = n_eq + np.arange(len(rest))
    add(shared[rest], 1.0, r)
    add(shared[head_of[rest]], -1.0, r)
    return n_eq + len(rest)


# ---------------------------------------------------------------------- the solution
def _solve(A: sps.csr_matrix, B: sps.csr_matrix, targets: np.ndarray) -> sps.csr_matrix:
    """Rows ``targets`` of ``A⁻¹B``, level by level (module docstring)."""
    n = A.shape[0]
    pattern = sps.csr_matrix((np.ones(A.nnz), A.indices, A.indptr), shape=A.shape)
    match = maximum_bipartite_matching(pattern, perm_type="column")
    if np.any(match < 0):
        raise _OutOfScope  # structurally singular: dependent storages or sources
    eq_of = np.empty(n, dtype=np.int64)
    eq_of[match] = np.arange(n)
    row_of = np.repeat(np.arange(n), np.diff(A.indptr))
    need = eq_of[A.indices]  # the equation that determines each entry's variable
    other = need != row_of
    graph = sps.csr_matrix((np.ones(int(other.sum())), (row_of[other], need[other])),
                           shape=(n, n))
    n_blocks, label = connected_components(graph, directed=True, connection="strong")
    lab_row, lab_need = label[row_of], label[need]
    cross = lab_row != lab_need
    level_of_block = _levels(n_blocks, lab_row[cross], lab_need[cross])
    level = level_of_block[label]
    # equations in (level, block) order; pos: a variable's row in the stacked solution
    order = np.lexsort((label, level))
    pos = np.empty(n, dtype=np.int64)
    pos[match[order]] = np.arange(n)
    bounds = np.searchsorted(level[order], np.arange(level.max() + 2))
    rank = np.empty(n, dtype=np.int64)
    rank[order] = np.arange(n)
    # the entries of A by the stacked position of their equation
    r_pos, c_pos = rank[row_of], pos[A.indices]
    inside = ~cross
    by_row = np.argsort(r_pos, kind="stable")
    r_pos, c_pos, vals, inside = r_pos[by_row], c_pos[by_row], A.data[by_row], inside[by_row]
    at = np.searchsorted(r_pos, bounds)
    Bp = B[order]
    done: list[sps.csr_matrix] = []
    done_abs: list[sps.csr_matrix] = []
    for L in range(len(bounds) - 1):
        lo, hi = int(bounds[L]), int(bounds[L + 1])
        s, e = int(at[L]), int(at[L + 1])
        rp, cp, v, diag = r_pos[s:e] - lo, c_pos[s:e], vals[s:e], inside[s:e]
        rhs = Bp[lo:hi]
        if L:
            off = sps.csr_matrix((v[~diag], (rp[~diag], cp[~diag])), shape=(hi - lo, lo))
            stack = sps.vstack(done, format="csr")
            stack_abs = sps.vstack(done_abs, format="csr")
            rhs = _cancelled(rhs - off @ stack, abs(rhs) + abs(off) @ stack_abs)
        D_inv = _block_inverse(rp[diag], cp[diag] - lo, v[diag], hi - lo)
        V = (D_inv @ rhs).tocsr()
        V.eliminate_zeros()
        done.append(V)
        done_abs.append(abs(V))
    solution = sps.vstack(done, format="csr")
    Z = solution[pos[targets]]
    Z.eliminate_zeros()
    return Z


def _levels(n_blocks: int, needer: np.ndarray, needed: np.ndarray) -> np.ndarray:
    """The level of each block: 0 without dependencies, else one more than the highest
    level it needs (Kahn's algorithm, one frontier per step)."""
    pending = np.bincount(needer, minlength=n_blocks)
    by_needed = np.argsort(needed, kind="stable")
    needer_sorted = needer[by_needed]
    ptr = np.concatenate([[0], np.cumsum(np.bincount(needed, minlength=n_blocks))])
    level = np.full(n_blocks, -1, dtype=np.int64)
    frontier = np.flatnonzero(pending == 0)
    L = 0
    while frontier.size:
        if L >= MAX_LEVELS:
            raise _OutOfScope
        level[frontier] = L
        starts, counts = ptr[frontier], ptr[frontier + 1] - ptr[frontier]
        total = int(counts.sum())
        if not total:
            break
        idx = np.repeat(starts - np.cumsum(counts) + counts, counts) + np.arange(total)
        hit, k = np.unique(needer_sorted[idx], return_counts=True)
        pending[hit] -= k
        frontier = hit[pending[hit] == 0]
        L += 1
    if np.any(level < 0):
        raise _OutOfScope  # a cycle between blocks cannot happen; be safe
    return level


def _cancelled(S: sps.csr_matrix, scale: sps.csr_matrix) -> sps.csr_matrix:
    """``S`` with the sums that cancel to round-off of their terms' size made zero."""
    S = S.tocoo()
    if S.nnz:
        size = np.asarray(scale.tocsr()[S.row, S.col]).ravel()
        S.data[np.abs(S.data) <= _CANCEL * size] = 0.0
    S = S.tocsr()
    S.eliminate_zeros()
    return S


def _block_inverse(r: np.ndarray, c: np.ndarray, v: np.ndarray, n: int) -> sps.csr_matrix:
    """The inverse of a level's block-diagonal part (entries ``(r, c, v)``, local
    numbering: equation r determines variable c = r's position): a division per
    singleton, a dense inverse per algebraic loop (:func:`_matrices.block_inverse`); a
    singular or ill-conditioned loop is out of scope (the general path names it)."""
    M = sps.csr_matrix((v, (r, c)), shape=(n, n))
    try:
        inv = mx.block_inverse(M, max_block=max(n, 1), cond_limit=1e12)
    except ModelError:
        raise _OutOfScope from None
    if inv is None:
        raise _OutOfScope
    # the inverse maps equation residuals (columns) to variables (rows) in the same
    # local numbering
    return sps.csr_matrix(inv)
