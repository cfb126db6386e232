r"""Tabulated input signals: samples :math:`(t_i, u_i)` from arrays or a CSV file.

Between samples the signal is interpolated linearly (``kind="linear"``,
:math:`u(t) = u_i + (t-t_i)(u_{i+1}-u_i)/(t_{i+1}-t_i)`) or held
(``kind="zoh"``, zero-order hold, also called ``"previous"`` as in
:func:`scipy.interpolate.interp1d`: :math:`u(t) = u_i` on :math:`[t_i, t_{i+1})`).
A zero-order-hold table reports its sample times as breakpoints, so the simulation
steps land on them and the held value is exact on every step.  Outside
:math:`[t_0, t_{N-1}]` the table has no value: asking for one is an error (no
silent extrapolation).

CSV format: a header row, then one row per sample; the time column is the one
named ``t`` or ``time`` (else the first), the other columns are signals named by
their header (an input name of the system, in SI units).  Lines starting with ``#``
and blank lines are skipped.
"""

from __future__ import annotations

import csv
import pathlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from ...errors import ModelError

__all__ = ["Tabulated"]

KINDS = ("linear", "previous", "zoh")  # "previous" is the zero-order hold


class Tabulated:
    """A sampled signal with one or more columns; ``signal(t)`` gives a float (one
    column) or an array (several)."""

    def __init__(self, t: Sequence[float], values: Any, *, names: Sequence[str] | None = None,
                 kind: str = "linear", source: str = "table") -> None:
        if kind not in KINDS:
            raise ModelError(f"{source}: interpolation kind {kind!r} is unknown; use 'linear' "
                             "or 'previous' (zero-order hold, also 'zoh')")
        kind = "zoh" if kind == "previous" else kind
        tt = np.asarray(t, dtype=float).ravel()
        vv = np.asarray(values, dtype=float)
        vv = vv.reshape(tt.size, -1) if vv.size else vv.reshape(tt.size, 0)
        if tt.size < 1 or vv.shape[0] != tt.size:
            raise ModelError(f"{source}: needs at least one sample and as many values as times")
        bad = np.flatnonzero(np.diff(tt) <= 0)
        if bad.size:
            k = int(bad[0])
            raise ModelError(f"{source}: times must increase, but sample {k + 1} (t = "
                             f"{tt[k + 1]:g} s) does not come after sample {k} (t = {tt[k]:g} s)")
        self.t, self.values, self.kind, self.source = tt, vv, kind, source
        self.names = list(names) if names is not None else [f"u{k}" for k in range(vv.shape[1])]
        self.start, self.end = float(tt[0]), float(tt[-1])

    @classmethod
    def from_csv(cls, path: str | pathlib.Path, columns: Sequence[str] | str | None = None, *,
                 kind: str = "linear") -> Tabulated:
        """Read a CSV file; ``columns`` selects signal columns by header name (default:
        all but the time column).  Errors name the file, line and column."""
        path = pathlib.Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as err:
            raise ModelError(f"input table {path}: cannot read it ({err.strerror})") from None
        rows = [(i + 1, r) for i, r in enumerate(csv.reader(text.splitlines()))
                if r and "".join(r).strip() and not r[0].lstrip().startswith("#")]
        if len(rows) < 2:
            raise ModelError(f"{path}: needs a header row and at least one row of samples")
        header = [h.strip() for h in rows[0][1]]
        lower = [h.lower() for h in header]
        it = lower.index("t") if "t" in lower else lower.index("time") if "time" in lower else 0
        data_cols = [k for k in range(len(header)) if k != it]
        if columns is not None:
            wanted = [columns] if isinstance(columns, str) else list(columns)
            missing = [c for c in wanted if c not in header]
            if missing:
                raise ModelError(f"{path}: no column {', '.join(map(repr, missing))}; its columns "
                                 f"are: {', '.join(header)}")
            data_cols = [header.index(c) for c in wanted]
        table = np.empty((len(rows) - 1, 1 + len(data_cols)))
        for r, (line, row) in enumerate(rows[1:]):
            for c, k in enumerate([it, *data_cols]):
                cell = row[k].strip() if k < len(row) else ""
                try:
                    table[r, c] = float(cell)
                except ValueError:
                    raise ModelError(f"{path}:{line}: column {header[k]!r}: {cell!r} is not a "
                                     "number") from None
                if not np.isfinite(table[r, c]):
                    raise ModelError(f"{path}:{line}: column {header[k]!r}: {cell!r} is not "
                                     "finite")
        times = table[:, 0]
        bad = np.flatnonzero(np.diff(times) <= 0)
        if bad.size:
            line = rows[int(bad[0]) + 2][0]
            raise ModelError(f"{path}:{line}: time {times[bad[0] + 1]:g} s does not come after "
                             f"the previous row's {times[bad[0]]:g} s; times must increase")
        return cls(times, table[:, 1:], names=[header[k] for k in data_cols], kind=kind,
                   source=str(path))

    def column(self, name: str) -> Tabulated:
        """The one-column table of signal ``name``."""
        if name not in self.names:
            raise ModelError(f"{self.source}: no column {name!r}; its signal columns are: "
                             f"{', '.join(self.names)}")
        k = self.names.index(name)
        return Tabulated(self.t, self.values[:, k], names=[name], kind=self.kind,
                         source=self.source)

    def __call__(self, t: float) -> Any:
        if not self.start <= t <= self.end:
            raise ModelError(f"input table {self.source} covers t = {self.start:g} … {self.end:g}"
                             f" s; the simulation needs t = {t:g} s (extend the table or the "
                             "time span)")
        if self.kind == "zoh":
            k = int(np.searchsorted(self.t, t, side="right")) - 1
            v = self.values[k]
        else:
            k = min(int(np.searchsorted(self.t, t, side="right")) - 1, self.t.size - 2)
            if k < 0:
                v = self.values[0]
            else:
                w = (t - self.t[k]) / (self.t[k + 1] - self.t[k])
                v = (1.0 - w) * self.values[k] + w * self.values[k + 1]
        return float(v[0]) if v.size == 1 else np.array(v, dtype=float)

    def breakpoints(self, t0: float, t1: float) -> np.ndarray:
        """Sample times inside ``(t0, t1)`` for a zero-order hold (none for linear)."""
        if self.kind != "zoh":
            return np.zeros(0)
        return self.t[(self.t > t0) & (self.t < t1)]
