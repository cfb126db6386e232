r"""Step control of the ODE loop: hard stops, halving on Newton failure, step doubling.

See :mod:`.loop` for the rules (fixed and adaptive steps).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..linalg.newton import NewtonFailure
from ..method import StepInfo
from ..options import MAX_HALVINGS
from ..problem.dynamics import Dynamics

__all__ = ["hard_stops", "advance", "doubled_step", "initial_step", "quantize", "MAX_HALVINGS"]


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


def advance(stepper: Any, t: float, x: np.ndarray, h: float,
            h_min: float) -> tuple[np.ndarray, StepInfo]:
    """One step, split in halves while Newton fails (raises NewtonFailure below h_min)."""
    try:
        return stepper.step(t, x, h)
    except (NewtonFailure, np.linalg.LinAlgError) as err:
        if 0.5 * h < h_min * (1 - 1e-12):
            raise NewtonFailure(str(err)) from None
    x1, a = advance(stepper, t, x, 0.5 * h, h_min)
    x2, b = advance(stepper, t + 0.5 * h, x1, 0.5 * h, h_min)
    return x2, a + b


def doubled_step(stepper: Any, t: float, x: np.ndarray, h: float, order: int, rtol: float,
                 atol: float) -> tuple[np.ndarray, StepInfo, float]:
    """Two half steps, and the error norm estimated against one full step."""
    x_full, c = stepper.step(t, x, h)
    x_half, a = stepper.step(t, x, 0.5 * h)
    x_new, b = stepper.step(t + 0.5 * h, x_half, 0.5 * h)
    info = a + b
    info.newton_iterations += c.newton_iterations
    info.nfev += c.nfev
    scale = atol + rtol * np.maximum(np.abs(x), np.abs(x_new))
    e = (x_new - x_full) / ((2.0**order - 1.0) * scale)
    err = float(np.sqrt(np.mean(e * e))) if e.size else 0.0
    return x_new, info, err if math.isfinite(err) else math.inf


def initial_step(dyn: Dynamics, t: float, x: np.ndarray, span: float, order: int,
                  opts: Any) -> float:
    """A first step with ``h‖ẋ‖ ≈ 0.01‖x‖`` in the tolerance-scaled norm (as SciPy)."""
    if opts.first_step is not None:
        return float(opts.first_step)
    scale = opts.atol + opts.rtol * np.abs(x)
    f = dyn.f(x, dyn.u(t, x))
    d0 = float(np.sqrt(np.mean((x / scale) ** 2))) if x.size else 0.0
    d1 = float(np.sqrt(np.mean((f / scale) ** 2))) if x.size else 0.0
    h = 1e-6 * span if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1
    return min(h, span, opts.max_step) * 0.5 ** (1.0 / (order + 1))


def quantize(h: float, span: float) -> float:
    """Round ``h`` down to ``span·2^(−j/4)`` (few distinct steps: LU reuse)."""
    j = math.ceil(-4.0 * math.log2(h / span) - 1e-9)
    return span * 2.0 ** (-j / 4.0)
