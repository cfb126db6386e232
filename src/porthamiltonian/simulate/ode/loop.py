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
from typing import Any

import numpy as np

from ..linalg.newton import NewtonFailure
from ..method import StepInfo
from ..output.failure import failure, state_text
from ..output.recorder import Recorder
from ..problem.dynamics import Dynamics
from ..problem.events import EventSet
from .lti_loop import integrate_lti
from .stepping import MAX_HALVINGS, advance, doubled_step, hard_stops, initial_step, quantize

__all__ = ["run_ode", "integrate"]


def run_ode(stepper: Any, problem: Any, options: Any, name: str) -> Any:
    """Run the one-step method ``stepper`` on the ODE ``problem``
    (:class:`~..problem.problem.Problem`) with ``options``
    (:class:`~..options.SimulationOptions`); ``name`` is the method's, for the result."""
    dyn = problem.dynamics
    rec = Recorder(dyn, problem.states, problem.inputs, problem.outputs, name,
                   stream=options.stream)
    return integrate(stepper, dyn, rec, problem.t_span, problem.x0, options,
                     t_eval=options.t_eval, breakpoints=problem.breakpoints,
                     events=problem.events, progress=options.progress)


def integrate(
    stepper: Any, dyn: Dynamics, rec: Recorder, t_span: tuple[float, float], x: np.ndarray,
    opts: Any, *, t_eval: Sequence[float] | None = None,
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
    fast = stepper.lti_block() if not adaptive and events is None else None
    if fast is not None:
        return integrate_lti(fast, dyn, rec, t0, t1, x, opts, stops, saved_stop, progress)
    h_next = initial_step(dyn, t, x, span, order, opts) if adaptive else 0.0
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
        except (NewtonFailure, np.linalg.LinAlgError) as e:
            if adaptive and 0.25 * h >= h_min:
                h_next, rejected = 0.25 * h, rejected + 1
                continue
            raise failure(rec, t, x, f"Newton did not converge at t = {t:.6g} s even with "
                           f"the step reduced to {max(h_min, 0.25 * h):.3g} s ({e}); state "
                           f"there: {state_text(rec.states, x)}; try a smaller "
                           f"{'rtol' if adaptive else 'dt'} or another method",
                           iters, nfev, nsteps) from None
        finite = bool(np.all(np.isfinite(x_new)))
        if adaptive and (not finite or err > 1.0):
            shrink = 0.25 if not finite else max(0.2, 0.9 * err ** (-1.0 / (order + 1)))
            if shrink * h < h_min:
                raise failure(rec, t, x, f"the step size fell below {h_min:.3g} s at t = "
                               f"{t:.6g} s (state {state_text(rec.states, x)}); the system "
                               "may blow up or be too stiff for this method", iters, nfev,
                               nsteps)
            h_next, rejected = shrink * h, rejected + 1
            continue
        if not finite:
            raise failure(rec, t, x, f"the state became NaN/Inf in the step from t = {t:.6g} s "
                           f"(state before it: {state_text(rec.states, x)}); the system may "
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
            h_next = quantize(min(factor * h, opts.max_step, span), span)
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
