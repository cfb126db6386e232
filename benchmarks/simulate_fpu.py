"""Nonlinear FPU chain with 1000 states: our energy-exact methods vs solve_ivp at matched
accuracy, side by side in one run.

Chain of N unit masses, the first tied to a wall, springs with potential
V(q) = q²/2 + β q⁴/4 (the Fermi–Pasta–Ulam–Tsingou β model) in their elongations
q_i: x = (q_1…q_N, p_1…p_N), H = Σ p_i²/2 + Σ V(q_i), J = [[0, D], [−Dᵀ, 0]] with D
the difference matrix (q̇_i = p_i − p_{i−1}).

1. The model as a :class:`porthamiltonian.simulate.FunctionPHS` (H, ∇H and the sparse
   diagonal ∇²H as NumPy functions), NumPy steps of ``discrete_gradient`` and ``avf``,
   against RK45, Radau and BDF (wall time).
2. The same model as a :class:`porthamiltonian.simulate.SeparablePHS` (one law per
   state): the compiled sparse steps of ``avf``, ``avf4`` and ``avf6`` at a few steps,
   each against RK45 and DOP853 at matched final-state accuracy; CPU time, best of 3,
   the one-time compilation (or cache load) reported apart.

(The symbolic route compiles in time quadratic in N — 44 s for N = 200 — and is not
used here.)  Reference: DOP853 with rtol = 1e-13.  Each solve_ivp method runs at the
loosest rtol in 1e-3 … 1e-12 whose final-state error is at most ours.  Reports time,
steps (ours) or nfev (solve_ivp), relative error and the relative energy error
max |H(t) − H(0)|/H(0).

    python benchmarks/simulate_fpu.py [--masses 500] [--t-end 50] [--dt 0.05]
                                      [--skip-numpy] [--skip-compiled]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import scipy.integrate as si
import scipy.sparse as sps
import sympy as sp
from simulate_matched import matched_scipy_rows, print_rows, timed

from porthamiltonian.simulate import FunctionPHS, SeparablePHS, simulate

BETA = 1.0


def fpu(masses: int) -> FunctionPHS:
    n = masses
    D = sps.eye(n, format="csr") - sps.eye(n, k=-1, format="csr")
    J = sps.bmat([[None, D], [-D.T, None]], format="csr")

    def energy(x: np.ndarray) -> float:
        q, p = x[:n], x[n:]
        return float(0.5 * p @ p + np.sum(0.5 * q * q + 0.25 * BETA * q**4))

    def gradient(x: np.ndarray) -> np.ndarray:
        q, p = x[:n], x[n:]
        return np.concatenate([q + BETA * q**3, p])

    def hessian(x: np.ndarray) -> sps.spmatrix:
        q = x[:n]
        return sps.diags(np.concatenate([1.0 + 3.0 * BETA * q * q, np.ones(n)]), format="csr")

    names = [f"q{i}" for i in range(n)] + [f"p{i}" for i in range(n)]
    return FunctionPHS(J=J, energy=energy, gradient=gradient, hessian=hessian, degree=4,
                       states=names)


def fpu_separable(masses: int) -> SeparablePHS:
    """The same chain with its Hamiltonian given law by law."""
    n = masses
    D = sps.eye(n, format="csr") - sps.eye(n, k=-1, format="csr")
    J = sps.bmat([[None, D], [-D.T, None]], format="csr")
    q, p, beta = sp.symbols("q p beta")
    return SeparablePHS(J=J, terms=[(q**2 / 2 + beta * q**4 / 4, range(n), {beta: BETA}),
                                    (p**2 / 2, range(n, 2 * n), {})])


#: (method, dt) of the compiled runs
COMPILED_RUNS = (("avf", 0.05), ("avf", 0.025), ("avf4", 0.1), ("avf4", 0.05),
                 ("avf6", 0.3), ("avf6", 0.2), ("avf6", 0.15), ("avf6", 0.1))


def compiled_rows(n: int, T: float, x0: np.ndarray, ref: np.ndarray,
                  numpy_model: FunctionPHS) -> None:
    """Part 2 of the module docstring: one table row per run of :data:`COMPILED_RUNS`;
    solve_ivp runs on ``numpy_model`` (the hand-written NumPy ∇H, as in part 1)."""
    sep = fpu_separable(n)
    scale = np.max(np.abs(ref))
    H0 = sep.energy(x0)
    t = time.perf_counter()
    first = simulate(sep, (0.0, T), x0, method="avf6", dt=1.0, engine="compiled")
    print(f"\ncompiled sparse steps (SeparablePHS): first run in this process "
          f"{time.perf_counter() - t:.2f} s wall, of which compile/cache load "
          f"{first.extra['compile_time']:.2f} s (engine {first.extra['engine']})")
    print("| ours | dt | CPU (s) | steps | rel. error | rel. energy error | RK45 rtol, CPU (s), "
          "ratio | DOP853 rtol, CPU (s), ratio |")
    print("|---|---|---|---|---|---|---|---|")
    for method, dt in COMPILED_RUNS:
        def run(method=method, dt=dt):
            return simulate(sep, (0.0, T), x0, method=method, dt=dt, engine="compiled",
                            save_every=10**9)
        res, cpu = timed(run, clock=time.process_time)
        err = float(np.max(np.abs(res.x[-1] - ref)) / scale)
        dh = float(np.max(np.abs(res.H - H0)) / H0)
        theirs = matched_scipy_rows(numpy_model, T, x0, ref, err,
                                    lambda sol: abs(sol.H[-1] - H0) / H0,
                                    methods=("RK45", "DOP853"), clock=time.process_time)
        cells = [f"{r[1]:g}, {r[2]:.3f}, **{r[2] / cpu:.1f}×**" + ("" if r[4] <= err else
                                                                   " (not reached)")
                 for r in theirs]
        print(f"| {method} | {dt:g} | {cpu:.3f} | {res.nsteps} | {err:.2e} | {dh:.1e} | "
              + " | ".join(cells) + " |")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--masses", type=int, default=500)
    ap.add_argument("--t-end", type=float, default=50.0)
    ap.add_argument("--dt", type=float, default=0.05)
    ap.add_argument("--skip-numpy", action="store_true", help="no part 1 (FunctionPHS)")
    ap.add_argument("--skip-compiled", action="store_true", help="no part 2 (SeparablePHS)")
    args = ap.parse_args()
    sys = fpu(args.masses)
    n = args.masses
    s = np.arange(n) / n
    x0 = np.concatenate([0.5 * np.exp(-(((s - 0.3) / 0.02) ** 2)), np.zeros(n)])
    num = sys.compile()
    T = args.t_end
    ref = si.solve_ivp(lambda t, x: num.rhs(x), (0.0, T), x0, method="DOP853", rtol=1e-13,
                       atol=1e-15).y[:, -1]
    scale = np.max(np.abs(ref))
    H0 = num.energy(x0)
    print(f"FPU-β chain, {2 * n} states, β = {BETA}, t_end = {T} s, H0 = {H0:.4g} J")
    for ours in () if args.skip_numpy else ("discrete_gradient", "avf"):
        print(f"\nours: {ours}, dt = {args.dt}")
        t = time.perf_counter()
        res = simulate(sys, (0.0, T), x0, method=ours, dt=args.dt, save_every=10)
        wall = time.perf_counter() - t
        err = np.max(np.abs(res.x[-1] - ref)) / scale
        dh = np.max(np.abs(res.H - H0)) / H0
        rows = [(ours, args.dt, wall, res.nsteps, err, dh)]
        rows += matched_scipy_rows(sys, T, x0, ref, err, lambda sol: abs(sol.H[-1] - H0) / H0)
        print_rows(rows, ours, "rel. energy error")
    if not args.skip_compiled:
        compiled_rows(n, T, x0, ref, sys)


if __name__ == "__main__":
    main()
