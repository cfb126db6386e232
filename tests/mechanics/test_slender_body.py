"""Slender and point bodies (zero principal moments, :mod:`porthamiltonian.mechanics.slender`):
a spatial double pendulum of two thin rods against a Lagrangian derived here with SymPy
rotation matrices, a point-mass pendulum against the simple pendulum's closed forms,
and the models that are truly singular (a spin no joint blocks, no mass) refused."""

import numpy as np
import pytest
import sympy as sp
from scipy.integrate import solve_ivp
from scipy.special import ellipk

from porthamiltonian import ModelError
from porthamiltonian.io import load_model, simulate_model
from porthamiltonian.mechanics import Mechanism, RigidBody

G = 9.81
M1, L1, M2, L2 = 1.0, 1.0, 0.7, 0.8


def rods() -> Mechanism:
    """Two thin rods (along body −y, no moment about it), the first swinging about the
    inertial z axis, the second about the first rod's x axis at its tip: the joints make
    the second rod spin about its own axis (rate θ̇₁ sin θ₂)."""
    mech = Mechanism(gravity=[0, -G, 0])
    mech.add_body("upper", M1, [M1 * L1**2 / 12, 0.0, M1 * L1**2 / 12], com=[0, -L1 / 2, 0])
    mech.add_body("lower", M2, [M2 * L2**2 / 12, 0.0, M2 * L2**2 / 12], com=[0, -L2 / 2, 0])
    mech.add_joint("shoulder", "revolute", "ground", "upper", axis=[0, 0, 1])
    mech.add_joint("elbow", "revolute", "upper", "lower", axis=[1, 0, 0],
                   parent_anchor=[0, -L1, 0])
    return mech


def lagrangian_rhs():
    """ẏ = F(y), y = (θ₁, θ₂, θ̇₁, θ̇₂), from L = T − V with R₁ = R_z(θ₁), R₂ = R₁R_x(θ₂),
    rotational energy ½ωᵀI_cω in body axes (I_c = diag(I, 0, I)) — independent of the
    library (no Lie toolkit, no momenta)."""
    t = sp.symbols("t")
    th = [sp.Function(f"th{i}")(t) for i in (1, 2)]
    Rz = sp.Matrix([[sp.cos(th[0]), -sp.sin(th[0]), 0], [sp.sin(th[0]), sp.cos(th[0]), 0],
                    [0, 0, 1]])
    Rx = sp.Matrix([[1, 0, 0], [0, sp.cos(th[1]), -sp.sin(th[1])],
                    [0, sp.sin(th[1]), sp.cos(th[1])]])
    R1, R2 = Rz, Rz * Rx
    down = lambda a: sp.Matrix([0, -a, 0])  # noqa: E731
    c1, c2 = R1 * down(L1 / 2), R1 * down(L1) + R2 * down(L2 / 2)

    def omega(R):  # body angular velocity: (RᵀṘ)^∨
        W = sp.simplify(R.T * R.diff(t))
        return sp.Matrix([W[2, 1], W[0, 2], W[1, 0]])

    T = 0
    for m, L, c, R in ((M1, L1, c1, R1), (M2, L2, c2, R2)):
        w = omega(R)
        Ic = sp.diag(m * L**2 / 12, 0, m * L**2 / 12)
        T += m * (c.diff(t).T * c.diff(t))[0] / 2 + (w.T * Ic * w)[0] / 2
    V = G * (M1 * c1[1] + M2 * c2[1])
    Lg = T - V
    qd = [q.diff(t) for q in th]
    eqs = [sp.diff(Lg.diff(v), t) - Lg.diff(q) for q, v in zip(th, qd, strict=True)]
    a = sp.symbols("a1:3")
    sub = {qd[i].diff(t): a[i] for i in range(2)}
    eqs = [e.subs(sub) for e in eqs]
    Mm = sp.Matrix(2, 2, lambda i, j: eqs[i].diff(a[j]))
    rhs = -sp.Matrix([e.subs({a[0]: 0, a[1]: 0}) for e in eqs])
    y = sp.symbols("y0:4")
    rep = {qd[0]: y[2], qd[1]: y[3]}
    rep2 = {th[0]: y[0], th[1]: y[1]}
    Mf = sp.lambdify([y], Mm.subs(rep).subs(rep2), "numpy")
    rf = sp.lambdify([y], rhs.subs(rep).subs(rep2), "numpy")
    return lambda _t, yy: np.r_[yy[2:], np.linalg.solve(np.array(Mf(yy), dtype=float),
                                                        np.array(rf(yy), dtype=float).ravel())]


def test_slender_rod_is_accepted_and_point_mass_has_three_null_spins():
    rod = RigidBody("rod", 2.0, [0.5, 0.0, 0.5], com=[0, -0.5, 0])
    N = rod.null_twists
    assert N.shape == (6, 1)
    np.testing.assert_allclose(rod.spatial_inertia @ N, 0.0, atol=1e-15)   # moves no mass
    Mp = rod.compliance
    np.testing.assert_allclose(Mp @ rod.spatial_inertia @ Mp, Mp, atol=1e-14)  # M⁺
    point = RigidBody("pt", 1.5, [0, 0, 0], com=[0.2, -1.0, 0.1])
    assert point.null_twists.shape == (6, 3) and np.linalg.matrix_rank(point.compliance) == 3


def test_slender_double_pendulum_matches_the_lagrangian():
    """Both rods without axial moment; the joints force the lower one to spin about its
    own axis.  Midpoint (dt = 2 ms and 1 ms, 1 s) against the Lagrangian (DOP853, rtol
    1e-12): angle error ≤ 1e-5 rad at 1 ms (measured 5.7e-6) and second order (ratio
    4 ± 0.1 on halving dt; measured 4.000); H constant and the massless spin momenta
    NᵀP zero to round-off."""
    q0, v0 = {"shoulder": 0.8, "elbow": 0.6}, {"shoulder": 1.0, "elbow": -0.5}
    ref = solve_ivp(lagrangian_rhs(), (0, 1.0), [0.8, 0.6, 1.0, -0.5], method="DOP853",
                    rtol=1e-12, atol=1e-12, dense_output=True)
    errs = []
    for dt in (2e-3, 1e-3):
        res = rods().simulate(1.0, dt=dt, q0=q0, v0=v0, save_every=10)
        y = ref.sol(res.t)
        q = np.column_stack([res["shoulder.q"], res["elbow.q"]])
        qd = np.column_stack([res["shoulder.qd"], res["elbow.qd"]])
        errs.append(max(np.abs(q - y[:2].T).max(), np.abs(qd - y[2:].T).max() / 10))
        assert np.abs(res.H - res.H[0]).max() < 1e-13 * abs(res.H[0])
        assert res.constraint_residual().max() < 1e-13
        for i, b in enumerate(("upper", "lower")):
            N = rods().bodies[b].null_twists
            assert np.abs(res.x[:, 18 * i + 12:18 * i + 18] @ N).max() < 1e-13
    assert errs[1] < 1e-5
    assert 3.9 < errs[0] / errs[1] < 4.1
    # the lower rod really spins about its axis: ω·y = θ̇₁ sin θ₂ (μ about e = ±y)
    mu = res["lower.mu[0]"] * rods().bodies["lower"].null_axes[1, 0]
    np.testing.assert_allclose(mu, y[2] * np.sin(y[1]), atol=5e-5)
    assert np.abs(mu).max() > 0.3


def point_pendulum(length: float) -> Mechanism:
    mech = Mechanism(gravity=[0, -G, 0])
    mech.add_body("bob", 0.5, [0, 0, 0], com=[0, -length, 0])   # frame at the pivot
    mech.add_joint("pivot", "revolute", "ground", "bob")
    return mech


def test_point_mass_pendulum_has_the_simple_pendulum_period_and_energy():
    """Zero inertia: the period is 4√(L/g) K(sin²(θ₀/2)) (→ 2π√(L/g)(1 + θ₀²/16) for
    small θ₀) times the midpoint rule's own factor 1 + (ωh)²/12 (1.09e-6 at dt = 1 ms):
    to 2e-8 relative (measured 7e-10); H = −m g L cos θ₀ exactly and constant to 1e-13."""
    L, th0 = 0.75, 0.05
    res = point_pendulum(L).simulate(1.4, dt=1e-3, q0={"pivot": th0}, save_every=10)
    q, t = res["pivot.q"], res.t
    cross = np.flatnonzero(np.sign(q[:-1]) != np.sign(q[1:]))  # at T/4 and 3T/4
    tc = []
    for i in cross:  # the root of a cubic through four saved points around the crossing
        c = np.polynomial.Polynomial.fit(t[i - 1:i + 3], q[i - 1:i + 3], 3)
        tc.append(next(r.real for r in c.roots() if abs(r.imag) < 1e-12
                       and t[i] <= r.real <= t[i + 1]))
    assert len(tc) == 2
    period = 2 * (tc[1] - tc[0])
    exact = 4 * np.sqrt(L / G) * ellipk(np.sin(th0 / 2) ** 2)
    h, w = 1e-3, np.sqrt(G / L)
    assert abs(period / (exact * (1 + (w * h) ** 2 / 12)) - 1) < 2e-8
    assert abs(exact / (2 * np.pi * np.sqrt(L / G)) - 1) < th0**2 / 16 * 1.01  # small swing
    assert np.isclose(res.H[0], -0.5 * G * L * np.cos(th0), rtol=1e-14)
    assert np.abs(res.H - res.H[0]).max() < 1e-13 * abs(res.H[0])
    assert np.abs(res.x[:, 12:18] @ point_pendulum(L).bodies["bob"].null_twists).max() < 1e-13


def test_slender_body_from_a_model_file(tmp_path):
    """The ``mechanism:`` section accepts a zero moment and simulates numerically."""
    path = tmp_path / "rod.yaml"
    path.write_text(
        "name: rod\nmechanism:\n  gravity: [0, -9.81, 0]\n  bodies:\n"
        "    - {name: rod, mass: 1.0, inertia: [0.25, 0, 0.25], com: [0, -0.5, 0]}\n"
        "  joints:\n    - {name: pin, kind: revolute, parent: ground, child: rod}\n"
        "simulate: {t_end: 0.2, dt: 0.002, initial: {pin: 0.3}}\n")
    res = simulate_model(load_model(path))
    assert res.success and np.abs(res.H - res.H[0]).max() < 1e-13 * abs(res.H[0])
    assert res["pin.q"][-1] < 0.3


def test_truly_singular_models_are_refused():
    with pytest.raises(ModelError, match="'tip'.*mass"):
        RigidBody("tip", 0.0, [0, 0, 0])
    with pytest.raises(ModelError, match="semidefinite"):
        RigidBody("rod", 1.0, [0.1, -0.1, 0.1])
    # a rod on a spherical joint at its end: nothing blocks the spin about its axis
    mech = Mechanism(gravity=[0, -G, 0])
    mech.add_body("rod", 1.0, [0.1, 0.0, 0.1], com=[0, -0.5, 0])
    mech.add_joint("ball", "spherical", "ground", "rod")
    with pytest.raises(ModelError, match="'rod'.*spin about that axis free"):
        mech.simulate(0.01, dt=1e-3, q0={"ball": [0.3, 0, 0]})
    # a floating point mass: its orientation is a motion without inertia
    mech = Mechanism()
    mech.add_body("pt", 1.0, [0, 0, 0])
    mech.add_joint("float", "free", "ground", "pt")
    with pytest.raises(ModelError, match="'pt'"):
        mech.simulate(0.01, dt=1e-3)
    with pytest.raises(ModelError, match="invertible inertia"):
        mech.system()
