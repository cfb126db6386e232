"""LC ladder whose nodes are pairs of capacitors kept in parallel by constraints (a
pH-DAE with n = 3N states and N multipliers): midpoint DAE method vs SUNDIALS IDA vs
``solve_ivp`` (Radau, BDF) on the explicit reduced model (``DescriptorPHS.to_phs()``).

Cell i: node i holds C_a and C_b (charges qa_i, qb_i) with the constraint va_i = vb_i;
inductor L (flux φ_i) from node i to node i+1, the last one to ground.  Lossless, no
input.  Reference: ``expm(A T) ξ0`` of the reduced model.  Each competitor runs at the
loosest tolerance (from a list) whose final node-voltage error is at most the
midpoint's, i.e. at matched accuracy.  Reports wall time, steps and the relative energy
error over the run.

    python benchmarks/dae_ladder.py [--cells 100] [--t-end 20] [--dt 0.01]
"""

from __future__ import annotations

import argparse
import importlib.util
import time

import numpy as np
import scipy.integrate as si
import scipy.sparse as sps
from scipy.linalg import expm

from porthamiltonian.descriptor import DescriptorPHS
from porthamiltonian.simulate import simulate


def ladder(cells: int, ca: float = 1.0, cb: float = 2.0, ind: float = 1.0) -> DescriptorPHS:
    n = 3 * cells  # (qa_i, qb_i, φ_i) per cell
    qa, qb, ph = (np.arange(cells) * 3 + k for k in range(3))
    J = sps.lil_matrix((n, n))
    for i in range(cells):
        J[qa[i], ph[i]], J[ph[i], qa[i]] = -1.0, 1.0  # current φ_i/L leaves node i
        if i + 1 < cells:
            J[qa[i + 1], ph[i]], J[ph[i], qa[i + 1]] = 1.0, -1.0  # ... and enters node i+1
    Q = sps.diags(np.tile([1 / ca, 1 / cb, 1 / ind], cells))
    B = np.zeros((n, cells))
    B[qa, np.arange(cells)], B[qb, np.arange(cells)] = 1.0, -1.0
    return DescriptorPHS(J=sps.csr_array(J), Q=sps.csr_array(Q), B=B, check=False,
                         states=[f"{k}{i}" for i in range(cells) for k in ("qa", "qb", "phi")])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cells", type=int, default=100)
    ap.add_argument("--t-end", type=float, default=20.0)
    ap.add_argument("--dt", type=float, default=0.01)
    args = ap.parse_args()
    N, T = args.cells, args.t_end
    d = ladder(N)
    v0 = np.exp(-(((np.arange(N) / N - 0.3) / 0.05) ** 2))  # voltage bump on the nodes
    x0 = np.zeros(3 * N)
    x0[0::3], x0[1::3] = v0 * 1.0, v0 * 2.0  # qa = Ca v, qb = Cb v (on the constraint)
    red = d.to_phs()
    keep = [d.states.index(s) for s in red.states]
    num = red.compile()
    A = num.A.toarray() if sps.issparse(num.A) else np.asarray(num.A)
    xi0 = x0[keep]
    exact = expm(A * T) @ xi0
    node = [red.states.index(f"qa{i}") if f"qa{i}" in red.states else red.states.index(f"qb{i}")
            for i in range(N)]
    scale_v = np.array([1.0 if red.states[j].startswith("qa") else 0.5 for j in node])
    v_exact = exact[node] * scale_v

    def node_error(x_full: np.ndarray) -> float:
        return float(np.max(np.abs(x_full[0::3] - v_exact)))

    rows = []
    t = time.perf_counter()
    res = simulate(d, (0.0, T), x0, dt=args.dt, save_every=10**9)
    wall = time.perf_counter() - t
    err_mid = node_error(res.x[-1])
    rows.append(("midpoint DAE", wall, res.nsteps, err_mid,
                 np.max(np.abs(res.H - res.H[0])) / res.H[0]))
    if importlib.util.find_spec("sksundae") is not None:
        for rtol in (1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11):
            t = time.perf_counter()
            r = simulate(d, (0.0, T), x0, method="ida", t_eval=[0.0, T], rtol=rtol,
                         atol=rtol * 1e-2)
            wall = time.perf_counter() - t
            if node_error(r.x[-1]) <= err_mid:
                rows.append((f"IDA (rtol={rtol:g})", wall, r.nfev, node_error(r.x[-1]),
                             abs(r.H[-1] - r.H[0]) / r.H[0]))
                break
    for method in ("Radau", "BDF"):
        for rtol in (1e-6, 1e-7, 1e-8, 1e-9, 1e-10, 1e-11, 1e-12):
            t = time.perf_counter()
            sol = si.solve_ivp(lambda _, y: num.A @ y, (0.0, T), xi0, method=method,
                               rtol=rtol, atol=rtol * 1e-2, jac=num.A)
            wall = time.perf_counter() - t
            err = float(np.max(np.abs(sol.y[node, -1] * scale_v - v_exact)))
            if err <= err_mid:
                e = abs(num.energy(sol.y[:, -1]) - num.energy(xi0)) / num.energy(xi0)
                rows.append((f"{method} on to_phs() (rtol={rtol:g})", wall, sol.t.size - 1,
                             err, e))
                break
    print(f"{N} cells: {3 * N} states, {N} constraints; T = {T} s")
    print(f"{'method':32s} {'wall [s]':>9s} {'steps/nfev':>10s} {'node-v error':>12s} "
          f"{'energy err':>10s} {'time / midpoint':>15s}")
    for name, wall, steps, err, e in rows:
        print(f"{name:32s} {wall:9.3f} {steps:10d} {err:12.2e} {e:10.1e} "
              f"{wall / rows[0][1]:15.2f}")


if __name__ == "__main__":
    main()
