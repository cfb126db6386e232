r"""The signal-flow graph (block diagram) of a causal bond graph.

Breedveld, Appendix A.1.3 of Duindam et al., *Modeling and Control of Complex Physical
Systems — the Port-Hamiltonian Approach* (Springer, 2009): once every bond has its
causality (:func:`~.causality.analyze_causality`), each element is an operator from the
variables it *receives* to the variables it *gives*, and the bond graph reads as a
block diagram.  Here that diagram is a :class:`networkx.DiGraph` whose nodes are signals
and whose edges carry gains, SymPy expressions in the Laplace variable :data:`S`
(zero initial state):

* C (compliance ``c``), integral causality: :math:`f \to q` gain :math:`1/s`,
  :math:`q \to e` gain :math:`1/c`; derivative: :math:`e \to q` gain :math:`c`,
  :math:`q \to f` gain :math:`s`.
* I (inertia ``i``), integral: :math:`e \to p` gain :math:`1/s`, :math:`p \to f` gain
  :math:`1/i`; derivative: :math:`f \to p` gain :math:`i`, :math:`p \to e` gain :math:`s`.
* R (``r``), resistance causality: :math:`f \to e` gain :math:`r`; conductance:
  :math:`e \to f` gain :math:`1/r`.
* Se / Sf: :math:`u \to e` / :math:`u \to f`, gain 1.
* TF (modulus ``m``, bond a in, b out; :math:`e_a = m e_b`, :math:`f_b = m f_a`): effort
  in at a: :math:`e_a \to e_b` and :math:`f_b \to f_a`, gain :math:`1/m`; effort in at
  b: :math:`e_b \to e_a` and :math:`f_a \to f_b`, gain :math:`m`.
* GY (ratio ``r``; :math:`e_b = r f_a`, :math:`e_a = r f_b`): flows in:
  :math:`f_a \to e_b`, :math:`f_b \to e_a`, gain :math:`r`; efforts in:
  :math:`e_b \to f_a`, :math:`e_a \to f_b`, gain :math:`1/r`.
* 0-junction with strong bond k (its effort comes in): :math:`e_k \to e_i` gain 1,
  :math:`f_i \to f_k` gain :math:`-s_i s_k`.
* 1-junction with strong bond k (its flow comes in): :math:`f_k \to f_i` gain 1,
  :math:`e_i \to e_k` gain :math:`-s_i s_k`.

with :math:`s_i = +1` for a bond pointing into the junction and :math:`-1` out of it
(the half-arrows; docs/bondgraphs.md), so :math:`\sum_i s_i f_i = 0` at a 0-junction
and :math:`\sum_i s_i e_i = 0` at a 1-junction.  A storage in derivative causality is an
ordinary differentiator ``s`` here, and algebraic loops are ordinary loops of the graph:
Mason's rule (:mod:`.mason_rule`) and :func:`block_transfer` handle both.

Nodes (attribute ``kind``): ``"<bond>.e"`` / ``"<bond>.f"`` (``effort`` / ``flow``,
attribute ``bond``), a storage's state ``"C1"`` (``state``: :math:`q` or :math:`p`), a
source's value ``"V"`` (``input``); attribute ``label`` is the name drawn (a one-port's
variable in its domain, ``La.i``, ``kr.tau``; else the bond's ``b4.e``).  Edges:
``gain`` (SymPy, in :data:`S` and the parameter symbols) and ``element`` (whose law it
is).  ``graph.graph["names"]`` maps every accepted name to its node: the nodes
themselves, ``"<one-port>.e"`` / ``"<one-port>.f"`` and their physical names (``Ra.v``,
``Ra.i``, ``bf.w``), the co-energy names of the generated PHS (``La.i``, ``Jt.w``, and
``dH/dLa`` as :func:`~porthamiltonian.analysis.transfer_function` writes them) and its
output names (``V.i``) — so ``transfer_function(to_phs(bg), "V", "dH/dLa")`` and
``block_transfer(g, "V", "La.i")`` speak of the same signal.

Limits: linear time-invariant graphs only.  Multi-bonds, storages given by a
``hamiltonian``, chemical Ce/Re elements and modulated elements whose ratio or
resistance depends on a state are refused with a :class:`~porthamiltonian.ModelError`
naming the element (MTF/MGY/MR with a constant parameter are their base elements).
"""

from __future__ import annotations

from typing import Any

import networkx as nx
import sympy as sp
from sympy.polys.constructor import construct_domain

from ..errors import ModelError
from .causality import analyze_causality
from .domains import bond_domains, graph_quantities, output_names
from .graph import Bond, BondGraph, Element

__all__ = ["S", "block_diagram", "block_transfer", "node_of", "require_lti"]

#: The Laplace variable (equal to :data:`porthamiltonian.analysis.transfer.LAPLACE_S`).
S = sp.Symbol("s")


def require_lti(bg: BondGraph) -> None:
    """Raise :class:`ModelError` unless ``bg`` is linear, time-invariant and scalar."""
    from ..expr import state_symbol

    bg.check()
    states = {state_symbol(s) for s in bg.state_names()}
    for el in bg.elements.values():
        why = None
        if el.dim != 1:
            why = f"it is a multi-bond element (dim {el.dim})"
        elif el.type in ("Ce", "Re"):
            why = "chemical elements are nonlinear"
        elif "hamiltonian" in el.params:
            why = "its storage law is given by a hamiltonian (a nonlinear storage)"
        else:
            for key in ("c", "i", "r", "ratio"):
                if states & getattr(el.params.get(key), "free_symbols", set()):
                    why = f"its {key} = {el.params[key]} depends on a state (modulated)"
        if why:
            raise ModelError(
                f"{el.where()}: {why}; signal-flow graphs, Mason's rule and impedances "
                "are for linear time-invariant scalar bond graphs — linearize the "
                "generated PHS instead (porthamiltonian.analysis.transfer_function "
                "with x0=…)")


def block_diagram(bg: BondGraph) -> nx.DiGraph:
    """The signal-flow graph of ``bg`` in its SCAP causality (module docstring).

    Raises
    ------
    ModelError
        A structurally wrong or non-LTI graph (naming the element), or a causality
        with dependent sources or a contradiction at an element.
    """
    require_lti(bg)
    rep = analyze_causality(bg)
    if rep.dependent_sources:
        raise ModelError(f"dependent sources {', '.join(rep.dependent_sources)}: the "
                         "bond graph has no signal-flow graph (run 'porthamiltonian "
                         "check' for the causal path)")
    g = nx.DiGraph(name=bg.name, names={}, inputs=[el.name for el in bg.sources()])
    names: dict[str, str] = g.graph["names"]
    for b in bg.bonds:
        for v, kind in (("e", "effort"), ("f", "flow")):
            node = f"{b.name}.{v}"
            g.add_node(node, kind=kind, bond=b.name, label=node)
            names[node] = node
    gives = {b.name: rep.effort_from[b.name] for b in bg.bonds}
    domains = bond_domains(bg)
    for el in bg.elements.values():
        bonds = bg.bonds_of(el.name)
        if el.kind in ("C", "I", "R", "Se", "Sf"):
            dom = domains.bond[bonds[0].name]
            for v, q in (("e", dom.effort), ("f", dom.flow)):
                # C1.e and, in its domain, C1.v: the label is the physical name
                node, label = f"{bonds[0].name}.{v}", f"{el.name}.{q.symbol or v}"
                names[f"{el.name}.{v}"] = names[label] = node
                g.nodes[node]["label"] = label
        _LAWS[el.kind](g, el, bonds, {b.name: gives[b.name] == el.name for b in bonds})
    quantities = graph_quantities(bg, domains)
    for state, info in quantities.states.items():  # a C's co-energy is its effort, an I's flow
        co = "e" if bg.elements[info.element].kind == "C" else "f"
        names[info.coenergy_name] = names[f"dH/d{state}"] = names[f"{info.element}.{co}"]
    for el, y in zip(bg.sources(), output_names(bg, domains), strict=True):
        names[y] = names[f"{el.name}.{'f' if el.kind == 'Se' else 'e'}"]
    return g


def node_of(g: nx.DiGraph, name: str, what: str = "signal") -> str:
    """The node called ``name`` (any name of ``g.graph["names"]``); a clear error else."""
    node = g.graph["names"].get(name)
    if node is None:
        known = sorted(n for n, node in g.graph["names"].items()  # bond nodes: "b3.e"…
                       if n != node or g.nodes[node]["kind"] not in ("effort", "flow"))
        raise ModelError(
            f"{g.graph.get('name', 'bond graph')}: no {what} {name!r}; give a source "
            f"({', '.join(g.graph['inputs']) or 'none'}), a state, a bond variable "
            f"('b3.e', 'b3.f') or one of {', '.join(known[:24])}")
    return node


def block_transfer(g: nx.DiGraph, input: str, output: str) -> sp.Expr:  # noqa: A002
    """``output / input`` of the signal-flow graph by reducing the diagram.

    The classic block-diagram reduction, independent of Mason's rule: every node
    between ``input`` and ``output`` but these two is eliminated in turn, an edge
    ``p → q`` gaining ``g(p,n) g(n,q) / (1 − g(n,n))`` for each pair of its
    predecessors ``p`` and successors ``q`` (``g(n,n)`` its self-loop), until one edge
    ``input → output`` and a self-loop at ``output`` remain:
    ``T = g(u,y) / (1 − g(y,y))``.  Other sources are held at zero.
    """
    u, y = _endpoints(g, input, output)
    keep = (nx.descendants(g, u) | {u}) & (nx.ancestors(g, y) | {y})
    if y not in keep:
        return sp.Integer(0)
    edges = list(g.subgraph(keep).edges(data="gain"))
    # exact rational functions of s and the parameters (SymPy's own choice of field: a
    # sqrt(k) becomes a generator, floats a real field): sums cancel as they form
    field, values = construct_domain([sp.sympify(v) for *_, v in edges] + [S], field=True)
    gain = {(a, b): v for (a, b, _), v in zip(edges, values, strict=False)}
    succ: dict[str, set[str]] = {n: set() for n in keep}
    pred: dict[str, set[str]] = {n: set() for n in keep}
    for a, b in gain:
        succ[a].add(b)
        pred[b].add(a)
    rest = keep - {u, y}
    while rest:  # cheapest node first: fewest new edges
        n = min(rest, key=lambda k: (len(pred[k]) * len(succ[k]), k))
        rest.discard(n)
        loop = field.one / (field.one - gain.pop((n, n), field.zero))
        ins, outs = pred.pop(n) - {n}, succ.pop(n) - {n}
        for p in ins:
            succ[p].discard(n)
            for q in outs:
                gain[p, q] = gain.get((p, q), field.zero) + gain[p, n] * loop * gain[n, q]
                succ[p].add(q)
                pred[q].add(p)
        for q in outs:
            pred[q].discard(n)
        for p in ins:
            del gain[p, n]
        for q in outs:
            del gain[n, q]
    result = gain.get((u, y), field.zero) / (field.one - gain.get((y, y), field.zero))
    return sp.cancel(field.to_sympy(result))


def _endpoints(g: nx.DiGraph, input: str, output: str) -> tuple[str, str]:  # noqa: A002
    u = node_of(g, input, "input")
    if g.nodes[u]["kind"] != "input":
        raise ModelError(f"{g.graph.get('name')}: {input!r} is not an input; the inputs "
                         f"are the sources {', '.join(g.graph['inputs']) or '(none)'}")
    return u, node_of(g, output, "output")


# ---------------------------------------------------------------------- element laws
def _edge(g: nx.DiGraph, src: str, dst: str, gain: Any, el: Element) -> None:
    g.add_edge(src, dst, gain=sp.sympify(gain), element=el.name)


def _conflict(el: Element, what: str) -> ModelError:
    return ModelError(f"{el.where()}: {what}; the causality is contradictory here "
                      "(run 'porthamiltonian check'), so there is no signal-flow graph")


def _source(g: nx.DiGraph, el: Element, bonds: list[Bond], gives: dict[str, bool]) -> None:
    (b,) = bonds
    g.add_node(el.name, kind="input", label=el.name)
    g.graph["names"][el.name] = el.name
    effort = el.kind == "Se"
    if gives[b.name] != effort:
        raise _conflict(el, f"the source does not impose its {'effort' if effort else 'flow'}")
    _edge(g, el.name, f"{b.name}.{'e' if effort else 'f'}", 1, el)


def _storage(g: nx.DiGraph, el: Element, bonds: list[Bond], gives: dict[str, bool]) -> None:
    (b,) = bonds
    (state,) = el.states
    c = el.params["c" if el.kind == "C" else "i"]
    g.add_node(state, kind="state", label=state, element=el.name)
    g.graph["names"][state] = state
    # C: f = q̇, e = q/c; I: e = ṗ, f = p/i; "rate" is the variable that integrates
    rate, co = (("f", "e") if el.kind == "C" else ("e", "f"))
    if gives[b.name] == (el.kind == "C"):  # integral causality
        _edge(g, f"{b.name}.{rate}", state, 1 / S, el)
        _edge(g, state, f"{b.name}.{co}", 1 / c, el)
    else:  # derivative causality: the co-energy comes in, the rate goes out
        _edge(g, f"{b.name}.{co}", state, c, el)
        _edge(g, state, f"{b.name}.{rate}", S, el)


def _resistor(g: nx.DiGraph, el: Element, bonds: list[Bond], gives: dict[str, bool]) -> None:
    (b,) = bonds
    r = el.params["r"]
    if gives[b.name]:
        _edge(g, f"{b.name}.f", f"{b.name}.e", r, el)
    else:
        _edge(g, f"{b.name}.e", f"{b.name}.f", 1 / r, el)


def _junction(g: nx.DiGraph, el: Element, bonds: list[Bond], gives: dict[str, bool]) -> None:
    zero = el.kind == "0"
    # 0: the strong bond brings the effort in; 1: the junction gives the effort back on it
    strong = [b for b in bonds if gives[b.name] != zero]
    if len(strong) != 1:
        raise _conflict(el, f"{len(strong)} bonds impose the common "
                        f"{'effort' if zero else 'flow'} (exactly one must)")
    k = strong[0]
    sign = {b.name: 1 if b.head == el.name else -1 for b in bonds}
    shared, summed = ("e", "f") if zero else ("f", "e")
    for b in bonds:
        if b is not k:
            _edge(g, f"{k.name}.{shared}", f"{b.name}.{shared}", 1, el)
            _edge(g, f"{b.name}.{summed}", f"{k.name}.{summed}", -sign[b.name] * sign[k.name], el)


def _two_port(g: nx.DiGraph, el: Element, bonds: list[Bond], gives: dict[str, bool]) -> None:
    a, b = (bonds[0], bonds[1]) if bonds[0].head == el.name else (bonds[1], bonds[0])
    m = el.params["ratio"]
    ea, fa, eb, fb = (f"{a.name}.e", f"{a.name}.f", f"{b.name}.e", f"{b.name}.f")
    if el.kind == "TF":  # e_a = m e_b, f_b = m f_a
        if gives[a.name] == gives[b.name]:
            raise _conflict(el, "a TF passes the effort through, but it gives (or takes) "
                            "both efforts")
        if gives[b.name]:
            _edge(g, ea, eb, 1 / m, el)
            _edge(g, fb, fa, 1 / m, el)
        else:
            _edge(g, eb, ea, m, el)
            _edge(g, fa, fb, m, el)
        return
    # GY: e_b = r f_a, e_a = r f_b
    if gives[a.name] != gives[b.name]:
        raise _conflict(el, "a GY takes both flows or both efforts, not one of each")
    if gives[a.name]:
        _edge(g, fa, eb, m, el)
        _edge(g, fb, ea, m, el)
    else:
        _edge(g, eb, fa, 1 / m, el)
        _edge(g, ea, fb, 1 / m, el)


_LAWS = {"Se": _source, "Sf": _source, "C": _storage, "I": _storage, "R": _resistor,
         "0": _junction, "1": _junction, "TF": _two_port, "GY": _two_port}
