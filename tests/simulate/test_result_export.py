"""Results as pandas, xarray, netCDF and Parquet data with units; one writer by suffix
whose errors name the path; CSV headers with units and the JSON ``units`` entry.

The series of a series-RLC circuit (R = 2 Ω, L = 0.5 H, C = 0.1 F, 1 V step) are
checked against ``res[name]`` and against the circuit's own relations (the capacitor
voltage is q/C, the current φ/L), the files are read back by xarray, pandas and pyarrow.
"""

from __future__ import annotations

import json
import sys

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
import xarray as xr
from test_dae_models import parallel_capacitors_numeric

from porthamiltonian import PHS, ModelError
from porthamiltonian.quantities import DOMAINS, Quantities, storage_info
from porthamiltonian.simulate import simulate
from porthamiltonian.simulate.output.export import (
    columns_of,
    netcdf_name,
    original_name,
    write_result,
)

R_, L_, C_ = 2.0, 0.5, 0.1
ELEC = DOMAINS["electrical"]


def rlc(outputs: tuple[str, ...] = ("I",)) -> PHS:
    """Series RLC driven by a voltage V; states the charge C1.q and the flux L1."""
    q = Quantities(states={"C1.q": storage_info("C1.q", "C1", "C", "electrical"),
                           "L1": storage_info("L1", "L1", "I", "electrical")},
                   ports={"V": ELEC.effort, outputs[0]: ELEC.flow})
    return PHS(J=[[0, 1], [-1, 0]], R=[[0, 0], [0, R_]], G=[[0], [1]],
               Q=[[1 / C_, 0], [0, 1 / L_]], states=["C1.q", "L1"], inputs=["V"],
               outputs=list(outputs), name="rlc", quantities=q)


@pytest.fixture(scope="module")
def res():
    return simulate(rlc(), (0.0, 1.0), [0.0, 0.0], u=1.0, dt=0.01)


SERIES = ["C1.q", "L1", "C1.v", "L1.i", "V", "I", "H", "stored", "supplied", "dissipated",
          "power_residual"]
UNITS = {"C1.q": "C", "L1": "Wb", "C1.v": "V", "L1.i": "A", "V": "V", "I": "A", "H": "J",
         "stored": "W", "supplied": "W", "dissipated": "W", "power_residual": "J"}


def test_to_pandas_columns_are_element_qualified_names_with_units(res):
    df = res.to_pandas()
    assert list(df.columns) == SERIES
    assert df.index.name == "t"
    np.testing.assert_array_equal(df.index.to_numpy(), res.t)
    for name in SERIES:
        np.testing.assert_array_equal(df[name].to_numpy(), res[name])
    assert df.attrs["units"] == {"t": "s", **UNITS}
    assert df.attrs["model"] == "rlc" and df.attrs["method"] == res.method
    # the co-energies are the circuit's voltage and current
    np.testing.assert_allclose(df["C1.v"], df["C1.q"] / C_, rtol=1e-14)
    np.testing.assert_allclose(df["L1.i"], df["L1"] / L_, rtol=1e-14)


def test_all_gives_every_variable_and_a_dae_its_multipliers():
    d = parallel_capacitors_numeric(1.0, 2.0, 3.0)
    res = simulate(d, (0.0, 0.1), {"q1": 1.0, "q2": 2.0}, u=0.5, dt=0.01)
    names = [v.name for v in res.variables]
    df = res.to_pandas(all=True)
    assert set(names) <= set(df.columns)
    assert {"link", "constraint_residual", "node_constraint", "power_residual"} <= set(df)
    np.testing.assert_array_equal(df["link"].to_numpy(), res["link"])
    assert "constraint_residual" not in res.to_pandas().columns


def test_a_name_used_twice_keeps_it_once_and_takes_its_role_prefix_once():
    """An input and an output both called V: "V" is the input (as res["V"]), "y:V" the
    output."""
    res = simulate(rlc(outputs=("V",)), (0.0, 0.1), [0.0, 0.0], u=1.0, dt=0.01)
    df = res.to_pandas()
    np.testing.assert_array_equal(df["V"].to_numpy(), res["V"])
    np.testing.assert_array_equal(df["y:V"].to_numpy(), res.y[:, 0])
    assert df.attrs["units"]["y:V"] == "A"


def test_netcdf_names_are_safe_and_reversible():
    for name in ["dH/dR[0]", "L1.i", "x_1", "_x2f_", "a_xb", "time", ".hidden", "θ 1",
                 "u:V", "power_residual"]:
        safe = netcdf_name(name)
        assert "/" not in safe and "[" not in safe and "]" not in safe and " " not in safe
        assert safe.isascii() and not safe.startswith(".") and safe != "time"
        assert original_name(safe) == name
    assert netcdf_name("L1.i") == "L1.i" and netcdf_name("power_residual") == "power_residual"
    assert netcdf_name("dH/dx0") == "dH_x2f_dx0"


def test_to_xarray_round_trips_through_netcdf_with_units_in_attrs(res, tmp_path):
    ds = res.to_xarray()
    assert [original_name(str(k)) for k in ds.data_vars] == SERIES
    assert ds["time"].attrs["units"] == "s"
    path = tmp_path / "rlc.nc"
    res.to_netcdf(path, all=False)
    with xr.open_dataset(path) as back:
        np.testing.assert_array_equal(back["time"].to_numpy(), res.t)
        assert back["time"].attrs["units"] == "s"
        for name in SERIES:
            var = back[netcdf_name(name)]
            np.testing.assert_array_equal(var.to_numpy(), res[name])
            assert var.attrs["units"] == UNITS[name]
            assert var.attrs["long_name"] == name
        assert back["L1.i"].attrs["kind"] == "current"
        assert back["L1.i"].attrs["role"] == "coenergy"
        assert back["L1.i"].attrs["element"] == "L1"
        assert back.attrs["model"] == "rlc" and back.attrs["method"] == res.method
        assert back.attrs["success"] == 1 and back.attrs["message"] == res.message
        assert back.attrs["energy_error"] == res.energy_error


def test_generic_names_with_slashes_and_brackets_survive_netcdf(tmp_path):
    """A model without units: co-energies "dH/dm[0]" become safe names, long_name keeps
    the original."""
    sys_ = PHS(J=[[0, 1], [-1, 0]], Q=[[2.0, 0], [0, 1.0]], states=["m[0]", "m[1]"])
    res = simulate(sys_, (0.0, 0.5), [1.0, 0.0], dt=0.05)
    path = tmp_path / "osc.nc"
    write_result(res, path)
    with xr.open_dataset(path) as back:
        var = back[netcdf_name("dH/dm[0]")]
        assert var.attrs["long_name"] == "dH/dm[0]"
        np.testing.assert_allclose(var.to_numpy(), 2.0 * res["m[0]"], rtol=1e-14)
        assert var.attrs["units"] == ""


def test_parquet_keeps_values_and_units(res, tmp_path):
    path = tmp_path / "rlc.parquet"
    write_result(res, path, all=False)
    df = pd.read_parquet(path)
    assert list(df.columns) == SERIES and df.index.name == "t"
    for name in SERIES:
        np.testing.assert_array_equal(df[name].to_numpy(), res[name])
    assert df.attrs["units"] == {"t": "s", **UNITS}
    schema = pq.read_schema(path)
    assert schema.field("L1.i").metadata[b"unit"] == b"A"
    assert schema.field("L1.i").metadata[b"kind"] == b"current"
    assert schema.field("t").metadata[b"unit"] == b"s"
    ours = json.loads(schema.metadata[b"porthamiltonian"])
    assert ours["units"]["C1.v"] == "V" and ours["model"] == "rlc"


def test_csv_header_with_units_and_without(res, tmp_path):
    plain, with_units = tmp_path / "a.csv", tmp_path / "b.csv"
    res.to_csv(plain)
    write_result(res, with_units, units=True)
    assert plain.read_text().splitlines()[0] == "t,x:C1.q,x:L1,u:V,y:I,H,power_residual"
    assert with_units.read_text().splitlines()[0] == \
        "t [s],x:C1.q [C],x:L1 [Wb],u:V [V],y:I [A],H [J],power_residual [J]"
    assert plain.read_text().splitlines()[1:] == with_units.read_text().splitlines()[1:]


def test_json_units_mirror_the_data_and_events_are_written(tmp_path):
    def q_zero(t, x):
        return x[1] - 0.01  # the flux linkage crosses 0.01 Wb

    res = simulate(rlc(), (0.0, 1.0), [0.0, 0.0], u=1.0, dt=0.01, events=[q_zero])
    path = tmp_path / "r.json"
    write_result(res, path, ["flux"])
    data = json.loads(path.read_text())
    assert {"t", "states", "inputs", "outputs", "H", "power_residual"} <= set(data)
    assert data["units"]["states"] == {"C1.q": "C", "L1": "Wb"}
    assert data["units"]["inputs"] == {"V": "V"} and data["units"]["outputs"] == {"I": "A"}
    assert data["units"]["t"] == "s" and data["units"]["H"] == "J"
    assert data["events"]["flux"]["t"] == res.t_events[0].tolist()
    assert len(data["events"]["flux"]["t"]) >= 1


@pytest.mark.parametrize("suffix", [".csv", ".json", ".nc", ".parquet"])
def test_write_errors_name_the_path(res, tmp_path, suffix):
    missing = tmp_path / "no such folder" / f"r{suffix}"
    with pytest.raises(ModelError, match="does not exist") as err:
        write_result(res, missing)
    assert str(missing) in str(err.value)
    folder = tmp_path / f"d{suffix}"
    folder.mkdir()
    with pytest.raises(ModelError, match="it is a folder") as err:
        write_result(res, folder)
    assert str(folder) in str(err.value)
    a_file = tmp_path / "plain.txt"
    a_file.write_text("x")
    with pytest.raises(ModelError, match="is not a folder") as err:
        write_result(res, a_file / f"r{suffix}")
    assert str(a_file / f"r{suffix}") in str(err.value)


def test_unwritable_file_is_a_model_error_naming_it(res, tmp_path, monkeypatch):
    """An operating-system refusal (here: permission denied) becomes a ModelError with
    the path and the reason."""
    import builtins
    import pathlib

    target = tmp_path / "locked.csv"
    real_open = builtins.open

    def refuse(file, *args, **kwargs):
        if pathlib.Path(str(file)) == target:
            raise PermissionError(13, "Permission denied", str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(builtins, "open", refuse)
    with pytest.raises(ModelError, match="Permission denied") as err:
        write_result(res, target)
    assert str(target) in str(err.value)


def test_unknown_suffix_names_the_formats(res, tmp_path):
    with pytest.raises(ModelError, match=r"\.csv, \.json, \.nc, \.parquet") as err:
        write_result(res, tmp_path / "r.xlsx")
    assert "r.xlsx" in str(err.value)


@pytest.mark.parametrize("suffix, module", [(".nc", "netCDF4"), (".nc", "xarray"),
                                            (".parquet", "pyarrow"), (".parquet", "pandas")])
def test_missing_library_names_the_path_and_the_extra(res, tmp_path, monkeypatch, suffix,
                                                      module):
    monkeypatch.setitem(sys.modules, module, None)  # import now raises ImportError
    path = tmp_path / f"r{suffix}"
    with pytest.raises(ModelError, match=r'pip install "porthamiltonian\[data\]"') as err:
        write_result(res, path)
    assert str(path) in str(err.value) and module in str(err.value)
    assert not path.exists()


def test_a_result_without_its_model_exports_what_it_has(res):
    """A result built by hand (no model attached) still exports its stored series."""
    from dataclasses import fields

    from porthamiltonian.simulate.output.result import SimulationResult

    bare = SimulationResult(**{f.name: getattr(res, f.name) for f in fields(res)
                               if f.name != "observer"})
    names = [c.name for c in columns_of(bare)]
    assert names[:2] == ["C1.q", "L1"] and "H" in names and "power_residual" in names


def test_event_times_go_to_netcdf_and_parquet(tmp_path):
    def flux(t, x):
        return x[1] - 0.01  # the flux linkage crosses 0.01 Wb (up, then down)

    res = simulate(rlc(), (0.0, 1.0), [0.0, 0.0], u=1.0, dt=0.01, events=[flux])
    assert res.t_events[0].size == 2
    write_result(res, tmp_path / "e.nc", ["flux"])
    write_result(res, tmp_path / "e.parquet", ["flux"])
    with xr.open_dataset(tmp_path / "e.nc") as back:
        var = back[netcdf_name("event:flux")]
        np.testing.assert_array_equal(var.to_numpy(), res.t_events[0])
        assert var.attrs["units"] == "s" and var.attrs["long_name"] == "event:flux"
    ours = json.loads(pq.read_schema(tmp_path / "e.parquet").metadata[b"porthamiltonian"])
    assert ours["events"]["flux"]["t"] == res.t_events[0].tolist()
    np.testing.assert_allclose(ours["events"]["flux"]["states"]["L1"], 0.01, atol=1e-9)
