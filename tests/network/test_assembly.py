"""Assembled networks equal the same system written as one bond graph, or derived by
hand; dependent storages are reduced; hierarchy and bond-graph components."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from network_helpers import A_matrix, same_eigenvalues, same_rhs

from ladder_builders import chain_bondgraph, chain_network, ladder_bondgraph, ladder_network
from porthamiltonian import PHS, DescriptorPHS, ModelError
from porthamiltonian.bondgraph import BondGraph
from porthamiltonian.bondgraph.generate import to_phs
from porthamiltonian.library import electrical as E
from porthamiltonian.library import electromechanical as EM
from porthamiltonian.library import hydraulic as H
from porthamiltonian.library import mechanical as M
from porthamiltonian.network import Component, Network


def P(name: str) -> sp.Symbol:
    return sp.Symbol(name, positive=True)


def rlc_network(R=10.0, L=0.1, C=1e-3) -> Network:
    net = Network("rlc")
    net.add("V", E.VoltageSource())
    net.add("R", E.Resistor(R=R))
    net.add("C", E.Capacitor(C=C))
    net.add("L", E.Inductor(L=L))
    net.junction("1", "V.p", "R.p", "C.p", "L.p")
    return net


def rlc_bondgraph(R=10.0, L=0.1, C=1e-3) -> BondGraph:
    bg = BondGraph("rlc", parameters={"R": R, "L": L, "C": C})
    bg.add("u", "Se")
    bg.add("j", "1")
    bg.add("R1", "R", r="R")
    bg.add("C1", "C", c="C")
    bg.add("L1", "I", i="L")
    for a, b in [("u", "j"), ("j", "R1"), ("j", "C1"), ("j", "L1")]:
        bg.connect(a, b)
    return bg


def test_series_rlc_equals_its_bond_graph_symbolically():
    net = rlc_network(R=None, L=None, C=None)
    sys = net.system()
    q, phi, u = (sp.Symbol(n, real=True) for n in ("C.q", "L.phi", "V.u"))
    R, L, C = P("R.R"), P("L.L"), P("C.C")
    i = phi / L  # Kirchhoff: one loop current, v_L = u − R i − q/C
    assert sp.simplify(sys.rhs_expr() - sp.Matrix([i, u - R * i - q / C])) == sp.zeros(2, 1)
    assert sp.simplify(sys.output_expr() - sp.Matrix([i])) == sp.zeros(1, 1)
    bg = to_phs(rlc_bondgraph())
    assert same_eigenvalues(rlc_network().system(), bg)
    assert same_rhs(rlc_network().system(), bg, {"C1": "C.q", "L1": "L.phi"},
                    np.random.default_rng(0))


def test_numeric_and_symbolic_assembly_agree():
    net = rlc_network()
    a, b = net.system(symbolic=True), net.system(symbolic=False)
    assert not b.symbolic and b.states == a.states
    assert np.allclose(A_matrix(a), A_matrix(b), rtol=1e-14, atol=0)


def test_mass_spring_damper_chain_equals_its_bond_graph():
    n = 4
    net = chain_network(n).system(symbolic=False)
    bg = to_phs(chain_bondgraph(n), symbolic=False)
    assert same_eigenvalues(net, bg)
    # same ẋ at random states (zero ground velocity: the bond graph's extra input is 0)
    rng = np.random.default_rng(1)
    order = [bg.states.index(s.split(".")[0]) for s in net.states]
    for _ in range(5):
        x = rng.normal(size=net.n_states)
        xb = np.empty(bg.n_states)
        xb[order] = x
        F = rng.normal()
        ub = np.array([F if name == "F" else 0.0 for name in bg.inputs])
        assert np.allclose(net.rhs(x, [F]), bg.rhs(xb, ub)[order], rtol=1e-12, atol=1e-12)


def test_large_chain_numeric_matches_the_band_structure():
    """Newton for mass i: ṗ_i = k(q_{i−1} − q_i) + b(v_{i−1} − 2v_i + v_{i+1})."""
    n, m, k, b = 300, 2.0, 3.0, 0.5
    sys = chain_network(n, m, k, b).system(symbolic=False)
    assert sys.kind == "sparse"
    A = sys.compile().A.toarray()
    i = 10
    p, q = sys.states.index(f"m{i}.p"), sys.states.index(f"k{i}.q")
    expected = np.zeros(sys.n_states)
    expected[q - 2] = k  # q_{i−1}
    expected[q] = -k
    expected[p - 2], expected[p], expected[p + 2] = b / m, -2 * b / m, b / m
    assert np.allclose(A[p], expected)


def drive_network(n=10.0, Jm=1e-4, JL=2e-2, k=0.05, R=1.0, L=1e-3, b=1e-5) -> Network:
    net = Network("drive")
    net.add("V", E.VoltageSource())
    net.add("motor", EM.DCMotor(R=R, L=L, k=k, J=Jm, b=b))
    net.add("gear", M.Gear(n=n))
    net.add("load", M.Inertia(J=JL))
    net.connect("V.p", "motor.electrical")
    net.connect("motor.shaft", "gear.a")
    net.connect("gear.b", "load.p")
    return net


def test_gear_joining_two_inertias_is_reduced_to_the_reflected_inertia():
    n, Jm, JL, k, R, L, b = 10.0, 1e-4, 2e-2, 0.05, 1.0, 1e-3, 1e-5
    net = drive_network(n, Jm, JL, k, R, L, b)
    desc = net.system(symbolic=False, reduce=False)
    assert isinstance(desc, DescriptorPHS) and desc.n_constraints == 1
    sys = net.system(symbolic=False)
    assert isinstance(sys, PHS) and sys.n_states == 2 and "eliminated" in sys.reduction
    # by hand, load side: J_eq ω̇ = n k i − n² b ω, L i̇ = V − R i − n k ω
    Jeq = JL + n**2 * Jm
    A = np.array([[-R / L, -n * k / L], [n * k / Jeq, -(n**2) * b / Jeq]])
    assert np.allclose(np.sort_complex(np.linalg.eigvals(A_matrix(sys))),
                       np.sort_complex(np.linalg.eigvals(A)), rtol=1e-10)
    # the stored energy of the kept momentum is that of both rotors: ½ J_eq ω_L²
    omega_L = 3.0
    pL = JL * omega_L
    x = np.zeros(2)
    x[sys.states.index("load.p")] = pL
    assert np.isclose(sys.energy(x), 0.5 * Jeq * omega_L**2, rtol=1e-12)
    symbolic = net.system(symbolic=True)
    assert same_eigenvalues(symbolic, sys)


def test_parallel_capacitors_reduce_to_their_sum():
    net = Network("cc")
    net.add("I", E.CurrentSource())
    net.add("C1", E.Capacitor(C=None))
    net.add("C2", E.Capacitor(C=None))
    net.add("R", E.Resistor(R=None))
    net.junction("0", "I.p", "C1.p", "C2.p", "R.p")
    sys = net.system()
    assert sys.n_states == 1
    (x,) = sys.state_symbols
    C1, C2, R = P("C1.C"), P("C2.C"), P("R.R")
    v = sp.simplify(sys.gradient_expr[0] * sys.G[0, 0])  # output y = v, the node voltage
    u = sp.Symbol("I.u", real=True)
    # C_total v̇ = i − v/R, with v = q2/C2 and q1 = C1 v
    vdot = sp.simplify(sys.rhs_expr()[0] / C2)
    assert sp.simplify(vdot - (u - v / R) / (C1 + C2)) == 0
    assert sp.simplify(sys.output_expr()[0] - x / C2) == 0


def test_composite_component_equals_the_flat_network():
    inner = Network("motor_and_gear")
    inner.add("motor", EM.DCMotor(R=1.0, L=1e-3, k=0.05, J=1e-4, b=1e-5))
    inner.add("gear", M.Gear(n=10.0))
    inner.add("shaft", M.TorsionSpring(k=50.0))
    inner.connect("motor.shaft", "gear.a")
    inner.connect("gear.b", "shaft.a")
    inner.expose("motor.electrical", "terminals")
    inner.expose("shaft.b", "output")
    outer = Network("drive")
    outer.add("V", E.VoltageSource())
    outer.add("md", inner)
    outer.add("load", M.Inertia(J=2e-2))
    outer.connect("V.p", "md.terminals")
    outer.connect("md.output", "load.p")
    flat = Network("flat")
    flat.add("V", E.VoltageSource())
    flat.add("motor", EM.DCMotor(R=1.0, L=1e-3, k=0.05, J=1e-4, b=1e-5))
    flat.add("gear", M.Gear(n=10.0))
    flat.add("shaft", M.TorsionSpring(k=50.0))
    flat.add("load", M.Inertia(J=2e-2))
    flat.connect("V.p", "motor.electrical")
    flat.connect("motor.shaft", "gear.a")
    flat.connect("gear.b", "shaft.a")
    flat.connect("shaft.b", "load.p")
    a, b = outer.system(symbolic=False), flat.system(symbolic=False)
    assert list(a.states) == ["md.motor.phi", "md.motor.p", "md.shaft.q", "load.p"]
    assert np.allclose(A_matrix(a), A_matrix(b), rtol=1e-12, atol=1e-12)


def test_bond_graph_as_a_component():
    comp = Component.from_bondgraph(rlc_bondgraph(), domains={"u": "electrical"})
    assert comp.ports["u"].causality == "effort"
    net = Network("wrapped")
    net.add("V", E.VoltageSource())
    net.add("ckt", comp)
    net.connect("V.p", "ckt.u")
    sys = net.system(symbolic=False)
    assert list(sys.states) == ["ckt.C1", "ckt.L1"]
    bg = to_phs(rlc_bondgraph())
    assert same_eigenvalues(sys, bg)
    assert same_rhs(sys, bg, {"C1": "ckt.C1", "L1": "ckt.L1"}, np.random.default_rng(2))


def test_boost_converter_network_has_the_switched_structure():
    net = Network("boost")
    net.add("E", E.VoltageSource())
    net.add("L", E.Inductor(L=None))
    net.add("sw", E.IdealSwitch())
    net.add("C", E.Capacitor(C=None))
    net.add("R", E.Resistor(R=None))
    net.junction("1", "E.p", "L.p", "sw.a")
    net.junction("0", "sw.b", "C.p", "R.p")
    sys = net.system()
    S, R = P("S"), P("R.R")
    assert sys.states == ("L.phi", "C.q")
    assert sp.simplify(sys.J - sp.Matrix([[0, -(1 - S)], [1 - S, 0]])) == sp.zeros(2, 2)
    assert sp.simplify(sys.R - sp.Matrix([[0, 0], [0, 1 / R]])) == sp.zeros(2, 2)
    assert sys.G == sp.Matrix([[1], [0]])
    lib = E.BoostConverter(L=1e-3, C=1e-4, R=10.0).system()
    assert sp.simplify(lib.J.subs(P("S"), S) - sys.J) == sp.zeros(2, 2)


@pytest.mark.parametrize("symbolic", [True, False])
def test_transformer_between_two_circuits(symbolic):
    """Primary: source u, series R1, transformer (v_a = n v_b); secondary: C ∥ R2.
    By hand: i_a = (u − n v_C)/R1, q̇ = n i_a − v_C/R2, source current y = i_a."""
    n, R1, R2, C = 4.0, 8.0, 50.0, 1e-3
    net = Network("tf")
    net.add("V", E.VoltageSource())
    net.add("R1", E.Resistor(R=R1))
    net.add("T", E.IdealTransformer(n=n))
    net.add("C", E.Capacitor(C=C))
    net.add("R2", E.Resistor(R=R2))
    net.junction("1", "V.p", "R1.p", "T.a")
    net.junction("0", "T.b", "C.p", "R2.p")
    sys = net.system(symbolic=symbolic)
    q, u = 0.02, 3.0
    vC = q / C
    ia = (u - n * vC) / R1
    assert sys.rhs([q], [u])[0] == pytest.approx(n * ia - vC / R2, rel=1e-12)
    assert sys.output([q], [u])[0] == pytest.approx(ia, rel=1e-12)
    pb = sys.power_balance([q], [u])
    assert pb.dissipated == pytest.approx(R1 * ia**2 + vC**2 / R2, rel=1e-12)
    assert abs(pb.residual) < 1e-12 * pb.dissipated


def test_hydraulic_press_reduces_fluid_and_piston_to_one_inertia():
    """Pressure source → pipe (inertance I, resistance R) → piston (area A) → mass on a
    spring.  The fluid in the pipe and the mass move together (Q = A v): by hand,
    (m + I A²) v̇ = A p_s − R A² v − k x."""
    I, Rh, A, m, k = 2e5, 3e6, 2e-3, 5.0, 4e3
    net = Network("press")
    net.add("ps", H.PressureSource())
    net.add("pipe", H.Pipe(I=I, R=Rh))
    net.add("piston", H.Piston(A=A))
    net.add("mass", M.Mass(m=m))
    net.add("spring", M.Spring(k=k))
    net.add("fix", M.Fixed())
    net.connect("ps.p", "pipe.a")
    net.connect("pipe.b", "piston.a")
    net.junction("1", "piston.b", "mass.p", "spring.a")
    net.connect("spring.b", "fix.p")
    sys = net.system(symbolic=False)
    assert sys.n_states == 2 and "eliminated" in sys.reduction
    Meq = m + I * A**2
    A_hand = np.array([[-Rh * A**2 / Meq, -k / Meq], [1.0, 0.0]])
    assert np.allclose(np.sort_complex(np.linalg.eigvals(A_matrix(sys))),
                       np.sort_complex(np.linalg.eigvals(A_hand)), rtol=1e-10)
    # static: the spring carries the piston force, x = A p_s / k
    x = np.linalg.solve(A_matrix(sys), -np.asarray(sys.compile().B) @ [1e5])
    q = x[sys.states.index("spring.q")]
    assert q == pytest.approx(A * 1e5 / k, rel=1e-12)


@pytest.mark.parametrize("symbolic", [True, False])
def test_junctions_joined_by_name_equal_the_ladder_bond_graph(symbolic):
    net = ladder_network(4).system(symbolic=symbolic)
    bg = to_phs(ladder_bondgraph(4), symbolic=False)
    assert net.n_states == 8
    rename = {s.split(".")[0]: s for s in net.states}
    assert same_eigenvalues(net, bg)
    assert same_rhs(net, bg, rename, np.random.default_rng(3))


def test_a_named_junction_must_be_new():
    net = Network()
    net.add("R", E.Resistor(R=1.0))
    net.add("C", E.Capacitor(C=1.0))
    net.junction("0", "R.p", "C.p", name="n")
    with pytest.raises(ModelError, match="junction name 'n'"):
        net.junction("1", "n", "R.p", name="n")
