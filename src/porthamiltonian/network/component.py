r"""Components: port-Hamiltonian systems with named power ports.

A component is a PHS

.. math::
    \dot x = (J - R)\,\nabla H(x) + (G - P)\,u,\qquad y = (G + P)^\top \nabla H(x) + (M + S)\,u

whose inputs are grouped into power ports (:class:`~.ports.Port`); inputs not in
any port are *external inputs* (the value of a source, a control signal) and stay
inputs of the assembled network.  For a port ``p`` with input ``u_p`` and output
``y_p``, ``u_pᵀ y_p`` is the power into the component through ``p``.

Library components (:mod:`porthamiltonian.library`) subclass :class:`Component`
and write their constitutive law once, in :meth:`Component.law`, for numbers and
for symbols alike; any PHS becomes a component with :meth:`Component.from_phs`,
and a bond graph with :meth:`Component.from_bondgraph` (its Se/Sf are its ports).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError
from ..expr import parameter_symbol, state_symbol
from ..phs import PHS
from ..quantities import Quantities, Quantity
from .ports import Port, network_domain


@dataclass
class Law:
    """The PHS of a component in local names (what :meth:`Component.law` returns).

    ``J R G P M S`` are nested lists, arrays or SymPy matrices (``None``: zero);
    give either ``Q`` (``H = ½ xᵀQx``) or ``hamiltonian`` (a SymPy expression in
    the symbols returned by :meth:`Context.x`).  ``inputs`` lists the input names:
    the port inputs and any external inputs (source values).
    """

    states: list[str]
    inputs: list[str]
    J: Any = None
    R: Any = None
    G: Any = None
    P: Any = None
    M: Any = None
    S: Any = None
    Q: Any = None
    hamiltonian: Any = None
    #: placeholder symbol -> local input name of the port scalar whose *effort* it is
    modulating: dict[sp.Symbol, str] = field(default_factory=dict)
    #: physical meaning of the states: local state -> (``"C"`` or ``"I"``, domain); a C
    #: state is a displacement whose co-energy is the effort (a capacitor's charge and
    #: voltage), an I state a momentum whose co-energy is the flow (an inertia's angular
    #: momentum and speed); :mod:`porthamiltonian.quantities`
    storages: dict[str, tuple[str, str]] = field(default_factory=dict)
    #: names of the outputs conjugate to :attr:`inputs`, in order (default: the inputs'
    #: names); a source's output is its conjugate variable (``i`` of a voltage source)
    outputs: list[str] | None = None
    #: quantity of an external input or output by local name (a source's value and
    #: the variable it returns)
    signals: dict[str, Quantity] = field(default_factory=dict)
    #: a ready annotation in local names (a wrapped PHS's), prefixed in a network
    annotation: Quantities | None = None


class Context:
    """What :meth:`Component.law` gets: parameter values and symbol factories.

    ``c.R`` (or ``c["R"]``) is the value of parameter ``R``: a float on the numeric
    path, a symbol (with its value attached to the system) on the symbolic path.
    ``c.x("phi")`` is the state symbol of the local state ``phi`` (symbolic path
    only: a component whose law needs it is nonlinear).  ``c.effort("a")`` is a
    placeholder for the effort at the component's own port scalar ``a``, replaced
    by its value in the assembled network (effort-modulated elements such as heat
    conduction).
    """

    def __init__(self, values: Mapping[str, Any], prefix: str, symbolic: bool,
                 owner: str) -> None:
        self._values = dict(values)
        self.prefix = prefix
        self.symbolic = symbolic
        self.owner = owner
        self.modulating: dict[sp.Symbol, str] = {}

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return self[name]

    def __getitem__(self, name: str) -> Any:
        try:
            return self._values[name]
        except KeyError:
            raise ModelError(f"{self.owner}: no parameter {name!r}") from None

    def x(self, name: str) -> sp.Symbol:
        if not self.symbolic:
            raise _NeedsSymbolic(self.owner)
        return state_symbol(self.prefix + name)

    def effort(self, port_input: str) -> sp.Symbol:
        if not self.symbolic:
            raise _NeedsSymbolic(self.owner)
        sym = sp.Symbol(f"{self.prefix}{port_input}.e", real=True)
        self.modulating[sym] = port_input
        return sym


class _NeedsSymbolic(ModelError):
    def __init__(self, owner: str) -> None:
        super().__init__(
            f"{owner} is nonlinear (its Hamiltonian or its matrices depend on the state "
            "or on port efforts); assemble the network with symbolic=True"
        )


class Component:
    """A port-Hamiltonian system with named power ports.

    Subclasses set :attr:`ports` (and call ``super().__init__(**parameters)``) and
    implement :meth:`law`.  Parameters may be numbers, SymPy expressions, ``None``
    (a symbol without a value) or a string naming a network-level parameter (one
    symbol shared by several components; its value is given to
    :class:`~porthamiltonian.network.Network`).

    Inside a network ``net.add("R1", comp)`` the states, inputs and parameters of
    the component are named ``R1.<local name>``.
    """

    #: True when the law needs symbols (non-quadratic H, state-dependent matrices)
    nonlinear: bool = False

    def __init__(self, ports: Sequence[Port] = (), **parameters: Any) -> None:
        self.ports: dict[str, Port] = {}
        for p in ports:
            if p.name in self.ports:
                raise ModelError(f"{type(self).__name__}: two ports named {p.name!r}")
            self.ports[p.name] = p
        self.parameters: dict[str, Any] = dict(parameters)

    # ------------------------------------------------------------------ the law
    def law(self, c: Context) -> Law:  # pragma: no cover - abstract
        raise NotImplementedError

    def _context(self, prefix: str, symbolic: bool,
                 shared: Mapping[str, Any] | None = None) -> tuple[Context, dict[str, Any]]:
        """Context for :meth:`law` and the parameter values of the symbols it uses."""
        owner = f"component {prefix[:-1]!r} ({type(self).__name__})" if prefix else \
            type(self).__name__
        values: dict[str, Any] = {}
        attached: dict[str, Any] = {}
        for key, val in self.parameters.items():
            if isinstance(val, str):  # a network-level parameter shared by name
                value = (shared or {}).get(val)
                if symbolic:
                    values[key] = parameter_symbol(val, value)
                    attached[val] = value
                else:
                    values[key] = _number(value, owner, key, val)
            elif isinstance(val, sp.Basic) and not val.is_number:
                # an expression in network-level parameters: their values are attached
                given = {s: (shared or {}).get(s.name) for s in val.free_symbols}
                if not symbolic:
                    if any(v is None for v in given.values()):
                        raise ModelError(f"{owner}: parameter {key!r} = {val} is symbolic; "
                                         "assemble with symbolic=True")
                    values[key] = float(val.xreplace({s: sp.sympify(v)
                                                      for s, v in given.items()}))
                else:
                    values[key] = val
                    attached.update({s.name: v for s, v in given.items()})
            elif val is None:
                if not symbolic:
                    raise ModelError(f"{owner}: parameter {key!r} has no value; give one or "
                                     "assemble with symbolic=True")
                values[key] = parameter_symbol(prefix + key)
                attached[prefix + key] = None
            elif symbolic:
                values[key] = parameter_symbol(prefix + key, val)
                attached[prefix + key] = val
            else:
                values[key] = float(val)
        return Context(values, prefix, symbolic, owner), attached

    def evaluate(self, prefix: str = "", symbolic: bool = True,
                 shared: Mapping[str, Any] | None = None) -> tuple[Law, dict[str, Any]]:
        """The law in the names ``prefix + local`` and the parameters it uses."""
        c, attached = self._context(prefix, symbolic, shared)
        law = self.law(c)
        law.modulating = dict(c.modulating)
        ports_inputs = [u for p in self.ports.values() for u in p.inputs]
        missing = [u for u in ports_inputs if u not in law.inputs]
        if missing:
            raise ModelError(f"{c.owner}: port input(s) {', '.join(missing)} are not inputs "
                             f"of its PHS ({', '.join(law.inputs)})")
        return law, attached

    def system(self, symbolic: bool = True) -> PHS:
        """The component's PHS in local names (outputs named by :attr:`Law.outputs`,
        default like their inputs), with its :class:`~porthamiltonian.quantities.Quantities`."""
        law, attached = self.evaluate("", symbolic)
        sys = phs_of(law, attached, name=type(self).__name__)
        sys.quantities = law_quantities(law, "", type(self).__name__)
        return sys

    def external_inputs(self) -> list[str]:
        """Inputs not in any power port (source values, control signals)."""
        law, _ = self.evaluate("", symbolic=True)
        in_ports = {u for p in self.ports.values() for u in p.inputs}
        return [u for u in law.inputs if u not in in_ports]

    # ------------------------------------------------------------------ wrappers
    @staticmethod
    def from_phs(system: PHS, ports: Sequence[Port]) -> Component:
        """Any :class:`~porthamiltonian.PHS` as a component; ``ports`` group its inputs."""
        return PHSComponent(system, ports)

    @staticmethod
    def from_bondgraph(bg: Any, domains: Mapping[str, str] | None = None,
                       symbolic: bool | None = None) -> Component:
        """A bond graph as a component: each Se is an effort-in port, each Sf a flow-in
        port, named after the source, power counted into the graph (bonds point out of
        sources).  ``domains`` gives each port's domain (default: the source's domain in
        the graph, :mod:`porthamiltonian.bondgraph.domains`)."""
        from ..bondgraph.domains import bond_domains
        from ..bondgraph.generate import to_phs

        sys = to_phs(bg, symbolic=symbolic)
        domains = dict(domains or {})
        found = bond_domains(bg)
        ports = []
        for el in bg.sources():
            dom = domains.pop(el.name, None) or network_domain(found.of(el.name).name)
            ports.append(Port(el.name, dom, "effort" if el.kind == "Se" else "flow",
                              dim=el.dim, inputs=tuple(
                                  [el.name] if el.dim == 1 else
                                  [f"{el.name}[{k}]" for k in range(el.dim)])))
        if domains:
            raise ModelError(f"domains given for unknown source(s) {', '.join(domains)}; "
                             f"the bond graph's sources are "
                             f"{', '.join(e.name for e in bg.sources())}")
        return PHSComponent(sys, ports)

    def __repr__(self) -> str:
        ports = ", ".join(self.ports)
        return f"<{type(self).__name__} ports=({ports}) {self.parameters}>"


class PHSComponent(Component):
    """A component given by a ready-made PHS (see :meth:`Component.from_phs`)."""

    def __init__(self, system: PHS, ports: Sequence[Port]) -> None:
        super().__init__(ports)
        self._sys = system
        self.nonlinear = system.symbolic and system.Q is None
        for p in self.ports.values():
            for u in p.inputs:
                if u not in system.inputs:
                    raise ModelError(f"port {p.name!r}: {u!r} is not an input of the system "
                                     f"(inputs: {', '.join(system.inputs)})")

    def law(self, c: Context) -> Law:
        sys = self._sys
        states = list(sys.states)
        if c.symbolic:
            rename = {x: state_symbol(c.prefix + x.name) for x in sys.state_symbols}
            mats = {k: sp.ImmutableMatrix(v).xreplace(rename) if sys.symbolic
                    else sp.ImmutableMatrix(np.asarray(_dense(v)))
                    for k, v in sys.matrices().items()}
            H = sys.hamiltonian.xreplace(rename)
            return Law(states, list(sys.inputs), hamiltonian=H, outputs=list(sys.outputs),
                       annotation=sys.quantities, **mats)
        num = sys.numeric() if sys.symbolic else sys
        mats = {k: _dense(v) for k, v in num.matrices().items()}
        return Law(states, list(sys.inputs), Q=_dense(num.Q), outputs=list(sys.outputs),
                   annotation=sys.quantities, **mats)

    def evaluate(self, prefix: str = "", symbolic: bool = True,
                 shared: Mapping[str, Any] | None = None) -> tuple[Law, dict[str, Any]]:
        law, _ = super().evaluate(prefix, symbolic, shared)
        return law, dict(self._sys.parameters) if symbolic else {}


def _dense(A: Any) -> np.ndarray:
    from .._matrices import to_dense

    return to_dense(A)


def _number(value: Any, owner: str, key: str, name: str) -> float:
    if value is None:
        raise ModelError(f"{owner}: parameter {key!r} refers to the network parameter "
                         f"{name!r}, which has no value; give Network(parameters={{{name!r}: "
                         "...}}) or assemble with symbolic=True")
    return float(value)


def phs_of(law: Law, parameters: Mapping[str, Any], name: str = "") -> PHS:
    """The PHS of a law (outputs named by ``law.outputs``, default like the inputs)."""
    common = {"states": law.states, "inputs": law.inputs,
              "outputs": law.outputs if law.outputs is not None else law.inputs,
              "name": name}
    mats = {k: getattr(law, k) for k in ("J", "R", "G", "P", "M", "S")}
    mats = {k: (np.zeros((len(law.states) if k in "JRGP" else len(law.inputs),
                          len(law.states) if k in "JR" else len(law.inputs)))
                if v is None else v) for k, v in mats.items()}
    if law.hamiltonian is not None:
        return PHS(**mats, hamiltonian=law.hamiltonian, parameters=dict(parameters), **common)
    symbolic = any(isinstance(v, sp.Basic) or (isinstance(v, (list, tuple)) and _has_sym(v))
                   or isinstance(v, sp.MatrixBase) for v in (*mats.values(), law.Q))
    if symbolic:
        Q = sp.Matrix(law.Q) if law.Q is not None else sp.zeros(len(law.states))
        xs = sp.Matrix([state_symbol(s) for s in law.states])
        H = (xs.T * Q * xs)[0, 0] / 2 if law.states else sp.S.Zero
        return PHS(**{k: sp.Matrix(v) for k, v in mats.items()}, hamiltonian=H,
                   parameters=dict(parameters), **common)
    Q = np.zeros((0, 0)) if law.Q is None else np.asarray(law.Q, dtype=float)
    return PHS(**{k: np.asarray(v, dtype=float) for k, v in mats.items()}, Q=Q, **common)


def _has_sym(v: Any) -> bool:
    if isinstance(v, (list, tuple)):
        return any(_has_sym(w) for w in v)
    return isinstance(v, sp.Basic)


def law_quantities(law: Law, prefix: str, element: str) -> Quantities | None:
    """The :class:`~porthamiltonian.quantities.Quantities` of a law in the names
    ``prefix + local`` (``None`` when the law says nothing): a
    :class:`~porthamiltonian.quantities.StateInfo` per declared storage state, its
    element ``element`` (the component's name in a network); the quantities of its
    external signals; a wrapped system's annotation renamed with the prefix."""
    from ..quantities import storage_info

    parts: list[Quantities | None] = []
    if law.annotation is not None:
        outs = law.outputs if law.outputs is not None else law.inputs
        table = {n: prefix + n for n in (*law.states, *law.inputs, *outs)}
        parts.append(law.annotation.rename(lambda n: prefix + n, table) if prefix
                     else law.annotation)
    if law.storages or law.signals:
        states = {prefix + s: storage_info(prefix + s, element, kind, dom)
                  for s, (kind, dom) in law.storages.items()}
        parts.append(Quantities(states, {prefix + k: q for k, q in law.signals.items()}))
    return Quantities.merge(parts)
