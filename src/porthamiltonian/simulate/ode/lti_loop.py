"""Fixed steps of the midpoint or Gauss method on an LTI system in blocks (:mod:`.lti`):
the same results and saving rules as the general loop (:mod:`.loop`), without a Python
call per step.

A block function has the contract ``block(dyn, x, times, h) -> (X, W)``: ``len(times) −
1`` steps from ``x`` at ``times[0]``, the states ``X`` ((K + 1) × n, row 0 = ``x``) and per
step ``W`` (K × 3: work supplied, work dissipated, power-balance residual, in J).  ``X``
may be the block function's work array, overwritten by its next call: the loop reads it
only until then (the recorder copies what it keeps).  Nothing here assumes linearity.

Recording is per block (:meth:`~..output.recorder.Recorder.record_block`); the number of
saved points is known from the step grid, so the result arrays are allocated once
(:meth:`~..output.recorder.Recorder.reserve`).  A streamed run takes blocks of at most
:attr:`~..output.recorder.Recorder.block_rows` steps, so that a large state is held in
a few copies only (one step per block for 65 536 states or more).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..output.failure import failure, state_text
from ..output.recorder import Recorder
from ..output.rowwise import engine
from ..problem.dynamics import Dynamics
from .lti import BLOCK_STEPS, release

__all__ = ["integrate_lti", "save_block", "saved_count"]


def saved_count(steps: list[int], save_every: int, saved_stop: np.ndarray | None) -> int:
    """Points the loop saves after the start: every ``save_every``-th step and the last
    one, or the flagged stops of ``t_eval`` (``steps``: the steps of each segment)."""
    if saved_stop is not None:
        return int(np.count_nonzero(saved_stop))
    total = sum(steps)
    return total // save_every + (1 if total % save_every else 0)


def integrate_lti(
    block: Callable[..., Any], dyn: Dynamics, rec: Recorder, t0: float, t1: float, x: np.ndarray,
    opts: Any, stops: np.ndarray, saved_stop: np.ndarray | None,
    progress: Callable[[float], None] | None,
) -> Any:
    """Fixed steps of the midpoint or Gauss method on an LTI system in blocks
    (:mod:`.lti`); same results and saving rules as the general loop.  The row operators
    of the block and of the recording follow ``opts.engine`` (``"numpy"``: no Numba)."""
    with engine(getattr(opts, "engine", "auto")):
        return _integrate(block, dyn, rec, t0, t1, x, opts, stops, saved_stop, progress)


def _integrate(
    block: Callable[..., Any], dyn: Dynamics, rec: Recorder, t0: float, t1: float, x: np.ndarray,
    opts: Any, stops: np.ndarray, saved_stop: np.ndarray | None,
    progress: Callable[[float], None] | None,
) -> Any:
    per_block = min(BLOCK_STEPS, rec.block_rows)
    segments, t = [], t0
    for b in stops:
        n = max(1, math.ceil((float(b) - t) / opts.dt - 1e-9))  # type: ignore[operator]
        segments.append((t, float(b), n))
        t = float(b)
    rec.reserve(saved_count([n for _, _, n in segments], opts.save_every, saved_stop))
    rec.flush()  # a stream writes the first point now: its buffer is not held in the run
    acc = np.zeros(3)
    nsteps = 0
    for i_stop, (t, b, n) in enumerate(segments):
        h = (b - t) / n
        dyn.set_time(t + 0.5 * (b - t))
        for k0 in range(0, n, per_block):
            k1 = min(n, k0 + per_block)
            times = t + (b - t) * np.arange(k0, k1 + 1) / n
            if k1 == n:
                times[-1] = b
            with np.errstate(all="ignore"):
                X, W = block(dyn, x, times, h)
            steps = nsteps + np.arange(1, k1 - k0 + 1)
            if saved_stop is None:
                save = (steps % opts.save_every == 0) | (times[1:] == t1)
            else:
                save = np.zeros(k1 - k0, dtype=bool)
                save[-1] = k1 == n and bool(saved_stop[i_stop])
            bad = np.flatnonzero(~_finite_rows(X))
            good = (bad[0] - 1) if bad.size else k1 - k0
            acc = save_block(rec, times, X, W, save, acc, good)
            if bad.size:
                tb, xb = float(times[good]), X[good]
                raise failure(rec, tb, xb, f"the state became NaN/Inf in the step from t = "
                               f"{tb:.6g} s (state before it: {state_text(rec.states, xb)})",
                               nsteps + good, nsteps + good, nsteps + good)
            # a view of a work array costs nothing; a fresh block is not kept alive by x
            x = X[-1] if X.base is not None else X[-1].copy()
            del X, W
            nsteps += k1 - k0
            if progress is not None:
                progress(float(times[-1]))
    if rec.stream is not None:  # everything is written: the block need not outlive the run
        release(x.base)
        del x
    return rec.result(nsteps=nsteps, newton_iterations=nsteps, nfev=nsteps)


def _finite_rows(X: np.ndarray) -> np.ndarray:
    """Which rows of ``X`` are all finite.  A NaN or ±inf makes the row's sum NaN or
    ±inf, so the sums decide (no n-sized boolean array); a sum that overflows from
    finite values is checked element by element."""
    with np.errstate(over="ignore", invalid="ignore"):
        finite = np.isfinite(X.sum(axis=1))
    for r in np.flatnonzero(~finite):
        finite[r] = np.isfinite(X[r]).all()
    return finite


def save_block(rec: Recorder, times: np.ndarray, X: np.ndarray, W: np.ndarray,
               save: np.ndarray, acc: np.ndarray, good: int) -> np.ndarray:
    """Record the saved steps among the first ``good`` of a block (at once:
    :meth:`~..output.recorder.Recorder.record_block`); return the energies accumulated
    since the last saved point."""
    idx = np.flatnonzero(save[:good])
    if idx.size == 0:
        return acc + W[:good].sum(axis=0)
    starts = np.concatenate([[0], idx[:-1] + 1])
    sums = np.add.reduceat(W[: idx[-1] + 1], starts, axis=0)
    sums[0] += acc
    if idx.size == times.size - 1:  # every step saved: the rows as they are
        rec.record_block(times[1:], X[1:], sums)
    else:
        rec.record_block(times[idx + 1], X[idx + 1], sums)
    return W[idx[-1] + 1: good].sum(axis=0)
