"""IFToMM A05 (stiff flyball governor) in Exudyn, against the reduced Lagrangian of
benchmarks/iftomm.py and against porthamiltonian's run of the model file.

No published reference number for A05 was found, and the reduced equations in
``a05_reduced`` are this project's own derivation; Exudyn builds the governor from the
benchmark's data independently: four rigid bodies with Euler-parameter nodes (each rod
with its ball one body, reference point at its centre of mass), a revolute joint
ground–shaft about z, a prismatic joint shaft–slider along z, revolute joints
shaft–rods about y, and Exudyn's own ``SpringDamper`` connectors between the slider's
sides and the rods' midpoints; generalized-α (Newmark form, ρ∞ = 1, index-2
constraints) at fixed steps.

Reported: max |s_Exudyn − s_reduced| over 10 s at two steps (both second order, so the
difference should fall ≈ 4× to the reduced model's own 1e-11 tolerance), and our run at
the file's step against the same reference.

    python benchmarks/iftomm_a05_exudyn.py [--t-end 10] [--dt 2e-4 1e-4] [--ours]

Needs ``exudyn`` (the ``benchmarks`` extra).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from iftomm import A05, MODELS, a05_reduced
from threadpoolctl import threadpool_limits


def exudyn_a05(t_end: float, dt: float) -> tuple[float, np.ndarray, np.ndarray]:
    """(CPU s of SolveDynamic, t, slider height s(t)) of A05 in Exudyn."""
    import exudyn as exu
    from exudyn.utilities import (
        InertiaCuboid,
        InertiaMassPoint,
        MarkerBodyPosition,
        ObjectGround,
        RotationMatrixY,
        SensorBody,
        SpringDamper,
    )

    d = A05
    L, w, b, a, om = d["L"], d["w"], d["b"], d["a"], d["omega0"]
    g = [0.0, 0.0, -d["g"]]
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    ground = mbs.AddObject(ObjectGround())
    spin = [0.0, 0.0, om]
    shaft = mbs.CreateRigidBody(inertia=InertiaCuboid(d["rho"], [w, w, L]),
                                referencePosition=[0.0, 0.0, L / 2],
                                initialAngularVelocity=spin, gravity=g)
    slider = mbs.CreateRigidBody(inertia=InertiaCuboid(d["rho"], [b, b, b]),
                                 referencePosition=[0.0, 0.0, d["s0"]],
                                 initialAngularVelocity=spin, gravity=g)
    mbs.CreateRevoluteJoint(itemNumbers=[ground, shaft], position=[0.0, 0.0, 0.0],
                            axis=[0.0, 0.0, 1.0], useGlobalFrame=True)
    mbs.CreatePrismaticJoint(itemNumbers=[shaft, slider], position=[0.0, 0.0, d["s0"]],
                             axis=[0.0, 0.0, 1.0], useGlobalFrame=True)
    # a rod along its body x axis from the hinge, the ball at its end; reference point
    # moved to the centre of mass
    rod = (InertiaCuboid(d["rho"], [L, w, w]).Translated([L / 2, 0.0, 0.0])
           + InertiaMassPoint(d["mb"]).Translated([L, 0.0, 0.0]))
    lam = rod.COM()[0]
    rod = rod.Translated([-lam, 0.0, 0.0])
    sensor = mbs.AddSensor(SensorBody(bodyNumber=slider, storeInternal=True,
                                      outputVariableType=exu.OutputVariableType.Position))
    for side, angle in ((1.0, d["alpha0"]), (-1.0, np.pi - d["alpha0"])):
        R = RotationMatrixY(angle)
        hinge = np.array([side * a, 0.0, L])
        com = hinge + lam * R[:, 0]
        body = mbs.CreateRigidBody(inertia=rod, referencePosition=com,
                                   referenceRotationMatrix=R,
                                   initialVelocity=np.cross(spin, com),
                                   initialAngularVelocity=spin, gravity=g)
        mbs.CreateRevoluteJoint(itemNumbers=[shaft, body], position=hinge,
                                axis=[0.0, 1.0, 0.0], useGlobalFrame=True)
        m_slider = mbs.AddMarker(MarkerBodyPosition(bodyNumber=slider,
                                                    localPosition=[side * a, 0.0, 0.0]))
        m_rod = mbs.AddMarker(MarkerBodyPosition(bodyNumber=body,
                                                 localPosition=[L / 2 - lam, 0.0, 0.0]))
        mbs.AddObject(SpringDamper(markerNumbers=[m_slider, m_rod], stiffness=d["K"],
                                   damping=d["C"], referenceLength=d["l0"]))
    mbs.Assemble()
    ss = exu.SimulationSettings()
    ti = ss.timeIntegration
    ti.numberOfSteps, ti.endTime, ti.verboseMode = int(round(t_end / dt)), t_end, 0
    ti.generalizedAlpha.spectralRadius = 1.0
    ti.generalizedAlpha.useIndex2Constraints = True
    ti.generalizedAlpha.useNewmark = True
    ss.solution.file.write = False
    ss.solution.sensors.writePeriod = dt
    t0 = time.process_time()
    exu.SolveDynamic(mbs, ss)
    cpu = time.process_time() - t0
    data = np.asarray(mbs.GetSensorStoredData(sensor))
    return cpu, data[:, 0], data[:, 3]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--t-end", type=float, default=10.0)
    ap.add_argument("--dt", type=float, nargs="+", default=[2e-4, 1e-4])
    ap.add_argument("--ours", action="store_true", help="also our run of the model file")
    args = ap.parse_args()
    ref = a05_reduced(args.t_end)
    for dt in args.dt:
        cpu, t, s = exudyn_a05(args.t_end, dt)
        err = np.abs(s - ref(t)[1]).max()
        print(f"Exudyn dt = {dt:g}: CPU {cpu:.2f} s, max |s − reduced| = {err:.2e} m, "
              f"s({t[-1]:g}) = {s[-1]:.6f} (reduced {ref(t[-1])[1]:.6f})")
    if args.ours:
        from porthamiltonian.io import load_model, simulate_model

        c0 = time.process_time()
        res = simulate_model(load_model(MODELS / "iftomm_a05_flyball_governor.yaml"),
                             t_end=args.t_end)
        cpu = time.process_time() - c0
        s = A05["s0"] + res.joint("slide")[:, 0]
        err = np.abs(s - ref(res.t)[1]).max()
        print(f"ours (file's dt): CPU {cpu:.1f} s, max |s − reduced| = {err:.2e} m")


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        main()
