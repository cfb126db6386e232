"""Sweeps: every run against a closed form, the dataset's layout and files, failures kept,
statistics against NumPy, and the same runs on a Dask cluster (docs/ensembles.md)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from porthamiltonian.ensemble import sweep
from porthamiltonian.errors import ModelError
from porthamiltonian.io import load_model
from porthamiltonian.io.simulation import simulate_model

OSCILLATOR = """
name: free-oscillator
parameters: {k: 2.0, m: 0.5, c: 0.1}
phs:
  states: [q, p]
  inputs: [F]
  outputs: [v]
  J: [[0, 1], [-1, 0]]
  R: [[0, 0], [0, c]]
  G: [[0], [1]]
  hamiltonian: "k*q**2/2 + p**2/(2*m)"
simulate:
  t_end: 4.0
  dt: 1.0e-3
  method: midpoint
  initial: {q: 0.1, p: 0.0}
"""


@pytest.fixture
def oscillator(tmp_path):
    path = tmp_path / "oscillator.yaml"
    path.write_text(OSCILLATOR)
    return path


def free_response(t, k, m, c, q0=0.1):
    """Underdamped m q'' + c q' + k q = 0, q(0) = q0, q'(0) = 0."""
    a = c / (2 * m)
    wd = math.sqrt(k / m - a * a)
    return q0 * np.exp(-a * t) * (np.cos(wd * t) + a / wd * np.sin(wd * t))


def test_every_run_of_a_grid_follows_the_closed_form(oscillator):
    ds = sweep(oscillator, {"c": [0.05, 0.2, 0.5], "k": [1.0, 3.0]}, executor="serial")
    assert ds.sizes["run"] == 6 and ds.attrs["design"] == "grid"
    # the grid: every combination, the last parameter fastest
    np.testing.assert_array_equal(ds["c"].values, [0.05, 0.05, 0.2, 0.2, 0.5, 0.5])
    np.testing.assert_array_equal(ds["k"].values, [1.0, 3.0] * 3)
    t = ds["time"].values
    assert t[0] == 0.0 and t[-1] == pytest.approx(4.0) and ds.sizes["time"] == 501
    for r in range(6):
        exact = free_response(t, float(ds["k"][r]), 0.5, float(ds["c"][r]))
        # midpoint, h = 1 ms: a global error O(h²) of a few 1e-7 m
        assert np.max(np.abs(ds["q"].values[r] - exact)) < 2e-6
    # the energy balance of each run closes (midpoint is exact for quadratic H)
    assert np.all(np.abs(ds["energy_balance"].values) < 1e-12)
    assert np.all(ds["success"].values == 1) and ds.attrs["failed"] == 0
    assert ds["q"].attrs["units"] == "" or isinstance(ds["q"].attrs["units"], str)


def test_a_run_equals_the_same_run_made_alone(oscillator):
    model = load_model(oscillator)
    ds = sweep(model, {"m": [0.5, 2.0]}, executor="serial", n_times=41)
    alone = simulate_model(model.with_parameters(m=2.0), save_every=100)
    np.testing.assert_allclose(ds["time"].values, alone.t, rtol=0, atol=1e-14)
    np.testing.assert_array_equal(ds["q"].values[1], alone["q"])
    np.testing.assert_array_equal(ds["p.final"].values[1], alone["p"][-1])


def test_failed_points_are_kept_with_their_message_and_the_others_complete(oscillator):
    ds = sweep(oscillator, {"m": [0.5, 0.0, 1.0]}, executor="serial", n_times=11)
    np.testing.assert_array_equal(ds["success"].values, [1, 0, 1])
    assert "m = 0" in str(ds["message"].values[1])
    assert str(ds["message"].values[0]) == "" and ds.attrs["failed"] == 1
    assert np.all(np.isnan(ds["q"].values[1])) and np.all(np.isfinite(ds["q"].values[[0, 2]]))
    # statistics count the successful runs only
    stats = ds["q.stats"]
    assert np.all(stats.sel(statistic="count").values == 2)
    np.testing.assert_allclose(stats.sel(statistic="mean").values,
                               ds["q"].values[[0, 2]].mean(axis=0), rtol=1e-12, atol=1e-15)


def test_every_run_failing_is_an_error(oscillator):
    with pytest.raises(ModelError, match="all 2 runs failed; the first: .*m = 0"):
        sweep(oscillator, {"m": [0.0, 0.0]}, executor="serial", n_times=5)


def test_statistics_equal_numpy_over_the_runs_and_summary_mode_keeps_the_moments(oscillator):
    params = {"c": (0.05, 0.6), "k": (1.0, 3.0)}
    ds = sweep(oscillator, params, samples=9, seed=3, executor="serial", n_times=51,
               chunk=2, quantiles=(0.1, 0.5, 0.9))
    q = ds["q"].values
    s = ds["q.stats"]
    np.testing.assert_allclose(s.sel(statistic="mean").values, q.mean(axis=0), atol=1e-15)
    np.testing.assert_allclose(s.sel(statistic="std").values, q.std(axis=0, ddof=1),
                               rtol=1e-10, atol=1e-15)
    np.testing.assert_array_equal(s.sel(statistic="min").values, q.min(axis=0))
    np.testing.assert_array_equal(s.sel(statistic="q90").values,
                                  np.quantile(q, 0.9, axis=0))
    summary = sweep(oscillator, params, samples=9, seed=3, executor="serial", n_times=51,
                    chunk=4, keep="summary")
    assert "q" not in summary and "q.final" in summary
    np.testing.assert_allclose(summary["q.stats"].sel(statistic="std").values,
                               s.sel(statistic="std").values, rtol=1e-10, atol=1e-15)
    np.testing.assert_array_equal(summary["q.final"].values, ds["q.final"].values)


def test_streamed_netcdf_is_the_dataset_and_reads_back(oscillator, tmp_path):
    import netCDF4
    import xarray as xr

    out = tmp_path / "runs.nc"
    ds = sweep(oscillator, {"c": [0.1, 0.3], "m": [0.5, 1.0]}, executor="processes",
               workers=2, out=out, n_times=21)
    mem = sweep(oscillator, {"c": [0.1, 0.3], "m": [0.5, 1.0]}, executor="serial",
                n_times=21)
    with netCDF4.Dataset(out) as nc:  # the owner of the format reads it
        assert nc.dimensions["run"].size == 4 and nc.dimensions["time"].size == 21
        assert nc.variables["time"].units == "s"
        assert nc.variables["c"].description == "swept parameter c"
    back = xr.open_dataset(out)
    np.testing.assert_array_equal(back["q"].values, mem["q"].values)
    # merged in another order from other chunks: equal up to round-off
    np.testing.assert_allclose(ds["p.stats"].values, mem["p.stats"].values, rtol=1e-12,
                               atol=1e-15)
    assert back.attrs["runs"] == 4 and "local processes" in back.attrs["executor"]


def test_a_system_with_a_lambda_input_sweeps_on_processes():
    import sympy as sp

    from porthamiltonian import PHS

    q, p = sp.symbols("q p", real=True)
    k, m = sp.symbols("k m", positive=True)
    osc = PHS(J=[[0, 1], [-1, 0]], G=[[0], [1]], hamiltonian=k * q**2 / 2 + p**2 / (2 * m),
              states=["q", "p"], inputs=["F"], outputs=["v"], parameters={"k": 1.0, "m": 1.0})
    force = 0.5
    ds = sweep(osc, {"k": [1.0, 4.0]}, t_span=(0.0, 2.0), x0=[0.0, 0.0], u=lambda t: force,
               dt=1e-3, workers=2, n_times=5)
    t = ds["time"].values
    for r, kk in enumerate([1.0, 4.0]):  # a step force: q = F/k (1 − cos ωt)
        exact = force / kk * (1 - np.cos(math.sqrt(kk) * t))
        np.testing.assert_allclose(ds["q"].values[r], exact, atol=1e-6)


def test_bad_requests_name_what_is_wrong(oscillator):
    with pytest.raises(ModelError, match="'R' is not a parameter of the model; its "
                                         "parameters: c, k, m"):
        sweep(oscillator, {"R": [1, 2]}, executor="serial")
    with pytest.raises(ModelError, match="keep must be"):
        sweep(oscillator, {"c": [1]}, keep="all")
    with pytest.raises(ModelError, match="times must lie within the run"):
        sweep(oscillator, {"c": [1]}, times=[0, 10])
    with pytest.raises(ModelError, match="ending in .nc"):
        sweep(oscillator, {"c": [1]}, out="runs.csv")
    with pytest.raises(ModelError, match="unknown executor"):
        sweep(oscillator, {"c": [1]}, executor="gpu")
    with pytest.raises(ModelError, match="workers must be a positive integer"):
        sweep(oscillator, {"c": [1]}, workers=0)


@pytest.mark.slow
def test_a_100_point_sweep_on_a_dask_cluster_equals_the_local_run(oscillator):
    from dask import distributed
    params = {"c": np.linspace(0.05, 0.5, 10), "k": np.linspace(1.0, 4.0, 10)}
    local = sweep(oscillator, params, executor="serial", t_end=0.5, n_times=26,
                  progress=False)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=":0") as cluster, \
            distributed.Client(cluster) as client:
        remote = sweep(oscillator, params, executor=client, t_end=0.5, n_times=26,
                       progress=False)
        assert len(client.scheduler_info()["workers"]) == 2
        # the model was compiled on the workers, not shipped compiled: both ran runs
        ran = client.run(lambda: __import__("porthamiltonian.ensemble.runner",
                                            fromlist=["_CACHE"])._CACHE.__len__())
        assert sorted(ran.values()) == [1, 1]
    assert remote.sizes["run"] == 100 and "Dask cluster" in remote.attrs["executor"]
    for name in ("q", "p", "H", "power_residual"):
        np.testing.assert_allclose(remote[name].values, local[name].values, rtol=1e-13,
                                   atol=1e-16)
    np.testing.assert_array_equal(remote["c"].values, local["c"].values)


def test_a_dataset_too_large_for_memory_is_refused_with_the_way_out(oscillator, monkeypatch,
                                                                    tmp_path):
    from porthamiltonian.ensemble import store

    monkeypatch.setattr(store, "memory_budget", lambda: 10_000)
    with pytest.raises(ModelError, match=r"in memory \(3 runs × 51 times × \d+ series\); "
                                         r"write it to a file as the runs finish"):
        sweep(oscillator, {"c": [0.1, 0.2, 0.3]}, executor="serial", n_times=51)
    # streamed to a file, or as a summary, the same sweep runs
    ds = sweep(oscillator, {"c": [0.1, 0.2, 0.3]}, executor="serial", n_times=51,
               out=tmp_path / "big.nc")
    assert ds.sizes["run"] == 3 and int(ds["success"].sum()) == 3
