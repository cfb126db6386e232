"""Nonlinear FPU chain with 1000 states: discrete-gradient methods vs solve_ivp (RK45,
Radau, BDF) at matched accuracy, side by side in one run.

Chain of N unit masses, the first tied to a wall, springs with potential
V(q) = q²/2 + β q⁴/4 (the Fermi–Pasta–Ulam–Tsingou β model) in their elongations
q_i: x = (q_1…q_N, p_1…p_N), H = Σ p_i²/2 + Σ V(q_i), J = [[0, D], [−Dᵀ, 0]] with D
the difference matrix (q̇_i = p_i − p_{i−1}).  The system is given to
:class:`porthamiltonian.simulate.FunctionPHS` (H, ∇H and the sparse diagonal ∇²H as
NumPy functions); the symbolic route compiles in time quadratic in N (measured: 44 s
for N = 200) and is not used here.

Reference: DOP853 with rtol = 1e-13.  Each solve_ivp method runs at the loosest rtol
whose final-state error is at most ours.  Reports wall time, steps (ours) or nfev
(solve_ivp), relative error and the relative energy error |H(T) − H(0)|/H(0).

    python benchmarks/simulate_fpu.py [--masses 500] [--t-end 50] [--dt 0.05]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import scipy.integrate as si
import scipy.sparse as sps
from simulate_matched import matched_scipy_rows, print_rows

from porthamiltonian.simulate import FunctionPHS, simulate

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


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--masses", type=int, default=500)
    ap.add_argument("--t-end", type=float, default=50.0)
    ap.add_argument("--dt", type=float, default=0.05)
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
    for ours in ("discrete_gradient", "avf"):
        print(f"\nours: {ours}, dt = {args.dt}")
        t = time.perf_counter()
        res = simulate(sys, (0.0, T), x0, method=ours, dt=args.dt, save_every=10)
        wall = time.perf_counter() - t
        err = np.max(np.abs(res.x[-1] - ref)) / scale
        dh = np.max(np.abs(res.H - H0)) / H0
        rows = [(ours, args.dt, wall, res.nsteps, err, dh)]
        rows += matched_scipy_rows(sys, T, x0, ref, err, lambda sol: abs(sol.H[-1] - H0) / H0)
        print_rows(rows, ours, "rel. energy error")


if __name__ == "__main__":
    main()
