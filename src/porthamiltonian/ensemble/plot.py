"""A figure of an ensemble: every run of each chosen variable, coloured by a swept
parameter, with the mean and the 5–95 % band over the successful runs.

One panel per variable, its y-label the variable's name and unit (``L1.i (A)``), the
time axis in s, a colorbar naming the colouring parameter (and its unit when the model
file gives one); failed runs are left out and counted in the title.
"""

from __future__ import annotations

import pathlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ModelError
from ..quantities import pretty_unit
from ..simulate.output.export import netcdf_name

__all__ = ["plot_sweep"]


def _label(ds: Any, key: str) -> str:
    attrs = ds[key].attrs
    unit = attrs.get("units", "") or "1"
    return f"{attrs.get('long_name', key)} ({pretty_unit(unit) if unit != '1' else '1'})"


def plot_sweep(ds: Any, names: Sequence[str] | None = None,
               path: str | pathlib.Path | None = None, color_by: str | None = None,
               band: tuple[str, str] = ("q5", "q95")) -> Any:
    """Plot the runs of ``ds`` (a :func:`~porthamiltonian.ensemble.sweep` dataset kept
    with ``keep="series"``); ``names`` the variables (default: the first two states'
    co-energies or states), ``color_by`` a swept parameter (default: the first).
    Saves to ``path`` when given; returns the figure."""
    import matplotlib

    if path is not None:
        matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    series = [k for k in ds.data_vars if ds[k].dims == ("run", "time")]
    if not series:
        raise ModelError("the dataset keeps no series over time (keep='summary'); "
                         "sweep again with keep='series' to plot the runs")
    if names is None:
        shown = [k for k in series if ds[k].attrs.get("role") == "coenergy"]
        states = [k for k in series if ds[k].attrs.get("role") == "state"]
        names = [ds[k].attrs.get("long_name", k) for k in (shown or states)[:2]]
    keys = []
    for n in names:
        key = netcdf_name(n)
        if key not in series:
            raise ModelError(f"{n!r} is not a series of the dataset; its series: "
                             f"{', '.join(ds[k].attrs.get('long_name', k) for k in series)}")
        keys.append(key)
    params = [c for c in ds.coords if ds[c].dims == ("run",) and c != "run"]
    if color_by is not None and netcdf_name(color_by) not in params:
        raise ModelError(f"{color_by!r} is not a swept parameter; they are: "
                         f"{', '.join(params) or 'none'}")
    by = netcdf_name(color_by) if color_by else (params[0] if params else None)
    ok = np.asarray(ds["success"].values, dtype=bool)
    t = np.asarray(ds["time"].values, dtype=float)
    fig, axes = plt.subplots(len(keys), 1, figsize=(7.5, 2.6 * len(keys) + 0.6),
                             sharex=True, squeeze=False, layout="constrained")
    cmap = plt.get_cmap("viridis")
    values = np.asarray(ds[by].values, dtype=float) if by else np.zeros(ok.size)
    lo, hi = (float(np.min(values)), float(np.max(values))) if values.size else (0.0, 1.0)
    norm = matplotlib.colors.Normalize(lo, hi if hi > lo else lo + 1.0)
    for ax, key in zip(axes[:, 0], keys, strict=True):
        data = np.asarray(ds[key].values, dtype=float)
        for r in np.flatnonzero(ok):
            ax.plot(t, data[r], color=cmap(norm(values[r])), lw=0.7, alpha=0.6)
        stats = f"{ds[key].attrs.get('long_name', key)}.stats"
        skey = netcdf_name(stats)
        if skey in ds and all(b in ds["statistic"].values for b in band):
            s = ds[skey]
            ax.fill_between(t, s.sel(statistic=band[0]).values, s.sel(statistic=band[1]).values,
                            color="0.5", alpha=0.25, lw=0,
                            label=f"{band[0][1:]}–{band[1][1:]} % of the runs")
            ax.plot(t, s.sel(statistic="mean").values, "k--", lw=1.2, label="mean")
            ax.legend(loc="best", fontsize="small")
        ax.set_ylabel(_label(ds, key))
        ax.grid(alpha=0.3)
    axes[-1, 0].set_xlabel("time (s)")
    if by:
        unit = ds[by].attrs.get("units", "")
        bar = fig.colorbar(matplotlib.cm.ScalarMappable(norm=norm, cmap=cmap),
                           ax=axes[:, 0].tolist())
        bar.set_label(f"{ds[by].attrs.get('long_name', by)}"
                      + (f" ({pretty_unit(unit)})" if unit else ""))
    failed = int((~ok).sum())
    fig.suptitle(f"{ds.attrs.get('model', '')}: {int(ok.sum())} runs"
                 + (f" ({failed} failed, not shown)" if failed else ""))
    if path is not None:
        fig.savefig(path, dpi=120)
    return fig
