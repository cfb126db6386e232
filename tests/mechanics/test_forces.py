"""Force elements between frames (mechanics.forces): gradients, a two-mass oscillator
against its closed form, a bushing against a revolute joint with a torsion spring, and
the power balance with a driven wrench port."""

from __future__ import annotations

import numpy as np
import pytest
from mechanics_models import raw_poses
from scipy.spatial.transform import Rotation

from porthamiltonian.errors import ModelError
from porthamiltonian.mechanics import Mechanism
from porthamiltonian.mechanics.contact import PlaneContact
from porthamiltonian.mechanics.forces import (
    Bushing,
    ForceElement,
    SpringDamper,
    WrenchPort,
    rotation_vector,
)

ELEMENTS = [
    SpringDamper("s", "a", "b", [0.1, 0.2, 0], [0, 0.1, 0.3], stiffness=3.0, rest_length=0.4),
    SpringDamper("s0", "a", "b", [0.1, 0.2, 0], [0, 0.1, 0.3], stiffness=3.0),
    Bushing("bu", "a", "b", [0.1, 0, 0], [0, 0.2, 0], stiffness=[1, 2, 3, 4, 5, 6]),
    PlaneContact("c", "b", [0.1, 0, 0.2], radius=2.0, stiffness=5.0, exponent=1.5),
]


@pytest.mark.parametrize("element", ELEMENTS, ids=lambda e: e.name)
def test_gradient_is_the_derivative_of_the_energy(element: ForceElement) -> None:
    """z = ∂H/∂x must be exact (the discrete gradient pairs it with H): central
    differences of V at raw, non-orthonormal poses."""
    rng = np.random.default_rng(3)
    for _ in range(3):
        q = raw_poses(rng)
        g, fd = element.gradient(q), np.zeros((2, 12))
        for s in range(2):
            for i in range(12):
                qp, qm = q.copy(), q.copy()
                qp[s, i] += 1e-6
                qm[s, i] -= 1e-6
                fd[s, i] = (element.energy(qp) - element.energy(qm)) / 2e-6
        assert np.abs(g - fd).max() <= 1e-7 * max(1.0, np.abs(g).max())


@pytest.mark.parametrize("element", [ELEMENTS[0], ELEMENTS[1], ELEMENTS[3]],
                         ids=lambda e: e.name)
def test_analytic_hessians(element: ForceElement) -> None:
    rng = np.random.default_rng(4)
    q = raw_poses(rng)
    H, fd = element.hessian(q), ForceElement.hessian(element, q)
    assert np.abs(H - fd).max() <= 1e-7 * max(1.0, np.abs(H).max())


def test_rotation_vector_is_the_log() -> None:
    """φ(R) = θ e for rotations, up to θ near π and down to 1e-9."""
    for theta in (1e-9, 1e-3, 0.7, 2.0, np.pi - 1e-3):
        e = np.array([1.0, -2.0, 0.5]) / np.linalg.norm([1.0, -2.0, 0.5])
        phi, _ = rotation_vector(Rotation.from_rotvec(theta * e).as_matrix())
        assert np.allclose(phi, theta * e, rtol=1e-10, atol=1e-15)


def test_two_mass_oscillator() -> None:
    """Two free bodies joined by a spring–damper along x: the stretch s = x_b − x_a − L0
    obeys μ s̈ + c ṡ + k s = 0 (μ = m₁m₂/(m₁+m₂)), s = s₀ e^{−ζω₀t}(cos ω_d t +
    ζω₀/ω_d sin ω_d t); the centre of mass stays put; ΔH = −(work dissipated)."""
    m1, m2, k, c, L0, s0, dt, T = 1.0, 3.0, 400.0, 2.0, 0.5, 0.05, 2e-3, 0.6
    mech = Mechanism()
    mech.add_body("a", m1, [1e-3] * 3)
    mech.add_body("b", m2, [1e-3] * 3)
    mech.add_spring_damper("s", "a", "b", stiffness=k, damping=c, rest_length=L0)
    Hb = np.eye(4)
    Hb[0, 3] = L0 + s0
    res = mech.simulate(T, dt=dt, poses={"b": Hb})
    mu = m1 * m2 / (m1 + m2)
    w0, zeta = np.sqrt(k / mu), c / (2 * np.sqrt(k * mu))
    wd = w0 * np.sqrt(1 - zeta ** 2)
    t = res.t
    ref = s0 * np.exp(-zeta * w0 * t) * (np.cos(wd * t) + zeta * w0 / wd * np.sin(wd * t))
    s = res["b.x"] - res["a.x"] - L0
    # the midpoint rule's phase error: (ωh)²/12 per radian of phase
    assert np.abs(s - ref).max() <= (w0 * dt) ** 2 / 12 * w0 * T * s0
    assert np.abs(m1 * res["a.x"] + m2 * res["b.x"] - m2 * (L0 + s0)).max() <= 1e-12
    assert abs((res.H[0] - res.H[-1]) - res.work_dissipated.sum()) <= 1e-12 * res.H[0]
    assert res.work_dissipated.sum() > 0.5 * res.H[0]


def _torsion_body() -> Mechanism:
    mech = Mechanism()
    mech.add_body("b", 1.0, [0.01] * 3, com=[0.5, 0, 0])
    return mech


def test_bushing_against_revolute_with_torsion_spring() -> None:
    """A bushing soft about z (k = 10 N·m/rad) and stiff in the five other directions
    swings a body from 1 rad like a revolute joint with a spring of the same k (the
    rotation-vector potential stores ½kθ² at any angle); both follow θ₀ cos ωt."""
    k, th0, dt, T = 10.0, 1.0, 2e-3, 0.5
    rev = _torsion_body()
    rev.add_joint("j", "revolute", "ground", "b", axis=[0, 0, 1])
    rev.add_actuator("j", stiffness=k, setpoint=0.0)
    r1 = rev.simulate(T, dt=dt, q0={"j": th0})
    bu = _torsion_body()
    bu.add_bushing("bush", "ground", "b", stiffness=[1e4, 1e4, k, 1e6, 1e6, 1e6])
    H = np.eye(4)
    H[:3, :3] = Rotation.from_rotvec([0, 0, th0]).as_matrix()
    r2 = bu.simulate(T, dt=dt, poses={"b": H})
    assert r2.raw.method == "discrete_gradient"
    # compliance: the centripetal force m ω² r ≈ 20 N moves the anchor by ~2e-5 m
    assert np.abs(r1["j.q"] - r2["b.yaw"]).max() <= 1e-3
    wn = np.sqrt(k / (0.01 + 0.25))
    assert np.abs(r1["j.q"] - th0 * np.cos(wn * r1.t)).max() <= (wn * dt) ** 2 / 12 * wn * T
    assert np.abs(r2.H - r2.H[0]).max() <= 1e-12 * r2.H[0]


def test_bushing_translation_against_prismatic_spring() -> None:
    """Soft along x (k = 50 N/m), stiff otherwise: a body oscillates like on a prismatic
    joint with a spring, with the damping of the bushing as the actuator's."""
    dt, T = 2e-3, 0.4
    pri = _torsion_body()
    pri.add_joint("j", "prismatic", "ground", "b", axis=[1, 0, 0])
    pri.add_actuator("j", stiffness=50.0, damping=0.8, setpoint=0.0)
    r1 = pri.simulate(T, dt=dt, q0={"j": 0.1})
    bu = _torsion_body()
    bu.add_bushing("bush", "ground", "b", stiffness=[1e4, 1e4, 1e4, 50.0, 1e6, 1e6],
                   damping=[0, 0, 0, 0.8, 0, 0])
    H = np.eye(4)
    H[0, 3] = 0.1
    r2 = bu.simulate(T, dt=dt, poses={"b": H})
    # no rotation is excited: the bushing's translational potential is the spring's
    assert np.abs(r1["j.q"] - (r2["b.x"] - 0.5)).max() <= 1e-12
    assert np.abs(r2.power_residual).max() <= 1e-13 * r2.H[0]


def test_wrench_port_power_balance_and_output() -> None:
    """A body on a spring–damper to ground, driven through a wrench port by a torque
    and a force: every step closes ΔH = supplied − dissipated to round-off, and the
    port's output is the anchor point's velocity (central differences of its path)."""
    mech = Mechanism(gravity=[0, 0, -9.81])
    mech.add_body("b", 2.0, [0.02, 0.03, 0.04], com=[0.1, 0, 0])
    mech.add_spring_damper("s", "ground", "b", first_anchor=[0, 0, 1.0],
                           second_anchor=[0.2, 0, 0], stiffness=300.0, damping=3.0,
                           rest_length=0.8)
    mech.add_wrench_port("push", "ground", "b", second_anchor=[0.2, 0.05, 0], axes="world")
    u = {"push.W[0]": lambda t: 0.3 * np.sin(7 * t), "push.W[3]": lambda t: 5 * np.cos(3 * t)}
    res = mech.simulate(0.5, dt=1e-3, u=u)
    scale = np.abs(res.H).max()
    assert np.abs(res.power_residual).max() <= 1e-12 * scale
    assert abs(res.work_supplied.sum()) > 0.1 and res.work_dissipated.sum() > 0.01
    # output: the velocity of the anchor point (world axes) — centred differences
    P = res.pose("b")
    c = P[:, :3, 3] + np.einsum("nij,j->ni", P[:, :3, :3], [0.2, 0.05, 0])
    v = (c[2:] - c[:-2]) / (2e-3)
    y = np.column_stack([res[f"push.T[{3 + i}]"] for i in range(3)])[1:-1]
    assert np.abs(v - y).max() <= 1e-3 * np.abs(y).max()


def test_wrench_port_output_feedback_is_a_damper() -> None:
    """Feeding the port's output back, u = −c·y on the force components, acts as a
    damper: it matches a bushing with that translational damping (to the step's
    difference between y(x̄) and the discrete-gradient effort), and H falls by exactly
    the work the port absorbs."""
    c, dt, T = 4.0, 2e-3, 0.3
    H0 = np.eye(4)
    H0[0, 3] = 0.1

    def base() -> Mechanism:
        mech = _torsion_body()
        mech.add_bushing("k", "ground", "b", stiffness=[5, 5, 5, 60, 60, 60])
        return mech

    fb = base()
    fb.add_wrench_port("port", "ground", "b")
    dae = fb.assemble()
    res = fb.simulate(T, dt=dt, poses={"b": H0},   # state feedback through the output map
                      u=lambda t, x: np.concatenate([np.zeros(3),
                                                     -c * dae.output(x, np.zeros(6))[3:]]))
    ref = base()
    ref.add_bushing("d", "ground", "b", damping=[0, 0, 0, c, c, c])
    r2 = ref.simulate(T, dt=dt, poses={"b": H0})
    assert np.abs(res["b.x"] - r2["b.x"]).max() <= 1e-6 * 0.1
    assert abs(res.H[0] - res.H[-1] + res.work_supplied.sum()) <= 1e-12 * res.H[0]


def test_errors_name_the_element() -> None:
    mech = _torsion_body()
    with pytest.raises(ModelError, match="same body"):
        mech.add_spring_damper("s", "b", "b", stiffness=1.0)
    with pytest.raises(ModelError, match="unknown body 'c'"):
        mech.add_spring_damper("s", "b", "c", stiffness=1.0)
    with pytest.raises(ModelError, match="'s'.*stiffness must be ≥ 0"):
        mech.add_spring_damper("s", "ground", "b", stiffness=-1.0)
    with pytest.raises(ModelError, match="axes must be"):
        mech.add_wrench_port("w", "ground", "b", axes="body")
    mech.add_bushing("bu", "ground", "b", stiffness=1.0)
    with pytest.raises(ModelError, match="'bu'.*already used"):
        mech.add_wrench_port("bu", "ground", "b")
    with pytest.raises(ModelError, match="no symbolic form"):
        mech.system()
    pinned = _torsion_body()
    pinned.add_spring_damper("s", "ground", "b", stiffness=1.0,
                             rest_length=0.1)
    with pytest.raises(ModelError, match="'s'.*anchor points coincide"):
        pinned.simulate(0.01, dt=1e-3)
    assert isinstance(WrenchPort("w", "ground", "b"), ForceElement)
