r"""Explicit (and descriptor) port-Hamiltonian models of a bond graph.

Method
------
The element equations (:mod:`.equations`) are solved for every bond variable in
terms of the storages' co-energies :math:`z = \nabla H` and the source values
:math:`u` by sorted sparse elimination (:mod:`.elimination`).  Eliminating the
interior bond variables is the composition of the junctions' Dirac structures
(Pfeifer et al., *Automatica* 120, 2020, §4); the result is the linear map

.. math::
    \begin{bmatrix}\dot x\\ y\end{bmatrix} =
    \begin{bmatrix}K & A_u\\ C_z & D\end{bmatrix}
    \begin{bmatrix}z\\ u\end{bmatrix},

and power continuity of the junction structure together with :math:`R \succeq 0`
of the resistors give its port-Hamiltonian split (the paper's step 5):

.. math::
    J = \tfrac12(K - K^\top),\quad R = -\tfrac12(K + K^\top),\quad
    G = \tfrac12(A_u + C_z^\top),\quad P = \tfrac12(C_z^\top - A_u),\quad
    M = \tfrac12(D - D^\top),\quad S = \tfrac12(D + D^\top),

so that :math:`\dot x = (J-R)z + (G-P)u`, :math:`y = (G+P)^\top z + (M+S)u`
(DESIGN.md §2); :math:`u^\top y` is the power the sources deliver.  The structure
checks of :class:`~porthamiltonian.PHS` then verify the claim on the result.

Existence.  The explicit form exists exactly when the equations with every storage
in integral causality determine all bond variables.  When they do not, the causal
analysis (:mod:`.causality`) names why: dependent sources, storages fixed by
sources, or **dependent storages** — which are not an error: :func:`to_descriptor`
returns the constrained model and :func:`to_phs` merges them (:mod:`.merge`).

Both paths — symbolic (SymPy coefficients, parameters as symbols, state-dependent
entries for modulated elements) and numeric (floats, SciPy sparse, no SymPy) — run
the same elimination, in time linear in the size of a ladder-like graph.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp

from ..errors import ModelError, NoExplicitFormError
from ..naming import expand
from ..phs import PHS
from .elimination import SingularSystem, combine, solve_sorted
from .equations import element_equations
from .graph import BondGraph, Element

#: Above this many states the numeric path returns SciPy sparse matrices.
SPARSE_ABOVE = 100
#: Default: symbolic for graphs of at most this many elements.
SYMBOLIC_UP_TO = 60


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


def to_phs(bg: BondGraph, symbolic: bool | None = None) -> PHS:
    """The explicit port-Hamiltonian model of a bond graph.

    Parameters
    ----------
    bg : BondGraph
    symbolic : bool, optional
        ``True``: SymPy matrices with the parameters as symbols (their values
        attached for evaluation) and state-dependent entries for modulated
        elements.  ``False``: parameter values substituted; with constant
        coefficients and linear storages the model is numeric (NumPy, SciPy sparse
        above :data:`SPARSE_ABOVE` states) and no SymPy runs.  Default: symbolic
        for graphs of up to :data:`SYMBOLIC_UP_TO` elements.

    Returns
    -------
    PHS
        States: the storages' (``C1`` or ``C1[k]``), in the order of the graph;
        inputs: the sources' values; outputs (named like the inputs): their
        conjugates.  When dependent storages were merged, ``.reduction`` says which
        and what the remaining states stand for.

    Raises
    ------
    NoExplicitFormError
        Dependent sources, storages fixed by sources, or dependent storages that
        cannot be merged (nonlinear or modulated) — named, with the causal path.
    """
    with _paused_gc():
        work, exact, coefficient = _prepare(bg, symbolic)
        try:
            lm = solve(work, (), exact, coefficient)
        except SingularSystem as err:
            return _without_full_integral_causality(bg, work, exact, coefficient, err,
                                                    symbolic)
        return _explicit(lm)


def to_descriptor(bg: BondGraph, symbolic: bool | None = None) -> Any:
    """The descriptor PHS ``ẋ = (J−R)z + Bλ + (G−P)u``, ``0 = Bᵀz``, of a bond graph.

    Every storage keeps its state.  A dependent storage (in derivative causality,
    named by :func:`~porthamiltonian.bondgraph.analyze_causality`) contributes a
    multiplier ``λ`` = its rate (``C2.rate``) and a constraint: its co-energy is
    fixed by the others (two capacitors on a 0-junction share their voltage).
    Without dependent storages the constraints are empty and the model equals
    :func:`to_phs`'s.
    """
    from .merge import descriptor

    with _paused_gc():
        work, exact, coefficient = _prepare(bg, symbolic)
        report = _report_or_raise(bg)
        lm = solve(work, report.derivative, exact, coefficient)
        return descriptor(lm, _hamiltonian_data(work, exact))


@contextmanager
def _paused_gc() -> Iterator[None]:
    """Pause the cyclic garbage collector.

    Generation allocates some 10⁵ small dicts (one per bond variable) that all live
    to the end; the collector would rescan them at every threshold, which makes the
    time grow faster than the graph.  Nothing here creates reference cycles.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


# ---------------------------------------------------------------------- steps
def _prepare(bg: BondGraph, symbolic: bool | None) -> tuple[BondGraph, bool, Any]:
    """The graph to work on, whether coefficients are exact, and their converter."""
    bg.check()
    if symbolic is None:
        symbolic = len(bg.elements) <= SYMBOLIC_UP_TO
    if symbolic:
        return bg, True, _identity
    work = bg.with_values()
    numeric = all(_is_number(v) for el in work.elements.values()
                  for k, v in el.params.items() if k != "hamiltonian")
    # modulated coefficients keep SymPy (with numeric parameter values)
    return work, not numeric, (float if numeric else _identity)


def _identity(a: Any) -> Any:
    return a


def _is_number(v: Any) -> bool:
    if isinstance(v, sp.MatrixBase):
        return not v.free_symbols
    return not getattr(v, "free_symbols", ())


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


def _explicit(lm: LinearMap) -> PHS:
    K, Au = lm.block("a", "a"), lm.block("a", "u")
    Cz, D = lm.block("y", "a"), lm.block("y", "u")
    mats = split(K, Au, Cz, D)
    H = _hamiltonian_data(lm.graph, lm.exact)
    return _build(lm.graph, mats, H, lm.states, lm.inputs)


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


@dataclass
class HamiltonianData:
    """The storages' energy: ``expr`` (SymPy, always) and ``Q`` (numeric, linear only)."""

    expr: Any
    Q: Any  # None unless numeric and every storage linear


def _hamiltonian_data(bg: BondGraph, exact: bool) -> HamiltonianData:
    """The storages' energy; numeric and linear: only ``Q`` (no SymPy on that path)."""
    from ..expr import state_symbol

    storages = bg.storages()
    if not exact and all("hamiltonian" not in el.params for el in storages):
        blocks = []
        for el in storages:
            c = _compliance(el, numeric=True)
            blocks.append(np.linalg.inv(c))
        Q = sps.block_diag(blocks, format="csr") if blocks else sps.csr_matrix((0, 0))
        return HamiltonianData(None, Q)
    terms = []
    for el in storages:
        if "hamiltonian" in el.params:
            terms.append(el.params["hamiltonian"])
            continue
        x = sp.Matrix([state_symbol(s) for s in el.states])
        terms.append((x.T * _compliance(el).inv() * x)[0, 0] / 2)
    return HamiltonianData(sp.Add(*terms), None)


def _compliance(el: Element, numeric: bool = False) -> Any:
    """The compliance (C) or inertia (I) matrix; a float array when ``numeric``."""
    v = el.params["c" if el.kind == "C" else "i"]
    if isinstance(v, sp.MatrixBase):
        c = np.array(v.tolist(), dtype=float) if numeric else sp.Matrix(v)
    elif numeric:
        c = float(v) * np.eye(el.dim)
    else:
        c = sp.Matrix(v * sp.eye(el.dim)) if el.dim > 1 else sp.Matrix([[v]])
    singular = (abs(np.linalg.det(c)) < 1e-300) if numeric else c.det() == 0
    if singular:
        raise ModelError(f"{el.where()}: its {'compliance' if el.kind == 'C' else 'inertia'}"
                         " matrix is singular; give it a positive definite value")
    return c


def _build(bg: BondGraph, mats: dict[str, Any], H: HamiltonianData, states: list[str],
           inputs: list[str]) -> PHS:
    names = {"states": states, "inputs": inputs, "outputs": list(inputs), "name": bg.name}
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


# ---------------------------------------------------------------------- no full integral causality
def _report_or_raise(bg: BondGraph) -> Any:
    """The causal analysis; raises for what no port-Hamiltonian model can express."""
    from .causality import analyze_causality

    report = analyze_causality(bg)
    if report.dependent_sources:
        raise NoExplicitFormError(
            f"dependent sources {', '.join(report.dependent_sources)}: two sources impose the "
            f"same effort or flow ({_first(report.messages)}); remove one or put a resistor "
            "between them"
        )
    if report.fixed_by_sources:
        raise NoExplicitFormError(
            f"storages fixed by sources: {', '.join(report.fixed_by_sources)} "
            f"({_first(report.messages)}); their state is a function of the inputs, not a "
            "state — put a resistor between source and storage, or replace the storage"
        )
    return report


def _first(messages: list[str]) -> str:
    """The causal analysis's first finding, as a clause."""
    if not messages:
        return "see 'porthamiltonian check'"
    text = messages[0].rstrip(".")
    for prefix in ("warning: ", "error: "):
        text = text.removeprefix(prefix)
    return text


def _without_full_integral_causality(bg: BondGraph, work: BondGraph, exact: bool,
                                     coefficient: Any, err: SingularSystem,
                                     symbolic: bool | None) -> PHS:
    from .merge import merged

    report = _report_or_raise(bg)
    if report.derivative:
        try:
            lm = solve(work, report.derivative, exact, coefficient)
        except SingularSystem:
            lm = None  # the causal analysis did not see the whole story; compose below
        if lm is not None:
            return merged(lm, report)
    if err.structural:
        # no source conflict, yet undetermined bond variables (e.g. parallel bonds
        # between two junctions share a flow in an unknown split): composition of the
        # Dirac structures needs no uniqueness of the interior variables
        from .dirac_path import via_dirac

        return via_dirac(bg, symbolic if symbolic is not None else exact)
    raise NoExplicitFormError(
        "the algebraic loop through "
        f"{', '.join(_owners(work, err.rows))} is singular for these parameter values "
        "(its equations are dependent); change a ratio or resistance, or run "
        "'porthamiltonian check' for the causal analysis"
    )


def _owners(bg: BondGraph, rows: list[int]) -> list[str]:
    eq = element_equations(bg, ())
    return list(dict.fromkeys(eq.owners[i] for i in rows))
