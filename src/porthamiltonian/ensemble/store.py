r"""The dataset of an ensemble, filled run by run: in memory, or streamed to netCDF.

Layout (the same in memory and in the file):

* coordinates ``run`` (0 … N−1) and ``time`` (s); each swept parameter a coordinate
  along ``run`` named after the parameter (``<name>.parameter`` if a series has that
  name too);
* along ``run`` × ``time`` (``keep="series"``): one variable per exported series —
  states, inputs, outputs, shown co-energies, ``H`` (J), the powers (W) and
  ``power_residual`` (J) — with ``units``, ``long_name``, ``kind``, ``role``,
  ``element`` as :func:`~porthamiltonian.simulate.output.export.to_xarray` writes them;
  NaN after a failure or a terminal event;
* along ``run``: ``success`` (1/0), ``message`` (the error of a failed run, else
  empty), ``energy_residual`` (J, the largest per-step power-balance residual),
  ``energy_balance`` (J, :math:`H(T) - H(0) - \int u^\top y\,dt + \int d\,dt`, zero up
  to round-off for an exact method), ``t_reached`` (s), ``nsteps``, ``cpu_time`` (s),
  and ``<series>.final`` for each series (its last value);
* along ``statistic`` × ``time``: ``<series>.stats`` with the statistics ``count``,
  ``mean``, ``std``, ``min``, ``max`` (merged from the workers) and the quantiles
  ``q5``, ``q50``, ``q95`` … (from the kept runs) over the successful runs;
* attributes: ``model``, ``design`` (grid, latin_hypercube, monte_carlo, table),
  ``seed``, ``runs``, ``failed``, ``executor``, ``keep``.

Names are netCDF-safe (:func:`~porthamiltonian.simulate.output.export.netcdf_name`).
:class:`NetCDFStore` writes each run's row when it arrives with the netCDF4 library
(the file's variables are chunked by run), so an ensemble larger than memory only ever
holds the runs in flight; the dataset returned is the file opened lazily by xarray.
"""

from __future__ import annotations

import pathlib
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ModelError
from ..simulate.output.export import DATA_EXTRA, NETCDF_ENGINE, netcdf_name
from .runner import RunRecord
from .space import Points
from .stats import STATISTICS, Moments, quantile_label, quantiles_by_block

__all__ = ["MemoryStore", "NetCDFStore", "open_store", "RUN_VARIABLES", "memory_budget"]

#: the per-run variables: name → (units, description, dtype)
RUN_VARIABLES: dict[str, tuple[str, str, str]] = {
    "success": ("1", "1 if the run completed, 0 if it failed", "i1"),
    "energy_residual": ("J", "largest |ΔH − ∫(uᵀy − d) dt| over one step", "f8"),
    "energy_balance": ("J", "H(T) − H(0) − ∫uᵀy dt + ∫d dt over the run", "f8"),
    "t_reached": ("s", "time the run reached", "f8"),
    "nsteps": ("1", "steps taken", "i8"),
    "cpu_time": ("s", "CPU time of the run on its worker", "f8"),
}


def _series_attrs(v: Any) -> dict[str, str]:
    return {"long_name": v.name, "units": v.unit, "kind": v.kind, "role": v.role,
            "element": v.element, "description": v.description}


def memory_budget() -> int:
    """Bytes an in-memory dataset may take: half the physical memory (4 GiB where it
    cannot be read)."""
    import os

    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (AttributeError, ValueError, OSError):
        return 4 * 2**30


class _Base:
    """What both stores share: the layout, the names and the per-run bookkeeping."""

    def __init__(self, points: Points, times: np.ndarray, attrs: dict[str, Any],
                 units: dict[str, str] | None = None) -> None:
        self.points, self.times, self.attrs = points, np.asarray(times, dtype=float), attrs
        self.units = units or {}
        self.n = len(points)
        self.variables: list[Any] = []  # of the series, set by the first successful run
        self.ok = np.zeros(self.n, dtype=bool)
        self.failed = 0

    def coordinate_name(self, name: str) -> str:
        clash = {v.name for v in self.variables} | set(RUN_VARIABLES) | {"message"}
        return netcdf_name(f"{name}.parameter" if name in clash else name)

    def _start_series(self, rec: RunRecord) -> None:
        """Create the series' variables from the first successful run."""

    def add(self, records: list[RunRecord]) -> None:
        """Store the runs of one task (consecutive indices, as the sweep makes them)."""
        for rec in records:
            if rec.ok and not self.variables and rec.variables:
                self.variables = list(rec.variables)
                self._start_series(rec)
            self.ok[rec.index] = rec.ok
            self.failed += not rec.ok
        self._write(records)

    def _write(self, records: list[RunRecord]) -> None:
        raise NotImplementedError

    def statistics(self, moments: dict[str, Moments], quantiles: Sequence[float]
                   ) -> dict[str, np.ndarray]:
        """``name → (statistic × time)`` for each series."""
        out = {}
        for v in self.variables:
            m = moments.get(v.name)
            table = m.table() if m is not None else np.full((len(STATISTICS), self.times.size),
                                                            np.nan)
            q = quantiles_by_block(lambda s, v=v: self._column_block(v.name, s), self.n,
                                   self.times.size, quantiles, self.ok) \
                if self._has_series() else np.full((len(quantiles), self.times.size), np.nan)
            out[v.name] = np.vstack([table, q])
        return out

    def _has_series(self) -> bool:
        return self.attrs.get("keep") == "series"

    def _column_block(self, name: str, times: slice) -> np.ndarray:
        raise NotImplementedError


class MemoryStore(_Base):
    """The dataset in memory (:meth:`finish` returns an :class:`xarray.Dataset`)."""

    def __init__(self, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        self.run = {k: np.full(self.n, np.nan if d == "f8" else 0,
                               dtype=float if d == "f8" else int)
                    for k, (_, _, d) in RUN_VARIABLES.items()}
        self.message = np.array([""] * self.n, dtype=object)
        self.series: dict[str, np.ndarray] = {}
        self.finals: dict[str, np.ndarray] = {}

    def _start_series(self, rec: RunRecord) -> None:
        per_run = len(self.variables) * ((self.times.size if self._has_series() else 0) + 1)
        need = 8 * self.n * per_run  # the series and the final values, float64
        if need > memory_budget():
            raise ModelError(
                f"the dataset would take {need / 2**30:.1f} GiB in memory ({self.n} runs × "
                f"{self.times.size} times × {len(self.variables)} series); write it to a "
                "file as the runs finish (out='runs.nc', --out runs.nc), keep fewer times "
                "(n_times) or variables, or keep='summary'")
        for v in self.variables:
            if self._has_series():
                self.series[v.name] = np.full((self.n, self.times.size), np.nan)
            self.finals[v.name] = np.full(self.n, np.nan)

    def _write(self, records: list[RunRecord]) -> None:
        for rec in records:
            k = rec.index
            for name in RUN_VARIABLES:
                self.run[name][k] = getattr(rec, name) if name != "success" else int(rec.ok)
            self.message[k] = rec.message
            for name, arr in self.series.items():
                if rec.series and name in rec.series:
                    arr[k] = rec.series[name]
            for name, arr in self.finals.items():
                arr[k] = rec.finals.get(name, np.nan)

    def _column_block(self, name: str, times: slice) -> np.ndarray:
        return self.series[name][:, times]

    def finish(self, moments: dict[str, Moments], quantiles: Sequence[float]) -> Any:
        import xarray as xr

        stats = self.statistics(moments, quantiles)
        data: dict[str, Any] = {}
        for v in self.variables:
            key = netcdf_name(v.name)
            if v.name in self.series:
                data[key] = (("run", "time"), self.series[v.name], _series_attrs(v))
            data[netcdf_name(f"{v.name}.final")] = (
                "run", self.finals[v.name], {**_series_attrs(v), "long_name": f"{v.name}.final",
                                             "description": f"last value of {v.name}"})
            data[netcdf_name(f"{v.name}.stats")] = (
                ("statistic", "time"), stats[v.name],
                {**_series_attrs(v), "long_name": f"{v.name}.stats",
                 "description": f"statistics of {v.name} over the successful runs"})
        for name, (unit, text, _) in RUN_VARIABLES.items():
            data[name] = ("run", self.run[name], {"units": unit, "description": text})
        data["message"] = ("run", self.message.astype(str),
                           {"description": "the error of a failed run (empty if it succeeded)"})
        return xr.Dataset(data, coords=_coords(self, quantiles), attrs=_attrs(self))


def _coords(store: _Base, quantiles: Sequence[float]) -> dict[str, Any]:
    coords: dict[str, Any] = {
        "run": ("run", np.arange(store.n), {"long_name": "run"}),
        "time": ("time", store.times, {"units": "s", "long_name": "time"}),
        "statistic": ("statistic", np.array([*STATISTICS,
                                             *(quantile_label(q) for q in quantiles)])),
    }
    for j, name in enumerate(store.points.names):
        coords[store.coordinate_name(name)] = (
            "run", store.points.values[:, j],
            {"long_name": name, "units": store.units.get(name, ""),
             "description": f"swept parameter {name}"})
    return coords


def _attrs(store: _Base) -> dict[str, Any]:
    return {**{k: v for k, v in store.attrs.items() if v is not None},
            "runs": store.n, "failed": int(store.failed)}


class NetCDFStore(_Base):
    """The dataset streamed to a netCDF-4 file as the runs arrive (see the module
    docstring); :meth:`finish` closes it and returns it opened lazily by xarray."""

    def __init__(self, path: pathlib.Path, *a: Any, **kw: Any) -> None:
        super().__init__(*a, **kw)
        try:
            import netCDF4
        except ImportError:
            raise ModelError(f"writing {path} needs the netCDF4 package; install the data "
                             f"extra: {DATA_EXTRA}") from None
        self.path = path
        try:
            self.nc = netCDF4.Dataset(path, "w", format="NETCDF4")
        except OSError as err:
            raise ModelError(f"{path}: cannot write it ({err})") from None
        nc, n, t = self.nc, self.n, self.times.size
        nc.createDimension("run", n)
        nc.createDimension("time", t)
        run = nc.createVariable("run", "i8", ("run",))
        run[:] = np.arange(n)
        run.long_name = "run"
        tv = nc.createVariable("time", "f8", ("time",))
        tv[:] = self.times
        tv.units, tv.long_name = "s", "time"
        self.run_vars = {}
        for name, (unit, text, dtype) in RUN_VARIABLES.items():
            var = nc.createVariable(name, dtype, ("run",),
                                    fill_value=np.nan if dtype == "f8" else None)
            var.units, var.description = unit, text
            self.run_vars[name] = var
        self.message = nc.createVariable("message", str, ("run",))
        self.message.description = "the error of a failed run (empty if it succeeded)"
        self.series_vars: dict[str, Any] = {}
        self.final_vars: dict[str, Any] = {}
        self.written = np.zeros(n, dtype=bool)

    def _start_series(self, rec: RunRecord) -> None:
        nc, t = self.nc, self.times.size
        for v in self.variables:
            if self._has_series():
                # a run's row is one chunk, written whole: a cache of two chunks per
                # variable (HDF5's default, ~1 MiB each, grows with the variables)
                var = nc.createVariable(netcdf_name(v.name), "f8", ("run", "time"),
                                        fill_value=np.nan, chunksizes=(1, max(1, t)),
                                        chunk_cache=16 * max(1, t))
                var.setncatts(_series_attrs(v))
                self.series_vars[v.name] = var
            fin = nc.createVariable(netcdf_name(f"{v.name}.final"), "f8", ("run",),
                                    fill_value=np.nan)
            fin.setncatts({**_series_attrs(v), "long_name": f"{v.name}.final",
                           "description": f"last value of {v.name}"})
            self.final_vars[v.name] = fin

    def _write(self, records: list[RunRecord]) -> None:
        """One write per variable for each block of consecutive runs (a write costs
        about as much for one run as for a block: the file is written run by run)."""
        records = sorted(records, key=lambda r: r.index)
        start = 0
        for end in range(1, len(records) + 1):
            if end == len(records) or records[end].index != records[end - 1].index + 1:
                self._write_block(records[start:end])
                start = end

    def _write_block(self, block: list[RunRecord]) -> None:
        rows = slice(block[0].index, block[-1].index + 1)
        for name, var in self.run_vars.items():
            var[rows] = np.array([int(r.ok) if name == "success" else getattr(r, name)
                                  for r in block])
        for r in block:  # variable-length strings: one at a time
            self.message[r.index] = r.message
        t = self.times.size
        for name, var in self.series_vars.items():
            var[rows, :] = np.vstack([r.series[name] if r.series and name in r.series
                                      else np.full(t, np.nan) for r in block])
        for name, var in self.final_vars.items():
            var[rows] = np.array([r.finals.get(name, np.nan) for r in block])
        self.written[rows] = True

    def _column_block(self, name: str, times: slice) -> np.ndarray:
        return np.ma.filled(self.series_vars[name][:, times], np.nan)

    def abort(self) -> None:
        """Close the file after an interruption (the runs written so far stay)."""
        if self.nc.isopen():
            self.nc.setncatts({k: v for k, v in _attrs(self).items()})
            self.nc.incomplete = "the ensemble was interrupted; runs not written are NaN"
            self.nc.close()

    def finish(self, moments: dict[str, Moments], quantiles: Sequence[float]) -> Any:
        import xarray as xr

        stats = self.statistics(moments, quantiles)
        nc = self.nc
        labels = [*STATISTICS, *(quantile_label(q) for q in quantiles)]
        nc.createDimension("statistic", len(labels))
        sv = nc.createVariable("statistic", str, ("statistic",))
        for j, label in enumerate(labels):
            sv[j] = label
        for v in self.variables:
            var = nc.createVariable(netcdf_name(f"{v.name}.stats"), "f8", ("statistic", "time"),
                                    fill_value=np.nan)
            var.setncatts({**_series_attrs(v), "long_name": f"{v.name}.stats",
                           "description": f"statistics of {v.name} over the successful runs"})
            var[:, :] = stats[v.name]
        for name, spec in _coords(self, quantiles).items():
            if name in ("run", "time", "statistic"):
                continue
            kind, values, attrs = spec
            var = nc.createVariable(name, "f8", (kind,))
            var[:] = values
            var.setncatts(attrs)
        coords = " ".join(self.coordinate_name(n) for n in self.points.names)
        for var in [*self.series_vars.values(), *self.final_vars.values(),
                    *self.run_vars.values(), self.message]:
            if coords:  # CF: the parameters are auxiliary coordinates along run
                var.coordinates = coords
        nc.setncatts(_attrs(self))
        nc.close()
        return xr.open_dataset(self.path, engine=NETCDF_ENGINE)


def open_store(out: str | pathlib.Path | None, points: Points, times: np.ndarray,
               attrs: dict[str, Any], units: dict[str, str] | None = None) -> _Base:
    """A :class:`NetCDFStore` when ``out`` names a ``.nc`` file, else a
    :class:`MemoryStore`."""
    if out is None:
        return MemoryStore(points, times, attrs, units)
    path = pathlib.Path(out)
    if path.suffix.lower() != ".nc":
        raise ModelError(f"{path}: an ensemble is written as netCDF; give a file ending in .nc")
    from ..simulate.output.export import check_destination

    check_destination(path)
    return NetCDFStore(path, points, times, attrs, units)
