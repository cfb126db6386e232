r"""Assembly of a component network into one PHS (or DescriptorPHS).

Stack the components side by side (:func:`porthamiltonian.parallel` in effect):

.. math::
    \begin{bmatrix}\dot x\\ -y\end{bmatrix} = T\begin{bmatrix} z\\ u\end{bmatrix},\qquad
    T = \mathcal J - \mathcal R = \begin{bmatrix} J - R & G - P\\ -(G+P)^\top & -(M+S)\end{bmatrix},

block diagonal, with :math:`z = \nabla H`.  The inputs split into those of connected
ports, :math:`w`, and the rest, :math:`u_e` (exposed ports and external inputs);
:math:`a = (z, u_e)`.  The connections form a Dirac structure on the connected ports
(junctions, see :mod:`.network`), written as :math:`A w + B_c y_w = 0` with one
equation per scalar port.  With :math:`y_w = -(T_{wa} a + T_{ww} w)`:

.. math::  L\,w = B_c T_{wa}\, a,\qquad L = A - B_c T_{ww}.

Where :math:`L` is invertible, :math:`w = L^{-1} B_c T_{wa} a` and the network is

.. math::  T' = T_{aa} + T_{aw} L^{-1} B_c T_{wa},

whose skew part is :math:`\mathcal J'` and whose negated symmetric part is
:math:`\mathcal R' \succeq 0` (the connection is power conserving, van der Schaft &
Jeltsema 2014, §4.1; this is the formula of :func:`porthamiltonian.feedback` with
the general junction in place of :math:`u_1 = -y_2, u_2 = y_1`).

:math:`L` is block diagonal up to permutation: a block is a set of junctions linked
through the feed-through of components (transformers, gyrators, sources).  Blocks
are found with a sparse connected-components search and inverted in batches, so a
chain of :math:`N` components assembles in :math:`O(N)`.

A singular block means the connection creates constraints (Duindam et al. 2009,
§2.5; van der Schaft & Jeltsema 2014, §6.1): with :math:`U_0` and :math:`V_0` its
left and right null spaces, :math:`w = w_p + V_0\lambda` and
:math:`U_0^\top B_c T_{wz} z = 0`.  When these constraints involve only the states
(dependent storages: capacitors in parallel, inductors in series, inertias joined by
a gear) the result is the descriptor system
:math:`\dot x = (J - R) z + B\lambda + (G - P) u_e`, :math:`0 = B^\top z` with
:math:`B = T_{xw} V_0`; the explicit part is projected with
:math:`\Pi = I - B(B^\top B)^{-1}B^\top` (exact on the constraint set, where it
keeps :math:`\mathcal R' \succeq 0`).  Constraints on the inputs are
over-determined connections and raise :class:`~porthamiltonian.ModelError`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp
from scipy.sparse.csgraph import connected_components, maximum_bipartite_matching

from ..descriptor import DescriptorPHS
from ..errors import ModelError, NoExplicitFormError
from ..expr import state_symbol
from ..phs import PHS
from ..quantities import Quantities, Quantity
from .component import Component, Law, law_quantities
from .ports import Port, port_quantities

SPARSE_LIMIT = 400  # total size n + m above which the numeric path uses sparse matrices


@dataclass
class Node:
    """A junction: ``"0"`` (common effort, flows into the components sum to zero) or
    ``"1"`` (common flow in the orientation of each port, efforts sum to zero)."""

    kind: str
    ports: list[tuple[str, str, Port]]  # (reference "comp.port", component name, port)
    label: str = ""


@dataclass
class _Stack:
    """The components side by side."""

    states: list[str] = field(default_factory=list)
    inputs: list[str] = field(default_factory=list)  # global "comp.input"
    outputs: list[str] = field(default_factory=list)  # the conjugate of each input, global
    annotations: list[Quantities] = field(default_factory=list)  # per component
    rows: list[np.ndarray] = field(default_factory=list)
    cols: list[np.ndarray] = field(default_factory=list)
    vals: list[Any] = field(default_factory=list)
    q_blocks: list[Any] = field(default_factory=list)
    hamiltonians: list[Any] = field(default_factory=list)
    parameters: dict[str, Any] = field(default_factory=dict)
    modulating: dict[sp.Symbol, int] = field(default_factory=dict)  # symbol -> input index
    effort_in: dict[int, bool] = field(default_factory=dict)  # port input -> receives e
    offsets: list[tuple[int, int, int, int]] = field(default_factory=list)  # nnz, n, offsets
    port_inputs: dict[str, list[int]] = field(default_factory=dict)  # "comp.port" -> inputs


def assemble(items: list[tuple[str, Component]], nodes: list[Node],
             exposed: dict[str, str], *, symbolic: bool, shared: dict[str, Any],
             name: str) -> PHS | DescriptorPHS:
    """The assembled system (see the module docstring); descriptor if constrained."""
    st = _stack(items, symbolic, shared)
    n, m = len(st.states), len(st.inputs)
    A_rows, v_order, labels = _junction_equations(nodes, st)
    e_inputs, e_names, e_outputs, e_ports = _free_inputs(items, st, exposed, set(v_order))
    kind = "symbolic" if symbolic else ("sparse" if n + m > SPARSE_LIMIT else "dense")
    T = _T_matrix(st, n, m, kind)
    a = list(range(n)) + [n + i for i in e_inputs]
    w = [n + i for i in v_order]
    ops = _SYMBOLIC if symbolic else _NUMERIC
    A, Bc = ops.equations(A_rows, len(w))
    Tww, Twa = ops.sub(T, w, w), ops.sub(T, w, a)
    L = A - ops.mul(Bc, Tww)
    rhs = ops.mul(Bc, Twa)
    X, V0, cons = _solve(L, rhs, ops)
    Tp = ops.sub(T, a, a) + ops.mul(ops.sub(T, a, w), X)
    B = None
    if V0 is not None:
        B = _multipliers(T, a, w, V0, cons, n, ops, _w_labels(v_order, st), labels)
        Tp = ops.project(Tp, B, n)
    rep = {}
    if symbolic:
        Tp = Tp.applyfunc(_tidy)
        if st.modulating:
            rep = _effort_values(T, X, st, v_order, a, w, n)
    quantities = Quantities.merge([*st.annotations, Quantities(ports=e_ports)])
    if quantities is not None:  # ports joined inside the network are no system ports
        quantities = quantities.restrict(st.states, [*e_names, *e_outputs])
    return _build(Tp, B, st, n, (e_names, e_outputs), kind, name, rep, quantities)


# ---------------------------------------------------------------------- stacking
def _stack(items: list[tuple[str, Component]], symbolic: bool,
           shared: dict[str, Any]) -> _Stack:
    st = _Stack()
    n_off = m_off = 0
    for cname, comp in items:
        prefix = cname + "."
        law, attached = comp.evaluate(prefix, symbolic, shared)
        st.parameters.update(attached)
        nc, mc = len(law.states), len(law.inputs)
        Tloc = _local_T(law, nc, mc, symbolic)
        r, c = _nonzero(Tloc, symbolic)
        st.rows.append(r)
        st.cols.append(c)
        st.offsets.append((len(r), nc, n_off, m_off))
        st.vals.append([Tloc[i, j] for i, j in zip(r, c, strict=True)] if symbolic
                       else Tloc[r, c])
        st.states += [prefix + s for s in law.states]
        st.inputs += [prefix + u for u in law.inputs]
        outs = law.outputs if law.outputs is not None else law.inputs
        if len(outs) != mc:
            raise ModelError(f"component {cname!r} ({type(comp).__name__}): {len(outs)} "
                             f"output names for {mc} inputs")
        st.outputs += [prefix + y for y in outs]
        meaning = law_quantities(law, prefix, cname)
        if meaning is not None:
            st.annotations.append(meaning)
        local = {u: k for k, u in enumerate(law.inputs)}
        for p in comp.ports.values():
            st.port_inputs[prefix + p.name] = [m_off + local[u] for u in p.inputs]
            for u in p.inputs:
                st.effort_in[m_off + local[u]] = p.causality == "effort"
        for sym, u in law.modulating.items():
            st.modulating[sym] = m_off + local[u]
        if symbolic:
            st.hamiltonians.append(_hamiltonian(law, prefix))
        else:
            if law.Q is None and nc:
                raise ModelError(
                    f"component {cname!r} ({type(comp).__name__}) has a non-quadratic "
                    "Hamiltonian; assemble the network with symbolic=True")
            if nc:
                st.q_blocks.append(np.asarray(law.Q, dtype=float).reshape(nc, nc))
        n_off += nc
        m_off += mc
    return st


def _local_T(law: Law, n: int, m: int, symbolic: bool) -> Any:
    shapes = {"J": (n, n), "R": (n, n), "G": (n, m), "P": (n, m), "M": (m, m), "S": (m, m)}
    if symbolic:
        mats = {k: sp.zeros(*s) if getattr(law, k) is None else sp.Matrix(getattr(law, k))
                for k, s in shapes.items()}
        for k, s in shapes.items():
            if mats[k].shape != s:
                mats[k] = mats[k].reshape(*s)
        top = mats["J"] - mats["R"]
        return sp.Matrix(sp.BlockMatrix([[top, mats["G"] - mats["P"]],
                                         [-(mats["G"] + mats["P"]).T,
                                          -(mats["M"] + mats["S"])]]).as_explicit()) \
            if n and m else (top if not m else -(mats["M"] + mats["S"]))
    mats = {k: np.zeros(s) if getattr(law, k) is None
            else np.asarray(getattr(law, k), dtype=float).reshape(s) for k, s in shapes.items()}
    out = np.empty((n + m, n + m))
    out[:n, :n] = mats["J"] - mats["R"]
    out[:n, n:] = mats["G"] - mats["P"]
    out[n:, :n] = -(mats["G"] + mats["P"]).T
    out[n:, n:] = -(mats["M"] + mats["S"])
    return out


def _nonzero(T: Any, symbolic: bool) -> tuple[np.ndarray, np.ndarray]:
    if symbolic:
        idx = [(i, j) for i in range(T.rows) for j in range(T.cols) if T[i, j] != 0]
        if not idx:
            return np.zeros(0, int), np.zeros(0, int)
        r, c = zip(*idx, strict=True)
        return np.array(r), np.array(c)
    return np.nonzero(T)


def _hamiltonian(law: Law, prefix: str) -> sp.Expr:
    if law.hamiltonian is not None:
        return sp.sympify(law.hamiltonian)
    if not law.states:
        return sp.S.Zero
    xs = sp.Matrix([state_symbol(prefix + s) for s in law.states])
    return sp.expand((xs.T * sp.Matrix(law.Q) * xs)[0, 0] / 2)


def _T_matrix(st: _Stack, n: int, m: int, kind: str) -> Any:
    N = n + m
    # local index k of a component: state k < n_c → n_off + k; input → n + m_off + k − n_c
    off = np.array(st.offsets, dtype=int).reshape(-1, 4)
    nnz, nc, noff, moff = (np.repeat(off[:, j], off[:, 0]) for j in range(4))
    del nnz

    def glob(local: list[np.ndarray]) -> np.ndarray:
        k = np.concatenate(local) if local else np.zeros(0, int)
        return np.where(k < nc, k + noff, n + moff + k - nc)

    rows, cols = glob(st.rows), glob(st.cols)
    if kind == "symbolic":
        T = sp.zeros(N, N)
        vals = [v for vs in st.vals for v in vs]
        for i, j, v in zip(rows, cols, vals, strict=True):
            T[int(i), int(j)] = v
        return T
    vals = np.concatenate(st.vals) if st.vals else np.zeros(0)
    T = sps.csr_array((vals, (rows, cols)), shape=(N, N))
    return T if kind == "sparse" else T.toarray()


# ---------------------------------------------------------------------- junctions
def _junction_equations(nodes: list[Node], st: _Stack) -> tuple[
        list[list[tuple[int, str, float]]], list[int], list[tuple[str, ...]]]:
    """Rows ``[(port input index, "w" | "y", coefficient), ...]`` of ``A w + B_c y = 0``.

    0-junction: ``e_i − e_{i+1} = 0``, ``Σ f_in,i = 0``;
    1-junction: ``o_i f_in,i − o_{i+1} f_in,{i+1} = 0``, ``Σ o_i e_i = 0``
    (``o = ±1`` the orientation: ``o f_in`` is the flow in the port's own direction).
    An effort-in port has ``e = w``, ``f_in = y``; a flow-in port the converse.
    """
    rows: list[list[tuple[int, str, float]]] = []
    order: list[int] = []
    where: dict[int, str] = {}
    labels: list[tuple[str, ...]] = []  # the ports of the node of each row
    for node in nodes:
        dim = node.ports[0][2].dim
        for k in range(dim):
            scal = []
            for ref, _, port in node.ports:
                g = st.port_inputs[ref][k]
                if g in where:
                    raise ModelError(
                        f"port {ref!r} is connected twice ({where[g]} and {node.label}); join "
                        "several ports at one node with net.junction(...)")
                where[g] = node.label
                order.append(g)
                e_var, f_var = ("w", "y") if port.causality == "effort" else ("y", "w")
                scal.append((g, e_var, f_var, float(port.sign)))
            q = len(scal)
            if node.kind == "0":
                for i in range(q - 1):
                    rows.append([(scal[i][0], scal[i][1], 1.0),
                                 (scal[i + 1][0], scal[i + 1][1], -1.0)])
                rows.append([(g, f, 1.0) for g, _, f, _ in scal])
            else:
                for i in range(q - 1):
                    rows.append([(scal[i][0], scal[i][2], scal[i][3]),
                                 (scal[i + 1][0], scal[i + 1][2], -scal[i + 1][3])])
                rows.append([(g, e, o) for g, e, _, o in scal])
            labels += [tuple(ref for ref, _, _ in node.ports)] * q
    return rows, order, labels


def _w_labels(v_order: list[int], st: _Stack) -> list[str]:
    owner = {g: ref for ref, gs in st.port_inputs.items() for g in gs}
    return [owner[g] for g in v_order]


def _free_inputs(items: list[tuple[str, Component]], st: _Stack, exposed: dict[str, str],
                 connected: set[int]
                 ) -> tuple[list[int], list[str], list[str], dict[str, Quantity]]:
    """System inputs: exposed ports (in order of exposure), then external inputs; the
    names of their outputs; the quantities of the exposed ports' inputs and outputs.

    An exposed port ``shaft`` (rotational, receiving the torque) has the input ``shaft``
    and the output ``shaft.w`` (its conjugate variable, as a bond graph's source,
    :func:`porthamiltonian.bondgraph.domains.source_output`)."""
    from ..bondgraph.domains import source_output

    comps = dict(items)
    e_inputs: list[int] = []
    names: list[str] = []
    outputs: list[str] = []
    ports: dict[str, Quantity] = {}
    for ref, new in exposed.items():
        gs = st.port_inputs[ref]
        if connected & set(gs):
            raise ModelError(f"port {ref!r} is both connected and exposed; expose an "
                             "unconnected port (or a junction's spare port)")
        e_inputs += gs
        mine = [new] if len(gs) == 1 else [f"{new}[{k}]" for k in range(len(gs))]
        cname, _, pname = ref.partition(".")
        uq, yq = port_quantities(comps[cname].ports[pname])
        names += mine
        for u in mine:
            outputs.append(source_output(u, yq))
            ports[u], ports[outputs[-1]] = uq, yq
    in_ports = {g for gs in st.port_inputs.values() for g in gs}
    for ref, gs in st.port_inputs.items():
        if not (set(gs) & connected) and ref not in exposed:
            raise ModelError(
                f"port {ref!r} is not connected; connect it (net.connect({ref!r}, ...)) or "
                f"expose it as a port of the network (net.expose({ref!r}))")
    for g, u in enumerate(st.inputs):
        if g not in in_ports:
            e_inputs.append(g)
            names.append(u)
            outputs.append(st.outputs[g])
    return e_inputs, names, outputs, ports


# ---------------------------------------------------------------------- solving
def _triplets(rows: list[list[tuple[int, str, float]]]) -> dict[str, tuple[list, list, list]]:
    """``(row, column, coefficient)`` lists of ``A`` (``"w"``) and ``B_c`` (``"y"``); the
    column of a port input is its first appearance (the order of ``v_order``)."""
    pos: dict[int, int] = {}
    for row in rows:
        for g, _, _ in row:
            pos.setdefault(g, len(pos))
    data: dict[str, tuple[list, list, list]] = {"w": ([], [], []), "y": ([], [], [])}
    for r, row in enumerate(rows):
        for g, var, coef in row:
            d = data[var]
            d[0].append(r)
            d[1].append(pos[g])
            d[2].append(coef)
    return data


class _Numeric:
    def equations(self, rows: list[list[tuple[int, str, float]]], c: int) -> tuple[Any, Any]:
        data = _triplets(rows)
        A, B = (sps.csr_array((d[2], (d[0], d[1])), shape=(c, c)) for d in data.values())
        return A, B

    def sub(self, T: Any, r: list[int], c: list[int]) -> Any:
        if sps.issparse(T):
            return sps.csr_array(T[r][:, c]) if r and c else sps.csr_array((len(r), len(c)))
        return T[np.ix_(r, c)]

    def mul(self, A: Any, B: Any) -> Any:
        return A @ B

    def project(self, Tp: Any, B: np.ndarray, n: int) -> Any:
        Td = Tp.toarray() if sps.issparse(Tp) else np.asarray(Tp)
        Pi = np.eye(Td.shape[0])
        Pi[:n, :n] -= B @ np.linalg.solve(B.T @ B, B.T)
        out = Pi @ Td @ Pi
        return sps.csr_array(out) if sps.issparse(Tp) else out


class _Symbolic:
    def equations(self, rows: list[list[tuple[int, str, float]]], c: int) -> tuple[Any, Any]:
        mats = []
        for r, k, v in _triplets(rows).values():
            M = sp.zeros(c, c)
            for i, j, coef in zip(r, k, v, strict=True):
                M[i, j] += sp.Integer(int(coef))
            mats.append(M)
        return mats[0], mats[1]

    def sub(self, T: Any, r: list[int], c: list[int]) -> Any:
        return T.extract(r, c) if r and c else sp.zeros(len(r), len(c))

    def mul(self, A: Any, B: Any) -> Any:
        if A.cols == 0 or B.rows == 0:
            return sp.zeros(A.rows, B.cols)
        return A * B

    def project(self, Tp: Any, B: Any, n: int) -> Any:
        Pi = sp.eye(Tp.rows)
        Pi[:n, :n] = sp.eye(n) - B * (B.T * B).inv() * B.T
        return (Pi * Tp * Pi).applyfunc(_tidy)


_NUMERIC, _SYMBOLIC = _Numeric(), _Symbolic()


@dataclass
class _Constraint:
    U0rhs: Any  # rows: consistency conditions on a
    V0: Any  # right null space (block columns)
    cols: list[int]
    rows: list[int]
    particular: Any = None  # w[cols] = particular @ a (numeric path)


def _blocks(L: Any, symbolic: bool) -> tuple[int, np.ndarray, np.ndarray]:
    """Connected components of the bipartite graph rows–columns of ``L``."""
    c = L.shape[0]
    if symbolic:
        r, k = _nonzero(L, True)
        pattern = sps.csr_array((np.ones(len(r)), (r, k)), shape=(c, c))
    else:
        pattern = sps.csr_array(L)
        pattern.eliminate_zeros()
    big = sps.block_array([[None, pattern], [pattern.T, None]], format="csr") if c else \
        sps.csr_array((0, 0))
    count, lab = connected_components(big, directed=False)
    return count, lab[:c], lab[c:]


def _solve(L: Any, rhs: Any, ops: Any) -> tuple[Any, Any, list[_Constraint]]:
    """``X`` with ``w = X a`` on the regular blocks and particular solutions on the
    singular ones; the singular blocks' null spaces and consistency conditions."""
    symbolic = ops is _SYMBOLIC
    c = L.shape[0]
    na = rhs.shape[1]
    if c == 0:
        return (sp.zeros(0, na) if symbolic else np.zeros((0, na))), None, []
    if not symbolic:
        X, cons = _solve_numeric(L, rhs)
        return X, (_collect_null(cons, c, False) if cons else None), cons
    count, row_lab, col_lab = _blocks(L, symbolic)
    rows_of = [[] for _ in range(count)]
    cols_of = [[] for _ in range(count)]
    for i, b in enumerate(row_lab):
        rows_of[b].append(i)
    for j, b in enumerate(col_lab):
        cols_of[b].append(j)
    cons: list[_Constraint] = []
    X = sp.zeros(c, na)
    for b in range(count):
        r, k = rows_of[b], cols_of[b]
        Lb = L.extract(r, k) if r and k else sp.zeros(len(r), len(k))
        Rb = rhs.extract(r, list(range(na))) if r else sp.zeros(0, na)
        if len(r) == len(k) and r and sp.simplify(Lb.det()) != 0:
            Xb = (Lb.inv() * Rb).applyfunc(_tidy)
        else:
            Xb, con = _singular_symbolic(Lb, Rb, r, k)
            cons.append(con)
        for ii, j in enumerate(k):
            X[j, :] = Xb[ii, :]
    return X, (_collect_null(cons, c, True) if cons else None), cons


def _solve_numeric(L: Any, rhs: Any) -> tuple[Any, list[_Constraint]]:
    """Sparse solve of ``L X = rhs`` in ``O(nnz)`` for networks without long algebraic
    chains; blocks of ``L`` that are singular are returned as constraints.

    A maximum bipartite matching puts a structurally non-zero entry on the diagonal;
    the strongly connected components of the matched dependency graph (algebraic
    loops) form the block diagonal ``D``, inverted in batches; the rest ``N`` is
    acyclic between the blocks, so ``X = Σ_k (−D⁻¹N)^k D⁻¹ rhs`` terminates after as
    many terms as the longest chain of algebraic dependencies.
    """
    c = L.shape[0]
    Ls = sps.csr_array(L)
    Ls.eliminate_zeros()
    rhs = sps.csr_array(rhs)
    count, row_lab, col_lab = _blocks(Ls, False)
    singular = np.zeros(count, bool)
    match = maximum_bipartite_matching(Ls, perm_type="column") if c else np.zeros(0, int)
    singular[row_lab[match < 0]] = True
    matched = np.zeros(c, bool)
    matched[match[match >= 0]] = True
    singular[col_lab[~matched]] = True
    for _ in range(2):
        rows = np.flatnonzero(~singular[row_lab])
        X, bad_rows = _triangular_solve(Ls, rhs, rows, match)
        if bad_rows.size == 0:
            break
        singular[row_lab[bad_rows]] = True
    cons = []
    for b in np.flatnonzero(singular):
        cons.append(_singular_numeric(Ls, rhs, list(np.flatnonzero(row_lab == b)),
                                      list(np.flatnonzero(col_lab == b))))
    if cons:
        X = X.tolil()
        for con in cons:
            if con.cols:
                X[con.cols, :] = con.particular
    return sps.csr_array(X), cons


def _triangular_solve(Ls: Any, rhs: Any, rows: np.ndarray, match: np.ndarray
                      ) -> tuple[Any, np.ndarray]:
    c, na = Ls.shape[0], rhs.shape[1]
    if rows.size == 0:
        return sps.csr_array((c, na)), np.zeros(0, int)
    cols = match[rows]
    Lp = sps.csr_array(Ls[rows][:, cols])
    rp = sps.csr_array(rhs[rows])
    _, scc = connected_components(Lp, directed=True, connection="strong")
    coo = Lp.tocoo()
    same = scc[coo.row] == scc[coo.col]
    k = rows.size
    D = sps.csr_array((coo.data[same], (coo.row[same], coo.col[same])), shape=(k, k))
    Nm = sps.csr_array((coo.data[~same], (coo.row[~same], coo.col[~same])), shape=(k, k))
    Dinv, bad = _batched_inverse(D, scc)
    if bad.size:
        return sps.csr_array((c, na)), rows[np.isin(scc, bad)]
    term = Dinv @ rp
    Y = term
    step = Dinv @ Nm
    for _ in range(k + 1):
        if step.nnz == 0:
            break
        term = -(step @ term)
        term.eliminate_zeros()
        if term.nnz == 0:
            break
        Y = Y + term
    P = sps.csr_array((np.ones(k), (cols, np.arange(k))), shape=(c, k))
    return sps.csr_array(P @ Y), np.zeros(0, int)


def _batched_inverse(D: Any, label: np.ndarray) -> tuple[Any, np.ndarray]:
    """Inverse of a block-diagonal ``D`` (blocks: equal ``label`` of rows and columns),
    blocks of one size at a time; the labels of numerically singular blocks."""
    k = D.shape[0]
    order = np.argsort(label, kind="stable")
    lab_sorted = label[order]
    starts = np.flatnonzero(np.r_[True, lab_sorted[1:] != lab_sorted[:-1]])
    sizes_per = np.diff(np.r_[starts, k])
    nlab = int(label.max()) + 1 if k else 0
    size_of = np.zeros(nlab, int)
    size_of[lab_sorted[starts]] = sizes_per
    pos = np.zeros(k, int)
    pos[order] = np.arange(k) - np.repeat(starts, sizes_per)
    coo = D.tocoo()
    out_r, out_c, out_v, bad = [], [], [], []
    for s in np.unique(sizes_per):
        labs = lab_sorted[starts[sizes_per == s]]
        slot = np.full(nlab, -1)
        slot[labs] = np.arange(labs.size)
        sel = slot[label[coo.row]] >= 0
        stack = np.zeros((labs.size, s, s))
        stack[slot[label[coo.row[sel]]], pos[coo.row[sel]], pos[coo.col[sel]]] = coo.data[sel]
        sv = np.linalg.svd(stack, compute_uv=False)
        regular = sv[:, -1] > 1e-11 * np.maximum(sv[:, 0], 1e-300)
        bad.extend(labs[~regular].tolist())
        if not np.any(regular):
            continue
        inv = np.linalg.inv(stack[regular])
        members = np.zeros((labs.size, s), int)
        idx = np.flatnonzero(slot[label] >= 0)
        members[slot[label[idx]], pos[idx]] = idx
        M = members[regular]
        out_r.append(np.repeat(M[:, :, None], s, axis=2).ravel())
        out_c.append(np.repeat(M[:, None, :], s, axis=1).ravel())
        out_v.append(inv.ravel())
    def cat(xs: list[np.ndarray], dt: type) -> np.ndarray:
        return np.concatenate(xs) if xs else np.zeros(0, dt)

    Dinv = sps.csr_array((cat(out_v, float), (cat(out_r, int), cat(out_c, int))),
                         shape=(k, k))
    return Dinv, np.array(bad, int)


def _singular_numeric(Ls: Any, rhs: Any, r: list[int], k: list[int]) -> _Constraint:
    Lb = Ls[r][:, k].toarray() if r and k else np.zeros((len(r), len(k)))
    Rb = (rhs[r].toarray() if sps.issparse(rhs) else np.asarray(rhs)[r]) if r else \
        np.zeros((0, rhs.shape[1]))
    U, s, Vt = np.linalg.svd(Lb) if Lb.size else (np.eye(len(r)), np.zeros(0), np.eye(len(k)))
    tol = 1e-11 * (s[0] if s.size else 1.0)
    rank = int(np.sum(s > tol))
    pinv = np.linalg.pinv(Lb, rcond=1e-11) if Lb.size else np.zeros((len(k), len(r)))
    return _Constraint(U[:, rank:].T @ Rb, Vt[rank:].T, k, r, pinv @ Rb)


def _singular_symbolic(Lb: Any, Rb: Any, r: list[int], k: list[int]) -> tuple[Any, _Constraint]:
    if Lb.rows and Lb.cols:
        _, pcols = Lb.rref(simplify=True)
        _, prows = Lb.T.rref(simplify=True)
    else:
        pcols, prows = (), ()
    Xb = sp.zeros(len(k), Rb.cols)
    if pcols:
        sub = Lb.extract(list(prows), list(pcols))
        Xs = (sub.inv() * Rb.extract(list(prows), list(range(Rb.cols)))).applyfunc(_tidy)
        for ii, j in enumerate(pcols):
            Xb[j, :] = Xs[ii, :]
    V0 = sp.Matrix.hstack(*Lb.nullspace(simplify=True)) if len(pcols) < len(k) else \
        sp.zeros(len(k), 0)
    U0 = sp.Matrix.hstack(*Lb.T.nullspace(simplify=True)) if len(prows) < len(r) else \
        sp.zeros(len(r), 0)
    return Xb, _Constraint((U0.T * Rb).applyfunc(_tidy), V0, k, r)


def _collect_null(cons: list[_Constraint], c: int, symbolic: bool) -> Any:
    d = sum(con.V0.shape[1] for con in cons)
    V0 = sp.zeros(c, d) if symbolic else np.zeros((c, d))
    col = 0
    for con in cons:
        for j in range(con.V0.shape[1]):
            for ii, row in enumerate(con.cols):
                V0[row, col] = con.V0[ii, j]
            col += 1
    return V0


def _multipliers(T: Any, a: list[int], w: list[int], V0: Any, cons: list[_Constraint],
                 n: int, ops: Any, wlabels: list[str],
                 row_ports: list[tuple[str, ...]]) -> Any:
    """``B = T_xw V0`` after checking that the constraints concern only the states
    and are exactly ``Bᵀ z = 0`` (as power conservation says they must be)."""
    symbolic = ops is _SYMBOLIC
    Taw = ops.sub(T, a, w)
    BV = ops.mul(Taw, V0) if symbolic else np.asarray(Taw @ V0)
    Bx = BV[:n, :]
    conds = []
    for con in cons:
        cond = con.U0rhs
        if cond.shape[0] == 0:
            continue
        names = sorted({p for i in con.rows for p in row_ports[i]})
        if _nonzero_any(cond[:, n:], symbolic):
            raise ModelError(
                f"over-determined connection: the ports {' and '.join(names)} impose the "
                "same quantity (two efforts on one node, or two flows through one loop) from "
                "sources, or a source fixes a storage; remove one of them or put a resistor "
                "between them")
        conds.append(cond[:, :n])
    d = V0.shape[1]
    Cz = (sp.Matrix.vstack(*conds) if symbolic else np.vstack(conds)) if conds else None
    ports = sorted({wlabels[j] for con in cons for j in con.cols})
    if Cz is None or Cz.shape[0] != d or _rank(_stack_rows(Cz, Bx.T, symbolic), symbolic) != d:
        raise NoExplicitFormError(
            f"the connection of {', '.join(ports)} leaves port variables undetermined "
            "without a matching constraint on the states; check the causality of the "
            "components there")
    if _nonzero_any(BV[n:, :], symbolic):
        raise NoExplicitFormError(
            f"a constraint force at {', '.join(ports)} enters the outputs of the network; "
            "expose other ports")
    return Bx


def _stack_rows(A: Any, B: Any, symbolic: bool) -> Any:
    return sp.Matrix.vstack(A, B) if symbolic else np.vstack([A, B])


def _rank(A: Any, symbolic: bool) -> int:
    if symbolic:
        return A.rank(simplify=True)
    return int(np.linalg.matrix_rank(A, tol=1e-9 * max(1.0, float(np.max(np.abs(A))))))


def _tidy(v: sp.Expr) -> sp.Expr:
    """Cancel rational entries; leave transcendental ones (costly, and no gain) alone."""
    if v.is_number or v.has(sp.exp, sp.log, sp.Piecewise, sp.Function):
        return sp.sympify(v)
    return sp.cancel(v)


def _nonzero_any(A: Any, symbolic: bool) -> bool:
    if symbolic:
        return any(sp.simplify(v) != 0 for v in A)
    A = np.asarray(A, dtype=float)
    return bool(A.size and np.max(np.abs(A)) > 1e-9 * max(1.0, np.max(np.abs(A))))


# ---------------------------------------------------------------------- modulation
def _effort_values(T: Any, X: Any, st: _Stack, v_order: list[int], a: list[int],
                   w: list[int], n: int) -> dict[sp.Symbol, sp.Expr]:
    """The effort placeholders of effort-modulated components as functions of the
    state (``∇H``); applied to the matrices after the skew/symmetric split, so that
    the exact cancellations of the split are not obscured by the substitution."""
    H = sp.Add(*st.hamiltonians)
    xs = [state_symbol(s) for s in st.states]
    grad = [sp.diff(H, x) for x in xs]
    wpos = {g: k for k, g in enumerate(v_order)}
    placeholders = set(st.modulating)
    rep = {}
    for sym, g in st.modulating.items():
        if g not in wpos:
            raise ModelError(f"{sym.name[:-2]}: an effort-modulated port must be connected "
                             "inside the network (its effort is taken from there)")
        k = wpos[g]
        if st.effort_in[g]:
            coeff = X[k, :]
        else:
            coeff = -(T.extract([n + g], a) + T.extract([n + g], w) * X)
        coeff = coeff.applyfunc(_tidy)
        if any(v != 0 for v in coeff[n:]) or coeff.free_symbols & placeholders:
            raise ModelError(f"the effort at {sym.name[:-2]} depends on inputs or on other "
                             "modulated efforts; it must be a function of the state")
        rep[sym] = sum((coeff[i] * grad[i] for i in range(n) if coeff[i] != 0), sp.S.Zero)
    return rep


# ---------------------------------------------------------------------- result
def _build(Tp: Any, B: Any, st: _Stack, n: int, io: tuple[list[str], list[str]], kind: str,
           name: str, rep: dict[sp.Symbol, sp.Expr],
           quantities: Quantities | None = None) -> PHS | DescriptorPHS:
    N = Tp.shape[0]
    xs, us = list(range(n)), list(range(n, N))
    Jf = (Tp - Tp.T) / 2
    Rf = -(Tp + Tp.T) / 2
    ops = _SYMBOLIC if kind == "symbolic" else _NUMERIC
    if kind == "sparse":
        Jf, Rf = sps.csr_array(Jf), sps.csr_array(Rf)
    elif kind == "symbolic":  # exact zeros of the split (placeholders still symbols)
        Jf, Rf = Jf.applyfunc(_tidy), Rf.applyfunc(_tidy)
    mats = {"J": ops.sub(Jf, xs, xs), "G": ops.sub(Jf, xs, us), "M": -ops.sub(Jf, us, us),
            "R": ops.sub(Rf, xs, xs), "P": ops.sub(Rf, xs, us), "S": ops.sub(Rf, us, us)}
    if kind == "dense":
        mats = {k: _chop(v) for k, v in mats.items()}
    if rep:
        mats = {k: v.xreplace(rep) for k, v in mats.items()}
    names = {"states": st.states, "inputs": io[0], "outputs": io[1], "name": name,
             "quantities": quantities}
    if kind == "symbolic":
        H = sp.Add(*st.hamiltonians)
        if B is not None:
            return DescriptorPHS(**mats, B=B, hamiltonian=H, parameters=st.parameters,
                                 multipliers=[f"lambda{i}" for i in range(B.shape[1])],
                                 **names)
        return PHS(**mats, hamiltonian=H, parameters=st.parameters, **names)
    import scipy.linalg as sla

    if kind == "sparse":
        Q = sps.block_diag(st.q_blocks, format="csr") if st.q_blocks else sps.csr_array((0, 0))
        Q = sps.csr_array(Q)
    else:
        Q = sla.block_diag(*st.q_blocks) if st.q_blocks else np.zeros((0, 0))
    if B is not None:
        return DescriptorPHS(**{k: _dense(v) for k, v in mats.items()}, B=np.asarray(B),
                             Q=_dense(Q), **names)
    return PHS(**mats, Q=Q, **names)


def _dense(A: Any) -> np.ndarray:
    return A.toarray() if sps.issparse(A) else np.asarray(A, dtype=float)


def _chop(A: np.ndarray, rtol: float = 1e-13) -> np.ndarray:
    A = np.array(A, dtype=float)
    scale = max(1.0, float(np.max(np.abs(A), initial=0.0)))
    A[np.abs(A) < rtol * scale] = 0.0
    return A
