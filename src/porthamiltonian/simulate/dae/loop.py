r"""The stepping loop for descriptor pH systems (pH-DAEs).

Steps of a DAE run (:func:`prepare_dae` and :func:`run_dae`):

1. the model is compiled once (:class:`~porthamiltonian.compiled.descriptor.CompiledDescriptor`
   or another :class:`~porthamiltonian.compiled.protocol.CompiledDAE`);
2. the initial point is made consistent (:mod:`.initialize`): algebraic states and
   multipliers are computed from ``x0``; a violated constraint ``B(x0)ᵀz(x0) ≠ 0``
   raises :class:`~porthamiltonian.ModelError` naming it;
3. fixed steps of at most ``dt`` (default ``(t1 − t0)/1000``; steps land on ``t1`` and
   on ``t_eval``) of the structure-preserving midpoint / discrete-gradient step
   (:mod:`.midpoint`; a step whose Newton iteration fails is halved, down to
   ``dt·2⁻¹⁰``), or the whole run handed to SUNDIALS IDA (:mod:`.ida`);
4. at every saved point of a model with algebraic states, those states are made
   consistent again (the step equations hold at midpoints; the algebraic components
   at the grid points carry no energy, :math:`\nabla H^\top N = z^\top E N = 0`).

The result is a :class:`~..output.dae_result.DAEResult`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import SimulationError
from ..linalg.newton import NewtonFailure
from ..options import MAX_HALVINGS
from ..output.dae_result import DAEResult
from ..output.recorder import Recorder
from ..problem.inputs import InputSignal
from .initialize import check_constraints, consistent_point
from .midpoint import DAEMidpoint

__all__ = ["prepare_dae", "run_dae", "DAERun"]



class _View:
    """What :class:`~..output.recorder.Recorder` reads from a run (``n``, ``m``,
    ``u(t, x)``, ``num``)."""

    def __init__(self, model: Any, signal: InputSignal) -> None:
        self.num, self.signal = model, signal
        self.n, self.m = model.n, model.m

    def u(self, t: float, x: np.ndarray) -> np.ndarray:
        return self.signal(t, x)


@dataclass
class DAERun:
    """A DAE run made ready: the consistent start ``(x, λ, ẋ)``, the step grid (times,
    step lengths, which are saved) and the recorders of states and multipliers."""

    x: np.ndarray
    lam: np.ndarray
    xdot: np.ndarray
    grid: np.ndarray
    steps: np.ndarray
    save: np.ndarray
    h: float
    rec: Recorder
    series: _Series

    def output_times(self) -> np.ndarray:
        """The saved times, the start included."""
        t = self.grid[self.save]
        return t if self.save[0] else np.concatenate([[self.grid[0]], t])


def prepare_dae(problem: Any, options: Any, name: str) -> DAERun:
    """Consistent initial point, step grid and recorders of a DAE ``problem``."""
    model, signal = problem.compiled, problem.signal
    t0, t1 = problem.t_span
    x, lam0, xdot0 = consistent_point(model, t0, problem.x0, signal)
    check_constraints(model, x)
    h = options.dt if options.dt is not None else (t1 - t0) / 1000.0
    grid, steps, save = _grid(t0, t1, h, options.t_eval, options.save_every)
    rec = Recorder(_View(model, signal), problem.states, problem.inputs, problem.outputs, name)
    series = _Series(model, int(save.sum()) + (0 if save[0] else 1))
    return DAERun(x, lam0, xdot0, grid, steps, save, h, rec, series)


def run_dae(stepper: DAEMidpoint, problem: Any, options: Any, name: str) -> DAEResult:
    """Fixed steps of the one-step DAE method ``stepper`` over ``problem.t_span``."""
    run = prepare_dae(problem, options, name)
    return _run_steps(stepper, problem.compiled, problem.signal, run.rec, run.series, run.grid,
                      run.steps, run.save, run.x, run.lam, run.h * 2.0**-MAX_HALVINGS,
                      options.progress)


def _grid(t0: float, t1: float, h: float, t_eval: Sequence[float] | None, every: int
          ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Step times (landing on ``t_eval`` and ``t1``), the step of each and the saved
    times.  Steps of one segment are equal (the nominal ``(stop − start)/n``, not the
    rounded differences of the times), so an LTI model factors its matrix once."""
    stops = [t1] if t_eval is None else [float(t) for t in t_eval if t > t0]
    points, steps = [np.array([t0])], []
    flags, prev = [np.array([t_eval is None or t_eval[0] == t0])], t0
    for stop in stops:
        n = max(1, math.ceil((stop - prev) / h - 1e-9))
        points.append(np.linspace(prev, stop, n + 1)[1:])
        steps.append(np.full(n, (stop - prev) / n))
        flag = np.zeros(n, dtype=bool)
        if t_eval is None:
            flag[every - 1::every] = True
        flag[-1] = True
        flags.append(flag)
        prev = stop
    return np.concatenate(points), np.concatenate(steps), np.concatenate(flags)


class _Series:
    """Multipliers and constraint residuals at the saved points."""

    def __init__(self, model: Any, size: int) -> None:
        self.model = model
        self.lam = np.zeros((size, model.k))
        self.residual = np.zeros(size)
        self.node = np.zeros(size)
        self.count = 0

    def add(self, x: np.ndarray, lam: np.ndarray, residual: float) -> None:
        if self.count >= self.residual.size:  # a failure point beyond the plan
            self.lam = np.vstack([self.lam, np.zeros((1, self.model.k))])
            self.residual, self.node = np.append(self.residual, 0.0), np.append(self.node, 0.0)
        k = self.count
        self.lam[k], self.residual[k] = lam, residual
        # a model's own B(x)ᵀz(x) when it has one (compiled mechanisms: one call)
        constraint = getattr(self.model, "constraint", None)
        c = constraint(x) if constraint is not None else self.model.c(x, self.model.z(x))
        self.node[k] = float(np.max(np.abs(c), initial=0.0))
        self.count += 1

    def result(self, rec: Recorder, **kw: Any) -> DAEResult:
        c = self.count
        return DAEResult.from_result(
            rec.result(**kw), multipliers=list(self.model.multipliers), lam=self.lam[:c].copy(),
            constraint_residual=self.residual[:c].copy(), node_constraint=self.node[:c].copy())


def _advance(stepper: DAEMidpoint, t: float, x: np.ndarray, h: float, h_min: float
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """One step (halved while Newton fails): ``(x, λ_mid, [W_s, W_d, ΔH, iters], res)``."""
    try:
        x1, lam, info, res = stepper.step(t, x, h)
        return x1, lam, np.array([info.supplied, info.dissipated, info.delta_H,
                                  info.newton_iterations]), res
    except (NewtonFailure, np.linalg.LinAlgError) as err:
        if 0.5 * h < h_min * (1 - 1e-12):
            raise NewtonFailure(str(err)) from None
    xa, _, a, ra = _advance(stepper, t, x, 0.5 * h, h_min)
    xb, lam, b, rb = _advance(stepper, t + 0.5 * h, xa, 0.5 * h, h_min)
    return xb, lam, a + b, max(ra, rb)


def _run_steps(stepper: DAEMidpoint, model: Any, signal: InputSignal,
               rec: Recorder, series: _Series, grid: np.ndarray, steps: np.ndarray,
               save: np.ndarray,
               x: np.ndarray, lam: np.ndarray, h_min: float, progress: Any) -> DAEResult:
    rec.allocate(series.residual.size)
    rec.record(grid[0], x)
    series.add(x, lam, float(np.max(np.abs(model.c(x, model.z(x))), initial=0.0)))
    acc = np.zeros(4)  # work supplied, dissipated, ΔH, Newton iterations since last save
    worst = 0.0
    iters = 0
    algebraic = model.algebraic.shape[1] > 0
    for k in range(grid.size - 1):
        t, h = grid[k], float(steps[k])
        try:
            with np.errstate(all="ignore"):
                x_new, lam, work, res = _advance(stepper, t, x, h, h_min)
        except NewtonFailure as err:
            raise _failure(rec, series, t, x, lam, iters, "Newton did not converge at "
                           f"t = {t:.6g} s even with the step reduced to {h_min:.3g} s "
                           f"({err}); try a smaller dt or method='ida'") from None
        if not np.all(np.isfinite(x_new)) or not np.all(np.isfinite(lam)):
            raise _failure(rec, series, t, x, lam, iters, "the state or a multiplier became "
                           f"NaN/Inf in the step from t = {t:.6g} s; the step may be too "
                           "large or the constraint singular there")
        x = x_new
        acc += work
        worst = max(worst, res)
        iters += int(work[3])
        if save[k + 1]:
            x_out = consistent_point(model, grid[k + 1], x, signal, lam)[0] if algebraic else x
            rec.record(grid[k + 1], x_out, np.array([acc[0], acc[1],
                                                      acc[2] - (acc[0] - acc[1])]))
            series.add(x_out, lam, worst)
            x = x_out
            acc[:] = 0.0
            worst = 0.0
        if progress is not None:
            progress(grid[k + 1])
    return series.result(rec, nsteps=grid.size - 1, newton_iterations=iters)


def _failure(rec: Recorder, series: _Series, t: float, x: np.ndarray, lam: np.ndarray,
             iters: int, message: str) -> SimulationError:
    if rec.last_time() != t:
        with np.errstate(all="ignore"):
            rec.record(t, x, None)
        series.add(x, lam, float("nan"))
    states = ", ".join(f"{s}={v:.6g}" for s, v in zip(rec.states[:6], x[:6], strict=False))
    message = f"{message}; state there: {states}"
    partial = series.result(rec, newton_iterations=iters, message=message, success=False)
    return SimulationError(message, t_reached=t, partial=partial)
