"""1000-element Timoshenko cantilever: 10^4 implicit-midpoint steps vs solve_ivp.

The beam (steel, 1 m, 50 × 100 mm, k = 1: 4000 states) starts with the velocity field
of its first two discrete modes and vibrates freely for five periods of the first.
Reference: the exact solution of the semi-discrete system (two modes:
e_p(t) = Σ c_i v_i cos ω_i t, x_q(t) = Σ c_i D v_i sin(ω_i t)/ω_i).  Error: the final
state in the energy norm, relative.  Each solve_ivp method (RK45, DOP853, Radau and BDF with the
sparse Jacobian) runs at the loosest ``rtol`` from a list whose error is at most the
midpoint's (matched accuracy); a method that needs more than ``--budget`` seconds is
reported as such.

    python benchmarks/distributed_timoshenko.py [--elements 1000] [--steps 10000]
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
    ap.add_argument("--steps", type=int, default=10_000)
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
    num = sys.compile()
    A_ = num.A.tocsr()
    print(f"{sys.n_states} states, ω1 = {omega[0]:.2f} rad/s, ω2 = {omega[1]:.2f} rad/s, "
          f"T = {t_end:.4g} s (five periods)")
    t0 = time.perf_counter()
    res = simulate(sys, (0, t_end), x0, method="midpoint", dt=t_end / args.steps,
                   save_every=args.steps)
    t_mid = time.perf_counter() - t0
    err_mid = energy_error(model, res.x[-1], ref)
    drift = abs(res.H[-1] - res.H[0]) / res.H[0]
    print(f"{'method':>8} {'rtol':>8} {'time [s]':>9} {'error':>9} {'ratio':>7}")
    print(f"{'midpoint':>8} {'-':>8} {t_mid:>9.2f} {err_mid:>9.2e} {1.0:>7.1f}"
          f"   (relative energy drift {drift:.1e})")

    def f(t, x):
        return A_ @ x

    for method in ("RK45", "DOP853", "Radau", "BDF"):
        kw = {"jac": A_} if method in ("Radau", "BDF") else {}
        done = False
        for rtol in (1e-3, 1e-4, 1e-5, 1e-6, 1e-7, 1e-8):
            t0 = time.perf_counter()
            deadline = t0 + args.budget

            def fun(t, x, deadline=deadline):
                if time.perf_counter() > deadline:
                    raise TimeoutError
                return f(t, x)
            try:
                sol = solve_ivp(fun, (0, t_end), x0, method=method, rtol=rtol,
                                atol=rtol * 1e-3 * np.abs(x0).max(), t_eval=[t_end], **kw)
            except TimeoutError:
                print(f"{method:>8} {rtol:>8.0e} {'>' + str(args.budget):>9} {'-':>9} "
                      f"{'>' + str(round(args.budget / t_mid)):>7}")
                done = True
                break
            t_run = time.perf_counter() - t0
            err = energy_error(model, sol.y[:, -1], ref)
            if err <= err_mid:
                print(f"{method:>8} {rtol:>8.0e} {t_run:>9.2f} {err:>9.2e} "
                      f"{t_run / t_mid:>7.1f}")
                done = True
                break
        if not done:
            print(f"{method:>8}: no rtol in the list reached the midpoint's error")


if __name__ == "__main__":
    main()
