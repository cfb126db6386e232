r"""Results as tables and data files: pandas, xarray, netCDF, Parquet, and one writer.

Every export starts from the same list of series, :func:`columns_of`: by default the
states, the shown co-energies and observables (``res.shown``), the inputs, outputs and
multipliers (DAE), the energy ``H`` (J), the powers ``stored``, ``supplied``,
``dissipated`` (W) and the per-interval ``power_residual`` (J); with ``all=True`` every
variable of ``res.variables`` (all co-energies and observables) and, for a DAE, the
constraint residuals.  Each series keeps its name (``"L1.i"``, ``"load.w"``), SI unit,
quantity kind, role and element.  A name used twice (an input and an output both
called ``V``) keeps its plain name the first time and takes the CSV prefix of its role
the second (``"y:V"``); ``"t"`` is never a column name (it is the index).

* :func:`to_pandas`: a :class:`pandas.DataFrame` indexed by ``t`` (s), units in
  ``df.attrs["units"]`` (``{column: unit}``, ``"t"`` included).
* :func:`to_xarray`: an :class:`xarray.Dataset` over the coordinate ``time`` (attrs
  ``units = "s"``), one data variable per series with attrs ``long_name`` (the
  original name), ``units``, ``kind``, ``role``, ``element``, ``description``; the
  dataset's attrs are the run's ``model``, ``method``, ``success`` (1 or 0: netCDF has
  no booleans), ``message``, ``energy_error`` (relative to :math:`|H(t_0)|`),
  ``energy_drift`` (the same in J), ``nsteps``, ``nfev``,
  ``newton_iterations``.  Variable names are netCDF-safe (:func:`netcdf_name`,
  reversed by :func:`original_name`).  Event times are variables ``event:<name>`` on
  their own dimension.
* :func:`to_netcdf`: that dataset written by xarray with the ``netcdf4`` engine (the
  netCDF4 package from PyPI: netCDF-4/HDF5 files, UTF-8 names and attributes).
* :func:`to_parquet`: the DataFrame written by pyarrow; each column's field metadata
  has ``unit``, ``kind``, ``role``, ``element``; the schema metadata has
  ``porthamiltonian`` (JSON: units, the run's attrs, event times) and pandas' own
  ``PANDAS_ATTRS``, so ``pandas.read_parquet`` gives back ``df.attrs["units"]``.
* :func:`write_result`: one call for every format, chosen by the file's suffix.

pandas, xarray, netCDF4 and pyarrow are the ``data`` extra
(``pip install "porthamiltonian[data]"``); without them these functions raise
:class:`~porthamiltonian.errors.ModelError` saying what to install.
"""

from __future__ import annotations

import importlib
import json
import os
import pathlib
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import ModelError
from .html import energy_drift
from .variables import Variable

__all__ = ["Column", "columns_of", "to_pandas", "to_xarray", "to_netcdf", "to_parquet",
           "write_result", "netcdf_name", "original_name", "csv_header", "json_units",
           "event_table", "run_attrs", "check_destination", "FORMATS", "NETCDF_ENGINE",
           "DATA_EXTRA"]

#: how to install the optional libraries of this module
DATA_EXTRA = 'pip install "porthamiltonian[data]"'
#: the xarray engine of :func:`to_netcdf` (the ``netCDF4`` package)
NETCDF_ENGINE = "netcdf4"
#: file suffixes :func:`write_result` knows, and what each writes
FORMATS = {".csv": "CSV (columns t, x:<state>, u:<input>, y:<output>, H, power_residual)",
           ".json": "JSON (t, states, inputs, outputs, H, power_residual, …, units)",
           ".nc": "netCDF-4 via xarray (the netCDF4 package)",
           ".parquet": "Parquet via pyarrow"}
#: CSV prefix of each role's columns (used to tell apart two series of the same name)
_PREFIX = {"state": "x", "input": "u", "output": "y", "multiplier": "lambda"}
#: the roles every export has; the others only when shown (or with ``all=True``)
_ALWAYS = ("state", "input", "output", "multiplier", "energy", "power")
_RESIDUAL = Variable("power_residual", "energy", "J", "residual",
                     description="ΔH − ∫(uᵀy − d) dt over the interval ending here")


@dataclass(frozen=True)
class Column:
    """One exported series: its :class:`~.variables.Variable` (``name`` as exported)
    and its ``values`` over the saved times."""

    variable: Variable
    values: np.ndarray

    @property
    def name(self) -> str:
        return self.variable.name

    @property
    def unit(self) -> str:
        return self.variable.unit


def _need(module: str, what: str) -> Any:
    """Import ``module`` or raise :class:`ModelError` naming ``what`` needs it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ModelError(f"{what} needs the {module} package, which is not installed; "
                         f"install the data extra: {DATA_EXTRA}") from None


# ---------------------------------------------------------------------- the series
def _stored(res: Any, v: Variable) -> np.ndarray | None:
    """A state, input, output or multiplier series by role (names may repeat across
    roles, so not through ``res[name]``)."""
    table = {"state": ("states", "x"), "input": ("inputs", "u"),
             "output": ("outputs", "y"), "multiplier": ("multipliers", "lam")}
    if v.role not in table:
        return None
    names, data = (getattr(res, a, None) for a in table[v.role])
    if names is None or data is None or v.name not in names:
        return None
    return np.asarray(data)[:, list(names).index(v.name)]


def columns_of(res: Any, all: bool = False) -> list[Column]:
    """The series an export writes (see the module docstring), in display order.

    A derived series the result cannot evaluate (a result built without its model has
    no co-energies) is left out.
    """
    shown = set(res.shown)
    out: list[Column] = []
    for v in res.variables:
        if not (all or v.role in _ALWAYS or v.name in shown):
            continue
        values = _stored(res, v)
        if values is None:
            try:
                values = res[v.name]
            except KeyError:
                continue
        out.append(Column(v, np.asarray(values, dtype=float)))
    out.append(Column(_RESIDUAL, np.asarray(res.power_residual, dtype=float)))
    if all:
        for name in ("constraint_residual", "node_constraint"):
            if name in getattr(res, "__dataclass_fields__", {}):
                out.append(Column(Variable(name, "constraint residual", "", "residual",
                                           description="‖Bᵀz‖∞"),
                                  np.asarray(getattr(res, name), dtype=float)))
    return _unique(out)


def _unique(cols: list[Column]) -> list[Column]:
    """Rename the second and later series of a repeated name with their role's prefix."""
    seen = {"t"}
    out = []
    for c in cols:
        name = c.name
        if name in seen:
            name = f"{_PREFIX.get(c.variable.role, c.variable.role)}:{name}"
            k = 2
            while name in seen:
                name, k = f"{name}#{k}", k + 1
            c = Column(Variable(name, c.variable.kind, c.variable.unit, c.variable.role,
                                c.variable.element, c.variable.description), c.values)
        seen.add(name)
        out.append(c)
    return out


def run_attrs(res: Any) -> dict[str, Any]:
    """The run's metadata as plain numbers and strings (netCDF and JSON safe)."""
    try:
        energy_error = float(res.energy_error) if len(res.t) else float("nan")
    except (ValueError, FloatingPointError):
        energy_error = float("nan")
    return {"model": str(res.model or ""), "method": str(res.method),
            "success": int(bool(res.success)), "message": str(res.message),
            "energy_error": energy_error, "energy_drift": energy_drift(res),
            "nsteps": int(res.nsteps), "nfev": int(res.nfev),
            "newton_iterations": int(res.newton_iterations)}


def event_table(res: Any, events: Sequence[str] | None = None) -> dict[str, Any]:
    """``{event name: {"t": [...], "states": {state: [...]}}}`` (times in s); names
    default to ``event0``, ``event1`` …"""
    names = list(events) if events is not None else \
        [f"event{k}" for k in range(len(res.t_events))]
    out: dict[str, Any] = {}
    for name, te, xe in zip(names, res.t_events, res.x_events, strict=False):
        xe = np.asarray(xe, dtype=float).reshape(-1, len(res.states))
        out[name] = {"t": np.asarray(te, dtype=float).tolist(),
                     "states": {s: xe[:, k].tolist() for k, s in enumerate(res.states)}}
    return out


# ---------------------------------------------------------------------- pandas
def to_pandas(res: Any, all: bool = False) -> Any:
    """A :class:`pandas.DataFrame` of :func:`columns_of` indexed by ``t`` (s); units
    in ``df.attrs["units"]``, the run's metadata (:func:`run_attrs`) in ``df.attrs``."""
    pd = _need("pandas", "to_pandas()")
    cols = columns_of(res, all)
    df = pd.DataFrame({c.name: c.values for c in cols},
                      index=pd.Index(np.asarray(res.t, dtype=float), name="t"))
    df.attrs["units"] = {"t": "s", **{c.name: c.unit for c in cols}}
    df.attrs.update(run_attrs(res))
    return df


# ---------------------------------------------------------------------- xarray / netCDF
_SAFE = re.compile(r"[A-Za-z0-9_.]")
_ESCAPE = re.compile(r"_x([0-9a-f]+)_")


def netcdf_name(name: str) -> str:
    """A netCDF-safe name for ``name``, reversible with :func:`original_name`.

    Letters, digits, ``_`` and ``.`` are kept; any other character ``c`` (``/``,
    ``[``, ``]``, ``:``, a space, non-ASCII …) becomes ``_x<hex code>_``, and so does a
    ``_`` followed by ``x`` (so decoding is unambiguous), a leading ``.`` and the first
    letter of a name that would be ``time`` (the coordinate): ``"dH/dx0"`` →
    ``"dH_x2f_dx0"``, ``"R[0]"`` → ``"R_x5b_0_x5d_"``.
    """
    out = []
    for k, c in enumerate(name):
        plain = _SAFE.fullmatch(c) and not (c == "_" and name[k + 1:k + 2] == "x") \
            and not (k == 0 and (c == "." or name == "time"))
        out.append(c if plain else f"_x{ord(c):x}_")
    return "".join(out) or "_x0_"


def original_name(safe: str) -> str:
    """The name :func:`netcdf_name` encoded as ``safe``."""
    if safe == "_x0_":
        return ""
    return _ESCAPE.sub(lambda m: chr(int(m.group(1), 16)), safe)


def _attrs(v: Variable) -> dict[str, str]:
    return {"long_name": v.name, "units": v.unit, "kind": v.kind, "role": v.role,
            "element": v.element, "description": v.description}


def to_xarray(res: Any, all: bool = False,
              events: Sequence[str] | None = None) -> Any:
    """An :class:`xarray.Dataset` of :func:`columns_of` over the coordinate ``time`` (s)
    (see the module docstring for names and attrs); ``events`` names the event
    functions (default ``event0`` …)."""
    xr = _need("xarray", "to_xarray()")
    cols = columns_of(res, all)
    data = {netcdf_name(c.name): ("time", c.values, _attrs(c.variable)) for c in cols}
    for name, entry in event_table(res, events).items():
        key = netcdf_name(f"event:{name}")  # its own dimension: an index coordinate
        data[key] = (key, np.asarray(entry["t"], dtype=float),
                     {"long_name": f"event:{name}", "units": "s", "kind": "time",
                      "role": "event", "element": "", "description": f"times of event {name}"})
    time = ("time", np.asarray(res.t, dtype=float), {"units": "s", "long_name": "time"})
    return xr.Dataset(data, coords={"time": time}, attrs=run_attrs(res))


def to_netcdf(res: Any, path: str | pathlib.Path, all: bool = True,
              events: Sequence[str] | None = None) -> None:
    """Write :func:`to_xarray` (every variable unless ``all=False``) to the netCDF-4
    file ``path`` (engine :data:`NETCDF_ENGINE`).  Read it back with
    ``xarray.open_dataset(path)``; :func:`original_name` gives the original names."""
    _need("netCDF4", f"writing {path}")
    ds = to_xarray(res, all, events)
    ds.to_netcdf(path, engine=NETCDF_ENGINE)


# ---------------------------------------------------------------------- Parquet
def to_parquet(res: Any, path: str | pathlib.Path, all: bool = True,
               events: Sequence[str] | None = None) -> None:
    """Write :func:`to_pandas` (every variable unless ``all=False``) to the Parquet
    file ``path`` with the units in the file's metadata (see the module docstring)."""
    pa = _need("pyarrow", f"writing {path}")
    pq = _need("pyarrow.parquet", f"writing {path}")
    df = to_pandas(res, all)
    variables = {c.name: c.variable for c in columns_of(res, all)}
    table = pa.Table.from_pandas(df, preserve_index=True)
    fields = []
    for f in table.schema:
        v = variables.get(f.name)
        meta = ({"unit": v.unit, "kind": v.kind, "role": v.role, "element": v.element}
                if v is not None else {"unit": "s", "kind": "time", "role": "time"}
                if f.name == "t" else {})
        fields.append(f.with_metadata({k.encode(): str(s).encode() for k, s in meta.items()})
                      if meta else f)
    ours = {"units": df.attrs["units"], **run_attrs(res),
            "events": event_table(res, events)}
    meta = dict(table.schema.metadata or {})
    meta[b"porthamiltonian"] = json.dumps(ours).encode()
    meta[b"PANDAS_ATTRS"] = json.dumps(df.attrs).encode()  # pandas.read_parquet → df.attrs
    table = pa.Table.from_arrays(table.columns, schema=pa.schema(fields, metadata=meta))
    pq.write_table(table, path)


# ---------------------------------------------------------------------- CSV / JSON
def _units_by_role(res: Any) -> dict[tuple[str, str], str]:
    return {(v.role, v.name): v.unit for v in res.variables}


def csv_header(res: Any, names: Sequence[str]) -> list[str]:
    """CSV column names with units: ``"x:L1 [Wb]"``, ``"t [s]"``, ``"H [J]"``; a
    column whose unit is unknown keeps its bare name."""
    units = _units_by_role(res)
    roles = {prefix: role for role, prefix in _PREFIX.items()}
    fixed = {"t": "s", "H": "J", "power_residual": "J"}
    out = []
    for name in names:
        prefix, sep, rest = name.partition(":")
        unit = units.get((roles[prefix], rest), "") if sep and prefix in roles \
            else fixed.get(name, "")
        out.append(f"{name} [{unit}]" if unit else name)
    return out


def json_units(res: Any) -> dict[str, Any]:
    """The ``"units"`` entry of :meth:`~.result.SimulationResult.to_dict`, shaped like
    the data: ``{"t": "s", "states": {state: unit}, "inputs": {…}, "outputs": {…},
    "H": "J", "power_residual": "J", "stored": "W", …}`` (``"multipliers"`` for a DAE)."""
    units = _units_by_role(res)
    out: dict[str, Any] = {"t": "s"}
    for key, role in (("states", "state"), ("inputs", "input"), ("outputs", "output"),
                      ("multipliers", "multiplier")):
        names = getattr(res, key, None)
        if names is not None and (key != "multipliers" or names):
            out[key] = {n: units.get((role, n), "") for n in names}
    out.update({"H": "J", "power_residual": "J", "stored": "W", "supplied": "W",
                "dissipated": "W"})
    return out


# ---------------------------------------------------------------------- one writer
def check_destination(path: str | pathlib.Path) -> pathlib.Path:
    """``path`` as a :class:`~pathlib.Path` if results can be written there, checked
    without writing (the command line calls it before a run): a known suffix
    (:data:`FORMATS`), the library its format needs, an existing folder, not a folder
    itself, and write permission.  Raises :class:`ModelError` naming ``path``."""
    p = pathlib.Path(path)
    suffix = p.suffix.lower()
    if suffix not in FORMATS:
        raise ModelError(f"cannot write results to {path}: give a file ending in "
                         f"{', '.join(FORMATS)} (not {suffix or 'no suffix'!r})")
    if suffix == ".nc":
        _need("xarray", f"writing {path}")
        _need("netCDF4", f"writing {path}")
    elif suffix == ".parquet":
        _need("pandas", f"writing {path}")
        _need("pyarrow", f"writing {path}")
    if p.is_dir():
        raise ModelError(f"cannot write results to {path}: it is a folder; give a file name")
    parent = p.parent
    if not parent.exists():
        raise ModelError(f"cannot write results to {path}: the folder {parent} does not exist")
    if not parent.is_dir():
        raise ModelError(f"cannot write results to {path}: {parent} is not a folder")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise ModelError(f"cannot write results to {path}: not writable (permission denied)")
    return p


def write_result(res: Any, path: str | pathlib.Path, events: Sequence[str] | None = None,
                 *, units: bool = False, all: bool = True) -> None:
    """Write ``res`` to ``path`` in the format its suffix names (:data:`FORMATS`).

    ``.csv``: :meth:`~.result.SimulationResult.to_csv` (``units=True``: headers
    ``"name [unit]"``); ``.json``: :meth:`~.result.SimulationResult.to_dict` with
    ``"events"`` (:func:`event_table`) when ``res`` has event times; ``.nc``:
    :func:`to_netcdf`; ``.parquet``: :func:`to_parquet` (``all=False``: only the
    series :func:`columns_of` gives by default).  ``events`` names the event
    functions (default ``event0`` …).

    Raises :class:`ModelError` naming ``path`` for an unknown suffix, a missing library
    (with the extra to install), a folder that does not exist, a folder given as the
    file, or a file that cannot be written.
    """
    p = check_destination(path)
    suffix = p.suffix.lower()
    try:
        if suffix == ".csv":
            res.to_csv(p, units=units)
        elif suffix == ".json":
            data = res.to_dict()
            if events or (events is None and len(res.t_events)):
                data["events"] = event_table(res, events)
            p.write_text(json.dumps(data), encoding="utf-8")
        elif suffix == ".nc":
            to_netcdf(res, p, all, events)
        else:
            to_parquet(res, p, all, events)
    except OSError as err:
        raise ModelError(f"cannot write results to {path}: "
                         f"{err.strerror or err.__class__.__name__}") from None
