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
from ..output.rowwise import engine as row_engine
from ..problem.dynamics import Dynamics
from ..problem.events import EventSet
from .lti_loop import integrate_lti
from .stepping import MAX_HALVINGS, advance, doubled_step, hard_stops, initial_step, quantize

__all__ = ["run_ode", "integrate"]


def run_ode(stepper: Any, problem: Any, options: Any, name: str) -> Any:
    """Run the one-step method ``stepper`` on the ODE ``problem``
    (:class:`~..problem.problem.Problem`) with ``options``
    (:class:`~..options.SimulationOptions`); ``name`` is the method's, for the result."""
    from ..kernels.stepper import engine_for

    dyn = problem.dynamics
    rec = Recorder(dyn, problem.states, problem.inputs, problem.outputs, name,
                   stream=options.stream)
    engine = getattr(stepper, "engine_report", None)  # a model's own compiled step
    if engine is None:
        stepper, engine = engine_for(stepper, problem, options)
    with row_engine(options.engine):  # engine="numpy": no compiled row kernels either
        res = integrate(stepper, dyn, rec, problem.t_span, problem.x0, options,
                        t_eval=options.t_eval, breakpoints=problem.breakpoints,
                        events=problem.events, progress=options.progress)
    counts = getattr(stepper, "counts", None)
    if counts is not None:  # the block loop counts steps only: Newton's own count
        res.newton_iterations, res.nfev = int(counts[0]), int(counts[1])
    res.extra.update(engine)
    return res


class _Failed(Exception):
    """A step that cannot be taken, even reduced: ``text`` says why (the loop adds the
    partial results)."""

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = text


class FixedSteps:
    """Equal steps of at most ``dt`` between two hard stops; a step whose Newton iteration
    fails is halved (recursively, down to ``dt·2⁻¹⁰``)."""

    def __init__(self, stepper: Any, dt: float, states: list[str]) -> None:
        self.stepper, self.dt, self.states = stepper, dt, states
        self.h_min = dt * 2.0**-MAX_HALVINGS
        self.segment: tuple[float, float, int] | None = None  # (start, stop, steps)
        self.j = 0
        self.extra: dict[str, Any] = {}

    def propose(self, t: float, stop: float) -> tuple[float, float]:
        """The end of the next step and its length ``h``.  Equal steps of a segment share
        one ``h`` (not the grid difference, which varies in the last bits): LTI systems
        then factor once per segment length."""
        if self.segment is None:
            n = max(1, math.ceil((stop - t) / self.dt - 1e-9))
            self.segment, self.j = (t, stop, n), 0
        self.j += 1
        start, end, n = self.segment
        t_new = stop if self.j == n else start + (end - start) * self.j / n
        return t_new, (end - start) / n

    def take(self, t: float, x: np.ndarray, h: float) -> tuple[np.ndarray, StepInfo] | None:
        try:
            x_new, info = advance(self.stepper, t, x, h, self.h_min)
        except (NewtonFailure, np.linalg.LinAlgError) as e:
            raise _Failed(f"Newton did not converge at t = {t:.6g} s even with the step "
                          f"reduced to {max(self.h_min, 0.25 * h):.3g} s ({e}); state there: "
                          f"{state_text(self.states, x)}; try a smaller dt or another "
                          "method") from None
        if not np.all(np.isfinite(x_new)):
            raise _Failed(f"the state became NaN/Inf in the step from t = {t:.6g} s (state "
                          f"before it: {state_text(self.states, x)}); the system may blow up "
                          "or the step is too large for this method")
        return x_new, info

    def accepted(self, h: float, reached_stop: bool) -> None:
        if reached_stop:
            self.segment = None


class AdaptiveSteps:
    """Step doubling with ``rtol``, ``atol`` (see the module docstring)."""

    def __init__(self, stepper: Any, dyn: Dynamics, t0: float, x0: np.ndarray, span: float,
                 opts: Any, states: list[str]) -> None:
        self.stepper, self.opts, self.states, self.span = stepper, opts, states, span
        self.order = int(getattr(stepper, "order", 2))
        self.h_min = 1e-12 * span
        self.h_next = initial_step(dyn, t0, x0, span, self.order, opts)
        self.h_prop = self.h_next
        self.err = 0.0
        self.extra = {"rejected_steps": 0}

    def propose(self, t: float, stop: float) -> tuple[float, float]:
        h = self.h_prop = min(self.h_next, self.opts.max_step)
        t_new = stop if t + h >= stop - 1e-3 * h else t + h
        return t_new, t_new - t

    def _reject(self, h_next: float) -> None:
        self.h_next = h_next
        self.extra["rejected_steps"] += 1

    def take(self, t: float, x: np.ndarray, h: float) -> tuple[np.ndarray, StepInfo] | None:
        """The step, or ``None`` when it is rejected (a smaller one is proposed next)."""
        try:
            x_new, info, err = doubled_step(self.stepper, t, x, h, self.order, self.opts.rtol,
                                            self.opts.atol)
        except (NewtonFailure, np.linalg.LinAlgError) as e:
            if 0.25 * h >= self.h_min:
                self._reject(0.25 * h)
                return None
            raise _Failed(f"Newton did not converge at t = {t:.6g} s even with the step "
                          f"reduced to {max(self.h_min, 0.25 * h):.3g} s ({e}); state there: "
                          f"{state_text(self.states, x)}; try a smaller rtol or another "
                          "method") from None
        finite = bool(np.all(np.isfinite(x_new)))
        if not finite or err > 1.0:
            shrink = 0.25 if not finite else max(0.2, 0.9 * err ** (-1.0 / (self.order + 1)))
            if shrink * h < self.h_min:
                raise _Failed(f"the step size fell below {self.h_min:.3g} s at t = {t:.6g} s "
                              f"(state {state_text(self.states, x)}); the system may blow up "
                              "or be too stiff for this method")
            self._reject(shrink * h)
            return None
        self.err = err
        return x_new, info

    def accepted(self, h: float, reached_stop: bool) -> None:
        factor = min(5.0, max(0.2, 0.9 * max(self.err, 1e-10) ** (-1.0 / (self.order + 1))))
        self.h_next = quantize(min(factor * h, self.opts.max_step, self.span), self.span)
        if h < self.h_prop:  # a step shortened to land on a stop says little: keep the proposal
            self.h_next = max(self.h_next, self.h_prop)


def _at_event(stepper: Any, dyn: Dynamics, events: EventSet, t: float, x: np.ndarray, h: float,
              t_new: float, x_new: np.ndarray, info: StepInfo, h_min: float
              ) -> tuple[float, np.ndarray, StepInfo, bool]:
    """Locate a zero crossing in the step ``(t, x) → (t_new, x_new)``; for a terminal one,
    redo the step as one true step to the event time (not an interpolated state).
    Returns the step's (possibly shortened) end, state, bookkeeping and whether to stop."""
    f0 = dyn.f(x, dyn.u(t, x))
    f1 = dyn.f(x_new, dyn.u(t_new, x_new))
    te = events.check(t, x, f0, h, x_new, f1)
    if te is None:
        return t_new, x_new, info, False
    if te < t_new:
        t_new = te
        if te - t > 1e-14 * max(1.0, abs(t)):
            x_new, info = advance(stepper, t, x, te - t, h_min * 1e-3)
        else:
            x_new, info = x.copy(), StepInfo(0.0, 0.0, 0.0)
        events.replace_last(x_new)
    return t_new, x_new, info, True


def integrate(
    stepper: Any, dyn: Dynamics, rec: Recorder, t_span: tuple[float, float], x: np.ndarray,
    opts: Any, *, t_eval: Sequence[float] | None = None,
    breakpoints: np.ndarray | None = None, events: EventSet | None = None,
    progress: Callable[[float], None] | None = None,
) -> Any:
    """Run ``stepper`` over ``t_span`` from ``x``; returns the recorder's result.

    The jobs are split: the step control (:class:`FixedSteps`, :class:`AdaptiveSteps`)
    proposes and takes steps, :func:`_at_event` cuts a step at a terminal event, and this
    loop keeps the energy bookkeeping, decides what is saved and reports progress.
    """
    t0, t1 = t_span
    stops, saved_stop = hard_stops(t0, t1, t_eval, np.zeros(0) if breakpoints is None
                                   else breakpoints)
    adaptive = opts.dt is None
    fast = stepper.lti_block() if not adaptive and events is None else None
    dyn.set_time(t0)
    rec.record(t0, x)
    if fast is not None:
        return integrate_lti(fast, dyn, rec, t0, t1, x, opts, stops, saved_stop, progress)
    if events is not None:
        events.start(t0, x)
    control: FixedSteps | AdaptiveSteps = (
        AdaptiveSteps(stepper, dyn, t0, x, t1 - t0, opts, rec.states) if adaptive
        else FixedSteps(stepper, float(opts.dt), rec.states))
    acc = np.zeros(3)  # supplied, dissipated, residual since the last saved point
    iters = nfev = nsteps = 0
    t, i_stop = t0, 0
    terminated = False
    while i_stop < stops.size and not terminated:
        if nsteps >= opts.max_steps:  # adaptive steps that keep shrinking (fixed: refused up front)
            raise failure(rec, t, x, f"the run took max_steps = {opts.max_steps} steps and "
                          f"reached only t = {t:.6g} s of {t1:g} s (raise max_steps if you "
                          "mean it)", iters, nfev, nsteps)
        stop = float(stops[i_stop])
        t_new, h = control.propose(t, stop)
        dyn.set_time(t + 0.5 * h)
        try:
            with np.errstate(all="ignore"):
                step = control.take(t, x, h)
        except _Failed as e:
            raise failure(rec, t, x, e.text, iters, nfev, nsteps) from None
        if step is None:
            continue
        x_new, info = step
        if events is not None:
            t_new, x_new, info, terminated = _at_event(stepper, dyn, events, t, x, h, t_new,
                                                       x_new, info, control.h_min)
        if not (math.isfinite(info.delta_H) and math.isfinite(info.supplied)
                and math.isfinite(info.dissipated)):
            raise failure(rec, t, x, f"the energy became NaN/Inf in the step from t = {t:.6g} "
                          f"s (ΔH = {info.delta_H:g} J, state before it: "
                          f"{state_text(rec.states, x)}); the system may blow up or the step "
                          "is too large", iters, nfev, nsteps)
        x = x_new
        nsteps += 1
        iters += info.newton_iterations
        nfev += info.nfev
        acc += info.work
        at_stop = t_new == stop
        t = t_new
        if at_stop:
            i_stop += 1
        if saved_stop is None:
            save = nsteps % opts.save_every == 0 or t == t1 or terminated
        else:
            save = (at_stop and bool(saved_stop[i_stop - 1])) or terminated
        if save:
            rec.record(t, x, acc)
            acc[:] = 0.0
        control.accepted(h, at_stop)
        if progress is not None:
            progress(t)
    res = rec.result(nsteps=nsteps, newton_iterations=iters, nfev=nfev,
                     message="a terminal event occurred" if terminated else "completed")
    res.extra.update(control.extra)
    if events is not None:
        res.t_events, res.x_events = events.arrays(dyn.n)
    return res
