"""Cost of the simulator around the linear solves: the 2000-state RLC ladder, unforced and
driven by a voltage source, ``simulate(model, ..., dt=h)`` with the default method
(``auto`` runs the implicit midpoint rule: H is quadratic) against a bare loop of
``scipy.sparse.linalg.splu(...).solve`` doing the same steps.

The bare loop is the floor of a midpoint step of an LTI system — one sparse matvec and
one LU solve per step, nothing recorded::

    lu = splu(I − h/2 A);  for k: d = lu.solve(h (A x + B u(t_k + h/2)));  x += d

``simulate`` runs three ways: with the default recording (every step saved: t, x, u, y,
H, the instantaneous powers and the per-step power balance), with nothing saved but the
end (``save_every=10**9``), and streamed to a CSV file (``stream=``).  Reports CPU time
per step (``time.process_time``, best of ``--repeats`` runs) and the ratio to the bare
loop.

    python benchmarks/engine_ladder.py [--cells 1000] [--steps 4000] [--dt 0.02]
        [--repeats 5] [--inputs 0 1]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time

import numpy as np
import scipy.sparse as sps
from scipy.sparse.linalg import splu
from simulate_matched import timed

from porthamiltonian import PHS
from porthamiltonian.simulate import simulate


def ladder(cells: int, inputs: int, r: float = 0.05) -> PHS:
    """LC ladder of unit L and C, x = (q_1, φ_1, …), resistance ``r`` in series with each
    L; with ``inputs=1`` a voltage source ``V`` on the first inductor (G = e_2), with
    ``inputs=0`` unforced (the ladder of ``simulate_ladder.py``)."""
    n = 2 * cells
    up = np.ones(n - 1)
    J = sps.diags([up, -up], [1, -1], format="csr")
    R = sps.diags([np.tile([0.0, r], cells)], [0], format="csr")
    G = sps.csr_array(([1.0], ([1], [0])), shape=(n, 1)) if inputs else None
    return PHS(J=J, R=R, G=G, Q=sps.identity(n, format="csr"), check=False)


def source(t: float) -> float:
    """The voltage of the source (V)."""
    return np.sin(0.5 * t)


def bare_loop(model: PHS, x0: np.ndarray, h: float, steps: int) -> np.ndarray:
    """The midpoint steps with nothing but the matvec and the LU solve."""
    num = model.compile()
    A, B = sps.csc_matrix(num.A), np.asarray(num.B.toarray() if sps.issparse(num.B) else num.B)
    lu = splu(sps.csc_matrix(sps.identity(A.shape[0]) - 0.5 * h * A))
    hA, hB = h * A, h * B
    x = x0.copy()
    for k in range(steps):
        if hB.shape[1]:
            d = lu.solve(hA @ x + hB[:, 0] * source((k + 0.5) * h))
        else:
            d = lu.solve(hA @ x)
        x += d
    return x


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cells", type=int, default=1000)
    ap.add_argument("--steps", type=int, default=4000)
    ap.add_argument("--dt", type=float, default=0.02)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--inputs", type=int, nargs="+", default=[0, 1], choices=[0, 1],
                    help="0: unforced ladder, 1: driven by a voltage source")
    args = ap.parse_args()
    for inputs in args.inputs:
        table(args, inputs)


def table(args: argparse.Namespace, inputs: int) -> None:
    """Time the runs on the ladder with ``inputs`` inputs and print their table."""
    model, h, K = ladder(args.cells, inputs), args.dt, args.steps
    u = source if inputs else None
    n = 2 * args.cells
    s = np.arange(n) / n
    x0 = np.exp(-(((s - 0.3) / 0.005) ** 2))
    span = (0.0, K * h)
    x_bare, bare = timed(lambda: bare_loop(model, x0, h, K), args.repeats, time.process_time)
    with tempfile.TemporaryDirectory() as tmp:
        csv = os.path.join(tmp, "run.csv")
        runs = {
            "simulate, default recording (every step saved)":
                lambda: simulate(model, span, x0, u=u, dt=h),
            "simulate, end point only (save_every=10**9)":
                lambda: simulate(model, span, x0, u=u, dt=h, save_every=10**9),
            "simulate, streamed to CSV (every step)":
                lambda: simulate(model, span, x0, u=u, dt=h, stream=csv),
        }
        rows = []
        for name, run in runs.items():
            res, cpu = timed(run, args.repeats, time.process_time)
            assert res.nsteps == K and res.method == "midpoint", (res.nsteps, res.method)
            dev = float(np.max(np.abs(res.x[-1] - x_bare)) / np.max(np.abs(x_bare)))
            rows.append((name, cpu, dev))
    print(f"\nRLC ladder, {n} states, {inputs} input(s), {K} midpoint steps of h = {h}; "
          f"CPU time per step, best of {args.repeats}")
    print("| run | µs/step | / bare loop | max rel. deviation of x(T) from the bare loop |")
    print("|---|---|---|---|")
    print(f"| bare `splu(...).solve` loop | {1e6 * bare / K:.1f} | 1.00 | — |")
    for name, cpu, dev in rows:
        print(f"| {name} | {1e6 * cpu / K:.1f} | {cpu / bare:.2f} | {dev:.1e} |")


if __name__ == "__main__":
    main()
