r"""The objective of :func:`~porthamiltonian.ensemble.fit.fit`: weighted residuals of a
run at a parameter point, their central-difference sensitivities, and one
:func:`scipy.optimize.least_squares` run (a start) — the part that travels to the
worker processes of a multi-start (:func:`start_task`).

A run that fails at a trial point (a :class:`SimulationError`, values the model refuses,
non-finite numbers, fewer saved times than data times) gives the residual vector
:attr:`Problem.fail_residual` everywhere: its cost is :data:`FAIL_FACTOR` times the
cost of predicting zero for every measurement, far above any real misfit, so the trust
region shrinks and the optimizer steps back.  The sensitivities of such a point use the
side that runs (one-sided differences); a column whose both sides fail is zero for the
optimizer and NaN for the statistics.  The mathematics and the choice of steps are in
:mod:`porthamiltonian.ensemble.fit`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ModelError, SimulationError
from . import runner
from .fit_data import Bounds

__all__ = ["Target", "Problem", "Outcome", "Objective", "solve", "start_task", "series_of",
           "FD_STEP", "FAIL_FACTOR", "ROLES", "STORED", "RUN_ERRORS"]

#: relative finite-difference step of the sensitivities
FD_STEP = 1e-4
#: a failed run costs this many times the cost of predicting zero everywhere
FAIL_FACTOR = 1e6
#: errors of a run at a trial point that make it a failed point, not a crash
RUN_ERRORS = (SimulationError, ModelError, ArithmeticError, ValueError,
              np.linalg.LinAlgError)


@dataclass(frozen=True)
class Target:
    """One measured variable: the data ``column``, the result variable's ``name`` and
    ``role`` (``None``: look it up by name), ``unit`` and ``kind``."""

    column: str
    name: str
    role: str | None
    unit: str
    kind: str


@dataclass(frozen=True)
class Problem:
    """What every start needs (picklable: it travels to the workers)."""

    bounds: Bounds
    typical: np.ndarray
    targets: tuple[Target, ...]
    times: np.ndarray
    measured: np.ndarray            # (n_t, n_var), SI
    sigma: np.ndarray               # (n_var,), SI
    max_nfev: int | None = None
    tol: float = 1e-8

    @property
    def fail_residual(self) -> float:
        zero = 0.5 * float(np.sum((self.measured / self.sigma) ** 2))
        cost = FAIL_FACTOR * max(1.0, zero)
        return math.sqrt(2.0 * cost / self.measured.size)


@dataclass
class Outcome:
    """One least-squares run: its start, optimum, cost (``inf`` when the run fails at
    the optimum), SciPy's status, and how many simulations it took."""

    x0: np.ndarray
    x: np.ndarray
    cost: float
    success: bool
    message: str
    nsim: int
    failure: str = ""


ROLES = {"x": "state", "u": "input", "y": "output", "lambda": "multiplier"}
STORED = {"state": ("states", "x"), "input": ("inputs", "u"), "output": ("outputs", "y"),
           "multiplier": ("multipliers", "lam")}


def series_of(res: Any, target: Target) -> np.ndarray:
    """The target's series in ``res`` (by role when the column named one)."""
    if target.role in STORED:
        names, data = (getattr(res, a, None) for a in STORED[target.role])
        if names is not None and target.name in names:
            return np.asarray(data, dtype=float)[:, list(names).index(target.name)]
    return np.asarray(res[target.name], dtype=float)


class Objective:
    """Residuals and central-difference sensitivities at parameter points (module
    docstring), counting the simulations and remembering the last failure."""

    def __init__(self, prep: Any, problem: Problem) -> None:
        self.prep, self.problem = prep, problem
        self.nsim = 0
        self.failure = ""
        self._cache: dict[bytes, np.ndarray | None] = {}

    def simulate(self, theta: np.ndarray) -> np.ndarray | None:
        """Simulated series ``(n_t, n_var)`` at ``theta``, or ``None`` if the run fails."""
        values = {n: float(v) for n, v in zip(self.problem.bounds.names, theta, strict=True)}
        self.nsim += 1
        try:
            res = runner.simulate_at(self.prep, values)
            t = np.asarray(res.t, dtype=float)
            cols = [series_of(res, tg) for tg in self.problem.targets]
        except RUN_ERRORS as err:
            self.failure = f"{type(err).__name__}: {err}"
            return None
        times = self.problem.times
        if t.shape != times.shape or not np.allclose(t, times, rtol=1e-12, atol=0.0):
            self.failure = (f"the run saved {t.size} times, not the {times.size} data times "
                            f"(it ended at t = {t[-1] if t.size else float('nan'):g} s)")
            return None
        sim = np.column_stack(cols)
        if not np.all(np.isfinite(sim)):
            i = int(np.argwhere(~np.isfinite(sim))[0, 0])
            self.failure = f"the run gives non-finite values at t = {times[i]:g} s"
            return None
        return sim

    def residual(self, theta: np.ndarray) -> np.ndarray | None:
        """Weighted residuals (stacked variable by variable), ``None`` on failure."""
        key = np.asarray(theta, dtype=float).tobytes()
        if key not in self._cache:
            sim = self.simulate(theta)
            r = None if sim is None else \
                ((sim - self.problem.measured) / self.problem.sigma).ravel(order="F")
            self._cache = {key: r}  # least_squares asks for J at the point it just ran
        return self._cache[key]

    def penalized(self, theta: np.ndarray) -> np.ndarray:
        r = self.residual(theta)
        if r is None:
            return np.full(self.problem.measured.size, self.problem.fail_residual)
        return r

    def jacobian(self, theta: np.ndarray, *, strict: bool = False) -> np.ndarray:
        """Central differences (one-sided at a bound).  A column whose runs fail is
        zero (``strict``: NaN)."""
        b = self.problem.bounds
        theta = np.asarray(theta, dtype=float)
        r0 = self.residual(theta)
        jac = np.zeros((self.problem.measured.size, theta.size))
        for j in range(theta.size):
            h = FD_STEP * max(abs(theta[j]), 1e-2 * self.problem.typical[j])
            room_up, room_down = b.high[j] - theta[j], theta[j] - b.low[j]
            if h > room_up and h > room_down:  # bounds narrower than the step
                h = max(room_up, room_down)
            up = self._shifted(theta, j, h) if h <= room_up else None
            down = self._shifted(theta, j, -h) if h <= room_down else None
            if up is not None and down is not None:
                col = (up[1] - down[1]) / (up[0] - down[0])
            elif up is not None and r0 is not None:
                col = (up[1] - r0) / up[0]
            elif down is not None and r0 is not None:
                col = (r0 - down[1]) / down[0]
            else:
                col = np.full(jac.shape[0], np.nan if strict else 0.0)
            jac[:, j] = col
        return jac

    def _shifted(self, theta: np.ndarray, j: int, h: float) -> tuple[float, np.ndarray] | None:
        x = theta.copy()
        x[j] = theta[j] + h
        step = x[j] - theta[j]  # the step as represented
        sim = self.simulate(x)
        if sim is None:
            return None
        return step, ((sim - self.problem.measured) / self.problem.sigma).ravel(order="F")


def solve(prep: Any, problem: Problem, x0: np.ndarray) -> Outcome:
    """One ``least_squares`` run from ``x0``."""
    from scipy.optimize import least_squares

    obj = Objective(prep, problem)
    b = problem.bounds
    x0 = np.clip(np.asarray(x0, dtype=float), b.low, b.high)
    sol = least_squares(obj.penalized, x0, jac=obj.jacobian, bounds=(b.low, b.high),
                        x_scale=problem.typical, method="trf", max_nfev=problem.max_nfev,
                        ftol=problem.tol, xtol=problem.tol)
    r = obj.residual(sol.x)
    cost = math.inf if r is None else 0.5 * float(r @ r)
    return Outcome(x0, np.asarray(sol.x, dtype=float), cost, bool(sol.success) and r is not None,
                    str(sol.message), obj.nsim, "" if r is not None else obj.failure)


def start_task(token: str, payload: bytes, problem: Problem, x0: np.ndarray) -> Outcome:
    """A start on a worker: the job compiled once per process, then one whole fit."""
    return solve(runner.prepared(token, payload), problem, x0)
