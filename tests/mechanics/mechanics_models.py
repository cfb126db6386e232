"""Mechanisms and poses shared by the mechanics tests."""

import numpy as np
from scipy.spatial.transform import Rotation

from porthamiltonian.mechanics import Mechanism

GROUND_LEN, CRANK, COUPLER, ROCKER = 1.0, 0.3, 1.0, 0.8  # s + l = 1.3 ≤ p + q = 1.8


def four_bar() -> Mechanism:
    """A Grashof crank-rocker of slender bars (2 kg/m) along their body x axes."""
    mech = Mechanism()
    for name, L in [("crank", CRANK), ("coupler", COUPLER), ("rocker", ROCKER)]:
        m = 2.0 * L
        mech.add_body(name, m, [1e-4, m * L**2 / 12, m * L**2 / 12], com=[L / 2, 0, 0])
    mech.add_joint("O", "revolute", "ground", "crank")
    mech.add_joint("A", "revolute", "crank", "coupler", parent_anchor=[CRANK, 0, 0])
    mech.add_joint("B", "revolute", "coupler", "rocker", parent_anchor=[COUPLER, 0, 0],
                   child_anchor=[ROCKER, 0, 0])
    mech.add_joint("D", "revolute", "ground", "rocker", parent_anchor=[GROUND_LEN, 0, 0])
    return mech


def serial_chain(n: int, length: float = 0.1, mass: float = 0.1, g: float = 9.81
                 ) -> Mechanism:
    """``n`` uniform rods (body y axis along the rod, com at its middle) hanging from
    ground by revolute joints about z, gravity along −y."""
    mech = Mechanism(gravity=[0, -g, 0])
    parent = "ground"
    I = mass * length**2 / 12
    for i in range(n):
        mech.add_body(f"b{i}", mass, [I, 1e-3 * I, I], com=[0, -length / 2, 0])
        mech.add_joint(f"j{i}", "revolute", parent, f"b{i}",
                       parent_anchor=[0, -length if i else 0.0, 0])
        parent = f"b{i}"
    return mech


def two_joints(kind: str) -> Mechanism:
    """Ground–a–b with offset anchors and skew axes (every feature coefficient nonzero)."""
    mech = Mechanism(gravity=[0.3, -9.81, 0.2])
    mech.add_body("a", 1.0, [0.3, 0.4, 0.5], com=[0.1, 0.2, 0.3])
    mech.add_body("b", 0.7, [0.2, 0.25, 0.3], com=[-0.1, 0.05, 0.2])
    mech.add_joint("j", kind, "ground", "a", axis=[1.0, 2.0, 2.0],
                   parent_anchor=[0.5, -0.2, 0.1], child_anchor=[0.3, 0.4, -0.1])
    mech.add_joint("k", kind, "a", "b", axis=[0.3, -1.0, 2.0],
                   parent_anchor=[0.2, -0.3, 0.4], child_anchor=[-0.1, 0.2, 0.3])
    return mech


def raw_poses(rng: np.random.Generator, spread: float = 1e-3) -> np.ndarray:
    """Two raw poses (p, R) with R a rotation perturbed off SO(3) by ``spread``, as at a
    midpoint."""
    q = np.zeros((2, 12))
    for s in range(2):
        q[s, :3] = 0.3 * rng.normal(size=3)
        R = Rotation.random(random_state=int(rng.integers(1 << 30))).as_matrix()
        q[s, 3:] = (R + spread * rng.normal(size=(3, 3))).ravel()
    return q
