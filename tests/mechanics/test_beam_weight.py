"""Weight of flexible links (mechanics/beam_weight.py): node pose states, the linear
gravity potential of the lumped nodal masses, exact power balance."""

from __future__ import annotations

import numpy as np
import pytest

from porthamiltonian import ModelError
from porthamiltonian import distributed as D
from porthamiltonian.mechanics import Mechanism, lie
from porthamiltonian.mechanics.beam_weight import momentum_nodes

G = 9.81


def _dense(A):
    return A.toarray() if hasattr(A, "toarray") else np.asarray(A)


def _rod_pendulum(left: str, *, EI: float, elements: int, degree: int, rhoI: float,
                  hub: float = 1e-6, stiff: float = 1e8) -> Mechanism:
    """A uniform 1 m rod (ρA = 1 kg/m) hanging along −y from a hub on a revolute pivot
    (axis z); the hub has mass 1e-3 kg at the pivot and inertia ``hub``."""
    rod = D.spatial_beam(1.0, 1.0, rhoI, stiff, EI, stiff, EI, elements=elements,
                         degree=degree, left=left, right="free")
    m = Mechanism(gravity=[0.0, -G, 0.0])
    m.add_body("hub", 1e-3, [hub] * 3)
    m.add_joint("pivot", "revolute", "ground", "hub", axis=[0, 0, 1])
    m.add_flexible_link("rod", rod, "hub", direction=[0, -1, 0])
    return m


@pytest.mark.slow
@pytest.mark.parametrize("left", ["velocity", "port"])
def test_stiff_rod_swings_as_a_compound_pendulum(left: str) -> None:
    """Small swings of a stiff uniform rod hinged at one end: T = 2π√(I/(M g L/2)),
    I = ρA L³/3 + ρI L + I_hub (→ 2π√(2L/3g) for a thin rod and a light hub), times the
    amplitude factor 1 + θ₀²/16 and the midpoint rule's period stretch
    (ωh/2)/arctan(ωh/2).  The weight must act at the rod's nodes with the lumped masses
    (all at the tip would give √2 times less).  With degree 2 the GLL (Simpson) lumping
    is exact for ∫s ds and ∫s² ds; a removed root node sits on the axis."""
    L, rhoI, hub, th0, dt = 1.0, 1e-6, 1e-6, 0.02, 5e-3
    m = _rod_pendulum(left, EI=1e5, elements=3, degree=2, rhoI=rhoI, hub=hub)
    res = m.simulate(1.3, dt=dt, q0={"pivot": th0})
    q = res.joint("pivot")[:, 0]

    def crossing(i: int) -> float:
        return res.t[i] - q[i] * (res.t[i + 1] - res.t[i]) / (q[i + 1] - q[i])

    down = np.flatnonzero((q[:-1] > 0) & (q[1:] <= 0))[0]
    up = np.flatnonzero((q[:-1] < 0) & (q[1:] >= 0))[0]
    T = 2.0 * (crossing(up) - crossing(down))
    w = np.sqrt(1.0 * L * G / 2 / (L**3 / 3 + rhoI * L + hub))
    T_ref = 2 * np.pi / w * (1 + th0**2 / 16) * (w * dt / 2) / np.arctan(w * dt / 2)
    assert 2 * np.pi * np.sqrt(2 * L / (3 * G)) / T_ref - 1 == pytest.approx(0, abs=1e-4)
    assert abs(T / T_ref - 1) < 1e-4           # measured −2.2e-8, 6.2e-8
    assert np.abs(res.power_residual).max() < 1e-13
    assert np.ptp(res.H) < 1e-13 * L * G        # measured 2.7e-15, 3.6e-15 J


@pytest.mark.slow
def test_flexible_pendulum_energy_and_power_balance() -> None:
    """A soft rod (EI = 5 N·m²) swung from 1.5 rad: H (hub, beam strain and kinetic
    energy, the rod's gravity potential) is constant to round-off while the rod bends;
    the node rotations stay orthonormal (Cayley steps).  With a PD actuator and a
    torque input, ΔH = supplied − dissipated per step."""
    def build(pd: bool) -> Mechanism:
        rod = D.spatial_beam(1.0, 1.0, 1e-5, 1e5, 5.0, 1e5, 5.0, elements=4,
                             left="velocity", right="free")
        m = Mechanism(gravity=[0.0, -G, 0.0])
        m.add_body("hub", 0.2, [1e-3] * 3)
        m.add_joint("pivot", "revolute", "ground", "hub", axis=[0, 0, 1])
        if pd:
            m.add_actuator("pivot", stiffness=20.0, damping=2.0, setpoint=0.3)
        m.add_flexible_link("rod", rod, "hub", direction=[0, -1, 0])
        return m

    m = build(False)
    res = m.simulate(1.0, dt=5e-3, q0={"pivot": 1.5})
    H = res.H
    # at the start the rod hangs rigidly at 1.5 rad: V = −ρA L g (L/2) cos 1.5
    assert H[0] == pytest.approx(-G * 0.5 * np.cos(1.5), rel=1e-12)
    assert np.abs(H - H[0]).max() < 1e-13 * G    # measured 2.1e-15 J
    assert np.ptp(res.joint("pivot")[:, 0]) > 2.0
    lk = m.links["rod"]
    xb, nq = res.beam_state("rod"), lk.beam.disc.n_q
    strain = 0.5 * np.sum((lk.beam.Q.diagonal() * xb * xb)[:, :nq], axis=1)
    assert strain.max() > 1e-3                   # it bends (measured 0.02 J)
    R = res.node_poses("rod")[..., :3, :3]
    assert np.abs(R @ np.swapaxes(R, -1, -2) - np.eye(3)).max() < 1e-13
    drift = res.pose_drift()
    assert drift[0].max() < 1e-12 and drift[:, 1].max() < 1e-3   # measured 2.7e-5 m

    pd = build(True).simulate(1.0, dt=5e-3, q0={"pivot": 1.5},
                              u={"pivot.tau[0]": lambda t: 3 * np.sin(4 * t)})
    raw = pd.raw
    assert raw.work_dissipated.sum() > 1.0        # measured 13.8 J
    assert np.abs(np.diff(raw.H) - (raw.work_supplied - raw.work_dissipated)[1:]).max() \
        < 1e-13 * G
    assert np.abs(raw.power_residual).max() < 1e-13 * G


@pytest.mark.slow
@pytest.mark.parametrize("root", ["port", "clamped"])
def test_cantilever_sags_under_its_own_weight(root: str) -> None:
    """A horizontal cantilever (L = 1 m, ρA = 1 kg/m, EI = 100 N·m², δ/L ≈ 1.2 %)
    started straight at rest oscillates about its static shape: the Hann-windowed time
    average over four fundamental periods (leakage of an oscillation ~ (ωT)⁻³ ≈ 3e-5)
    of the tip deflection is the Euler–Bernoulli δ = ρA g L⁴/(8 EI).  Tolerance 1e-3:
    the geometric nonlinearity (δ/L)² ≈ 1.5e-4, shear ρA g L²/(2 GA)/δ ≈ 4e-5, and the
    FE error.  Welded to a fixed body by a port end, the mean root wrench on the beam is
    the weight ρA L g and its moment ρA g L²/2 — the nodal weights sum to the mass."""
    L, rhoA, EI = 1.0, 1.0, 100.0
    beam = D.spatial_beam(L, rhoA, 1e-6, 1e7, EI, 1e7, EI, elements=2, degree=2,
                          left=root, right="free")
    m = Mechanism(gravity=[0.0, -G, 0.0])
    m.add_body("base", 1.0, [1, 1, 1])            # a clamped beam needs no body, but a
    m.add_joint("weld", "fixed", "ground", "base")  # mechanism needs one
    m.add_flexible_link("arm", beam, "base" if root == "port" else "ground")
    # the beam lies along x and bends in the x–y plane (EI₃)
    T1 = 2 * np.pi / (1.8751**2 * np.sqrt(EI / (rhoA * L**4)))
    res = m.simulate(4 * T1, dt=4e-3)
    t = res.t
    w = np.sin(np.pi * (t - t[0]) / (t[-1] - t[0])) ** 2

    def mean(y: np.ndarray) -> float:
        return float(np.sum(w * y) / np.sum(w))

    delta = rhoA * G * L**4 / (8 * EI)
    tip_node = res.node_poses("arm")[:, -1, 1, 3]
    tip_strain = res.beam_poses("arm")[:, -1, 1, 3]
    assert -mean(tip_node) / delta == pytest.approx(1, abs=1e-3)    # measured −2.3e-4 (both)
    assert -mean(tip_strain) / delta == pytest.approx(1, abs=1e-3)
    assert np.abs(tip_node.min()) > 1.8 * delta          # it did swing (to ≈ 2δ)
    assert np.ptp(res.H) < 1e-14                          # lossless
    if root == "port":
        lam = res.raw.lam[:, [res.raw.multipliers.index(f"arm.W_left[{i}]")
                              for i in range(6)]]
        assert mean(lam[:, 4]) / (rhoA * L * G) == pytest.approx(1, abs=1e-3)   # −2.8e-5
        assert mean(lam[:, 2]) / (rhoA * G * L**2 / 2) == pytest.approx(1, abs=1e-3)  # −1.3e-4
        assert abs(mean(lam[:, 3])) < 1e-3 * rhoA * L * G   # no mean axial force
        assert np.abs(lam[:, [0, 1, 5]]).max() < 1e-12          # nothing out of plane


def test_free_fall_deforms_nothing() -> None:
    """Equivalence principle: a tapered straight beam (ρA = 1 + s kg/m) on a floating
    body, both released at rest in a tilted pose, fall together without deforming —
    every node's weight uses its own inertial mass and body frame — and every node
    falls ½ g t² (exact for the midpoint rule: the velocity is linear in t).  The
    nodal masses sum to ∫ρA ds = 1.5 kg (GLL quadrature, exact for a linear ρA)."""
    g = np.array([0.3, -9.7, 1.1])
    beam = D.spatial_beam(1.0, lambda s: 1 + s, 1e-4, 1e5, 3.0, 1e5, 3.0, elements=3,
                          left="port", right="free")
    m = Mechanism(gravity=g)
    m.add_body("carrier", 2.0, [0.1, 0.2, 0.25], com=[0.05, 0.0, 0.0])
    m.add_flexible_link("beam", beam, "carrier", parent_anchor=[0.1, 0.0, 0.0],
                        direction=[1.0, 0.5, 0.3], up=[0, 0, 1])
    assert momentum_nodes(m.links["beam"])[2].sum() == pytest.approx(1.5, rel=1e-14)
    H0 = lie.homogeneous(lie.exp_so3([0.3, -0.2, 0.5]), [0.0, 1.0, 0.0])
    res = m.simulate(0.5, dt=1e-2, poses={"carrier": H0})
    fall = 0.5 * np.outer(res.t**2, g)
    P = res.node_poses("beam")[..., :3, 3]
    assert np.abs(P - P[0] - fall[:, None, :]).max() < 1e-12
    assert np.abs(res.pose("carrier")[:, :3, 3] - H0[:3, 3] - fall).max() < 1e-12
    nq = beam.disc.n_q
    assert np.abs(res.beam_state("beam")[:, :nq]).max() < 1e-12   # no strain
    assert np.abs(res.raw.lam).max() < 1e-11                       # no wrench at the root
    assert res.pose_drift().max() < 1e-12


def test_weight_structure_and_derivatives() -> None:
    """With node poses: J skew, f = (J − R)w + Bλ, ∂f/∂x equals central differences at
    a perturbed state (rotations not orthonormal), z of a node position is −m_i g."""
    g = np.array([0.0, -G, 2.0])
    beam = D.spatial_beam(1.0, 0.7, 1e-4, 1e4, 3.0, 1e4, 3.0, elements=2, degree=2,
                          left="velocity", right="port")
    m = Mechanism(gravity=g)
    m.add_body("a", 1.0, [0.1, 0.1, 0.1])
    m.add_body("b", 0.5, [0.1, 0.1, 0.1])
    m.add_joint("j", "spherical", "ground", "a")
    m.add_flexible_link("L", beam, "a", "b")
    dae = m.assemble()
    nodes, _, mass = momentum_nodes(m.links["L"])
    assert nodes.tolist() == [1, 2, 3, 4]          # the driven root node 0 is removed
    rng = np.random.default_rng(3)
    x = m.initial_state() + 1e-2 * rng.standard_normal(dae.n)
    w, lam = rng.standard_normal(dae.n), rng.standard_normal(dae.k)
    u = np.zeros(dae.m)
    J, R, B = (_dense(dae.matrix(s, x)) for s in "JRB")
    assert np.abs(J + J.T).max() < 1e-14
    assert np.allclose(dae.f(x, w, lam, u), (J - R) @ w + B @ lam, atol=1e-13)
    h = 1e-6
    FD = np.array([(dae.f(x + h * e, w, lam, u) - dae.f(x - h * e, w, lam, u)) / (2 * h)
                   for e in np.eye(dae.n)]).T
    assert np.abs(_dense(dae.f_x(x, w, lam, u)) - FD).max() < 1e-7
    first = dae.states.index("L.node[1].p[0]")
    assert np.allclose(dae.z(x)[first:first + 3], -mass[0] * g, rtol=1e-15)


def test_errors_name_the_link() -> None:
    beam = D.spatial_beam(1.0, 1.0, 1e-4, 1e5, 1.0, 1e5, 1.0, elements=2,
                          left="velocity", right="free")
    flat = Mechanism()                                  # no gravity: no node poses
    flat.add_body("hub", 1.0, [1, 1, 1])
    flat.add_joint("pivot", "revolute", "ground", "hub")
    flat.add_flexible_link("arm", beam, "hub")
    assert not any(".node[" in s for s in flat.assemble().states)
    res = flat.simulate(0.01, dt=5e-3)
    with pytest.raises(ModelError, match="'arm': no node poses.*gravity"):
        res.node_poses("arm")
    with pytest.raises(ModelError, match="'arm': no node poses"):
        res.pose_drift()
    with pytest.raises(ModelError, match="unknown flexible link 'nope'"):
        res.node_poses("nope")
    with pytest.raises(ModelError, match="unknown flexible link 'nope'"):
        res.pose_drift("nope")
    bad = Mechanism(gravity=[0.0, np.nan, 0.0])
    bad.add_body("hub", 1.0, [1, 1, 1])
    bad.add_flexible_link("arm", beam, "hub")
    with pytest.raises(ModelError, match="'arm'.*gravity must be three finite numbers"):
        bad.assemble()
