"""Mechanism graphs and a closed kinematic chain: a Grashof crank-rocker four-bar built
from spatial revolute joints (redundant closure equations found and dropped), the loop
closure kept to round-off, energy conserved, the rocker's swing from the closed form."""

import numpy as np
import pytest
from mechanics_models import COUPLER, CRANK, GROUND_LEN, ROCKER, four_bar

from porthamiltonian import ModelError
from porthamiltonian.mechanics import Mechanism


def test_graph_cycles_and_cocycles():
    g = four_bar().graph
    assert g.tree == ["D", "O", "B"] and g.chords == ["A"]
    A = g.incidence()
    assert A.shape == (3, 4) and np.all(A.sum(axis=0) == [1, 0, 0, 1])  # O, D touch ground
    loop = dict(g.cycles()["A"])
    assert set(loop) == {"O", "A", "B", "D"}
    # the signed loop sums to zero on the incidence matrix (a cycle is in ker A)
    names = [j.name for j in g.joints]
    vec = np.array([loop.get(n, 0) for n in names], dtype=float)
    assert np.all(A @ vec == 0)
    cut = g.cocycles()
    assert set(cut["O"]) == {"O", "A"} and set(cut["D"]) == {"D", "A"}


def test_four_bar_grashof_motion_and_loop_closure():
    mech = four_bar()
    res = mech.simulate(0.8, dt=4e-3, q0={"O": 0.5}, v0={"O": 12.0})
    # 4 revolutes × 5 = 20 equations on 3 × 6 twists, mobility 1: 3 are redundant
    assert sorted(mech.dropped) == ["A[2]", "A[3]", "A[4]"]
    assert res.constraint_residual().max() <= 1e-9          # every joint, dropped rows too
    assert np.abs(res.H - res.H[0]).max() <= 1e-12 * res.H[0]
    crank, rocker = res.joint("O")[:, 0], res.joint("D")[:, 0]
    assert crank[-1] - crank[0] > 2 * np.pi                 # Grashof: the crank turns fully
    assert np.all(np.diff(crank) > 0)
    # the rocker's extremes: crank and coupler collinear, |OC| = coupler ± crank
    def extreme(oc):
        cos = (GROUND_LEN**2 + ROCKER**2 - oc**2) / (2 * GROUND_LEN * ROCKER)
        return np.pi - np.arccos(cos)
    assert rocker.min() == pytest.approx(extreme(COUPLER + CRANK), abs=2e-4)
    assert rocker.max() == pytest.approx(extreme(COUPLER - CRANK), abs=2e-4)


def test_unclosable_chain_is_reported():
    mech = Mechanism()
    mech.add_body("a", 1.0, [0.1, 0.1, 0.1])
    mech.add_body("b", 1.0, [0.1, 0.1, 0.1])
    mech.add_joint("p", "revolute", "ground", "a")
    mech.add_joint("q", "revolute", "a", "b", parent_anchor=[1, 0, 0])
    mech.add_joint("r", "spherical", "b", "ground", parent_anchor=[1, 0, 0],
                   child_anchor=[5, 0, 0])  # 2 m of links cannot reach 5 m
    with pytest.raises(ModelError, match="cannot be closed"):
        mech.system()
    with pytest.raises(ModelError, match="unknown joint 'z'"):
        mech.initial_state({"z": 1.0})


def test_joint_declared_towards_ground_gives_the_same_motion():
    """A joint may point from a body to ground: the tree is traversed backwards and the
    joint coordinate is that of ground relative to the body (the negated angle)."""
    poses = []
    for reverse in (False, True):
        mech = Mechanism(gravity=[0, -9.81, 0])
        mech.add_body("rod", 1.0, [0.1, 0.01, 0.1], com=[0, -0.5, 0])
        ends = ("rod", "ground") if reverse else ("ground", "rod")
        mech.add_joint("pin", "revolute", *ends, parent_anchor=[0, 0, 0])
        s = -1.0 if reverse else 1.0
        res = mech.simulate(0.3, dt=1e-2, q0={"pin": 0.3 * s}, v0={"pin": 1.0 * s})
        assert res.joint("pin")[0, 0] == pytest.approx(0.3 * s)
        poses.append(res.pose("rod"))
    np.testing.assert_allclose(poses[0], poses[1], atol=1e-12)


def test_floating_pair_keeps_energy_and_joint():
    mech = Mechanism()
    mech.add_body("a", 1.0, [0.1, 0.2, 0.15])
    mech.add_body("b", 0.5, [0.05, 0.04, 0.03], com=[0.2, 0, 0])
    mech.add_joint("u", "universal", "a", "b", axis=[0, 0, 1], axis2=[0, 1, 0],
                   parent_anchor=[0.1, 0, 0])
    res = mech.simulate(0.5, dt=5e-3, q0={"u": [0.2, 0.1]}, v0={"u": [1.0, -2.0]},
                        twists={"a": [0.5, 0.1, 0.0, 0.0, 0.0, 1.0]})
    assert res.constraint_residual().max() < 1e-13
    assert np.abs(res.H - res.H[0]).max() < 1e-13 * res.H[0]
    np.testing.assert_allclose(res.joint("u")[1], [0.2, 0.1] + 5e-3 * np.array([1.0, -2.0]),
                               atol=1e-3)
