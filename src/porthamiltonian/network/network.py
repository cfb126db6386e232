r"""Networks of components joined at their power ports.

>>> from porthamiltonian import network, library
>>> net = network.Network("rc")
>>> net.add("V", library.electrical.VoltageSource())
>>> net.add("R", library.electrical.Resistor(R=1e3))
>>> net.add("C", library.electrical.Capacitor(C=1e-6))
>>> net.junction("1", "V.p", "R.p", "C.p")   # series loop: one current
>>> sys = net.system()                        # PHS, state "C.q", input "V.u"

Connections (all power conserving, so the assembled system is again port-Hamiltonian):

* ``connect("a.p", "b.q")``: shared effort, opposite flows
  (:math:`e_a = e_b`, :math:`f_{\mathrm{in},a} + f_{\mathrm{in},b} = 0`: what leaves
  one component enters the other);
* ``junction("0", ports...)``: one effort at all the ports, flows into the
  components summing to zero (a node of an electrical circuit, a pressure node);
* ``junction("1", ports...)``: one flow through all the ports, counted in each port's
  own orientation (``"in"`` ports receive it, ``"out"`` ports deliver it), and
  :math:`\sum_i o_i e_i = 0` with :math:`o_i = \pm 1` the orientation (a series loop,
  a rigid body: one velocity, balance of forces).

A junction on multi-dimensional ports acts componentwise.  See docs/network.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..descriptor import DescriptorPHS
from ..errors import ModelError, NoExplicitFormError
from ..phs import PHS
from .assemble import Node, assemble
from .component import Component, Context, Law, PHSComponent
from .ports import Port

SYMBOLIC_LIMIT = 60  # default: symbolic assembly for networks of up to this many components


class Network:
    """A network of components (see the module docstring).

    Parameters
    ----------
    name:
        Name of the assembled system.
    parameters:
        Values of network-level parameters (components refer to them by giving a
        parameter as a string, e.g. ``Resistor(R="R")``).
    """

    def __init__(self, name: str = "network", parameters: Mapping[str, Any] | None = None):
        self.name = name
        self.parameters: dict[str, Any] = dict(parameters or {})
        self.components: dict[str, Component] = {}
        self.nodes: list[Node] = []
        self.exposed: dict[str, str] = {}
        self._used: dict[str, str] = {}  # "comp.port" -> node label
        self._junctions: dict[str, Node] = {}  # named junctions

    # ------------------------------------------------------------------ building
    def add(self, name: str, component: Component | Network) -> Component:
        """Add a component (or a network, used as a composite through its exposed ports)."""
        if not isinstance(name, str) or not name.isidentifier():
            raise ModelError(f"component name {name!r} must be an identifier (letters, digits, "
                             "'_'; no dots: 'a.p' means port p of component a)")
        if name in self.components:
            raise ModelError(f"a component named {name!r} is already in the network")
        if isinstance(component, Network):
            component = component.as_component()
        if not isinstance(component, Component):
            raise ModelError(f"{name!r}: expected a Component or a Network, got "
                             f"{type(component).__name__}; wrap a PHS with "
                             "Component.from_phs(sys, ports)")
        self.components[name] = component
        return component

    def port(self, ref: str) -> Port:
        """The port ``"component.port"``."""
        comp, _, pname = ref.partition(".")
        if comp not in self.components:
            raise ModelError(f"{ref!r}: no component {comp!r}; components: "
                             f"{', '.join(self.components) or '(none)'}")
        ports = self.components[comp].ports
        if pname not in ports:
            raise ModelError(f"{ref!r}: component {comp!r} ({type(self.components[comp]).__name__})"
                             f" has no port {pname!r}; its ports: {', '.join(ports) or '(none)'}")
        return ports[pname]

    def connect(self, a: str, b: str) -> None:
        """Join two ports: shared effort, opposite flows (a two-port 0-junction)."""
        if a == b:
            raise ModelError(f"cannot connect port {a!r} to itself")
        self._node("0", [a, b], f"connect({a!r}, {b!r})")

    def junction(self, kind: str, *ports: str, name: str | None = None) -> None:
        """A junction node of ``kind`` ``"0"`` / ``"effort"`` (one effort) or ``"1"`` /
        ``"flow"`` (one flow) joining ``ports`` (at least two).

        A junction given a ``name`` can be joined to later junctions: writing that name
        among their ports puts a bond between the two (power positive from the named
        junction to the new one), as in a bond graph — e.g. the series branch of a ladder
        (``"1"``) between two nodes (``"0"``).
        """
        kinds = {"0": "0", "effort": "0", "1": "1", "flow": "1"}
        if str(kind) not in kinds:
            raise ModelError(f"junction kind must be '0' (common effort) or '1' (common "
                             f"flow), got {kind!r}")
        if len(ports) < 2:
            raise ModelError(f"a junction joins at least two ports, got {list(ports)}")
        if name is not None and (not name.isidentifier() or name in self.components
                                 or name in self._junctions):
            raise ModelError(f"junction name {name!r} must be an identifier not used by a "
                             "component or another junction")
        label = f"junction {name}" if name else f"junction {kind}({', '.join(ports)})"
        refs = [self._bond_from(p, label) if p in self._junctions else p for p in ports]
        node = self._node(kinds[str(kind)], refs, label)
        if name is not None:
            self._junctions[name] = node

    def _bond_from(self, junction: str, label: str) -> str:
        """A bond from the named junction to a new one: an identity two-port whose port
        ``a`` joins the named junction; returns its port ``b``."""
        node = self._junctions[junction]
        first = node.ports[0][2]
        name = f"_bond{len(self.components)}"
        while name in self.components:
            name += "_"
        self.components[name] = _Bond(first.domain, first.dim)
        ref = f"{name}.a"
        node.ports.append((ref, name, self.components[name].ports["a"]))
        self._used[ref] = node.label
        return f"{name}.b"

    def _node(self, kind: str, refs: list[str], label: str) -> Node:
        resolved = []
        first = None
        for ref in refs:
            port = self.port(ref)
            if ref in self._used:
                raise ModelError(f"over-determined connection: port {ref!r} is already used in "
                                 f"{self._used[ref]}; it cannot also be in {label} — join all "
                                 "the ports of one node with a single net.junction(...)")
            if ref in self.exposed:
                raise ModelError(f"port {ref!r} is exposed; it cannot also be connected")
            if first is not None:
                fref, fport = first
                if port.domain != fport.domain:
                    raise ModelError(
                        f"cannot join {fref!r} ({fport.domain}: {fport.effort[0]} / "
                        f"{fport.flow[0]}) with {ref!r} ({port.domain}: {port.effort[0]} / "
                        f"{port.flow[0]}): the domains differ; put a transducer (e.g. a "
                        "gyrator or a transformer component) between them")
                if port.dim != fport.dim:
                    raise ModelError(f"cannot join {fref!r} (dimension {fport.dim}) with "
                                     f"{ref!r} (dimension {port.dim})")
            else:
                first = (ref, port)
            if refs.count(ref) > 1:
                raise ModelError(f"port {ref!r} appears twice in {label}")
            resolved.append((ref, ref.partition(".")[0], port))
        for ref in refs:
            self._used[ref] = label
        node = Node(kind, resolved, label)
        self.nodes.append(node)
        return node

    def expose(self, ref: str, as_: str | None = None) -> None:
        """Make the unconnected port ``ref`` a port of the network (an input/output pair
        of the assembled system, and a port of the composite component)."""
        self.port(ref)
        if ref in self._used:
            raise ModelError(f"port {ref!r} is connected ({self._used[ref]}); expose an "
                             "unconnected port")
        new = as_ or ref
        if new in self.exposed.values():
            raise ModelError(f"two exposed ports are named {new!r}")
        self.exposed[ref] = new

    # ------------------------------------------------------------------ assembly
    def system(self, symbolic: bool | None = None, reduce: bool = True) -> PHS | DescriptorPHS:
        """The assembled port-Hamiltonian system.

        Parameters
        ----------
        symbolic:
            ``True``: SymPy matrices, parameters as symbols named ``component.param``
            (values attached).  ``False``: floating point (sparse for large networks;
            needs numeric parameters and linear components).  Default: symbolic for up
            to 60 components or when a component is nonlinear.
        reduce:
            When the connections create constraints (dependent storages), return the
            explicit PHS of :meth:`DescriptorPHS.to_phs` (``result.reduction`` says
            which states were eliminated) when it exists; ``False`` returns the
            :class:`~porthamiltonian.DescriptorPHS`.

        States are named ``component.state``; inputs are the exposed ports then the
        external inputs of the components (``component.input``); each output is named
        after the conjugate variable of its input (``V.i`` for a voltage source ``V``,
        ``shaft.w`` for an exposed rotational port ``shaft`` that receives a torque).
        ``uᵀy`` is the power delivered into the network.  The system carries the
        components' :class:`~porthamiltonian.quantities.Quantities` (domains, SI units,
        co-energy names; the eliminated states as observables): docs/network.md.
        """
        if not self.components:
            raise ModelError(f"network {self.name!r} has no components")
        if symbolic is None:
            symbolic = (len(self.components) <= SYMBOLIC_LIMIT
                        or any(c.nonlinear for c in self.components.values()))
        sys = assemble(list(self.components.items()), self.nodes, self.exposed,
                       symbolic=symbolic, shared=self.parameters, name=self.name)
        if isinstance(sys, DescriptorPHS) and reduce:
            try:
                return sys.to_phs()
            except NoExplicitFormError:
                return sys
        return sys

    def as_component(self, symbolic: bool | None = None) -> Component:
        """The network as a component whose ports are its exposed ports."""
        sys = self.system(symbolic=symbolic)
        if isinstance(sys, DescriptorPHS):
            raise NoExplicitFormError(
                f"network {self.name!r} has constraints without an explicit form; it cannot "
                "be used as a component")
        ports = []
        for ref, new in self.exposed.items():
            p = self.port(ref)
            inputs = (new,) if p.dim == 1 else tuple(f"{new}[{k}]" for k in range(p.dim))
            ports.append(Port(new, p.domain, p.causality, p.orientation, p.dim, inputs))
        return PHSComponent(sys, ports)

    @classmethod
    def from_model(cls, model: Any) -> Network:
        """A network from a loaded model file with a ``network`` section
        (:mod:`porthamiltonian.io.network_section`)."""
        import sympy as sp

        section = model.section
        net = cls(model.name, parameters=model.parameter_settings())
        for c in section["components"]:
            params = {}
            for key, value in c["parameters"].items():
                if isinstance(value, sp.Symbol) and value.name in net.parameters:
                    params[key] = value.name  # a model parameter: one shared symbol
                elif isinstance(value, sp.Basic) and value.is_number:
                    params[key] = float(value)
                else:
                    params[key] = value
            at = f" (line {c['line']})" if c.get("line") else ""
            try:
                net.add(c["name"], c["class"](**params))
            except ModelError as err:
                raise ModelError(f"component {c['name']!r}{at}: {err}") from None
        for conn in section["connections"]:
            if conn["kind"] == "connect":
                net.connect(*conn["ports"])
            else:
                net.junction(conn["kind"], *conn["ports"], name=conn.get("name"))
        for ref, new in section["expose"].items():
            net.expose(ref, new)
        return net

    def __repr__(self) -> str:
        return (f"<Network {self.name!r}: {len(self.components)} components, "
                f"{len(self.nodes)} nodes, exposed {list(self.exposed.values())}>")


class _Bond(Component):
    """A bond between two junctions: ``e_a = e_b``, ``f_a = f_b`` (``a`` in, ``b`` out),
    the identity transformer, lossless: ``y = [[0, I], [−I, 0]] u``."""

    def __init__(self, domain: str, dim: int) -> None:
        super().__init__([Port("a", domain, "flow", "in", dim),
                          Port("b", domain, "effort", "out", dim)])
        self.dim = dim

    def law(self, c: Context) -> Law:
        import numpy as np

        k = self.dim
        M = np.block([[np.zeros((k, k)), np.eye(k)], [-np.eye(k), np.zeros((k, k))]])
        return Law([], list(self.ports["a"].inputs + self.ports["b"].inputs), M=M)
