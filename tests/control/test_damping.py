"""Damping injection and output feedback: closed-form damped oscillator, Ḣ ≤ 0, errors."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from porthamiltonian import PHS, ModelError, StructureError, control
from porthamiltonian.simulate import simulate


def mass_spring(m: float = 2.0, k: float = 8.0) -> PHS:
    """Lossless mass-spring, force input F, velocity output (q in m, p in kg·m/s)."""
    q, p = sp.symbols("q p", real=True)
    return PHS(J=[[0, 1], [-1, 0]], G=[[0], [1]], hamiltonian=k * q**2 / 2 + p**2 / (2 * m),
               states=["q", "p"], inputs=["F"], outputs=["v"])


def test_velocity_feedback_gives_the_damped_oscillator_eigenvalues():
    m, k, c = 2.0, 8.0, 1.2
    cl = control.damping_injection(mass_spring(m, k), c)
    A, *_ = cl.state_space([0.0, 0.0])
    # m q̈ + c q̇ + k q = 0: λ = −c/(2m) ± i sqrt(k/m − c²/(4m²))
    sigma, wd = c / (2 * m), np.sqrt(k / m - c**2 / (4 * m**2))
    lam = np.sort_complex(np.linalg.eigvals(A))
    assert lam == pytest.approx(np.sort_complex([-sigma - 1j * wd, -sigma + 1j * wd]), abs=1e-12)


def test_simulated_decay_matches_the_closed_form_and_energy_never_grows():
    m, k, c, q0 = 2.0, 8.0, 1.2, 0.1
    cl = control.damping_injection(mass_spring(m, k), c)
    res = simulate(cl, (0.0, 6.0), {"q": q0}, method="midpoint", dt=1e-3)
    sigma, wd = c / (2 * m), np.sqrt(k / m - c**2 / (4 * m**2))
    t = res.t
    exact = np.exp(-sigma * t) * (q0 * np.cos(wd * t) + sigma * q0 / wd * np.sin(wd * t))
    assert np.max(np.abs(res["q"] - exact)) < 1e-6 * q0  # midpoint, O(dt²) with dt = 1 ms
    assert np.all(np.diff(res.H) <= 1e-15 * res.H[0])
    # the rate is exactly the injected dissipation: Ḣ = −c v²
    v = res["p"] / m
    assert res.stored == pytest.approx(-c * v**2, abs=1e-12)


def test_kept_port_is_still_a_passive_port_with_the_plant_output():
    cl = control.damping_injection(mass_spring(), 0.5)
    assert cl.inputs == ("F",) and cl.outputs == ("v",)
    x, u = np.array([0.3, -0.7]), np.array([1.1])
    pb = cl.power_balance(x, u)
    assert cl.output(x, u) == pytest.approx([-0.7 / 2.0])  # y = p/m is unchanged
    assert pb.supplied == pytest.approx(1.1 * -0.35)
    assert pb.dissipated == pytest.approx(0.5 * 0.35**2)
    assert pb.residual == pytest.approx(0.0, abs=1e-14)


def test_closing_ports_removes_them_and_adds_g_k_gt():
    rng = np.random.default_rng(3)
    n, mports = 4, 2
    A = rng.normal(size=(n, n))
    G = rng.normal(size=(n, mports))
    Q = np.diag([1.0, 2.0, 3.0, 4.0])
    plant = PHS(J=A - A.T, G=G, Q=Q, inputs=["a", "b"])
    K = np.array([[2.0, 0.5], [0.5, 1.0]])
    cl = control.damping_injection(plant, K, keep_ports=False)
    assert cl.n_inputs == 0
    assert np.asarray(cl.R) == pytest.approx(G @ K @ G.T, abs=1e-12)
    only_b = control.damping_injection(plant, 3.0, ports=["b"])
    assert np.asarray(only_b.R) == pytest.approx(3.0 * np.outer(G[:, 1], G[:, 1]), abs=1e-12)
    assert only_b.inputs == ("a", "b")


def test_skew_gain_is_a_gyrator_and_does_no_work():
    rng = np.random.default_rng(4)
    A = rng.normal(size=(3, 3))
    G = rng.normal(size=(3, 2))
    plant = PHS(J=A - A.T, G=G, Q=np.eye(3))
    K = np.array([[0.0, 1.5], [-1.5, 0.0]])
    cl = control.output_feedback(plant, K, keep_ports=False)
    assert np.asarray(cl.R) == pytest.approx(np.zeros((3, 3)), abs=1e-12)
    assert np.asarray(cl.J) == pytest.approx(A - A.T - G @ K @ G.T, abs=1e-12)


def test_bad_gains_name_the_entry():
    with pytest.raises(StructureError, match=r"K\[F, F\]|diagonal entry at F"):
        control.damping_injection(mass_spring(), -1.0)
    two = PHS(J=[[0, 1], [-1, 0]], G=np.eye(2), Q=np.eye(2), inputs=["a", "b"])
    with pytest.raises(StructureError, match=r"K\[a, b\]"):
        control.damping_injection(two, [[1.0, 0.2], [0.0, 1.0]])
    with pytest.raises(ModelError, match="2 port"):
        control.damping_injection(two, np.eye(3))
    with pytest.raises(ModelError, match="no port 'c'"):
        control.damping_injection(two, 1.0, ports=["c"])


def test_feed_through_on_the_closed_port_is_solved_exactly():
    # y = Gᵀ Q x + S u with S = s > 0: u = −K y + v gives u = (v − K Gᵀ Q x)/(1 + K s)
    rng = np.random.default_rng(6)
    A = rng.normal(size=(3, 3))
    G = rng.normal(size=(3, 1))
    Q = np.diag([1.0, 2.0, 0.5])
    s, K = 0.7, 2.5
    plant = PHS(J=A - A.T, G=G, S=[[s]], Q=Q, inputs=["a"])
    cl = control.damping_injection(plant, K)
    for x in rng.normal(size=(4, 3)):
        v = rng.normal(size=1)
        u = (v - K * (G.T @ Q @ x)) / (1 + K * s)
        assert cl.rhs(x, v) == pytest.approx(plant.rhs(x, u), abs=1e-12)
        assert cl.output(x, v) == pytest.approx(plant.output(x, u), abs=1e-12)
