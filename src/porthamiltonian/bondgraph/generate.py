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
(docs/design.md); :math:`u^\top y` is the power the sources deliver.  The structure
checks of :class:`~porthamiltonian.PHS` then verify the claim on the result.

Existence.  The explicit form exists exactly when the equations with every storage
in integral causality determine all bond variables.  When they do not, the causal
analysis (:mod:`.causality`) names why: dependent sources, storages fixed by
sources, or **dependent storages** — which are not an error: :func:`to_descriptor`
returns the constrained model and :func:`to_phs` merges them (:mod:`.merge`).

Where the pieces live: the solved linear map and its split in :mod:`.linear_map`, the
storages' compliance and energy in :mod:`.elements`, merging and the descriptor form in
:mod:`.merge`, the fallback by Dirac-structure composition in :mod:`.dirac_path`; this
module chooses between them.

Reactions (Re elements) are two-port resistors whose state-dependent conductance is
found first (:mod:`.reactions`); the elimination then treats them like any modulated
element.

Both paths — symbolic (SymPy coefficients, parameters as symbols, state-dependent
entries for modulated elements) and numeric (floats, SciPy sparse, no SymPy) — run
the same elimination, in time linear in the size of a ladder-like graph.  A numeric
graph of constant linear scalar elements with every storage in integral causality is
assembled and eliminated as arrays instead (:mod:`.array_path`, same model to
round-off, no Python object per bond variable); every other graph, and any graph that
path declines, takes the one described here.
"""

from __future__ import annotations

import gc
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sympy as sp

from ..descriptor import DescriptorPHS
from ..errors import NoExplicitFormError
from ..phs import PHS
from .array_path import numeric_phs
from .causality import CausalityReport, analyze_causality
from .dirac_path import via_dirac
from .elements import storage_energy
from .elimination import SingularSystem
from .equations import element_equations
from .forced import forced
from .graph import BondGraph
from .linear_map import SPARSE_ABOVE, LinearMap, explicit_phs, solve, split
from .merge import descriptor, merged
from .reactions import with_conductances

__all__ = ["to_phs", "to_descriptor", "SYMBOLIC_UP_TO", "SPARSE_ABOVE"]

#: Default: symbolic for graphs of at most this many elements.
SYMBOLIC_UP_TO = 60


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
        inputs: the sources' values; outputs: their conjugates, named after the
        conjugate variable in the source's domain (``V.i``, ``u.f``;
        :mod:`.domains`).  ``.quantities`` gives every variable its kind, SI unit and
        co-energy name.  When dependent storages were merged, ``.reduction`` says which
        and what the remaining states stand for, and the merged storages' states and
        co-energies are observables in ``.quantities``.

    Raises
    ------
    NoExplicitFormError
        Dependent sources, dependent storages that cannot be merged (nonlinear or
        modulated), storages fixed by sources that are nonlinear or behind a modulated
        element — named, with the causal path.

    Storages fixed by sources (an inductor in series with a current source) are no
    states: the model takes the derivatives of the inputs that fix them as extra inputs
    (``I_s.dot``), records them in ``.input_derivatives`` and says so in
    ``.reduction`` (:mod:`.forced`, which states what ``H`` and ``uᵀy`` count then).
    """
    with _paused_gc():
        bg.check()
        if not _symbolic(bg, symbolic):
            fast = numeric_phs(bg)  # linear, numeric, full integral causality: arrays
            if fast is not None:
                return fast
        work, exact, coefficient = _prepare(bg, symbolic, checked=True)
        try:
            lm = solve(work, (), exact, coefficient)
        except SingularSystem as err:
            return _without_full_integral_causality(bg, work, exact, coefficient, err,
                                                    symbolic)
        return _explicit(lm)


def to_descriptor(bg: BondGraph, symbolic: bool | None = None) -> DescriptorPHS:
    """The descriptor PHS ``ẋ = (J−R)z + Bλ + (G−P)u``, ``0 = Bᵀz``, of a bond graph.

    Every storage keeps its state.  A dependent storage (in derivative causality,
    named by :func:`~porthamiltonian.bondgraph.analyze_causality`) contributes a
    multiplier ``λ`` = its rate (``C2.rate``) and a constraint: its co-energy is
    fixed by the others (two capacitors on a 0-junction share their voltage).
    Without dependent storages the constraints are empty and the model equals
    :func:`to_phs`'s; storages fixed by sources are no states there either (the model
    with the input derivatives of :mod:`.forced`, as a descriptor system without
    constraints).
    """
    with _paused_gc():
        work, exact, coefficient = _prepare(bg, symbolic)
        report = _report_or_raise(bg)
        if report.fixed_by_sources:
            return _as_descriptor(_forced(work, exact, coefficient, report))
        lm = solve(work, report.derivative, exact, coefficient)
        return descriptor(lm, storage_energy(work, exact))


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
def _symbolic(bg: BondGraph, symbolic: bool | None) -> bool:
    return len(bg.elements) <= SYMBOLIC_UP_TO if symbolic is None else symbolic


def _prepare(bg: BondGraph, symbolic: bool | None,
             checked: bool = False) -> tuple[BondGraph, bool, Any]:
    """The graph to work on, whether coefficients are exact, and their converter."""
    if not checked:
        bg.check()
    if _symbolic(bg, symbolic):
        return with_conductances(bg), True, _identity
    work = with_conductances(bg.with_values())
    # a ladder shares one parameter object among thousands of elements: test each once
    distinct = {id(v): v for el in work.elements.values()
                for k, v in el.params.items() if k != "hamiltonian"}
    numeric = all(_is_number(v) for v in distinct.values())
    # modulated coefficients keep SymPy (with numeric parameter values)
    return work, not numeric, (float if numeric else _identity)


def _identity(a: Any) -> Any:
    return a


def _is_number(v: Any) -> bool:
    if isinstance(v, sp.MatrixBase):
        return not v.free_symbols
    return not getattr(v, "free_symbols", ())


def _explicit(lm: LinearMap) -> PHS:
    K, Au = lm.block("a", "a"), lm.block("a", "u")
    Cz, D = lm.block("y", "a"), lm.block("y", "u")
    mats = split(K, Au, Cz, D)
    H = storage_energy(lm.graph, lm.exact)
    return explicit_phs(lm.graph, mats, H, lm.states, lm.inputs)


# ---------------------------------------------------------------------- no full integral causality
def _report_or_raise(bg: BondGraph) -> CausalityReport:
    """The causal analysis; raises for what no port-Hamiltonian model can express."""
    report = analyze_causality(bg)
    if report.dependent_sources:
        raise NoExplicitFormError(
            f"dependent sources {', '.join(report.dependent_sources)}: two sources impose the "
            f"same effort or flow ({_first(report.messages)}); remove one or put a resistor "
            "between them"
        )
    return report


def _forced(work: BondGraph, exact: bool, coefficient: Any, report: CausalityReport) -> PHS:
    """The model of a graph with storages fixed by sources (:mod:`.forced`)."""
    fixed = report.fixed_by_sources
    if report.derivative:
        raise NoExplicitFormError(
            f"storages fixed by sources ({', '.join(fixed)}) and dependent storages "
            f"({', '.join(report.derivative)}) in one graph: this combination has no "
            "generated model yet; put a resistor or a compliance between the coupled "
            "storages, or between the sources and the storages they fix")
    try:
        lm = solve(work, fixed, exact, coefficient)
    except SingularSystem as err:
        raise NoExplicitFormError(
            f"storages fixed by sources ({', '.join(fixed)}): with them in derivative "
            f"causality the equations of {', '.join(_owners(work, err.rows))} are still "
            "singular; run 'porthamiltonian check' for the causal analysis") from None
    paths = [found.group(1) for m in report.messages
             if any(f"{n} is in derivative causality, fixed" in m for n in fixed)
             and (found := re.search(r"causal path (.+?), so", m))]
    return forced(lm, storage_energy(work, exact), paths)


def _as_descriptor(sys: PHS) -> DescriptorPHS:
    """An explicit model as a descriptor system without constraints (E = I, no B)."""
    energy = ({"hamiltonian": sys.hamiltonian, "parameters": dict(sys.parameters)}
              if sys.symbolic else {"Q": sys.Q})
    model = DescriptorPHS(J=sys.J, R=sys.R, G=sys.G, P=sys.P, M=sys.M, S=sys.S, **energy,
                          states=list(sys.states), inputs=list(sys.inputs),
                          outputs=list(sys.outputs), name=sys.name,
                          quantities=sys.quantities)
    for key in ("port_kinds", "input_derivatives", "fixed", "reduction"):
        setattr(model, key, getattr(sys, key))
    return model


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
    report = _report_or_raise(bg)
    if report.fixed_by_sources:
        return _forced(work, exact, coefficient, report)
    if report.derivative:
        try:
            lm = solve(work, report.derivative, exact, coefficient)
        except SingularSystem:
            lm = None  # the causal analysis did not see the whole story; compose below
        if lm is not None:
            return merged(lm, report.derivative, _first(report.messages))
    if err.structural:
        # no source conflict, yet undetermined bond variables (e.g. parallel bonds
        # between two junctions share a flow in an unknown split): composition of the
        # Dirac structures needs no uniqueness of the interior variables
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
