r"""The element equations of a bond graph as one square linear system.

Unknowns: the effort :math:`e_b` and flow :math:`f_b` of every bond (each component
of a multi-bond).  Knowns: the co-energies :math:`z = \nabla H` of the storages in
integral causality, the flows/efforts :math:`\lambda` of the storages in derivative
causality (their rates, taken as unknown multipliers), and the source values
:math:`u`.  Bonds point into C, I, R and out of Se, Sf (docs/design.md), so:

=============  =================================  =========================
element        equations (per component)           read off as results
=============  =================================  =========================
0-junction     :math:`\sum_i s_i f_i = 0`,          —
               :math:`e_i = e_1`
1-junction     :math:`\sum_i s_i e_i = 0`,          —
               :math:`f_i = f_1`
TF (a in)      :math:`f_b = M f_a`, :math:`e_a = M^\top e_b`
GY (a in)      :math:`e_b = M f_a`, :math:`e_a = M^\top f_b`
C integral     :math:`e = z`                         :math:`\dot q = f`
C derivative   :math:`f = \lambda`                   :math:`z = e`
I integral     :math:`f = z`                         :math:`\dot p = e`
I derivative   :math:`e = \lambda`                   :math:`z = f`
R              :math:`e = r f`
Re (a in)      :math:`f_a = f_b`,
               :math:`f_a = \gamma (e_a - e_b)`
Se / Sf        :math:`e = u` / :math:`f = u`         :math:`y = f` / :math:`y = e`
=============  =================================  =========================

Switched junctions (``0s``/``1s``) add the equations of :mod:`.switched`.

with :math:`s_i = +1` for a bond pointing into the junction, :math:`-1` out.  The
source outputs make :math:`u^\top y` the power the sources deliver.  An Re (reaction)
is a two-port resistor in conductance form: its conductance :math:`\gamma(x) \ge 0`
(``params["gamma"]``) is the log-mean of its mass-action flux, set by
:func:`porthamiltonian.bondgraph.reactions.with_conductances` before the equations
are assembled.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import sympy as sp

from ..naming import expand
from .graph import STORAGE, SWITCHED, BondGraph, Element
from .switched import switched_rows

Coefficient = Callable[[Any], Any]


@dataclass
class ElementEquations:
    """``rows[i] · v = rhs[i] · w`` and the results as combinations of ``v``."""

    rows: list[dict[int, Any]] = field(default_factory=list)
    rhs: list[dict[int, Any]] = field(default_factory=list)
    n_vars: int = 0
    knowns: list[str] = field(default_factory=list)  # names of w, in order
    rates: dict[str, dict[int, Any]] = field(default_factory=dict)  # ẋ of integral storages
    efforts: dict[str, dict[int, Any]] = field(default_factory=dict)  # z of dependent storages
    outputs: dict[str, dict[int, Any]] = field(default_factory=dict)  # y of sources
    owners: list[str] = field(default_factory=list)  # the element of each equation

    def add(self, owner: str, row: dict[int, Any], rhs: dict[int, Any] | None = None) -> None:
        self.rows.append({j: a for j, a in row.items() if not _zero(a)})
        self.rhs.append(rhs or {})
        self.owners.append(owner)

    def add_unit(self, owner: str, row: dict[int, Any], rhs: dict[int, Any]) -> None:
        """:meth:`add` for a row whose coefficients are ±1 (nothing to drop)."""
        self.rows.append(row)
        self.rhs.append(rhs)
        self.owners.append(owner)

    def known(self, name: str) -> int:
        self.knowns.append(name)
        return len(self.knowns) - 1


def _zero(a: Any) -> bool:
    return a == 0


def element_equations(bg: BondGraph, derivative: Iterable[str] = (),
                      coefficient: Coefficient = lambda a: a) -> ElementEquations:
    """Assemble the system; ``derivative`` names the storages in derivative causality.

    ``coefficient`` converts a SymPy parameter to the working field (``float`` for
    the numeric path, identity for the symbolic one).  Knowns are numbered: storage
    co-energies / multipliers in storage order, then source values.
    """
    derivative = set(derivative)
    eq = ElementEquations()
    base: dict[str, int] = {}
    n_vars = 0
    for b in bg.bonds:
        base[b.name] = n_vars
        n_vars += 2 * b.dim
    eq.n_vars = n_vars

    def e(b: Any, c: int) -> int:
        return base[b.name] + 2 * c

    def f(b: Any, c: int) -> int:
        return base[b.name] + 2 * c + 1

    # one pass over the elements (``kind`` is a property; a large graph asks it 10⁶ times
    # otherwise), the equations in the order storages, sources, resistors, the rest
    storages: list[tuple[str, Element]] = []
    sources: list[tuple[str, Element]] = []
    resistors: list[tuple[str, Element]] = []
    rest: list[tuple[str, Element]] = []
    for el in bg.elements.values():
        k = el.kind
        (storages if k in STORAGE else sources if k in ("Se", "Sf")
         else resistors if k == "R" else rest).append((k, el))
    adjacent = bg.bonds_at
    rows, rhs, owners, knowns = eq.rows, eq.rhs, eq.owners, eq.knowns  # add_unit inlined
    for kind, el in storages:
        (b,) = adjacent(el.name)
        at = base[b.name]
        integral = el.name not in derivative
        # C integral: e = z, q̇ = f; I integral: f = z, ṗ = e; derivative: the other way
        # (component c's effort is at + 2c, its flow at + 2c + 1)
        given, read = (0, 1) if (kind == "C") == integral else (1, 0)
        results = eq.rates if integral else eq.efforts
        for c, name in enumerate(el.states):
            rows.append({at + 2 * c + given: 1})
            rhs.append({len(knowns): 1})
            knowns.append(name)
            owners.append(el.name)
            results[name] = {at + 2 * c + read: 1}
    for kind, el in sources:
        (b,) = adjacent(el.name)
        given, read = (e, f) if kind == "Se" else (f, e)
        for c, name in enumerate(expand(el.name, el.dim)):
            eq.add_unit(el.name, {given(b, c): 1}, {eq.known(name): 1})
            eq.outputs[name] = {read(b, c): 1}
    converted: dict[int, Any] = {}  # a ladder's resistors share one value: convert it once
    for _, el in resistors:
        (b,) = adjacent(el.name)
        r = _matrix(el, "r", b.dim)
        for c in range(b.dim):
            row = {e(b, c): 1}
            for k in range(b.dim):
                v = r[c][k]
                a = converted.get(id(v))
                if a is None:
                    a = converted[id(v)] = -coefficient(v)
                row[f(b, k)] = a
            eq.add(el.name, row)
    for kind, el in rest:
        if el.type in SWITCHED:  # a junction whose switched bonds carry the signal s
            switched_rows(eq, bg, el, e, f, coefficient)
        elif kind in ("0", "1"):
            _junction(eq, adjacent(el.name), el, base)
        elif kind in ("TF", "GY"):
            _two_port(eq, bg, el, e, f, coefficient)
        elif kind == "Re":
            _reaction(eq, bg, el, e, f, coefficient)
    return eq


def _reaction(eq: ElementEquations, bg: BondGraph, el: Element, e: Any, f: Any,
              coefficient: Coefficient) -> None:
    """Re: one flow ``v`` on both bonds, ``v = γ (A_f − A_b)`` (``a`` in, ``b`` out)."""
    bonds = bg.bonds_of(el.name)
    a, b = (bonds[0], bonds[1]) if bonds[0].head == el.name else (bonds[1], bonds[0])
    g = coefficient(el.params["gamma"])
    eq.add(el.name, {f(b, 0): 1, f(a, 0): -1})
    eq.add(el.name, {f(a, 0): 1, e(a, 0): -g, e(b, 0): g})


def _matrix(el: Element, key: str, dim: int) -> Any:
    """The parameter as a ``dim × dim`` table (``m[i][j]``); a scalar means ``v·I``."""
    v = el.params[key]
    if isinstance(v, sp.MatrixBase):
        if v.shape == (dim, dim):
            return v.tolist()
        v = v[0, 0]
    return [[v if i == j else 0 for j in range(dim)] for i in range(dim)]


def _junction(eq: ElementEquations, bonds: Any, el: Element, base: dict[str, int]) -> None:
    """0: flows sum, efforts equal; 1: efforts sum, flows equal (``add_unit`` inlined
    and the variable numbers read from ``base``: a 10⁴-section ladder has 2·10⁴
    junctions)."""
    name = el.name
    # component c of bond b: effort base + 2c, flow base + 2c + 1
    summed, shared = (1, 0) if el.kind == "0" else (0, 1)
    at = [base[b.name] for b in bonds]
    sign = [1 if b.head == name else -1 for b in bonds]
    n = len(at)
    for c in range(bonds[0].dim):
        off_sum, off_shared = 2 * c + summed, 2 * c + shared
        first = at[0] + off_shared
        eq.rows.append({i + off_sum: s for i, s in zip(at, sign, strict=True)})
        eq.rows += [{i + off_shared: 1, first: -1} for i in at[1:]]
        eq.rhs += [_NO_KNOWNS] * n
        eq.owners += [name] * n


#: the right-hand side of a row without knowns (shared: rows' sides are only read)
_NO_KNOWNS: Mapping[int, Any] = MappingProxyType({})


def _two_port(eq: ElementEquations, bg: BondGraph, el: Element, e: Any, f: Any,
              coefficient: Coefficient) -> None:
    bonds = bg.bonds_of(el.name)
    a, b = (bonds[0], bonds[1]) if bonds[0].head == el.name else (bonds[1], bonds[0])
    k = el.dim
    M = _matrix(el, "ratio", k)
    # TF: f_b = M f_a, e_a = Mᵀ e_b;  GY: e_b = M f_a, e_a = Mᵀ f_b
    lhs_b, rhs_b = (f, e) if el.kind == "TF" else (e, f)
    for c in range(k):
        row = {lhs_b(b, c): 1}
        for j in range(k):
            row[f(a, j)] = -coefficient(M[c][j])
        eq.add(el.name, row)
    for c in range(k):
        row = {e(a, c): 1}
        for j in range(k):
            row[rhs_b(b, j)] = -coefficient(M[j][c])
        eq.add(el.name, row)
