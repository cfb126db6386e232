"""Collects the saved points of a run into preallocated arrays, or streams them to a CSV
file (``stream=``) so that memory stays bounded on long runs.

Streaming writes every saved point (the columns of
:meth:`SimulationResult.columns`, full float precision) in blocks of
:data:`BLOCK` rows.  The in-memory result then keeps two points, the first and the
last; the interval quantities of the last (work supplied and dissipated, power
residual) are the sums over the whole run, so the energy balance between the two
points remains checkable.  The largest per-interval residual is in
``result.extra["max_abs_power_residual"]``.
"""

from __future__ import annotations

import csv
import pathlib
from typing import Any

import numpy as np

from ..problem.dynamics import Dynamics
from .result import SimulationResult

__all__ = ["Recorder"]

#: rows buffered before a streamed block is written
BLOCK = 4096


class Recorder:
    """Saved times, states, inputs, outputs, energy and powers of a run."""

    def __init__(self, dyn: Dynamics, states: list[str], inputs: list[str], outputs: list[str],
                 method: str, stream: str | pathlib.Path | None = None) -> None:
        self.dyn = dyn
        self.states, self.inputs, self.outputs, self.method = states, inputs, outputs, method
        self.count = 0
        self.allocate(0)
        self.stream = pathlib.Path(stream) if stream is not None else None
        self._first: SimulationResult | None = None
        self._totals = np.zeros(3)  # work supplied, dissipated, residual after the first point
        self._max_residual = 0.0
        self._header_written = False
        if self.stream is not None and self.stream.suffix.lower() != ".csv":
            from ...errors import ModelError

            raise ModelError(f"stream={self.stream}: streaming writes CSV; give a .csv file")

    def allocate(self, size: int) -> None:
        n, m = self.dyn.n, self.dyn.m
        self.t = np.zeros(size)
        self.x = np.zeros((size, n))
        self.u = np.zeros((size, m))
        self.y = np.zeros((size, m))
        self.H, self.stored, self.supplied, self.dissipated = (np.zeros(size) for _ in range(4))
        self.residual, self.work_s, self.work_d = (np.zeros(size) for _ in range(3))
        self.count = 0

    def _grow(self) -> None:
        size = max(8, 2 * self.t.size)
        for name in ("t", "x", "u", "y", "H", "stored", "supplied", "dissipated", "residual",
                     "work_s", "work_d"):
            old = getattr(self, name)
            new = np.zeros((size, *old.shape[1:]))
            new[: old.shape[0]] = old
            setattr(self, name, new)

    def record(self, t: float, x: np.ndarray, interval: np.ndarray | None = None) -> None:
        """Save point ``(t, x)``; ``interval`` = (work supplied, dissipated, residual) since
        the previous saved point."""
        if self.count >= self.t.size:
            if self.stream is not None and self.count >= BLOCK:
                self.flush()
            else:
                self._grow()
        k, num = self.count, self.dyn.num
        with np.errstate(over="ignore", invalid="ignore"):  # huge states just before failure
            u = self.dyn.u(t, x)
            pb = num.power_balance(x, u)
            self.y[k] = num.output(x, u)
            self.H[k] = num.energy(x)
        self.t[k], self.x[k], self.u[k] = t, x, u
        self.stored[k], self.supplied[k], self.dissipated[k] = (
            pb.stored, pb.supplied, pb.dissipated)
        if interval is not None:
            self.set_interval(k, *interval)
        self.count += 1

    def set_interval(self, k: int, supplied: float, dissipated: float, residual: float) -> None:
        self.work_s[k], self.work_d[k], self.residual[k] = supplied, dissipated, residual

    def flush(self) -> None:
        """Write the buffered points to the stream file and empty the buffer."""
        if self.stream is None or self.count == 0:
            return
        block = self._buffered()
        if self._first is None:
            self._first = _take(block, slice(0, 1))
            tail = slice(1, None)
        else:
            tail = slice(0, None)
        self._totals += (block.work_supplied[tail].sum(), block.work_dissipated[tail].sum(),
                         block.power_residual[tail].sum())
        self._max_residual = max(self._max_residual,
                                 float(np.max(np.abs(block.power_residual), initial=0.0)))
        cols = block.columns()
        mode = "a" if self._header_written else "w"
        with open(self.stream, mode, newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            if not self._header_written:
                w.writerow(list(cols))
                self._header_written = True
            for row in np.column_stack(list(cols.values())):
                w.writerow([repr(float(v)) for v in row])
        self._last = _take(block, slice(-1, None))
        self.count = 0

    def result(self, **kw: Any) -> SimulationResult:
        if self.stream is not None:
            return self._streamed_result(**kw)
        return self._buffered(**kw)

    def _streamed_result(self, **kw: Any) -> SimulationResult:
        self.flush()
        if self._first is None:
            return self._buffered(**kw)
        first, last = self._first, self._last
        if last.t[0] == first.t[0]:
            res = first
        else:
            last.work_supplied[0], last.work_dissipated[0], last.power_residual[0] = self._totals
            res = _concat(first, last)
        for key, value in kw.items():
            setattr(res, key, value)
        res.extra["streamed_to"] = str(self.stream)
        res.extra["max_abs_power_residual"] = self._max_residual
        return res

    def last_time(self) -> float:
        if self.count:
            return float(self.t[self.count - 1])
        return float(self._last.t[0]) if self.stream is not None and self._first else float("nan")

    def _buffered(self, **kw: Any) -> SimulationResult:
        c = self.count
        return SimulationResult(
            t=self.t[:c].copy(), x=self.x[:c].copy(), u=self.u[:c].copy(), y=self.y[:c].copy(),
            H=self.H[:c].copy(), stored=self.stored[:c].copy(),
            supplied=self.supplied[:c].copy(), dissipated=self.dissipated[:c].copy(),
            power_residual=self.residual[:c].copy(), work_supplied=self.work_s[:c].copy(),
            work_dissipated=self.work_d[:c].copy(), states=list(self.states),
            inputs=list(self.inputs), outputs=list(self.outputs), method=self.method, **kw,
        )


_SERIES = ("t", "x", "u", "y", "H", "stored", "supplied", "dissipated", "power_residual",
           "work_supplied", "work_dissipated")


def _take(res: SimulationResult, rows: slice) -> SimulationResult:
    kw = {k: getattr(res, k)[rows].copy() for k in _SERIES}
    return SimulationResult(**kw, states=res.states, inputs=res.inputs, outputs=res.outputs,
                            method=res.method)


def _concat(a: SimulationResult, b: SimulationResult) -> SimulationResult:
    kw = {k: np.concatenate([getattr(a, k), getattr(b, k)]) for k in _SERIES}
    return SimulationResult(**kw, states=a.states, inputs=a.inputs, outputs=a.outputs,
                            method=a.method)
