"""A failed run: the :class:`~porthamiltonian.SimulationError` that carries the results up
to the failure (``.partial``) and the time reached."""

from __future__ import annotations

import numpy as np

from ...errors import SimulationError
from .recorder import Recorder

__all__ = ["failure", "state_text"]


def failure(rec: Recorder, t: float, x: np.ndarray, message: str, iters: int,
             nfev: int, nsteps: int) -> SimulationError:
    if rec.last_time() != t:
        with np.errstate(all="ignore"):
            rec.record(t, x, None)
    partial = rec.result(nsteps=nsteps, newton_iterations=iters, nfev=nfev, message=message,
                         success=False)
    return SimulationError(message, t_reached=t, partial=partial)


def state_text(states: list[str], x: np.ndarray, limit: int = 6) -> str:
    parts = [f"{s}={v:.6g}" for s, v in zip(states[:limit], x[:limit], strict=False)]
    return ", ".join(parts) + (", ..." if len(states) > limit else "")
