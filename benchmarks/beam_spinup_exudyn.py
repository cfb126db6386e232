"""Spin-up of a flexible beam: our geometrically exact planar beam (hub-driven port) against
Exudyn's ObjectBeamGeometricallyExact2D on the same manoeuvre.

Beam (Simo & Vu-Quoc 1986): L = 10 m, EA = 2.8e7 N, EI = 1.4e4 N·m², ρA = 1.2 kg/m; for
the shear-deformable models ρI = ρA·EI/EA = 6e-4 kg·m (the rotary inertia of a section
with I/A = EI/EA) and κGA = EA·κ/(2(1 + ν)) with κ = 5/6, ν = 0.3 — a slender beam, so
both hardly matter.  Hub angle θ(t) = (6/15)[t²/2 + (15/2π)²(cos(2πt/15) − 1)] for
t ≤ 15 s, then 6t − 45 (:mod:`porthamiltonian.distributed.spinup`).

Ours: ``planar_beam(..., left="hub", right="free")`` driven by ``omega_left = θ̇(t)``,
implicit midpoint rule; the tip deflection in the rotating (hub) frame is ``shape(x)``'s
r₂(L) directly.  Exudyn: Rigid2D nodes, the first one held by three coordinate
constraints, the rotation one with the offset θ(t) (a Python user function, called ~23
times per step: ``spinup_angle`` of a number is plain math — as a NumPy 0-d array
expression it took a third of Exudyn's run time); generalized-α (ρ∞ = 0.9, its default
numerical damping), tip position rotated into the hub frame.  Exudyn's Newton uses an
absolute tolerance of 1e-6: tighter values make it stall and cut the step (87 s instead
of 1 s for the same result to 1e-3).

Paired runs have about the same number of unknowns (ours N elements of degree 2: 12N
states; Exudyn 2N linear elements: 6(2N + 1) coordinates and velocities), the same step
and the same saved points.  Run times (wall clock, best of ``--repeat``) include building
the model; one-time costs are measured apart and not in them: a short warm-up run of each
code (imports, first calls) and, for ours, compiling the beam step once per machine
(``porthamiltonian.distributed.beam_step.precompile``; Numba's cache then loads it).

    pip install exudyn            # the `benchmarks` extra
    python benchmarks/beam_spinup_exudyn.py [--t-end 30] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from exudyn_beams import clamped_beam

from porthamiltonian import simulate
from porthamiltonian.distributed import planar_beam
from porthamiltonian.distributed.beam_step import precompile
from porthamiltonian.distributed.spinup import SPINUP_BEAM, spinup_angle, spinup_rate

L, EA, EI, RA = (SPINUP_BEAM[k] for k in ("length", "EA", "EI", "rhoA"))
RI = RA * EI / EA
KGA = EA * (5 / 6) / 2.6
SAVE = 0.05  # s between saved points


def ours(N: int, k: int, dt: float, t_end: float) -> dict:
    t0 = time.perf_counter()
    beam = planar_beam(L, RA, RI, EA, EI, KGA, elements=N, degree=k, left="hub", right="free")
    t_eval = np.arange(0.0, t_end + 1e-9, SAVE)
    res = simulate(beam.system, (0, t_end), u={"omega_left": lambda t: float(spinup_rate(t))},
                   dt=dt, t_eval=t_eval)
    elapsed = time.perf_counter() - t0
    _, r2, _ = beam.shape(res.x)
    work = float(np.sum(res.work_supplied))
    return {"t": res.t, "w": r2[:, -1], "time": elapsed, "H": res.H[-1], "work": work,
            "balance": abs(res.H[-1] - res.H[0] - work) / res.H[-1]}


def exudyn_run(N: int, dt: float, t_end: float) -> dict:
    import exudyn as exu
    from exudyn.itemInterface import SensorNode

    t0 = time.perf_counter()
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    nodes = clamped_beam(mbs, N, L, RA, RI, EI, EA, KGA, root_angle=spinup_angle)
    tip = mbs.AddSensor(SensorNode(nodeNumber=nodes[-1], storeInternal=True,
                                   outputVariableType=exu.OutputVariableType.Coordinates))
    mbs.Assemble()
    s = exu.SimulationSettings()
    s.solution.file.write = False
    s.solution.sensors.writePeriod = SAVE
    s.timeIntegration.endTime = t_end
    s.timeIntegration.numberOfSteps = int(round(t_end / dt))
    s.timeIntegration.generalizedAlpha.spectralRadius = 0.9
    s.timeIntegration.newton.useModifiedNewton = True
    s.timeIntegration.newton.relativeTolerance = 1e-8
    s.timeIntegration.newton.absoluteTolerance = 1e-6
    s.timeIntegration.verboseMode = 0
    s.linearSolver.solverType = exu.LinearSolverType.EigenSparse
    exu.SolveDynamic(mbs, s)
    elapsed = time.perf_counter() - t0
    d = mbs.GetSensorStoredData(tip)
    t, x, y = d[:, 0], d[:, 1] + L, d[:, 2]
    th = spinup_angle(t)
    return {"t": t, "w": -np.sin(th) * x + np.cos(th) * y, "time": elapsed}


def best(run: Callable[[], dict], repeat: int) -> dict:
    """The first result, with the shortest run time of ``repeat`` runs."""
    results = [run() for _ in range(repeat)]
    return {**results[0], "time": min(r["time"] for r in results)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--t-end", type=float, default=30.0)
    ap.add_argument("--repeat", type=int, default=3, help="runs per case (best time)")
    args = ap.parse_args()
    T, k = args.t_end, args.repeat
    compile_time = precompile()
    warm = {"ours": ours(2, 2, 0.01, 0.1)["time"], "Exudyn": exudyn_run(2, 0.01, 0.1)["time"]}
    print(f"one-time costs, not in the run times: compiling the beam step {compile_time:.2f} s "
          f"(cached afterwards); warm-up runs ours {warm['ours']:.2f} s, "
          f"Exudyn {warm['Exudyn']:.2f} s")
    runs = {
        "ours N=10 k=2 dt=0.01": best(lambda: ours(10, 2, 0.01, T), k),
        "ours N=20 k=2 dt=0.005": best(lambda: ours(20, 2, 0.005, T), k),
        "Exudyn N=20 dt=0.01": best(lambda: exudyn_run(20, 0.01, T), k),
        "Exudyn N=40 dt=0.005": best(lambda: exudyn_run(40, 0.005, T), k),
    }
    ref = runs["Exudyn N=40 dt=0.005"]
    grid = np.arange(0.0, T + 1e-9, SAVE)
    wref = np.interp(grid, ref["t"], ref["w"])
    peak = np.max(np.abs(wref))
    print("tip deflection in the hub frame [m]; Δ against Exudyn N=40 on [0, 15] s and the "
          "amplitude after 16 s")
    print("| run | w(5 s) | w(10 s) | min w (at t) | max |Δ| on [0, 15] / peak | "
          "max |w| after 16 s | run time [s] |")
    print("|---|---|---|---|---|---|---|")

    def after(w: np.ndarray) -> str:  # residual vibration once the spin-up is over
        late = grid > 16.0
        return f"{np.max(np.abs(w[late])):.4f}" if late.any() else "— (t_end ≤ 16 s)"

    for name, r in runs.items():
        w = np.interp(grid, r["t"], r["w"])
        i = int(np.argmin(w))
        spin = grid <= 15.0
        dev = np.max(np.abs(w[spin] - wref[spin])) / peak
        at = [f"{np.interp(t, grid, w):.4f}" if t <= T else "—" for t in (5.0, 10.0)]
        print(f"| {name} | {at[0]} | {at[1]} | "
              f"{w[i]:.4f} ({grid[i]:.2f}) | {dev:.1e} | "
              f"{after(w)} | {r['time']:.2f} |")
    for name, r in runs.items():
        if "work" in r:
            print(f"{name}: hub work ∫ωM dt = {r['work']:.6f} J, H(T) = {r['H']:.6f} J, "
                  f"|H(T) − H(0) − W| / H(T) = {r['balance']:.1e}")


if __name__ == "__main__":
    main()
