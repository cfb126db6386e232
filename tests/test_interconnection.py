"""Power-conserving feedback interconnection of PHS."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from porthamiltonian import ModelError
from porthamiltonian.interconnection import feedback
from porthamiltonian.phs import PHS
from strategies import random_phs


def _loop_solution(s1: PHS, s2: PHS, i1: list[int], i2: list[int], x1, x2, ue1, ue2):
    """Solve u1c = −y2c, u2c = y1c by brute force from the two systems' own outputs."""
    m1, m2 = s1.n_inputs, s2.n_inputs
    e1 = [k for k in range(m1) if k not in i1]
    e2 = [k for k in range(m2) if k not in i2]
    c = len(i1)

    def inputs(v):
        u1, u2 = np.zeros(m1), np.zeros(m2)
        u1[e1], u2[e2] = ue1, ue2
        u1[i1], u2[i2] = v[:c], v[c:]
        return u1, u2

    def residual(v):
        u1, u2 = inputs(v)
        y1, y2 = s1.output(x1, u1), s2.output(x2, u2)
        return np.r_[u1[i1] + y2[i2], u2[i2] - y1[i1]]

    r0 = residual(np.zeros(2 * c))
    A = np.column_stack([residual(e) - r0 for e in np.eye(2 * c)])
    v = np.linalg.solve(A, -r0)
    return inputs(v)


@settings(max_examples=60, deadline=None)
@given(random_phs(prefix="a."), random_phs(prefix="b."), st.data())
def test_feedback_matches_the_loop_equations_and_balances_power(s1, s2, data):
    c = data.draw(st.integers(1, min(s1.n_inputs, s2.n_inputs)))
    i1 = data.draw(st.permutations(range(s1.n_inputs)))[:c]
    i2 = data.draw(st.permutations(range(s2.n_inputs)))[:c]
    pairs = [(s1.inputs[a], s2.outputs[b]) for a, b in zip(i1, i2, strict=True)]
    try:
        cl = feedback(s1, s2, pairs)
    except ModelError as err:  # singular algebraic loop: check that it really is
        assert "ill-posed" in str(err)
        return
    rng = np.random.default_rng(data.draw(st.integers(0, 1000)))
    x1, x2 = rng.normal(size=s1.n_states), rng.normal(size=s2.n_states)
    ue1 = rng.normal(size=s1.n_inputs - c)
    ue2 = rng.normal(size=s2.n_inputs - c)
    try:
        u1, u2 = _loop_solution(s1, s2, list(i1), list(i2), x1, x2, ue1, ue2)
    except np.linalg.LinAlgError:
        assume(False)
    x, u = np.r_[x1, x2], np.r_[ue1, ue2]
    np.testing.assert_allclose(cl.rhs(x, u), np.r_[s1.rhs(x1, u1), s2.rhs(x2, u2)],
                               rtol=1e-7, atol=1e-7)
    pb = cl.power_balance(x, u)
    scale = 1 + abs(pb.stored) + abs(pb.supplied) + abs(pb.dissipated)
    assert abs(pb.residual) < 1e-9 * scale
    # the interconnection dissipates exactly what the two systems dissipate
    d = s1.power_balance(x1, u1).dissipated + s2.power_balance(x2, u2).dissipated
    assert pb.dissipated == pytest.approx(d, rel=1e-7, abs=1e-7)


@settings(max_examples=40, deadline=None)
@given(random_phs(prefix="a.", feedthrough=False), random_phs(prefix="b.", feedthrough=False))
def test_feedback_without_feedthrough_adds_no_dissipation(s1, s2):
    c = min(s1.n_inputs, s2.n_inputs)
    pairs = [(s1.inputs[k], s2.inputs[k]) for k in range(c)]
    cl = feedback(s1, s2, pairs)
    n1 = s1.n_states
    np.testing.assert_allclose(cl.R[:n1, :n1], s1.R, atol=1e-12)
    np.testing.assert_allclose(cl.R[n1:, n1:], s2.R, atol=1e-12)
    np.testing.assert_allclose(cl.R[:n1, n1:], 0.0, atol=1e-12)
    np.testing.assert_allclose(cl.J, -cl.J.T, atol=1e-12)


def test_dc_motor_from_three_systems_reproduces_hand_derived_equations():
    """Electrical RL circuit — gyrator (K) — rotor with friction.

    By hand: L di/dt = V − R i − K ω and J ω' = K i − b ω, with φ = L i and p = J ω.
    """
    phi, p = sp.symbols("phi p", real=True)
    L, R, K, Jm, b = sp.symbols("L R K J_m b", positive=True)
    # ∇H = φ/L = i, so the resistor enters as R: dissipated power i·R·i
    elec = PHS(R=[[R]], G=[[1, -1]], hamiltonian=phi**2 / (2 * L),
               states=["phi"], inputs=["V", "m"], outputs=["i", "y_m"])
    gyr = PHS(M=[[0, K], [-K, 0]], inputs=["g1", "g2"], states=[])
    mech = PHS(R=[[b]], G=[[1]], hamiltonian=p**2 / (2 * Jm), states=["p"],
               inputs=["tau"], outputs=["omega"])
    motor = feedback(feedback(elec, gyr, [("m", "g1")]), mech, [("g2", "tau")])
    V = sp.Symbol("V", real=True)
    i, w = phi / L, p / Jm
    expected = sp.Matrix([V - R * i - K * w, K * i - b * w])
    assert sp.simplify(motor.rhs_expr() - expected) == sp.zeros(2, 1)
    assert motor.inputs == ("V",) and motor.outputs == ("i",)
    assert sp.simplify(motor.R - sp.diag(R, b)) == sp.zeros(2, 2)
    assert sp.simplify(motor.J - sp.Matrix([[0, -K], [K, 0]])) == sp.zeros(2, 2)


def test_feedback_errors_name_the_ports():
    a = PHS(G=[[1.0]], Q=[[1.0]], states=["qa"], inputs=["u"])
    b = PHS(G=[[1.0, 0.0]], Q=[[1.0]], states=["qb"], inputs=["v", "w"])
    with pytest.raises(ModelError, match="has no port 'nope'; its ports .* v, w"):
        feedback(a, b, [("u", "nope")])
    with pytest.raises(ModelError, match="paired twice"):
        feedback(a, b, [("u", "v"), ("u", "w")])
    with pytest.raises(ModelError, match="both systems have the state"):
        feedback(a, a, [("u", "u")])


def test_singular_loop_is_reported():
    # two gyrators whose skew feed-throughs cancel Γ: the loop equations are singular
    g = PHS(M=[[0.0, 1.0], [-1.0, 0.0]], inputs=["g1", "g2"], states=[])
    h = PHS(M=[[0.0, -1.0], [1.0, 0.0]], inputs=["h1", "h2"], states=[])
    with pytest.raises(ModelError, match="ill-posed"):
        feedback(g, h, [("g1", "h2"), ("g2", "h1")])


def test_capacitors_in_series_through_a_one_junction():
    """Series capacitors fed by a current i into the 1-junction (all bonds point in).

    By hand: flows equal, so each capacitor receives −i; efforts sum to zero, so the
    free port's effort is −(v1 + v2).
    """
    from porthamiltonian.dirac import DiracStructure
    from porthamiltonian.interconnection import interconnect

    c1 = PHS(G=[[1.0]], Q=[[1 / 2.0]], states=["q1"], inputs=["i1"], outputs=["v1"])
    c2 = PHS(G=[[1.0]], Q=[[1 / 3.0]], states=["q2"], inputs=["i2"], outputs=["v2"])
    sys = interconnect(DiracStructure.junction1(["a", "b", "ext"]), [c1, c2],
                       [("i1", "a"), ("i2", "b")])
    assert sys.port_kinds == {"ext": "flow"}
    x, i = np.array([0.4, -0.9]), np.array([0.25])
    np.testing.assert_allclose(sys.rhs(x, i), [-0.25, -0.25])
    np.testing.assert_allclose(sys.output(x, i), [-(0.4 / 2 + -0.9 / 3)])


def test_dependent_storages_on_a_zero_junction_are_a_causality_error():
    from porthamiltonian import CausalityError
    from porthamiltonian.dirac import DiracStructure
    from porthamiltonian.interconnection import interconnect

    c1 = PHS(G=[[1.0]], Q=[[1.0]], states=["q1"], inputs=["i1"])
    c2 = PHS(G=[[1.0]], Q=[[1.0]], states=["q2"], inputs=["i2"])
    with pytest.raises(CausalityError, match="ports a, b"):
        interconnect(DiracStructure.junction0(["a", "b", "ext"]), [c1, c2],
                     [("i1", "a"), ("i2", "b")])


@settings(max_examples=40, deadline=None)
@given(random_phs(prefix="a.", feedthrough=False), st.integers(0, 10_000))
def test_interconnection_through_a_random_dirac_structure_is_lossless(plant, seed):
    """Any Dirac interconnection keeps the power balance and adds no dissipation."""
    from porthamiltonian.dirac import DiracStructure
    from porthamiltonian.interconnection import interconnect

    rng = np.random.default_rng(seed)
    m = plant.n_inputs
    free = int(rng.integers(1, 3))
    ports = [f"d{k}" for k in range(m + free)]
    A = rng.normal(size=(m + free, m + free))
    kinds = {p: ("effort" if k < m or rng.random() < 0.5 else "flow")
             for k, p in enumerate(ports)}
    D = DiracStructure.from_input_output(A - A.T, kinds)
    sys = interconnect(D, plant, [(plant.inputs[k], ports[k]) for k in range(m)])
    assert sys.n_inputs == free
    np.testing.assert_allclose(sys.R, plant.R, atol=1e-12)
    x, u = rng.normal(size=plant.n_states), rng.normal(size=free)
    pb = sys.power_balance(x, u)
    scale = 1 + abs(pb.stored) + abs(pb.supplied) + abs(pb.dissipated)
    assert abs(pb.residual) < 1e-10 * scale


def test_junction_ports_count_power_into_the_junction():
    """docs/getting-started.md, "Conventions": two capacitors on a 1-junction with an
    external port; the port's flow enters the junction, so the capacitors discharge with
    it, the output is −(v1 + v2), and uᵀy is dH/dt."""
    from porthamiltonian import DiracStructure, interconnect

    c1 = PHS(G=[[1.0]], Q=[[1 / 2.0]], states=["q1"], inputs=["i1"], outputs=["v1"])
    c2 = PHS(G=[[1.0]], Q=[[1 / 3.0]], states=["q2"], inputs=["i2"], outputs=["v2"])
    series = interconnect(DiracStructure.junction1(["a", "b", "ext"]), [c1, c2],
                          [("i1", "a"), ("i2", "b")])
    assert series.port_kinds == {"ext": "flow"}
    x, f_ext = np.array([0.4, -0.9]), 0.7
    v1, v2 = x[0] / 2.0, x[1] / 3.0
    num = series.compile()
    np.testing.assert_allclose(num.rhs(x, [f_ext]), [-f_ext, -f_ext], atol=1e-15)
    np.testing.assert_allclose(num.output(x, [f_ext]), [-(v1 + v2)], atol=1e-15)
    dH = v1 * -f_ext + v2 * -f_ext
    assert f_ext * num.output(x, [f_ext])[0] == pytest.approx(dH, abs=1e-15)
