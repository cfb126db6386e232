"""Kinematic pairs: the allowed/forbidden twist subspaces of every lower pair, joint
coordinates, actuator ports; pendulums against closed-form periods and an independent
SymPy Lagrangian derivation; PD control at a joint."""

import numpy as np
import pytest
import sympy as sp
from scipy.integrate import solve_ivp
from scipy.optimize import brentq
from scipy.special import ellipk

from porthamiltonian import ModelError
from porthamiltonian.mechanics import Mechanism, lie
from porthamiltonian.mechanics.joints import KINDS

G = 9.81


@pytest.mark.parametrize("kind", list(KINDS))
def test_allowed_twists_are_exactly_the_free_directions(kind):
    rng = np.random.default_rng(len(kind))
    mech = Mechanism()
    mech.add_body("b", 1.0, [0.3, 0.4, 0.5], com=[0.1, 0.2, 0.3])
    mech.add_joint("j", kind, "ground", "b", axis=[1.0, 2.0, 2.0],
                   parent_anchor=[0.5, -0.2, 0.1], child_anchor=[0.3, 0.4, -0.1])
    if KINDS[kind]:
        mech.add_actuator("j")
    sys = mech.system()
    j = mech.joints["j"]
    assert sys.n_constraints == 6 - j.dof
    q = rng.uniform(-1.0, 1.0, j.dof)
    Hb = j.child_pose(np.eye(4), q)
    np.testing.assert_allclose(j.coordinates(np.eye(4), Hb), q, atol=1e-12)
    g = j.constraints(np.zeros(3), np.eye(3), Hb[:3, 3], Hb[:3, :3])
    assert np.abs(g).max(initial=0.0) < 1e-14
    x = mech.bodies["b"].state(Hb)
    vals = dict(zip(sp.symbols(sys.states, real=True), x, strict=True))
    B = np.array(sys.B.xreplace(vals).tolist(), dtype=float)[12:18]  # body-twist rows
    assert np.linalg.matrix_rank(B, tol=1e-10) == 6 - j.dof          # forbidden: all blocked
    screws = j.screws(np.eye(4), q)
    T = np.linalg.solve(lie.Ad(Hb), screws)                          # body twists per q̇_i
    assert np.abs(B.T @ T).max(initial=0.0) < 1e-12                   # allowed: all free
    # finite-difference check of the screws: d/dq of the pose
    for i in range(j.dof):
        dq = np.zeros(j.dof)
        dq[i] = 1e-6
        Hd = (j.child_pose(np.eye(4), q + dq) - j.child_pose(np.eye(4), q - dq)) / 2e-6
        if kind == "free" and i >= 3:  # its rates are a twist: turn about parent axis i − 3
            turn = lambda s, i=i: np.r_[q[:3], lie.log_so3(  # noqa: E731
                lie.exp_so3(s * np.eye(3)[i - 3]) @ lie.exp_so3(q[3:]))]
            Hd = (j.child_pose(np.eye(4), turn(1e-6))
                  - j.child_pose(np.eye(4), turn(-1e-6))) / 2e-6
        np.testing.assert_allclose(lie.twist_hat(screws[:, i]) @ Hb, Hd, atol=1e-8)
    if j.dof and kind != "spherical":  # the actuator's output is the joint velocity
        Gm = np.array(sys.G.xreplace(vals).tolist(), dtype=float)[12:18]
        np.testing.assert_allclose(Gm.T @ T, np.eye(j.dof), atol=1e-12)


def pendulum(with_pd: bool = False) -> tuple[Mechanism, float, float]:
    m, L = 1.5, 0.8
    mech = Mechanism(gravity=[0, -G, 0])
    mech.add_body("rod", m, [m * L**2 / 12, 1e-3, m * L**2 / 12], com=[0, -L / 2, 0])
    mech.add_joint("pin", "revolute", "ground", "rod")
    if with_pd:
        mech.add_actuator("pin", stiffness=20.0, damping=2.0, setpoint=1.0)
    return mech, m * L**2 / 3, m * G * L / 2


def period(t, th):
    """Twice the mean spacing of the zero crossings (linear interpolation)."""
    k = np.flatnonzero(np.sign(th[:-1]) != np.sign(th[1:]))
    tc = t[k] + th[k] / (th[k] - th[k + 1]) * (t[k + 1] - t[k])
    return 2 * np.diff(tc).mean()


def test_pendulum_small_angle_and_elliptic_periods():
    mech, Ip, mgd = pendulum()
    w = np.sqrt(mgd / Ip)
    h = 2e-3
    res = mech.simulate(1.2, dt=h, q0={"pin": 1e-3})
    T = period(res.t, res.joint("pin")[:, 0])
    assert abs(T / (2 * np.pi / w) - 1) < 1e-5
    # the midpoint rule's own period of a linear oscillator, π h / arctan(ω h / 2)
    assert abs(T / (np.pi * h / np.arctan(w * h / 2)) - 1) < 3e-7
    assert res.constraint_residual().max() < 1e-13
    th0 = 2.0
    res = mech.simulate(1.6, dt=h, q0={"pin": th0})
    T = period(res.t, res.joint("pin")[:, 0])
    assert abs(T / (4 / w * ellipk(np.sin(th0 / 2) ** 2)) - 1) < 2e-5
    assert np.abs(res.H - res.H[0]).max() < 1e-12 * mgd


@pytest.fixture(scope="module")
def double():
    m1, m2, L1, c1, c2, I1, I2 = 1.2, 0.7, 0.9, 0.4, 0.35, 0.09, 0.03
    mech = Mechanism(gravity=[0, -G, 0])
    mech.add_body("a", m1, [I1, 0.005, I1], com=[0, -c1, 0])
    mech.add_body("b", m2, [I2, 0.005, I2], com=[0, -c2, 0])
    mech.add_joint("j1", "revolute", "ground", "a")
    mech.add_joint("j2", "revolute", "a", "b", parent_anchor=[0, -L1, 0])
    # Lagrangian in relative angles, derived by hand with SymPy (independent of the pH model)
    t = sp.Symbol("t")
    f1, f2 = sp.Function("f1")(t), sp.Function("f2")(t)
    r1 = sp.Matrix([c1 * sp.sin(f1), -c1 * sp.cos(f1)])
    r2 = sp.Matrix([L1 * sp.sin(f1) + c2 * sp.sin(f1 + f2),
                    -L1 * sp.cos(f1) - c2 * sp.cos(f1 + f2)])
    kin = (m1 * r1.diff(t).dot(r1.diff(t)) + m2 * r2.diff(t).dot(r2.diff(t))
           + I1 * f1.diff(t) ** 2 + I2 * (f1.diff(t) + f2.diff(t)) ** 2) / 2
    lag = kin - G * (m1 * r1[1] + m2 * r2[1])
    a1, a2, q1, q2, w1, w2 = sp.symbols("a1 a2 q1 q2 w1 w2")
    rep = {f1.diff(t, 2): a1, f2.diff(t, 2): a2, f1.diff(t): w1, f2.diff(t): w2, f1: q1, f2: q2}
    eqs = [(sp.diff(lag.diff(f.diff(t)), t) - lag.diff(f)).subs(rep) for f in (f1, f2)]
    Mq, rhs = sp.linear_eq_to_matrix(eqs, [a1, a2])  # M(q) q̈ = rhs(q, q̇)
    fM, fr = sp.lambdify([q1, q2], Mq), sp.lambdify([q1, q2, w1, w2], rhs)

    def acc(q1, q2, w1, w2):
        return np.linalg.solve(np.array(fM(q1, q2), dtype=float),
                               np.array(fr(q1, q2, w1, w2), dtype=float).ravel())
    return mech, acc


def test_double_pendulum_accelerations_match_lagrangian(double):
    mech, acc = double
    num = mech.system().compile()
    rng = np.random.default_rng(7)
    Ma, Mb = (mech.bodies[b].spatial_inertia for b in "ab")
    for _ in range(5):
        q, v = rng.uniform(-3, 3, 2), rng.uniform(-3, 3, 2)
        x = mech.initial_state({"j1": q[0], "j2": q[1]}, {"j1": v[0], "j2": v[1]})
        z = num.z(x)
        f0 = num.f(x, z, np.zeros(num.k), np.zeros(num.m))
        C, B = num.constraint_jacobian(x), num.B(x)
        xdot = f0 + B @ np.linalg.solve(C @ B, -C @ f0)   # λ from the hidden constraint
        wa = np.linalg.solve(Ma, xdot[12:18])[2]           # planar: ω̇_z of each body
        wb = np.linalg.solve(Mb, xdot[30:36])[2]
        np.testing.assert_allclose([wa, wb - wa], acc(*q, *v), rtol=1e-10, atol=1e-10)


def test_double_pendulum_trajectory_and_invariants(double):
    mech, acc = double
    q0, v0 = {"j1": 1.0, "j2": -0.5}, {"j1": 0.0, "j2": 2.0}
    res = mech.simulate(1.0, dt=2e-3, q0=q0, v0=v0)
    ref = solve_ivp(lambda t, y: [y[2], y[3], *acc(*y)], (0, 1.0), [1.0, -0.5, 0.0, 2.0],
                    t_eval=res.t, rtol=1e-12, atol=1e-12).y
    q = np.c_[res.joint("j1")[:, 0], res.joint("j2")[:, 0]]
    assert np.abs(q - ref[:2].T).max() < 3e-4   # O(h²): 1.3e-4 at h = 2 ms, 3e-5 at 1 ms
    assert np.abs(res.H - res.H[0]).max() < 1e-12 * abs(res.H[0])
    assert res.constraint_residual().max() < 1e-12


def test_pd_actuator_settles_at_static_equilibrium():
    mech, Ip, mgd = pendulum(with_pd=True)
    res = mech.simulate(6.0, dt=1e-2, q0={"pin": 0.0})
    th = res.joint("pin")[:, 0]
    eq = brentq(lambda t: 20.0 * (t - 1.0) + mgd * np.sin(t), 0.0, 1.0)
    assert abs(th[-1] - eq) < 1e-3
    assert np.all(np.diff(res.H) <= 1e-12)                      # the damper only dissipates
    assert np.abs(res.power_residual).max() < 1e-12             # ΔH = −∫ c θ̇² dt per step
    # the spring state integrates the joint velocity at the midpoints: the angle to O(h²)
    assert res.raw["pin.s[0]"][-1] == pytest.approx(th[-1], abs=5e-4)  # 1.1e-4 at h = 10 ms


def test_bad_joints_are_named():
    mech = Mechanism()
    mech.add_body("a", 1.0, [1, 1, 1])
    with pytest.raises(ModelError, match="unknown kind 'hinge'"):
        mech.add_joint("j", "hinge", "ground", "a")
    with pytest.raises(ModelError, match="unknown body 'c'"):
        mech.add_joint("j", "revolute", "ground", "c")
    with pytest.raises(ModelError, match="axis2 ⊥ axis"):
        mech.add_joint("j", "universal", "ground", "a", axis=[0, 0, 1], axis2=[0, 1, 1])
    mech.add_joint("j", "fixed", "ground", "a")
    with pytest.raises(ModelError, match="fixed"):
        mech.add_actuator("j")
    with pytest.raises(ModelError, match="1 coordinate"):
        mech.add_joint("r", "revolute", "ground", "a").motion([0.1, 0.2])


def test_double_pendulum_matches_lagrangian_to_1e6_with_ida(double):
    pytest.importorskip("sksundae")
    mech, acc = double
    res = mech.simulate(2.0, dt=1e-2, q0={"j1": 1.0, "j2": -0.5}, v0={"j2": 2.0},
                        method="ida", rtol=1e-11, atol=1e-11)
    ref = solve_ivp(lambda t, y: [y[2], y[3], *acc(*y)], (0, 2.0), [1.0, -0.5, 0.0, 2.0],
                    t_eval=res.t, method="DOP853", rtol=1e-12, atol=1e-12).y
    q = np.c_[res.joint("j1")[:, 0], res.joint("j2")[:, 0]]
    assert np.abs(q - ref[:2].T).max() < 1e-6
    assert res.constraint_residual().max() < 1e-7   # IDA: velocity form only, g drifts at rtol


def test_spherical_pendulum_euler_about_the_pivot_and_vertical_momentum():
    """3-D check: a body on a spherical joint obeys Euler's equations about the pivot,
    I_O ω̇ + ω × I_O ω = c × m Rᵀg (derived by hand, body frame), and keeps the vertical
    angular momentum about the pivot (gravity has no torque about the vertical)."""
    m, c = 2.0, np.array([0.1, -0.05, -0.6])
    Ic = np.array([[0.2, 0.01, 0.0], [0.01, 0.25, 0.02], [0.0, 0.02, 0.1]])
    g = np.array([0.0, 0.0, -G])
    mech = Mechanism(gravity=g)
    mech.add_body("bob", m, Ic, com=c)
    mech.add_joint("ball", "spherical", "ground", "bob")
    sys = mech.system()
    num = sys.compile()
    IO = Ic - m * lie.hat(c) @ lie.hat(c)                 # parallel-axis theorem
    rng = np.random.default_rng(11)
    M = mech.bodies["bob"].spatial_inertia
    for _ in range(4):
        q, w = rng.uniform(-1.5, 1.5, 3), rng.normal(size=3) * 2
        x = mech.initial_state({"ball": q})
        Hb = mech.bodies["bob"].pose(x[:18])
        x[12:18] = M @ np.r_[w, 0, 0, 0]                  # pivot at the body origin: v = 0
        z = num.z(x)
        f0 = num.f(x, z, np.zeros(num.k), np.zeros(num.m))
        C, B = num.constraint_jacobian(x), num.B(x)
        xdot = f0 + B @ np.linalg.solve(C @ B, -C @ f0)
        wdot = np.linalg.solve(M, xdot[12:18])[:3]
        rhs = np.cross(c, m * Hb[:3, :3].T @ g) - np.cross(w, IO @ w)
        np.testing.assert_allclose(IO @ wdot, rhs, rtol=1e-10, atol=1e-10)
    res = mech.simulate(1.0, dt=2e-3, q0={"ball": [0.8, 0.2, 0.0]},
                        v0={"ball": [0.0, 0.5, 3.0]})
    Lz = [(P[:3, :3] @ (IO @ np.linalg.solve(M, x[12:18])[:3]))[2]
          for P, x in zip(res.pose("bob"), res.raw.x, strict=True)]
    assert np.ptp(Lz) < 1e-12 * max(1.0, abs(Lz[0]))
    assert np.abs(res.H - res.H[0]).max() < 1e-12 * max(1.0, abs(res.H[0]))
    assert res.constraint_residual().max() < 1e-13
