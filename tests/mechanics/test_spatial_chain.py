"""A 3-D chain — universal joint to ground, then a revolute — against a Lagrangian
derived independently with SymPy rotation matrices (R_a = R_x(q1) R_y(q2),
R_b = R_a R_x(q3)): body angular accelerations at random states, and the trajectory."""

import numpy as np
import pytest
import sympy as sp
from scipy.integrate import solve_ivp

from porthamiltonian.mechanics import Mechanism

G = 9.81
MA, MB = 1.3, 0.8
IA, IB = np.diag([0.12, 0.10, 0.03]), np.diag([0.05, 0.07, 0.02])
CA, CB = np.array([0.05, 0.0, -0.5]), np.array([0.0, 0.03, -0.4])


def rx(t):
    return sp.Matrix([[1, 0, 0], [0, sp.cos(t), -sp.sin(t)], [0, sp.sin(t), sp.cos(t)]])


def ry(t):
    return sp.Matrix([[sp.cos(t), 0, sp.sin(t)], [0, 1, 0], [-sp.sin(t), 0, sp.cos(t)]])


@pytest.fixture(scope="module")
def chain():
    mech = Mechanism(gravity=[0, 0, -G])
    mech.add_body("a", MA, IA, com=CA)
    mech.add_body("b", MB, IB, com=CB)
    mech.add_joint("u", "universal", "ground", "a", axis=[1, 0, 0], axis2=[0, 1, 0])
    mech.add_joint("r", "revolute", "a", "b", axis=[1, 0, 0], parent_anchor=[0, 0, -1.0])
    q, qd, qdd = sp.symbols("q1:4"), sp.symbols("qd1:4"), sp.symbols("qdd1:4")

    def ddt(e):  # time derivative along q(t)
        return sum((sp.diff(e, a) * b for a, b in zip(q, qd, strict=True)), sp.zeros(*e.shape))

    Ra = rx(q[0]) * ry(q[1])
    Rb = Ra * rx(q[2])
    kin, pot, omegas = 0, 0, []
    for R, p, m, inertia, c in [(Ra, sp.zeros(3, 1), MA, IA, CA),
                                (Rb, Ra * sp.Matrix([0, 0, -1.0]), MB, IB, CB)]:
        W = R.T * ddt(R)                                   # body angular velocity, skew
        w = sp.Matrix([W[2, 1], W[0, 2], W[1, 0]])
        omegas.append(w)
        vc = ddt(p + R * sp.Matrix(c))
        kin += (m * vc.dot(vc) + (w.T * sp.Matrix(inertia) * w)[0]) / 2
        pot += m * G * (p + R * sp.Matrix(c))[2]
    lag = kin - pot
    Mq = sp.Matrix(3, 3, lambda i, j: sp.diff(lag, qd[i], qd[j]))
    rhs = sp.Matrix([sp.diff(lag, q[i]) - sum(sp.diff(lag, qd[i], q[k]) * qd[k]
                                             for k in range(3)) for i in range(3)])
    fM, fr = sp.lambdify([q], Mq), sp.lambdify([q, qd], rhs)

    def acc(qv, vv):
        return np.linalg.solve(np.array(fM(qv), dtype=float),
                               np.array(fr(qv, vv), dtype=float).ravel())

    wdot = [sp.lambdify([q, qd, qdd], ddt(w) + w.jacobian(qd) * sp.Matrix(qdd)) for w in omegas]
    return mech, acc, wdot


@pytest.mark.slow
def test_body_accelerations_match_lagrangian(chain):
    mech, acc, wdot = chain
    num = mech.system().compile()
    rng = np.random.default_rng(3)
    for _ in range(4):
        q, v = rng.uniform(-1, 1, 3), rng.uniform(-2, 2, 3)
        x = mech.initial_state({"u": q[:2], "r": q[2:]}, {"u": v[:2], "r": v[2:]})
        z = num.z(x)
        f0 = num.f(x, z, np.zeros(num.k), np.zeros(num.m))
        C, B = num.constraint_jacobian(x), num.B(x)
        xdot = f0 + B @ np.linalg.solve(C @ B, -C @ f0)
        qdd = acc(q, v)
        for i, name in enumerate("ab"):
            M = mech.bodies[name].spatial_inertia
            ours = np.linalg.solve(M, xdot[18 * i + 12:18 * i + 18])[:3]
            ref = np.array(wdot[i](q, v, qdd), dtype=float).ravel()
            np.testing.assert_allclose(ours, ref, rtol=1e-10, atol=1e-10)


def test_trajectory_matches_lagrangian_with_ida(chain):
    pytest.importorskip("sksundae")
    mech, acc, _ = chain
    q0, v0 = np.array([0.6, -0.4, 0.9]), np.array([0.5, 1.0, -1.5])
    res = mech.simulate(1.0, dt=1e-2, q0={"u": q0[:2], "r": q0[2:]},
                        v0={"u": v0[:2], "r": v0[2:]}, method="ida", rtol=1e-11, atol=1e-11)
    ref = solve_ivp(lambda t, y: [*y[3:], *acc(y[:3], y[3:])], (0, 1.0), [*q0, *v0],
                    t_eval=res.t, method="DOP853", rtol=1e-12, atol=1e-12).y[:3].T
    q = np.c_[res.joint("u"), res.joint("r")]
    assert np.abs(q - ref).max() < 1e-6
