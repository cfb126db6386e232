r"""The element laws shared by every domain (one place for each sign convention).

Every law is written for the *passive* port variables of :mod:`porthamiltonian.network`:
``u·y`` is the power into the component.  The domains only rename them
(:data:`porthamiltonian.network.DOMAINS`).

* **capacitive storage** (C: capacitor, spring, tank, heat capacity): state ``q``, the
  port receives the flow, :math:`\dot q = f`, and returns :math:`e = \partial H/\partial q`;
* **inertial storage** (I: inductor, mass, inertia, pipe inertance): state ``p``, the port
  receives the effort, :math:`\dot p = e`, and returns :math:`f = \partial H/\partial p`;
* **resistor** (R): :math:`e = r f` (receives the flow) — the network solves for the
  other causality when it needs it;
* **series elements** (springs and dampers between two bodies): two ports ``a`` (in)
  and ``b`` (out) with one effort, :math:`e_a = e_b = e`, and the flow difference
  :math:`f_a - f_b` (the elongation rate): a 0-junction with a C or an R, as in a bond
  graph; ``b`` joined to a :class:`Fixed` support makes it a one-port;
* **effort source** (Se: voltage, force, torque, pressure): receives the port's flow
  :math:`f_\mathrm{in}`, returns :math:`e = u`; its input ``u`` has the output
  :math:`y = -f_\mathrm{in}`, the flow it delivers, so :math:`u y` is the power it
  supplies to the network (docs/design.md); the output is named by the flow's symbol in
  the domain (``V.i`` for a voltage source ``V``, ``F.v`` for a force source ``F``);
* **flow source** (Sf): receives the effort, returns :math:`f_\mathrm{in} = -u`, output
  :math:`y = e`, named by the effort's symbol (``I.v``, ``w.tau``);
* **transformer** (TF, ratio :math:`m`): :math:`e_a = m\,e_b`, :math:`f_b = m\,f_a` with
  ``a`` oriented in and ``b`` out (docs/design.md; bond 1 in, bond 2 out);
* **gyrator** (GY, ratio :math:`r`): :math:`e_a = r\,f_b`, :math:`e_b = r\,f_a`.

The sources and two-ports are stateless, lossless PHS: :math:`y = M u`, :math:`M = -M^\top`.
"""

from __future__ import annotations

from typing import Any

from ..errors import ModelError
from ..expr import parse_expression
from ..network.component import Component, Context, Law
from ..network.ports import Port
from ..quantities import domain as domain_of
from ..special import exprel  # noqa: F401 - the diode's law (electrical.py) uses el.exprel


def positive(name: str, value: Any, owner: str) -> None:
    """Refuse a number ≤ 0 for a physical parameter that must be positive."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) and not value > 0:
        raise ModelError(f"{owner}: {name} must be positive, got {value!r}")


def _ports(obj: Any) -> list[Port]:
    if getattr(obj, "series", False):
        return [Port("a", obj.domain, "flow", "in"), Port("b", obj.domain, "flow", "out")]
    return [Port("p", obj.domain, "effort" if obj.inertial else "flow")]


def storage(obj: Any) -> dict[str, tuple[str, str]]:
    """``Law.storages`` of a one-state storage component: its state is a momentum
    (``"I"``) when the port receives the effort, else a displacement (``"C"``)."""
    return {obj.state: ("I" if obj.inertial else "C", obj.domain)}


def source_law(dom: str, kind: str, M: list[list[int]]) -> Law:
    """The law of an ideal effort (``kind="Se"``) or flow (``"Sf"``) source: port ``p``
    and the external input ``u`` (the effort, resp. the flow, of domain ``dom``); the
    output conjugate to ``u`` is named by its symbol in the domain (``i``: the current a
    voltage source delivers; ``v``: the voltage across a current source), as a bond
    graph's source output (:func:`porthamiltonian.bondgraph.domains.source_output`)."""
    d = domain_of(dom)
    u, y = (d.effort, d.flow) if kind == "Se" else (d.flow, d.effort)
    return Law([], ["p", "u"], M=M, outputs=["p", y.symbol], signals={"u": u, y.symbol: y})


def _G(obj: Any) -> list[list[int]]:
    """``ẋ = f_in,a + f_in,b = f_a − f_b`` for a series element, ``ẋ = u`` else."""
    return [[1, 1]] if getattr(obj, "series", False) else [[1]]


class Storage(Component):
    """One-port storage with a quadratic energy ``H = q²/(2c)`` (``c`` the compliance,
    or the inertia for an inertial storage); ``series = True``: the two-port series
    version (ports ``a``, ``b``)."""

    domain = "generic"
    series = False
    inertial = False  # True: the port receives the effort (I element)
    state = "q"
    key = "c"  # name of the compliance/inertia parameter
    invert = False  # True: the parameter is a stiffness k, H = k q²/2

    def __init__(self, value: Any = None) -> None:
        positive(self.key, value, type(self).__name__)
        super().__init__(_ports(self), **{self.key: value})

    def law(self, c: Context) -> Law:
        v = c[self.key]
        q = v if self.invert else 1 / v
        return Law([self.state], list(self.ports), G=_G(self), Q=[[q]], storages=storage(self))


class NonlinearStorage(Component):
    """One-port storage with any energy ``H(state)`` given as text in the state name and
    the parameters, e.g. ``energy="k*q**2/2 + k3*q**4/4", k=100, k3=1e4``."""

    nonlinear = True
    domain = "generic"
    inertial = False
    series = False
    state = "q"

    def __init__(self, energy: str | None = None, **parameters: Any) -> None:
        self.energy = energy or self.default_energy
        super().__init__(_ports(self), **parameters)

    default_energy = ""

    def law(self, c: Context) -> Law:
        names = {self.state: c.x(self.state)}
        names.update({k: c[k] for k in self.parameters})
        H = parse_expression(self.energy, names, where=f"{type(self).__name__}.energy")
        return Law([self.state], list(self.ports), G=_G(self), hamiltonian=H,
                   storages=storage(self))


class Resistor1(Component):
    """Linear resistor ``e = r f`` (``r`` ≥ 0); ``series = True``: two ports ``a``, ``b``
    with ``e = r (f_a − f_b)``, i.e. ``S = r [[1, 1], [1, 1]]`` on ``(f_in,a, f_in,b)``."""

    domain = "generic"
    key = "r"
    inertial = False
    series = False

    def __init__(self, value: Any = None) -> None:
        positive(self.key, value, type(self).__name__)
        super().__init__(_ports(self), **{self.key: value})

    def law(self, c: Context) -> Law:
        r = c[self.key]
        if self.series:
            return Law([], ["a", "b"], S=[[r, r], [r, r]])
        return Law([], ["p"], S=[[r]])


class Fixed(Component):
    """A support that imposes zero flow (ground, fixed frame): receives the effort,
    returns ``f = 0``; no power crosses it."""

    domain = "generic"

    def __init__(self) -> None:
        super().__init__([Port("p", self.domain, "effort")])

    def law(self, c: Context) -> Law:
        return Law([], ["p"], M=[[0]])


class EffortSource(Component):
    """Ideal effort source: the port's effort is the input ``u``; the output (named
    by the flow's symbol, ``i`` for a voltage source) is the flow it delivers."""

    domain = "generic"

    def __init__(self) -> None:
        super().__init__([Port("p", self.domain, "flow", "out")])

    def law(self, c: Context) -> Law:
        return source_law(self.domain, "Se", [[0, 1], [-1, 0]])


class FlowSource(Component):
    """Ideal flow source: the flow delivered at the port is the input ``u``; the output
    (named by the effort's symbol, ``v`` for a current source) is the effort at it."""

    domain = "generic"

    def __init__(self) -> None:
        super().__init__([Port("p", self.domain, "effort", "out")])

    def law(self, c: Context) -> Law:
        return source_law(self.domain, "Sf", [[0, -1], [1, 0]])


class Transformer(Component):
    """Ideal transformer ``e_a = m e_b``, ``f_b = m f_a`` (``a`` in, ``b`` out).

    Receives the flow at ``a`` and the effort at ``b``: ``y_a = e_a = m u_b``,
    ``y_b = f_in,b = −f_b = −m u_a``, so ``M = [[0, m], [−m, 0]]``."""

    domains = ("generic", "generic")
    key = "m"

    def __init__(self, value: Any = None, **extra: Any) -> None:
        da, db = self.domains
        super().__init__([Port("a", da, "flow", "in"), Port("b", db, "effort", "out")],
                         **{self.key: value}, **extra)

    def ratio(self, c: Context) -> Any:
        return c[self.key]

    def law(self, c: Context) -> Law:
        m = self.ratio(c)
        return Law([], ["a", "b"], M=[[0, m], [-m, 0]])


class Gyrator(Component):
    """Ideal gyrator ``e_a = r f_b``, ``e_b = r f_a`` (``a`` in, ``b`` out).

    Receives both flows: ``y_a = e_a = r f_b = −r u_b``, ``y_b = e_b = r u_a``."""

    domains = ("generic", "generic")
    key = "r"

    def __init__(self, value: Any = None) -> None:
        da, db = self.domains
        super().__init__([Port("a", da, "flow", "in"), Port("b", db, "flow", "out")],
                         **{self.key: value})

    def law(self, c: Context) -> Law:
        r = c[self.key]
        return Law([], ["a", "b"], M=[[0, -r], [r, 0]])
