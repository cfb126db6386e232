"""Mechanisms shared by the mechanics tests."""

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
