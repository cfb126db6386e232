"""Flexible links (3-D beams) joined to rigid bodies in a Mechanism."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl
import scipy.optimize as so

from porthamiltonian import ModelError
from porthamiltonian import distributed as D
from porthamiltonian.mechanics import Mechanism


def _dense(A):
    return A.toarray() if hasattr(A, "toarray") else np.asarray(A)


def _stiff_pendulum(left: str, right: str, rhoA: float = 0.01) -> Mechanism:
    """Hub on a revolute pivot, a 1 m stiff rod hanging along −y, a 1 kg tip body."""
    rod = D.spatial_beam(1.0, rhoA, 1e-6, 1e7, 1e4, 1e7, 1e4, elements=4, left=left,
                         right=right)
    m = Mechanism(gravity=[0.0, -9.81, 0.0])
    m.add_body("hub", 0.1, [1e-3, 1e-3, 1e-3])
    m.add_body("tip", 1.0, [1e-3, 1e-3, 1e-3])
    m.add_joint("pivot", "revolute", "ground", "hub", axis=[0, 0, 1])
    m.add_flexible_link("rod", rod, "hub", "tip", direction=[0, -1, 0])
    return m


@pytest.mark.slow
@pytest.mark.parametrize("left, right", [("velocity", "port"), ("port", "port")])
def test_stiff_rod_pendulum_has_the_rigid_period(left: str, right: str) -> None:
    """Small swings: T = 2π√(I/(g Σm r)) (1 + θ₀²/16), I about the pivot = hub + tip body
    (m l² + I_zz) + rod (ρA l³/3); the gravity torque of the tip body (m l) and of the
    rod's weight (ρA l²/2, beam_weight.py)."""
    m = _stiff_pendulum(left, right)
    th0, g, rhoA = 0.02, 9.81, 0.01
    res = m.simulate(1.6, dt=4e-3, q0={"pivot": th0})  # past 3T/4 ≈ 1.5 s: both crossings
    q = res.joint("pivot")[:, 0]

    def crossing(i: int) -> float:  # linear interpolation (sin has no curvature at 0)
        return res.t[i] - q[i] * (res.t[i + 1] - res.t[i]) / (q[i + 1] - q[i])

    down = np.flatnonzero((q[:-1] > 0) & (q[1:] <= 0))[0]
    up = np.flatnonzero((q[:-1] < 0) & (q[1:] >= 0))[0]
    T = 2.0 * (crossing(up) - crossing(down))
    inertia = 1e-3 + 1.0 * 1.0**2 + 1e-3 + rhoA * 1.0**3 / 3.0
    T_ref = 2 * np.pi * np.sqrt(inertia / (g * (1.0 * 1.0 + rhoA * 1.0**2 / 2))) \
        * (1 + th0**2 / 16)
    assert abs(T / T_ref - 1) < 1e-3          # measured 6.6e-5 for both
    assert np.abs(res.power_residual).max() < 1e-12
    assert np.ptp(res.H) < 1e-12               # conservative: H constant
    assert res.constraint_residual().max() < 1e-12
    assert res.flexible_residual().max() < 1e-9


@pytest.mark.slow
def test_hub_driven_cantilever_energy_balance() -> None:
    """A soft cantilever on a hub under PD control and an external torque: the energy
    stored (springs, bodies, beam) equals supplied − dissipated, step by step."""
    beam = D.spatial_beam(1.0, 0.5, 1e-5, 1e5, 2.0, 1e5, 2.0, elements=6, left="port",
                          right="free")
    m = Mechanism()
    m.add_body("hub", 1.0, [0.05, 0.05, 0.05])
    m.add_joint("motor", "revolute", "ground", "hub", axis=[0, 0, 1])
    m.add_actuator("motor", stiffness=5.0, damping=1.0, setpoint=0.5)
    m.add_flexible_link("arm", beam, "hub", parent_anchor=[0.1, 0, 0])
    res = m.simulate(2.0, dt=5e-3, u={"motor.tau[0]": lambda t: 2 * np.sin(3 * t)})
    raw = res.raw
    supplied, dissipated = raw.work_supplied.sum(), raw.work_dissipated.sum()
    assert supplied > 1.0 and dissipated > 1.0           # measured 3.11 J, 2.86 J
    assert abs(raw.H[-1] - raw.H[0] - (supplied - dissipated)) < 1e-12
    assert np.abs(raw.power_residual).max() < 1e-13
    # the beam did deform: its strain energy is part of what is stored
    xb = res.beam_state("arm")
    q = m.links["arm"].beam.Q.diagonal()
    assert (0.5 * np.sum(q * xb * xb, axis=1)).max() > 1e-3


@pytest.mark.parametrize("elements, degree, tol", [(8, 1, 3e-4), (4, 2, 3e-5)])
def test_cantilever_with_tip_mass_first_frequency(elements: int, degree: int,
                                                  tol: float) -> None:
    """The linearized assembled DAE (beam clamped to ground, a point mass joined at its
    tip by the port constraint) has the Euler–Bernoulli tip-mass frequency ω = β²√(EI/ρAL⁴),
    1 + cos β cosh β + (M/ρAL) β (cos β sinh β − sin β cosh β) = 0 (Blevins, table 8-1)."""
    L, rhoA, EI, M = 1.0, 0.5, 2.0, 0.3
    beam = D.spatial_beam(L, rhoA, 1e-8, 1e8, EI, 1e9, EI, elements=elements,
                          degree=degree, left="clamped", right="port")
    m = Mechanism()
    m.add_body("mass", M, [1e-9, 1e-9, 1e-9])
    m.add_flexible_link("arm", beam, "ground", "mass")
    dae = m.assemble()
    x0 = m.initial_state()
    n, k = dae.n, dae.k
    Dz = _dense(dae.Dz(x0))
    B = _dense(dae.B(x0))
    A = np.block([[_dense(dae.matrix("J", x0)) @ Dz, B], [B.T @ Dz, np.zeros((k, k))]])
    E = np.zeros_like(A)
    E[:n, :n] = np.eye(n)
    ev = sl.eigvals(A, E)
    w = np.sort(ev[np.isfinite(ev)].imag)
    w1 = w[w > 1e-3][0]
    r = M / (rhoA * L)
    beta = so.brentq(lambda b: 1 + np.cos(b) * np.cosh(b)
                     + r * b * (np.cos(b) * np.sinh(b) - np.sin(b) * np.cosh(b)), 0.5, 1.8751)
    w_ref = beta**2 * np.sqrt(EI / (rhoA * L**4))
    assert abs(w1 / w_ref - 1) < tol     # measured 9.8e-5 (8 × P1), 7.9e-6 (4 × P2)


@pytest.mark.parametrize("left, right", [("velocity", "port"), ("port", "velocity")])
def test_assembly_structure_and_derivatives(left: str, right: str) -> None:
    """J skew, f = Jw + Bλ, c = Bᵀw, and f_x, c_x equal central differences."""
    m = _stiff_pendulum(left, right, rhoA=0.5)
    m.add_actuator("pivot", stiffness=2.0, damping=0.3)
    dae = m.assemble()
    rng = np.random.default_rng(1)
    x = m.initial_state({"pivot": 0.3}, {"pivot": 1.0}) + 1e-2 * rng.standard_normal(dae.n)
    w, lam, u = (rng.standard_normal(s) for s in (dae.n, dae.k, dae.m))
    J, R, B, G = (_dense(dae.matrix(s, x)) for s in "JRBG")
    assert np.abs(J + J.T).max() < 1e-14
    assert np.allclose(dae.f(x, w, lam, u), (J - R) @ w + B @ lam + G @ u, atol=1e-13)
    assert np.allclose(dae.c(x, w), B.T @ w, atol=1e-13)
    h = 1e-6
    FD = np.array([(dae.f(x + h * e, w, lam, u) - dae.f(x - h * e, w, lam, u)) / (2 * h)
                   for e in np.eye(dae.n)]).T
    CD = np.array([(dae.c(x + h * e, w) - dae.c(x - h * e, w)) / (2 * h)
                   for e in np.eye(dae.n)]).T
    assert np.abs(_dense(dae.f_x(x, w, lam, u)) - FD).max() < 1e-7
    assert np.abs(_dense(dae.c_x(x, w)) - CD).max() < 1e-7


def test_errors_name_the_fault() -> None:
    beam = D.spatial_beam(1.0, 1.0, 1e-4, 1e5, 1.0, 1e5, 1.0, elements=2,
                          left="velocity", right="port")
    m = Mechanism()
    m.add_body("a", 1.0, [1, 1, 1])
    m.add_body("b", 1.0, [1, 1, 1])
    with pytest.raises(ModelError, match="unknown parent body 'nope'"):
        m.add_flexible_link("L", beam, "nope", "b")
    with pytest.raises(ModelError, match="unknown child body 'nope'"):
        m.add_flexible_link("L", beam, "a", "nope")
    with pytest.raises(ModelError, match="right end must be 'free'"):
        m.add_flexible_link("L", beam, "a")
    free = D.spatial_beam(1.0, 1.0, 1e-4, 1e5, 1.0, 1e5, 1.0, elements=2,
                          left="velocity", right="free")
    with pytest.raises(ModelError, match="right='port'"):
        m.add_flexible_link("L", free, "a", "b")
    clamped = D.spatial_beam(1.0, 1.0, 1e-4, 1e5, 1.0, 1e5, 1.0, elements=2,
                             left="clamped", right="port")
    with pytest.raises(ModelError, match="left end is 'clamped'"):
        m.add_flexible_link("L", clamped, "a", "b")
    with pytest.raises(ModelError, match="spatial_beam"):
        m.add_flexible_link("L", D.wave(1.0, 1.0, 1.0), "a", "b")
    with pytest.raises(ModelError, match="parallel"):
        m.add_flexible_link("L", beam, "a", "b", direction=[0, 0, 1], up=[0, 0, 2])
    m.add_flexible_link("L", beam, "a", "b")
    with pytest.raises(ModelError, match="already used"):
        m.add_flexible_link("L", beam, "a", "b")
    with pytest.raises(ModelError, match="no symbolic form"):
        m.system()


def test_closed_chain_must_fit_undeformed() -> None:
    """A link whose child is also held by a joint where the undeformed beam cannot
    reach is refused (it would start with a position mismatch); where it reaches, the
    chain is accepted (the joints on the loop are solved so that it fits)."""
    def chain(x2: float) -> Mechanism:
        beam = D.spatial_beam(1.0, 1.0, 1e-4, 1e5, 1.0, 1e5, 1.0, elements=2,
                              left="velocity", right="port")
        m = Mechanism()
        m.add_body("a", 1.0, [1, 1, 1])
        m.add_body("b", 1.0, [1, 1, 1])
        m.add_joint("j1", "revolute", "ground", "a")
        m.add_joint("j2", "revolute", "ground", "b", parent_anchor=[x2, 0, 0])
        m.add_flexible_link("L", beam, "a", "b")
        return m

    with pytest.raises(ModelError, match="through L cannot be closed.*must fit undeformed"):
        chain(1.2).simulate(0.01, dt=1e-3)
    res = chain(1.0).simulate(0.01, dt=1e-3)
    assert res.flexible_residual().max() < 1e-12


def test_skeleton_draws_the_beam_centre_line() -> None:
    """The drawn centre line of the stiff rod has the rod's length (axial strain
    m g/EA ≈ 1e-6) and ends at the tip body's anchor."""
    from porthamiltonian.mechanics.animation import skeleton

    m = _stiff_pendulum("velocity", "port")
    res = m.simulate(0.1, dt=5e-3, q0={"pivot": 0.5})
    segs = skeleton(m, res)
    beam = segs[:, -4:]                                  # 4 elements, drawn last
    length = np.linalg.norm(beam[:, :, 1] - beam[:, :, 0], axis=-1).sum(axis=1)
    assert np.abs(length - 1.0).max() < 1e-5
    tip = res.pose("tip")[:, :3, 3]
    assert np.abs(beam[:, -1, 1] - tip).max() < 1e-12


SPEC = """
parameters: {L: 1.0}
mechanism:
  gravity: [0, -9.81, 0]
  bodies:
    - {name: hub, mass: 0.1, inertia: [1e-3, 1e-3, 1e-3]}
    - {name: tip, mass: 1.0, inertia: [1e-3, 1e-3, 1e-3]}
  joints:
    - {name: pivot, kind: revolute, parent: ground, child: hub, axis: [0, 0, 1]}
  flexible_links:
    - name: rod
      parent: hub
      child: tip
      direction: [0, -1, 0]
      beam: {length: L, rhoA: 0.01, rhoI: 1e-6, EA: 1e7, EI: 1e4, GA: 1e7, GJ: 1e4,
             elements: 4, left: velocity, right: port}
"""


def test_mechanism_spec_with_a_flexible_link() -> None:
    """The ``flexible_links:`` entry builds the same assembled system as the API."""
    import yaml

    from porthamiltonian.mechanics import mechanism_from_spec

    data = yaml.safe_load(SPEC)
    a = mechanism_from_spec(data["mechanism"], data["parameters"]).assemble()
    b = _stiff_pendulum("velocity", "port").assemble()
    assert a.states == b.states and a.multipliers == b.multipliers
    x = np.random.default_rng(2).standard_normal(a.n)
    assert a.energy(x) == b.energy(x)
    assert np.array_equal(a.f(x, x, np.ones(a.k), np.zeros(0)),
                          b.f(x, x, np.ones(b.k), np.zeros(0)))
    data["mechanism"]["flexible_links"][0]["beam"]["stiff"] = 1
    with pytest.raises(ModelError, match=r"flexible_links\[0\] \(rod\)\.beam: unknown key"):
        mechanism_from_spec(data["mechanism"], data["parameters"])
