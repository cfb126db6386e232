r"""Equivalence and simplification of bond graphs (Breedveld, Table A.1).

:func:`simplify` applies the equivalence rules of Breedveld's Table A.1 (Appendix A of
Duindam et al., *Modeling and Control of Complex Physical Systems*, Springer 2009) until
none applies, and says what it did, one sentence per rule applied.  Every rule replaces
a part of the graph by one whose equations are the same after eliminating the bond
variables it removes, so the input–output behaviour (transfer function from the
sources' inputs to their conjugate outputs) and the energy are unchanged.

Conventions (graph.py): TF ``e1 = m e2``, ``f2 = m f1``; GY ``e1 = r f2``, ``e2 = r f1``;
bond 1 points into the two-port, bond 2 out; :math:`\sigma = +1` for a bond pointing
into a junction, :math:`-1` out.

Rules
-----
1. **Trivial junction.**  A 0- or 1-junction with exactly two bonds, one in (``X → j``)
   and one out (``j → Y``), passes effort and flow unchanged (0: :math:`f_a - f_b = 0`,
   :math:`e_a = e_b`; 1: dually): it is removed and the bonds joined, ``X → Y``.
   With both bonds in (or out) the junction reverses a sign and is kept.
2. **Junction merging.**  Two junctions of the same type joined by exactly one bond
   ``j₁ → j₂`` share their effort (0) or flow (1); the bond leaves one and enters the
   other, so adding the two balances eliminates its variable and the merged junction's
   balance keeps every other bond with its own orientation relative to its junction:
   merging is an equivalence for *any* orientation of the other bonds.  Two parallel
   bonds between the same junctions are left alone (their split of the flow is not
   determined).  Exposed ports move to the junction kept.
3. **Two-port chains** (a bond from the first two-port straight into the second):

   * TF(m₁)–TF(m₂) → TF(m₂ m₁): :math:`e_a = m_1 m_2 e_c`, :math:`f_c = m_2 m_1 f_a`
     (matrices: :math:`M = M_2 M_1`);
   * GY(r₁)–GY(r₂) → TF(r₁/r₂): :math:`e_m = r_1 f_a = r_2 f_c`, :math:`e_a = r_1 f_m
     = (r_1/r_2) e_c` — in the convention above the modulus is :math:`r_1/r_2` (scalar
     bonds);
   * TF(m)–GY(r) → GY(r m) (matrices: :math:`N M`); GY(r)–TF(m) → GY(r/m) (scalar).

   The chain is modulated (MTF/MGY) when one of its parts is.
4. **Unit transformer.**  A TF of modulus 1 (or the identity matrix) is removed and its
   bonds joined.
5. **Like elements on one junction.**  Resistors on one 1-junction (series) add,
   :math:`r = r_1 + r_2`; on one 0-junction (parallel) their conductances add,
   :math:`r = r_1 r_2/(r_1 + r_2)` (scalar).  Linear C on one 0-junction add their
   compliances, linear I on one 1-junction their inertias.  These storages share one
   effort (flow), so one of them is a dependent storage: the merged storage's state is
   the **sum** of theirs (:math:`q = q_1 + q_2`, the total charge; :math:`p = p_1 + p_2`),
   named after the first, and the energy is the same function of it,
   :math:`H = q^2/(2(c_1 + c_2))` — exactly what :func:`~.generate.to_phs` produces when
   it merges the dependent storage of the original graph.  Nonlinear storages (given a
   ``hamiltonian``) and chemical ones are left alone.

Switched junctions, Ce and Re elements are never rewritten; a switched junction that
names a removed neighbour in ``switched`` is made to name the bond(s) to it instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

import sympy as sp

from .graph import JUNCTIONS, SWITCHED, Bond, BondGraph, Element

__all__ = ["simplify", "Simplified", "Step", "RULES"]

#: The rules, in the order they are tried.
RULES = ("unit transformer", "two-port chain", "trivial junction", "junction merging",
         "series resistors", "parallel resistors", "parallel compliances",
         "series inertias")


@dataclass(frozen=True)
class Step:
    """One rule applied: its name (one of :data:`RULES`), the elements involved, and a
    sentence saying what was done."""

    rule: str
    elements: tuple[str, ...]
    text: str

    def __str__(self) -> str:
        return self.text


class Simplified(NamedTuple):
    """What :func:`simplify` returns: ``graph, steps = simplify(bg)``.

    ``merged``: kept storage → what its state stands for (``{"C1": "C1 + C2"}``).
    """

    graph: BondGraph
    steps: list[Step]
    merged: dict[str, str] = {}  # noqa: RUF012 - NamedTuple default, never mutated


def simplify(bg: BondGraph) -> Simplified:
    """Apply the rules of Table A.1 (module docstring) until none applies.

    The graph is structurally checked first; it is not changed.  Returns the simplified
    copy, the rules applied in order, and the merged storages' states.
    """
    bg.check()
    w = _Work(bg)
    finders: list[Callable[[_Work], Step | None]] = [
        _unit_transformer, _chain, _trivial_junction, _merge_junctions, _like_elements]
    while True:
        for find in finders:
            step = find(w)
            if step is not None:
                w.steps.append(step)
                w.index()
                break
        else:
            break
    return Simplified(w.build(), w.steps, dict(w.merged))


# ---------------------------------------------------------------------- working copy
class _Work:
    """Elements and bonds being rewritten, with an adjacency index."""

    def __init__(self, bg: BondGraph) -> None:
        self.source = bg
        self.steps: list[Step] = []
        self.merged: dict[str, str] = {}
        self.elements = {k: replace(el, params=dict(el.params))
                         for k, el in bg.elements.items()}
        self.bonds: list[Bond] = list(bg.bonds)
        self.ports = dict(bg.ports)
        self.adj: dict[str, list[Bond]] = {}
        self._pin_domains(bg)
        self.index()

    def _pin_domains(self, bg: BondGraph) -> None:
        """Declare every one-port's and two-port's domain as propagated in ``bg``, so
        removing a junction or a TF that carried a declaration changes no name or unit."""
        from .domains import bond_domains

        if bg.domain is None and all(el.domain is None for el in bg.elements.values()):
            return
        doms = bond_domains(bg)
        for name, el in self.elements.items():
            if el.kind in ("TF", "GY") and el.domain is None:
                a, b = doms.sides(name)
                el.domain = a.name if a.name == b.name else (a.name, b.name)
            elif el.kind not in JUNCTIONS and el.domain is None:
                el.domain = doms.of(name).name

    def index(self) -> None:
        self.adj = {n: [] for n in self.elements}
        for b in self.bonds:
            self.adj[b.tail].append(b)
            if b.head != b.tail:
                self.adj[b.head].append(b)

    def plain_junctions(self) -> Iterator[Element]:
        return (el for el in self.elements.values()
                if el.kind in JUNCTIONS and el.type not in SWITCHED)

    def other(self, b: Bond, name: str) -> str:
        return b.head if b.tail == name else b.tail

    def pin_switched(self, name: str) -> None:
        """Before ``name`` goes: a switched junction that names it in ``switched`` names
        the bonds between them instead (bond names survive every rule)."""
        for b in self.adj[name]:
            x = self.elements[self.other(b, name)]
            names = x.params.get("switched", ())
            if x.type in SWITCHED and name in names:
                ours = [c.name for c in self.adj[name] if self.other(c, name) == x.name]
                x.params["switched"] = tuple(n for m in names
                                             for n in (ours if m == name else [m]))

    def rename_bond(self, old: str, new: str) -> None:
        for x in self.elements.values():
            if x.type in SWITCHED and old in x.params.get("switched", ()):
                x.params["switched"] = tuple(new if n == old else n
                                             for n in x.params["switched"])

    def join(self, into: Bond, out: Bond, drop: str) -> Bond:
        """Remove ``drop`` and its bonds ``into`` (X → drop) and ``out`` (drop → Y); add
        ``X → Y`` under ``into``'s name."""
        self.pin_switched(drop)
        self.rename_bond(out.name, into.name)
        joined = Bond(into.tail, out.head, into.name, max(into.dim, out.dim), into.line)
        k = self.bonds.index(into)
        self.bonds[k] = joined
        self.bonds.remove(out)
        del self.elements[drop]
        return joined

    def build(self) -> BondGraph:
        new = BondGraph(self.source.name, parameters=dict(self.source.parameters),
                        domain=self.source.domain)
        new.elements = dict(self.elements)
        for b in self.bonds:
            new.connect(b.tail, b.head, b.name, line=b.line)
        new.ports = {p: j for p, j in self.ports.items() if j in self.elements}
        new.subgraphs = dict(self.source.subgraphs)
        return new


# ---------------------------------------------------------------------- rules
def _unit_transformer(w: _Work) -> Step | None:
    for el in list(w.elements.values()):
        if el.kind != "TF" or not _is_unit(el.params.get("ratio"), el.dim):
            continue
        into, out = _in_out(w, el.name)
        if into.tail == out.head:
            continue
        w.join(into, out, el.name)
        return Step("unit transformer", (el.name,),
                    f"removed the {el.type} {el.name} of modulus 1 (e and f pass unchanged); "
                    f"bond {into.name} now joins {into.tail} → {out.head}")
    return None


def _chain(w: _Work) -> Step | None:
    for b in w.bonds:
        first, second = w.elements[b.tail], w.elements[b.head]
        if first.kind not in ("TF", "GY") or second.kind not in ("TF", "GY"):
            continue
        made = _chain_ratio(first, second)
        if made is None:
            continue
        kind, ratio, formula = made
        modulated = first.type.startswith("M") or second.type.startswith("M") or bool(
            _states_in(ratio, w))
        _, out = _in_out(w, second.name)
        w.pin_switched(second.name)
        # the second two-port and the middle bond go; the first becomes the chain
        w.bonds.remove(b)
        k = w.bonds.index(out)
        w.bonds[k] = Bond(first.name, out.head, out.name, out.dim, out.line)
        del w.elements[second.name]
        dom = _chain_domain(first, second)
        w.elements[first.name] = replace(first, type=("M" if modulated else "") + kind,
                                         params={"ratio": ratio}, domain=dom)
        return Step("two-port chain", (first.name, second.name),
                    f"{first.type} {first.name} ({_show(first.params['ratio'])}) and "
                    f"{second.type} {second.name} ({_show(second.params['ratio'])}) in a "
                    f"chain (bond {b.name}) → {('M' if modulated else '') + kind} "
                    f"{first.name} with {'modulus' if kind == 'TF' else 'ratio'} "
                    f"{formula} = {_show(ratio)}")
    return None


def _chain_ratio(a: Element, b: Element) -> tuple[str, Any, str] | None:
    """(kind, ratio, formula) of the chain a → b, or None when it is not simplified."""
    ra, rb = a.params.get("ratio"), b.params.get("ratio")
    if ra is None or rb is None or a.dim != b.dim:
        return None
    scalar = a.dim == 1 and not isinstance(ra, sp.MatrixBase) and not isinstance(
        rb, sp.MatrixBase)
    if a.kind == "TF" and b.kind == "TF":
        return "TF", _product(rb, ra, a.dim), "m₂·m₁"
    if a.kind == "TF" and b.kind == "GY":
        return "GY", _product(rb, ra, a.dim), "r·m"
    if not scalar or _is_zero(rb):
        return None  # a quotient: scalar bonds, non-zero divisor only
    if a.kind == "GY" and b.kind == "GY":
        return "TF", sp.simplify(ra / rb), "r₁/r₂"
    return "GY", sp.simplify(ra / rb), "r/m"  # GY then TF


def _chain_domain(a: Element, b: Element) -> Any:
    """The chain's declared sides: bond 1's side of ``a``, bond 2's side of ``b``."""
    def side(el: Element, k: int) -> Any:
        d = el.domain
        return d[k] if isinstance(d, (tuple, list)) else d

    one, two = side(a, 0), side(b, 1)
    if one is None and two is None:
        return None
    return one if one == two else (one, two)


def _trivial_junction(w: _Work) -> Step | None:
    for el in w.plain_junctions():
        bonds = w.adj[el.name]
        if len(bonds) != 2 or el.name in w.ports.values():
            continue
        ins = [b for b in bonds if b.head == el.name]
        outs = [b for b in bonds if b.tail == el.name]
        if len(ins) != 1 or len(outs) != 1 or ins[0].tail == outs[0].head:
            continue
        into, out = ins[0], outs[0]
        w.join(into, out, el.name)
        return Step("trivial junction", (el.name,),
                    f"removed the {el.type}-junction {el.name}: two bonds, {into.name} in and "
                    f"{out.name} out, so effort and flow pass unchanged; bond {into.name} "
                    f"now joins {into.tail} → {out.head}")
    return None


def _merge_junctions(w: _Work) -> Step | None:
    for b in w.bonds:
        j1, j2 = w.elements[b.tail], w.elements[b.head]
        if (j1.kind not in JUNCTIONS or j1.type in SWITCHED or j2.type != j1.type
                or j1.name == j2.name or j1.dim != j2.dim):
            continue
        between = [c for c in w.adj[j1.name] if w.other(c, j1.name) == j2.name]
        if len(between) != 1:
            continue
        keep, gone = (j1, j2) if j1.name in w.ports.values() or j2.name not in \
            w.ports.values() else (j2, j1)
        w.pin_switched(gone.name)
        w.bonds.remove(b)
        for k, c in enumerate(w.bonds):
            if gone.name in (c.tail, c.head):
                w.bonds[k] = Bond(keep.name if c.tail == gone.name else c.tail,
                                  keep.name if c.head == gone.name else c.head,
                                  c.name, c.dim, c.line)
        del w.elements[gone.name]
        w.ports = {p: (keep.name if j == gone.name else j) for p, j in w.ports.items()}
        what = "effort" if j1.kind == "0" else "flow"
        return Step("junction merging", (keep.name, gone.name),
                    f"merged the {j1.type}-junctions {j1.name} and {j2.name} (one bond, "
                    f"{b.name}, between them: one {what}) into {keep.name}")
    return None


def _like_elements(w: _Work) -> Step | None:
    for j in w.plain_junctions():
        for kind, key, rule in (("R", "r", None), ("C", "c", "0"), ("I", "i", "1")):
            if rule is not None and j.kind != rule:
                continue
            group = [w.elements[w.other(b, j.name)] for b in w.adj[j.name]]
            group = [el for el in group if el.kind == kind and el.type != "Ce"
                     and key in el.params and "hamiltonian" not in el.params]
            if len(group) < 2:
                continue
            a, c = group[0], group[1]
            step = _merge_pair(w, j, a, c, key)
            if step is not None:
                return step
    return None


def _merge_pair(w: _Work, j: Element, a: Element, c: Element, key: str) -> Step | None:
    va, vc = a.params[key], c.params[key]
    if a.dim != c.dim:
        return None
    if key == "r" and j.kind == "0":
        if a.dim != 1 or isinstance(va, sp.MatrixBase) or isinstance(vc, sp.MatrixBase) \
                or _is_zero(va) or _is_zero(vc):
            return None
        value, rule, how = sp.simplify(va * vc / (va + vc)), "parallel resistors", \
            "conductances add: r = r₁r₂/(r₁ + r₂)"
    else:
        value = _sum(va, vc, a.dim)
        rule, how = {"r": ("series resistors", "resistances add"),
                     "c": ("parallel compliances", "compliances add"),
                     "i": ("series inertias", "inertias add")}[key]
    bond = next(b for b in w.adj[j.name] if w.other(b, j.name) == c.name)
    w.bonds.remove(bond)
    del w.elements[c.name]
    typ = "MR" if "MR" in (a.type, c.type) else a.type
    w.elements[a.name] = replace(a, type=typ, params={**a.params, key: value})
    text = (f"{a.type} {a.name} ({key} = {_show(va)}) and {c.type} {c.name} "
            f"({key} = {_show(vc)}) on the {j.type}-junction {j.name}: {how}; "
            f"→ {typ} {a.name} with {key} = {_show(value)}")
    if key in ("c", "i"):
        states = [*a.states, *c.states]
        was = w.merged.get(a.name, " + ".join(a.states))
        total = f"{was} + {w.merged.get(c.name, ' + '.join(c.states))}"
        w.merged[a.name] = total
        w.merged.pop(c.name, None)
        what = "displacement" if key == "c" else "momentum"
        text += (f"; one shares the other's {'effort' if key == 'c' else 'flow'} (a "
                 f"dependent storage), so its state {states[0]} now stands for the total "
                 f"{what} {total}, with the same energy")
    return Step(rule, (a.name, c.name), text)


# ---------------------------------------------------------------------- helpers
def _in_out(w: _Work, name: str) -> tuple[Bond, Bond]:
    bonds = w.adj[name]
    into = next(b for b in bonds if b.head == name)
    out = next(b for b in bonds if b.tail == name)
    return into, out


def _as_matrix(v: Any, dim: int) -> sp.Matrix:
    if isinstance(v, sp.MatrixBase):
        return sp.Matrix(v) if v.shape == (dim, dim) else v[0, 0] * sp.eye(dim)
    return v * sp.eye(dim)


def _product(x: Any, y: Any, dim: int) -> Any:
    if dim == 1 and not isinstance(x, sp.MatrixBase) and not isinstance(y, sp.MatrixBase):
        return sp.sympify(x) * sp.sympify(y)
    return sp.ImmutableMatrix(_as_matrix(x, dim) * _as_matrix(y, dim))


def _sum(x: Any, y: Any, dim: int) -> Any:
    if not isinstance(x, sp.MatrixBase) and not isinstance(y, sp.MatrixBase):
        return sp.sympify(x) + sp.sympify(y)
    return sp.ImmutableMatrix(_as_matrix(x, dim) + _as_matrix(y, dim))


def _is_unit(v: Any, dim: int) -> bool:
    if v is None:
        return False
    if isinstance(v, sp.MatrixBase):
        return v.shape == (dim, dim) and sp.Matrix(v) == sp.eye(dim) or v.shape == (1, 1) \
            and v[0, 0] == 1
    return sp.sympify(v) == 1


def _is_zero(v: Any) -> bool:
    return bool(getattr(sp.sympify(v), "is_zero", False))


def _states_in(v: Any, w: _Work) -> set:
    states = {sp.Symbol(s, real=True) for el in w.elements.values() for s in el.states}
    return getattr(v, "free_symbols", set()) & states


def _show(v: Any) -> str:
    return str(v.tolist()) if isinstance(v, sp.MatrixBase) else str(v)
