"""A rigid body as a PHS on SE(3): conservation laws of the free body, Euler's equations
(integrated independently), the intermediate-axis flip, free fall, the power port."""

import numpy as np
import pytest
from scipy.integrate import solve_ivp

from porthamiltonian import ModelError
from porthamiltonian.mechanics import RigidBody, lie
from porthamiltonian.simulate import simulate

I_TOP = np.array([1.0, 2.0, 3.0])
W0 = np.array([0.05, 3.0, 0.05])  # near the intermediate axis: it flips at t ≈ 3.35 s


@pytest.fixture(scope="module")
def top():
    body = RigidBody("top", 2.0, I_TOP)
    return body, body.phs(port=False)


def euler_reference(t):
    def rhs(_, w):
        return np.cross(I_TOP * w, w) / I_TOP
    return solve_ivp(rhs, (0, t[-1]), W0, t_eval=t, rtol=1e-13, atol=1e-13).y.T


def run_top(top, dt, t_end=4.0):
    body, sys = top
    x0 = body.state(lie.exp_se3([0.3, -0.2, 0.1, 0.5, 0.0, 0.2]), np.r_[W0, 0.4, 0.0, -0.3])
    return simulate(sys, (0.0, t_end), x0, dt=dt, method="midpoint")


def test_free_body_invariants_and_euler_equations(top):
    res = run_top(top, 2e-3)
    x = res.x
    H = res.H
    assert np.abs(H - H[0]).max() <= 1e-13 * H[0]                     # energy
    Pw = x[:, 12:15]
    Lnorm = np.linalg.norm(Pw, axis=1)
    assert np.abs(Lnorm - Lnorm[0]).max() <= 1e-13 * Lnorm[0]         # |body ang. momentum|
    R = x[:, 3:12].reshape(-1, 3, 3)
    assert np.abs(R @ R.transpose(0, 2, 1) - np.eye(3)).max() <= 1e-13  # R stays on SO(3)
    Ls = np.einsum("kij,kj->ki", R, x[:, 15:18])                       # spatial linear momentum
    assert np.abs(Ls - Ls[0]).max() <= 1e-13 * np.abs(Ls[0]).max()
    # spatial angular momentum R Pω + p × R Pv (about the inertial origin): O(h²), not exact
    La = np.einsum("kij,kj->ki", R, Pw) + np.cross(x[:, :3], Ls)
    assert np.abs(La - La[0]).max() <= 1e-3 * np.abs(La[0]).max()
    # body angular velocity follows Euler's equations (solve_ivp, rtol 1e-13) to O(h²)
    w = Pw / I_TOP
    ref = euler_reference(res.t)
    err2 = np.abs(w - ref).max()
    assert err2 < 2e-3
    err4 = np.abs(run_top(top, 4e-3).x[:, 12:15] / I_TOP - euler_reference(
        np.linspace(0, 4, 1001))).max()
    assert 3.0 < err4 / err2 < 5.0                                     # second order
    # the intermediate-axis (Dzhanibekov) flip: ω₂ reverses, ω₁ and ω₃ grow from 0.05
    assert w[0, 1] > 2.9 and w[-1, 1] < -2.0
    assert np.abs(w[:, 0]).max() > 1.0


def test_falls_with_g_and_spins_independently():
    g = np.array([0.0, 0.0, -9.81])
    body = RigidBody("b", 3.0, [0.2, 0.3, 0.4], com=[0.1, 0.05, -0.2])
    sys = body.phs(gravity=g, port=False)
    H0 = lie.exp_se3([0.4, 0.1, -0.3, 1.0, 2.0, 3.0])
    res = simulate(sys, (0.0, 1.0), body.state(H0), dt=1e-2)
    # the centre of mass falls as c0 + ½ g t² (midpoint is exact on quadratic motion)
    com = np.array([body.pose(x)[:3, :3] @ body.com + x[:3] for x in res.x])
    c0 = H0[:3, :3] @ body.com + H0[:3, 3]
    np.testing.assert_allclose(com, c0 + 0.5 * np.outer(res.t**2, g), atol=1e-12)
    # a uniform field exerts no torque about the centre of mass: no rotation from rest
    np.testing.assert_allclose(res.x[:, 3:12], np.tile(H0[:3, :3].reshape(9), (len(res.t), 1)),
                               atol=1e-13)
    assert np.abs(res.H - res.H[0]).max() < 1e-12


def test_structure_and_port():
    body = RigidBody("b", 1.5, [[0.3, 0.01, 0.0], [0.01, 0.2, 0.0], [0.0, 0.0, 0.25]],
                     com=[0.2, -0.1, 0.05])
    sys = body.phs(gravity=[0, 0, -9.81])
    num = sys.compile()
    rng = np.random.default_rng(0)
    Hp = lie.exp_se3(rng.normal(size=6))
    T = rng.normal(size=6)
    x = body.state(Hp, T)
    J = num.matrix("J", x)
    assert np.abs(J + J.T).max() == 0.0
    # the port's output is the spatial twist Ad_H T; the input a wrench in inertial axes
    np.testing.assert_allclose(sys.output(x) if hasattr(sys, "output") else num.output(x),
                               lie.Ad(Hp) @ T, atol=1e-12)
    # the kinetic energy of the body is ½ m |v_com|² + ½ ωᵀ I_c ω
    v_com = T[3:] + np.cross(T[:3], body.com)
    ke = 0.5 * body.mass * v_com @ v_com + 0.5 * T[:3] @ body.inertia @ T[:3]
    assert np.isclose(body.spatial_inertia @ T @ T / 2, ke, rtol=1e-14)


def test_bad_bodies_are_named():
    with pytest.raises(ModelError, match="'rod'.*mass"):
        RigidBody("rod", -1.0, [1, 1, 1])
    with pytest.raises(ModelError, match="triangle"):
        RigidBody("rod", 1.0, [1, 1, 3])
    with pytest.raises(ModelError, match="positive definite"):
        RigidBody("rod", 1.0, [[1, 2, 0], [0, 1, 0], [0, 0, 1]])
    with pytest.raises(ModelError, match="orthonormal"):
        RigidBody("rod", 1.0, [1, 1, 1]).state(2 * np.eye(4))
