"""Ideal DC motor: a circuit and a rotor joined by the magnetic interaction
structure β = K dθ ∧ dq (seed §5), and the Lorentz force as a two-form."""

import numpy as np
import pytest
from ld_models import VALUES, Jr, K, Lm, Rm, V, accelerations, br, motor, t
from sympy.physics.mechanics import dynamicsymbols

from porthamiltonian import ModelError, lagrange


def test_interaction_structure_converts_power_losslessly():
    sys = motor()
    D = sys.interaction_structure(at=[0.0, 0.0])
    assert D.is_dirac()
    k = VALUES[K]
    rng = np.random.default_rng(0)
    for _ in range(5):
        i, w = rng.normal(size=2)
        pd = rng.normal(size=2)
        f = np.r_[i, w, pd]
        # efforts on the charge and shaft ports: back-emf −Kθ̇ and torque K i
        e = np.r_[-k * w, k * i, 0.0, 0.0]
        assert D.contains(f, e)
        assert not D.contains(f, np.r_[k * w, k * i, 0.0, 0.0])
        electrical = (k * w) * i  # power absorbed from the circuit by the back-emf
        mechanical = (k * i) * w  # power delivered to the shaft by the torque
        assert np.isclose(electrical, mechanical)
        assert abs(D.power(f, e)) < 1e-14


def test_motor_equations_and_steady_state():
    sys = motor()
    L, R, J, b, k, u = (VALUES[s] for s in (Lm, Rm, Jr, br, K, V))
    rng = np.random.default_rng(2)
    for _ in range(3):
        q, th, i, w = rng.normal(size=4)
        acc = accelerations(sys, [q, th], [i, w])
        # textbook: L di/dt = V − R i − K ω, J dω/dt = K i − b ω
        assert np.isclose(acc[0], (u - R * i - k * w) / L, rtol=1e-12)
        assert np.isclose(acc[1], (k * i - b * w) / J, rtol=1e-12)
    res = sys.simulate(3.0, [0.0, 0.0], [0.0, 0.0], dt=0.01)
    w_ss = k * u / (R * b + k**2)
    assert abs(res["theta_dot"][-1] - w_ss) < 1e-6 * w_ss
    # linear system: compare with the matrix exponential solution
    from scipy.linalg import expm

    A = np.array([[-R / L, -k / L], [k / J, -b / J]])
    x_ss = np.linalg.solve(A, -np.array([u / L, 0.0]))
    for tk, i_k, w_k in zip(res.t[::50], res["q_dot"][::50], res["theta_dot"][::50],
                            strict=True):
        x = x_ss - expm(A * tk) @ x_ss
        assert np.allclose([i_k, w_k], x, rtol=1e-8, atol=1e-9)
    # power balance: ΔE = ∫ (V i − R i² − b ω²) dt, integrated with the state
    assert np.max(np.abs(res.energy_residual)) < 1e-9 * res.energy[-1]


def test_lorentz_force_two_form_matches_vector_potential():
    """β = e B dx ∧ dy gives m a = e v × B, the same as L + e A·v with A = B(−y, x)/2."""
    x, y = dynamicsymbols("x y")
    m, e, Bz = 1.5, 0.7, 2.0
    free = (m * (x.diff(t) ** 2 + y.diff(t) ** 2) / 2)
    mag = lagrange.LagrangeDiracSystem([x, y], free, magnetic={(x, y): e * Bz}, name="charge")
    pot = lagrange.LagrangeDiracSystem(
        [x, y], free + e * Bz / 2 * (-y * x.diff(t) + x * y.diff(t)), name="potential")
    rng = np.random.default_rng(5)
    for _ in range(3):
        q, v = rng.normal(size=2), rng.normal(size=2)
        a1 = accelerations(mag, q, v)
        a2 = accelerations(pot, q, v)
        assert np.allclose(a1, a2, rtol=1e-12)
        assert np.allclose(m * a1, e * Bz * np.array([v[1], -v[0]]))
    # cyclotron motion: radius m|v|/(eB), energy exactly conserved
    res = mag.simulate(10.0, [0.0, 0.0], [1.0, 0.0], dt=0.1)
    rc = m / (e * Bz)
    centre = np.array([0.0, -rc])
    r = np.hypot(res["x"] - centre[0], res["y"] - centre[1])
    assert np.max(np.abs(r - rc)) < 1e-9
    assert np.max(np.abs(res.energy - res.energy[0])) < 1e-10


def test_dc_motor_errors():
    q = dynamicsymbols("q")
    with pytest.raises(ModelError, match="pairs two different coordinates"):
        lagrange.interconnect(
            [lagrange.LagrangeDiracSystem([q], q.diff(t) ** 2, name="c")],
            lagrange.dc_motor(q, q, 1.0))
