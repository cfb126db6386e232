r"""State events: zero crossings of :math:`g(t, x)` located within a step.

An event function is a callable ``g(t, x) -> float`` with the optional attributes of
:func:`scipy.integrate.solve_ivp`'s events: ``terminal`` (``True``, or the number of
occurrences after which the run stops) and ``direction`` (``+1``: only crossings from
negative to positive, ``−1``: the reverse, ``0``: both).

After each accepted step :math:`[t_k, t_{k+1}]` the sign of :math:`g` is compared at
both ends.  A crossing is located by Brent's method (:func:`scipy.optimize.brentq`) on
the cubic Hermite interpolant of the step,

.. math::

    x(t_k + \theta h) = h_{00}(\theta)x_k + h_{10}(\theta)\,h f_k
                        + h_{01}(\theta)x_{k+1} + h_{11}(\theta)\,h f_{k+1},

with :math:`f = \dot x` at the ends (Hairer, Nørsett & Wanner, *Solving ODEs I*, §II.6),
accurate to :math:`O(h^4)` — below the error of the second-order methods.  A terminal
event ends the run with one more step from :math:`t_k` to the event time, so the last
saved state is a true step of the method (its power balance stays exact), not an
interpolated one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import ModelError

__all__ = ["EventSet", "hermite"]


def hermite(x0: np.ndarray, f0: np.ndarray, x1: np.ndarray, f1: np.ndarray, h: float,
            theta: float) -> np.ndarray:
    """Cubic Hermite interpolant of a step at ``t_k + θh``."""
    t2, t3 = theta * theta, theta**3
    return ((2 * t3 - 3 * t2 + 1) * x0 + (t3 - 2 * t2 + theta) * h * f0
            + (-2 * t3 + 3 * t2) * x1 + (t3 - t2) * h * f1)


@dataclass
class EventSet:
    """The event functions of a run and the occurrences found so far."""

    funcs: list[Callable[[float, np.ndarray], float]]
    terminal: list[int] = field(default_factory=list)
    direction: list[float] = field(default_factory=list)
    times: list[list[float]] = field(default_factory=list)
    states: list[list[np.ndarray]] = field(default_factory=list)
    last: np.ndarray | None = None
    _stopped_by: int = -1

    @classmethod
    def build(cls, events: Any) -> EventSet | None:
        if events is None:
            return None
        funcs = [events] if callable(events) else list(events)
        out = cls(funcs)
        for k, g in enumerate(funcs):
            if not callable(g):
                raise ModelError(f"events[{k}] is {type(g).__name__}, not a function g(t, x)")
            term = getattr(g, "terminal", False)
            if isinstance(term, bool) or term is None:
                count = 1 if term else 0
            elif isinstance(term, (int, np.integer)) and term >= 0:
                count = int(term)
            else:
                raise ModelError(f"events[{k}].terminal must be True/False or a count, got "
                                 f"{term!r}")
            out.terminal.append(count)
            out.direction.append(float(np.sign(getattr(g, "direction", 0.0))))
            out.times.append([])
            out.states.append([])
        return out

    def values(self, t: float, x: np.ndarray) -> np.ndarray:
        vals = np.array([float(g(t, x)) for g in self.funcs])
        if not np.all(np.isfinite(vals)):
            k = int(np.flatnonzero(~np.isfinite(vals))[0])
            raise ModelError(f"event function events[{k}] returned {vals[k]} at t = {t:g} s")
        return vals

    def start(self, t: float, x: np.ndarray) -> None:
        self.last = self.values(t, x)

    def check(
        self, t: float, x: np.ndarray, f0: np.ndarray, h: float, x1: np.ndarray,
        f1: np.ndarray,
    ) -> float | None:
        """Record the crossings in the step ``(t, x) → (t + h, x1)``; return the time of a
        terminal event (the earliest) or ``None``."""
        assert self.last is not None
        g0, g1 = self.last, self.values(t + h, x1)
        self.last = g1
        found: list[tuple[float, int, np.ndarray]] = []
        for k, g in enumerate(self.funcs):
            a, b = g0[k], g1[k]
            if a == 0.0 or np.sign(a) == np.sign(b):
                continue  # no crossing (a zero at the start was the previous step's end)
            if self.direction[k] and np.sign(b - a) != self.direction[k]:
                continue

            def along(theta: float, g: Callable = g) -> float:
                return float(g(t + theta * h, hermite(x, f0, x1, f1, h, theta)))

            theta = 1.0 if b == 0.0 else _brentq()(along, 0.0, 1.0, xtol=1e-15, rtol=1e-15)
            found.append((t + theta * h, k, hermite(x, f0, x1, f1, h, theta)))
        stop: float | None = None
        for te, k, xe in sorted(found, key=lambda e: e[0]):
            if stop is not None:
                break
            self.times[k].append(te)
            self.states[k].append(xe)
            if self.terminal[k] and len(self.times[k]) >= self.terminal[k]:
                stop, self._stopped_by = te, k
        return stop

    def replace_last(self, x: np.ndarray) -> None:
        """Replace the interpolated state of the terminal event by the stepped one."""
        self.states[self._stopped_by][-1] = np.array(x, dtype=float)

    def arrays(self, n: int) -> tuple[list[np.ndarray], list[np.ndarray]]:
        """``(t_events, x_events)`` as in ``solve_ivp``: one array per event function."""
        te = [np.array(ts, dtype=float) for ts in self.times]
        xe = [np.array(xs, dtype=float).reshape(len(xs), n) for xs in self.states]
        return te, xe


def scipy_events(events: EventSet | None) -> Sequence[Any] | None:
    """The same events for :func:`scipy.integrate.solve_ivp` (terminal as a count)."""
    if events is None:
        return None
    out = []
    for g, term, direction in zip(events.funcs, events.terminal, events.direction,
                                  strict=True):
        def wrapped(t: float, x: np.ndarray, g: Callable = g) -> float:
            return float(g(t, x))

        wrapped.terminal = term  # type: ignore[attr-defined]
        wrapped.direction = direction  # type: ignore[attr-defined]
        out.append(wrapped)
    return out


def _brentq() -> Callable[..., float]:
    """SciPy's Brent root finder, imported on the first crossing (``scipy.optimize``
    takes a tenth of a second to import, and most runs have no event)."""
    from scipy.optimize import brentq

    return brentq
