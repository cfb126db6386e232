"""Causality analysis of a bond graph: the sequential causality assignment procedure.

SCAP is the procedure of Karnopp, Margolis and Rosenberg (*System Dynamics*,
ch. 5) in the form given by Breedveld, Appendix A of Duindam et al., *Modeling
and Control of Complex Physical Systems — the Port-Hamiltonian Approach*
(Springer, 2009):

1. **Sources.** Each Se imposes its effort on its bond, each Sf its flow; the
   consequences are propagated through the junctions (a 0-junction has exactly
   one bond that imposes the common effort on it — the *strong bond* — a
   1-junction exactly one that imposes the common flow), TF (the effort goes in on
   one side and out on the other) and GY (effort in on both sides or out on both).
   A contradiction here means **dependent sources** (two Se on one 0-junction).
2. **Storages**, one at a time, in integral causality when still free (a C
   receives its flow and gives its effort, an I receives its effort and gives its
   flow), propagating after each.  A storage that propagation has already put in
   derivative causality is a **dependent storage** (its state is a function of
   other states) or, when the sources alone forced it, **fixed by sources** (its
   state follows the inputs; the generated model takes the inputs' time
   derivatives as extra inputs, :mod:`.forced`).
3. **Reactions** (Re, a two-port resistor between two affinities) take the efforts of
   both their bonds (conductance causality) where propagation left them free.
4. **Resistors**, which accept either causality.  Bonds still free at this point
   mean a choice has to be made: each connected group of free bonds is an
   **algebraic loop** (a zero-order causal path through resistors and
   junctions); one resistor of the group is chosen arbitrarily (resistance
   causality first) and propagation continues.

A multi-bond has one causality for all its components, so it is one bond here;
modulated elements (MTF, MGY, MR, MSe, MSf) behave like their base elements.
Propagation uses a work queue and counters per junction: the work is linear in
the number of bonds (graphs of 10^4 elements take milliseconds).

Causality of a bond (the definition used throughout)
----------------------------------------------------
``report.causality[bond] == "tail"`` means that the element at the bond's tail
*imposes the effort* on the element at its head (and the head element imposes the
flow back); ``"head"`` the reverse.  In the usual drawing the causal stroke sits at
the end *opposite* to the one named, next to the element that receives the
effort.  ``report.effort_from[bond]`` names that effort-imposing element directly.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from ..naming import listing
from .forced import derivative_input
from .graph import BondGraph

_CAP = 12  # longest causal path spelled out in a message


@dataclass
class CausalityReport:
    """The result of :func:`analyze_causality`.

    Attributes
    ----------
    causality:
        Bond name → ``"tail"`` or ``"head"``: the end whose element imposes the
        effort on the bond (the causal stroke is drawn at the other end).
    effort_from:
        Bond name → name of the element that imposes the effort on the bond.
    integral:
        Storages (C, I) in integral causality, in the order of the graph.
    derivative:
        Dependent storages: in derivative causality because of other storages.
    fixed_by_sources:
        Storages put in derivative causality by the sources alone.
    dependent_sources:
        Sources whose causality contradicts another source's.
    algebraic_loops:
        One list of element names (resistors, junctions, TF/GY) per group of bonds
        whose causality had to be chosen arbitrarily.
    arbitrary:
        The resistors (or bonds) whose causality was chosen arbitrarily.
    messages:
        One sentence per finding, naming the elements and the causal path.
    """

    name: str = "bondgraph"
    causality: dict[str, str] = field(default_factory=dict)
    effort_from: dict[str, str] = field(default_factory=dict)
    integral: list[str] = field(default_factory=list)
    derivative: list[str] = field(default_factory=list)
    fixed_by_sources: list[str] = field(default_factory=list)
    dependent_sources: list[str] = field(default_factory=list)
    algebraic_loops: list[list[str]] = field(default_factory=list)
    arbitrary: list[str] = field(default_factory=list)
    messages: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every storage is integral, sources independent, and no loop."""
        return not (self.derivative or self.fixed_by_sources or self.dependent_sources
                    or self.algebraic_loops)

    def storage_causality(self, name: str) -> str:
        """``"integral"`` or ``"derivative"`` for the storage ``name``."""
        if name in self.integral:
            return "integral"
        if name in self.derivative or name in self.fixed_by_sources:
            return "derivative"
        raise KeyError(f"{name!r} is not a storage of {self.name!r}")

    def explain(self) -> str:
        """The report in words, several lines."""
        n = len(self.integral) + len(self.derivative) + len(self.fixed_by_sources)
        lines = [f"{self.name}: causality of {len(self.causality)} bonds, "
                 f"{n} storage{'' if n == 1 else 's'}"]
        if self.integral:
            lines.append(f"  integral causality ({len(self.integral)}): "
                         + _names(self.integral))
        if self.derivative:
            lines.append(f"  dependent storages ({len(self.derivative)}): "
                         + _names(self.derivative))
        if self.fixed_by_sources:
            lines.append(f"  fixed by sources ({len(self.fixed_by_sources)}): "
                         + _names(self.fixed_by_sources))
        if self.dependent_sources:
            lines.append(f"  dependent sources: {_names(self.dependent_sources)}")
        if self.algebraic_loops:
            lines.append(f"  algebraic loops: {len(self.algebraic_loops)}")
        lines.extend(f"  {m}" for m in self.messages)
        if self.ok:
            lines.append("  ok: every storage is in integral causality, the sources are "
                         "independent and there is no algebraic loop")
        return "\n".join(lines)


def _names(names: list[str], cap: int = 40) -> str:
    return listing(names, cap, empty="")


class _Conflict(Exception):
    """Propagation contradicted an assignment: bond ``bond`` at node ``node``."""

    def __init__(self, node: int, bond: int, cause: int, none_left: bool = False) -> None:
        super().__init__()
        self.node, self.bond, self.cause, self.none_left = node, bond, cause, none_left


class _Scap:
    """Constraint propagation on bond orientations (integers for speed).

    ``eff[b]``: -1 free, 0 the tail imposes the effort, 1 the head does.
    ``target(n, b)`` is the quantity counted by the "exactly one" rule at node n:
    "effort imposed on n through b" at 0-junctions and TF, its negation at
    1-junctions (a 1-junction gives the effort on all bonds but one).
    """

    def __init__(self, bg: BondGraph) -> None:
        self.names = list(bg.elements)
        self.index = index = {n: i for i, n in enumerate(self.names)}
        self.kind = [bg.elements[n].kind for n in self.names]
        self.type = [bg.elements[n].type for n in self.names]
        self.bond_names = [b.name for b in bg.bonds]
        self.tail = [index[b.tail] for b in bg.bonds]
        self.head = [index[b.head] for b in bg.bonds]
        self.adj: list[list[int]] = [[] for _ in self.names]
        for k, (t, h) in enumerate(zip(self.tail, self.head, strict=True)):
            self.adj[t].append(k)
            self.adj[h].append(k)
        m, n = len(self.tail), len(self.names)
        self.eff = [-1] * m
        self.origin = [-1] * m   # element whose step assigned the bond
        self.via = [-1] * m      # node whose rule forced it (-1: the origin's own bond)
        self.cause = [-1] * m    # bond that triggered the rule
        self.ntrue = [0] * n
        self.nfalse = [0] * n
        self.trail: list[int] = []
        self.done: list[int] = []

    # -------------------------------------------------------------- primitives
    def in_effort(self, node: int, b: int) -> bool:
        """Is the effort of bond ``b`` imposed *on* ``node``?"""
        return self.eff[b] == (0 if self.head[b] == node else 1)

    def value(self, node: int, b: int, in_effort: bool) -> int:
        """The ``eff`` value that makes the effort go into (or out of) ``node``."""
        return int((self.head[b] == node) != in_effort)

    def target(self, node: int, b: int) -> bool:
        return self.in_effort(node, b) != (self.kind[node] == "1")

    def assign(self, b: int, val: int, origin: int, via: int, cause: int) -> None:
        if self.eff[b] == -1:
            self.eff[b], self.origin[b], self.via[b], self.cause[b] = val, origin, via, cause
            self.trail.append(b)
            self.queue.append(b)
        elif self.eff[b] != val:
            raise _Conflict(via, b, cause)

    def start(self, b: int, val: int, origin: int) -> None:
        """Assign ``b`` for ``origin`` and propagate; undo everything on a conflict."""
        self.trail, self.done, self.queue = [], [], deque()
        try:
            self.assign(b, val, origin, -1, -1)
            self.propagate(origin)
        except _Conflict:
            self.undo()
            raise

    def propagate(self, origin: int) -> None:
        queue = self.queue
        while queue:
            b = queue.popleft()
            self.done.append(b)
            for node in (self.tail[b], self.head[b]):
                k = self.kind[node]
                if k == "GY":
                    o = self.adj[node][0] if self.adj[node][1] == b else self.adj[node][1]
                    self.assign(o, self.value(node, o, self.in_effort(node, b)), origin, node, b)
                elif k in ("0", "1", "TF"):
                    self.count(node, b, origin)

    def count(self, node: int, b: int, origin: int) -> None:
        bonds = self.adj[node]
        one = self.kind[node] == "1"
        if self.target(node, b):
            self.ntrue[node] += 1
            if self.ntrue[node] == 1:
                for o in bonds:
                    if o != b:
                        self.assign(o, self.value(node, o, one), origin, node, b)
            else:
                raise _Conflict(node, b, b)
            return
        self.nfalse[node] += 1
        if self.nfalse[node] == len(bonds):
            raise _Conflict(node, b, b, none_left=True)
        if self.nfalse[node] == len(bonds) - 1 and self.ntrue[node] == 0:
            for o in bonds:
                if self.eff[o] == -1:
                    self.assign(o, self.value(node, o, not one), origin, node, b)

    def undo(self) -> None:
        for b in self.done:
            for node in (self.tail[b], self.head[b]):
                if self.kind[node] in ("0", "1", "TF"):
                    if self.target(node, b):
                        self.ntrue[node] -= 1
                    else:
                        self.nfalse[node] -= 1
        for b in self.trail:
            self.eff[b] = self.origin[b] = self.via[b] = self.cause[b] = -1
        self.trail, self.done = [], []

    # -------------------------------------------------------------- explanations
    def path(self, b: int) -> list[str]:
        """Elements on the causal path that set bond ``b``: origin → … → far end."""
        first, chain = self.names[self.origin[b]], []
        while b != -1 and len(chain) < _CAP - 1:  # bounded: no quadratic cost on long chains
            chain.append(b)
            b = self.cause[b]
        chain.reverse()
        head = [first] if b == -1 else [first, "…"]
        return head + [self.names[self.via[c]] for c in chain[1:]]

    def spell(self, path: list[str]) -> str:
        return " → ".join(path)

    def other(self, b: int, node: int) -> int:
        return self.head[b] if self.tail[b] == node else self.tail[b]


def analyze_causality(bg: BondGraph) -> CausalityReport:
    """Assign causality to every bond with SCAP and report what it reveals.

    Parameters
    ----------
    bg:
        A structurally valid bond graph (run :meth:`BondGraph.check` first: one bond
        per one-port, one bond in and one out for TF/GY, no self-loops).

    Returns
    -------
    CausalityReport
        The causality of every bond and, in words, dependent storages, storages
        fixed by sources, dependent sources and algebraic loops.

    Notes
    -----
    The sequential causality assignment procedure of Karnopp, Margolis and
    Rosenberg, as given by Breedveld in Appendix A of Duindam et al. (2009); see
    the module docstring.
    """
    s = _Scap(bg)
    rep = CausalityReport(name=bg.name)
    one_port = {i: s.adj[i][0] for i, k in enumerate(s.kind)
                if k in ("C", "I", "R", "Se", "Sf") and len(s.adj[i]) == 1}

    def gives_effort(i: int) -> int:
        b = one_port[i]
        return s.value(i, b, False)  # the one-port imposes the effort

    def takes_effort(i: int) -> int:
        b = one_port[i]
        return s.value(i, b, True)

    # 1. sources
    sources = [i for i in one_port if s.kind[i] in ("Se", "Sf")]
    for i in sources:
        b = one_port[i]
        val = gives_effort(i) if s.kind[i] == "Se" else takes_effort(i)
        if s.eff[b] == val:
            continue
        if s.eff[b] != -1:
            _dependent_source(s, rep, i, b, -1)
            continue
        try:
            s.start(b, val, i)
        except _Conflict as c:
            _dependent_source(s, rep, i, c.bond, c.node)

    # 2. storages, integral causality preferred
    storages = [i for i in one_port if s.kind[i] in ("C", "I")]
    for i in storages:
        b = one_port[i]
        integral = gives_effort(i) if s.kind[i] == "C" else takes_effort(i)
        if s.eff[b] == -1:
            try:
                s.start(b, integral, i)
            except _Conflict as c:
                _forced_derivative(s, rep, i, c)
                continue
        if s.eff[b] == integral:
            rep.integral.append(s.names[i])
        else:
            _derivative(s, rep, i, b)

    # 3. reactions (Re) in conductance causality: they receive the affinities on both
    # bonds and give the flux, as BondGraphTools' Re; their bonds are normally fixed by
    # the species already (docs/bondgraphs-chemical.md)
    for i, k in enumerate(s.kind):
        if k == "Re":
            for b in s.adj[i]:
                if s.eff[b] == -1:
                    _arbitrary(s, b, s.value(i, b, True), i)

    # 4. resistors; free bonds now mean algebraic loops
    groups = _free_groups(s)
    for group in groups:
        rs = [s.names[i] for i in sorted(group) if s.kind[i] == "R"]
        rest = [s.names[i] for i in sorted(group) if s.kind[i] != "R"]
        rep.algebraic_loops.append(rs + rest)
    chosen: list[str] = []
    for i, b in one_port.items():
        if s.kind[i] == "R" and s.eff[b] == -1:
            _arbitrary(s, b, gives_effort(i), i)
            chosen.append(s.names[i])
    for b in range(len(s.tail)):  # free bonds between junctions, TF and GY only
        if s.eff[b] == -1:
            _arbitrary(s, b, 0, s.tail[b])
            chosen.append(s.bond_names[b])
    rep.arbitrary = chosen
    for names in rep.algebraic_loops:
        rs = [n for n in names if bg.elements[n].kind == "R"]
        js = [n for n in names if bg.elements[n].kind != "R"]
        pick = [n for n in chosen if n in names] or [n for n in rs[:1]]
        rep.messages.append(
            "warning: algebraic loop (zero-order causal path) among "
            + (f"the resistors {_names(rs)}" if rs else "no resistor")
            + (f" through {_names(js)}" if js else "")
            + ": sources and storages do not fix their causality, so "
            + (f"{_names(pick)} was given resistance causality arbitrarily; "
               if pick else "a causality was chosen arbitrarily; ")
            + "their equations must be solved together (an implicit algebraic equation)")

    for b, name in enumerate(s.bond_names):
        rep.causality[name] = "tail" if s.eff[b] == 0 else "head"
        rep.effort_from[name] = s.names[s.tail[b] if s.eff[b] == 0 else s.head[b]]
    return rep


def _arbitrary(s: _Scap, b: int, val: int, origin: int) -> None:
    for v in (val, 1 - val):
        try:
            s.start(b, v, origin)
            return
        except _Conflict:
            continue
    s.eff[b] = val  # contradicts either way: keep the bond oriented, say nothing more


def _free_groups(s: _Scap) -> list[set[int]]:
    """Connected groups of free bonds (through junctions, TF, GY) → their elements."""
    parent = list(range(len(s.names)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    free = [b for b in range(len(s.tail)) if s.eff[b] == -1]
    for b in free:
        parent[find(s.tail[b])] = find(s.head[b])
    groups: dict[int, set[int]] = {}
    for b in free:
        groups.setdefault(find(s.tail[b]), set()).update((s.tail[b], s.head[b]))
    return sorted(groups.values(), key=min)


def _dependent_source(s: _Scap, rep: CausalityReport, i: int, b: int, node: int) -> None:
    """Source ``i`` contradicts what earlier sources set on bond ``b`` near ``node``."""
    name = s.names[i]
    others = []
    if s.origin[b] != -1 and s.origin[b] != i:
        path = s.path(b)
        others.append(s.names[s.origin[b]])
    else:
        path = [name]
    if node == -1:
        node = s.via[b]
    if path[-1] != name:
        path.append(name)
    if node != -1 and s.kind[node] in ("0", "1"):
        others += [s.names[s.origin[o]] for o in s.adj[node]
                   if s.origin[o] not in (-1, i) and s.kind[s.origin[o]] in ("Se", "Sf")]
    others = [f"{s.type[s.index[o]]} {o}" for o in sorted(set(others) - {name})]
    others = others or ["another source"]
    where = (f"the {s.kind[node]}-junction {s.names[node]}" if node != -1 and
             s.kind[node] in ("0", "1") else (s.names[node] if node != -1 else "its bond"))
    what = "effort" if s.kind[i] == "Se" else "flow"
    rep.dependent_sources.append(name)
    rep.messages.append(
        f"error: dependent sources: {s.type[i]} {name} and {', '.join(others)} both "
        f"try to set the {what} at {where} (causal path {s.spell(path)}); the model is "
        "ill-posed: remove one of them or put a resistor or a storage between them")


def _derivative(s: _Scap, rep: CausalityReport, i: int, b: int) -> None:
    """Storage ``i`` found in derivative causality; say who forced it."""
    name = s.names[i]
    path = s.path(b) + [name]
    src = s.origin[b]
    var = "effort" if s.kind[i] == "C" else "flow"
    if s.kind[src] in ("Se", "Sf"):
        rep.fixed_by_sources.append(name)
        rep.messages.append(
            f"warning: {name} is in derivative causality, fixed by the source {s.names[src]}: "
            f"its {var} is imposed along the causal path {s.spell(path)}, so its state "
            f"follows the input and is not a state of the model; handled: the generated "
            f"model takes the time derivative of {s.names[src]} as an extra input "
            f"({derivative_input(s.names[src])}), so that input must be differentiable "
            "(smooth a step)")
        return
    rep.derivative.append(name)
    other = s.names[src]
    if len(path) == 3 and s.kind[src] == s.kind[i] and s.kind[s.via[b]] in ("0", "1"):
        j = s.via[b]
        why = (f"{other} and {name} share the {s.kind[j]}-junction {s.names[j]}, so their "
               f"{var}s are equal")
    else:
        why = f"its {var} is set by {other} along the causal path {s.spell(path)}"
    rep.messages.append(
        f"warning: {name} is in derivative causality (dependent storage): {why}; "
        f"{name}'s state is a function of {other}'s and can be merged with it")


def _forced_derivative(s: _Scap, rep: CausalityReport, i: int, c: _Conflict) -> None:
    """Integral causality of storage ``i`` contradicts propagation: try derivative."""
    name = s.names[i]
    b = s.adj[i][0]
    integral = s.value(i, b, s.kind[i] == "I")
    try:
        s.start(b, 1 - integral, i)
    except _Conflict:
        rep.derivative.append(name)
        rep.messages.append(f"error: causal conflict at {name}: neither causality "
                            "agrees with the rest of the graph")
        return
    where = s.names[c.node] if c.node != -1 else name
    rep.derivative.append(name)
    rep.messages.append(
        f"warning: {name} is in derivative causality (dependent storage): integral "
        f"causality would contradict the causality already fixed at {where} "
        f"(causal path {s.spell(s.path(c.bond))})")
