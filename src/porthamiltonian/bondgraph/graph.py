"""The bond-graph model: elements, bonds, and the structural checks.

Conventions (docs/design.md)
----------------------------
* A bond ``tail → head`` carries a flow ``f`` and an effort ``e``; ``e f`` is the
  power flowing from tail to head.  Bonds point *into* C, I, R and *out of* Se, Sf.
* A TF/GY has exactly one bond in (bond 1) and one out (bond 2):
  TF ``e1 = m e2``, ``f2 = m f1``; GY ``e1 = r f2``, ``e2 = r f1``.
* C: state ``q`` (displacement), ``f = q̇``, ``e = ∂H/∂q``; linear ``H = q²/(2c)``.
  I: state ``p`` (momentum), ``e = ṗ``, ``f = ∂H/∂p``; linear ``H = p²/(2i)``.
  R: ``e = r f`` (Onsager form for multi-bonds: ``r`` symmetric ⪰ 0).
* Multi-bond elements (``dim = k``) have vector variables and ``k×k`` matrix
  parameters; their states are named ``C1[0]`` … ``C1[k-1]``.

Modulated elements (MTF, MGY, MR, MSe, MSf) are the same elements whose parameters
(ratio, resistance) may depend on storage states; the type names are kept for the
reader's sake.
"""

from __future__ import annotations

import itertools
import operator
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError
from ..naming import expand, parameter_values, qualified_state
from .switched import SWITCHED, switch_problems

STORAGE = ("C", "I")
SOURCES = ("Se", "Sf", "MSe", "MSf")
RESISTORS = ("R", "MR")
TWO_PORTS = ("TF", "GY", "MTF", "MGY")
JUNCTIONS = ("0", "1")
#: chemical elements (docs/bondgraphs-chemical.md): Ce, a species (a C storage whose
#: energy is the Gibbs energy of an ideal solute), and Re, a mass-action reaction (a
#: two-port resistor between the forward and the backward affinity)
CHEMICAL = ("Ce", "Re")
# SWITCHED ("0s", "1s", from .switched; docs/bondgraphs-simplify.md): a 0- or 1-junction
# whose ``switched`` bonds are connected while the signal ``switch`` is 1 and cut at 0
ONE_PORTS = STORAGE + SOURCES + RESISTORS
TYPES = ONE_PORTS + TWO_PORTS + JUNCTIONS + CHEMICAL + SWITCHED

#: the parameters a Ce element accepts (``mu0`` or ``K``; ``RT``; ``V``, ``c0``) and
#: an Re element (``kappa``, ``RT``)
CE_KEYS = ("mu0", "K", "RT", "V", "c0")
RE_KEYS = ("kappa", "RT")


_BASE = {"MTF": "TF", "MGY": "GY", "MR": "R", "MSe": "Se", "MSf": "Sf", "Ce": "C",
         "0s": "0", "1s": "1"}


def base_type(kind: str) -> str:
    """``MTF`` → ``TF`` etc.: the modulated element behaves like its base element."""
    return _BASE.get(kind, kind)


@dataclass
class Element:
    """One bond-graph element.

    ``params`` holds SymPy values: ``c`` / ``i`` (compliance / inertia),
    ``hamiltonian`` (energy in the element's own state symbols), ``r``
    (resistance), ``ratio`` (TF modulus or GY ratio); scalars for ``dim = 1``,
    ``dim×dim`` matrices otherwise.
    """

    name: str
    type: str
    dim: int = 1
    params: dict[str, Any] = field(default_factory=dict)
    line: int | None = None
    #: declared energy domain: a name, or (bond-1 side, bond-2 side) of a TF/GY; None:
    #: propagated from the neighbours (:mod:`.domains`)
    domain: Any = None
    #: the default domain of the graph this element was included from (:meth:`BondGraph.include`)
    fallback_domain: str | None = None
    #: the state's base name when it is not the element's: ``La.p`` for a storage ``La``
    #: when a parameter is also called ``La`` (set by :meth:`BondGraph.state_names`;
    #: docs/model-files.md, "Names")
    state: str | None = None

    #: the base type (``MTF`` → ``TF``, :func:`base_type`), set once: generation asks it
    #: ~10⁶ times on a 10⁴-section graph, and no code changes an element's type
    kind: str = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.kind = _BASE.get(self.type, self.type)

    @property
    def states(self) -> list[str]:
        return expand(self.state or self.name, self.dim) if self.kind in STORAGE else []

    def where(self) -> str:
        at = f" at line {self.line}" if self.line else ""
        return f"element {self.name!r} ({self.type}){at}"


@dataclass
class Bond:
    """A (multi-)bond from ``tail`` to ``head`` (the half-arrow's direction)."""

    tail: str
    head: str
    name: str
    dim: int = 1
    line: int | None = None

    def ports(self) -> list[str]:
        """Scalar port names of the bond's variables (``b3`` or ``b3[0]``…)."""
        return expand(self.name, self.dim)

    def where(self) -> str:
        return f"bond {self.name} ({self.tail} → {self.head})" + (
            f" at line {self.line}" if self.line else "")


class BondGraph:
    """A single- or multi-bond graph.

    >>> bg = BondGraph("series-rlc", parameters={"R": 10, "L": 0.1, "C": 1e-3})
    >>> bg.add("u", "Se"); bg.add("j", "1")
    >>> bg.add("R1", "R", r="R"); bg.add("C1", "C", c="C"); bg.add("L1", "I", i="L")
    >>> bg.connect("u", "j"); bg.connect("j", "R1"); bg.connect("j", "C1"); bg.connect("j", "L1")

    String parameters are read with the safe expression parser, in the names of the
    parameters and (for ``hamiltonian``) the element's own states, (for ``ratio`` and
    ``r``) any storage state.

    A bond graph is a *builder*: elements, bonds and :attr:`parameters` (a plain dict)
    may change until the model is generated.  What generation returns
    (:func:`~porthamiltonian.bondgraph.to_phs`, :func:`~porthamiltonian.bondgraph.to_descriptor`)
    is an immutable model holding its own copy of the values; nothing generated is cached
    on the graph, so the next generation always sees the current values and an earlier
    model keeps its own (docs/bondgraphs.md).  :meth:`with_parameters` returns a copy of
    the graph with other values, leaving this one as it is.
    """

    def __init__(self, name: str = "bondgraph", parameters: Mapping[str, Any] | None = None,
                 domain: str | None = None):
        self.name = name
        #: default energy domain of the bonds no element declaration reaches (:mod:`.domains`)
        self.domain = domain
        self.parameters: dict[str, Any] = dict(parameters or {})
        self.elements: dict[str, Element] = {}
        self.bonds: list[Bond] = []
        self._pending: dict[str, dict[str, Any]] = {}
        self._bond_names: set[str] = set()
        self._adjacent: dict[str, list[Bond]] = {}  # element → its bonds, in order
        self._indexed = 0  # number of bonds in _adjacent
        self.ports: dict[str, str] = {}  # exposed port → junction (for use as a sub-graph)
        self._aliases: dict[str, str] = {}  # "sub.port" → "sub.junction" of included graphs
        #: included sub-graphs: instance name → the included graph's name (:meth:`include`;
        #: the word bond graph, :mod:`.word`, draws one box per entry)
        self.subgraphs: dict[str, str] = {}

    # ------------------------------------------------------------------ building
    def add(self, name: str, type: str, *, dim: int = 1, domain: Any = None,  # noqa: A002
            **params: Any) -> Element:
        """Add an element; parameters as numbers, SymPy objects or expression text.

        ``domain``: its energy domain (``"electrical"``, …; a TF/GY may give two, the
        sides of its bond 1 and bond 2), propagated to its neighbours (:mod:`.domains`).
        """
        type = str(type)  # noqa: A001 - YAML may give 0/1 as integers
        if type not in TYPES:
            raise ModelError(
                f"element {name!r}: unknown type {type!r}; use one of {', '.join(TYPES)}"
            )
        if name in self.elements:
            raise ModelError(f"element {name!r} is defined twice; element names must be unique")
        if not isinstance(dim, int) or dim < 1:
            raise ModelError(f"element {name!r}: dim must be a positive integer, got {dim!r}")
        if type in CHEMICAL:
            domain = "chemical" if domain is None else domain
            bad = sorted(set(params) - set(CE_KEYS if type == "Ce" else RE_KEYS))
            if bad:
                raise ModelError(
                    f"element {name!r} ({type}): unknown parameter(s) {', '.join(bad)}; a "
                    f"{type} takes {', '.join(CE_KEYS if type == 'Ce' else RE_KEYS)}")
            if dim != 1:
                raise ModelError(f"element {name!r} ({type}): chemical elements are "
                                 "scalar (dim 1); add one Ce per species, one Re per reaction")
        el = Element(name, type, dim, domain=domain)
        self.elements[name] = el
        self._pending[name] = params
        return el

    def connect(self, tail: str, head: str, name: str | None = None, *,
                line: int | None = None) -> Bond:
        """Add a bond ``tail → head`` (the direction of positive power).

        An end may name an element or a port of an included sub-graph (``"motor.shaft"``).
        """
        tail, head = self._aliases.get(tail, tail), self._aliases.get(head, head)
        for end in (tail, head):
            if end not in self.elements:
                raise ModelError(
                    f"bond {tail} → {head}: unknown element {end!r}; elements are: "
                    f"{', '.join(self.elements)}"
                )
        bname = name or f"b{len(self.bonds) + 1}"
        if bname in self._bond_names:
            raise ModelError(f"two bonds are named {bname!r}; bond names must be unique")
        dims = {self.elements[tail].dim, self.elements[head].dim} - {1}
        t_el, h_el = self.elements[tail], self.elements[head]
        dim = max(t_el.dim, h_el.dim)
        # the element names themselves (the dict keys): look-ups by bond end then
        # compare by identity, not by content (the checks make 10⁶ of them on a ladder)
        bond = Bond(t_el.name, h_el.name, bname, dim, line)
        self.bonds.append(bond)
        self._bond_names.add(bname)
        if self._indexed == len(self.bonds) - 1:
            self._indexed += 1
            for end in {tail, head}:
                self._adjacent.setdefault(end, []).append(bond)
        if len(dims) > 1 or (t_el.kind not in JUNCTIONS and h_el.kind not in JUNCTIONS
                             and t_el.dim != h_el.dim):
            raise ModelError(
                f"{bond.where()}: dimensions disagree ({tail} has dim {t_el.dim}, {head} has "
                f"dim {h_el.dim}); a multi-bond joins elements of the same dimension"
            )
        return bond

    # ------------------------------------------------------------------ hierarchy
    def expose(self, port: str, junction: str) -> None:
        """Offer the 0- or 1-junction ``junction`` as the power port ``port``.

        A graph that includes this one (:meth:`include`) connects bonds to
        ``"<name>.<port>"``; they attach to the junction (a 0-junction port shares its
        effort, a 1-junction port its flow).
        """
        el = self.elements.get(junction)
        if el is None or el.kind not in JUNCTIONS:
            what = "no such element" if el is None else f"a {el.type} element"
            raise ModelError(
                f"port {port!r} of {self.name!r}: {junction!r} is {what}; expose a 0- or "
                "1-junction (add one between the element and the outside if needed)")
        if port in self.ports:
            raise ModelError(f"{self.name!r} already exposes a port {port!r}")
        self.ports[port] = junction

    def include(self, name: str, sub: BondGraph) -> None:
        """Copy the graph ``sub`` in as a sub-graph called ``name``.

        Its elements, states and bonds are renamed ``name.<original>`` (a storage
        ``La`` of ``motor`` becomes the state ``motor.La``); its exposed ports are
        reachable as ``name.<port>`` in :meth:`connect`.  Its parameters join this
        graph's; one name with two different values is an error.
        """
        from ..expr import state_symbol

        sub.resolve()
        for key, value in sub.parameters.items():
            mine = self.parameters.get(key, value)
            if mine != value:
                raise ModelError(
                    f"sub-graph {name!r}: parameter {key!r} = {value!r} clashes with "
                    f"{key!r} = {mine!r} here; give one of them another name")
            self.parameters[key] = value
        renamed = {state_symbol(s): state_symbol(f"{name}.{s}") for s in sub.state_names()}
        for el in sub.elements.values():
            new = self.add(f"{name}.{el.name}", el.type, dim=el.dim, domain=el.domain)
            new.line = el.line
            new.state = None if el.state is None else f"{name}.{el.state}"
            new.fallback_domain = el.fallback_domain or sub.domain
            new.params = {k: (v.xreplace(renamed) if hasattr(v, "xreplace") else v)
                          for k, v in el.params.items()}
            if "switched" in new.params:  # a switched junction names its neighbours
                new.params["switched"] = tuple(f"{name}.{n}" for n in new.params["switched"])
            self._pending.pop(new.name, None)
        for alias, target in sub._aliases.items():
            self._aliases[f"{name}.{alias}"] = f"{name}.{target}"
        for b in sub.bonds:
            self.connect(f"{name}.{b.tail}", f"{name}.{b.head}", f"{name}.{b.name}",
                         line=b.line)
        for port, junction in sub.ports.items():
            self._aliases[f"{name}.{port}"] = f"{name}.{junction}"
        self.subgraphs[name] = sub.name

    # ------------------------------------------------------------------ queries
    def bonds_of(self, name: str) -> list[Bond]:
        """The bonds at an element, in the order they were added."""
        return list(self.bonds_at(name))

    def bonds_at(self, name: str) -> tuple[Bond, ...] | list[Bond]:
        """:meth:`bonds_of` without the copy, for readers that do not change it (the
        generator asks for 10⁵ of them on a large graph)."""
        if self._indexed != len(self.bonds):  # bonds were appended to the list directly
            self._indexed = len(self.bonds)
            self._adjacent = {}
            for b in self.bonds:
                for end in {b.tail, b.head}:
                    self._adjacent.setdefault(end, []).append(b)
        return self._adjacent.get(name, ())

    def storages(self) -> list[Element]:
        return [e for e in self.elements.values() if e.kind in STORAGE]

    def sources(self) -> list[Element]:
        return [e for e in self.elements.values() if e.kind in ("Se", "Sf")]

    def resistors(self) -> list[Element]:
        return [e for e in self.elements.values() if e.kind == "R"]

    def reactions(self) -> list[Element]:
        """The Re elements (mass-action reactions, :mod:`.reactions`)."""
        return [e for e in self.elements.values() if e.kind == "Re"]

    def state_names(self) -> list[str]:
        self._name_states()
        # Element.states inlined: a 10⁵-section ladder has 2·10⁵ storages
        out: list[str] = []
        for el in self.elements.values():
            if el.kind in STORAGE:
                if el.dim == 1:
                    out.append(el.state or el.name)
                else:
                    out += expand(el.state or el.name, el.dim)
        return out

    def _name_states(self) -> None:
        """A storage named like a parameter has the qualified state ``La.p`` / ``C1.q``
        (:func:`~porthamiltonian.naming.qualified_state`), so the parameter ``La`` and the
        state stay two names: element fields read the parameter, the state is written
        qualified.  A state once qualified stays so (an included graph's ``sub.La.p``)."""
        elements = self.elements
        for name in self.parameters:  # fewer than the elements, often by far
            el = elements.get(name)
            if el is not None and el.state is None and el.kind in STORAGE:
                el.state = qualified_state(el.name, el.kind)

    # ------------------------------------------------------------------ parameters
    def resolve(self) -> None:
        """Parse pending parameters into SymPy (states and parameters as symbols)."""
        from ..expr import parameter_symbol, parse_expression, state_symbol

        params = {p: parameter_symbol(p, v) for p, v in self.parameters.items()}
        # a state's symbol is made when an expression names it: a 10⁴-section ladder's
        # values name parameters only
        with_states = _StateNames(params, self.state_names(), state_symbol)
        # a ladder repeats "R" thousands of times: one parse per text, per kind of name
        # it may use (parameters only, or also states: a modulated ratio or resistance)
        parsed: dict[bool, dict[str, Any]] = {False: {}, True: {}}
        elements = self.elements
        for name, raw in self._pending.items():
            el = elements[name]
            for key, value in raw.items():
                if key == "switched":  # names of neighbours or bonds, not an expression
                    el.params[key] = (value,) if isinstance(value, str) else tuple(value)
                    continue
                if key == "hamiltonian":
                    names = {**params, **{s: with_states[s] for s in el.states}}
                    el.params[key] = _parse_value(value, names, el, key, parse_expression)
                    _check_energy(el, self.parameters)
                    continue
                modulated = key == "ratio" or key == "r"
                if isinstance(value, str):
                    memo = parsed[modulated]
                    got = memo.get(value)
                    if got is None:
                        got = memo[value] = _parse_value(value, with_states if modulated
                                                         else params, el, key, parse_expression)
                    el.params[key] = got
                    continue
                el.params[key] = _parse_value(value, with_states if modulated else params,
                                              el, key, parse_expression)
        # emptied at the end (a parse that raised leaves the texts to parse again: the
        # same values)
        self._pending.clear()
        for el in self.elements.values():
            if el.type == "Ce" and "hamiltonian" not in el.params:
                _species_energy(el)

    def with_values(self) -> BondGraph:
        """A copy with every parameter value substituted (for numeric generation)."""
        import copy

        self.resolve()
        missing = [k for k, v in self.parameters.items() if v is None]
        if missing:
            raise ModelError(
                f"numeric generation needs values for the parameters {', '.join(missing)}; "
                "give them, or generate symbolically"
            )
        distinct = {id(v): v for el in self.elements.values() for v in el.params.values()}
        values = {sym: sp.sympify(self.parameters[sym.name]) for v in distinct.values()
                  for sym in getattr(v, "free_symbols", ()) if sym.name in self.parameters}
        new = copy.copy(self)
        new.elements = {}
        done: dict[Any, Any] = {}  # one substitution per distinct parameter expression
        for name, el in self.elements.items():
            params = {}
            for k, v in el.params.items():
                if not hasattr(v, "xreplace"):
                    params[k] = v
                elif not isinstance(v, sp.Basic):  # a mutable Matrix: not hashable
                    params[k] = v.xreplace(values)
                elif v in done:
                    params[k] = done[v]
                else:
                    params[k] = done[v] = v.xreplace(values)
            # not dataclasses.replace or copy.copy: a new instance of the same fields,
            # several times faster on 10⁵ elements
            twin = object.__new__(Element)
            twin.__dict__.update(el.__dict__)
            twin.params = params
            new.elements[name] = twin
        return new

    def with_parameters(self, values: Mapping[str, Any] | None = None, /,
                        **kw: Any) -> BondGraph:
        """A copy of the graph with some parameter values replaced; this graph is unchanged.

        ``values`` (a mapping) and keywords are merged, keywords last; ``None`` leaves a
        parameter symbolic.  Raises :class:`ModelError` for a name that is not one of the
        graph's :attr:`parameters`, listing them.
        """
        values = parameter_values(values, kw, self.parameters, "the bond graph")
        new = self._copy()
        new.parameters.update(values)
        return new

    def _copy(self) -> BondGraph:
        """An independent copy: its own containers and elements (bonds, immutable in
        use, are shared), so building on the copy leaves this graph as it is."""
        import copy
        from dataclasses import replace

        new = copy.copy(self)
        new.parameters = dict(self.parameters)
        new.elements = {k: replace(el, params=dict(el.params))
                        for k, el in self.elements.items()}
        new.bonds = list(self.bonds)
        new._pending = {k: dict(v) for k, v in self._pending.items()}
        new._bond_names = set(self._bond_names)
        new._adjacent = {k: list(v) for k, v in self._adjacent.items()}
        new.ports = dict(self.ports)
        new._aliases = dict(self._aliases)
        new.subgraphs = dict(self.subgraphs)
        return new

    # ------------------------------------------------------------------ checks
    def check(self) -> None:
        """Structural checks; raises one :class:`ModelError` listing every violation."""
        self.resolve()
        problems = list(self.problems())
        if problems:
            raise ModelError(problems[0] if len(problems) == 1 else
                             f"{len(problems)} problems: " + "; ".join(problems),
                             problems=problems)

    def problems(self) -> Iterable[str]:
        """Every structural violation, in words naming the element or bond and the fix."""
        if not self.elements:
            yield "the bond graph has no elements"
            return
        names = list(self.elements)
        ends = self.bond_ends()
        parts = _components(names, ends)
        if len(parts) > 1:
            parts.sort(key=len, reverse=True)
            rest = sorted(n for p in parts[1:] for n in p)
            yield (f"the graph is not connected: {', '.join(rest)} are not linked to "
                   f"{', '.join(sorted(parts[0])[:5])}…; add the missing bonds")
        elements = list(self.elements.values())
        for i in _suspects(elements, ends):
            yield from self._element_problems(elements[i])
        storages = [el for el in elements if el.kind in STORAGE]
        states = [s for el in storages for s in el.states]
        if len(set(states)) == len(states) and not any(
                el.state is not None and "hamiltonian" in el.params for el in storages):
            storages = []  # no two storages share a state, no energy to look at
        seen: dict[str, str] = {}
        for el in storages:
            for s in el.states:
                if s in seen:
                    yield (f"{el.where()} and element {seen[s]!r} both have the state {s!r}; "
                           "rename one of them")
                seen.setdefault(s, el.name)
            energy = el.params.get("hamiltonian")
            if el.state is not None and energy is not None and not (
                    getattr(energy, "free_symbols", set())
                    & {sp.Symbol(s, real=True) for s in el.states}):
                yield (f"{el.where()}: its hamiltonian does not depend on its state; "
                       f"{el.name!r} alone is the parameter {el.name}, the state is written "
                       f"{el.states[0]!r}")
        for i in np.flatnonzero(ends[:, 0] == ends[:, 1]).tolist():
            yield f"{self.bonds[i].where()} joins an element to itself"

    def _element_problems(self, el: Element) -> Iterable[str]:
        """What is wrong with one element (:meth:`problems`)."""
        bonds = self.bonds_at(el.name)
        k = el.kind
        if k in ("C", "I", "R", "Se", "Sf") and len(bonds) != 1:
            yield (f"{el.where()} has {len(bonds)} bonds; a {el.type} element has exactly "
                   "one (join several through a 0- or 1-junction)")
            return
        if k in ("C", "I", "R") and bonds[0].head != el.name:
            yield (f"{bonds[0].where()} points out of {el.type} element {el.name!r}; bonds "
                   f"point into C, I and R elements: write [{bonds[0].head}, {el.name}]")
        if k in ("Se", "Sf") and bonds[0].tail != el.name:
            yield (f"{bonds[0].where()} points into source {el.name!r}; bonds point out of "
                   f"Se and Sf: write [{el.name}, {bonds[0].tail}]")
        if k in JUNCTIONS and len(bonds) < 2:
            yield f"{el.where()} has {len(bonds)} bond(s); a junction needs at least two"
        if k in ("TF", "GY"):
            ins = [b for b in bonds if b.head == el.name]
            outs = [b for b in bonds if b.tail == el.name]
            if len(ins) != 1 or len(outs) != 1:
                yield (f"{el.where()} has {len(ins)} bond(s) in and {len(outs)} out; a "
                       f"{el.type} has exactly one bond in and one out")
        if k in ("C", "I") and el.type != "Ce" and not (
                {"c", "i", "hamiltonian"} & set(el.params)):
            yield (f"{el.where()} has no constitutive law; give "
                   f"{'c' if k == 'C' else 'i'}: or hamiltonian:")
        if k == "R" and "r" not in el.params:
            yield f"{el.where()} has no resistance; give r:"
        if k in ("TF", "GY") and "ratio" not in el.params:
            yield f"{el.where()} has no ratio; give ratio:"
        if el.type in CHEMICAL:
            yield from _chemical_problems(self, el, bonds)
        if el.type in SWITCHED and len(bonds) >= 2:
            yield from switch_problems(self, el, bonds)
    def bond_ends(self) -> np.ndarray:
        """The (tail, head) of every bond as positions in :attr:`elements`, an
        ``(n_bonds, 2)`` integer array; kept while the elements and bonds stay the same
        (the checks and numeric generation read it on graphs of 10⁵ bonds)."""
        names, bonds = list(self.elements), self.bonds
        cached = getattr(self, "_ends", None)
        if cached is not None:
            was_names, was_bonds, ends = cached
            if (len(was_bonds) == len(bonds) and was_names == names
                    and all(map(operator.is_, was_bonds, bonds))):
                return ends
        ends = _positions(names, bonds).reshape(2, -1).T.copy()
        ends.flags.writeable = False
        self._ends = (names, list(bonds), ends)
        return ends

    # ------------------------------------------------------------------ I/O
    @classmethod
    def from_model(cls, model: Any, *, storage_check: bool = True) -> BondGraph:
        """From a loaded model file (:func:`porthamiltonian.io.load_model`); its
        ``include:`` sub-graphs included and its ``ports:`` exposed
        (:mod:`.model_include`).  ``storage_check``: warn about non-convex energies."""
        from .model_include import add_includes, expose_ports

        section = model.section
        bg = cls(model.name, parameters=model.parameter_settings(),
                 domain=section.get("domain"))
        for e in section["elements"]:
            el = bg.add(e["name"], str(e["type"]), dim=int(e.get("dim", 1)),
                        domain=e.get("domain"))
            el.line = e.get("line")
            for key in ("c", "i", "r", "ratio", "hamiltonian", *CE_KEYS, *RE_KEYS,
                        "switch", "switched"):
                if key in e:
                    el.params[key] = e[key]
            bg._pending.pop(e["name"], None)
        add_includes(bg, section)
        for b in section["bonds"]:
            bg.connect(b["from"], b["to"], b.get("name"), line=b.get("line"))
        expose_ports(bg, section)
        if storage_check:
            from ..energy.storage_check import check_graph_storages  # warns: non-convex H

            check_graph_storages(bg, values=model.parameter_values(),
                                 initial=(model.simulate or {}).get("initial"))
        return bg


class _StateNames(Mapping[str, Any]):
    """The names an element value may use: the parameters' symbols and the states',
    a state's symbol made on first look-up (a state named like a parameter wins)."""

    def __init__(self, params: dict[str, Any], states: list[str],
                 symbol: Any) -> None:
        self._params, self._states, self._symbol = params, dict.fromkeys(states), symbol

    def __getitem__(self, name: str) -> Any:
        if name in self._states:
            return self._symbol(name)
        return self._params[name]

    def __contains__(self, name: object) -> bool:
        return name in self._states or name in self._params

    def __iter__(self) -> Iterator[str]:
        yield from self._params
        yield from (s for s in self._states if s not in self._params)

    def __len__(self) -> int:
        return len(self._params) + sum(s not in self._params for s in self._states)


_TAIL, _HEAD = operator.attrgetter("tail"), operator.attrgetter("head")


def _positions(names: list[str], bonds: list[Bond]) -> np.ndarray:
    """The positions in ``names`` of the bonds' tails, then of their heads.

    :meth:`BondGraph.connect` gives a bond the element's own name object, so most ends
    are found by object identity — a sorted array of ``id``s, no hashing (a dictionary
    of 5·10⁵ names and 10⁶ look-ups took most of a ladder's checks); the others (equal
    text, another object) by a dictionary."""
    n = len(bonds)
    key = np.fromiter(map(id, names), np.int64, count=len(names))
    order = np.argsort(key)
    key = key[order]
    want = np.fromiter(map(id, itertools.chain(map(_TAIL, bonds), map(_HEAD, bonds))),
                       np.int64, count=2 * n)
    if not len(key):
        return np.zeros(2 * n, dtype=np.int64)
    at = np.minimum(np.searchsorted(key, want), len(key) - 1)
    out = order[at]
    missed = np.flatnonzero(key[at] != want)
    if missed.size:
        index = {name: i for i, name in enumerate(names)}
        out[missed] = [index[bonds[i].tail if i < n else bonds[i - n].head]
                       for i in missed.tolist()]
    return out


#: element types whose bonds and laws :func:`_suspects` judges from arrays: one-ports
#: 0–4, two-ports 5–6, junctions 7–8; the others are always looked at
_CODE = {"C": 0, "I": 1, "R": 2, "MR": 2, "Se": 3, "MSe": 3, "Sf": 4, "MSf": 4, "TF": 5,
         "MTF": 5, "GY": 6, "MGY": 6, "0": 7, "1": 8}
#: the parameters one of which a type needs (its constitutive law)
_LAW = {"C": ("c", "i", "hamiltonian"), "I": ("c", "i", "hamiltonian"), "R": ("r",),
        "MR": ("r",), "TF": ("ratio",), "MTF": ("ratio",), "GY": ("ratio",),
        "MGY": ("ratio",)}


def _suspects(elements: list[Element], ends: np.ndarray) -> list[int]:
    """The positions of the elements :meth:`BondGraph._element_problems` must look at,
    in order: a wrong number or direction of bonds, a missing law, or a type whose
    checks need the element itself (chemical, switched).  One pass over the elements
    and array counts instead of the per-element checks on every element."""
    n = len(elements)
    code = np.fromiter((_CODE.get(el.type, 9) for el in elements), np.int64, count=n)
    tail, head = ends[:, 0], ends[:, 1]
    ins = np.bincount(head, minlength=n)
    outs = np.bincount(tail, minlength=n)
    degree = outs + np.bincount(head[head != tail], minlength=n)  # a bond counts once
    bad = code == 9
    bad |= (code <= 4) & (degree != 1)
    bad |= (code <= 2) & (ins != 1)
    bad |= ((code == 3) | (code == 4)) & (outs != 1)
    bad |= (code >= 7) & (code <= 8) & (degree < 2)
    bad |= ((code == 5) | (code == 6)) & ((ins != 1) | (outs != 1))
    law = _LAW.get
    lawless = [i for i, el in enumerate(elements)
               if (keys := law(el.type)) is not None and el.params.keys().isdisjoint(keys)]
    bad[lawless] = True
    return np.flatnonzero(bad).tolist()


def _components(names: list[str], ends: np.ndarray) -> list[list[str]]:
    """Connected components (SciPy's breadth-first search on the element graph)."""
    from scipy.sparse import coo_matrix
    from scipy.sparse.csgraph import connected_components

    graph = coo_matrix((np.ones(len(ends)), (ends[:, 0], ends[:, 1])),
                       shape=(len(names), len(names)))
    count, label = connected_components(graph, directed=False)
    if count == 1:
        return [names]
    groups: list[list[str]] = [[] for _ in range(count)]
    for name, k in zip(names, label.tolist(), strict=True):
        groups[k].append(name)
    return groups


def _species_energy(el: Element) -> None:
    r"""Give a Ce element its energy (J): the Gibbs energy of an ideal solute,

    .. math::  H(n) = n\big(\mu^\circ + RT(\ln\tfrac{n}{V c^\circ} - 1)\big),
        \qquad \mu = \partial H/\partial n = \mu^\circ + RT\ln\tfrac{n}{V c^\circ},

    (:func:`porthamiltonian.thermo.reactions.laws.gibbs_energy_sym`).  BondGraphTools'
    parameter ``K`` (:math:`\mu = RT\ln(K n)`) stands for
    :math:`\mu^\circ = RT\ln(K V c^\circ)`.  Missing parameters are left to
    :func:`_chemical_problems`, which names them.
    """
    from ..expr import state_symbol
    from ..thermo.reactions.laws import gibbs_energy_sym

    p = el.params
    if "RT" not in p or ("mu0" in p) == ("K" in p):
        return
    V, c0 = p.get("V", sp.Integer(1)), p.get("c0", sp.Integer(1))
    mu0 = p["mu0"] if "mu0" in p else p["RT"] * sp.log(p["K"] * V * c0)
    n = state_symbol(el.states[0])
    p["hamiltonian"] = gibbs_energy_sym([n], [mu0], p["RT"], V, c0)


def _chemical_problems(bg: BondGraph, el: Element, bonds: list[Bond]) -> Iterable[str]:
    """What is wrong with a Ce or Re element, in words with the fix."""
    p = el.params
    if el.type == "Ce":
        if "RT" not in p:
            yield f"{el.where()} has no RT; give RT: (J/mol, 8.314*T at temperature T)"
        if ("mu0" in p) == ("K" in p):
            yield (f"{el.where()}: give exactly one of mu0: (standard chemical potential, "
                   "J/mol) or K: (BondGraphTools' species constant, mu = RT ln(K n))")
        keys = ("K", "RT", "V", "c0")
    else:
        for key, what in (("kappa", "the reaction constant, mol/s"), ("RT", "J/mol")):
            if key not in p:
                yield f"{el.where()} has no {key}; give {key}: ({what})"
        ins = [b for b in bonds if b.head == el.name]
        outs = [b for b in bonds if b.tail == el.name]
        if len(ins) != 1 or len(outs) != 1:
            yield (f"{el.where()} has {len(ins)} bond(s) in and {len(outs)} out; a reaction "
                   "has exactly one bond in, from its reactants' 1-junction (the forward "
                   "affinity), and one bond out, to its products' 1-junction (the backward "
                   "affinity): write [reactants, " f"{el.name}] and [{el.name}, products]")
        keys = ("kappa", "RT")
    for key in keys:
        v = p.get(key)
        value = bg.parameters.get(str(v)) if isinstance(v, sp.Symbol) else v
        if value is not None and getattr(sp.sympify(value), "is_number", False) \
                and not sp.sympify(value).is_positive:
            yield f"{el.where()}: {key} must be positive, got {value}"


def _check_energy(el: Element, values: Mapping[str, Any]) -> None:
    """A user energy not convex at rest warns (:mod:`porthamiltonian.energy.storage_check`)."""
    from ..energy.storage_check import check_storage_law

    if el.type != "Ce":
        check_storage_law(el.params["hamiltonian"], el.states, values=values, where=el.where())


def _parse_value(value: Any, names: dict, el: Element, key: str, parse: Any) -> Any:
    where = f"{el.name}.{key}"
    if isinstance(value, (sp.Basic, sp.MatrixBase)):
        return value
    if isinstance(value, (list, tuple)):
        return sp.ImmutableMatrix([[parse(v, names, where=where) for v in row] for row in value])
    return parse(value, names, where=where)
