"""Fixed steps of the midpoint or Gauss method on an LTI system in blocks (:mod:`.lti`):
the same results and saving rules as the general loop (:mod:`.loop`), without a Python
call per step."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..output.failure import failure, state_text
from ..output.recorder import Recorder
from ..problem.dynamics import Dynamics
from .lti import BLOCK_STEPS

__all__ = ["integrate_lti"]


def integrate_lti(
    block: Callable[..., Any], dyn: Dynamics, rec: Recorder, t0: float, t1: float, x: np.ndarray,
    opts: Any, stops: np.ndarray, saved_stop: np.ndarray | None,
    progress: Callable[[float], None] | None,
) -> Any:
    """Fixed steps of the midpoint or Gauss method on an LTI system in blocks
    (:mod:`.lti`); same results and saving rules as the general loop."""
    acc = np.zeros(3)
    nsteps, t = 0, t0
    for i_stop, b in enumerate(stops):
        b = float(b)
        n = max(1, math.ceil((b - t) / opts.dt - 1e-9))  # type: ignore[operator]
        h = (b - t) / n
        dyn.set_time(t + 0.5 * (b - t))
        for k0 in range(0, n, BLOCK_STEPS):
            k1 = min(n, k0 + BLOCK_STEPS)
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
            bad = np.flatnonzero(~np.all(np.isfinite(X), axis=1))
            good = (bad[0] - 1) if bad.size else k1 - k0
            acc = save_block(rec, times, X, W, save, acc, good)
            if bad.size:
                tb, xb = float(times[good]), X[good]
                raise failure(rec, tb, xb, f"the state became NaN/Inf in the step from t = "
                               f"{tb:.6g} s (state before it: {state_text(rec.states, xb)})",
                               nsteps + good, nsteps + good, nsteps + good)
            x = X[-1]
            nsteps += k1 - k0
            if progress is not None:
                progress(float(times[-1]))
        t = b
    return rec.result(nsteps=nsteps, newton_iterations=nsteps, nfev=nsteps)


def save_block(rec: Recorder, times: np.ndarray, X: np.ndarray, W: np.ndarray,
                save: np.ndarray, acc: np.ndarray, good: int) -> np.ndarray:
    """Record the saved steps among the first ``good`` of a block; return the energies
    accumulated since the last saved point."""
    idx = np.flatnonzero(save[:good])
    if idx.size == 0:
        return acc + W[:good].sum(axis=0)
    starts = np.concatenate([[0], idx[:-1] + 1])
    sums = np.add.reduceat(W[: idx[-1] + 1], starts, axis=0)
    sums[0] += acc
    for j, interval in zip(idx, sums, strict=True):
        rec.record(float(times[j + 1]), X[j + 1], interval)
    return W[idx[-1] + 1: good].sum(axis=0)
