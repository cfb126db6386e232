"""The seed's Fig. 1 kind of system (examples/mechanics_flexible_manipulator.py): a
spatial manipulator with two flexible links, a parallelogram closed through the flexible
upper arm, and PD control at four joints — checked against energy conservation, the
closed-form set configuration, and the rigid parallelogram in the stiff limit."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from conftest import EXAMPLES


def _example():
    spec = importlib.util.spec_from_file_location(
        "mechanics_flexible_manipulator", EXAMPLES / "mechanics_flexible_manipulator.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


EX = _example()


def test_the_loop_closes_through_the_flexible_upper_arm_and_conserves_energy():
    mech = EX.manipulator(elements=3)
    target = {j: 0.3 * v for j, v in EX.SET.items()}
    for joint, (k, _) in EX.GAINS.items():  # springs without dampers: lossless
        mech.add_actuator(joint, stiffness=k, setpoint=target[joint])
    dae = mech.assemble()
    # the joints alone form a tree; the beam is the loop's chord: its six port
    # multipliers (and the forearm's) carry the closure wrench, no row is redundant
    assert mech.graph.chords == [] and mech.dropped == []
    assert dae.k == 7 * 5 + 6 + 6  # seven revolute joints of five rows, two port ends
    res = mech.simulate(1.0, dt=1e-2)
    H0 = res.H[0]
    assert H0 == pytest.approx(0.5 * sum(k * target[j] ** 2 for j, (k, _) in EX.GAINS.items()))
    assert np.abs(res.H - H0).max() <= 1e-11 * H0        # midpoint: H quadratic, J skew
    assert res.constraint_residual().max() <= 1e-9
    # the beam tips stay on the bodies they carry: velocity-coupled, so they drift at
    # the discretization level (measured 2.8e-4 m at a 0.12 m tip deflection)
    assert res.flexible_residual()[:, 1].max() <= 1e-3 * EX.L1
    # the arm really moved and bent (from straight: zero tip deflection at t = 0)
    assert np.abs(res.tip_deflection("upper_arm")[0]).max() <= 1e-12
    assert np.ptp(res.joint("shoulder")[:, 0]) > 0.1
    assert np.abs(res.tip_deflection("upper_arm")[:, 1]).max() > 0.05


@pytest.mark.slow
def test_pd_control_sets_the_arm_to_the_closed_form_configuration():
    mech = EX.manipulator(elements=3)
    res = mech.simulate(8.0, dt=2e-2)
    H = res.H
    assert np.diff(H).max() <= 1e-12 * H[0]             # dampers only remove energy
    assert np.abs(res.power_residual).max() <= 1e-12 * H[0]
    assert H[-1] <= 1e-4 * H[0]
    for joint, target in EX.SET.items():
        assert res.joint(joint)[-1, 0] == pytest.approx(target, abs=1e-3)
    # equilibrium: relaxed springs, straight links — the gripper's payload is where the
    # forward kinematics of the set point (closed form) puts it
    p = res.pose("gripper")[-1] @ [EX.GRIP, 0.0, 0.0, 1.0]
    assert np.linalg.norm(p[:3] - EX.payload_at_set_point()) <= 2e-3
    late = res.t > res.t[-1] - 1.0
    first = np.abs(res.tip_deflection("upper_arm")[:, 1]).max()
    assert np.abs(res.tip_deflection("upper_arm")[:, 1][late]).max() <= 0.02 * first


@pytest.mark.slow
def test_stiff_upper_arm_approaches_the_rigid_parallelogram():
    rigid = EX.manipulator(elements=3, upper_arm="rigid")
    rr = rigid.simulate(0.5, dt=1e-2)  # the largest gaps come within the first 0.5 s
    # the rigid arm closes the loop through joints: the chord's out-of-plane rows of a
    # planar loop of spatial revolute joints are redundant
    assert rigid.graph.chords == ["elbow"] and len(rigid.dropped) == 3
    assert rr.constraint_residual().max() <= 1e-9

    def gap(stiffness: float) -> float:
        res = EX.manipulator(elements=3, stiffness=stiffness).simulate(0.5, dt=1e-2)
        return max(np.abs(res.joint(j)[:, 0] - rr.joint(j)[:, 0]).max() for j in EX.SET)

    soft, stiff = gap(1.0), gap(1e4)
    # measured 5.3e-2 and 3.0e-4 rad; what remains at 1e4 is the lumped beam mass
    # (three elements: the arm's inertia about the shoulder is 5 % high), not the loop
    assert soft > 1e-2
    assert stiff < 1e-3


def test_the_model_file_builds_the_same_manipulator():
    from porthamiltonian.io import load_model
    from porthamiltonian.io.mechanism_run import assemble_mechanism

    dae = assemble_mechanism(load_model(EXAMPLES / "models" / "flexible_manipulator.yaml"))
    ref = EX.manipulator().assemble()
    assert list(dae.states) == list(ref.states) and list(dae.multipliers) == list(ref.multipliers)
    rng = np.random.default_rng(7)
    x, w = rng.standard_normal(ref.n), rng.standard_normal(ref.n)
    lam, u = rng.standard_normal(ref.k), rng.standard_normal(ref.m)
    assert dae.energy(x) == pytest.approx(ref.energy(x), rel=1e-14)
    np.testing.assert_allclose(dae.f(x, w, lam, u), ref.f(x, w, lam, u), rtol=0, atol=1e-12)
    np.testing.assert_allclose(dae.c(x, w), ref.c(x, w), rtol=0, atol=1e-12)


def test_a_chain_closed_by_a_flexible_link_starts_anywhere_consistently():
    mech = EX.manipulator(elements=3)
    for joint, (k, _) in EX.GAINS.items():
        mech.add_actuator(joint, stiffness=k, setpoint=0.0)
    ts, tc = 0.3, -0.2
    res = mech.simulate(0.3, dt=1e-2, q0={"base": 0.2, "shoulder": ts, "crank": tc},
                        v0={"base": -0.3, "shoulder": 0.5, "crank": 0.2})
    # the loop joints are solved so that the straight upper arm closes the
    # parallelogram: rod ∥ upper arm, forearm ∥ crank (closed form)
    q = {j: res.joint(j)[0, 0] for j in ("rod_low", "rod_high", "elbow")}
    assert q["rod_low"] == pytest.approx(ts - tc, abs=1e-10)
    assert q["rod_high"] == pytest.approx(tc - ts, abs=1e-10)
    assert q["elbow"] == pytest.approx(tc - ts, abs=1e-10)
    assert res.joint("wrist")[0, 0] == pytest.approx(0.0, abs=1e-12)   # on no loop
    # and their rates so that the undeformed arm starts moving rigidly: the rod turns
    # with the hub, the forearm with the crank (world angular velocities)
    dae, x0 = mech.assemble(), res.raw.x[0]
    z, names = dae.z(x0), list(mech.bodies)

    def omega(body: str) -> np.ndarray:
        i = 18 * names.index(body)
        return res.pose(body)[0, :3, :3] @ z[i + 12:i + 15]

    np.testing.assert_allclose(omega("rod"), omega("hub"), atol=1e-12)
    np.testing.assert_allclose(omega("forearm_root"), omega("crank"), atol=1e-12)
    assert omega("hub")[2] == pytest.approx(-0.3, abs=1e-12)           # base rate
    assert np.abs(res.H - res.H[0]).max() <= 1e-11 * res.H[0]
    assert res.constraint_residual().max() <= 1e-9


def test_loop_coordinates_that_bend_the_flexible_link_are_refused():
    from porthamiltonian import ModelError

    mech = EX.manipulator(elements=3)
    q0 = {"shoulder": 0.3, "crank": -0.2, "rod_low": 0.0, "rod_high": 0.0, "elbow": 0.0}
    with pytest.raises(ModelError, match="upper_arm.*does not fit"):
        mech.simulate(0.1, dt=1e-2, q0=q0)


@pytest.mark.slow
def test_with_weight_the_feed_forward_holds_the_stiff_arm_at_its_set_point():
    g = 9.81
    mech = EX.manipulator(elements=3, gravity=g, stiffness=30.0, forearm_stiffness=30.0)
    tau = EX.gravity_compensation(3, g)
    assert tau["base.tau[0]"] == pytest.approx(0.0, abs=1e-6)   # weight ∥ the base axis
    res = mech.simulate(3.0, dt=3e-2, u=tau)
    # exact discrete power balance with weight, feed-forward work and joint dampers
    scale = np.abs(res.H).max()
    assert np.abs(res.power_residual).max() <= 1e-12 * scale
    assert res.raw.x.shape[1] > mech.assemble().rigid.n + sum(lk.n for lk in mech.links.values())
    # the constant torques are the straight arm's gravity torques: the PD springs end
    # (almost) relaxed — an error Δτ would leave Δτ/K_p; the links' sag (mm) shifts the
    # weights' lever arms a little (measured ≤ 1.1e-3 rad; without it: 0.12 rad)
    for joint, target in EX.SET.items():
        assert res.joint(joint)[-1, 0] == pytest.approx(target, abs=5e-3)
