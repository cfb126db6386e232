r"""The time-stepping loop of the one-step methods: fixed or adaptive steps, hard stops,
modulation, events, decimation and progress.

**Hard stops.**  Every step ends exactly on the next of: ``t_end``, the ``t_eval`` times
and the switching instants of the modulation and of piecewise-constant inputs; a step
never straddles a switch, so the structure (and the input) in force is constant on it
and the per-step power balance of the structure-preserving methods stays exact.

**Fixed steps** (``dt`` given): each interval between hard stops is cut into equal steps
of at most ``dt``.  A step whose Newton iteration fails is split in halves
(recursively, down to ``dt·2⁻¹⁰``).

**Adaptive steps** (``dt=None``) by step doubling (Hairer, Nørsett & Wanner, *Solving
ODEs I*, 2nd ed., §II.4): a step of size :math:`h` and two of size :math:`h/2` give the
local error estimate :math:`e = (x_{h/2,h/2} - x_h)/(2^p - 1)` for a method of order
:math:`p`; with :math:`\mathrm{err} = \|e_i / (\mathrm{atol} + \mathrm{rtol}\max(|x_i|,
|x_{\mathrm{new},i}|))\|_{\mathrm{RMS}}` the step is accepted when :math:`\mathrm{err} \le 1`
and the next is :math:`h\min(5, \max(0.2, 0.9\,\mathrm{err}^{-1/(p+1)}))`.  The accepted
state is the one from the two half steps, i.e. two genuine steps of the method: their
energy bookkeeping (and its exactness) is that of the fixed-step method.  Proposed
steps are rounded down to :math:`T\,2^{-j/4}` so that LTI systems reuse a handful of LU
factorizations.  A step that fails (Newton, NaN) or is rejected is retried with a
smaller one; below ``h_min`` a :class:`SimulationError` is raised.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import SimulationError
from .base import Dynamics, Method, StepInfo
from .events import EventSet
from .gauss import Gauss
from .lti import BLOCK_STEPS, gauss_block, midpoint_block
from .midpoint import Midpoint
from .newton import NewtonFailure
from .recorder import Recorder

__all__ = ["Stepping", "integrate", "hard_stops"]

MAX_HALVINGS = 10


@dataclass
class Stepping:
    """How to step: ``dt`` (fixed) or ``None`` (adaptive with ``rtol``, ``atol``)."""

    dt: float | None
    rtol: float = 1e-6
    atol: float = 1e-9
    max_step: float = math.inf
    first_step: float | None = None
    save_every: int = 1


def hard_stops(t0: float, t1: float, t_eval: Sequence[float] | None,
               breakpoints: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    """Sorted stop times in ``(t0, t1]`` and, with ``t_eval``, which of them are saved."""
    bp = np.asarray(breakpoints, dtype=float)
    bp = bp[(bp > t0) & (bp < t1)]
    if t_eval is None:
        return np.unique(np.concatenate([bp, [t1]])), None
    te = np.asarray(t_eval, dtype=float)
    stops = np.unique(np.concatenate([bp, te[te > t0], [t1]]))
    return stops, np.isin(stops, te)


def _merge(a: StepInfo, b: StepInfo) -> StepInfo:
    return StepInfo(a.supplied + b.supplied, a.dissipated + b.dissipated, a.delta_H + b.delta_H,
                    a.newton_iterations + b.newton_iterations, a.nfev + b.nfev)


def advance(stepper: Method, t: float, x: np.ndarray, h: float,
            h_min: float) -> tuple[np.ndarray, StepInfo]:
    """One step, split in halves while Newton fails (raises NewtonFailure below h_min)."""
    try:
        return stepper.step(t, x, h)
    except (NewtonFailure, np.linalg.LinAlgError, RuntimeError) as err:
        if 0.5 * h < h_min * (1 - 1e-12):
            raise NewtonFailure(str(err)) from None
    x1, a = advance(stepper, t, x, 0.5 * h, h_min)
    x2, b = advance(stepper, t + 0.5 * h, x1, 0.5 * h, h_min)
    return x2, _merge(a, b)


def doubled_step(stepper: Method, t: float, x: np.ndarray, h: float, order: int, rtol: float,
                 atol: float) -> tuple[np.ndarray, StepInfo, float]:
    """Two half steps, and the error norm estimated against one full step."""
    x_full, c = stepper.step(t, x, h)
    x_half, a = stepper.step(t, x, 0.5 * h)
    x_new, b = stepper.step(t + 0.5 * h, x_half, 0.5 * h)
    info = _merge(a, b)
    info.newton_iterations += c.newton_iterations
    info.nfev += c.nfev
    scale = atol + rtol * np.maximum(np.abs(x), np.abs(x_new))
    e = (x_new - x_full) / ((2.0**order - 1.0) * scale)
    err = float(np.sqrt(np.mean(e * e))) if e.size else 0.0
    return x_new, info, err if math.isfinite(err) else math.inf


def _initial_step(dyn: Dynamics, t: float, x: np.ndarray, span: float, order: int,
                  opts: Stepping) -> float:
    """A first step with ``h‖ẋ‖ ≈ 0.01‖x‖`` in the tolerance-scaled norm (as SciPy)."""
    if opts.first_step is not None:
        return float(opts.first_step)
    scale = opts.atol + opts.rtol * np.abs(x)
    f = dyn.f(x, dyn.u(t, x))
    d0 = float(np.sqrt(np.mean((x / scale) ** 2))) if x.size else 0.0
    d1 = float(np.sqrt(np.mean((f / scale) ** 2))) if x.size else 0.0
    h = 1e-6 * span if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1
    return min(h, span, opts.max_step) * 0.5 ** (1.0 / (order + 1))


def _quantize(h: float, span: float) -> float:
    """Round ``h`` down to ``span·2^(−j/4)`` (few distinct steps: LU reuse)."""
    j = math.ceil(-4.0 * math.log2(h / span) - 1e-9)
    return span * 2.0 ** (-j / 4.0)


def integrate(
    stepper: Method, dyn: Dynamics, rec: Recorder, t_span: tuple[float, float], x: np.ndarray,
    opts: Stepping, *, t_eval: Sequence[float] | None = None,
    breakpoints: np.ndarray | None = None, events: EventSet | None = None,
    progress: Callable[[float], None] | None = None,
) -> Any:
    """Run ``stepper`` over ``t_span`` from ``x``; returns the recorder's result."""
    t0, t1 = t_span
    span = t1 - t0
    stops, saved_stop = hard_stops(t0, t1, t_eval, np.zeros(0) if breakpoints is None
                                   else breakpoints)
    order = int(getattr(stepper, "order", 2))
    adaptive = opts.dt is None
    h_min = (opts.dt * 2.0**-MAX_HALVINGS if not adaptive else 1e-12 * span)
    dyn.set_time(t0)
    rec.record(t0, x)
    if events is not None:
        events.start(t0, x)
    acc = np.zeros(3)  # supplied, dissipated, residual since the last saved point
    iters = nfev = nsteps = rejected = 0
    t, i_stop = t0, 0
    seg: tuple[float, float, int] | None = None  # fixed steps: (start, stop, number)
    j = 0
    fast = _lti_block(stepper, dyn) if not adaptive and events is None else None
    if fast is not None:
        return _integrate_lti(fast, dyn, rec, t0, t1, x, opts, stops, saved_stop, progress)
    h_next = _initial_step(dyn, t, x, span, order, opts) if adaptive else 0.0
    h_prop = h_next
    terminated = False
    while i_stop < stops.size and not terminated:
        b = float(stops[i_stop])
        if adaptive:
            h = h_prop = min(h_next, opts.max_step)
            t_new = b if t + h >= b - 1e-3 * h else t + h
        else:
            if seg is None:
                n = max(1, math.ceil((b - t) / opts.dt - 1e-9))  # type: ignore[operator]
                seg, j = (t, b, n), 0
            j += 1
            t_new = b if j == seg[2] else seg[0] + (seg[1] - seg[0]) * j / seg[2]
        # equal steps of a segment share one h (not the grid difference, which varies in
        # the last bits): LTI systems then factor once per segment length
        h = t_new - t if adaptive else (seg[1] - seg[0]) / seg[2]  # type: ignore[index]
        dyn.set_time(t + 0.5 * h)
        try:
            with np.errstate(all="ignore"):
                if adaptive:
                    x_new, info, err = doubled_step(stepper, t, x, h, order, opts.rtol,
                                                    opts.atol)
                else:
                    x_new, info = advance(stepper, t, x, h, h_min)
                    err = 0.0
        except (NewtonFailure, np.linalg.LinAlgError, RuntimeError) as e:
            if adaptive and 0.25 * h >= h_min:
                h_next, rejected = 0.25 * h, rejected + 1
                continue
            raise _failure(rec, t, x, f"Newton did not converge at t = {t:.6g} s even with "
                           f"the step reduced to {max(h_min, 0.25 * h):.3g} s ({e}); state "
                           f"there: {_state_text(rec.states, x)}; try a smaller "
                           f"{'rtol' if adaptive else 'dt'} or another method",
                           iters, nfev, nsteps) from None
        finite = bool(np.all(np.isfinite(x_new)))
        if adaptive and (not finite or err > 1.0):
            shrink = 0.25 if not finite else max(0.2, 0.9 * err ** (-1.0 / (order + 1)))
            if shrink * h < h_min:
                raise _failure(rec, t, x, f"the step size fell below {h_min:.3g} s at t = "
                               f"{t:.6g} s (state {_state_text(rec.states, x)}); the system "
                               "may blow up or be too stiff for this method", iters, nfev,
                               nsteps)
            h_next, rejected = shrink * h, rejected + 1
            continue
        if not finite:
            raise _failure(rec, t, x, f"the state became NaN/Inf in the step from t = {t:.6g} s "
                           f"(state before it: {_state_text(rec.states, x)}); the system may "
                           "blow up or the step is too large for this method", iters, nfev,
                           nsteps)
        if events is not None:
            f0 = dyn.f(x, dyn.u(t, x))
            f1 = dyn.f(x_new, dyn.u(t_new, x_new))
            te = events.check(t, x, f0, h, x_new, f1)
            if te is not None:
                terminated = True
                if te < t_new:  # one true step to the event time, not an interpolated state
                    t_new = te
                    if te - t > 1e-14 * max(1.0, abs(t)):
                        x_new, info = advance(stepper, t, x, te - t, h_min * 1e-3)
                    else:
                        x_new, info = x.copy(), StepInfo(0.0, 0.0, 0.0)
                    events.replace_last(x_new)
        x = x_new
        nsteps += 1
        iters += info.newton_iterations
        nfev += info.nfev
        acc += (info.supplied, info.dissipated, info.delta_H - (info.supplied - info.dissipated))
        at_stop = t_new == b
        t = t_new
        if at_stop:
            i_stop += 1
            seg = None
        if saved_stop is None:
            save = nsteps % opts.save_every == 0 or t == t1 or terminated
        else:
            save = (at_stop and bool(saved_stop[i_stop - 1])) or terminated
        if save:
            rec.record(t, x, acc)
            acc[:] = 0.0
        if adaptive:
            factor = min(5.0, max(0.2, 0.9 * max(err, 1e-10) ** (-1.0 / (order + 1))))
            h_next = _quantize(min(factor * h, opts.max_step, span), span)
            if h < h_prop:  # a step shortened to land on a stop says little: keep the proposal
                h_next = max(h_next, h_prop)
        if progress is not None:
            progress(t)
    extra = {"rejected_steps": rejected} if adaptive else {}
    res = rec.result(nsteps=nsteps, newton_iterations=iters, nfev=nfev,
                     message="a terminal event occurred" if terminated else "completed")
    res.extra.update(extra)
    if events is not None:
        res.t_events, res.x_events = events.arrays(dyn.n)
    return res


def _lti_block(stepper: Method, dyn: Dynamics) -> Callable[..., Any] | None:
    """``block(dyn, x, times, h)`` of :mod:`.lti` when the LTI block path applies to
    ``stepper`` (the discrete-gradient methods coincide with the midpoint rule for
    quadratic H), else ``None``."""
    if not dyn.affine:
        return None
    if isinstance(stepper, Gauss):
        return lambda *a: gauss_block(stepper, *a)
    mp = stepper if type(stepper) is Midpoint else getattr(stepper, "_midpoint", None)
    return (lambda *a: midpoint_block(mp, *a)) if isinstance(mp, Midpoint) else None


def _integrate_lti(
    block: Callable[..., Any], dyn: Dynamics, rec: Recorder, t0: float, t1: float, x: np.ndarray,
    opts: Stepping, stops: np.ndarray, saved_stop: np.ndarray | None,
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
            acc = _save_block(rec, times, X, W, save, acc, good)
            if bad.size:
                tb, xb = float(times[good]), X[good]
                raise _failure(rec, tb, xb, f"the state became NaN/Inf in the step from t = "
                               f"{tb:.6g} s (state before it: {_state_text(rec.states, xb)})",
                               nsteps + good, nsteps + good, nsteps + good)
            x = X[-1]
            nsteps += k1 - k0
            if progress is not None:
                progress(float(times[-1]))
        t = b
    return rec.result(nsteps=nsteps, newton_iterations=nsteps, nfev=nsteps)


def _save_block(rec: Recorder, times: np.ndarray, X: np.ndarray, W: np.ndarray,
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


def _failure(rec: Recorder, t: float, x: np.ndarray, message: str, iters: int,
             nfev: int, nsteps: int) -> SimulationError:
    if rec.last_time() != t:
        with np.errstate(all="ignore"):
            rec.record(t, x, None)
    partial = rec.result(nsteps=nsteps, newton_iterations=iters, nfev=nfev, message=message,
                         success=False)
    return SimulationError(message, t_reached=t, partial=partial)


def _state_text(states: list[str], x: np.ndarray, limit: int = 6) -> str:
    parts = [f"{s}={v:.6g}" for s, v in zip(states[:limit], x[:limit], strict=False)]
    return ", ".join(parts) + (", ..." if len(states) > limit else "")
