"""Progress of long simulations: :class:`ProgressBar`, a dependency-free bar on stderr
(the command line's), and :class:`TqdmProgress`, the tqdm bar of
``simulate(progress=True)`` (terminal and Jupyter).

:class:`ProgressBar` stays silent for the first ``delay`` seconds (short runs print
nothing) and when the stream is not a terminal (pipes, files, CI logs), redraws at most
every ``interval`` seconds with a carriage return, and clears its line at the end.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO

__all__ = ["ProgressBar", "TqdmProgress", "progress_bar"]


class ProgressBar:
    """``bar(t)`` after each step of a run over ``[t0, t1]``; ``bar.close()`` at the end."""

    def __init__(self, t0: float, t1: float, *, stream: TextIO | None = None,
                 delay: float = 2.0, interval: float = 0.25, width: int = 30) -> None:
        self.t0, self.t1 = t0, t1
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.delay, self.interval, self.width = delay, interval, width
        self.start = time.monotonic()
        self._last = -float("inf")
        self.drawn = False

    def __call__(self, t: float) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self.start < self.delay or now - self._last < self.interval:
            return
        self._last = now
        frac = min(1.0, max(0.0, (t - self.t0) / (self.t1 - self.t0)))
        filled = int(round(frac * self.width))
        elapsed = now - self.start
        eta = elapsed * (1.0 - frac) / frac if frac > 0 else float("nan")
        self.stream.write(f"\r[{'#' * filled}{'.' * (self.width - filled)}] {100 * frac:5.1f}% "
                          f"t = {t:.4g} s, {elapsed:.0f} s elapsed, ~{eta:.0f} s left ")
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\r" + " " * (self.width + 60) + "\r")
            self.stream.flush()


class TqdmProgress:
    """``simulate(progress=True)`` or ``progress="tqdm"``: a :mod:`tqdm.auto` bar over
    the simulated time (s) — a text bar on a terminal, a widget in Jupyter when
    ipywidgets is installed.  ``bar(t)`` after each step (redrawn when ``t`` moved by
    at least 1/1000 of the span: cheap at millions of steps), ``bar.close()`` at the end.
    """

    def __init__(self, t0: float, t1: float, **tqdm_options: object) -> None:
        from tqdm.auto import tqdm

        self.t0, self.t1 = float(t0), float(t1)
        self.span = self.t1 - self.t0
        self._quantum = self.span / 1000.0
        self._shown = 0.0
        options: dict[str, object] = {
            "total": self.span, "desc": "simulate", "unit": "s", "leave": True,
            "bar_format": "{desc}: {percentage:3.0f}%|{bar}| t = {n:.4g}/{total:.4g} s "
                          "[{elapsed}<{remaining}]"}
        options.update(tqdm_options)
        self.bar = tqdm(**options)

    def __call__(self, t: float) -> None:
        done = min(self.span, max(0.0, float(t) - self.t0))
        if done - self._shown >= self._quantum or done == self.span:
            self.bar.update(done - self._shown)
            self._shown = done

    def close(self) -> None:
        self.bar.close()


def progress_bar(progress: object, t0: float, t1: float) -> TqdmProgress | None:
    """The tqdm bar ``simulate(progress=...)`` asks for, or ``None`` (a callable or no
    progress)."""
    if progress is True or (isinstance(progress, str) and progress == "tqdm"):
        return TqdmProgress(t0, t1)
    return None
