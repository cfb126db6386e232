"""1000-element Timoshenko cantilever: 10^4 implicit-midpoint steps (and 10^3 steps of
3-stage Gauss–Legendre) vs solve_ivp.

The beam (steel, 1 m, 50 × 100 mm, k = 1: 4000 states) starts with the velocity field
of its first two discrete modes and vibrates freely for five periods of the first.
Reference: the exact solution of the semi-discrete system (two modes:
e_p(t) = Σ c_i v_i cos ω_i t, x_q(t) = Σ c_i D v_i sin(ω_i t)/ω_i).  Error: the final
state in the energy norm, relative.  Each solve_ivp method (RK45, DOP853, Radau and BDF with the
sparse Jacobian) runs at the loosest ``rtol`` from a list whose error is at most the
run's of ours (matched accuracy); a method that needs more than ``--budget`` seconds is
reported as such.

    python benchmarks/distributed_timoshenko.py [--elements 1000]
        [--ours midpoint:10000 gauss3:1000] [--budget 60]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import scipy.sparse as sps
import scipy.sparse.linalg as spla
from scipy.integrate import solve_ivp

from porthamiltonian import simulate
from porthamiltonian.distributed import timoshenko

L, b, h = 1.0, 0.05, 0.1
E, nu, rho, kappa = 210e9, 0.3, 7850.0, 5 / 6
A, I = b * h, b * h**3 / 12
RA, RI, EI, KGA = rho * A, rho * I, E * I, kappa * E / (2 * (1 + nu)) * A


def energy_error(model, x, ref):
    Q = model.system.Q
    d = x - ref
    return float(np.sqrt(d @ (Q @ d) / (ref @ (Q @ ref))))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--elements", type=int, default=1000)
    ap.add_argument("--ours", nargs="+", default=["midpoint:10000", "gauss3:1000"],
                    help="our methods and their numbers of steps, as method:steps")
    ap.add_argument("--budget", type=float, default=60.0)
    args = ap.parse_args()
    model = timoshenko(L, RA, RI, EI, KGA, elements=args.elements, degree=1)
    sys = model.system
    K, mass = model.stiffness()
    lam, vecs = spla.eigsh(K.tocsc(), k=2, M=sps.diags_array(mass).tocsc(), sigma=-1.0)
    omega = np.sqrt(lam)
    t_end = 5 * 2 * np.pi / omega[0]
    p = model.disc.momentum_states
    q = np.setdiff1d(np.arange(sys.n_states), p)
    D = sps.csr_array(sys.J)[q][:, p]
    c = np.array([1.0, 0.5]) / np.max(np.abs(vecs), axis=0)

    def exact(t):
        x = np.zeros(sys.n_states)
        x[p] = mass * (vecs @ (c * np.cos(omega * t)))
        x[q] = D @ (vecs @ (c * np.sin(omega * t) / omega))
        return x

    x0, ref = exact(0.0), exact(t_end)
    A_ = sys.compile().A.tocsr()
    print(f"{sys.n_states} states, ω1 = {omega[0]:.2f} rad/s, ω2 = {omega[1]:.2f} rad/s, "
          f"T = {t_end:.4g} s (five periods)")
    for spec in args.ours:
        method, steps = spec.split(":")
        compare(model, A_, x0, ref, t_end, method, int(steps), args.budget)


def compare(model, A_, x0, ref, t_end, method, steps, budget) -> None:
    """Our ``method`` with ``steps`` fixed steps, then each solve_ivp method at the loosest
    rtol whose error is at most ours (wall times: best of two runs)."""
    res, t_ours = _best(lambda: simulate(model.system, (0, t_end), x0, method=method,
                                         dt=t_end / steps, save_every=steps))
    err_ours = energy_error(model, res.x[-1], ref)
    drift = abs(res.H[-1] - res.H[0]) / res.H[0]
    print(f"\nours: {method}, {steps} steps")
    print(f"{'method':>8} {'rtol':>8} {'time [s]':>9} {'error':>9} {'ratio':>7}")
    print(f"{method:>8} {'-':>8} {t_ours:>9.2f} {err_ours:>9.2e} {1.0:>7.1f}"
          f"   (relative energy drift {drift:.1e})")

    def f(t, x):
        return A_ @ x

    for name in ("RK45", "DOP853", "Radau", "BDF"):
        kw = {"jac": A_} if name in ("Radau", "BDF") else {}
        done = False
        for rtol in (1e-3, 3e-4, 1e-4, 3e-5, 1e-5, 3e-6, 1e-6, 1e-7, 1e-8, 1e-9, 1e-10):
            deadline = time.perf_counter() + budget

            def fun(t, x, deadline=deadline):
                if time.perf_counter() > deadline:
                    raise TimeoutError
                return f(t, x)

            def run(name=name, rtol=rtol, fun=fun, kw=kw):
                return solve_ivp(fun, (0, t_end), x0, method=name, rtol=rtol,
                                 atol=rtol * 1e-3 * np.abs(x0).max(), t_eval=[t_end], **kw)
            try:
                t0 = time.perf_counter()
                sol = run()
                t_run = time.perf_counter() - t0
            except TimeoutError:
                print(f"{name:>8} {rtol:>8.0e} {'>' + str(budget):>9} {'-':>9} "
                      f"{'>' + str(round(budget / t_ours)):>7}")
                done = True
                break
            err = energy_error(model, sol.y[:, -1], ref)
            if err <= err_ours:
                t0 = time.perf_counter()
                run(fun=f)  # the second run without the deadline check
                t_run = min(t_run, time.perf_counter() - t0)
                rel = abs(_energy(model, sol.y[:, -1]) / _energy(model, x0) - 1.0)
                print(f"{name:>8} {rtol:>8.0e} {t_run:>9.2f} {err:>9.2e} "
                      f"{t_run / t_ours:>7.1f}   (relative energy drift {rel:.1e})")
                done = True
                break
        if not done:
            print(f"{name:>8}: no rtol in the list reached our error")


def _energy(model, x) -> float:
    return float(0.5 * x @ (model.system.Q @ x))


def _best(run, repeats: int = 2):
    best, res = np.inf, None
    for _ in range(repeats):
        t0 = time.perf_counter()
        res = run()
        best = min(best, time.perf_counter() - t0)
    return res, best


if __name__ == "__main__":
    main()
