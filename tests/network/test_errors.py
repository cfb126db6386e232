"""Bad networks raise ModelError naming the ports at fault."""

from __future__ import annotations

import pytest

from porthamiltonian import ModelError
from porthamiltonian.library import electrical as E
from porthamiltonian.library import electromechanical as EM
from porthamiltonian.library import hydraulic as H
from porthamiltonian.library import mechanical as M
from porthamiltonian.network import Network, Port


def test_domains_must_match_and_both_ports_are_named():
    net = Network()
    net.add("R", E.Resistor(R=1.0))
    net.add("m", M.Mass(m=1.0))
    with pytest.raises(ModelError, match=r"'R\.p' \(electrical.*'m\.p' \(translation"):
        net.connect("R.p", "m.p")


def test_dimensions_must_match():
    from porthamiltonian import PHS
    from porthamiltonian.network import Component

    two = Component.from_phs(PHS(G=[[1, 0], [0, 1]], Q=[[1, 0], [0, 1]], inputs=["w[0]", "w[1]"]),
                             [Port("w", "electrical", "flow", dim=2)])
    net = Network()
    net.add("a", two)
    net.add("R", E.Resistor(R=1.0))
    with pytest.raises(ModelError, match=r"'a\.w' \(dimension 2\).*'R\.p' \(dimension 1\)"):
        net.connect("a.w", "R.p")


def test_dangling_port_is_named_with_the_fix():
    net = Network()
    net.add("V", E.VoltageSource())
    net.add("R", E.Resistor(R=1.0))
    net.add("C", E.Capacitor(C=1.0))
    net.junction("1", "V.p", "R.p")
    with pytest.raises(ModelError, match=r"port 'C\.p' is not connected.*expose"):
        net.system()


def test_a_port_cannot_be_in_two_nodes():
    net = Network()
    for name in ("a", "b", "c"):
        net.add(name, E.Resistor(R=1.0))
    net.connect("a.p", "b.p")
    with pytest.raises(ModelError, match=r"'a\.p' is already used in connect\('a\.p', 'b\.p'\)"):
        net.connect("a.p", "c.p")


def test_two_voltage_sources_in_parallel_are_over_determined():
    net = Network()
    net.add("V1", E.VoltageSource())
    net.add("V2", E.VoltageSource())
    net.add("R", E.Resistor(R=1.0))
    net.junction("0", "V1.p", "V2.p", "R.p")
    with pytest.raises(ModelError, match=r"over-determined.*V1\.p.*V2\.p"):
        net.system(symbolic=False)
    with pytest.raises(ModelError, match=r"over-determined.*V1\.p.*V2\.p"):
        net.system(symbolic=True)


def test_two_current_sources_in_series_are_over_determined():
    net = Network()
    net.add("I1", E.CurrentSource())
    net.add("I2", E.CurrentSource())
    net.add("R", E.Resistor(R=1.0))
    net.junction("1", "I1.p", "I2.p", "R.p")
    with pytest.raises(ModelError, match=r"over-determined.*I1\.p.*I2\.p"):
        net.system(symbolic=False)


def test_a_source_fixing_a_storage_is_refused():
    net = Network()
    net.add("V", E.VoltageSource())
    net.add("C", E.Capacitor(C=1.0))
    net.connect("V.p", "C.p")
    with pytest.raises(ModelError, match=r"C\.p.*V\.p|V\.p.*C\.p"):
        net.system(symbolic=False)


def test_unknown_component_and_port():
    net = Network()
    net.add("m", M.Mass(m=1.0))
    with pytest.raises(ModelError, match=r"no component 'x'"):
        net.connect("m.p", "x.p")
    with pytest.raises(ModelError, match=r"has no port 'q'; its ports: p"):
        net.connect("m.q", "m.p")
    with pytest.raises(ModelError, match="to itself"):
        net.connect("m.p", "m.p")


def test_bad_parameters_and_names():
    with pytest.raises(ModelError, match="R must be positive"):
        E.Resistor(R=-1.0)
    with pytest.raises(ModelError, match="Gear: n must be positive"):
        M.Gear(n=0.0)
    net = Network()
    with pytest.raises(ModelError, match="identifier"):
        net.add("a.b", E.Resistor(R=1.0))
    net.add("R", E.Resistor(R=None))
    net.add("V", E.VoltageSource())
    net.connect("V.p", "R.p")
    with pytest.raises(ModelError, match=r"'R'.*parameter 'R' has no value"):
        net.system(symbolic=False)


def test_nonlinear_component_needs_the_symbolic_path():
    net = Network()
    net.add("V", E.VoltageSource())
    net.add("mag", EM.Electromagnet(L0=0.01, L1=0.02, a=0.005, R=1.0))
    net.add("fix", M.Fixed())
    net.connect("V.p", "mag.electrical")
    net.connect("mag.mechanical", "fix.p")
    with pytest.raises(ModelError, match="symbolic=True"):
        net.system(symbolic=False)


def test_exposed_port_cannot_be_connected():
    net = Network()
    net.add("a", H.Pipe(I=1.0, R=1.0))
    net.add("t", H.Tank(A=1.0))
    net.expose("a.a", "inlet")
    with pytest.raises(ModelError, match="exposed"):
        net.connect("a.a", "t.p")
    net.connect("a.b", "t.p")
    sys = net.system(symbolic=False)
    assert list(sys.inputs) == ["inlet"]


def test_velocity_imposed_on_an_inertia_through_a_gear_is_refused():
    """The exposed gear input receives a velocity; through the gear it fixes the
    velocity of the inertia at ``b``: a source fixing a storage."""
    net = Network()
    net.add("b", M.Inertia(J=2.0))
    net.add("g", M.Gear(n=2.0))
    net.connect("g.b", "b.p")
    net.expose("g.a", "input")
    with pytest.raises(ModelError, match=r"over-determined.*b\.p and g\.b"):
        net.system(symbolic=False)
