r"""Physical meaning of a model's variables: quantity kinds, SI units, co-energy names.

A port-Hamiltonian state :math:`x_i` is an energy variable (charge, flux linkage,
momentum, displacement …); its co-energy :math:`e_i = \partial H/\partial x_i` is what a
user measures (voltage, current, velocity, force …).  In bond-graph terms a storage of
type C holds a *generalized displacement* :math:`q` with co-energy the effort
:math:`e`, a storage of type I a *generalized momentum* :math:`p` with co-energy the flow
:math:`f` (Karnopp, Margolis & Rosenberg, *System Dynamics*, 5th ed., Table 2.1; Duindam
et al., *Modeling and Control of Complex Physical Systems*, 2009, §1.2).  The
:data:`DOMAINS` table gives the four variables of each energy domain with their SI units.

A :class:`Quantities` annotation is attached to a model (``system.quantities``) by the
front-end that knows the domain (a bond graph with ``domain:``, the component library,
a mechanism); it is keyed by state and port names, so it survives renaming and
interconnection.  It also carries :class:`Observable` series — named functions of the
state (the speed of a storage merged away, a joint angle, a constraint force) — that a
simulation result evaluates on demand.  A model without the annotation still gets
generic names (``dH/dx``) and no units.

Units are strings in the notation of pint (``"V"``, ``"N*m"``, ``"rad/s"``); ``""`` is
dimensionless or unknown.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

__all__ = ["Quantity", "Domain", "DOMAINS", "StateInfo", "Observable", "Quantities",
           "domain", "storage_info", "coenergy_name", "GENERIC", "quantities_of", "pretty_unit",
           "OBSERVE_UP_TO", "removed_storage"]


@dataclass(frozen=True)
class Quantity:
    """A kind of physical quantity: ``kind`` in words, its SI ``unit``, a short
    ``symbol`` used in variable names (``"i"`` in ``"L1.i"``)."""

    kind: str
    unit: str = ""
    symbol: str = ""

    def label(self) -> str:
        """Axis label: ``"current (A)"``, or the kind alone when there is no unit."""
        return f"{self.kind} ({pretty_unit(self.unit)})" if self.unit else self.kind


_SUPERSCRIPTS = str.maketrans("0123456789-", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻")


def pretty_unit(unit: str) -> str:
    """A unit for people: ``"N*m*s"`` → ``"N·m·s"``, ``"m**3/s"`` → ``"m³/s"``."""
    out = unit.replace("**", "^").replace("*", "·")
    while "^" in out:
        head, _, tail = out.partition("^")
        digits = ""
        while tail and (tail[0].isdigit() or (tail[0] == "-" and not digits)):
            digits, tail = digits + tail[0], tail[1:]
        out = head + digits.translate(_SUPERSCRIPTS) + tail
    return out


@dataclass(frozen=True)
class Domain:
    """The power variables (effort, flow) and energy variables (displacement
    :math:`q = \\int f\\,dt`, momentum :math:`p = \\int e\\,dt`) of an energy domain."""

    name: str
    effort: Quantity
    flow: Quantity
    displacement: Quantity
    momentum: Quantity


def _d(name: str, effort: tuple[str, str, str], flow: tuple[str, str, str],
       q: tuple[str, str, str], p: tuple[str, str, str]) -> Domain:
    return Domain(name, Quantity(*effort), Quantity(*flow), Quantity(*q), Quantity(*p))


#: energy domains (effort × flow = power in W; Karnopp et al., Table 2.1)
DOMAINS: dict[str, Domain] = {d.name: d for d in (
    _d("generic", ("effort", "", "e"), ("flow", "", "f"),
       ("displacement", "", "q"), ("momentum", "", "p")),
    _d("electrical", ("voltage", "V", "v"), ("current", "A", "i"),
       ("charge", "C", "q"), ("flux linkage", "Wb", "phi")),
    _d("translational", ("force", "N", "F"), ("velocity", "m/s", "v"),
       ("displacement", "m", "x"), ("momentum", "N*s", "p")),
    _d("rotational", ("torque", "N*m", "tau"), ("angular velocity", "rad/s", "w"),
       ("angle", "rad", "theta"), ("angular momentum", "N*m*s", "p")),
    _d("hydraulic", ("pressure", "Pa", "P"), ("volume flow", "m**3/s", "Q"),
       ("volume", "m**3", "V"), ("pressure momentum", "Pa*s", "Gamma")),
    _d("magnetic", ("magnetomotive force", "A", "F"), ("flux rate", "V", "dphi"),
       ("magnetic flux", "Wb", "phi"), ("magnetomotive momentum", "A*s", "p")),
    _d("thermal", ("temperature", "K", "T"), ("entropy flow", "W/K", "Sdot"),
       ("entropy", "J/K", "S"), ("thermal momentum", "K*s", "p")),
    _d("chemical", ("chemical potential", "J/mol", "mu"), ("molar flow", "mol/s", "v"),
       ("amount", "mol", "n"), ("chemical momentum", "J*s/mol", "p")),
)}
GENERIC = DOMAINS["generic"]


def domain(name: str | None) -> Domain:
    """The :class:`Domain` called ``name`` (``None``: generic); a clear error otherwise."""
    if name is None:
        return GENERIC
    key = str(name).strip().lower()
    aliases = {"mechanical": "translational", "rotation": "rotational",
               "translation": "translational", "electric": "electrical",
               "heat": "thermal", "fluid": "hydraulic"}
    key = aliases.get(key, key)
    if key not in DOMAINS:
        from .errors import ModelError

        raise ModelError(f"unknown domain {name!r}; known: {', '.join(sorted(DOMAINS))}")
    return DOMAINS[key]


#: suffixes of state names that name the energy variable itself (``load.p``, ``motor.phi``)
_STATE_SUFFIXES = frozenset({"q", "p", "phi", "x", "theta", "V", "S", "n", "Gamma", "h"})


def coenergy_name(state: str, symbol: str) -> str:
    """Name of the co-energy of ``state``: ``"L1"`` → ``"L1.i"``; a state already named
    after its energy variable (``"load.p"``) has it replaced (``"load.w"``)."""
    base, dot, suffix = state.rpartition(".")
    if dot and suffix in _STATE_SUFFIXES:
        return f"{base}.{symbol}"
    return f"{state}.{symbol}"


@dataclass(frozen=True)
class StateInfo:
    """A state's storage ``element``, its own quantity, and its co-energy's quantity and
    name (the series ``res[coenergy_name]``)."""

    element: str
    quantity: Quantity
    coenergy: Quantity
    coenergy_name: str


def storage_info(state: str, element: str, kind: str, dom: Domain | str | None = None
                 ) -> StateInfo:
    """:class:`StateInfo` of a storage of bond-graph ``kind`` ``"C"`` (state a
    displacement, co-energy the effort) or ``"I"`` (a momentum, co-energy the flow)."""
    d = dom if isinstance(dom, Domain) else domain(dom)
    if kind == "C":
        q, e = d.displacement, d.effort
    elif kind == "I":
        q, e = d.momentum, d.flow
    else:
        raise ValueError(f"storage kind must be 'C' or 'I', not {kind!r}")
    return StateInfo(element, q, e, coenergy_name(state, e.symbol))


@dataclass(frozen=True)
class Observable:
    r"""A named series derived from a result: ``expr`` (a SymPy expression in the
    system's state, input and parameter symbols, by name) or ``func`` (a function of the
    whole :class:`~porthamiltonian.simulate.SimulationResult` returning one value per
    saved point).  ``role`` groups it (``"coenergy"``, ``"joint"``, ``"body"``,
    ``"force"``, ``"observable"``); ``shown`` puts it in the default summary and plot.
    """

    name: str
    quantity: Quantity
    expr: Any = None
    func: Callable[[Any], Any] | None = None
    role: str = "observable"
    element: str = ""
    description: str = ""
    shown: bool = False

    def __post_init__(self) -> None:
        if (self.expr is None) == (self.func is None):
            raise ValueError(f"observable {self.name!r}: give exactly one of expr= and func=")


#: above this many kept states, storages a reduction removes (merged, eliminated) get no
#: observables: each would be a dense expression in every kept state
OBSERVE_UP_TO = 200


def removed_storage(state: str, info: StateInfo, x: Any, e: Any, how: str
                    ) -> tuple[Observable, Observable]:
    """The two observables of a storage a reduction removed (``how``: ``"merged"``,
    ``"eliminated"``): its state ``x`` and its co-energy ``e``, SymPy expressions in the
    kept states."""
    return (Observable(state, info.quantity, expr=x, role="state", element=info.element,
                       description=f"{state}, {how}: reconstructed from the kept states"),
            Observable(info.coenergy_name, info.coenergy, expr=e, role="coenergy",
                       element=info.element, description=f"∂H/∂{state} of the {how} storage"))


@dataclass(frozen=True)
class Quantities:
    """Physical meaning of a model's variables, keyed by name (see the module docstring).

    ``states``: state name → :class:`StateInfo`; ``ports``: input or output name →
    :class:`Quantity`; ``observables``: extra named series; ``shown``: when true, only
    the observables marked ``shown`` are the default display (a mechanism shows joint
    angles, not rotation matrices), otherwise co-energies are shown too.
    """

    states: Mapping[str, StateInfo] = field(default_factory=dict)
    ports: Mapping[str, Quantity] = field(default_factory=dict)
    observables: tuple[Observable, ...] = ()
    shown_only: bool = False

    def rename(self, name: Callable[[str], str],
               symbols: Mapping[str, str] | None = None) -> Quantities:
        """Every state, port and observable name mapped through ``name`` (element
        names too, so a prefix reaches them); the symbols of observable expressions
        named in ``symbols`` (old state/input name → new) renamed with them."""
        table = dict(symbols or {})
        return Quantities(
            {name(s): replace(i, element=name(i.element), coenergy_name=name(i.coenergy_name))
             for s, i in self.states.items()},
            {name(p): q for p, q in self.ports.items()},
            tuple(replace(o, name=name(o.name), element=name(o.element) if o.element else "",
                          expr=_rename_symbols(o.expr, table))
                  for o in self.observables),
            self.shown_only,
        )

    def restrict(self, states: Iterable[str], ports: Iterable[str]) -> Quantities:
        """Only the given states and ports (after an elimination or a connection)."""
        keep_s, keep_p = set(states), set(ports)
        return Quantities({s: i for s, i in self.states.items() if s in keep_s},
                          {p: q for p, q in self.ports.items() if p in keep_p},
                          self.observables, self.shown_only)

    def substituted(self, values: Mapping[Any, Any]) -> Quantities:
        """The observables' expressions with parameter values put in (SymPy symbol →
        value), for a system that no longer carries its parameters."""
        if not values:
            return self
        return replace(self, observables=tuple(
            replace(o, expr=o.expr.xreplace(values)) if o.expr is not None else o
            for o in self.observables))

    def with_observables(self, extra: Iterable[Observable]) -> Quantities:
        return replace(self, observables=(*self.observables, *extra))

    @staticmethod
    def merge(parts: Iterable[Quantities | None]) -> Quantities | None:
        """The union of several annotations (``None`` entries skipped; ``None`` if all are)."""
        got = [q for q in parts if q is not None]
        if not got:
            return None
        states: dict[str, StateInfo] = {}
        ports: dict[str, Quantity] = {}
        obs: list[Observable] = []
        for q in got:
            states.update(q.states)
            ports.update(q.ports)
            obs.extend(q.observables)
        return Quantities(states, ports, tuple(obs), any(q.shown_only for q in got))


def _rename_symbols(expr: Any, table: Mapping[str, str]) -> Any:
    """``expr`` with its symbols renamed by ``table`` (assumptions kept)."""
    if expr is None or not table:
        return expr
    import sympy as sp  # only when there is an expression: layer 0 stays light

    rep = {s: sp.Symbol(table[s.name], **s.assumptions0)
           for s in expr.free_symbols if s.name in table}
    return expr.xreplace(rep) if rep else expr


def quantities_of(system: Any) -> Quantities | None:
    """The annotation of ``system`` (a PHS, a descriptor system, a mechanism …), if any."""
    q = getattr(system, "quantities", None)
    return q if isinstance(q, Quantities) else None
