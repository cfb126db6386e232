"""Nonlinear pendulum (2 states), default method and recording: our compiled engine
against our NumPy engine and SciPy's ``solve_ivp`` (RK45, DOP853), side by side.

H = p²/(2mℓ²) + mgℓ(1 − cos q), m = ℓ = 1, g = 9.81, lossless, released at q₀ = 2.5 rad
(a large swing: the Hamiltonian is far from quadratic).  ``method="auto"`` picks the
discrete gradient (Gonzalez), whose energy balance is exact.

Reported:

* CPU time per step (µs) of ``simulate(pendulum, (0, T), x0, dt=0.01)`` — default
  method and recording (every step saved with H, outputs and power balance) — best of
  ``--repeat`` runs, compiled and NumPy engines; the compile/cache-load time of the
  compiled run is reported apart (it is outside the steps: ``res.extra["compile_time"]``);
* the relative energy error max|H − H₀|/H₀ over the run;
* SciPy RK45 and DOP853 at the loosest rtol (1e-3 … 1e-13) whose final-state error
  against a DOP853 rtol=1e-13 reference is at most ours: CPU time, steps, energy error.

    python benchmarks/engine_pendulum.py [--steps 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import scipy.integrate as si
import sympy as sp
from simulate_matched import timed

from porthamiltonian import PHS
from porthamiltonian.simulate import simulate


def pendulum() -> PHS:
    q, p = sp.symbols("q p")
    m, ell, g = sp.symbols("m l g", positive=True)
    H = p**2 / (2 * m * ell**2) + m * g * ell * (1 - sp.cos(q))
    return PHS(J=sp.Matrix([[0, 1], [-1, 0]]), hamiltonian=H, states=[q, p],
               parameters={"m": 1.0, "l": 1.0, "g": 9.81})


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    sys = pendulum()
    dt = 0.01
    T = args.steps * dt
    x0 = np.array([2.5, 0.0])
    num = sys.compile()
    H0 = num.energy(x0)
    print(f"pendulum, 2 states, {args.steps} steps of {dt} s, q0 = 2.5 rad, H0 = {H0:.4f} J")

    t = time.perf_counter()
    first = simulate(sys, (0.0, T), x0, dt=dt, engine="compiled")
    print(f"compiled engine: first call {time.perf_counter() - t:.2f} s wall, of which "
          f"compile/cache load {first.extra['compile_time']:.3f} s; method {first.method}")
    ours, cpu = timed(lambda: simulate(sys, (0.0, T), x0, dt=dt, engine="compiled"),
                         args.repeat)
    n_np = min(args.steps, 10_000)
    ref_np, cpu_np = timed(lambda: simulate(sys, (0.0, n_np * dt), x0, dt=dt,
                                            engine="numpy"), 1, time.process_time)
    dH = float(np.max(np.abs(ours.H - H0)) / H0)
    agree = float(np.max(np.abs(ours.x[: n_np + 1] - ref_np.x)))
    print("\n| engine | µs per step (CPU) | rel. energy error | steps |")
    print("|---|---|---|---|")
    print(f"| compiled (Numba) | {1e6 * cpu / args.steps:.2f} | {dH:.1e} | {args.steps} |")
    print(f"| NumPy | {1e6 * cpu_np / n_np:.1f} | "
          f"{float(np.max(np.abs(ref_np.H - H0)) / H0):.1e} | {n_np} |")
    print(f"compiled vs NumPy trajectories over {n_np} steps: max |Δx| = {agree:.1e}")

    ref = si.solve_ivp(lambda t, x: num.rhs(x), (0.0, T), x0, method="DOP853", rtol=1e-13,
                       atol=1e-13).y[:, -1]
    err = float(np.max(np.abs(ours.x[-1] - ref)))
    print(f"\nour final-state error against DOP853 (rtol 1e-13): {err:.2e}")
    print("| solver | rtol | CPU (s) | steps | final error | rel. energy error | "
          "CPU / ours |")
    print("|---|---|---|---|---|---|---|")
    print(f"| ours (compiled) | dt = {dt} | {cpu:.3f} | {args.steps} | {err:.1e} | {dH:.1e} "
          "| 1 |")
    for method in ("RK45", "DOP853"):
        for rtol in 10.0 ** -np.arange(3, 14):
            def run(method=method, rtol=rtol):
                return si.solve_ivp(lambda t, x: num.rhs(x), (0.0, T), x0, method=method,
                                    rtol=rtol, atol=rtol * 1e-3, dense_output=False)
            sol = run()
            e = float(np.max(np.abs(sol.y[:, -1] - ref)))
            if e <= err or rtol == 1e-13:
                sol, c = timed(run, args.repeat, time.process_time)
                Hs = np.array([num.energy(state) for state in sol.y.T])
                print(f"| {method} | {rtol:g} | {c:.3f} | {sol.t.size - 1} | {e:.1e} | "
                      f"{float(np.max(np.abs(Hs - H0)) / H0):.1e} | {c / cpu:.1f} |")
                break


if __name__ == "__main__":
    main()
