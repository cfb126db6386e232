r"""Statistics over the runs of an ensemble, per time point, without gathering the runs.

**Moments on the workers.**  Each task summarizes its own runs per time point as
:class:`Moments` — count :math:`n`, mean :math:`\bar y`, sum of squared deviations
:math:`M_2`, minimum and maximum — and the client merges the summaries as they arrive
with the pairwise update of Chan, Golub & LeVeque (*Updating formulae and a pairwise
algorithm for computing sample variances*, Stanford CS report STAN-CS-79-773, 1979):

.. math::
    n = n_a + n_b,\quad \delta = \bar y_b - \bar y_a,\quad
    \bar y = \bar y_a + \delta\,\frac{n_b}{n},\quad
    M_2 = M_{2,a} + M_{2,b} + \delta^2\,\frac{n_a n_b}{n},

so the mean and the standard deviation :math:`\sqrt{M_2/(n-1)}` of any number of runs
are exact without any run's series leaving its worker (``keep="summary"``).  Only
successful runs count; a run that ended early (a terminal event) counts at the times it
reached (NaN elsewhere is skipped).

**Quantiles from the stored runs.**  Quantiles do not merge, so they are computed from
the runs kept (``keep="series"``): from memory, or read back from the netCDF file in
blocks of time points (:func:`quantiles_by_block`, memory bounded by ``block_bytes``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["Moments", "merge_moments", "quantiles_by_block", "STATISTICS", "quantile_label"]

#: the moment statistics, in the order of the ``statistic`` coordinate
STATISTICS = ("count", "mean", "std", "min", "max")


def quantile_label(q: float) -> str:
    """``0.05`` → ``"q5"``, ``0.5`` → ``"q50"``, ``0.975`` → ``"q97.5"``."""
    return f"q{100 * q:g}"


@dataclass
class Moments:
    """Per-time-point count, mean, sum of squared deviations, min and max of one series
    over a set of runs (arrays of the length of the time grid)."""

    count: np.ndarray
    mean: np.ndarray
    m2: np.ndarray
    low: np.ndarray
    high: np.ndarray

    @classmethod
    def of(cls, rows: np.ndarray) -> Moments:
        """The moments of ``rows`` (runs × times), NaN skipped."""
        rows = np.atleast_2d(np.asarray(rows, dtype=float))
        finite = np.isfinite(rows)
        count = finite.sum(axis=0).astype(float)
        total = np.where(finite, rows, 0.0).sum(axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = np.where(count > 0, total / np.maximum(count, 1), np.nan)
        dev = np.where(finite, rows - mean, 0.0)
        m2 = (dev * dev).sum(axis=0)
        low = np.where(finite, rows, np.inf).min(axis=0)
        high = np.where(finite, rows, -np.inf).max(axis=0)
        return cls(count, mean, m2, low, high)

    def merged(self, other: Moments) -> Moments:
        """The moments of both sets of runs (Chan, Golub & LeVeque 1979)."""
        n = self.count + other.count
        with np.errstate(invalid="ignore", divide="ignore"):
            wb = np.where(n > 0, other.count / np.maximum(n, 1), 0.0)
            delta = np.where(other.count > 0, other.mean, 0.0) - \
                np.where(self.count > 0, self.mean, 0.0)
            mean = np.where(self.count > 0, self.mean, 0.0) + delta * wb
            m2 = self.m2 + other.m2 + delta * delta * self.count * wb
        mean = np.where(n > 0, mean, np.nan)
        m2 = np.where((self.count > 0) & (other.count > 0), m2,
                      np.where(self.count > 0, self.m2, other.m2))
        return Moments(n, mean, m2, np.minimum(self.low, other.low),
                       np.maximum(self.high, other.high))

    def table(self) -> np.ndarray:
        """Rows :data:`STATISTICS` (count, mean, std with ``n − 1``, min, max) × times;
        NaN where no run reached a time."""
        n = self.count
        with np.errstate(invalid="ignore", divide="ignore"):
            std = np.where(n > 1, np.sqrt(np.maximum(self.m2, 0.0) / np.maximum(n - 1, 1)),
                           np.where(n == 1, 0.0, np.nan))
        empty = n == 0
        return np.vstack([n, self.mean, std, np.where(empty, np.nan, self.low),
                          np.where(empty, np.nan, self.high)])


def merge_moments(into: dict[str, Moments], part: dict[str, Moments]) -> None:
    """Merge the per-series moments ``part`` into ``into`` (in place)."""
    for name, m in part.items():
        into[name] = into[name].merged(m) if name in into else m


def quantiles_by_block(read: Callable[[slice], np.ndarray], n_runs: int, n_times: int,
                       quantiles: Sequence[float], ok: np.ndarray,
                       block_bytes: int = 32 * 2**20) -> np.ndarray:
    """Quantiles over the successful runs (``ok``) per time point, reading
    ``read(slice_of_times)`` → (runs × block) a block of time points at a time;
    returns (len(quantiles) × times), NaN where no successful run has a value."""
    out = np.full((len(quantiles), n_times), np.nan)
    if not len(quantiles) or not np.any(ok):
        return out
    step = max(1, block_bytes // (8 * max(1, n_runs)))
    for a in range(0, n_times, step):
        block = np.asarray(read(slice(a, min(n_times, a + step))), dtype=float)[ok]
        out[:, a:a + block.shape[1]] = _nan_quantiles(block, quantiles)
    return out


def _nan_quantiles(block: np.ndarray, quantiles: Sequence[float]) -> np.ndarray:
    """Quantiles down each column, NaN skipped, linear interpolation between order
    statistics (NumPy's default ``"linear"`` method), vectorized over the columns
    (:func:`numpy.nanquantile` loops over them in Python)."""
    if block.shape[0] == 0:
        return np.full((len(quantiles), block.shape[1]), np.nan)
    ordered = np.sort(block, axis=0)  # NaN sorts last
    n = np.isfinite(block).sum(axis=0)
    out = np.full((len(quantiles), block.shape[1]), np.nan)
    has = n > 0
    for j, q in enumerate(quantiles):
        pos = q * (np.maximum(n, 1) - 1)
        lo = np.floor(pos).astype(int)
        hi = np.minimum(lo + 1, np.maximum(n, 1) - 1)
        a = np.take_along_axis(ordered, lo[None, :], axis=0)[0]
        b = np.take_along_axis(ordered, hi[None, :], axis=0)[0]
        out[j] = np.where(has, a + (pos - lo) * (b - a), np.nan)
    return out
