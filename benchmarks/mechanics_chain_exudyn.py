"""Serial chain of N rigid rods on revolute joints under gravity: porthamiltonian's
mechanism pH-DAE (numeric assembly, implicit midpoint) against Exudyn (generalized-α /
Newmark with ρ∞ = 1, index-2 constraints), same chain, same fixed step.

The chain: N uniform rods of square section (length L = 0.1 m, width w = 0.02 m, mass
m = 0.1 kg: I = m(L² + w²)/12 about the joint axis z and across, 2mw²/12 along the rod),
joined end to end by revolute joints about z, the first to ground; released from rest as
a straight line tilted by θ₀ = 0.3 rad from the downward vertical, gravity 9.81 m/s²
along −y.  Both tools model it in 3-D with five constraints per revolute joint: ours
with 18 states per body (p, the 9 entries of R, the body momentum), Exudyn with
Euler-parameter nodes (3 + 4 coordinates and their velocities, plus the normalization
constraint).

Reported per N:

* cost per step (ms, CPU time): (T(n₀ + S) − T(n₀)) / S for S timed steps, so set-up (assembly,
  consistent initial values) is excluded for both tools, the best of ``--repeat`` such
  measurements (the machine may be shared);  Exudyn's time is the better of
  its dense (EXUdense) and sparse (EigenSparse) linear solvers; ours with the compiled
  mechanism kernels (``engine="compiled"``, :mod:`porthamiltonian.mechanics.kernels`)
  and, for reference, with the NumPy step (``engine="numpy"``); our time of
  ``Mechanism.assemble()`` and our whole set-up (assembly, initial state, consistent
  multipliers) are reported separately;
* the cold compile time (CPU) of the kernels: the first 5-step run in a fresh process with an
  empty kernel cache minus the same run warm (Numba caches the machine code on disk, so
  only the first run on a machine pays it);
* for small N, the largest distance between the two tips over 1 s, relative to L,
  at dt and dt/2 (both methods are second order: it should fall ≈ 4×);
* a least-squares fit cost ∝ N^p over all sizes and over N ≥ 10 for each tool.

    python benchmarks/mechanics_chain_exudyn.py [--sizes 2 5 10 20 50 100] [--dt 1e-3]
        [--steps 100] [--repeat 3] [--agree 2 5 10] [--t-agree 1.0] [--no-cold]

Needs ``exudyn`` (the ``benchmarks`` extra).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

from porthamiltonian.mechanics import Mechanism

L, WIDTH, MASS, G, THETA0 = 0.1, 0.02, 0.1, 9.81, 0.3
INERTIA = MASS / 12 * np.array([L**2 + WIDTH**2, 2 * WIDTH**2, L**2 + WIDTH**2])  # x, y, z
N0 = 5  # warm-up steps whose cost is subtracted (set-up, first Jacobians)


def ours_chain(n: int) -> Mechanism:
    """Rods along their body −y axis, com at the middle; joint i at the end of rod i−1."""
    mech = Mechanism(gravity=[0, -G, 0])
    parent = "ground"
    for i in range(n):
        mech.add_body(f"b{i}", MASS, INERTIA, com=[0, -L / 2, 0])
        mech.add_joint(f"j{i}", "revolute", parent, f"b{i}",
                       parent_anchor=[0, -L if i else 0.0, 0])
        parent = f"b{i}"
    return mech


def ours_run(n: int, steps: int, dt: float, engine: str = "auto"
             ) -> tuple[float, np.ndarray, np.ndarray]:
    """CPU time of ``steps`` midpoint steps (set-up included), times and tip positions."""
    mech = ours_chain(n)
    t0 = time.process_time()
    res = mech.simulate(steps * dt, dt=dt, q0={"j0": THETA0}, engine=engine)
    cpu = time.process_time() - t0
    H = res.pose(f"b{n - 1}")
    tip = H[:, :3, 3] + H[:, :3, :3] @ np.array([0.0, -L, 0.0])
    return cpu, res.t, tip


def exudyn_run(n: int, steps: int, dt: float, solver: str
               ) -> tuple[float, np.ndarray, np.ndarray]:
    """The same chain in Exudyn: node at each rod's centre of mass, joints in the global
    reference configuration; CPU time of ``SolveDynamic`` only."""
    import exudyn as exu
    from exudyn.utilities import ObjectGround, RigidBodyInertia, SensorBody

    d = np.array([np.sin(THETA0), -np.cos(THETA0), 0.0])
    c, s = np.cos(THETA0), np.sin(THETA0)
    Rz = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    prev = mbs.AddObject(ObjectGround())
    for i in range(n):
        body = mbs.CreateRigidBody(
            inertia=RigidBodyInertia(mass=MASS, inertiaTensor=np.diag(INERTIA)),
            referencePosition=(i + 0.5) * L * d, referenceRotationMatrix=Rz,
            gravity=[0.0, -G, 0.0])
        mbs.CreateRevoluteJoint(itemNumbers=[prev, body], position=i * L * d,
                                axis=[0.0, 0.0, 1.0], useGlobalFrame=True)
        prev = body
    sensor = mbs.AddSensor(SensorBody(bodyNumber=prev, localPosition=[0.0, -L / 2, 0.0],
                                      storeInternal=True,
                                      outputVariableType=exu.OutputVariableType.Position))
    mbs.Assemble()
    ss = exu.SimulationSettings()
    ti = ss.timeIntegration
    ti.numberOfSteps, ti.endTime, ti.verboseMode = steps, steps * dt, 0
    ti.generalizedAlpha.spectralRadius = 1.0        # no numerical damping
    ti.generalizedAlpha.useIndex2Constraints = True  # velocity-level, as ours
    ti.generalizedAlpha.useNewmark = True
    ss.solution.file.write = False
    ss.solution.sensors.writePeriod = dt
    ss.linearSolver.solverType = getattr(exu.LinearSolverType, solver)
    t0 = time.process_time()
    exu.SolveDynamic(mbs, ss)
    cpu = time.process_time() - t0
    data = np.asarray(mbs.GetSensorStoredData(sensor))
    return cpu, data[:, 0], data[:, 1:4]


def per_step(run, n: int, steps: int, dt: float, repeat: int = 1) -> tuple[float, float]:
    """Seconds per step, set-up excluded: (T(N0 + steps) − T(N0)) / steps; and the
    set-up time T(N0) − N0 · (per step); the best of ``repeat`` measurements."""
    best = (np.inf, np.inf)
    run(n, N0, dt)  # warm-up: loads compiled kernels from the cache, first-use costs
    for _ in range(repeat):
        short = run(n, N0, dt)[0]
        step = (run(n, N0 + steps, dt)[0] - short) / steps
        best = min(best, (step, short - N0 * step))
    return best


_COLD = """
import sys, time
sys.path.insert(0, {here!r})
from mechanics_chain_exudyn import ours_run
t0 = time.process_time(); ours_run(2, 5, 1e-3); cold = time.process_time() - t0
t0 = time.process_time(); ours_run(2, 5, 1e-3); warm = time.process_time() - t0
print(cold - warm)
"""


def cold_compile() -> float:
    """CPU seconds the first run spends compiling the kernels (fresh process, empty cache)."""
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, PORTHAMILTONIAN_CACHE=cache, NUMBA_CACHE_DIR=cache)
        here = os.path.dirname(os.path.abspath(__file__))
        out = subprocess.run([sys.executable, "-c", _COLD.format(here=here)], env=env,
                             capture_output=True, text=True, check=True)
        return float(out.stdout.strip().splitlines()[-1])


def _exponent(rows: list[tuple], col: int, least: int = 0) -> float:
    big = [r for r in rows if r[0] >= least]
    return float(np.polyfit(np.log([r[0] for r in big]), np.log([r[col] for r in big]), 1)[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[2, 5, 10, 20, 50, 100])
    ap.add_argument("--dt", type=float, default=1e-3)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--agree", type=int, nargs="*", default=[2, 5, 10])
    ap.add_argument("--t-agree", type=float, default=1.0)
    ap.add_argument("--no-cold", action="store_true", help="skip the cold compile timing")
    args = ap.parse_args()
    import exudyn

    print(f"exudyn {exudyn.__version__}; dt = {args.dt:g} s, {args.steps} timed steps, "
          f"best of {args.repeat}")
    print("\nagreement of the tip position (max over t ≤ "
          f"{args.t_agree:g} s of |tip_ours − tip_exudyn| / L)")
    print("|  N | dt | dt/2 |\n|---:|---:|---:|")
    for n in args.agree:
        errs = []
        for dt in (args.dt, args.dt / 2):
            steps = round(args.t_agree / dt)
            _, t1, a = ours_run(n, steps, dt)
            _, t2, b = exudyn_run(n, steps, dt, "EXUdense")
            b = np.array([np.interp(t1, t2, b[:, i]) for i in range(3)]).T
            errs.append(np.abs(a - b).max() / L)
        print(f"| {n} | {errs[0]:.2e} | {errs[1]:.2e} |")
    if not args.no_cold:
        print(f"\ncold compile of the mechanism kernels (first run, empty cache): "
              f"{cold_compile():.1f} s")
    print("\n|   N | states + multipliers (ours) | ours: assemble [s] | ours: set-up [s] "
          "| ours compiled [ms/step] | ours NumPy [ms/step] | Exudyn dense [ms/step] "
          "| Exudyn sparse [ms/step] | ours / best Exudyn |")
    print("|----:|---:|---:|---:|---:|---:|---:|---:|---:|")
    rows = []
    for n in args.sizes:
        mech = ours_chain(n)
        t0 = time.perf_counter()
        dae = mech.assemble()
        t_asm = time.perf_counter() - t0
        a, setup = per_step(ours_run, n, args.steps, args.dt, args.repeat)
        a_np = per_step(lambda *p: ours_run(*p, engine="numpy"), n, args.steps, args.dt,
                        args.repeat)[0]
        ed, es = (per_step(lambda *p, s=solver: exudyn_run(*p, s), n, args.steps, args.dt,
                           args.repeat)[0] for solver in ("EXUdense", "EigenSparse"))
        best = min(ed, es)
        rows.append((n, a, best, a_np))
        print(f"| {n} | {dae.n} + {dae.k} | {t_asm:.3f} | {setup:.2f} | {1e3 * a:.3f} | "
              f"{1e3 * a_np:.3f} | {1e3 * ed:.4f} | {1e3 * es:.4f} | {a / best:.2f} |",
              flush=True)
    if len(rows) >= 2:
        print(f"\ncost ∝ N^p over N = {rows[0][0]}…{rows[-1][0]}: ours (compiled) p = "
              f"{_exponent(rows, 1):.2f}, Exudyn (best) p = {_exponent(rows, 2):.2f}")
    if len([r for r in rows if r[0] >= 10]) >= 2:
        print(f"over N ≥ 10: ours (compiled) p = {_exponent(rows, 1, 10):.2f}, "
              f"Exudyn (best) p = {_exponent(rows, 2, 10):.2f}")


if __name__ == "__main__":
    main()
