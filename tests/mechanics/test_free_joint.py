"""The free joint (6 dof, ``kind: free``): coordinates (position + rotation vector) and
twist rates, a free rigid body through the intermediate-axis (Dzhanibekov) flip against
the elliptic-integral period of Euler's equations with its invariants kept to
round-off, and a satellite whose wrench port is driven by a PD attitude controller."""

import runpy

import numpy as np

from conftest import EXAMPLES
from porthamiltonian.mechanics import Mechanism, lie, mechanism_from_spec

INERTIA = np.array([1.0, 2.0, 3.0])       # kg·m², principal, about the centre of mass
MASS = 4.0
W0 = np.array([0.2, 2.0, 0.1])             # rad/s, body axes: near the intermediate axis
V0 = np.array([0.1, -0.05, 0.02])          # m/s, drift of the centre of mass


def satellite() -> Mechanism:
    mech = Mechanism()
    mech.add_body("sat", MASS, INERTIA)
    mech.add_joint("float", "free", "ground", "sat")
    return mech


#: the closed form of the flip interval, 2K(k)/λ, written once in the example
flip_interval = runpy.run_path(str(EXAMPLES / "dzhanibekov.py"))["flip_interval"]


def test_coordinates_and_twist_rates():
    """q = (t, log R_A) round-trips, also at |φ| = π − 1e-9; the rates are (ṫ, ω) with ω
    the angular velocity in the parent axes: central differences of the saved poses."""
    j = satellite().joints["float"]
    rng = np.random.default_rng(3)
    for phi in (2.5 * np.array([0.36, -0.48, 0.8]), (np.pi - 1e-9) * np.array([0.6, 0.0, 0.8])):
        q = np.r_[rng.normal(size=3), phi]
        np.testing.assert_allclose(j.coordinates(np.eye(4), j.child_pose(np.eye(4), q)), q,
                                   atol=1e-12)
    h = 1e-3
    res = satellite().simulate(0.2, dt=h, q0={"float": [0.3, -0.2, 0.1, 0.5, -1.0, 2.0]},
                               v0={"float": np.r_[V0, W0]})
    q = np.column_stack([res[f"float.q[{i}]"] for i in range(6)])
    qd = np.column_stack([res[f"float.qd[{i}]"] for i in range(6)])
    np.testing.assert_allclose(qd[0], np.r_[V0, W0], atol=1e-14)
    np.testing.assert_allclose((q[2:, :3] - q[:-2, :3]) / (2 * h), qd[1:-1, :3], atol=1e-5)
    R = res.pose("sat")[:, :3, :3]
    Rdot = (R[2:] - R[:-2]) / (2 * h)
    w = np.array([lie.vee(Rd @ Rm.T) for Rd, Rm in zip(Rdot, R[1:-1], strict=True)])
    np.testing.assert_allclose(w, qd[1:-1, 3:], atol=2e-5)
    quat = np.column_stack([res[f"float.quat[{i}]"] for i in range(4)])
    np.testing.assert_allclose(np.linalg.norm(quat, axis=1), 1.0, atol=1e-14)
    np.testing.assert_allclose(2 * np.arctan2(np.linalg.norm(quat[:, 1:], axis=1), quat[:, 0]),
                               np.linalg.norm(q[:, 3:], axis=1), atol=1e-12)


def _flip_run(steps: int, dt: float = 2e-3):
    res = satellite().simulate(steps * dt, dt=dt, v0={"float": np.r_[V0, W0]}, save_every=10)
    x = res.x
    R, P = x[:, 3:12].reshape(-1, 3, 3), x[:, 12:18]
    L = np.einsum("nij,nj->ni", R, P[:, :3])       # angular momentum about the com, inertial
    p = np.einsum("nij,nj->ni", R, P[:, 3:])       # linear momentum, inertial
    w2, t = P[:, 1] / INERTIA[1], res.t
    c = np.flatnonzero(np.sign(w2[:-1]) != np.sign(w2[1:]))
    flips = t[c] - w2[c] * (t[c + 1] - t[c]) / (w2[c + 1] - w2[c])
    return res, L, p, flips


def _check_flip(res, L, p, flips, tol: float) -> None:
    assert np.abs(res.H - res.H[0]).max() < tol * res.H[0]
    assert np.abs(L - L[0]).max() < tol * np.linalg.norm(L[0])
    assert np.abs(p - p[0]).max() < tol * np.linalg.norm(p[0])
    assert res.constraint_residual().max() < 1e-13            # RRᵀ = I
    # the flips: ω₂ changes sign every 2K(k)/λ (7.564 s here; measured error 1.4e-7)
    assert flips.size >= 3
    np.testing.assert_allclose(np.diff(flips), flip_interval(INERTIA, W0), rtol=1e-5)


def test_dzhanibekov_flip_period_and_invariants():
    """10⁵ midpoint steps of 2 ms (200 s, 26 flips; compiled engine, about 2 s):
    energy, inertial angular momentum and linear momentum to 1e-12 relative (measured
    ≤ 7.8e-14), flips spaced by the closed-form interval to 1e-5 (measured 1.9e-7)."""
    _check_flip(*_flip_run(100_000), tol=1e-12)


def test_satellite_pd_attitude_control_through_the_wrench_port():
    """Inputs ``float.tau[0..5]`` (force along, torque about the inertial axes at the
    body origin) fed back from the pose: f = −k_x p − c_x ṗ, τ = −(k_p/2) vee(R − Rᵀ) − k_d ω
    (the gradient of k_p(1 − cos θ), polynomial in R, so defined at the midpoints too)
    Every step satisfies ΔH = supplied work (no internal dissipation) to round-off; the
    satellite comes to rest at the origin with its axes on the inertial ones."""
    mech = satellite()
    mech.add_actuator("float")                     # the wrench port
    dae = mech.assemble()
    assert dae.inputs == [f"float.tau[{i}]" for i in range(6)]
    kx, cx, kp, kd = 2.0, 4.0, 3.0, 4.0

    def control(t, x):
        R, P = x[3:12].reshape(3, 3), x[12:18]
        v, w = R @ P[3:] / MASS, R @ (P[:3] / INERTIA)
        return np.r_[-kx * x[:3] - cx * v, -0.5 * kp * lie.vee(R - R.T) - kd * w]

    q0 = {"float": [0.5, -0.3, 0.2, 0.4, 1.2, -0.8]}
    res = mech.simulate(12.0, dt=5e-3, q0=q0, v0={"float": np.r_[V0, W0]}, u=control,
                        save_every=20)
    assert np.abs(res.power_residual).max() < 1e-13 * res.H[0]
    dH = res.H - res.H[0]
    np.testing.assert_allclose(dH, np.cumsum(res.work_supplied), atol=1e-12 * res.H[0])
    q = np.column_stack([res[f"float.q[{i}]"] for i in range(6)])
    assert np.abs(q[-1]).max() < 1e-2 and res.H[-1] < 1e-4 * res.H[0]


def test_free_joint_from_a_model_file():
    spec = {"bodies": [{"name": "sat", "mass": MASS, "inertia": INERTIA.tolist()}],
            "joints": [{"name": "float", "kind": "free", "parent": "ground", "child": "sat"}]}
    mech = mechanism_from_spec(spec)
    assert mech.joints["float"].dof == 6 and mech.assemble().k == 0
