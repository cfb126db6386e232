"""Every library component names its storages and sources physically (domain, SI unit).

A component's states become ``<component>.<state>`` in a network; the co-energy of a C
storage (displacement) is the effort of its domain, of an I storage (momentum) the flow,
named by the quantity's symbol (``C1.v``, ``L1.i``, ``load.w``).  A source's output is its
conjugate variable: the current a voltage source delivers (``V.i``), the voltage across a
current source (``I.v``).
"""

from __future__ import annotations

import numpy as np
import pytest

from porthamiltonian import library as lib
from porthamiltonian.network import Component, Network, Port

E, M, H, T = lib.electrical, lib.mechanical, lib.hydraulic, lib.thermal


def exposed(comp, symbolic=True):
    """The component alone, every port exposed (so the assembly keeps all of it)."""
    net = Network("one")
    net.add("c", comp)
    for p in comp.ports:
        net.expose(f"c.{p}", p)
    return net.system(symbolic=symbolic, reduce=False)


STORAGES = [
    # component, state, (its kind, unit), co-energy name, (kind, unit)
    (E.Capacitor(C=1e-6), "c.q", ("charge", "C"), "c.v", ("voltage", "V")),
    (E.Inductor(L=1e-3), "c.phi", ("flux linkage", "Wb"), "c.i", ("current", "A")),
    (E.NonlinearInductor("phi**2/2", ), "c.phi", ("flux linkage", "Wb"), "c.i",
     ("current", "A")),
    (M.Mass(m=2.0), "c.p", ("momentum", "N*s"), "c.v", ("velocity", "m/s")),
    (M.Inertia(J=0.1), "c.p", ("angular momentum", "N*m*s"), "c.w",
     ("angular velocity", "rad/s")),
    (M.Spring(k=100.0), "c.q", ("displacement", "m"), "c.F", ("force", "N")),
    (M.TorsionSpring(k=5.0), "c.q", ("angle", "rad"), "c.tau", ("torque", "N*m")),
    (M.NonlinearSpring(k=1.0, k3=2.0), "c.q", ("displacement", "m"), "c.F", ("force", "N")),
    (H.Tank(A=0.5), "c.V", ("volume", "m**3"), "c.P", ("pressure", "Pa")),
    (H.Accumulator(C=1e-9), "c.V", ("volume", "m**3"), "c.P", ("pressure", "Pa")),
    (H.Pipe(I=1e5, R=1e6), "c.Gamma", ("pressure momentum", "Pa*s"), "c.Q",
     ("volume flow", "m**3/s")),
    (T.HeatCapacity(C=10.0), "c.S", ("entropy", "J/K"), "c.T", ("temperature", "K")),
    (E.Diode(), "c.q", ("charge", "C"), "c.v", ("voltage", "V")),
]


@pytest.mark.parametrize("comp, state, sq, co, cq", STORAGES,
                         ids=[type(s[0]).__name__ for s in STORAGES])
def test_storage_state_and_coenergy_are_named_with_units(comp, state, sq, co, cq):
    info = exposed(comp).quantities.states[state]
    assert (info.quantity.kind, info.quantity.unit) == sq
    assert info.coenergy_name == co
    assert (info.coenergy.kind, info.coenergy.unit) == cq
    assert info.element == "c"


def test_two_domain_components():
    q = exposed(lib.electromechanical.DCMotor(R=1, L=1e-3, k=0.05, J=1e-4)).quantities
    assert {s: (i.coenergy_name, i.coenergy.unit) for s, i in q.states.items()} == {
        "c.phi": ("c.i", "A"), "c.p": ("c.w", "rad/s")}
    q = exposed(lib.electromechanical.Loudspeaker(Re=6, Le=1e-4, Bl=5, m=0.01, k=1e3)
                ).quantities
    assert {s: (i.coenergy_name, i.coenergy.unit) for s, i in q.states.items()} == {
        "c.phi": ("c.i", "A"), "c.p": ("c.v", "m/s"), "c.q": ("c.F", "N")}
    q = exposed(lib.chemical.CSTR()).quantities
    assert q.states["c.N_A"].coenergy.unit == "J/mol"
    assert q.states["c.S"].coenergy_name == "c.T"


SOURCES = [
    # source, input (kind, unit), output name, output (kind, unit)
    (E.VoltageSource(), ("voltage", "V"), "c.i", ("current", "A")),
    (E.CurrentSource(), ("current", "A"), "c.v", ("voltage", "V")),
    (M.ForceSource(), ("force", "N"), "c.v", ("velocity", "m/s")),
    (M.TorqueSource(), ("torque", "N*m"), "c.w", ("angular velocity", "rad/s")),
    (M.VelocitySource(), ("velocity", "m/s"), "c.F", ("force", "N")),
    (M.AngularVelocitySource(), ("angular velocity", "rad/s"), "c.tau", ("torque", "N*m")),
    (H.PressureSource(), ("pressure", "Pa"), "c.Q", ("volume flow", "m**3/s")),
    (H.FlowSource(), ("volume flow", "m**3/s"), "c.P", ("pressure", "Pa")),
]


@pytest.mark.parametrize("src, uq, y, yq", SOURCES, ids=[type(s[0]).__name__ for s in SOURCES])
def test_source_output_is_its_conjugate_variable(src, uq, y, yq):
    net = Network("src")
    net.add("c", src)
    net.add("g", _resistor(src.ports["p"].domain))
    net.connect("c.p", "g.p")
    sys = net.system()
    assert list(sys.inputs) == ["c.u"] and list(sys.outputs) == [y]
    q = sys.quantities
    assert (q.ports["c.u"].kind, q.ports["c.u"].unit) == uq
    assert (q.ports[y].kind, q.ports[y].unit) == yq


def _resistor(domain):
    """A linear one-port resistor of ``domain`` (it takes either causality)."""
    cls = type("R", (lib._elements.Resistor1,), {"domain": domain})
    return cls(2.0)


def test_voltage_source_output_is_the_current_it_delivers():
    """V → R: the output V.i = u/R (A), and u·y is the power the source delivers."""
    net = Network("vr")
    net.add("V", E.VoltageSource())
    net.add("R", E.Resistor(R=4.0))
    net.connect("V.p", "R.p")
    sys = net.system(symbolic=False)
    assert list(sys.outputs) == ["V.i"]
    assert sys.output(np.zeros(0), [12.0])[0] == pytest.approx(3.0)


def test_exposed_port_output_is_named_by_its_conjugate_variable():
    """A motor's exposed shaft receives the torque (input ``shaft``, N·m) and returns the
    shaft speed (output ``shaft.w``, rad/s) — the names of a bond graph's source."""
    net = Network("drive")
    net.add("V", E.VoltageSource())
    net.add("motor", lib.electromechanical.DCMotor(R=1.0, L=1e-3, k=0.05, J=1e-4))
    net.connect("V.p", "motor.electrical")
    net.expose("motor.shaft", "shaft")
    sys = net.system()
    assert list(sys.inputs) == ["shaft", "V.u"]
    assert list(sys.outputs) == ["shaft.w", "V.i"]
    q = sys.quantities
    assert (q.ports["shaft"].unit, q.ports["shaft.w"].unit) == ("N*m", "rad/s")
    # the output is the speed of the shaft in the port's own orientation (out of the motor)
    x = np.array([0.0, 2e-4])  # motor.p = J ω with ω = 2 rad/s
    y = sys.output(x, [0.0, 0.0])
    assert y[0] == pytest.approx(-2.0)  # u·y = τ·(−ω): power into the network at the shaft


def test_port_domains_accept_the_names_of_the_quantities_table():
    assert Port("s", "rotational").domain == "rotation"
    assert Port("s", "translational").domain == "translation"


def test_bond_graph_component_takes_its_port_domains_from_the_graph():
    from porthamiltonian.bondgraph import BondGraph

    bg = BondGraph("coil", parameters={"L": 0.5}, domain="electrical")
    bg.add("v", "Se")
    bg.add("j", "1")
    bg.add("L1", "I", i="L")
    bg.connect("v", "j")
    bg.connect("j", "L1")
    comp = Component.from_bondgraph(bg)
    assert comp.ports["v"].domain == "electrical"
    net = Network("n")
    net.add("V", E.VoltageSource())
    net.add("coil", comp)
    net.connect("V.p", "coil.v")
    q = net.system().quantities
    assert q.states["coil.L1"].coenergy_name == "coil.L1.i"
    assert q.states["coil.L1"].coenergy.unit == "A"
