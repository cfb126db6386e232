r"""Energy domains of a bond graph: declared on elements, propagated along the bonds.

A bond carries an effort and a flow of one energy domain (electrical: voltage and
current; rotational: torque and angular velocity; …, :data:`porthamiltonian.quantities.DOMAINS`).
The domain gives the storages' states and co-energies their physical names and SI
units (a C element holds a *displacement*, its co-energy is the *effort*; an I element
holds a *momentum*, its co-energy is the *flow*) and names the sources' outputs.

Declaration
-----------
* ``BondGraph(..., domain="electrical")`` (model file: ``bondgraph: {domain: ...}``):
  the default of every bond no declaration reaches;
* ``bg.add("L1", "I", i="L", domain="electrical")`` (``{name: L1, type: I, domain: ...}``)
  on any element: a one-port or a junction declares all its bonds;
* a TF/MTF or GY/MGY may give two domains, ``domain: [rotational, translational]``,
  the side of its bond 1 (in) and of its bond 2 (out); one name means both sides.

Propagation
-----------
All bonds of a 0- or 1-junction share one domain (they share an effort or a flow, which
must be the same physical quantity), and so do the two bonds of a TF whose sides are not
declared (a transformer scales an effort into an effort of the same kind: a gear, an
electrical transformer).  A GY or MGY converts an effort into a flow, normally between
domains (a DC motor: current ↔ torque), so nothing propagates across an undeclared
gyrator; each of its sides takes the domain of its own neighbourhood.  Bonds that no
declaration reaches get the graph's default (an element copied in by
:meth:`~.graph.BondGraph.include` keeps the default of the graph it came from), else
``generic`` (effort, flow: no unit).

Two different declarations that meet on one set of bonds joined this way are a
:class:`~porthamiltonian.ModelError` naming both elements and the bond where they meet.

Names
-----
A storage's co-energy is named by
:func:`porthamiltonian.quantities.coenergy_name`: ``L1`` → ``L1.i`` (electrical),
``J1`` → ``J1.w`` (rotational), ``C1[0]`` → ``C1.v[0]`` (an index stays last in a name);
generic ``C1.e``, ``L1.f``.
A source's input keeps the source's name (``V``); its output, the conjugate variable, is
named ``<input>.<symbol>`` with the conjugate's symbol in the source's domain
(:func:`source_output`): an Se ``V`` (electrical) has the output ``V.i`` (the current it
delivers, A), an Sf ``Q`` (hydraulic) the output ``Q.P`` (the pressure across it, Pa);
generic ``u.f`` / ``u.e``; a multi-bond source ``F`` (``dim: 2``) the outputs ``F.f[0]``,
``F.f[1]`` (an index stays last in a name, docs/design.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ModelError
from ..naming import expand, split_index
from ..quantities import DOMAINS, Domain, Quantities, Quantity, StateInfo, coenergy_name, domain
from .graph import JUNCTIONS, BondGraph, base_type

__all__ = ["DomainSpec", "normalize", "propagate", "BondDomains", "bond_domains",
           "source_output", "source_quantities", "output_names", "graph_quantities",
           "storage_coenergy_name", "domain_table"]

#: a declaration: ``None`` (none), one domain name, or (bond-1 side, bond-2 side) of a TF/GY
DomainSpec = str | tuple[str, str] | None

_TWO_PORTS = ("TF", "GY")


def normalize(spec: Any, kind: str, where: str) -> DomainSpec:
    """A declaration checked and in canonical names (``"rotation"`` → ``"rotational"``).

    ``kind`` is the element's base type (``"TF"`` for an MTF); ``where`` names the element
    in messages.  Two names are allowed for a TF or GY only; equal names collapse to one.
    """
    if spec is None:
        return None
    if isinstance(spec, (list, tuple)):
        if kind not in _TWO_PORTS or len(spec) != 2:
            what = ("two domains, [side of bond 1 (in), side of bond 2 (out)]"
                    if kind in _TWO_PORTS else "one domain name")
            raise ModelError(f"{where}: domain {list(spec)!r}: give {what}")
        a, b = (_one(s, where) for s in spec)
        return a if a == b else (a, b)
    return _one(spec, where)


def _one(name: Any, where: str) -> str:
    if not isinstance(name, str):
        raise ModelError(f"{where}: a domain is a name, one of {', '.join(DOMAINS)}; "
                         f"got {name!r}")
    try:
        return domain(name).name
    except ModelError:
        raise ModelError(f"{where}: unknown domain {name!r}; use one of "
                         f"{', '.join(DOMAINS)}") from None


#: a label for messages: the text, or a function that makes it (only when needed)
Label = str | Callable[[], str]


def _text(label: Label) -> str:
    return label() if callable(label) else label


def propagate(elements: Sequence[tuple[str, str, DomainSpec, str | None, Label]],
              bonds: Sequence[tuple[str, str, Label]], default: str | None = None) -> list[str]:
    """The domain of every bond (see the module docstring).

    ``elements``: ``(name, base type, normalized declaration, fallback default, label for
    messages)``; ``bonds``: ``(tail, head, label)``, in the graph's order; ``default``: the
    graph's default domain.  Returns one canonical domain name per bond, in time linear
    in the size of the graph.  Raises :class:`ModelError` for two declarations that meet.
    """
    if all(dec is None and not fb for _, _, dec, fb, _ in elements):
        # nothing declared anywhere (a generated ladder): every bond has the default
        return [default or "generic"] * len(bonds)
    parent = list(range(len(bonds)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(ks: list[int]) -> None:
        r = root(ks[0])
        for k in ks[1:]:
            rk = root(k)
            if rk != r:
                parent[rk] = r

    at: dict[str, list[int]] = {}
    for k, (tail, head, _) in enumerate(bonds):
        at.setdefault(tail, []).append(k)
        if head != tail:
            at.setdefault(head, []).append(k)
    info = {name: (kind, dec, fb, label) for name, kind, dec, fb, label in elements}
    for name, (kind, dec, _, _) in info.items():
        mine = at.get(name)
        if mine and len(mine) > 1 and (kind in JUNCTIONS or (kind == "TF"
                                                             and not isinstance(dec, tuple))):
            join(mine)
    # declarations, in element order: the first one on a set of bonds wins, a different
    # later one is a conflict
    owner: dict[int, tuple[str, str, int]] = {}  # root -> (domain, declaring element, bond)
    for name, (_, dec, _, _) in info.items():
        if dec is None:
            continue
        mine = at.get(name, [])
        if isinstance(dec, tuple):  # a TF/GY with two sides: bond 1 in, bond 2 out
            todo = [(k, dec[0] if bonds[k][1] == name else dec[1]) for k in mine]
        else:
            todo = [(k, dec) for k in mine]
        for k, dom in todo:
            r = root(k)
            first = owner.setdefault(r, (dom, name, k))
            if first[0] != dom:
                other, by, where_k = first
                raise ModelError(_conflict(_text(info[name][3]), dom, _text(info[by][3]),
                                           other, _text(bonds[k][2]),
                                           _text(bonds[where_k][2])))
    fallback_of: dict[int, str] = {}
    out: list[str] = []
    for k, (tail, head, _) in enumerate(bonds):
        r = root(k)
        if r in owner:
            out.append(owner[r][0])
            continue
        if r not in fallback_of:
            fb = [info[e][2] for e in (tail, head) if e in info and info[e][2]]
            fallback_of[r] = fb[0] if fb else (default or "generic")
        out.append(fallback_of[r])
    return out


def _conflict(where: str, dom: str, first: str, other: str, bond: str,
              first_bond: str) -> str:
    via = (f"at {bond}" if bond == first_bond
           else f"at {bond}, joined to {first_bond} through junctions or transformers")
    return (f"domain conflict {via}: {where} is declared {dom}, but {first} "
            f"declares {other} for the same bonds (bonds through a 0/1-junction or an "
            "undeclared TF share one domain); correct one declaration, or change the domain "
            "where it changes: a GY, or a TF/GY with two sides "
            f"(domain: [{other}, {dom}]; side of bond 1 in, bond 2 out)")


@dataclass(frozen=True)
class BondDomains:
    """The domain of every bond of a graph (:func:`bond_domains`)."""

    graph: BondGraph
    bond: Mapping[str, Domain]  # bond name -> domain
    #: the domain of every bond when nothing is declared (a generated ladder)
    uniform: Domain | None = None

    def of(self, element: str) -> Domain:
        """The domain of a one-port or junction (of its first bond; ``generic`` if none)."""
        if self.uniform is not None:
            return self.uniform
        bonds = self.graph.bonds_at(element)
        return self.bond[bonds[0].name] if bonds else DOMAINS["generic"]

    def sides(self, element: str) -> tuple[Domain, Domain]:
        """The domains of a TF/GY's bond 1 (in) and bond 2 (out)."""
        bonds = self.graph.bonds_of(element)
        ins = [b for b in bonds if b.head == element]
        outs = [b for b in bonds if b.tail == element]
        g = DOMAINS["generic"]
        return (self.bond[ins[0].name] if ins else g, self.bond[outs[0].name] if outs else g)


def bond_domains(bg: BondGraph) -> BondDomains:
    """Propagate the declared domains of ``bg`` (module docstring); raises
    :class:`ModelError` naming the elements and the bond of a conflict."""
    if all(el.domain is None and not el.fallback_domain for el in bg.elements.values()) \
            and bg.bonds and np.all(np.bincount(bg.bond_ends().ravel(),
                                                minlength=len(bg.elements))):
        # nothing declared and every element bonded: every bond and element has the
        # default, without a table of 10⁵ bonds
        dom = DOMAINS[_one(bg.domain, f"bond graph {bg.name!r}") if bg.domain else "generic"]
        return BondDomains(bg, _Same(bg, dom), dom)
    elements = []
    for el in bg.elements.values():
        dec = fb = None
        if el.domain is not None:
            dec = normalize(el.domain, base_type(el.type), el.where())
        if el.fallback_domain:
            fb = _one(el.fallback_domain, el.where())
        elements.append((el.name, el.kind, dec, fb, el.where))
    default = _one(bg.domain, f"bond graph {bg.name!r}") if bg.domain else None
    names = propagate(elements, [(b.tail, b.head, b.where) for b in bg.bonds], default)
    return BondDomains(bg, {b.name: DOMAINS[d] for b, d in zip(bg.bonds, names, strict=True)})


class _Same(Mapping[str, Domain]):
    """Every bond of ``graph`` → ``dom``."""

    def __init__(self, graph: BondGraph, dom: Domain) -> None:
        self._graph, self._dom = graph, dom

    def __getitem__(self, bond: str) -> Domain:
        return self._dom

    def __iter__(self) -> Iterator[str]:
        return (b.name for b in self._graph.bonds)

    def __len__(self) -> int:
        return len(self._graph.bonds)


class _StateInfos(Mapping[str, StateInfo]):
    """State → :class:`StateInfo` of a graph whose bonds share one domain, each made on
    look-up: a 10⁵-section ladder's 2·10⁵ of them made at once cost more than the rest
    of its numeric model, and the garbage collector then scans them all."""

    def __init__(self, bg: BondGraph, dom: Domain, keep: Sequence[str] | None) -> None:
        states: list[str] = []
        owners: list[str] = []
        is_c: list[bool] = []
        for el in bg.storages():
            for s in ([el.state or el.name] if el.dim == 1 else el.states):
                states.append(s)
                owners.append(el.name)
                is_c.append(el.kind == "C")
        if keep is not None and list(keep) != states:
            wanted = set(keep)
            chosen = [i for i, s in enumerate(states) if s in wanted]
            states = [states[i] for i in chosen]
            owners = [owners[i] for i in chosen]
            is_c = [is_c[i] for i in chosen]
        self._states, self._owners, self._is_c, self._dom = states, owners, is_c, dom
        self._at: dict[str, int] | None = None

    def __getitem__(self, state: str) -> StateInfo:
        if self._at is None:
            self._at = {s: i for i, s in enumerate(self._states)}
        i = self._at[state]
        d = self._dom
        q, e = (d.displacement, d.effort) if self._is_c[i] else (d.momentum, d.flow)
        return StateInfo(self._owners[i], q, e, storage_coenergy_name(state, e.symbol))

    def __iter__(self) -> Iterator[str]:
        return iter(self._states)

    def __len__(self) -> int:
        return len(self._states)

    def __repr__(self) -> str:
        return repr(dict(self.items()))


# ---------------------------------------------------------------------- meaning
def storage_coenergy_name(state: str, symbol: str) -> str:
    """The co-energy's name of a storage state: ``"L1"`` → ``"L1.i"``
    (:func:`porthamiltonian.quantities.coenergy_name`); a component of a multi-bond
    storage keeps its index last, as the sources' outputs do: ``"K[1]"`` → ``"K.F[1]"``."""
    if not state.endswith("]"):
        return coenergy_name(state, symbol)
    base, k = split_index(state)
    name = coenergy_name(base, symbol)
    return name if k is None else f"{name}[{k}]"


def source_quantities(kind: str, dom: Domain) -> tuple[Quantity, Quantity]:
    """(input, output) quantities of a source of base type ``"Se"`` (input the effort,
    output the flow it delivers) or ``"Sf"`` (input the flow, output the effort)."""
    return (dom.effort, dom.flow) if kind == "Se" else (dom.flow, dom.effort)


def source_output(input_name: str, quantity: Quantity) -> str:
    """The output conjugate to a source input: ``("V", current)`` → ``"V.i"``; a
    component of a multi-bond source keeps its index last: ``("F[1]", velocity)`` →
    ``"F.v[1]"``."""
    base, k = split_index(input_name)
    name = f"{base}.{quantity.symbol or 'y'}"
    return name if k is None else f"{name}[{k}]"


def output_names(bg: BondGraph, domains: BondDomains | None = None) -> list[str]:
    """The sources' output names in input order (module docstring, "Names")."""
    domains = domains or bond_domains(bg)
    out: list[str] = []
    for el in bg.sources():
        _, yq = source_quantities(el.kind, domains.of(el.name))
        out += [source_output(u, yq) for u in expand(el.name, el.dim)]
    return out


def graph_quantities(bg: BondGraph, domains: BondDomains | None = None,
                     states: Sequence[str] | None = None) -> Quantities:
    """The :class:`~porthamiltonian.quantities.Quantities` of a generated model: a
    :class:`~porthamiltonian.quantities.StateInfo` per storage state (restricted to
    ``states`` when given) and the quantity of every source input and output."""
    domains = domains or bond_domains(bg)
    infos: Mapping[str, StateInfo]
    if domains.uniform is not None:
        infos = _StateInfos(bg, domains.uniform, states)
    else:
        keep = None if states is None else set(states)
        infos = {}
        for el in bg.storages():
            dom = domains.of(el.name)
            q, e = (dom.displacement, dom.effort) if el.kind == "C" else (dom.momentum, dom.flow)
            for s in el.states:
                if keep is None or s in keep:
                    infos[s] = StateInfo(el.name, q, e, storage_coenergy_name(s, e.symbol))
    ports: dict[str, Quantity] = {}
    for el in bg.sources():
        uq, yq = source_quantities(el.kind, domains.of(el.name))
        for u in expand(el.name, el.dim):
            ports[u] = uq
            ports[source_output(u, yq)] = yq
    return Quantities(infos, ports)


def domain_table() -> str:
    """The table of :data:`porthamiltonian.quantities.DOMAINS` in Markdown (docs/bondgraphs.md
    quotes it; a test keeps the two equal): per domain its effort, flow, displacement (the
    state of a C) and momentum (the state of an I), each with its symbol and SI unit."""
    def cell(q: Quantity) -> str:
        return f"{q.kind} `{q.symbol}` ({q.unit})" if q.unit else f"{q.kind} `{q.symbol}`"

    rows = ["| domain | effort | flow | displacement (C state) | momentum (I state) |",
            "|---|---|---|---|---|"]
    for d in DOMAINS.values():
        rows.append(f"| `{d.name}` | {cell(d.effort)} | {cell(d.flow)} | "
                    f"{cell(d.displacement)} | {cell(d.momentum)} |")
    return "\n".join(rows)
