"""Bounded symbolic work: a time budget and a recursion guard around a SymPy call.

SymPy's simplification and assumption system can recurse without end or run for
minutes on expressions a user writes innocently (``X*(log(1.0*X) - 1)`` in a
positive-semidefiniteness check).  :func:`bounded` runs such a step with a time budget
(``SIGALRM`` interval timer; in the main thread of a Unix process — elsewhere only the
recursion guard applies) and turns a :class:`RecursionError` or an expired budget into
:class:`SymbolicLimit`, so the caller can fall back to a numeric check and say so.

The budget is ``PORTHAMILTONIAN_SYMBOLIC_SECONDS`` (default 5 s per step).
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

__all__ = ["SymbolicLimit", "bounded", "budget_seconds", "run_bounded"]

T = TypeVar("T")


class SymbolicLimit(Exception):  # noqa: N818 — a limit reached, not an error of the user
    """A symbolic step ran out of time or recursion depth; ``what`` names the step."""

    def __init__(self, what: str, reason: str) -> None:
        super().__init__(f"{what}: {reason}")
        self.what, self.reason = what, reason


def budget_seconds() -> float:
    """Seconds one symbolic step may take (``PORTHAMILTONIAN_SYMBOLIC_SECONDS``, 5)."""
    try:
        value = float(os.environ.get("PORTHAMILTONIAN_SYMBOLIC_SECONDS", "5"))
    except ValueError:
        value = 5.0
    return value if value > 0 else 5.0


def _can_alarm() -> bool:
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


@contextmanager
def bounded(what: str, seconds: float | None = None) -> Iterator[None]:
    """Run the block within ``seconds`` (default :func:`budget_seconds`); raise
    :class:`SymbolicLimit` when it overruns or recurses too deep.  Nested budgets: the
    inner one is cut to what the outer one has left."""
    limit = budget_seconds() if seconds is None else float(seconds)
    if not _can_alarm():
        try:
            yield
        except RecursionError:
            raise SymbolicLimit(what, "recursion too deep") from None
        return

    def expire(signum: int, frame: object) -> None:
        # an exception raised where Python swallows it (a gc callback, a __del__) would be
        # lost: ring again soon, until one lands in the bounded code
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        raise SymbolicLimit(what, f"did not finish within {limit:g} s")

    left, _ = signal.getitimer(signal.ITIMER_REAL)  # an outer budget's time left (0: none)
    start = time.monotonic()
    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, min(limit, left) if left > 0 else limit)
    try:
        yield
    except RecursionError:
        raise SymbolicLimit(what, "recursion too deep") from None
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        if left > 0:  # give the outer budget back what it has left
            signal.setitimer(signal.ITIMER_REAL, max(left - (time.monotonic() - start), 1e-3))


def run_bounded(what: str, func: Callable[[], T], seconds: float | None = None) -> T:
    """``func()`` within :func:`bounded`."""
    with bounded(what, seconds):
        return func()
