"""``porthamiltonian sweep MODEL --param NAME=VALUES ... [--out FILE.nc]`` (docs/cli.md).

Runs the model file's ``simulate:`` section once per parameter point — the grid of the
``--param`` values, ``--samples N`` points drawn in their ranges (Latin hypercube or
Monte Carlo, ``--seed``), or the rows of ``--table FILE.csv`` — on local processes
(``--workers``) or a Dask cluster (``--scheduler tcp://host:8786``), and writes one
netCDF dataset with dimensions ``run`` × ``time`` (docs/ensembles.md).  Failed runs are
kept in the dataset with their error and listed; the command fails (exit 2) only when
every run failed.  Without ``--out`` a summary of the final values is printed.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np

from ..errors import ModelError
from ..quantities import pretty_unit

__all__ = ["run_command", "summary"]


def run_command(args: argparse.Namespace) -> int:
    """Run the subcommand; user errors raise :class:`ModelError` (exit 2 in ``cli.main``)."""
    from ..ensemble.space import from_table, points_from_specs
    from ..ensemble.sweep import sweep
    from .commands import METHOD_NAMES

    if args.table and args.param:
        raise ModelError("give the points either with --param or with --table, not both")
    if not args.table and not args.param:
        raise ModelError("nothing to sweep: give --param NAME=a,b,c (or start:stop:count), "
                         "or --table FILE.csv")
    if args.samples is not None and args.table:
        raise ModelError("--samples draws points in --param ranges; a --table gives its own")
    if args.method is not None and args.method not in METHOD_NAMES:
        raise ModelError(f"unknown method {args.method!r}; choose one of "
                         f"{', '.join(METHOD_NAMES)}")
    if args.out and not args.out.lower().endswith(".nc"):
        raise ModelError(f"--out {args.out}: a sweep is written as netCDF; give FILE.nc")
    points = from_table(args.table) if args.table else \
        points_from_specs(args.param, args.samples, args.sampling, args.seed)
    overrides = {k: v for k, v in (("method", args.method), ("dt", args.dt)) if v is not None}
    ds = sweep(args.model, points, t_end=args.t_end, n_times=args.points, keep=args.keep,
               executor=args.scheduler, workers=args.workers, out=args.out,
               progress=not args.no_progress, **overrides)
    print(summary(ds, args.out))
    return 0


def _unit(ds: Any, key: str) -> str:
    unit = ds[key].attrs.get("units", "")
    return f" {pretty_unit(unit)}" if unit and unit != "1" else ""


#: at most this many variables in the summary
_SUMMARY_VALUES = 12


def summary(ds: Any, out: str | None = None) -> str:
    """A few lines: runs and failures (with the first errors), where the dataset went,
    and the spread of each variable's final value over the successful runs."""
    runs, failed = int(ds.attrs.get("runs", ds.sizes["run"])), int(ds.attrs.get("failed", 0))
    lines = [f"sweep: {runs} runs, {failed} failed, on {ds.attrs.get('executor', '')}"
             + (f"; written to {out}" if out else "")]
    ok = np.asarray(ds["success"].values, dtype=bool)
    for k in np.flatnonzero(~ok)[:5]:
        point = ", ".join(f"{ds[c].attrs.get('long_name', c)} = {float(ds[c].values[k]):.6g}"
                          for c in ds.coords if ds[c].dims == ("run",) and c != "run")
        lines.append(f"  run {k} failed ({point}): {ds['message'].values[k]}")
    if failed > 5:
        lines.append(f"  … {failed - 5} more failed runs (see the variable 'message')")
    finals = [k for k in ds.data_vars if ds[k].attrs.get("long_name", "").endswith(".final")
              and ds[k].attrs.get("role") not in ("power", "residual")]
    if ok.any() and finals:
        lines.append("  final values over the successful runs (min … mean … max):")
        for key in finals[:_SUMMARY_VALUES]:
            v = np.asarray(ds[key].values, dtype=float)[ok]
            name = ds[key].attrs["long_name"][:-len(".final")]
            lines.append(f"    {name}: {np.nanmin(v):.6g} … {np.nanmean(v):.6g} … "
                         f"{np.nanmax(v):.6g}{_unit(ds, key)}")
    residual = np.asarray(ds["energy_residual"].values, dtype=float)[ok]
    if residual.size:
        lines.append(f"  largest power-balance residual of a step: {np.nanmax(residual):.3g} J")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover
    sys.exit("run it as: porthamiltonian sweep MODEL ...")
