r"""The result of a simulation: time series with names, energy and power balance.

Series are NumPy arrays over the saved times ``t`` (s).  Powers (W) are
instantaneous values at the saved points: ``stored`` :math:`= \dot H = \nabla H^\top\dot x`,
``supplied`` :math:`= u^\top y`, ``dissipated`` :math:`= d \ge 0`.  The per-interval
``power_residual[k]`` (J) is :math:`\Delta H - \int (u^\top y - d)\,dt` over
:math:`[t_{k-1}, t_k]` as the integrator computed it (its own quadrature of the
port powers; 0 at ``k = 0``); ``work_supplied`` and ``work_dissipated`` are the two
integrals.  Export with :meth:`to_csv`, :meth:`to_json`, :meth:`to_dict` (no extra
library), :meth:`to_pandas`, :meth:`to_xarray`, :meth:`to_netcdf`, :meth:`to_parquet`
(the ``data`` extra; :mod:`.export`), or :meth:`write` by the file's suffix.  In a
notebook a result shows as a summary table (:mod:`.html`).
"""

from __future__ import annotations

import csv
import json
import pathlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...naming import listing
from .export import csv_header, json_units

__all__ = ["SimulationResult"]


@dataclass
class SimulationResult:
    """Time series of a simulation (see the module docstring for units and signs)."""

    t: np.ndarray
    x: np.ndarray
    u: np.ndarray
    y: np.ndarray
    H: np.ndarray
    stored: np.ndarray
    supplied: np.ndarray
    dissipated: np.ndarray
    power_residual: np.ndarray
    work_supplied: np.ndarray
    work_dissipated: np.ndarray
    states: list[str]
    inputs: list[str]
    outputs: list[str]
    method: str
    nfev: int = 0
    newton_iterations: int = 0
    nsteps: int = 0
    message: str = "completed"
    success: bool = True
    extra: dict[str, Any] = field(default_factory=dict)
    #: times (s) of the event occurrences, one array per event function (as ``solve_ivp``)
    t_events: list[np.ndarray] = field(default_factory=list)
    #: states at the event times, one ``(k, n)`` array per event function
    x_events: list[np.ndarray] = field(default_factory=list)
    #: the model's name
    model: str = ""
    #: the physical variables of the model (:class:`.variables.Observer`), set by simulate
    observer: Any = field(default=None, repr=False, compare=False)

    def __getitem__(self, name: str) -> np.ndarray:
        """The series called ``name``: a state, input or output, a co-energy
        (``"L1.i"``, ``"dH/dx0"``), an observable of the model (a merged storage's
        speed, a joint angle), or ``"t"``, ``"H"``, a power.  :attr:`variables` lists
        them all with their units."""
        for names, data in ((self.states, self.x), (self.inputs, self.u), (self.outputs, self.y)):
            if name in names:
                return data[:, names.index(name)]
        if name in ("t", "H", "power_residual", "stored", "supplied", "dissipated"):
            return getattr(self, name)
        derived = self.__dict__.setdefault("_derived", {})
        if name in derived:
            return derived[name]
        val = self._observer().evaluate(self, name)
        if val is not None:
            derived[name] = val
            return val
        raise KeyError(
            f"{name!r} is not a variable of this result; states: {listing(self.states)}; "
            f"inputs: {listing(self.inputs)}; outputs: {listing(self.outputs)}; shown: "
            f"{listing(self.shown)} (res.variables lists all)"
        )

    def _observer(self) -> Any:
        if self.observer is None:
            from .variables import Observer

            self.observer = Observer(None)
        return self.observer

    @property
    def variables(self) -> list[Any]:
        """Every series by name with its role, kind and SI unit
        (:class:`.variables.Variable`), in display order."""
        return self._observer().variables(self)

    @property
    def shown(self) -> list[str]:
        """The names a summary and the default plot show (co-energies, joint angles …)."""
        return self._observer().shown(self)

    def variable(self, name: str) -> Any:
        """The :class:`.variables.Variable` called ``name`` (its kind and unit)."""
        for v in self.variables:
            if v.name == name:
                return v
        raise KeyError(f"{name!r} is not a variable of this result")

    def unit(self, name: str) -> str:
        """SI unit of the series ``name`` (``""`` when unknown or dimensionless)."""
        return self.variable(name).unit

    def coenergy(self, what: str) -> np.ndarray:
        """Co-energy series of a state or a storage element: ``res.coenergy("L1")`` is
        the inductor's current, ``res.coenergy("load")`` the load's speed."""
        return self[self._observer().coenergy_of(self, what)]

    def __repr__(self) -> str:
        head = f"SimulationResult({self.model or 'model'!s}, {self.method}, " \
               f"{len(self.t)} points, t = {self.t[0]:.4g} … {self.t[-1]:.4g} s" \
               if len(self.t) else f"SimulationResult({self.method}, empty"
        return (f"{head}, {len(self.states)} states, {len(self.inputs)} inputs, "
                f"{'success' if self.success else 'failed: ' + self.message})")

    def __len__(self) -> int:
        return int(self.t.size)

    @property
    def energy_error(self) -> float:
        """``max_k |H_k − H_0 − Σ(work_supplied − work_dissipated)| / max(|H_0|, tiny)``."""
        net = np.cumsum(self.work_supplied - self.work_dissipated)
        drift = self.H - self.H[0] - net
        return float(np.max(np.abs(drift)) / max(abs(self.H[0]), 1e-300))

    def columns(self) -> dict[str, np.ndarray]:
        """CSV columns (docs/cli.md): ``t``, ``x:<state>``, ``u:<input>``, ``y:<output>``,
        ``H``, ``power_residual``."""
        cols: dict[str, np.ndarray] = {"t": self.t}
        for prefix, names, data in (("x", self.states, self.x), ("u", self.inputs, self.u),
                                    ("y", self.outputs, self.y)):
            for k, name in enumerate(names):
                cols[f"{prefix}:{name}"] = data[:, k]
        cols["H"] = self.H
        cols["power_residual"] = self.power_residual
        return cols

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready dict: ``t``, ``states``/``inputs``/``outputs`` by name, ``H``,
        ``power_residual`` (docs/cli.md), plus the powers and the run's metadata."""

        def by_name(names: list[str], data: np.ndarray) -> dict[str, list[float]]:
            return {name: data[:, k].tolist() for k, name in enumerate(names)}

        return {
            "t": self.t.tolist(),
            "states": by_name(self.states, self.x),
            "inputs": by_name(self.inputs, self.u),
            "outputs": by_name(self.outputs, self.y),
            "H": self.H.tolist(),
            "power_residual": self.power_residual.tolist(),
            "stored": self.stored.tolist(),
            "supplied": self.supplied.tolist(),
            "dissipated": self.dissipated.tolist(),
            "method": self.method,
            "success": self.success,
            "message": self.message,
            "units": json_units(self),
        }

    def to_csv(self, path: str | pathlib.Path, units: bool = False) -> None:
        """Write the CSV file of :meth:`columns` (full float precision); ``units=True``
        writes the headers as ``"name [unit]"`` (``"x:L1 [Wb]"``, ``"t [s]"``)."""
        cols = self.columns()
        with open(path, "w", newline="", encoding="utf-8") as fh:
            w = csv.writer(fh)
            w.writerow(csv_header(self, list(cols)) if units else list(cols))
            for row in np.column_stack(list(cols.values())):
                w.writerow([repr(float(v)) for v in row])

    def to_json(self, path: str | pathlib.Path) -> None:
        """Write :meth:`to_dict` as JSON."""
        pathlib.Path(path).write_text(json.dumps(self.to_dict()), encoding="utf-8")

    def to_pandas(self, all: bool = False) -> Any:
        """A :class:`pandas.DataFrame` indexed by ``t`` (s) with one column per series
        (states, shown co-energies and observables, inputs, outputs, ``H``, powers;
        ``all=True``: every variable), units in ``df.attrs["units"]``
        (:func:`.export.to_pandas`)."""
        from .export import to_pandas

        return to_pandas(self, all)

    def to_xarray(self, all: bool = False) -> Any:
        """An :class:`xarray.Dataset` over the coordinate ``time`` (s), one variable per
        series with attrs ``units``, ``kind``, ``role``, ``element``, ``long_name``
        (:func:`.export.to_xarray`)."""
        from .export import to_xarray

        return to_xarray(self, all)

    def to_netcdf(self, path: str | pathlib.Path, all: bool = True) -> None:
        """Write :meth:`to_xarray` to a netCDF-4 file (:func:`.export.to_netcdf`)."""
        from .export import to_netcdf

        to_netcdf(self, path, all)

    def to_parquet(self, path: str | pathlib.Path, all: bool = True) -> None:
        """Write :meth:`to_pandas` to a Parquet file, units in its metadata
        (:func:`.export.to_parquet`)."""
        from .export import to_parquet

        to_parquet(self, path, all)

    def write(self, path: str | pathlib.Path, **options: Any) -> None:
        """Write to ``path`` as its suffix says: ``.csv``, ``.json``, ``.nc``,
        ``.parquet`` (:func:`.export.write_result`, errors name the path)."""
        from .export import write_result

        write_result(self, path, **options)

    def _repr_html_(self) -> str:
        """Notebook view: a summary table with units, never the arrays (:mod:`.html`)."""
        from .html import result_html

        return result_html(self)

    def plot(self, path: str | pathlib.Path | None = None,
             vars: Any = None) -> Any:  # noqa: A002 — the public keyword
        """Figure: one panel per quantity kind with its unit (the :attr:`shown`
        variables, or the names in ``vars``), the inputs, the energy with its balance and
        the powers, on shared time axes (:mod:`.plot`).

        Uses Matplotlib's Agg canvas (never opens a window); saves to ``path`` if given.
        Returns the :class:`matplotlib.figure.Figure`.
        """
        from .plot import plot_result

        return plot_result(self, path, vars)
