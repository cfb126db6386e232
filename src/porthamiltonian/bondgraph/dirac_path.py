r"""The explicit PHS of a bond graph by composing Dirac structures (the reference path).

The construction of Pfeifer et al., *Explicit port-Hamiltonian formulation of
multi-bond graphs for an automated model generation*, Automatica 120 (2020)
109121, restated in the project's reference notes, done with the library's own IR
operations:

1. **Junction structure.**  Each interior element (0, 1, TF, GY) is a Dirac
   structure on its bonds, with port variables counted *into* the element
   (``f = +f_b`` for a bond pointing in, ``−f_b`` for one pointing out; ``e = e_b``):

   * 0-junction: :math:`\sum_i f_i = 0`, :math:`e_1 = e_i`;
   * 1-junction (signs :math:`s_i = \pm 1` by orientation): :math:`s_1 f_1 = s_i f_i`,
     :math:`\sum_i s_i e_i = 0`;
   * TF (bond 1 in, bond 2 out; :math:`f_2 = M f_1`, :math:`e_1 = M^\top e_2`):
     :math:`f_b + M f_a = 0`, :math:`e_a - M^\top e_b = 0`;
   * GY (:math:`e_2 = M f_1`, :math:`e_1 = M^\top f_2`):
     :math:`e_a + M^\top f_b = 0`, :math:`e_b - M f_a = 0`.

   Interior bonds are eliminated by composing these structures
   (:meth:`DiracStructure.compose_many`, Cervera–van der Schaft–Baños 2007): the
   result is one Dirac structure on the exterior ports, one per C, I, R, Se, Sf,
   named after the element.
2. **Existence / causality.**  The input-output form with the storages in
   integral causality (C: effort in; I: flow in) and the sources' inputs (Se:
   effort; Sf: flow) is requested; the resistors take whatever the structure
   allows, efforts preferred (the paper's R1/R2 split by rank, Property 2).
3. **Closure.**  Storages and resistors are port-Hamiltonian systems of their
   own — C: :math:`\dot q = u`, :math:`y = \nabla H`; I: :math:`\dot p = -u`,
   :math:`y = -\nabla H`; R1: :math:`y = r u`; R2: :math:`y = r^{-1} u` — joined to the
   junction structure by :func:`porthamiltonian.interconnect`.

:func:`porthamiltonian.bondgraph.to_phs` uses the faster sorted elimination of
:mod:`.elimination` and falls back to this path when the bond variables are not
all determined (e.g. a junction loop carrying a flow no element sees): composition
needs no uniqueness of the interior variables.  :func:`junction_structure` gives the
Dirac structure on the exterior bonds itself.
"""

from __future__ import annotations

import sympy as sp

from ..dirac import DiracStructure
from ..errors import CausalityError, NoExplicitFormError
from ..expr import state_symbol
from ..interconnection import interconnect
from ..naming import expand, split_index
from ..phs import PHS
from .domains import bond_domains, graph_quantities, output_names
from .elements import compliance
from .graph import JUNCTIONS, SWITCHED, Bond, BondGraph, Element

INTERIOR = JUNCTIONS + ("TF", "GY")
# The variable each exterior element imposes on the junction structure: storages in
# integral causality (C: effort, I: flow) and the sources' inputs.
INPUT_KIND = {"C": "effort", "I": "flow", "Se": "effort", "Sf": "flow"}


def via_dirac(bg: BondGraph, symbolic: bool) -> PHS:
    """The explicit PHS by Dirac-structure composition (see the module docstring).

    ``symbolic=False``: parameter values substituted and the junction structure
    composed in floating point; entries below ``1e-12`` relative are round-off and
    set to zero.
    """
    if bg.reactions():
        raise NoExplicitFormError(
            f"the bond variables around the reactions {', '.join(e.name for e in bg.reactions())}"
            " are not determined by the element equations (e.g. two bonds in parallel "
            "between the same junctions); Dirac-structure composition does not support Re "
            "elements: give each species one Ce on its own 0-junction")
    if not symbolic:
        bg = bg.with_values()
    D = junction_structure(bg, exact=symbolic)
    storages, resistors, sources = bg.storages(), bg.resistors(), bg.sources()
    fixed = {p: INPUT_KIND[el.kind] for el in storages + sources
             for p in expand(el.name, el.dim)}
    try:
        io = D.input_output(inputs=fixed)
    except CausalityError as err:
        raise NoExplicitFormError(_causality_message(bg, err)) from None
    chosen = dict(io.inputs)
    systems, connect = [], []
    for el in storages:
        systems.append(_storage_system(el, numeric=not symbolic))
        connect.append((f"{el.name}.port", el.name, INPUT_KIND[el.kind]))
    for el in resistors:
        kinds = {chosen[p] for p in expand(el.name, el.dim)}
        if len(kinds) > 1:
            raise NoExplicitFormError(
                f"{el.where()}: the junction structure fixes the effort of some of its "
                "components and the flow of others; split the multi-bond resistor"
            )
        kind = kinds.pop()
        systems.append(_resistor_system(el, admittance=(kind == "flow"), numeric=not symbolic))
        connect.append((f"{el.name}.port", el.name, kind))
    free = {p: fixed[p] for el in sources for p in expand(el.name, el.dim)}
    sys = interconnect(D, systems, connect, free_inputs=free)
    doms = bond_domains(bg)
    conjugate = dict(zip([p for el in sources for p in expand(el.name, el.dim)],
                         output_names(bg, doms), strict=True))
    sys = sys.rename(outputs=dict(zip(sys.outputs, [conjugate[u] for u in sys.inputs],
                                      strict=True)))
    sys = sys.replace(name=bg.name, parameters=dict(bg.parameters))
    if not symbolic:
        sys = _chop(sys)
    sys.check()
    sys.quantities = graph_quantities(bg, doms, sys.states)
    return sys


def _chop(sys: PHS, rtol: float = 1e-12) -> PHS:
    """Zero the round-off of the floating-point elimination (|entry| < rtol · scale)."""
    import numpy as np

    mats = sys.matrices()
    if sys.symbolic:
        def clean(v: sp.Expr) -> sp.Expr:
            if v.is_number and abs(float(v)) < rtol:
                return sp.S.Zero
            if v.is_number and abs(float(v) - round(float(v))) < rtol:
                return sp.Integer(round(float(v)))
            return v
        new = {k: A.applyfunc(clean) for k, A in mats.items()}
    else:
        new = {}
        for k, A in mats.items():
            B = np.array(A, dtype=float)
            scale = max(1.0, float(np.max(np.abs(B), initial=0.0)))
            B[np.abs(B) < rtol * scale] = 0.0
            new[k] = B
    return sys._replace(mats=new)


# ---------------------------------------------------------------------- junctions
def junction_structure(bg: BondGraph, exact: bool = True) -> DiracStructure:
    """The Dirac structure of the junctions, TFs and GYs on the exterior ports.

    ``exact``: SymPy matrices (integers stay integers); else floating point.
    """
    exterior = {e.name for e in bg.elements.values() if e.kind not in INTERIOR}
    structures: list[DiracStructure] = []
    connect: list[tuple[str, str]] = []

    def port(b: Bond, at: str) -> list[str]:
        """Port names of bond b at its end ``at`` (an interior element)."""
        other = b.head if at == b.tail else b.tail
        if other in exterior:
            return expand(other, b.dim)
        return expand(f"{b.name}.{'t' if at == b.tail else 'h'}", b.dim)

    for el in bg.elements.values():
        if el.kind in INTERIOR:
            bonds = bg.bonds_of(el.name)
            ports = [port(b, el.name) for b in bonds]
            signs = [1 if b.head == el.name else -1 for b in bonds]
            structures.append(_element_structure(el, bonds, ports, signs, exact))
    for b in bg.bonds:
        t_in, h_in = b.tail not in exterior, b.head not in exterior
        if t_in and h_in:
            connect += list(zip(expand(f"{b.name}.t", b.dim), expand(f"{b.name}.h", b.dim),
                                strict=True))
        elif not t_in and not h_in:
            # two one-port elements bonded directly: a two-port 0-junction in between
            pairs = zip(expand(b.tail, b.dim), expand(b.head, b.dim), strict=True)
            structures.append(_direct_sum([_zero([a, c], exact) for a, c in pairs]))
    if not connect:
        return _direct_sum(structures)
    return DiracStructure.compose_many(structures, connect)


def _direct_sum(structures: list[DiracStructure]) -> DiracStructure:
    out = structures[0]
    for s in structures[1:]:
        out = out.direct_sum(s)
    return out


def _element_structure(el: Element, bonds: list[Bond], ports: list[list[str]],
                       signs: list[int], exact: bool) -> DiracStructure:
    k = el.dim if el.kind in ("TF", "GY") else bonds[0].dim
    if el.type in SWITCHED:
        return _switched(el, bonds, ports, signs, k, exact)
    if el.kind == "0":
        return _direct_sum([_zero([p[c] for p in ports], exact) for c in range(k)])
    if el.kind == "1":
        return _direct_sum([_one([p[c] for p in ports], signs, exact) for c in range(k)])
    # TF / GY: bond 1 is the one pointing in
    (a, b) = (0, 1) if bonds[0].head == el.name else (1, 0)
    Mr = el.params["ratio"]
    M = sp.Matrix(Mr) if isinstance(Mr, sp.MatrixBase) else sp.Matrix([[Mr]])
    if M.shape != (k, k):
        M = M[0, 0] * sp.eye(k)
    Z, eye = sp.zeros(k, k), sp.eye(k)
    if el.kind == "TF":  # f_b + M f_a = 0 ; e_a − Mᵀ e_b = 0
        F = sp.Matrix(sp.BlockMatrix([[M, eye], [Z, Z]]).as_explicit())
        E = sp.Matrix(sp.BlockMatrix([[Z, Z], [eye, -M.T]]).as_explicit())
    else:  # GY: e_a + Mᵀ f_b = 0 ; e_b − M f_a = 0
        F = sp.Matrix(sp.BlockMatrix([[Z, M.T], [-M, Z]]).as_explicit())
        E = sp.eye(2 * k)
    return _make(F, E, ports[a] + ports[b], exact)


def _switched(el: Element, bonds: list[Bond], ports: list[list[str]], signs: list[int],
              k: int, exact: bool) -> DiracStructure:
    """A switched junction, component by component (:mod:`.switched`)."""
    from .switched import switched_flags, switched_structure

    flags = switched_flags(el, bonds)
    parts = []
    for c in range(k):
        F, E = switched_structure(el, bonds, flags, signs, len(bonds))
        parts.append(_make(F, E, [p[c] for p in ports], exact))
    return _direct_sum(parts)


def _zero(ports: list[str], exact: bool) -> DiracStructure:
    n = len(ports)
    F, E = sp.zeros(n, n), sp.zeros(n, n)
    F[0, :] = sp.ones(1, n)
    for i in range(1, n):
        E[i, 0], E[i, i] = 1, -1
    return _make(F, E, ports, exact)


def _one(ports: list[str], s: list[int], exact: bool) -> DiracStructure:
    n = len(ports)
    F, E = sp.zeros(n, n), sp.zeros(n, n)
    E[0, :] = sp.Matrix([s])
    for i in range(1, n):
        F[i, 0], F[i, i] = s[0], -s[i]
    return _make(F, E, ports, exact)


def _make(F: sp.Matrix, E: sp.Matrix, ports: list[str], exact: bool) -> DiracStructure:
    """Symbolic when exact or modulated (symbols in the entries), else NumPy."""
    if exact or F.free_symbols or E.free_symbols:
        return DiracStructure(sp.ImmutableMatrix(F), sp.ImmutableMatrix(E), ports=ports)
    import numpy as np

    return DiracStructure(np.array(F.tolist(), dtype=float), np.array(E.tolist(), dtype=float),
                          ports=ports, check=False)


# ---------------------------------------------------------------------- closure
def _matrix(el: Element, key: str) -> sp.Matrix:
    v = el.params[key]
    if isinstance(v, sp.MatrixBase):
        return sp.Matrix(v)
    return sp.Matrix(v * sp.eye(el.dim)) if el.dim > 1 else sp.Matrix([[v]])


def _storage_system(el: Element, numeric: bool = False) -> PHS:
    """C: ``q̇ = u``, ``y = ∇H``; I: ``ṗ = −u``, ``y = −∇H`` (see the module docstring)."""
    import numpy as np

    sign = 1 if el.kind == "C" else -1
    ports = {"states": el.states, "inputs": expand(f"{el.name}.port", el.dim),
             "outputs": expand(f"{el.name}.out", el.dim), "check": False}
    if "hamiltonian" in el.params:
        return PHS(G=sign * sp.eye(el.dim), hamiltonian=el.params["hamiltonian"], **ports)
    c = compliance(el)
    if numeric and not c.free_symbols:
        return PHS(G=sign * np.eye(el.dim), Q=np.array(c.inv().tolist(), dtype=float), **ports)
    x = sp.Matrix([state_symbol(s) for s in el.states])
    return PHS(G=sign * sp.eye(el.dim), hamiltonian=(x.T * c.inv() * x)[0, 0] / 2, **ports)


def _resistor_system(el: Element, admittance: bool, numeric: bool = False) -> PHS:
    r = _matrix(el, "r")
    if admittance:
        if r.det() == 0:
            raise NoExplicitFormError(
                f"{el.where()}: the junction structure imposes its effort, so its law must be "
                "written as f = r⁻¹ e, but r is singular (zero resistance); reconnect it or "
                "give it a non-zero resistance"
            )
        r = r.inv()
    if numeric and not r.free_symbols:
        import numpy as np

        r = np.array(r.tolist(), dtype=float)
    return PHS(S=r, inputs=expand(f"{el.name}.port", el.dim),
               outputs=expand(f"{el.name}.out", el.dim), states=[], check=False)


def _causality_message(bg: BondGraph, err: CausalityError) -> str:
    text = str(err)
    # exterior ports are named after their elements (``C1`` or ``C1[k]``)
    named = list(dict.fromkeys(split_index(p)[0] for p in err.ports))
    storages = [n for n in named if bg.elements[n].kind in ("C", "I")]
    what = ("dependent storages or storages fixed by sources" if storages
            else "dependent sources")
    return (
        f"no explicit port-Hamiltonian form: {what} ({', '.join(named) or 'see below'}): "
        f"{text}. Run 'porthamiltonian check' for the causal analysis; merge the dependent "
        "storages into one element or add a resistor/compliance between them"
    )

