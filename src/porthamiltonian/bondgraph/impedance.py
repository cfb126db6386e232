r"""Impedance and admittance gains of bond-graph elements, and their composition.

Breedveld, Appendix A (Tables A.2–A.6) of Duindam et al., *Modeling and Control of
Complex Physical Systems* (Springer, 2009).  In the Laplace domain (:data:`S`, zero
initial state) a causal one-port is an operator from the variable it receives to the
one it gives:

* **impedance causality** — it receives the flow and gives the effort,
  :math:`e = Z(s) f`;
* **admittance causality** — it receives the effort and gives the flow,
  :math:`f = Y(s) e`, :math:`Y = 1/Z`.

=========  =============================  ============================
element    impedance causality (Z)          admittance causality (Y)
=========  =============================  ============================
C (``c``)  :math:`1/(c s)` — integral        :math:`c s` — derivative
I (``i``)  :math:`i s` — derivative          :math:`1/(i s)` — integral
R (``r``)  :math:`r` — resistance            :math:`1/r` — conductance
GY (``r``) flows in, efforts out: :math:`r`  efforts in, flows out: :math:`1/r`
TF (``m``) a *transmission*, not an immittance: :math:`m` from bond 2 to bond 1
           (effort in at bond 2), :math:`1/m` from bond 1 to bond 2
=========  =============================  ============================

(:func:`element_gains`; the causality is SCAP's, :func:`~.causality.analyze_causality`.)
Junction gains are ±1 (the half-arrows), in the signal-flow graph (:mod:`.signal_flow`).

Composition (Table A.6): the elements at a 1-junction share a flow, so their impedances
add (*series*); at a 0-junction they share an effort, so their admittances add
(*parallel*); a TF of modulus m seen from its bond 1 turns the impedance Z behind it
into :math:`m^2 Z` (from bond 2: :math:`Z/m^2`); a GY of ratio r into
:math:`r^2/Z` from either side.  :func:`port_impedance` reduces a tree-shaped graph this
way to the driving-point impedance seen by one of its one-ports, with the other
sources switched off (an Se is a short, :math:`Z = 0`; an Sf an open end,
:math:`Y = 0`).  The impedance is :math:`Z = e/f` with :math:`f` the flow *into the
rest of the graph* (power positive into it), so the transfer function of the
generated PHS from an Se ``V`` to its output ``V.i`` is :math:`1/Z`.

Limits: the graph must be LTI and scalar (:func:`~.signal_flow.require_lti`), and
reducible by series/parallel steps — a tree of bonds.  A loop of bonds (a bridge) is a
:class:`~porthamiltonian.ModelError`; use Mason's rule (:mod:`.mason_rule`) or the PHS's
transfer function there.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import networkx as nx
import sympy as sp

from ..errors import ModelError
from .causality import analyze_causality
from .graph import BondGraph
from .signal_flow import S, require_lti

__all__ = ["ElementGain", "element_gains", "port_impedance", "port_admittance",
           "series", "parallel", "transformed", "gyrated"]


@dataclass(frozen=True)
class ElementGain:
    """The causal gain of one element: ``kind`` is ``"impedance"`` (``e = gain·f``),
    ``"admittance"`` (``f = gain·e``) or, for a TF, ``"transmission"``; ``causality``
    in words (``"integral"``, ``"resistance"``, …)."""

    element: str
    kind: str
    gain: sp.Expr
    causality: str

    def __str__(self) -> str:
        letter = {"impedance": "Z", "admittance": "Y", "transmission": "T"}[self.kind]
        return f"{letter} = {sp.sstr(self.gain)}"


# ---------------------------------------------------------------------- rules
def series(*impedances: Any) -> sp.Expr:
    """Impedances on one 1-junction (a common flow) add."""
    return sp.Add(*impedances)


def parallel(*impedances: Any) -> sp.Expr:
    """Impedances on one 0-junction (a common effort): their admittances add."""
    return 1 / sp.Add(*[1 / sp.sympify(z) for z in impedances])


def transformed(z: Any, m: Any) -> sp.Expr:
    """The impedance ``z`` behind a TF of modulus ``m``, seen from its bond 1: m² z."""
    return m**2 * z


def gyrated(z: Any, r: Any) -> sp.Expr:
    """The impedance ``z`` behind a GY of ratio ``r``, seen from either side: r²/z."""
    return r**2 / z


# ---------------------------------------------------------------------- element gains
def element_gains(bg: BondGraph) -> dict[str, ElementGain]:
    """The causal gain of every C, I, R, TF and GY element (table in the module docstring).

    Raises :class:`ModelError` for a non-LTI graph (naming the element).
    """
    require_lti(bg)
    rep = analyze_causality(bg)
    out: dict[str, ElementGain] = {}
    for el in bg.elements.values():
        bonds = bg.bonds_of(el.name)
        gives = {b.name: rep.effort_from[b.name] == el.name for b in bonds}
        if el.kind in ("C", "I"):
            c = el.params["c" if el.kind == "C" else "i"]
            integral = gives[bonds[0].name] == (el.kind == "C")
            what = "integral" if integral else "derivative"
            if gives[bonds[0].name]:  # C integral or I derivative: flow in, effort out
                out[el.name] = ElementGain(el.name, "impedance",
                                           1 / (c * S) if el.kind == "C" else c * S, what)
            else:
                out[el.name] = ElementGain(el.name, "admittance",
                                           c * S if el.kind == "C" else 1 / (c * S), what)
        elif el.kind == "R":
            r = el.params["r"]
            out[el.name] = (ElementGain(el.name, "impedance", r, "resistance")
                            if gives[bonds[0].name]
                            else ElementGain(el.name, "admittance", 1 / r, "conductance"))
        elif el.kind in ("TF", "GY"):
            m = el.params["ratio"]
            a = next(b for b in bonds if b.head == el.name)
            if el.kind == "TF":
                # effort in at bond 1: e₂ = e₁/m; effort in at bond 2: e₁ = m e₂
                out[el.name] = (ElementGain(el.name, "transmission", m, "effort in at bond 2")
                                if gives[a.name] else
                                ElementGain(el.name, "transmission", 1 / m,
                                            "effort in at bond 1"))
            else:
                out[el.name] = (ElementGain(el.name, "impedance", m, "flows in")
                                if gives[a.name] else
                                ElementGain(el.name, "admittance", 1 / m, "efforts in"))
    return out


# ---------------------------------------------------------------------- composition
def port_impedance(bg: BondGraph, element: str) -> sp.Expr:
    """The impedance ``Z(s) = e/f`` the rest of ``bg`` presents at the one-port ``element``.

    ``f`` is the flow from the element into the rest of the graph; the other sources are
    switched off.  Composed by the series/parallel/TF/GY rules (module docstring),
    cancelled and factored.  Raises :class:`ModelError` for an unknown or multi-port
    element, a graph with a loop of bonds, a non-LTI graph, or an open port (infinite
    impedance: ask :func:`port_admittance`).
    """
    num, den = _compose(bg, element)
    if sp.cancel(den) == 0:
        raise ModelError(f"element {element!r} of {bg.name!r} sees an open end (the "
                         "impedance is infinite, e.g. a flow source in series); its "
                         "admittance port_admittance(bg, ...) is 0")
    return sp.factor(sp.cancel(num / den))


def port_admittance(bg: BondGraph, element: str) -> sp.Expr:
    """``Y(s) = f/e = 1/Z``, the dual of :func:`port_impedance` (same conventions)."""
    num, den = _compose(bg, element)
    if sp.cancel(num) == 0:
        raise ModelError(f"element {element!r} of {bg.name!r} sees a short (the "
                         "impedance is 0, e.g. an effort source in parallel); its "
                         "admittance is infinite")
    return sp.factor(sp.cancel(den / num))


def _compose(bg: BondGraph, element: str) -> tuple[sp.Expr, sp.Expr]:
    """Numerator and denominator of the port impedance (a pair, so that an open end
    ``1/0`` and a short ``0/1`` compose without infinities)."""
    require_lti(bg)
    el = bg.elements.get(element)
    if el is None or el.kind not in ("C", "I", "R", "Se", "Sf"):
        what = "no such element" if el is None else f"a {el.type} element"
        raise ModelError(f"{bg.name!r}: {element!r} is {what}; port_impedance needs a "
                         "one-port (Se, Sf, C, I, R): add an Se or Sf at the port you "
                         "want to look into")
    _require_tree(bg)
    (start,) = bg.bonds_of(element)
    # breadth-first from the port; each node is entered through one bond
    entered = {start.head if start.tail == element else start.tail: start}
    order = list(entered)
    for node in order:
        for b in bg.bonds_of(node):
            nxt = b.head if b.tail == node else b.tail
            if b is not entered[node]:
                entered[nxt] = b
                order.append(nxt)
    z: dict[str, tuple[sp.Expr, sp.Expr]] = {}
    for node in reversed(order):  # leaves first
        children = [z[b.head if b.tail == node else b.tail]
                    for b in bg.bonds_of(node) if b is not entered[node]]
        z[node] = _local(bg, node, entered[node], children)
    return z[order[0]]


def _local(bg: BondGraph, name: str, via: Any, children: list[tuple[sp.Expr, sp.Expr]]
           ) -> tuple[sp.Expr, sp.Expr]:
    """``(N, D)`` of the impedance ``N/D`` seen into ``name`` through the bond ``via``."""
    el = bg.elements[name]
    p = el.params
    leaf = {"C": lambda: (sp.Integer(1), p["c"] * S), "I": lambda: (p["i"] * S,
            sp.Integer(1)), "R": lambda: (p["r"], sp.Integer(1)),
            "Se": lambda: (sp.Integer(0), sp.Integer(1)),
            "Sf": lambda: (sp.Integer(1), sp.Integer(0))}
    if el.kind in leaf:
        return leaf[el.kind]()
    if el.kind in ("0", "1"):
        # series: Σ N/D = (Σ Nᵢ Πⱼ≠ᵢ Dⱼ)/Π D; parallel: the same on the admittances D/N
        pairs = children if el.kind == "1" else [(d, n) for n, d in children]
        num, den = sp.Integer(0), sp.Integer(1)
        for n, d in pairs:
            num, den = sp.expand(num * d + n * den), sp.expand(den * d)
        return (num, den) if el.kind == "1" else (den, num)
    (n, d), m = children[0], p["ratio"]
    if el.kind == "GY":
        return m**2 * d, n
    return (m**2 * n, d) if via.head == name else (n, m**2 * d)  # TF from bond 1 / bond 2


def _require_tree(bg: BondGraph) -> None:
    if len(bg.bonds) == len(bg.elements) - 1:
        return
    g = nx.MultiGraph()
    g.add_edges_from((b.tail, b.head) for b in bg.bonds)
    cycle = [a for a, *_ in nx.find_cycle(g)]
    raise ModelError(
        f"{bg.name!r} is not reducible by series/parallel steps: the bonds form a loop "
        f"through {', '.join(cycle)}; use mason(bg, source, output) or the transfer "
        "function of the generated PHS")
