"""Ensembles: parameter sweeps, Monte Carlo, Latin hypercubes and parameter fits, on
this machine's processes or a Dask cluster (docs/ensembles.md).

>>> ds = sweep("examples/models/series_rlc.yaml", {"R": [5, 10, 20]})   # doctest: +SKIP
>>> ds["C1.v"].sel(time=0.01, method="nearest")                         # doctest: +SKIP
"""

from __future__ import annotations

from .executors import open_executor
from .fit import FitResult, fit
from .space import Points, from_table, grid, latin_hypercube, monte_carlo, parse_param
from .sweep import sweep

__all__ = ["sweep", "fit", "FitResult", "Points", "grid", "latin_hypercube", "monte_carlo",
           "from_table", "parse_param", "open_executor"]
