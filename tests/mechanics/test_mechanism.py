"""Mechanism graphs and a closed kinematic chain: a Grashof crank-rocker four-bar built
from spatial revolute joints (redundant closure equations found and dropped), the loop
closure kept to round-off, energy conserved, the rocker's swing from the closed form."""

import numpy as np
import pytest

from porthamiltonian import ModelError
from porthamiltonian.mechanics import Mechanism

GROUND_LEN, CRANK, COUPLER, ROCKER = 1.0, 0.3, 1.0, 0.8  # s + l = 1.3 ≤ p + q = 1.8


def four_bar() -> Mechanism:
    mech = Mechanism()
    for name, L in [("crank", CRANK), ("coupler", COUPLER), ("rocker", ROCKER)]:
        m = 2.0 * L  # slender bars along their body x axis, 2 kg/m
        mech.add_body(name, m, [1e-4, m * L**2 / 12, m * L**2 / 12], com=[L / 2, 0, 0])
    mech.add_joint("O", "revolute", "ground", "crank")
    mech.add_joint("A", "revolute", "crank", "coupler", parent_anchor=[CRANK, 0, 0])
    mech.add_joint("B", "revolute", "coupler", "rocker", parent_anchor=[COUPLER, 0, 0],
                   child_anchor=[ROCKER, 0, 0])
    mech.add_joint("D", "revolute", "ground", "rocker", parent_anchor=[GROUND_LEN, 0, 0])
    return mech


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
