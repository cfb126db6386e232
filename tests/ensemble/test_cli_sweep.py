"""``porthamiltonian sweep``: the command-line contract of docs/cli.md, checked as written."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

from porthamiltonian.cli import main

MODEL = "examples/models/series_rlc.yaml"


def test_sweep_writes_run_by_time_with_each_parameter_a_coordinate(tmp_path, capsys):
    out = tmp_path / "runs.nc"
    assert main(["sweep", MODEL, "--param", "R=1:10:4", "--param", "L=0.01,0.02",
                 "--t-end", "0.02", "--dt", "1e-4", "--out", str(out), "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert "sweep: 8 runs, 0 failed" in text and str(out) in text
    ds = xr.open_dataset(out)
    assert ds["L1.i"].dims == ("run", "time") and ds.sizes["run"] == 8
    np.testing.assert_allclose(ds["R"].values, np.repeat([1.0, 4.0, 7.0, 10.0], 2))
    np.testing.assert_allclose(ds["L"].values, [0.01, 0.02] * 4)
    assert ds["R"].dims == ("run",) and ds["time"].attrs["units"] == "s"
    assert ds["L1.i"].attrs["units"] == "A" and ds["C1.v"].attrs["units"] == "V"
    assert ds["H"].attrs["units"] == "J"
    # an RLC run at t = 0.02 s, dt = 0.1 ms: the energy balance closes in every run
    assert np.all(np.abs(ds["energy_balance"].values) < 1e-12)
    assert ds["time"].values[-1] == pytest.approx(0.02)


def test_samples_draw_a_latin_hypercube_in_the_ranges(tmp_path):
    out = tmp_path / "lhs.nc"
    assert main(["sweep", MODEL, "--param", "R=1:10", "--param", "C=1e-3:2e-3",
                 "--samples", "6", "--seed", "4", "--t-end", "0.01", "--dt", "1e-4",
                 "--workers", "1", "--keep", "summary", "--out", str(out)]) == 0
    ds = xr.open_dataset(out)
    r = ds["R"].values
    # one point in each of the 6 equal strata of [1, 10]
    assert sorted(np.floor((r - 1.0) / 1.5).astype(int)) == list(range(6))
    assert ds.attrs["design"] == "latin_hypercube" and ds.attrs["seed"] == 4
    assert "L1.i" not in ds and "L1.i.final" in ds


def test_a_table_gives_the_points_and_a_bad_point_is_reported(tmp_path, capsys):
    table = tmp_path / "points.csv"
    table.write_text("R,C\n5,1e-3\n5,0\n")
    assert main(["sweep", MODEL, "--table", str(table), "--t-end", "0.01", "--dt", "1e-4",
                 "--workers", "1"]) == 0
    text = capsys.readouterr().out
    assert "2 runs, 1 failed" in text
    assert "run 1 failed (R = 5, C = 0): H is infinite" in text


@pytest.mark.parametrize("args, message", [
    ((), "nothing to sweep"),
    (("--param", "X=1,2"), "'X' is not a parameter of the model; its parameters: C, L, R"),
    (("--param", "R=1:10"), "a range is start:stop:count"),
    (("--param", "R=1:x:3"), "'x' is not a number"),
    (("--param", "R=1,2", "--out", "runs.csv"), "give FILE.nc"),
    (("--param", "R=1,2", "--scheduler", "tcp://127.0.0.1:1"), "cannot reach the Dask"),
    (("--param", "R=1,2", "--param", "R=3"), "--param R is given more than once"),
    (("--param", "R=5:1", "--samples", "3"), "needs low < high"),
    (("--param", "R=1:5", "--samples", "3", "--seed", "-1"), "seed must be a non-negative"),
    (("--param", "R=1,2", "--t-end", "-1"), "must end after it starts"),
    (("--param", "R=1,2", "--dt", "0"), "dt must be a positive number"),
])
def test_bad_options_give_one_error_line(args, message, capsys, monkeypatch):
    from porthamiltonian.ensemble import executors

    monkeypatch.setattr(executors, "CONNECT_TIMEOUT", "0.5s")  # nothing listens there
    assert main(["sweep", MODEL, "--t-end", "0.01", *args]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines
