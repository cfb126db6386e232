r"""Collects the saved points of a run into arrays, or streams them to a CSV file
(``stream=``) so that memory stays bounded on long runs.

**Per block.**  :meth:`Recorder.record_block` saves many points at once — the block
loop of LTI systems (:mod:`..ode.lti_loop`) hands over every saved point of a block —
and computes their outputs, energy and powers together (:mod:`.points`: for a linear
system one pass of each constant matrix over the block, no per-point Python call
except the input signal).  :meth:`Recorder.record` saves one point (the step-by-step
loops).  When the number of saved points is known beforehand (fixed steps),
:meth:`Recorder.reserve` allocates the arrays once at their final size and
:meth:`Recorder.result` hands them over without a copy; otherwise they grow
geometrically.

**Streaming** writes every saved point (the columns of :meth:`SimulationResult.columns`,
full float precision, ``repr`` of each float) as it is recorded: a block's rows go
straight to the file, single points are buffered up to :attr:`Recorder.block_rows`
rows, chosen so that the buffer holds at most :data:`STREAM_FLOATS` state values (one
row for a state of :data:`STREAM_FLOATS` values or more).  Rows wider than
:data:`CHUNK` values are formatted piecewise, so writing costs no state-sized memory
either.  The in-memory result then keeps two points, the first and the last; the
interval quantities of the last (work supplied and dissipated, power residual) are the
sums over the whole run, so the energy balance between the two points remains
checkable.  For rows wider than :data:`CHUNK` values the two states are not held while
the run goes: the result reads them back from the file (``repr`` round-trips, so they
are the run's own floats), a piece at a time.  The largest per-interval residual is in
``result.extra["max_abs_power_residual"]``.
"""

from __future__ import annotations

import csv
import io
import itertools
import pathlib
from typing import Any

import numpy as np

from ..problem.dynamics import Dynamics
from .points import point_quantities
from .result import SimulationResult

__all__ = ["Recorder", "BLOCK", "STREAM_FLOATS", "CHUNK"]

#: most rows buffered before a streamed block is written
BLOCK = 4096
#: most state values a stream buffers (rows × states); a larger state gets one row
STREAM_FLOATS = 1 << 16
#: values formatted at once when writing a CSV row
CHUNK = 256

_ARRAYS = ("t", "x", "u", "y", "H", "stored", "supplied", "dissipated", "residual",
           "work_s", "work_d")


class Recorder:
    """Saved times, states, inputs, outputs, energy and powers of a run."""

    def __init__(self, dyn: Dynamics, states: list[str], inputs: list[str], outputs: list[str],
                 method: str, stream: str | pathlib.Path | None = None) -> None:
        self.dyn = dyn
        self.states, self.inputs, self.outputs, self.method = states, inputs, outputs, method
        self.count = 0
        self.stream = pathlib.Path(stream) if stream is not None else None
        #: points a block may hold: unbounded in memory, bounded by STREAM_FLOATS streamed
        self.block_rows = BLOCK if self.stream is None else max(
            1, min(BLOCK, STREAM_FLOATS // max(1, dyn.n)))
        self.allocate(0)
        self._handed_out = False  # result() gave the arrays away: copy before writing
        #: a stream's first and latest point: the rows of its in-memory result
        self._ends: SimulationResult | None = None
        self._has_last = False
        #: wide rows: the file positions of the first and the latest row, whose states the
        #: streamed result reads back at the end instead of holding copies during the run
        self._rows_at: list[int] | None = None
        self._totals = np.zeros(3)  # work supplied, dissipated, residual after the first point
        self._max_residual = 0.0
        self._header_written = False
        if self.stream is not None and self.stream.suffix.lower() != ".csv":
            from ...errors import ModelError

            raise ModelError(f"stream={self.stream}: streaming writes CSV; give a .csv file")

    # -- storage ------------------------------------------------------------------
    def allocate(self, size: int) -> None:
        """Empty arrays for ``size`` points (the count restarts at 0)."""
        n, m = self.dyn.n, self.dyn.m
        self.t = np.zeros(size)
        self.x = np.zeros((size, n))
        self.u = np.zeros((size, m))
        self.y = np.zeros((size, m))
        self.H, self.stored, self.supplied, self.dissipated = (np.zeros(size) for _ in range(4))
        self.residual, self.work_s, self.work_d = (np.zeros(size) for _ in range(3))
        self.count = 0
        self._handed_out = False

    def _resize(self, size: int) -> None:
        """Arrays of ``size`` points keeping the ``count`` recorded ones."""
        c = self.count
        for name in _ARRAYS:
            old = getattr(self, name)
            # the states are written before they are read: no zero-filling pass over them
            new = (np.empty if name == "x" else np.zeros)((size, *old.shape[1:]))
            new[:c] = old[:c]
            setattr(self, name, new)
        self._handed_out = False

    def reserve(self, points: int) -> None:
        """Room for ``points`` more points, allocated once (no geometric growth) when the
        count is known, as for fixed steps; streamed runs write blocks directly."""
        if self.stream is None and self.count + points > self.t.size:
            self._resize(self.count + points)

    def _room(self, points: int) -> None:
        if self._handed_out:
            self._resize(max(self.t.size, self.count + points))
        if self.count + points > self.t.size:
            self._resize(max(8, 2 * self.t.size, self.count + points))

    # -- recording ----------------------------------------------------------------
    def _quantities(self, X: np.ndarray, U: np.ndarray) -> tuple[np.ndarray, ...]:
        """Outputs, energy and powers of points: by the compiled stepper when it installed
        its ``points`` on the dynamics, else from the numeric model."""
        fast = getattr(self.dyn, "points", None)
        return fast(X, U) if fast is not None else point_quantities(self.dyn.num, X, U)

    def record(self, t: float, x: np.ndarray, interval: np.ndarray | None = None) -> None:
        """Save point ``(t, x)``; ``interval`` = (work supplied, dissipated, residual) since
        the previous saved point."""
        if self.stream is not None:
            if self.count >= self.block_rows:
                self.flush()
            if self.t.size == 0:  # the buffer, allocated when needed (released by flush)
                self.allocate(self.block_rows)
        elif self.count >= self.t.size or self._handed_out:
            self._room(1)
        k = self.count
        with np.errstate(over="ignore", invalid="ignore"):  # huge states just before failure
            u = self.dyn.u(t, x)
            (self.y[k], self.H[k], self.stored[k], self.supplied[k],
             self.dissipated[k]) = (q[0] for q in self._quantities(
                np.reshape(x, (1, -1)), np.reshape(u, (1, -1))))
        self.t[k], self.x[k], self.u[k] = t, x, u
        if interval is not None:
            self.set_interval(k, *interval)
        self.count += 1

    def record_block(self, times: np.ndarray, X: np.ndarray, intervals: np.ndarray) -> None:
        r"""Save the points ``(times[i], X[i])`` with ``intervals[i]`` = (work supplied,
        dissipated, residual) since the previous saved point, computing their inputs,
        outputs :math:`y = (G+P)^\top\nabla H + (M+S)u`, energy :math:`H` and powers
        together (:func:`.points.point_quantities`).  ``X`` is only read during the call."""
        K = int(times.size)
        if K == 0:
            return
        dyn = self.dyn
        U = np.empty((K, dyn.m))
        with np.errstate(over="ignore", invalid="ignore"):
            if dyn.m:
                for i in range(K):  # the input signal is a Python callable of (t, x)
                    U[i] = dyn.u(float(times[i]), X[i])
            Y, H, stored, supplied, dissipated = self._quantities(X, U)
        if self.stream is not None:
            self.flush()  # single points recorded before go first
            block = SimulationResult(
                t=times, x=X, u=U, y=Y, H=H, stored=stored, supplied=supplied,
                dissipated=dissipated, power_residual=intervals[:, 2],
                work_supplied=intervals[:, 0], work_dissipated=intervals[:, 1],
                states=self.states, inputs=self.inputs, outputs=self.outputs,
                method=self.method)
            self._emit(block)
            return
        self._room(K)
        c = slice(self.count, self.count + K)
        self.t[c], self.x[c], self.u[c], self.y[c], self.H[c] = times, X, U, Y, H
        self.stored[c], self.supplied[c], self.dissipated[c] = stored, supplied, dissipated
        self.work_s[c], self.work_d[c], self.residual[c] = intervals.T
        self.count += K

    def set_interval(self, k: int, supplied: float, dissipated: float, residual: float) -> None:
        if self._handed_out:
            self._room(0)
        self.work_s[k], self.work_d[k], self.residual[k] = supplied, dissipated, residual

    # -- streaming ----------------------------------------------------------------
    def flush(self) -> None:
        """Write the buffered points to the stream file and empty the buffer."""
        if self.stream is None or self.count == 0:
            return
        self._emit(self._view())
        self.allocate(0)  # a stream holds no state-sized buffer between flushes

    def _emit(self, block: SimulationResult) -> None:
        """Write ``block``'s rows to the stream; keep the first and the latest point (in
        place, in the two rows of the streamed result) and the running energy totals."""
        positions = self._write_csv(block)
        first = self._ends is None
        if first:
            self._ends = _take(block, [0, 0], states=positions is None)
            if positions is not None:
                self._rows_at = [positions[0], positions[0]]
        tail = slice(1, None) if first else slice(0, None)
        self._totals += (block.work_supplied[tail].sum(), block.work_dissipated[tail].sum(),
                         block.power_residual[tail].sum())
        self._max_residual = max(self._max_residual,
                                 float(np.max(np.abs(block.power_residual), initial=0.0)))
        if block.t[tail].size:
            for k in _SERIES:
                if k != "x" or self._rows_at is None:
                    getattr(self._ends, k)[1] = getattr(block, k)[-1]
            if self._rows_at is not None:
                self._rows_at[1] = positions[-1]  # type: ignore[index]
            self._has_last = True

    def _write_csv(self, block: SimulationResult) -> list[int] | None:
        """Append ``block``'s rows; for rows wider than :data:`CHUNK` values, return the
        file position of each row (else ``None``)."""
        parts = [block.t[:, None], block.x, block.u, block.y, block.H[:, None],
                 block.power_residual[:, None]]
        width = sum(p.shape[1] for p in parts)
        with open(self.stream, "a" if self._header_written else "w",  # type: ignore[arg-type]
                  newline="", encoding="utf-8") as fh:
            if not self._header_written:
                self._write_header(fh)
                self._header_written = True
            if width <= CHUNK:  # several rows at once
                step = max(1, CHUNK // width)
                for r in range(0, block.t.size, step):
                    table = np.hstack([p[r:r + step] for p in parts]).tolist()
                    fh.write("".join(",".join(map(repr, row)) + "\r\n" for row in table))
                return None
            positions = []
            for r in range(block.t.size):  # a wide row, formatted a piece at a time
                positions.append(fh.tell())
                sep = ""
                for p in parts:
                    for c in range(0, p.shape[1], CHUNK):
                        fh.write(sep + ",".join(map(repr, p[r, c:c + CHUNK].tolist())))
                        sep = ","
                fh.write("\r\n")
        return positions

    def _read_states(self, positions: list[int]) -> np.ndarray:
        """The states of the rows written at ``positions`` of the stream file, parsed a
        piece at a time (``repr`` wrote them: the floats read back are the same)."""
        n = self.dyn.n
        X = np.empty((len(positions), n))
        with open(self.stream, encoding="utf-8", newline="") as fh:  # type: ignore[arg-type]
            for r, pos in enumerate(positions):
                fh.seek(pos)
                k, carry = -1, ""  # column −1 is the time
                while k < n:
                    piece = fh.read(1 << 14)  # ≈ 800 values: parsing holds little
                    if not piece:
                        raise OSError(f"{self.stream}: row at {pos} ended before its states")
                    values = (carry + piece).split(",")
                    carry = values.pop()  # may continue in the next piece
                    take = values[max(0, -k): n - k]
                    if take:
                        X[r, max(k, 0): max(k, 0) + len(take)] = np.array(take, dtype=float)
                    k += len(values)
        return X

    def _write_header(self, fh: Any) -> None:
        """The column names of :meth:`SimulationResult.columns`, quoted as ``csv`` does,
        :data:`CHUNK` names at a time."""
        names = itertools.chain(
            ["t"], (f"x:{name}" for name in self.states), (f"u:{name}" for name in self.inputs),
            (f"y:{name}" for name in self.outputs), ["H", "power_residual"])
        sep = ""
        while chunk := list(itertools.islice(names, CHUNK)):
            buf = io.StringIO()
            csv.writer(buf, lineterminator="").writerow(chunk)
            fh.write(sep + buf.getvalue())
            sep = ","
        fh.write("\r\n")

    # -- results ------------------------------------------------------------------
    def result(self, **kw: Any) -> SimulationResult:
        if self.stream is not None:
            return self._streamed_result(**kw)
        return self._buffered(**kw)

    def _streamed_result(self, **kw: Any) -> SimulationResult:
        self.flush()
        if self._ends is None:
            return self._buffered(**kw)
        res = self._ends
        if self._has_last:  # the last interval: the sums since the first point
            res.work_supplied[1], res.work_dissipated[1], res.power_residual[1] = self._totals
        else:
            res = _take(res, [0], states=self._rows_at is None)
        if self._rows_at is not None:
            res.x = self._read_states(self._rows_at[: res.t.size])
        for key, value in kw.items():
            setattr(res, key, value)
        res.extra["streamed_to"] = str(self.stream)
        res.extra["max_abs_power_residual"] = self._max_residual
        return res

    def last_time(self) -> float:
        if self.count:
            return float(self.t[self.count - 1])
        if self._ends is None:
            return float("nan")
        return float(self._ends.t[1 if self._has_last else 0])

    def _view(self) -> SimulationResult:
        """The recorded points as views of the arrays (internal: no copy)."""
        c = self.count
        return SimulationResult(
            t=self.t[:c], x=self.x[:c], u=self.u[:c], y=self.y[:c], H=self.H[:c],
            stored=self.stored[:c], supplied=self.supplied[:c],
            dissipated=self.dissipated[:c], power_residual=self.residual[:c],
            work_supplied=self.work_s[:c], work_dissipated=self.work_d[:c],
            states=self.states, inputs=self.inputs, outputs=self.outputs, method=self.method)

    def _buffered(self, **kw: Any) -> SimulationResult:
        """The result; arrays filled to their size are handed over without a copy (a
        later write copies them first), partly filled ones are copied to their length."""
        view = self._view()
        whole = self.count == self.t.size
        self._handed_out = self._handed_out or whole
        kw2 = {k: (getattr(view, k) if whole else getattr(view, k).copy()) for k in _SERIES}
        return SimulationResult(**kw2, states=list(self.states), inputs=list(self.inputs),
                                outputs=list(self.outputs), method=self.method, **kw)


_SERIES = ("t", "x", "u", "y", "H", "stored", "supplied", "dissipated", "power_residual",
           "work_supplied", "work_dissipated")


def _take(res: SimulationResult, rows: list[int], states: bool = True) -> SimulationResult:
    """A result of copies of ``rows`` of ``res`` (``states=False``: no states, an empty
    placeholder)."""
    kw = {k: getattr(res, k)[rows] for k in _SERIES if k != "x"}
    kw["x"] = res.x[rows] if states else np.empty((len(rows), 0))
    return SimulationResult(**kw, states=res.states, inputs=res.inputs, outputs=res.outputs,
                            method=res.method)
