"""A two-link arm with flexible links, set by decentralized PD control at its joints
(in the spirit of Fig. 1 of Macchelli & Melchiorri, *Port-based simulation of flexible
multi-body systems*, IFAC 2008).

Shoulder motor (hub 1) on a revolute joint to ground; link 1, a geometrically exact
3-D beam, is clamped to hub 1 and carries the elbow motor housing at its tip; the
elbow joint turns hub 2, which carries link 2 with a payload at its tip.  Each joint
has a spring-damper port (PD control by interconnection and damping injection) pulling
it to its set point.  The arm moves in the horizontal x–y plane; gravity is left out
(the beams' own weight is not modelled, see docs/mechanics.md).

From rest and straight, the arm swings to the set configuration; the links bend and
vibrate, and the vibrations die out through the joint dampers only (the beams are
lossless).  Checked here: H never increases, the per-step power balance, the joint
residual, the drift of the reconstructed beam tips from the bodies they carry, and the
final payload position against the forward kinematics of the set point with straight
links.

    python examples/mechanics_flexible_arm.py [--t-end 8] [--dt 1e-2] [--out flexible_arm.png]
"""

from __future__ import annotations

import argparse

import numpy as np
from matplotlib.figure import Figure

from porthamiltonian import distributed as D
from porthamiltonian.mechanics import Mechanism
from porthamiltonian.mechanics.animation import skeleton
from porthamiltonian.quantities import pretty_unit

SET = {"shoulder": 0.9, "elbow": -1.2}        # rad
L1, L2, OFFSET = 1.0, 0.8, 0.05               # link lengths, beam root offset on hubs (m)


def beam(length: float, elements: int = 6) -> D.SpatialBeamModel:
    """An aluminium-like strip: ρA = 1 kg/m, EI = 20 N·m² in the plane of motion
    (stiffer out of it), axially and in shear nearly rigid."""
    return D.spatial_beam(length, rhoA=1.0, rhoI=(1e-4, 1e-4), EA=1e6, EI=(200.0, 20.0),
                          GA=1e6, GJ=50.0, elements=elements, left="velocity", right="port")


def arm() -> Mechanism:
    mech = Mechanism()                                   # no gravity (horizontal plane)
    mech.add_body("hub1", 2.0, [0.01, 0.01, 0.01])
    mech.add_body("elbow_motor", 1.0, [2e-3, 2e-3, 2e-3])
    mech.add_body("hub2", 0.3, [1e-3, 1e-3, 1e-3])
    mech.add_body("payload", 0.5, [1e-3, 1e-3, 1e-3])
    mech.add_joint("shoulder", "revolute", "ground", "hub1", axis=[0, 0, 1])
    mech.add_flexible_link("link1", beam(L1), "hub1", "elbow_motor",
                           parent_anchor=[OFFSET, 0, 0], direction=[1, 0, 0], up=[0, 0, 1])
    mech.add_joint("elbow", "revolute", "elbow_motor", "hub2", axis=[0, 0, 1])
    mech.add_flexible_link("link2", beam(L2), "hub2", "payload",
                           parent_anchor=[OFFSET, 0, 0], direction=[1, 0, 0], up=[0, 0, 1])
    gains = {"shoulder": (60.0, 30.0), "elbow": (15.0, 6.0)}      # N·m/rad, N·m·s/rad
    for j, (k, c) in gains.items():
        mech.add_actuator(j, stiffness=k, damping=c, setpoint=SET[j])
    return mech


def payload_at_set_point() -> np.ndarray:
    """Forward kinematics of the set configuration with straight links (closed form)."""
    a, b = SET["shoulder"], SET["shoulder"] + SET["elbow"]
    elbow = (OFFSET + L1) * np.array([np.cos(a), np.sin(a), 0.0])
    return elbow + (OFFSET + L2) * np.array([np.cos(b), np.sin(b), 0.0])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--t-end", type=float, default=8.0)
    ap.add_argument("--dt", type=float, default=1e-2)
    ap.add_argument("--out", default="flexible_arm.png")
    a = ap.parse_args()
    mech = arm()
    dae = mech.assemble()
    print(f"{dae.n} states ({sum(lk.n for lk in mech.links.values())} in the beams), "
          f"{dae.k} multipliers")
    res = mech.simulate(a.t_end, dt=a.dt)
    q = {j: res.joint(j)[:, 0] for j in SET}
    print("final joint angles:", {j: round(float(v[-1]), 6) for j, v in q.items()},
          "set points:", SET)
    print(f"H: {res.H[0]:.4f} J → {res.H[-1]:.3e} J, largest increase per step "
          f"{np.diff(res.H).max():.2e} J, max |power residual| "
          f"{np.abs(res.power_residual).max():.2e} J, joint residual "
          f"{res.constraint_residual().max():.2e}")
    drift = res.flexible_residual()
    print(f"beam tip vs carried body: ≤ {drift[:, 1].max():.2e} m, "
          f"≤ {drift[:, 0].max():.2e} rad")
    p = res.pose("payload")[-1, :3, 3]
    print(f"payload at the end {np.round(p, 6)}, set point (straight links) "
          f"{np.round(payload_at_set_point(), 6)}, distance "
          f"{np.linalg.norm(p - payload_at_set_point()):.2e} m")
    defl = {lk: res.tip_deflection(lk)[:, 1] for lk in mech.links}  # in plane
    for lk, d in defl.items():
        late = res.t > a.t_end - 1.0
        print(f"{lk}: largest tip deflection {np.abs(d).max() * 1e3:.2f} mm, "
              f"in the last second {np.abs(d[late]).max() * 1e3:.3f} mm")

    fig = Figure(figsize=(15, 5), layout="constrained")
    ax = fig.add_subplot(1, 3, 1)  # the arm moves in the plane z = 0: drawn in 2-D
    shots = [0.0, 0.3, 0.6, 1.0, 1.5, a.t_end]
    segs = skeleton(mech, res)  # (times, segments, 2 ends, xyz) in m
    for n, t_k in enumerate(shots):
        k = int(np.argmin(np.abs(res.t - t_k)))
        for end0, end1 in segs[k]:
            ax.plot([end0[0], end1[0]], [end0[1], end1[1]], color="C2", lw=2,
                    alpha=0.25 + 0.75 * (n + 1) / len(shots))
    ax.plot([0.0], [0.0], "ks", label="shoulder axis")
    ax.set_aspect("equal")
    ax.set(xlabel="x (m)", ylabel="y (m)",
           title=f"poses at t = {', '.join(f'{t:g}' for t in shots)} s\n(later darker)")
    ax.legend(fontsize="small", loc="lower right")
    ax = fig.add_subplot(1, 3, 2)
    for j, target in SET.items():  # the joint angles by name, with their unit
        line = ax.plot(res.t, res[f"{j}.q"], label=j)[0]
        ax.axhline(target, ls=":", lw=0.8, color=line.get_color(), label=f"{j} set point")
    ax.set_xlabel("time (s)")
    ax.set_ylabel(f"joint angle ({pretty_unit(res.unit(next(iter(SET)) + '.q'))})")
    ax.set_title("PD-controlled joints")
    ax.legend(fontsize="small")
    ax = fig.add_subplot(1, 3, 3)
    for lk, d in defl.items():
        ax.plot(res.t, 1e3 * d, label=lk)
    ax.set_xlabel("time (s)")
    ax.set_ylabel("tip deflection in the plane (mm)")
    ax.set_title("flexible links")
    ax.legend()
    fig.suptitle("two-link flexible arm in the horizontal plane, PD to the set points")
    fig.savefig(a.out, dpi=110)
    print("wrote", a.out)


if __name__ == "__main__":
    main()
