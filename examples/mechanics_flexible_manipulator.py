"""A spatial manipulator with two flexible links and a closed kinematic chain, set by
decentralized PD control at four joints — the kind of system of Fig. 1 of Macchelli &
Melchiorri, *Port-based simulation of flexible multi-body systems* (IFAC 2008).

Kinematics (a palletizing-robot layout; z up, joint coordinates 0 as drawn)::

           elbow ●━━━━━━━━━━━━ forearm (flexible) ━━━━━━━━━━━━● wrist ─ gripper
          ┃     │╲ lever
   upper  ┃     │ ● ─ ─ rod (rigid, parallel to the upper arm)
   arm    ┃       ┆
 (flexible)┃      ┆
          ┃       ┆
 shoulder ●━━━━━━ ● crank (coaxial with the shoulder)
          │
        turret (turns about z on the base)

* ``base``     — revolute z, ground → turret (PD);
* ``shoulder`` — revolute y, turret → hub; the hub carries the **flexible upper arm**,
  whose tip carries the elbow housing (PD);
* ``crank``    — revolute y on the shoulder axis, turret → crank; with the rod, the
  forearm's rear lever and the upper arm it forms a parallelogram — a **closed chain
  through a flexible link** — that turns the forearm (PD);
* ``elbow``    — revolute y, elbow housing → forearm root (passive);
* the **flexible forearm** carries the wrist housing; ``wrist`` — revolute y, wrist →
  gripper with a payload (PD).

The upper arm closes the loop hub → beam → elbow → forearm root → rod → crank → turret,
so its six end multipliers are the loop-closure wrench; no joint row is redundant (the
beam is compliant in all six directions).  Gravity is off (an orbital or air-bearing
arm; the set configuration is then an equilibrium with straight links and relaxed
springs, H = 0).

From rest and straight, the PD springs pull the joints to their set points; the links
bend and vibrate, and the vibrations die out through the joint dampers (the beams are
lossless).  ``--gravity 9.81`` weighs bodies and beams and adds constant
feed-forward torques that hold the straight arm at the set point
(:func:`gravity_compensation`); the soft links (EI = 30 N·m²) then sag by decimetres,
``--stiffness 30`` (EI = 900 N·m², an aluminium tube of 30 mm) by millimetres.
Checked here: H never increases (without gravity), the per-step power balance, the joint
residual, the drift of the beam tips from the bodies they carry, the parallelogram's
closure (the forearm stays parallel to the crank up to the beams' deflection), and the
gripper position at the end against the forward kinematics of the set point.

    python examples/mechanics_flexible_manipulator.py [--t-end 6] [--dt 1e-2]
        [--out flexible_manipulator.png] [--animation flexible_manipulator.gif]
        [--gravity 9.81 --stiffness 30]
"""

from __future__ import annotations

import argparse

import numpy as np
from matplotlib.figure import Figure

from porthamiltonian import distributed as D
from porthamiltonian.mechanics import Mechanism
from porthamiltonian.mechanics.animation import animate, plot_snapshots
from porthamiltonian.quantities import pretty_unit

H0 = 0.4                 # shoulder height above the base (m)
L1, L2 = 0.8, 0.7        # upper arm, forearm (beam lengths, m)
LEVER = 0.2              # crank and forearm-lever length (m)
GRIP = 0.12              # wrist axis to payload centre (m)
RHO_A, RHO_I = 1.2, 1e-4                 # beams' mass (kg/m) and rotary inertia (kg·m) per length
HUB_MASS, HUB_INERTIA = 1.0, 2e-3        # shoulder hub (kg, kg·m²)
SET = {"base": 0.8, "shoulder": 0.5, "crank": -0.4, "wrist": 0.6}      # rad
GAINS = {"base": (80.0, 30.0), "shoulder": (120.0, 40.0),             # N·m/rad,
         "crank": (60.0, 20.0), "wrist": (4.0, 0.8)}                  # N·m·s/rad


def beam(length: float, elements: int, stiffness: float = 1.0) -> D.SpatialBeamModel:
    """A light aluminium-like link: ρA = 1.2 kg/m, EI = 30 N·m² in the plane of the arm
    (60 N·m² out of it), nearly rigid axially and in shear (all scaled by
    ``stiffness``); root driven by the parent body (velocity end), tip joined to the
    child body (port end)."""
    k = stiffness
    return D.spatial_beam(length, rhoA=RHO_A, rhoI=(RHO_I, RHO_I), EA=1e6 * k,
                          EI=(60.0 * k, 30.0 * k), GA=1e6 * k, GJ=40.0 * k,
                          elements=elements, left="velocity", right="port")


def rigid_upper_arm() -> tuple[float, np.ndarray, np.ndarray]:
    """``(mass, inertia about the centre of mass, com)`` of the hub and a rigid upper arm
    with the beam's mass distribution (a uniform rod of ρA·L₁ along hub z with rotary
    inertia ρI per length about the section axes and 2ρI about its axis): the rigid
    limit of the flexible upper arm."""
    m_rod = RHO_A * L1
    mass = HUB_MASS + m_rod
    com = np.array([0.0, 0.0, m_rod * L1 / 2 / mass])

    def shift(m: float, d: np.ndarray) -> np.ndarray:  # parallel-axis term
        return m * (d @ d * np.eye(3) - np.outer(d, d))

    side = RHO_I * L1 + m_rod * L1**2 / 12
    inertia = (HUB_INERTIA * np.eye(3) + shift(HUB_MASS, com)
               + np.diag([side, side, 2 * RHO_I * L1])
               + shift(m_rod, com - [0.0, 0.0, L1 / 2]))
    return mass, inertia, com


def manipulator(elements: int = 6, upper_arm: str = "flexible", stiffness: float = 1.0,
                gravity: float = 0.0, pd: bool = True, forearm_stiffness: float = 1.0
                ) -> Mechanism:
    """The manipulator; ``upper_arm="rigid"`` replaces the flexible upper arm by its rigid
    limit (:func:`rigid_upper_arm`), ``stiffness`` and ``forearm_stiffness`` scale the
    two links' stiffnesses,
    ``gravity`` (m/s², along −z) weighs bodies and beams, ``pd=False`` leaves the four
    actuated joints with bare torque ports."""
    mech = Mechanism(gravity=[0.0, 0.0, -gravity], name="flexible_manipulator")
    y, z = [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]
    mech.add_body("turret", 6.0, [0.06, 0.06, 0.04], com=[0, 0, 0.2])
    if upper_arm == "rigid":
        mass, inertia, com = rigid_upper_arm()
        mech.add_body("hub", mass, inertia, com=com)
    else:
        mech.add_body("hub", HUB_MASS, [HUB_INERTIA] * 3)
    mech.add_body("crank", 0.4, [1e-4, 2e-3, 2e-3], com=[-LEVER / 2, 0, 0])
    mech.add_body("rod", 0.4, [2e-2, 2e-2, 1e-4], com=[0, 0, L1 / 2])
    mech.add_body("elbow", 1.0, [2e-3, 2e-3, 2e-3])
    mech.add_body("forearm_root", 0.4, [1e-4, 2e-3, 2e-3], com=[-LEVER / 2, 0, 0])
    mech.add_body("wrist", 0.5, [1e-3, 1e-3, 1e-3])
    mech.add_body("gripper", 0.6, [1e-3, 2e-3, 2e-3], com=[GRIP, 0, 0])

    mech.add_joint("base", "revolute", "ground", "turret", axis=z)
    mech.add_joint("shoulder", "revolute", "turret", "hub", axis=y, parent_anchor=[0, 0, H0])
    if upper_arm == "rigid":  # the elbow housing welded to the arm's tip
        mech.add_joint("upper_arm", "fixed", "hub", "elbow", parent_anchor=[0, 0, L1])
    else:
        mech.add_flexible_link("upper_arm", beam(L1, elements, stiffness), "hub", "elbow",
                               direction=z, up=y)
    mech.add_joint("crank", "revolute", "turret", "crank", axis=y, parent_anchor=[0, 0, H0])
    mech.add_joint("rod_low", "revolute", "crank", "rod", axis=y,
                   parent_anchor=[-LEVER, 0, 0])
    mech.add_joint("rod_high", "revolute", "rod", "forearm_root", axis=y,
                   parent_anchor=[0, 0, L1], child_anchor=[-LEVER, 0, 0])
    mech.add_joint("elbow", "revolute", "elbow", "forearm_root", axis=y)
    mech.add_flexible_link("forearm", beam(L2, elements, forearm_stiffness), "forearm_root",
                           "wrist", direction=[1, 0, 0], up=y)
    mech.add_joint("wrist", "revolute", "wrist", "gripper", axis=y)
    for j, (k, c) in GAINS.items():
        if pd:
            mech.add_actuator(j, stiffness=k, damping=c, setpoint=SET[j])
        else:
            mech.add_actuator(j)
    return mech


def gravity_compensation(elements: int, gravity: float, h: float = 1e-6) -> dict[str, float]:
    r"""Constant joint torques holding the arm at the set point against gravity with
    straight links: :math:`\tau = \partial V/\partial q` at ``SET`` (central differences of
    the weight potential of bodies and beams over the four actuated coordinates; the
    loop's passive joints follow by closure).  Added to the PD ports as a feed-forward
    input ``<joint>.tau[0]`` (N·m)."""
    mech = manipulator(elements, gravity=gravity, pd=False)
    dae = mech.assemble()

    def V(q: dict) -> float:
        return dae.energy(mech.initial_state(q0=q))

    tau = {}
    for j in SET:
        up, down = dict(SET), dict(SET)
        up[j] += h
        down[j] -= h
        tau[f"{j}.tau[0]"] = (V(up) - V(down)) / (2 * h)
    return tau


def _rot(axis: str, a: float) -> np.ndarray:
    c, s = np.cos(a), np.sin(a)
    if axis == "z":
        return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])
    return np.array([[c, 0, s], [0, 1, 0], [-s, 0, c]])


def payload_at_set_point() -> np.ndarray:
    """Forward kinematics of the set configuration with straight links (closed form):
    the upper arm turned by the shoulder angle, the forearm by the crank angle (the
    parallelogram keeps it parallel to the crank), the gripper by crank + wrist."""
    Rb = _rot("z", SET["base"])
    elbow = Rb @ (np.array([0, 0, H0]) + _rot("y", SET["shoulder"]) @ [0, 0, L1])
    wrist = elbow + Rb @ _rot("y", SET["crank"]) @ [L2, 0, 0]
    return wrist + Rb @ _rot("y", SET["crank"] + SET["wrist"]) @ [GRIP, 0, 0]


def parallelogram_error(res) -> np.ndarray:
    """Angle (rad) between the forearm root's and the crank's x axes: zero for a rigid
    parallelogram; with a flexible upper arm it measures the arm's tip rotation."""
    a = res.pose("forearm_root")[:, :3, 0]
    b = res.pose("crank")[:, :3, 0]
    return np.arccos(np.clip(np.einsum("ni,ni->n", a, b), -1.0, 1.0))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--t-end", type=float, default=6.0)
    ap.add_argument("--dt", type=float, default=1e-2)
    ap.add_argument("--elements", type=int, default=6)
    ap.add_argument("--out", default="flexible_manipulator.png")
    ap.add_argument("--animation", default=None, help="write a GIF/HTML/MP4 animation")
    ap.add_argument("--gravity", type=float, default=0.0,
                    help="m/s² along −z, with gravity-compensating feed-forward torques")
    ap.add_argument("--stiffness", type=float, default=1.0,
                    help="scale of both links' stiffnesses (1: EI = 30 N·m² in plane)")
    a = ap.parse_args()
    mech = manipulator(a.elements, gravity=a.gravity, stiffness=a.stiffness,
                       forearm_stiffness=a.stiffness)
    u = gravity_compensation(a.elements, a.gravity) if a.gravity else None
    if u:
        print("feed-forward torques (N·m):", {k: round(v, 4) for k, v in u.items()})
    dae = mech.assemble()
    print(f"{len(mech.bodies)} bodies, {len(mech.joints)} joints, 2 flexible links; "
          f"graph chords {mech.graph.chords}, dropped rows {mech.dropped}; "
          f"{dae.n} states, {dae.k} multipliers")
    res = mech.simulate(a.t_end, dt=a.dt, u=u)
    q = {j: res.joint(j)[:, 0] for j in SET}
    print("final joint angles:", {j: round(float(v[-1]), 6) for j, v in q.items()})
    print("set points:        ", SET)
    print(f"H: {res.H[0]:.4f} J → {res.H[-1]:.3e} J (peak {res.H.max():.3f} J), largest "
          f"increase per step {np.diff(res.H).max():.2e} J (with gravity the feed-forward "
          f"torques supply work), max |power residual| "
          f"{np.abs(res.power_residual).max():.2e} J")
    print(f"joint residual ≤ {res.constraint_residual().max():.2e}")
    drift = res.flexible_residual()
    print(f"beam tips vs carried bodies: ≤ {drift[:, 1].max():.2e} m, "
          f"≤ {drift[:, 0].max():.2e} rad")
    par = parallelogram_error(res)
    print(f"forearm vs crank direction: max {par.max():.2e} rad, at the end {par[-1]:.2e}")
    p = res.pose("gripper")[-1] @ [GRIP, 0, 0, 1]
    ref = payload_at_set_point()
    print(f"payload at the end {np.round(p[:3], 6)}, set point (straight links) "
          f"{np.round(ref, 6)}, distance {np.linalg.norm(p[:3] - ref):.2e} m"
          + (" (the links sag under their weight and the payload's)" if a.gravity else ""))
    defl = {lk: res.tip_deflection(lk)[:, 1] for lk in mech.links}  # in the arm's plane
    late = res.t > a.t_end - 1.0
    for lk, d in defl.items():
        print(f"{lk}: largest tip deflection {np.abs(d).max() * 1e3:.2f} mm, "
              f"in the last second {np.abs(d[late]).max() * 1e3:.3f} mm")

    fig = Figure(figsize=(16, 5.2), layout="constrained")
    ax = fig.add_subplot(1, 3, 1, projection="3d")
    shots = [0.0, 0.25, 0.5, 1.0, a.t_end]
    plot_snapshots(mech, res, shots, ax=ax, elev=20, azim=-60)
    ax.set(xlabel="x (m)", ylabel="y (m)", zlabel="z (m)",
           title=f"poses at t = {', '.join(f'{t:g}' for t in shots)} s (later darker)")
    ax = fig.add_subplot(1, 3, 2)
    for j, target in SET.items():  # the joint angles by name, with their unit
        line = ax.plot(res.t, res[f"{j}.q"], label=j)[0]
        ax.axhline(target, ls=":", lw=0.8, color=line.get_color())
    ax.set_xlabel("time (s)")
    ax.set_ylabel(f"joint angle ({pretty_unit(res.unit(next(iter(SET)) + '.q'))})")
    ax.set_title("PD-controlled joints (dotted: set points)")
    ax.legend(fontsize="small")
    ax = fig.add_subplot(1, 3, 3)
    for lk, d in defl.items():
        ax.plot(res.t, 1e3 * d, label=lk)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("tip deflection in the arm's plane (mm)")
    ax.set_title("flexible links")
    ax.legend()
    fig.suptitle("spatial manipulator with two flexible links and a parallelogram, PD at "
                 "four joints" + (f", gravity {a.gravity:g} m/s²" if a.gravity else ""))
    fig.savefig(a.out, dpi=110)
    print("wrote", a.out)
    if a.animation:
        every = max(1, round(0.04 / a.dt))  # 25 frames per second of motion
        animate(mech, res, a.animation, every=every, fps=25, elev=20, azim=-60,
                trace="gripper")
        print("wrote", a.animation)


if __name__ == "__main__":
    main()
