"""Parameter estimation (porthamiltonian.ensemble.fit): recovery of known parameters,
intervals against the closed-form regression covariance, multi-start, identifiability,
every bad input, and the ``porthamiltonian fit`` command end to end."""

from __future__ import annotations

import json
import math
import pathlib

import numpy as np
import pytest
import sympy as sp
from scipy import stats

from porthamiltonian import PHS
from porthamiltonian.cli import main
from porthamiltonian.ensemble import runner
from porthamiltonian.ensemble.fit import fit
from porthamiltonian.ensemble.fit_data import parse_fit_param, read_data
from porthamiltonian.ensemble.fit_objective import Objective, Problem, Target
from porthamiltonian.errors import ModelError
from porthamiltonian.io import load_model

ROOT = pathlib.Path(__file__).resolve().parents[2]
MODEL = ROOT / "examples" / "models" / "mass_spring_damper.yaml"
TRUE = {"m": 2.0, "c": 0.6, "k": 8.0}
#: accurate runs: smooth in the parameters, so the sensitivities are sharp
TIGHT = {"rtol": 1e-9, "atol": 1e-12}


def _simulate(model, times, values=None, **over):
    job = runner.job_from(model, token=f"truth-{id(model)}-{len(times)}",
                          overrides={"rtol": 1e-11, "atol": 1e-14, **over}, times=times,
                          keep="series", names=None)
    return runner.simulate_at(runner.prepared(job.token, runner.serialize(job)), values or {})


@pytest.fixture(scope="module")
def msd():
    return load_model(MODEL)


@pytest.fixture(scope="module")
def truth(msd):
    t = np.linspace(0.0, 8.0, 41)
    res = _simulate(msd, t, t_end=8.0)
    return t, np.asarray(res["spring"]), np.asarray(res["mass.v"])


@pytest.fixture(scope="module")
def noisy(truth):
    t, q, v = truth
    rng = np.random.default_rng(7)
    return {"t": t, "spring": q + 0.002 * rng.standard_normal(t.size),
            "mass.v [mm/s]": 1e3 * (v + 0.005 * rng.standard_normal(t.size))}


# ------------------------------------------------------------------- recovery (1)
def test_recovers_mass_spring_damper_within_its_intervals(msd, noisy):
    res = fit(msd, noisy, {"m": (0.5, 5.0), "c": (0.05, 3.0), "k": (1.0, 30.0)}, **TIGHT)
    assert res.success, res.message
    for name, true in TRUE.items():
        lo, hi = res.ci95[name]
        assert lo < true < hi, (name, lo, true, hi)
        assert (hi - lo) / 2 < 0.2 * true, (name, lo, hi)
        assert res.stderr[name] > 0
    assert res.sigma_estimated and res.non_identifiable == ()
    # the mm/s column was converted to SI: the noise level comes out near 0.005 m/s
    assert 0.003 < res.sigma["mass.v"] < 0.008
    assert 0.0012 < res.rms["spring"] < 0.003
    assert res.correlation.shape == (3, 3)
    assert np.allclose(np.diag(res.correlation), 1.0)
    assert res.units == {"m": "kg", "c": "N*s/m", "k": "N/m"}
    text = res.summary()
    for piece in ("m ", "N/m", "95 % interval", "correlation", "mass.v"):
        assert piece in text
    d = res.to_dict()
    json.dumps(d, allow_nan=False)
    assert set(d["parameters"]["k"]) >= {"value", "stderr", "ci95"}


# ------------------------------------------------- intervals: closed form (2)
def _linear_system() -> PHS:
    a, b = sp.symbols("a b")
    return PHS(J=[[0]], G=[[a, b]], hamiltonian="x**2/2", states=["x"],
               inputs=["u1", "u2"], parameters={"a": 1.0, "b": 1.0})


def _ramp(t: float) -> np.ndarray:
    return np.array([1.0, t])


def test_intervals_equal_the_linear_regression_covariance():
    """ẋ = a + b t, x(0) = x0: x(t) = x0 + a t + b t²/2 is linear in (a, b), so the
    linearized covariance is exact: s²(XᵀX)⁻¹ with X = [t, t²/2] (ordinary least
    squares), and the fit's 95 % intervals must be the t-intervals of that regression."""
    t = np.linspace(0.0, 2.0, 25)
    x0, a, b = 0.5, 0.7, -0.3
    rng = np.random.default_rng(3)
    y = x0 + a * t + b * t ** 2 / 2 + 0.01 * rng.standard_normal(t.size)
    res = fit(_linear_system(), {"t": t, "x": y}, {"a": 1.0, "b": 0.0},
              x0=[x0], u=_ramp, method="midpoint", dt=0.02)
    X = np.column_stack([t, t ** 2 / 2])
    beta, rss, *_ = np.linalg.lstsq(X, y - x0, rcond=None)
    dof = t.size - 2
    cov = rss[0] / dof * np.linalg.inv(X.T @ X)
    q = stats.t.ppf(0.975, dof)
    for j, name in enumerate(("a", "b")):
        assert res.values[name] == pytest.approx(beta[j], rel=1e-6, abs=1e-9)
        assert res.stderr[name] == pytest.approx(math.sqrt(cov[j, j]), rel=1e-4)
        lo, hi = res.ci95[name]
        assert lo == pytest.approx(beta[j] - q * math.sqrt(cov[j, j]), rel=1e-4, abs=1e-8)
        assert hi == pytest.approx(beta[j] + q * math.sqrt(cov[j, j]), rel=1e-4, abs=1e-8)
    corr = cov[0, 1] / math.sqrt(cov[0, 0] * cov[1, 1])
    assert res.correlation[0, 1] == pytest.approx(corr, rel=1e-4)
    assert res.dof == dof and res.s2 == pytest.approx(rss[0] / dof / res.sigma["x"] ** 2,
                                                      rel=1e-6)
    # a given noise level: s² = RSS/(m − p)/σ² is reported, the intervals do not move;
    # "x:x" names the state x by its role
    given = fit(_linear_system(), {"t": t, "x:x": y}, {"a": 1.0, "b": 0.0}, sigma=0.01,
                x0=[x0], u=_ramp, method="midpoint", dt=0.02)
    assert not given.sigma_estimated and given.sigma == {"x:x": 0.01}
    assert given.s2 == pytest.approx(rss[0] / dof / 0.01 ** 2, rel=1e-6)
    assert given.stderr["a"] == pytest.approx(res.stderr["a"], rel=1e-6)


# ------------------------------------------------------------- multi-start (3)
@pytest.mark.parametrize("executor", [
    "serial",
    # worker start-up (fresh interpreters, the model compiled in each) takes seconds
    pytest.param("processes", marks=pytest.mark.slow),
])
def test_multistart_escapes_a_local_minimum(msd, truth, executor):
    """From k = 0.7 the fit stays in the local minimum at k ≈ 0.71 (the forced response
    of a soft spring); of the two Latin-hypercube starts (log scale: 0.2 … 30 spans 150×)
    one lies above √(0.2·30) ≈ 2.4, past the ridge at k ≈ 1.8, and finds the true k = 8."""
    t, q, _ = truth
    data = {"t": t, "spring": q + 0.002 * np.random.default_rng(5).standard_normal(t.size)}
    res = fit(msd, data, {"k": (0.2, 30.0, 0.7)}, starts=3, seed=1, executor=executor,
              workers=2)
    costs = res.start_costs
    assert len(costs) == 3 and res.starts[0]["x0"] == {"k": 0.7}
    assert res.starts[2]["x0"]["k"] > math.sqrt(0.2 * 30.0)  # one stratum per start
    assert res.starts[0]["x"]["k"] < 2.0          # the guess alone is trapped
    assert costs[0] > 100 * min(costs)
    lo, hi = res.ci95["k"]
    assert lo < TRUE["k"] < hi and res.values["k"] == pytest.approx(8.0, rel=0.01)


def test_failed_runs_at_trial_points_do_not_stop_the_fit(msd, truth):
    """Negative damping is refused by the model (a StructureError at those points): a start
    there ends with an infinite cost and its reason, the others still find c."""
    t, q, _ = truth
    data = {"t": t, "spring": q + 0.002 * np.random.default_rng(6).standard_normal(t.size)}
    res = fit(msd, data, {"c": (-1.0, 2.0, -0.5)}, starts=3, seed=0, executor="serial")
    assert math.isinf(res.start_costs[0])
    assert "damping" in res.starts[0]["message"]
    assert res.success and res.ci95["c"][0] < TRUE["c"] < res.ci95["c"][1]


def test_a_failing_point_is_a_large_residual(msd, truth):
    t, q, _ = truth
    res = fit(msd, {"t": t, "spring": q}, {"c": (0.01, 2.0)})
    job = runner.job_from(msd, token="penalty", overrides={"t_end": 8.0}, times=t,
                          keep="series", names=None)
    prep = runner.prepared("penalty", runner.serialize(job))
    from porthamiltonian.ensemble.fit import _typical
    from porthamiltonian.ensemble.fit_data import parse_params

    b = parse_params({"c": (-1.0, 2.0)}, ["c"])
    problem = Problem(b, _typical(b), (Target("spring", "spring", "state", "m", ""),), t,
                       q[:, None], np.array([res.sigma["spring"]]))
    obj = Objective(prep, problem)
    r = obj.penalized(np.array([-0.5]))
    assert np.all(r == problem.fail_residual) and 0.5 * r @ r > 1e6
    assert "StructureError" in obj.failure
    assert obj.residual(np.array([0.6])) is not None


# --------------------------------------------------------- identifiability (6)
PRODUCT = MODEL.read_text().replace("r: c}", "r: c*g}").replace(
    "  c: 0.6 N*s/m\n", "  c: 0.6 N*s/m\n  g: 1.0\n")


def test_parameters_entering_as_a_product_are_named_not_identifiable(truth):
    model = load_model(PRODUCT)
    t, q, v = truth
    res = fit(model, {"t": t, "spring": q, "mass.v": v}, {"c": (0.1, 3.0, 0.4),
                                                          "g": (0.2, 5.0, 1.5),
                                                          "k": (1.0, 30.0, 6.0)}, **TIGHT)
    assert set(res.non_identifiable) == {"c", "g"}
    assert math.isnan(res.stderr["c"]) and math.isnan(res.stderr["g"])
    assert math.isfinite(res.stderr["k"]) and res.values["k"] == pytest.approx(8.0, rel=1e-4)
    assert res.values["c"] * res.values["g"] == pytest.approx(0.6, rel=1e-4)
    (direction,) = res.null_directions
    assert set(direction) == {"c", "g"}
    assert direction["c"] == pytest.approx(-direction["g"], rel=1e-3)  # c·g fixed
    text = res.summary()
    assert "not identifiable" in text and "c" in text and "g" in text
    assert res.to_dict()["parameters"]["c"]["stderr"] is None


def test_a_free_response_names_m_c_and_k(msd, truth):
    """Released with no force, x(t) depends on k/m and c/m only: scaling all three
    together is a direction the data cannot see."""
    t = truth[0]
    y = np.asarray(_simulate(msd, t, t_end=8.0, u={"F": 0.0})["spring"])
    y = y + 1e-4 * np.random.default_rng(0).standard_normal(t.size)
    res = fit(msd, {"t": t, "spring": y}, {"m": (0.5, 5.0, 1.5), "c": (0.05, 3.0, 0.5),
                                          "k": (1.0, 30.0, 6.0)}, u={"F": 0.0}, **TIGHT)
    assert set(res.non_identifiable) == {"m", "c", "k"}
    (direction,) = res.null_directions
    assert np.allclose(np.abs(list(direction.values())), 1 / math.sqrt(3), rtol=1e-3)
    assert res.values["k"] / res.values["m"] == pytest.approx(4.0, rel=1e-3)
    assert "hold one of them" in res.summary()


# ---------------------------------------------------------------- bad inputs (4)
def _csv(path: pathlib.Path, text: str) -> pathlib.Path:
    path.write_text(text)
    return path


@pytest.mark.parametrize("params, words", [
    ({"kk": 1.0}, ["'kk'", "m, k, c"]),
    ({"k": (5.0, 5.0)}, ["parameter k", "low = 5"]),
    ({"k": (5.0, 1.0)}, ["parameter k", "low < high"]),
    ({"k": (1.0, 5.0, 9.0)}, ["parameter k", "outside its bounds"]),
    ({"k": "eight"}, ["parameter k", "number"]),
    ({"k": (1.0, 2.0, 3.0, 4.0)}, ["parameter k", "4 numbers"]),
    ({}, ["parameters to fit", "m, k, c"]),
])
def test_bad_parameters(msd, noisy, params, words):
    with pytest.raises(ModelError) as err:
        fit(msd, noisy, params)
    for w in words:
        assert w in str(err.value)


def test_bad_data(msd, noisy, truth, tmp_path):
    t, q, _ = truth
    cases = [
        ({"t": t, "springs": q}, ["'springs'", "not a variable", "mass.v"]),
        ({"t": t, "spring [s]": q}, ["'spring'", "unit", "m"]),
        ({"t": t - 1.0, "spring": q}, ["t = -1", "before the run starts"]),
        ({"t": t, "spring": np.where(np.arange(t.size) == 10, np.nan, q)},
         ["'spring'", "row 10", "finite"]),
        ({"t": t[::-1], "spring": q}, ["increase strictly"]),
        ({"time": t, "spring": q}, ["no column t", "time"]),
        ({"t": t}, ["only the column t"]),
        ({"t": t, "spring": q[:-1]}, ["differ in length"]),
        ({"t": t[:2], "spring": q[:2]}, ["2 measured values for 3 parameters"]),
        (tmp_path / "missing.csv", ["missing.csv", "not found"]),
        (_csv(tmp_path / "bad.csv", "t,spring\n0,0.1\n0.5,abc\n"), ["bad.csv:3", "'abc'"]),
        (_csv(tmp_path / "short.csv", "t,spring\n0,0.1\n0.5\n"), ["short.csv:3", "1 cells"]),
        (42, ["int", "CSV file"]),
    ]
    for data, words in cases:
        with pytest.raises(ModelError) as err:
            fit(msd, data, {"m": 1.0, "c": 0.5, "k": 5.0})
        for w in words:
            assert w in str(err.value), (data if not isinstance(data, dict) else list(data), err)


def test_bad_options(msd, noisy):
    p = {"k": (1.0, 30.0)}
    cases = [
        (dict(t_end=5.0), ["t_end = 5", "past"]),
        (dict(starts=0), ["starts"]),
        (dict(seed=1.5), ["seed"]),
        (dict(seed=-1), ["seed must be a non-negative integer"]),
        (dict(sigma=-1.0), ["sigma of spring", "positive"]),
        (dict(sigma={"spring": 0.1}), ["no noise level for mass.v"]),
        (dict(sigma={"q": 0.1, "spring": 0.1, "mass.v": 0.1}), ["'q'", "spring, mass.v"]),
        (dict(variables=["x"]), ["'x'", "spring, mass.v"]),
        (dict(t_eval=[0.0, 1.0]), ["t_eval"]),
    ]
    for kw, words in cases:
        with pytest.raises(ModelError) as err:
            fit(msd, noisy, p, **kw)
        for w in words:
            assert w in str(err.value), (kw, err)
    with pytest.raises(ModelError, match="starts=3 .* m has none"):
        fit(msd, noisy, {"m": 1.0, "k": (1.0, 30.0)}, starts=3)
    with pytest.raises(ModelError, match="cannot fit a int"):
        fit(42, noisy, p)
    with pytest.raises(ModelError, match="model file .* not found"):
        fit("no-such-model.yaml", noisy, p)


def test_the_whole_run_failing_is_named(msd, noisy):
    with pytest.raises(ModelError, match="no parameter values at which the model runs"):
        fit(msd, noisy, {"c": (-2.0, -1.0)})


def test_data_readers(tmp_path, truth):
    t, q, v = truth
    path = tmp_path / "d.csv"
    path.write_text("# measured\nt [ms],spring [mm]\n" +
                    "".join(f"{1e3 * a},{1e3 * b}\n" for a, b in zip(t, q, strict=True)))
    d = read_data(path)
    assert d.columns == ("spring",) and d.units == ("mm",)
    assert np.allclose(d.t, t) and np.allclose(d.values[:, 0], 1e3 * q)
    pd = pytest.importorskip("pandas")
    frame = pd.DataFrame({"spring": q, "mass.v": v}, index=pd.Index(t, name="t"))
    frame.attrs["units"] = {"spring": "m", "mass.v": "m/s"}
    d = read_data(frame)
    assert d.columns == ("spring", "mass.v") and d.units == ("m", "m/s")
    assert parse_fit_param("k=1:20") == ("k", (1.0, 20.0))
    assert parse_fit_param("k = 5") == ("k", 5.0)
    assert parse_fit_param("k=1:20:3") == ("k", (1.0, 20.0, 3.0))
    for bad in ("k", "k=", "k=a:b", "k=1:2:3:4", "=3"):
        with pytest.raises(ModelError, match="--param"):
            parse_fit_param(bad)


# ---------------------------------------------------------------------- CLI (5)
def test_cli_writes_json_and_plot(tmp_path, noisy, capsys):
    data = tmp_path / "data.csv"
    rows = zip(noisy["t"], noisy["spring"], noisy["mass.v [mm/s]"], strict=True)
    data.write_text("t [s],spring [m],mass.v [mm/s]\n"
                    + "".join(f"{float(a)!r},{float(b)!r},{float(c)!r}\n" for a, b, c in rows))
    out, png = tmp_path / "fit.json", tmp_path / "fit.png"
    code = main(["fit", str(MODEL), "--data", str(data), "--param", "m=0.5:5",
                 "--param", "c=0.05:3", "--param", "k=1:30:10",
                 "--workers", "1", "--out", str(out), "--plot", str(png), "--no-progress"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    assert "95 % interval" in captured.out and "N/m" in captured.out
    d = json.loads(out.read_text())
    assert set(d) >= {"parameters", "cost", "rms", "success", "message", "nfev", "starts"}
    assert set(d["parameters"]) == {"m", "c", "k"}
    for p in d["parameters"].values():
        assert set(p) >= {"value", "stderr", "ci95"} and len(p["ci95"]) == 2
    assert len(d["starts"]) == 1 and d["success"] is True
    lo, hi = d["parameters"]["k"]["ci95"]
    assert lo < 8.0 < hi
    assert png.stat().st_size > 10_000 and png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("argv, words", [
    (["--param", "kk=1"], ["'kk'", "m, k, c"]),
    (["--param", "k=1:2:3:4"], ["--param"]),
    (["--param", "k=1", "--param", "k=2"], ["twice"]),
    ([], ["--param NAME=GUESS", "m, k, c"]),
    (["--param", "k=1", "--out", "fit.txt"], ["--out", ".json"]),
    (["--param", "k=1", "--plot", "no/such/dir/p.png"], ["does not exist"]),
    (["--param", "k=1", "--starts", "0"], ["--starts"]),
])
def test_cli_user_errors(tmp_path, noisy, capsys, argv, words):
    data = tmp_path / "data.csv"
    data.write_text("t,spring\n" + "".join(f"{a},{b}\n" for a, b in
                                           zip(noisy["t"], noisy["spring"], strict=True)))
    code = main(["fit", str(MODEL), "--data", str(data), "--no-progress", *argv])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error:") and err.count("\n") == 1
    for w in words:
        assert w in err


# ------------------------------------------------------------------------- example
@pytest.mark.slow
def test_example_script(tmp_path, monkeypatch, capsys):
    import runpy
    import sys

    monkeypatch.setenv("MPLBACKEND", "Agg")
    png, csv = tmp_path / "fit.png", tmp_path / "data.csv"
    monkeypatch.setattr(sys, "argv", ["fit_mass_spring_damper", "--out", str(png),
                                      "--csv", str(csv)])
    runpy.run_path(str(ROOT / "examples" / "fit_mass_spring_damper.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "inside the 95 % intervals: True" in out
    assert png.stat().st_size > 10_000 and csv.read_text().count("\n") > 80
