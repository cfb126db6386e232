"""Shared by the simulation benchmarks: solve_ivp runs at accuracy matched to ours."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import numpy as np

from porthamiltonian.simulate import simulate

Row = tuple[str, float, float, int, float, float]

#: each reported wall time is the best of this many runs (the first run of a process
#: also pays one-time costs such as coefficient tables; the machine may be shared)
REPEATS = 3


def timed(run: Callable[[], Any], repeats: int = REPEATS,
          clock: Callable[[], float] = time.perf_counter) -> tuple[Any, float]:
    """``run()``'s result and its best time (s) over ``repeats`` runs: wall time, or CPU
    time with ``clock=time.process_time``."""
    best, res = np.inf, None
    for _ in range(repeats):
        t = clock()
        res = run()
        best = min(best, clock() - t)
    return res, best


def matched_scipy_rows(system: Any, t_end: float, x0: np.ndarray, exact: np.ndarray,
                       target: float, energy: Callable[[Any], float],
                       methods: tuple[str, ...] = ("RK45", "Radau", "BDF"),
                       clock: Callable[[], float] = time.perf_counter) -> list[Row]:
    """For each of ``methods``: the run at the loosest rtol in 1e-3 … 1e-12 whose final
    relative error is ≤ ``target``, as (method, rtol, time s, nfev, error, energy(res));
    time (wall, or ``clock``) the best of :data:`REPEATS` runs."""
    scale = np.max(np.abs(exact))
    rows = []
    for method in methods:
        for rtol in 10.0 ** -np.arange(3, 13):
            def run(method=method, rtol=rtol):
                return simulate(system, (0.0, t_end), x0, method=method, rtol=rtol,
                                atol=rtol * 1e-3, t_eval=[0.0, t_end])
            sol = run()
            err = float(np.max(np.abs(sol.x[-1] - exact)) / scale)
            if err <= target or rtol == 1e-12:
                sol, wall = timed(run, clock=clock)
                rows.append((method, float(rtol), wall, int(sol.nfev), err, energy(sol)))
                break
    return rows


def print_rows(rows: list[Row], ours: str, energy_label: str) -> None:
    """The Markdown table of the rows, ours first, and the wall-time ratios."""
    print(f"| method | dt or rtol | wall (s) | steps / nfev | rel. error | {energy_label} |")
    print("|---|---|---|---|---|---|")
    for name, par, wall, steps, err, en in rows:
        print(f"| {name} | {par:g} | {wall:.3f} | {steps} | {err:.2e} | {en:.2e} |")
    base = rows[0][2]
    print(f"wall time / {ours} wall time: "
          + ", ".join(f"{r[0]} {r[2] / base:.1f}" for r in rows[1:]))
