"""LC / RLC ladder with 2000 states: implicit midpoint (the default method) and the 3- and
5-stage Gauss–Legendre methods vs solve_ivp (RK45, Radau, BDF), side by side in one run.

Each solve_ivp method runs at the loosest ``rtol`` (from a list) whose final-state error is
at most ours, i.e. at matched accuracy.  Wall times are the best of three runs.  The
reference is the exact solution ``expm(A T) x0`` (SciPy ``expm_multiply``).  Reports wall
time, steps, final-state error and the relative energy error (lossless ladder) or the
largest power residual (lossy ladder, ours only: solve_ivp exposes no step-wise
quantities).

    python benchmarks/simulate_ladder.py [--cells 1000] [--t-end 50]
        [--methods midpoint:0.02 gauss3:0.5 gauss5:1.5]
"""

from __future__ import annotations

import argparse

import numpy as np
import scipy.sparse as sps
from scipy.sparse.linalg import expm_multiply
from simulate_matched import Row, matched_scipy_rows, print_rows, timed

from porthamiltonian import PHS
from porthamiltonian.simulate import METHODS, simulate


def ladder(cells: int, r: float) -> PHS:
    """Ladder of unit C and L: x = (q_1, φ_1, …); resistance r in series with each L."""
    n = 2 * cells
    up = np.ones(n - 1)
    J = sps.diags([up, -up], [1, -1], format="csr")
    R = sps.diags([np.tile([0.0, r], cells)], [0], format="csr")
    return PHS(J=J, R=R, Q=sps.identity(n, format="csr"), check=False)


def run(cells: int, t_end: float, method: str, dt: float, r: float) -> list[tuple]:
    sys = ladder(cells, r)
    n = 2 * cells
    s = np.arange(n) / n
    x0 = np.exp(-(((s - 0.3) / 0.005) ** 2))  # charge/flux bump ~10 cells wide
    num = sys.compile()
    exact = expm_multiply(num.A * t_end, x0)
    scale = np.max(np.abs(exact))
    rows: list[Row] = []
    res, wall = timed(lambda: simulate(sys, (0.0, t_end), x0, method=method, dt=dt,
                                       save_every=10**9))
    err = np.max(np.abs(res.x[-1] - exact)) / scale
    rows.append((method, dt, wall, res.nsteps, err, _energy(res, r)))
    return rows + matched_scipy_rows(sys, t_end, x0, exact, err, lambda sol: _energy(sol, r))


def _energy(res, r: float) -> float:
    if r != 0.0 and res.method not in METHODS:
        return float("nan")  # solve_ivp has no step-wise energy bookkeeping
    if r == 0.0:
        return float(abs(res.H[-1] - res.H[0]) / res.H[0])
    return float(np.max(np.abs(res.power_residual)) / res.H[0])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cells", type=int, default=1000)
    ap.add_argument("--t-end", type=float, default=50.0)
    ap.add_argument("--methods", nargs="+", default=["midpoint:0.02", "gauss3:0.5",
                                                       "gauss5:1.5"],
                    help="our methods with their fixed steps, as method:dt")
    args = ap.parse_args()
    ours = [(m, float(dt)) for m, dt in (spec.split(":") for spec in args.methods)]
    for r in (0.0, 0.05):
        for method, dt in ours:
            kind = "LC (lossless)" if r == 0 else f"RLC (r = {r} Ω)"
            print(f"\n{kind}, {2 * args.cells} states, t_end = {args.t_end} s, ours: {method}")
            rows = run(args.cells, args.t_end, method, dt, r)
            print_rows(rows, method, "rel. energy error" if r == 0 else
                       "max power residual / H0")


if __name__ == "__main__":
    main()
