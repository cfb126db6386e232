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
   ``dt·2⁻¹⁰``), or the whole run handed to SUNDIALS IDA (:mod:`.ida`); a stepper
   with ``advance`` (a model's compiled step, :mod:`.blocks`) takes the steps in blocks,
   one call each, and the block's saved points are recorded together — a step whose
   Newton iteration fails ends its block and is halved on its own;
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
from .blocks import ACC
from .initialize import check_constraints, consistent_point
from .midpoint import DAEMidpoint

__all__ = ["prepare_dae", "run_dae", "DAERun"]



class _View:
    r"""What :class:`~..output.recorder.Recorder` reads from a run (``n``, ``m``,
    ``u(t, x)``, ``num``, and ``points(X, U)`` when the model computes its saved points'
    quantities together: then the constraint values :math:`|B(x)^\top z(x)|_\infty` of
    the same points are kept in ``node`` for the series)."""

    def __init__(self, model: Any, signal: InputSignal) -> None:
        self.num, self.signal = model, signal
        self.n, self.m = model.n, model.m
        self.node: np.ndarray | None = None
        if getattr(model, "points", None) is not None:
            self.points = self._points

    def u(self, t: float, x: np.ndarray) -> np.ndarray:
        return self.signal(t, x)

    def _points(self, X: np.ndarray, U: np.ndarray) -> tuple[np.ndarray, ...]:
        Y, H, stored, supplied, dissipated, self.node = self.num.points(X, U)
        return Y, H, stored, supplied, dissipated


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

    def _room(self, rows: int) -> None:
        extra = self.count + rows - self.residual.size
        if extra > 0:  # a failure point beyond the plan
            self.lam = np.vstack([self.lam, np.zeros((extra, self.model.k))])
            self.residual = np.append(self.residual, np.zeros(extra))
            self.node = np.append(self.node, np.zeros(extra))

    def _node(self, x: np.ndarray) -> float:
        # a model's own B(x)ᵀz(x) when it has one (compiled mechanisms: one call)
        constraint = getattr(self.model, "constraint", None)
        c = constraint(x) if constraint is not None else self.model.c(x, self.model.z(x))
        return float(np.max(np.abs(c), initial=0.0))

    def add(self, x: np.ndarray, lam: np.ndarray, residual: float) -> None:
        self._room(1)
        k = self.count
        self.lam[k], self.residual[k], self.node[k] = lam, residual, self._node(x)
        self.count += 1

    def add_block(self, X: np.ndarray, LAM: np.ndarray, residual: np.ndarray,
                  node: np.ndarray | None) -> None:
        r"""Saved points ``X`` with their multipliers and residuals; ``node``: their
        :math:`|B(x)^\top z(x)|_\infty` if known (else computed here)."""
        K = X.shape[0]
        self._room(K)
        c = slice(self.count, self.count + K)
        self.lam[c], self.residual[c] = LAM, residual
        self.node[c] = node if node is not None else [self._node(x) for x in X]
        self.count += K

    def result(self, rec: Recorder, **kw: Any) -> DAEResult:
        c = self.count
        return DAEResult.from_result(
            rec.result(**kw), multipliers=list(self.model.multipliers), lam=self.lam[:c].copy(),
            constraint_residual=self.residual[:c].copy(), node_constraint=self.node[:c].copy())


def _advance(stepper: DAEMidpoint, t: float, x: np.ndarray, h: float, h_min: float,
             failed: str | None = None
             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """One step (halved while Newton fails): ``(x, λ_mid, [W_s, W_d, ΔH, iters], res)``.
    ``failed``: the step of length ``h`` was already tried and Newton failed so (a block
    stopped there); it is halved at once."""
    if failed is None:
        try:
            x1, lam, info, res = stepper.step(t, x, h)
            return x1, lam, np.array([info.supplied, info.dissipated, info.delta_H,
                                      info.newton_iterations]), res
        except (NewtonFailure, np.linalg.LinAlgError) as err:
            failed = str(err)
    if 0.5 * h < h_min * (1 - 1e-12):
        raise NewtonFailure(failed) from None
    xa, _, a, ra = _advance(stepper, t, x, 0.5 * h, h_min)
    xb, lam, b, rb = _advance(stepper, t + 0.5 * h, xa, 0.5 * h, h_min)
    return xb, lam, a + b, max(ra, rb)


#: most state and multiplier values a block of steps keeps for its saved points
BLOCK_FLOATS = 1 << 18
#: most steps of one block
BLOCK_STEPS = 4096


@dataclass
class _March:
    """The moving part of a run: state, multipliers of the last step, the
    :data:`~.blocks.ACC` sums since the last saved point, Newton iterations of the
    intervals already saved."""

    x: np.ndarray
    lam: np.ndarray
    acc: np.ndarray
    saved_iterations: int = 0

    @property
    def iterations(self) -> int:
        return self.saved_iterations + int(self.acc[3])


def _run_steps(stepper: DAEMidpoint, model: Any, signal: InputSignal,
               rec: Recorder, series: _Series, grid: np.ndarray, steps: np.ndarray,
               save: np.ndarray,
               x: np.ndarray, lam: np.ndarray, h_min: float, progress: Any) -> DAEResult:
    """The steps of the grid: in blocks when the stepper can (``advance``, a model
    without algebraic states), else one by one; a block stops at a step whose Newton
    iteration fails, which is then halved as a single step."""
    rec.allocate(series.residual.size)
    rec.record(grid[0], x)
    series.add(x, lam, float(np.max(np.abs(model.c(x, model.z(x))), initial=0.0)))
    run = _March(x, lam, np.zeros(ACC))
    algebraic = model.algebraic.shape[1] > 0
    advance = None if algebraic else getattr(stepper, "advance", None)
    per_block = max(1, min(BLOCK_STEPS, BLOCK_FLOATS // max(1, model.n + model.k)))
    k, nsteps = 0, grid.size - 1
    while k < nsteps:
        failed = None
        if advance is not None:
            k, failed = _block(advance, rec, series, grid, steps, save, k,
                               min(nsteps, k + per_block), run)
            if progress is not None:
                progress(grid[k])
            if failed is None:
                continue
        _single(stepper, model, signal, rec, series, grid, steps, save, k, run, h_min, failed)
        k += 1
        if progress is not None:
            progress(grid[k])
    return series.result(rec, nsteps=grid.size - 1, newton_iterations=run.iterations)


def _block(advance: Any, rec: Recorder, series: _Series, grid: np.ndarray,
           steps: np.ndarray, save: np.ndarray, k: int, end: int, run: _March
           ) -> tuple[int, str | None]:
    """Steps ``k … end − 1`` in one call of the stepper's ``advance``; their saved points
    recorded together.  Returns the next step and, if Newton failed there, its error."""
    blk = advance(grid[k:end], steps[k:end], save[k + 1:end + 1], run.x, run.acc)
    if blk.X.shape[0]:
        idx = k + 1 + np.flatnonzero(save[k + 1:k + 1 + blk.done])
        O = blk.OUT
        rec.dyn.node = None  # set by the view's points() if the model computes them
        rec.record_block(grid[idx], blk.X, np.column_stack([O[:, 0], O[:, 1],
                                                            O[:, 2] - (O[:, 0] - O[:, 1])]))
        series.add_block(blk.X, blk.LAM, O[:, 5], getattr(rec.dyn, "node", None))
        run.saved_iterations += int(O[:, 3].sum())
    if blk.done:
        run.x, run.lam = blk.x, blk.lam
    k += blk.done
    if blk.nonfinite:
        raise _failure(rec, series, grid[k], run.x, blk.lam, run.iterations,
                       _nonfinite(grid[k]))
    return k, blk.newton_error


def _nonfinite(t: float) -> str:
    return (f"the state or a multiplier became NaN/Inf in the step from t = {t:.6g} s; the "
            "step may be too large or the constraint singular there")


def _single(stepper: DAEMidpoint, model: Any, signal: InputSignal, rec: Recorder,
            series: _Series, grid: np.ndarray, steps: np.ndarray, save: np.ndarray,
            k: int, run: _March, h_min: float, failed: str | None) -> None:
    """Step ``k`` on its own (halved while Newton fails), its saved point recorded."""
    t, h = grid[k], float(steps[k])
    try:
        with np.errstate(all="ignore"):
            x_new, lam, work, res = _advance(stepper, t, run.x, h, h_min, failed)
    except NewtonFailure as err:
        raise _failure(rec, series, t, run.x, run.lam, run.iterations,
                       f"Newton did not converge at t = {t:.6g} s even with the step reduced "
                       f"to {h_min:.3g} s ({err}); try a smaller dt or method='ida'") from None
    if not np.all(np.isfinite(x_new)) or not np.all(np.isfinite(lam)):
        raise _failure(rec, series, t, run.x, lam, run.iterations, _nonfinite(t))
    acc = run.acc
    acc[:4] += work
    acc[5] = max(acc[5], res)
    run.x, run.lam = x_new, lam
    if save[k + 1]:
        x_out = (consistent_point(model, grid[k + 1], x_new, signal, lam)[0]
                 if model.algebraic.shape[1] > 0 else x_new)
        rec.record(grid[k + 1], x_out, np.array([acc[0], acc[1], acc[2] - (acc[0] - acc[1])]))
        series.add(x_out, lam, float(acc[5]))
        run.x = x_out
        run.saved_iterations += int(acc[3])
        acc[:] = 0.0


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
