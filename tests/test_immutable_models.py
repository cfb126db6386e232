"""Models are immutable (docs/design.md, docs/phs.md): for every model kind, a parameter
cannot be changed in place, ``with_parameters`` gives a new model with the new value and
leaves the old one as it was, and nothing derived (compiled functions, assembled DAEs)
is ever stale.

The example throughout is the oscillator ``H = k q²/2 + p²/2`` (or its counterpart in
each front-end) at ``q = 1, p = 0``: ``H = k/2``, so 0.5 J for ``k = 1`` and 2.0 J for
``k = 4``.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import sympy as sp

from porthamiltonian import ModelError
from porthamiltonian.bondgraph import BondGraph, to_phs
from porthamiltonian.descriptor import DescriptorPHS
from porthamiltonian.io import load_dict
from porthamiltonian.lagrange import LagrangeDiracSystem
from porthamiltonian.library import electrical as E
from porthamiltonian.mechanics import Mechanism
from porthamiltonian.network import Network
from porthamiltonian.phs import PHS

q, p = sp.symbols("q p", real=True)
k = sp.Symbol("k", positive=True)


def oscillator(**kw) -> PHS:
    return PHS(J=[[0, 1], [-1, 0]], hamiltonian=k * q**2 / 2 + p**2 / 2,
               states=["q", "p"], parameters={"k": 1.0}, **kw)


# ---------------------------------------------------------------------- PHS
def test_phs_parameters_are_read_only_and_with_parameters_gives_a_new_model():
    s = oscillator()
    assert s.energy([1, 0]) == pytest.approx(0.5)  # compiled and cached with k = 1
    with pytest.raises(TypeError):
        s.parameters["k"] = 4.0
    with pytest.raises(ModelError, match=r"PHS\.parameters .*with_parameters"):
        s.parameters = {"k": 4.0}
    assert s.energy([1, 0]) == pytest.approx(0.5)

    s4 = s.with_parameters(k=4.0)
    assert s4.energy([1, 0]) == pytest.approx(2.0)
    np.testing.assert_allclose(s4.rhs([1, 0]), [0.0, -4.0])  # ṗ = −k q
    assert s.energy([1, 0]) == pytest.approx(0.5)
    np.testing.assert_allclose(s.rhs([1, 0]), [0.0, -1.0])
    assert dict(s.parameters) == {"k": 1.0} and dict(s4.parameters) == {"k": 4.0}
    # a mapping works as well as keywords
    assert s.with_parameters({"k": 4.0}).energy([1, 0]) == pytest.approx(2.0)


def test_phs_derived_numbers_follow_with_parameters():
    s4 = oscillator().with_parameters(k=4.0)
    np.testing.assert_allclose(s4.linearize([0, 0]).Q, np.diag([4.0, 1.0]))
    np.testing.assert_allclose(s4.gradient([1, 0]), [4.0, 0.0])  # ∇H = (k q, p)
    A = s4.state_space([0, 0])[0]
    np.testing.assert_allclose(A, [[0, 1], [-4, 0]])


def test_phs_unknown_parameter_is_named_with_the_models_parameters():
    with pytest.raises(ModelError, match="unknown parameter.*kk.*parameters are: k"):
        oscillator().with_parameters(kk=4.0)


def test_phs_defining_attributes_cannot_be_reassigned():
    s = oscillator()
    for name in ("states", "inputs", "J", "R", "hamiltonian", "kind"):
        with pytest.raises(ModelError, match=rf"PHS\.{name} cannot be re-assigned"):
            setattr(s, name, None)
    s.name = "relabelled"  # a label, not part of the model's numbers
    assert s.name == "relabelled" and s.energy([1, 0]) == pytest.approx(0.5)


def test_phs_replace_gives_all_parameters_and_checks_them():
    c = sp.Symbol("c", positive=True)
    s = PHS(J=[[0, 1], [-1, 0]], R=[[0, 0], [0, c]], hamiltonian=k * q**2 / 2 + p**2 / 2,
            states=["q", "p"], parameters={"k": 1.0, "c": 0.1})
    t = s.replace(parameters={"k": 4.0, "c": 0.1}, name="stiff")
    assert t.name == "stiff" and t.energy([1, 0]) == pytest.approx(2.0)
    np.testing.assert_allclose(t.rhs([0, 1]), [1.0, -0.1])  # ṗ = −c p
    from porthamiltonian import StructureError

    with pytest.raises(StructureError):
        s.with_parameters(c=-1.0)  # W ⪰ 0 is checked with the new values


def test_numeric_phs_owns_read_only_matrices():
    Q = np.diag([1.0, 1.0])
    J = np.array([[0.0, 1.0], [-1.0, 0.0]])
    s = PHS(J=J, Q=Q, states=["q", "p"])
    assert s.energy([1, 0]) == pytest.approx(0.5)
    Q[0, 0] = 4.0  # the caller's array: the model holds a copy
    J[0, 1] = 7.0
    assert s.energy([1, 0]) == pytest.approx(0.5)
    np.testing.assert_allclose(s.rhs([1, 0]), [0.0, -1.0])
    with pytest.raises(ValueError, match="read-only"):
        s.Q[0, 0] = 4.0
    with pytest.raises(ValueError, match="read-only"):
        s.J[0, 1] = 7.0


# ---------------------------------------------------------------------- DescriptorPHS
def test_descriptor_parameters_are_read_only_and_with_parameters_gives_a_new_model():
    d = DescriptorPHS(J=[[0, 1], [-1, 0]], hamiltonian=k * q**2 / 2 + p**2 / 2,
                      states=["q", "p"], parameters={"k": 1.0})
    assert d.energy([1, 0]) == pytest.approx(0.5)
    # residual E ẋ − (J − R)∇H at x = (1, 0), ẋ = 0: −J (k, 0) = (0, k); compiles d
    np.testing.assert_allclose(d.residual([1, 0], [0, 0]), [0.0, 1.0])
    with pytest.raises(TypeError):
        d.parameters["k"] = 4.0
    with pytest.raises(ModelError, match=r"DescriptorPHS\.E cannot be re-assigned"):
        d.E = np.eye(2)
    with pytest.raises(ModelError, match=r"DescriptorPHS\.parameters"):
        d.parameters = {"k": 4.0}

    d4 = d.with_parameters(k=4.0)
    assert d4.energy([1, 0]) == pytest.approx(2.0)
    np.testing.assert_allclose(d4.residual([1, 0], [0, 0]), [0.0, 4.0])
    assert d4.to_phs().energy([1, 0]) == pytest.approx(2.0)
    assert d.energy([1, 0]) == pytest.approx(0.5)
    np.testing.assert_allclose(d.residual([1, 0], [0, 0]), [0.0, 1.0])
    with pytest.raises(ModelError, match="unknown parameter.*parameters are: k"):
        d.with_parameters(m=1.0)


# ---------------------------------------------------------------------- BondGraph
def spring_mass(k_value: float = 1.0) -> BondGraph:
    """C (compliance 1/k) and I (inertia 1) on a 1-junction: H = k q²/2 + p²/2."""
    bg = BondGraph("spring-mass", parameters={"k": k_value})
    bg.add("j", "1")
    bg.add("C1", "C", c="1/k")
    bg.add("I1", "I", i=1)
    bg.connect("j", "C1")
    bg.connect("j", "I1")
    return bg


@pytest.mark.parametrize("symbolic", [True, False])
def test_bondgraph_generation_after_a_parameter_change_sees_the_new_value(symbolic):
    bg = spring_mass()
    s1 = to_phs(bg, symbolic=symbolic)
    assert list(s1.states) == ["C1", "I1"]
    assert s1.energy([1, 0]) == pytest.approx(0.5)
    bg.parameters["k"] = 4.0  # the bond graph is a builder: its values may change
    s4 = to_phs(bg, symbolic=symbolic)
    assert s4.energy([1, 0]) == pytest.approx(2.0)
    assert s1.energy([1, 0]) == pytest.approx(0.5)  # generated earlier: its own values
    with pytest.raises(TypeError):
        s4.parameters["k"] = 1.0


def test_bondgraph_with_parameters_copies_the_graph():
    bg = spring_mass()
    to_phs(bg)
    bg9 = bg.with_parameters(k=4.0)
    assert to_phs(bg9).energy([1, 0]) == pytest.approx(2.0)
    assert to_phs(bg).energy([1, 0]) == pytest.approx(0.5)
    assert bg.parameters == {"k": 1.0}
    bg9.add("R1", "R", r=1)  # building on the copy leaves the original as it was
    assert "R1" not in bg.elements
    with pytest.raises(ModelError, match="unknown parameter.*parameters are: k"):
        bg.with_parameters(c=1.0)


# ---------------------------------------------------------------------- Mechanism
def pendulum_with_spring(stiffness: float) -> Mechanism:
    """One body on a revolute joint about z, an actuator spring of ``stiffness`` N·m/rad
    on it; the body's centre of mass 1 m above the joint (z)."""
    mech = Mechanism(gravity=(0.0, 0.0, -9.81))
    mech.add_body("b", mass=2.0, inertia=[1.0, 1.0, 1.0], com=(0.0, 0.0, 1.0))
    mech.add_joint("j", "revolute", "ground", "b", axis=(0.0, 0.0, 1.0))
    mech.add_actuator("j", stiffness=stiffness)
    return mech


def test_mechanism_assembles_again_after_a_change():
    mech = pendulum_with_spring(1.0)
    x0 = mech.initial_state({"j": [1.0]})  # at rest, spring state s = 1 rad
    gravity = 2.0 * 9.81 * 1.0  # m g h
    dae1 = mech.assemble()
    assert dae1.energy(x0) == pytest.approx(0.5 + gravity)  # ½ k s² + m g h
    mech.add_actuator("j", stiffness=4.0)  # replaces the actuator
    dae4 = mech.assemble()
    assert dae4 is not dae1
    assert dae4.energy(x0) == pytest.approx(2.0 + gravity)
    assert dae1.energy(x0) == pytest.approx(0.5 + gravity)  # built earlier: its own values
    # a change made behind the builder's back is seen too (the cache is keyed by value)
    mech.bodies["b"].mass = 4.0
    assert mech.assemble().energy(x0) == pytest.approx(2.0 + 2 * gravity)
    mech.gravity = (0.0, 0.0, 0.0)
    assert mech.assemble().energy(x0) == pytest.approx(2.0)
    with pytest.raises(ValueError, match="read-only"):
        mech.gravity[2] = -9.81
    assert mech.assemble() is mech.assemble()  # unchanged: the cached DAE


# ---------------------------------------------------------------------- Lagrange–Dirac
def test_lagrange_dirac_parameters_are_read_only_and_with_parameters_gives_a_new_model():
    x, v = sp.symbols("x v", real=True)
    sys = LagrangeDiracSystem([x], v**2 / 2 - k * x**2 / 2, velocities=[v],
                              parameters={"k": 1.0})

    def energy(s: LagrangeDiracSystem) -> float:
        return float(s.energy().xreplace({**s.point([1.0]), v: 0.0}))

    assert energy(sys) == pytest.approx(0.5)
    with pytest.raises(TypeError):
        sys.parameters[k] = 4.0
    with pytest.raises(ModelError, match=r"LagrangeDiracSystem\.parameters"):
        sys.parameters = {k: 4.0}
    s4 = sys.with_parameters(k=4.0)
    assert energy(s4) == pytest.approx(2.0)
    assert energy(sys) == pytest.approx(0.5)
    assert energy(sys.with_parameters({k: 4.0})) == pytest.approx(2.0)  # by symbol
    desc, _ = s4.to_descriptor()  # the port-Hamiltonian IR carries the new value
    assert desc.energy([1.0, 0.0]) == pytest.approx(2.0)
    with pytest.raises(ModelError, match="does not appear in the model"):
        sys.with_parameters(m=1.0)


# ---------------------------------------------------------------------- Network
def test_network_assembles_with_the_current_values():
    net = Network("lc", parameters={"C": 1.0})
    net.add("C", E.Capacitor(C="C"))
    net.add("L", E.Inductor(L=1.0))
    net.connect("C.p", "L.p")
    s1 = net.system()
    assert list(s1.states) == ["C.q", "L.phi"]
    assert s1.energy([1, 0]) == pytest.approx(0.5)  # q²/(2C)
    net.parameters["C"] = 0.25  # the network is a builder
    s4 = net.system()
    assert s4.energy([1, 0]) == pytest.approx(2.0)
    assert s1.energy([1, 0]) == pytest.approx(0.5)
    with pytest.raises(TypeError):
        s4.parameters["C"] = 1.0


# ---------------------------------------------------------------------- model files
def test_model_file_with_parameters_checks_the_document_again():
    from porthamiltonian.io.build import build_system

    model = load_dict({
        "name": "osc",
        "parameters": {"k": 1.0, "k2": "2*k"},
        "phs": {"states": ["q", "p"], "J": [[0, 1], [-1, 0]],
                "hamiltonian": "k2*q**2/4 + p**2/2"},
    })
    assert build_system(model).energy([1, 0]) == pytest.approx(0.5)
    with pytest.raises(TypeError):
        model.parameters["k"] = 4.0
    with pytest.raises(dataclasses.FrozenInstanceError):
        model.parameters = {}
    m4 = model.with_parameters(k=4.0)
    assert float(m4.parameters["k2"]) == 8.0  # parameters given in terms of k follow
    assert build_system(m4).energy([1, 0]) == pytest.approx(2.0)
    assert build_system(model).energy([1, 0]) == pytest.approx(0.5)
    assert model.parameters["k"] == 1.0
    with pytest.raises(ModelError, match="unknown parameter.*parameters are: k, k2"):
        model.with_parameters(m=1.0)
