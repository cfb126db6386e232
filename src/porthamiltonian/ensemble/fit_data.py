r"""What a fit is given: measured time series and the parameters to estimate, checked.

:func:`read_data` accepts a CSV file, a :class:`pandas.DataFrame` or a mapping of
columns and returns a :class:`Data`: the times ``t`` (s, strictly increasing) and one
column per measured variable, each with the unit written in its header (``q [mm]``,
``mass.v [m/s]``; empty when none).  A CSV file has one header row, then one row per
sample; lines starting with ``#`` are comments.  A DataFrame may hold the times in a
column ``t`` or in an index named ``t`` (what
:func:`~porthamiltonian.simulate.output.export.to_pandas` gives), with units in
``df.attrs["units"]``.  Every value must be a finite number.

:func:`parse_params` reads the parameters to fit:

* ``{name: guess}`` — unbounded, starting at ``guess``;
* ``{name: (low, high)}`` — bounded, starting at the middle of the bounds (the
  geometric middle :math:`\sqrt{\mathrm{low}\cdot\mathrm{high}}` when ``0 < low`` and
  ``high/low`` ≥ 100, where the starts of a multi-start are drawn on a log scale too);
* ``{name: (low, high, guess)}``.

:func:`parse_fit_param` reads the command line's ``NAME=GUESS``, ``NAME=LOW:HIGH`` and
``NAME=LOW:HIGH:GUESS``.  Everything wrong raises
:class:`~porthamiltonian.errors.ModelError` naming the column, row or parameter.
"""

from __future__ import annotations

import csv
import math
import os
import pathlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ModelError

__all__ = ["Data", "Bounds", "read_data", "parse_params", "parse_fit_param", "split_header",
           "unit_scale", "LOG_RATIO"]

#: bounds ``0 < low < high`` with ``high/low`` at least this are sampled on a log scale
LOG_RATIO = 100.0

_HEADER = re.compile(r"^\s*(?P<name>.*?)\s*\[(?P<unit>[^\[\]]*)\]\s*$")


@dataclass(frozen=True)
class Data:
    """Measured series: ``t`` (s, shape ``(n,)``), ``columns`` (variable names as
    written, units stripped), ``values`` (shape ``(n, len(columns))``, in the units of
    ``units``: the unit text of each header, ``""`` when none) and ``source`` (the file,
    or ``"the data"``) for messages."""

    t: np.ndarray
    columns: tuple[str, ...]
    values: np.ndarray
    units: tuple[str, ...]
    source: str = "the data"

    def select(self, names: Sequence[str]) -> Data:
        """Only the columns ``names`` (in that order); :class:`ModelError` for a name
        that is not a column."""
        missing = [n for n in names if n not in self.columns]
        if missing:
            raise ModelError(f"variables={missing!r}: not columns of {self.source}; its "
                             f"columns are {', '.join(self.columns)}")
        idx = [self.columns.index(n) for n in names]
        return Data(self.t, tuple(names), self.values[:, idx],
                    tuple(self.units[i] for i in idx), self.source)


def split_header(text: str) -> tuple[str, str]:
    """``"q [mm]"`` → ``("q", "mm")``; ``"q"`` → ``("q", "")``."""
    m = _HEADER.match(text)
    if m is None:
        return text.strip(), ""
    return m.group("name"), m.group("unit").strip()


def unit_scale(unit: str, expected: str, what: str) -> tuple[float, float]:
    r"""``(scale, offset)`` turning values written in ``unit`` into SI
    (:math:`x_{SI} = \mathrm{scale}\cdot x + \mathrm{offset}`), after checking that
    ``unit`` has the dimension of ``expected`` (an SI unit text; ``""``: not checked).
    Raises :class:`ModelError` naming ``what`` for an unreadable unit or another
    dimension."""
    from ..io.units import convert, describe, dim_of_unit

    if not unit:
        return 1.0, 0.0
    try:
        zero, one = convert("0", unit).si, convert("1", unit).si
        given = dim_of_unit(unit)
    except ModelError as err:
        raise ModelError(f"{what}: {err}") from None
    if expected:
        try:
            want = dim_of_unit(expected)
        except ModelError:  # a unit text the registry cannot read: nothing to check
            want = given
        if given != want:
            raise ModelError(f"{what}: the unit [{unit}] is a {describe(given)}, but the "
                             f"variable is in {expected} ({describe(want)}); give the column "
                             f"in a unit of {describe(want)}")
    return one - zero, zero


# ------------------------------------------------------------------------------ data
def read_data(data: Any) -> Data:
    """The measured series of ``data`` (see the module docstring), checked."""
    if isinstance(data, (str, os.PathLike)):
        return _checked(*_read_csv(pathlib.Path(data)), source=str(data))
    if hasattr(data, "columns") and hasattr(data, "to_numpy"):
        return _checked(*_from_frame(data), source="the DataFrame")
    if isinstance(data, Mapping):
        header = [str(k) for k in data]
        try:
            cols = [np.asarray(v, dtype=float).ravel() for v in data.values()]
        except (TypeError, ValueError) as err:
            raise ModelError(f"the data mapping holds something that is not numbers ({err}); "
                             "give {'t': times, name: values, …} with arrays of numbers") from None
        lengths = {h: c.size for h, c in zip(header, cols, strict=True)}
        if len(set(lengths.values())) > 1:
            raise ModelError(f"the data columns differ in length ({lengths}); give one value "
                             "per time in every column")
        return _checked(header, np.column_stack(cols) if cols else np.empty((0, 0)), None,
                        source="the data")
    raise ModelError(f"cannot read data from a {type(data).__name__}: give a CSV file, a "
                     "pandas DataFrame or a mapping {'t': times, name: values}")


def _read_csv(path: pathlib.Path) -> tuple[list[str], np.ndarray, list[int]]:
    try:
        with path.open(newline="", encoding="utf-8-sig") as fh:
            rows = [(k, row) for k, row in enumerate(csv.reader(fh), start=1)
                    if row and not row[0].lstrip().startswith("#")
                    and any(c.strip() for c in row)]
    except FileNotFoundError:
        raise ModelError(f"data file {path} not found") from None
    except (OSError, UnicodeDecodeError, csv.Error) as err:
        raise ModelError(f"cannot read the data file {path} ({err})") from None
    if not rows:
        raise ModelError(f"{path}: no header row; the first line names the columns "
                         "(t, then the measured variables)")
    (_, header), body = rows[0], rows[1:]
    values = np.empty((len(body), len(header)))
    for i, (line, row) in enumerate(body):
        if len(row) != len(header):
            raise ModelError(f"{path}:{line}: {len(row)} cells, but the header has "
                             f"{len(header)} columns")
        for j, cell in enumerate(row):
            try:
                values[i, j] = float(cell)
            except ValueError:
                raise ModelError(f"{path}:{line}: column {header[j].strip()!r}: "
                                 f"{cell.strip()[:40]!r} is not a number") from None
    return [h.strip() for h in header], values, [line for line, _ in body]


def _from_frame(df: Any) -> tuple[list[str], np.ndarray, None]:
    units = dict(getattr(df, "attrs", {}).get("units", {}) or {})
    header = [str(c) for c in df.columns]
    try:
        values = np.asarray(df.to_numpy(), dtype=float)
    except (TypeError, ValueError) as err:
        raise ModelError(f"the DataFrame holds something that is not numbers ({err})") from None
    if "t" not in [split_header(h)[0] for h in header] and getattr(df.index, "name", None) == "t":
        header = ["t", *header]
        values = np.column_stack([np.asarray(df.index, dtype=float), values])
    header = [h if split_header(h)[1] or not units.get(h) else f"{h} [{units[h]}]"
              for h in header]
    return header, values.reshape(len(df), len(header)), None


def _checked(header: list[str], values: np.ndarray, lines: list[int] | None, *,
             source: str) -> Data:
    names, units = zip(*(split_header(h) for h in header), strict=True) if header else ((), ())
    names, units = list(names), list(units)
    if "t" not in names:
        raise ModelError(f"{source} has no column t (the times, s); its columns are "
                         f"{', '.join(names) or '(none)'}")
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ModelError(f"{source}: the column {dup[0]!r} appears twice; give each measured "
                         "variable once")
    if len(names) < 2:
        raise ModelError(f"{source} has only the column t; add a column per measured variable, "
                         "named as in the results (e.g. q, mass.v, L1.i)")
    if values.shape[0] == 0:
        raise ModelError(f"{source} has no rows of data")
    bad = np.argwhere(~np.isfinite(values))
    if bad.size:
        i, j = bad[0]
        where = f"line {lines[i]}" if lines else f"row {i}"
        raise ModelError(f"{source}: column {names[j]!r}, {where}: {values[i, j]!r} is not a "
                         "finite number; remove the row or give the measured value")
    k = names.index("t")
    scale, offset = unit_scale(units[k], "s", f"{source}: column t")
    t = values[:, k] * scale + offset
    if np.any(np.diff(t) <= 0):
        i = int(np.argmax(np.diff(t) <= 0)) + 1
        where = f"line {lines[i]}" if lines else f"row {i}"
        raise ModelError(f"{source}: the times must increase strictly; at {where} t = {t[i]:g} s "
                         f"follows t = {t[i - 1]:g} s")
    keep = [j for j in range(len(names)) if j != k]
    return Data(t, tuple(names[j] for j in keep), values[:, keep],
                tuple(units[j] for j in keep), source)


# ------------------------------------------------------------------------ parameters
@dataclass(frozen=True)
class Bounds:
    """The parameters to fit: ``names``, ``guess``, ``low``, ``high`` (arrays, ±inf
    where unbounded) and ``log`` (whether a multi-start samples each on a log scale)."""

    names: tuple[str, ...]
    guess: np.ndarray
    low: np.ndarray
    high: np.ndarray
    log: np.ndarray

    @property
    def bounded(self) -> np.ndarray:
        return np.isfinite(self.low) & np.isfinite(self.high)


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
        raise ModelError(f"{what} must be a number, got {value!r}")
    x = float(value)
    if math.isnan(x):
        raise ModelError(f"{what} must be a number, got NaN")
    return x


def parse_params(params: Mapping[str, Any], known: Sequence[str]) -> Bounds:
    """The parameters to fit (module docstring); ``known`` are the model's parameter
    names, listed when a name is not one of them."""
    if not isinstance(params, Mapping) or not params:
        raise ModelError("give the parameters to fit: {name: guess}, {name: (low, high)} or "
                         f"{{name: (low, high, guess)}}; the model's parameters: "
                         f"{', '.join(known) or '(none)'}")
    unknown = [n for n in params if n not in known]
    if unknown:
        raise ModelError(f"{unknown[0]!r} is not a parameter of the model; its parameters: "
                         f"{', '.join(known) or '(none)'}")
    rows = []
    for name, spec in params.items():
        if isinstance(spec, (tuple, list)):
            if len(spec) not in (2, 3):
                raise ModelError(f"parameter {name}: give a guess, (low, high) or (low, high, "
                                 f"guess), not {len(spec)} numbers")
            low = _number(spec[0], f"parameter {name}: low")
            high = _number(spec[1], f"parameter {name}: high")
            if not low < high:
                raise ModelError(f"parameter {name}: low = {low:g} is not below high = "
                                 f"{high:g}; give (low, high) with low < high")
            log = bool(0 < low and math.isfinite(high) and high / low >= LOG_RATIO)
            if len(spec) == 3:
                guess = _number(spec[2], f"parameter {name}: guess")
            elif log:
                guess = math.sqrt(low * high)
            elif math.isfinite(low) and math.isfinite(high):
                guess = 0.5 * (low + high)
            else:
                raise ModelError(f"parameter {name}: with an infinite bound give a guess too: "
                                 "(low, high, guess)")
            if not low <= guess <= high:
                raise ModelError(f"parameter {name}: the guess {guess:g} is outside its bounds "
                                 f"[{low:g}, {high:g}]")
        else:
            guess = _number(spec, f"parameter {name}")
            low, high, log = -math.inf, math.inf, False
        if not math.isfinite(guess):
            raise ModelError(f"parameter {name}: the guess must be finite, got {guess!r}")
        rows.append((name, guess, low, high, log))
    names, guess, low, high, log = zip(*rows, strict=True)
    return Bounds(tuple(names), np.array(guess), np.array(low), np.array(high),
                  np.array(log, dtype=bool))


def parse_fit_param(text: str) -> tuple[str, float | tuple[float, ...]]:
    """``"k=5"`` → ``("k", 5.0)``; ``"k=1:20"`` → ``("k", (1.0, 20.0))``;
    ``"k=1:20:5"`` → ``("k", (1.0, 20.0, 5.0))`` (the command line's ``--param``)."""
    name, sep, spec = text.partition("=")
    name = name.strip()
    if not sep or not name or not spec.strip():
        raise ModelError(f"--param {text!r}: write NAME=GUESS, NAME=LOW:HIGH or "
                         "NAME=LOW:HIGH:GUESS (e.g. k=5 or k=1:20)")
    parts = [p.strip() for p in spec.split(":")]
    try:
        numbers = [float(p) for p in parts]
    except ValueError:
        raise ModelError(f"--param {text!r}: {spec.strip()!r} is not a number or LOW:HIGH[:GUESS] "
                         "range of numbers") from None
    if len(numbers) == 1:
        return name, numbers[0]
    if len(numbers) in (2, 3):
        return name, tuple(numbers)
    raise ModelError(f"--param {text!r}: give GUESS, LOW:HIGH or LOW:HIGH:GUESS, not "
                     f"{len(numbers)} numbers")
