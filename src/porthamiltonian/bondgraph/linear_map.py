r"""The solved element equations of a bond graph and their port-Hamiltonian split.

:func:`solve` eliminates the bond variables (:mod:`.equations`, :mod:`.elimination`)
and returns the :class:`LinearMap` ``[ẋ; y] = [K A_u; C_z D] [z; u]``; :func:`split`
gives its ``J, R, G, P, M, S`` and :func:`explicit_phs` the model.  Shared by the
explicit path (:mod:`.generate`) and the descriptor and merged forms (:mod:`.merge`),
which sit above this module.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp

from ..naming import expand
from ..phs import PHS
from .domains import bond_domains, graph_quantities, output_names
from .elements import HamiltonianData
from .elimination import combine, solve_sorted
from .equations import element_equations
from .graph import BondGraph

__all__ = ["SPARSE_ABOVE", "LinearMap", "solve", "split", "explicit_phs", "port_kinds"]

#: Above this many states the numeric path returns SciPy sparse matrices.
SPARSE_ABOVE = 100


@dataclass
class LinearMap:
    """The solved element equations: rows ``[ẋ_a; z_d; y]``, columns ``[w; u]``.

    ``w`` holds, in state order, ``z`` of the integral storages and the rates
    ``λ`` of the dependent ones (``dependent``).  ``Z`` is a SymPy matrix (exact)
    or a SciPy CSR matrix (numeric).
    """

    graph: BondGraph
    states: list[str]
    dependent: list[str]
    inputs: list[str]
    Z: Any
    exact: bool

    @property
    def integral(self) -> list[str]:
        dep = set(self.dependent)
        return [s for s in self.states if s not in dep]

    def block(self, rows: str, cols: str) -> Any:
        """A block by name: rows in ``a`` (ẋ_a), ``d`` (z_d), ``y``; cols ``a``, ``d``, ``u``."""
        n = len(self.states)
        pos = {s: i for i, s in enumerate(self.states)}
        a = [pos[s] for s in self.integral]
        d = [pos[s] for s in self.dependent]
        na, nd = len(a), len(d)
        r = {"a": list(range(na)), "d": list(range(na, na + nd)),
             "y": list(range(na + nd, na + nd + len(self.inputs)))}[rows]
        c = {"a": a, "d": d, "u": list(range(n, n + len(self.inputs)))}[cols]
        if self.exact:
            return self.Z.extract(r, c) if r and c else sp.zeros(len(r), len(c))
        return self.Z[r, :][:, c] if r and c else sps.csr_matrix((len(r), len(c)))


def solve(bg: BondGraph, derivative: Iterable[str], exact: bool, coefficient: Any) -> LinearMap:
    """Solve the element equations with the storages ``derivative`` in derivative causality."""
    dependent_elements = set(derivative)
    eq = element_equations(bg, dependent_elements, coefficient)
    value = solve_sorted(eq.rows, eq.rhs, eq.n_vars, exact)
    states = bg.state_names()
    dependent = [s for el in bg.storages() if el.name in dependent_elements for s in el.states]
    inputs = [p for el in bg.sources() for p in expand(el.name, el.dim)]
    dep = set(dependent)
    targets = ([eq.rates[s] for s in states if s not in dep]
               + [eq.efforts[s] for s in dependent] + [eq.outputs[p] for p in inputs])
    combos = [combine(t, value) for t in targets]
    shape = (len(targets), len(eq.knowns))
    if exact:
        Z = sp.zeros(*shape)
        for i, c in enumerate(combos):
            for k, v in c.items():
                Z[i, k] = sp.cancel(v)
    else:
        rows = [i for i, c in enumerate(combos) for _ in c]
        cols = [k for c in combos for k in c]
        vals = [v for c in combos for v in c.values()]
        Z = sps.csr_matrix((vals, (rows, cols)), shape=shape)
        Z.eliminate_zeros()  # cancellations were made exact zeros (elimination._add)
    return LinearMap(bg, states, dependent, inputs, Z, exact)


def split(K: Any, Au: Any, Cz: Any, D: Any) -> dict[str, Any]:
    """The port-Hamiltonian split of ``ẋ = K z + A_u u``, ``y = C_z z + D u``."""
    if isinstance(K, sp.MatrixBase):
        half = sp.Rational(1, 2)
        mats = {"J": half * (K - K.T), "R": -half * (K + K.T),
                "G": half * (Au + Cz.T), "P": half * (Cz.T - Au),
                "M": half * (D - D.T), "S": half * (D + D.T)}
        return {k: A.applyfunc(sp.cancel) for k, A in mats.items()}
    K, Au, Cz, D = (sps.csr_matrix(A) for A in (K, Au, Cz, D))
    return {"J": _half(K, -K.T), "R": _half(-K, -K.T), "G": _half(Au, Cz.T),
            "P": _half(Cz.T, -Au), "M": _half(D, -D.T), "S": _half(D, D.T)}


def _half(A: Any, B: Any) -> Any:
    """``(A + B)/2`` with sums that cancel to round-off set to exactly zero."""
    S = (A + B).tocoo()
    if S.nnz:
        T = (abs(A) + abs(B)).tocsr()
        scale = np.asarray(T[S.row, S.col]).ravel()
        S.data[np.abs(S.data) <= 1e-13 * scale] = 0.0
    S = S.tocsr()
    S.eliminate_zeros()
    return S / 2


def explicit_phs(bg: BondGraph, mats: dict[str, Any], H: HamiltonianData, states: list[str],
                 inputs: list[str]) -> PHS:
    """The PHS of the split matrices ``mats`` and the storages' energy ``H``: numeric
    (dense, or SciPy sparse above :data:`SPARSE_ABOVE` states) when ``H.Q`` is given,
    else symbolic with the graph's parameters.  Outputs are named after the sources'
    conjugate variables (``V.i``) and the model carries the graph's
    :class:`~porthamiltonian.quantities.Quantities` (:mod:`.domains`)."""
    doms = bond_domains(bg)
    names = {"states": states, "inputs": inputs, "outputs": output_names(bg, doms),
             "name": bg.name, "quantities": graph_quantities(bg, doms, states)}
    if H.Q is not None:
        if len(states) <= SPARSE_ABOVE:
            mats = {k: A.toarray() for k, A in mats.items()}
            Q = H.Q.toarray()
        else:
            mats = {k: A.tocsr() for k, A in mats.items()}
            Q = H.Q
        sys = PHS(**mats, Q=Q, **names)
    else:
        if not isinstance(mats["J"], sp.MatrixBase):  # numeric matrices, nonlinear storages
            mats = {k: sp.Matrix(A.toarray()) for k, A in mats.items()}
        sys = PHS(**mats, hamiltonian=H.expr, parameters=dict(bg.parameters), **names)
    sys.port_kinds = port_kinds(bg)  # type: ignore[attr-defined]
    return sys


def port_kinds(bg: BondGraph) -> dict[str, str]:
    """Which port variable each input is: an Se imposes an effort, an Sf a flow."""
    return {p: "effort" if el.kind == "Se" else "flow"
            for el in bg.sources() for p in expand(el.name, el.dim)}
