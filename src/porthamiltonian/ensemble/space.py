r"""Parameter points of an ensemble: grids, Latin hypercubes, Monte Carlo, tables.

Every design returns a :class:`Points`: parameter names and an ``(N, k)`` array of
values (one row per run), with how they were made (``design``, ``seed``) for the
dataset's attributes.

* :func:`grid` — the Cartesian product of each parameter's values; the last parameter
  varies fastest (as :func:`numpy.meshgrid` with ``indexing="ij"``).
* :func:`latin_hypercube` — ``n`` points, each parameter's range cut into ``n`` equal-
  probability strata with exactly one point in each (McKay, Beckman & Conover,
  *Technometrics* 21(2), 1979); :class:`scipy.stats.qmc.LatinHypercube`, seeded.
* :func:`monte_carlo` — ``n`` independent draws, seeded.
* :func:`from_table` — the rows of a CSV file, a :class:`pandas.DataFrame` or a mapping
  of columns.

A parameter's *range* for sampling is ``(low, high)`` (uniform), a list of values
(each equally likely) or a frozen :mod:`scipy.stats` distribution (anything with
``ppf``: ``scipy.stats.norm(1.2, 0.03)`` for a ±5 % tolerance at 2σ), sampled through
its inverse CDF so a Latin hypercube keeps its strata.

:func:`parse_param` reads the command line's ``NAME=a,b,c``, ``NAME=start:stop:count``
and ``NAME=low:high``.
"""

from __future__ import annotations

import csv
import itertools
import math
import pathlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ModelError

__all__ = ["Points", "grid", "latin_hypercube", "monte_carlo", "from_table", "parse_param",
           "points_from_specs", "MAX_POINTS"]

#: most runs one ensemble may have (a typo such as ``R=1:10:1e9`` is refused, not run)
MAX_POINTS = 10_000_000


@dataclass(frozen=True)
class Points:
    """``names`` and ``values`` (``(N, len(names))`` floats): one row per run."""

    names: tuple[str, ...]
    values: np.ndarray
    design: str = "grid"
    seed: int | None = None

    def __len__(self) -> int:
        return int(self.values.shape[0])

    def row(self, k: int) -> dict[str, float]:
        """The ``k``-th point as ``{name: value}``."""
        return {n: float(v) for n, v in zip(self.names, self.values[k], strict=True)}


def _name(name: Any) -> str:
    if not isinstance(name, str) or not name.strip():
        raise ModelError(f"a parameter name must be a non-empty string, got {name!r}")
    return name.strip()


def _values(name: str, values: Any) -> np.ndarray:
    try:
        arr = np.asarray(values, dtype=float).ravel()
    except (TypeError, ValueError):
        raise ModelError(f"parameter {name}: values must be numbers, got {values!r}") from None
    if arr.size == 0:
        raise ModelError(f"parameter {name}: no values given")
    if not np.all(np.isfinite(arr)):
        raise ModelError(f"parameter {name}: values must be finite, got {values!r}")
    return arr


def _check_size(n: int) -> None:
    if n > MAX_POINTS:
        raise ModelError(f"{n} runs is more than the {MAX_POINTS} one ensemble may have; "
                         "use fewer values or --samples")


def grid(params: Mapping[str, Any]) -> Points:
    """Every combination of the values of each parameter (``{name: values}``)."""
    if not params:
        return Points((), np.zeros((1, 0)), "single")
    names = tuple(_name(n) for n in params)
    axes = [_values(n, v) for n, v in zip(names, params.values(), strict=True)]
    _check_size(math.prod(a.size for a in axes))
    rows = np.array(list(itertools.product(*axes)), dtype=float).reshape(-1, len(names))
    return Points(names, rows, "grid")


def _inverse_cdf(name: str, spec: Any) -> Any:
    """The map from a uniform number in [0, 1) to the parameter's value."""
    if hasattr(spec, "ppf"):
        def ppf(u: np.ndarray) -> np.ndarray:
            v = np.asarray(spec.ppf(u), dtype=float)
            if not np.all(np.isfinite(v)):
                raise ModelError(f"parameter {name}: the distribution gave a non-finite value")
            return v
        return ppf
    if isinstance(spec, tuple) and len(spec) == 2:
        low, high = (float(s) for s in _values(name, spec))
        if not high > low:
            raise ModelError(f"parameter {name}: the range ({low:g}, {high:g}) needs "
                             "low < high")
        return lambda u: low + (high - low) * u
    choices = _values(name, spec)
    return lambda u: choices[np.minimum((u * choices.size).astype(int), choices.size - 1)]


def _sampled(params: Mapping[str, Any], n: int, design: str, seed: int | None,
             unit: np.ndarray) -> Points:
    names = tuple(_name(k) for k in params)
    maps = [_inverse_cdf(k, v) for k, v in zip(names, params.values(), strict=True)]
    values = np.column_stack([m(unit[:, j]) for j, m in enumerate(maps)]) if names else \
        np.zeros((n, 0))
    return Points(names, values, design, seed)


def _count(n: Any) -> int:
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n < 1:
        raise ModelError(f"the number of samples must be a positive integer, got {n!r}")
    _check_size(int(n))
    return int(n)


def _seed(seed: Any) -> int | None:
    if seed is None:
        return None
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ModelError(f"the seed must be a non-negative integer (or None), got {seed!r}")
    return int(seed)


def latin_hypercube(params: Mapping[str, Any], n: int, seed: int | None = 0) -> Points:
    """``n`` Latin-hypercube points over the parameters' ranges (see the module
    docstring for what a range may be)."""
    from scipy.stats import qmc

    n, seed = _count(n), _seed(seed)
    unit = qmc.LatinHypercube(d=max(1, len(params)), seed=seed).random(n) if params else \
        np.zeros((n, 0))
    return _sampled(params, n, "latin_hypercube", seed, unit)


def monte_carlo(params: Mapping[str, Any], n: int, seed: int | None = 0) -> Points:
    """``n`` independent random points over the parameters' ranges."""
    n, seed = _count(n), _seed(seed)
    unit = np.random.default_rng(seed).random((n, len(params)))
    return _sampled(params, n, "monte_carlo", seed, unit)


def from_table(table: Any) -> Points:
    """Points from a CSV file (a header row of parameter names, one row per run), a
    :class:`pandas.DataFrame` or a mapping ``{name: column}``."""
    if isinstance(table, (str, pathlib.Path)):
        from ..io.limits import current

        path = pathlib.Path(table)
        limit = current().table_bytes
        if path.is_file() and path.stat().st_size > limit:
            raise ModelError(f"parameter table {path}: {path.stat().st_size / 1e6:.1f} MB, "
                             f"more than the limit of {limit / 1e6:g} MB (--limit "
                             "table_mb=N raises it)")
        try:
            with path.open(newline="", encoding="utf-8") as fh:
                rows = list(csv.reader(fh))
        except OSError as err:
            raise ModelError(f"parameter table {path}: cannot read it "
                             f"({err.strerror or err})") from None
        except (UnicodeDecodeError, csv.Error) as err:
            raise ModelError(f"parameter table {path}: not a CSV text file ({err}); give "
                             "a header row of parameter names and rows of numbers") from None
        if len(rows) < 2:
            raise ModelError(f"parameter table {path}: needs a header row of parameter "
                             "names and at least one row of values")
        header = [h.strip() for h in rows[0]]
        columns: dict[str, list[str]] = {h: [] for h in header}
        for line, row in enumerate(rows[1:], start=2):
            if not any(c.strip() for c in row):
                continue
            if len(row) != len(header):
                raise ModelError(f"parameter table {path}:{line}: {len(row)} values for "
                                 f"{len(header)} columns ({', '.join(header)})")
            for h, c in zip(header, row, strict=True):
                try:
                    columns[h].append(float(c))
                except ValueError:
                    raise ModelError(f"parameter table {path}:{line}: {h} = {c!r} is not a "
                                     "number") from None
        table = columns
    if hasattr(table, "columns") and hasattr(table, "to_numpy"):  # a DataFrame
        table = {str(c): table[c].to_numpy() for c in table.columns}
    if not isinstance(table, Mapping) or not table:
        raise ModelError("a parameter table is a CSV file, a DataFrame or {name: values}")
    names = tuple(_name(n) for n in table)
    cols = [_values(n, table[n]) for n in table]
    if len({c.size for c in cols}) != 1:
        raise ModelError("parameter table: every column needs the same number of values")
    _check_size(cols[0].size)
    return Points(names, np.column_stack(cols), "table")


def _number(name: str, text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ModelError(f"--param {name}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise ModelError(f"--param {name}: {text!r} is not a finite number")
    return value


def parse_param(text: str, sampled: bool = False) -> tuple[str, Any]:
    """``(name, spec)`` from ``NAME=a,b,c`` (values), ``NAME=start:stop:count`` (a linear
    range of ``count`` values, ends included) or — when ``sampled`` — ``NAME=low:high``
    (the range ``(low, high)`` to sample).  A single ``NAME=value`` is one value."""
    name, sep, spec = text.partition("=")
    name, spec = name.strip(), spec.strip()
    if not sep or not name or not spec:
        raise ModelError(f"--param {text!r}: write NAME=a,b,c, NAME=start:stop:count or "
                         "(with --samples) NAME=low:high")
    if ":" in spec:
        parts = [p.strip() for p in spec.split(":")]
        if len(parts) == 2 and sampled:
            low, high = (_number(name, p) for p in parts)
            if not high > low:
                raise ModelError(f"--param {text}: the range needs low < high")
            return name, (low, high)
        if len(parts) != 3:
            raise ModelError(f"--param {text}: a range is start:stop:count" +
                             (" or low:high" if sampled else
                              " (low:high ranges are for --samples)"))
        start, stop = _number(name, parts[0]), _number(name, parts[1])
        try:
            count = int(parts[2])
        except ValueError:
            raise ModelError(f"--param {text}: count {parts[2]!r} must be a whole "
                             "number") from None
        if count < 1:
            raise ModelError(f"--param {text}: count must be at least 1")
        _check_size(count)
        values: Any = np.linspace(start, stop, count)
        return name, ((float(values.min()), float(values.max())) if sampled and count > 1
                      else values)
    return name, np.array([_number(name, p.strip()) for p in spec.split(",")])


def points_from_specs(specs: Sequence[str], samples: int | None = None,
                      sampling: str = "lhs", seed: int | None = 0) -> Points:
    """The points of the command line's ``--param`` options (``--samples``/``--sampling``
    to sample instead of the full grid).  A parameter given twice is refused."""
    parsed = [parse_param(s, sampled=samples is not None) for s in specs]
    names = [n for n, _ in parsed]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ModelError(f"--param {twice[0]} is given more than once")
    params = dict(parsed)
    if samples is None:
        return grid(params)
    if sampling == "lhs":
        return latin_hypercube(params, samples, seed)
    if sampling == "random":
        return monte_carlo(params, samples, seed)
    raise ModelError(f"unknown sampling {sampling!r}; choose lhs or random")
