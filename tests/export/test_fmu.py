"""FMU export: FMPy validates the FMUs and simulates them (Model Exchange with its CVode,
Co-Simulation with the FMU's own structure-preserving step), and the results agree with
the library's own simulation; parameters set through FMI act as ``with_parameters``."""

from __future__ import annotations

import re
import warnings
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

import numpy as np
import pytest
import scipy.sparse as sps
import sympy as sp

from porthamiltonian import PHS, simulate
from porthamiltonian.errors import ModelError
from porthamiltonian.export.fmu import export_fmu

fmpy = pytest.importorskip("fmpy")
from fmpy import read_model_description, simulate_fmu  # noqa: E402
from fmpy.validation import validate_fmu  # noqa: E402

from porthamiltonian.export.fmu.build import (  # noqa: E402
    find_compiler,
    library_suffix,
    platform_folder,
)

pytestmark = pytest.mark.skipif(find_compiler() is None, reason="no C compiler")

ROOT = Path(__file__).resolve().parents[2]
DC_MOTOR = ROOT / "examples" / "models" / "dc_motor.yaml"
T_END, DT, COMM = 0.02, 1e-4, 1e-3


def rel(a: np.ndarray, b: np.ndarray) -> float:
    """Largest difference relative to the largest value of the reference."""
    return float(np.max(np.abs(np.asarray(a) - np.asarray(b))) / np.max(np.abs(b)))


@pytest.fixture(scope="module")
def motor():
    from porthamiltonian.io import load_model
    from porthamiltonian.io.simulation import simulation_system

    return simulation_system(load_model(DC_MOTOR))


@pytest.fixture(scope="module")
def fmus(motor, tmp_path_factory):
    """The DC motor exported in all four flavours."""
    folder = tmp_path_factory.mktemp("fmu")
    out = {}
    for fmi in ("3.0", "2.0"):
        for kind in ("me", "cs"):
            path = folder / f"motor_{fmi[0]}_{kind}.fmu"
            export_fmu(motor, path, kind=kind, fmi=fmi, dt=DT)
            out[fmi, kind] = path
    return out


def saved(res, step: int) -> slice:
    return slice(None, None, step)


@pytest.mark.parametrize("fmi", ["3.0", "2.0"])
@pytest.mark.parametrize("kind", ["me", "cs"])
def test_fmpy_validates_the_fmu(fmus, fmi, kind):
    path = fmus[fmi, kind]
    assert validate_fmu(str(path)) == []
    md = read_model_description(str(path), validate=True)
    assert md.fmiVersion == fmi
    assert (md.coSimulation is not None) == (kind == "cs")
    assert (md.modelExchange is not None) == (kind == "me")
    names = set(zipfile.ZipFile(path).namelist())
    binary = f"binaries/{platform_folder(fmi)}/dc_motor{library_suffix()}"
    assert {"modelDescription.xml", "sources/model.c", "sources/solver.c",
            f"sources/fmi{fmi[0]}.c", "sources/buildDescription.xml", binary} <= names


@pytest.mark.parametrize("fmi", ["3.0", "2.0"])
def test_co_simulation_is_the_library_midpoint_run(motor, fmus, fmi):
    out = simulate_fmu(str(fmus[fmi, "cs"]), stop_time=T_END, output_interval=COMM,
                       start_values={"V": 12.0},
                       output=["La", "Jr", "V.i", "H", "supplied_power", "dissipated_power",
                               "energy_residual"])
    ref = simulate(motor, t_span=(0, T_END), x0=[0, 0], u={"V": 12.0}, method="midpoint",
                   dt=DT)
    k = saved(ref, round(COMM / DT))
    assert np.allclose(out["time"], ref.t[k], rtol=0, atol=1e-12)
    assert rel(np.c_[out["La"], out["Jr"]], ref.x[k]) < 1e-10
    assert rel(out["V.i"], ref.y[k, 0]) < 1e-10
    assert rel(out["H"], ref.H[k]) < 1e-10
    assert rel(out["supplied_power"], ref.supplied[k]) < 1e-10
    assert rel(out["dissipated_power"], ref.dissipated[k]) < 1e-10
    # quadratic H: the midpoint step's energy balance closes to round-off
    assert np.max(np.abs(out["energy_residual"])) < 1e-13 * np.max(ref.H)


@pytest.mark.parametrize("fmi", ["3.0", "2.0"])
def test_model_exchange_with_cvode_matches_an_accurate_reference(motor, fmus, fmi):
    out = simulate_fmu(str(fmus[fmi, "me"]), stop_time=T_END, output_interval=COMM,
                       solver="CVode", relative_tolerance=1e-12, start_values={"V": 12.0},
                       output=["La", "Jr", "V.i", "H"])
    ref = simulate(motor, t_span=(0, T_END), x0=[0, 0], u={"V": 12.0}, method="gauss6",
                   dt=DT)
    k = saved(ref, round(COMM / DT))
    assert rel(out["V.i"], ref.y[k, 0]) < 1e-8
    assert rel(out["H"], ref.H[k]) < 1e-8
    assert rel(np.c_[out["La"], out["Jr"]], ref.x[k]) < 1e-8


@pytest.mark.parametrize("fmi", ["3.0", "2.0"])
def test_a_parameter_set_through_fmi_acts_as_with_parameters(motor, fmus, fmi):
    out = simulate_fmu(str(fmus[fmi, "cs"]), stop_time=T_END, output_interval=COMM,
                       start_values={"V": 12.0, "R_a": 3.0}, output=["V.i", "H"])
    ref = simulate(motor.with_parameters(R_a=3.0), t_span=(0, T_END), x0=[0, 0],
                   u={"V": 12.0}, method="midpoint", dt=DT)
    base = simulate(motor, t_span=(0, T_END), x0=[0, 0], u={"V": 12.0}, method="midpoint",
                    dt=DT)
    k = saved(ref, round(COMM / DT))
    assert rel(out["V.i"], ref.y[k, 0]) < 1e-10
    assert rel(out["V.i"], base.y[k, 0]) > 0.1  # the parameter did change the run


def test_variables_names_units_and_causality(fmus):
    for fmi in ("3.0", "2.0"):
        me = {v.name: v for v in read_model_description(str(fmus[fmi, "me"])).modelVariables}
        cs = {v.name: v for v in read_model_description(str(fmus[fmi, "cs"])).modelVariables}
        assert (me["La"].causality, me["La"].unit, float(me["La"].start)) == ("local", "Wb", 0)
        assert me["Jr"].unit == "N*m*s"
        assert me["der(La)"].derivative is me["La"]
        assert "der(La)" not in cs and "energy_residual" in cs and "energy_residual" not in me
        assert (cs["R_a"].causality, cs["R_a"].variability, float(cs["R_a"].start)) == \
            ("parameter", "tunable", 1.0)
        assert (cs["V"].causality, cs["V"].unit) == ("input", "V")
        assert (cs["V.i"].causality, cs["V.i"].unit) == ("output", "A")
        assert [cs[n].unit for n in ("H", "supplied_power", "dissipated_power")] == \
            ["J", "W", "W"]
        assert "voltage" in cs["V"].description and "current" in cs["V.i"].description
    root = ET.fromstring(zipfile.ZipFile(fmus["3.0", "cs"]).read("modelDescription.xml"))
    volt = root.find("UnitDefinitions/Unit[@name='V']/BaseUnit")
    assert volt is not None and volt.attrib == {"kg": "1", "m": "2", "s": "-3", "A": "-1"}


def duffing(**values: float) -> PHS:
    """A damped oscillator with a non-quadratic energy and a state-dependent damping."""
    q, p = sp.symbols("q p", real=True)
    k, a, m, c = sp.symbols("k a m c", positive=True)
    params = {"k": 2.0, "a": 1.5, "m": 1.0, "c": 0.1, **values}
    return PHS(J=[[0, 1], [-1, 0]], R=[[0, 0], [0, c * (1 + q**2)]], G=[[0], [1]],
               hamiltonian=k * q**2 / 2 + a * q**4 / 4 + m * sp.cosh(p / m),
               states=["q", "p"], inputs=["F"], parameters=params, name="duffing")


@pytest.mark.parametrize("c", [0.1, 0.0])
def test_discrete_gradient_keeps_the_energy_balance_of_a_nonlinear_model(tmp_path, c):
    sys = duffing()
    path = export_fmu(sys, tmp_path / "duffing.fmu", method="discrete_gradient", dt=1e-2,
                      start=[1.0, 0.5]).path
    force = 0.3 if c else 0.0
    out = simulate_fmu(str(path), stop_time=3.0, output_interval=0.1,
                       start_values={"F": force, "c": c},
                       output=["q", "p", "F_y" if "F_y" in sys.outputs else sys.outputs[0],
                               "H", "energy_residual"])
    ref = simulate(sys.with_parameters(c=c), t_span=(0, 3.0), x0=[1.0, 0.5],
                   u={"F": force}, method="discrete_gradient", dt=1e-2)
    k = slice(None, None, 10)
    assert rel(np.c_[out["q"], out["p"]], ref.x[k]) < 1e-10
    assert rel(out[sys.outputs[0]], ref.y[k, 0]) < 1e-10
    assert np.max(np.abs(out["energy_residual"])) < 1e-13 * np.max(out["H"])
    if c == 0.0:  # lossless and unforced: the energy is kept
        assert np.ptp(out["H"]) < 1e-13 * np.max(out["H"])


def test_midpoint_residual_shows_a_non_quadratic_energy(tmp_path):
    """The residual output is no constant zero: with the midpoint rule and a quartic H
    the balance is only O(h³) per step."""
    path = export_fmu(duffing(), tmp_path / "mid.fmu", dt=1e-1, start=[1.0, 0.5]).path
    out = simulate_fmu(str(path), stop_time=2.0, output_interval=0.5,
                       output=["energy_residual", "H"])
    assert np.max(np.abs(out["energy_residual"])) > 1e-8 * np.max(out["H"])


def test_numeric_linear_systems_dense_and_sparse(tmp_path):
    n = 6
    rng = np.random.default_rng(1)
    A = rng.standard_normal((n, n))
    J = A - A.T
    B = rng.standard_normal((n, n))
    R = 0.1 * B @ B.T
    Q = np.diag(rng.uniform(1.0, 3.0, n))
    G = rng.standard_normal((n, 2))
    for kind in ("dense", "sparse"):
        conv = sps.csr_matrix if kind == "sparse" else np.asarray
        sys = PHS(J=conv(J), R=conv(R), G=conv(G), Q=conv(Q), inputs=["a", "b"])
        path = export_fmu(sys, tmp_path / f"{kind}.fmu", dt=1e-2, start=np.ones(n)).path
        out = simulate_fmu(str(path), stop_time=1.0, output_interval=0.1,
                           start_values={"a": 1.0, "b": -0.5},
                           output=["y_a", "y_b", "H", "energy_residual"])
        ref = simulate(sys, t_span=(0, 1.0), x0=np.ones(n), u={"a": 1.0, "b": -0.5},
                       method="midpoint", dt=1e-2)
        k = slice(None, None, 10)
        assert rel(np.c_[out["y_a"], out["y_b"]], ref.y[k]) < 1e-10
        assert rel(out["H"], ref.H[k]) < 1e-10
        assert np.max(np.abs(out["energy_residual"])) < 1e-12 * np.max(out["H"])


def test_a_model_too_large_for_the_dense_step_is_refused_before_any_code(tmp_path):
    from porthamiltonian.export.fmu.model import MAX_STATES

    n = MAX_STATES + 2
    big = PHS(J=sps.csr_matrix((n, n)), R=sps.eye(n, format="csr"),
              G=sps.csr_matrix(np.eye(n, 1)), Q=sps.eye(n, format="csr"))
    with pytest.raises(ModelError, match=rf"{n} states; an FMU takes at most.*reduce"):
        export_fmu(big, tmp_path / "big.fmu")
    assert not (tmp_path / "big.fmu").exists()


def test_descriptor_systems_go_through_their_explicit_form(tmp_path):
    from porthamiltonian import DescriptorPHS

    caps = DescriptorPHS(Q=np.diag([1 / 2.0, 1 / 3.0]), R=np.diag([0.5, 0.0]),
                         G=[[1.0], [0.0]], B=[[1.0], [-1.0]], states=["q1", "q2"],
                         inputs=["I"])
    done = export_fmu(caps, tmp_path / "caps.fmu", dt=1e-2, start=[1.0])
    assert done.states == ("q2",)
    out = simulate_fmu(str(done.path), stop_time=1.0, output_interval=0.1,
                       start_values={"I": 2.0}, output=["q2", "H"])
    ref = simulate(caps.to_phs(), t_span=(0, 1.0), x0=[1.0], u={"I": 2.0},
                   method="midpoint", dt=1e-2)
    assert rel(out["q2"], ref.x[::10, 0]) < 1e-12
    q1, q2 = sp.symbols("q1 q2", real=True)
    quartic = DescriptorPHS(hamiltonian=q1**4 / 4 + q2**2 / 2, G=[[1], [0]], B=[[1], [-1]],
                            states=["q1", "q2"], inputs=["I"])
    with pytest.raises(ModelError, match="no explicit form"):
        export_fmu(quartic, tmp_path / "quartic.fmu")


def test_a_parameter_without_value_is_an_input_and_inputs_have_start_values(tmp_path):
    """The boost converter's switch S (modulated in the model file) is an FMU input."""
    from porthamiltonian.io import load_model
    from porthamiltonian.io.simulation import simulation_system

    boost = simulation_system(load_model(ROOT / "examples/models/boost_converter.yaml"))
    done = export_fmu(boost, tmp_path / "boost.fmu", dt=1e-5, u={"E": 12.0})
    assert done.modulated == ("S",) and "S" not in done.parameters
    md = {v.name: v for v in read_model_description(str(done.path)).modelVariables}
    assert (md["S"].causality, float(md["S"].start)) == ("input", 0.0)
    assert (md["E"].causality, float(md["E"].start)) == ("input", 12.0)
    out = simulate_fmu(str(done.path), stop_time=2e-3, output_interval=1e-4,
                       start_values={"S": 0.4}, output=["phi", "q", "H"])
    ref = simulate(boost.with_parameters(S=0.4), t_span=(0, 2e-3), x0=[0, 0],
                   u={"E": 12.0}, method="midpoint", dt=1e-5)
    assert rel(np.c_[out["phi"], out["q"]], ref.x[::10]) < 1e-10


def test_hostile_names_reach_the_xml_escaped_and_never_the_c_code(tmp_path):
    q, p = sp.Symbol("m.q", real=True), sp.Symbol("C1[0]", real=True)
    k_int, k_double = sp.symbols("int double", positive=True)
    name = 'a"<>&\'b </fmiModelDescription>'
    sys = PHS(J=[[0, 1], [-1, 0]], G=[[0], [1]], hamiltonian=k_int * q**2 / 2 + p**2 / 2,
              R=[[0, 0], [0, k_double]], states=["m.q", "C1[0]"], inputs=["u.in"],
              parameters={"int": 2.0, "double": 0.5}, name=name)
    done = export_fmu(sys, tmp_path / "hostile.fmu", kind="me")
    assert done.identifier == "a_b_fmiModelDescription"
    assert validate_fmu(str(done.path)) == []
    md = read_model_description(str(done.path))
    assert md.modelName == name
    assert {v.name for v in md.modelVariables} >= {"m.q", "C1[0]", "der(m.q)", "int",
                                                    "double", "u.in"}
    code = zipfile.ZipFile(done.path).read("sources/model.c").decode()
    code = re.sub(r"/\*.*?\*/", "", code, flags=re.S)  # comments
    # C sees only names the exporter made: the parameter "int" is p[0], read into ps0
    words = set(re.findall(r"[A-Za-z_]\w*", re.sub(r"#include.*", "", code)))
    made = re.compile(r"(xs|ps|us|zs|cs)\d+|phx_\w+|PHX_\w+|[xpuzyk]|pw|out|pow")
    assert words - {w for w in words if made.fullmatch(w)} == {
        "double", "const", "int", "for", "return", "void"}
    assert "ps0" in words and "ps1" in words
    # the description module escapes names the library itself would refuse
    from porthamiltonian.export.fmu.description import model_description
    from porthamiltonian.export.fmu.layout import Layout
    from porthamiltonian.export.fmu.model import Variable, fmu_model

    model = fmu_model(sys)
    model.states[0] = Variable('x"<>&', "Wb", 'a "quoted" <state> & more\x01')
    xml = model_description(model, Layout(2, 1, 2), kind="cs", fmi="2.0", token="{t}",
                            identifier="id", dt=0.1, sources=["model.c"], version="test")
    sv = ET.fromstring(xml).find("ModelVariables/ScalarVariable[@valueReference='1']")
    assert sv is not None and sv.get("name") == 'x"<>&'
    assert sv.get("description") == 'a "quoted" <state> & more'


def test_parameter_named_like_a_c_keyword_simulates(tmp_path):
    q, p = sp.symbols("q p", real=True)
    k = sp.Symbol("for", positive=True)
    sys = PHS(J=[[0, 1], [-1, 0]], hamiltonian=k * q**2 / 2 + p**2 / 2, states=["q", "p"],
              parameters={"for": 4.0})
    path = export_fmu(sys, tmp_path / "kw.fmu", start=[1.0, 0.0], dt=1e-3).path
    out = simulate_fmu(str(path), stop_time=np.pi / 2, output_interval=np.pi / 2 / 10,
                       output=["q"], start_values={"for": 4.0})
    assert abs(out["q"][-1] - np.cos(2 * np.pi / 2)) < 1e-5  # ω = 2


def test_unprintable_function_is_a_model_error(tmp_path):
    q, p = sp.symbols("q p", real=True)
    sys = PHS(J=[[0, 1], [-1, 0]], hamiltonian=sp.LambertW(q**2 + 1) + p**2 / 2,
              states=["q", "p"])
    with pytest.raises(ModelError, match="LambertW"):
        export_fmu(sys, tmp_path / "w.fmu", compile=False)
    assert not (tmp_path / "w.fmu").exists()


def test_what_cannot_be_exported_is_refused(tmp_path):
    from porthamiltonian.functional import FunctionPHS

    fsys = FunctionPHS(J=np.array([[0.0, 1.0], [-1.0, 0.0]]), energy=lambda x: x @ x / 2,
                       gradient=lambda x: x, hessian=lambda x: np.eye(2))
    with pytest.raises(ModelError, match="FunctionPHS"):
        export_fmu(fsys, tmp_path / "f.fmu")
    with pytest.raises(ModelError, match="kind="):
        export_fmu(duffing(), tmp_path / "k.fmu", kind="xx")
    with pytest.raises(ModelError, match="method="):
        export_fmu(duffing(), tmp_path / "k.fmu", method="rk4")
    with pytest.raises(ModelError, match="dt="):
        export_fmu(duffing(), tmp_path / "k.fmu", dt=-1.0)
    with pytest.raises(ModelError, match="not a state"):
        export_fmu(duffing(), tmp_path / "k.fmu", start={"x": 1.0})


def test_a_failed_step_is_an_fmi_error_with_a_message(tmp_path, capfd):
    q, p = sp.symbols("q p", real=True)
    steep = PHS(J=[[0, 1], [-1, 0]], hamiltonian=sp.exp(q**2) + p**2 / 2, states=["q", "p"])
    path = export_fmu(steep, tmp_path / "steep.fmu", start=[3.0, 0.0],
                      method="discrete_gradient").path
    with pytest.raises(Exception, match="fmi3DoStep"):
        simulate_fmu(str(path), stop_time=10.0, output_interval=5.0, output=["q"])
    assert "at t = 0 s (step 5 s)" in capfd.readouterr().out


def test_compiler_failure_is_one_model_error(tmp_path, monkeypatch):
    monkeypatch.setenv("CC", f"{find_compiler()[0]} -include /nonexistent/phx_missing.h")
    with pytest.raises(ModelError, match="compiling the FMU's C code failed: .*phx_missing"):
        export_fmu(duffing(), tmp_path / "bad.fmu")


def test_sources_only_and_building_them_as_an_importer_would(tmp_path, monkeypatch):
    monkeypatch.setenv("CC", "/nonexistent/cc")
    with pytest.warns(UserWarning, match="sources only"):
        done = export_fmu(duffing(), tmp_path / "src.fmu", start=[1.0, 0.0], dt=1e-2)
    assert done.binary is None
    monkeypatch.delenv("CC")
    folder = tmp_path / "unzipped"
    zipfile.ZipFile(done.path).extractall(folder)
    assert not (folder / "binaries").exists()
    build = ET.parse(folder / "sources" / "buildDescription.xml").getroot()
    files = [f.get("name") for f in build.iter("SourceFile")]
    assert files == ["model.c", "solver.c", "fmi3.c"]
    # an importer: the listed C files, compiled into binaries/<platform>/<identifier>.so
    import subprocess

    target = folder / "binaries" / platform_folder("3.0") / f"{done.identifier}.so"
    target.parent.mkdir(parents=True)
    subprocess.run([*find_compiler(), "-shared", "-fPIC", "-o", str(target),
                    *(str(folder / "sources" / f) for f in files), "-lm"], check=True)
    out = simulate_fmu(str(folder), stop_time=0.5, output_interval=0.1, output=["q", "H"])
    compiled = export_fmu(duffing(), tmp_path / "bin.fmu", start=[1.0, 0.0], dt=1e-2)
    ref = simulate_fmu(str(compiled.path), stop_time=0.5, output_interval=0.1,
                       output=["q", "H"])
    assert np.array_equal(out["q"], ref["q"]) or rel(out["q"], ref["q"]) < 1e-14


def test_the_export_is_reproducible(tmp_path):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = export_fmu(duffing(), tmp_path / "a.fmu", compile=False)
        b = export_fmu(duffing(), tmp_path / "b.fmu", compile=False)
    za, zb = zipfile.ZipFile(a.path), zipfile.ZipFile(b.path)
    assert za.namelist() == zb.namelist()
    assert all(za.read(n) == zb.read(n) for n in za.namelist())


# -- the command line -------------------------------------------------------------------------
def test_cli_writes_a_valid_fmu(tmp_path, capsys):
    from porthamiltonian.cli import main

    out = tmp_path / "motor.fmu"
    assert main(["export", str(DC_MOTOR), "--fmu", str(out), "--kind", "me"]) == 0
    text = capsys.readouterr().out
    assert "FMI 3.0 Model Exchange" in text and "binaries/" in text
    assert validate_fmu(str(out)) == []
    md = read_model_description(str(out))
    start = {v.name: v.start for v in md.modelVariables}
    assert float(start["La"]) == 0.0 and md.defaultExperiment.stopTime == "0.4"
    assert main(["export", str(DC_MOTOR), "--fmu", str(out), "--fmi", "2", "--json"]) == 0
    import json

    report = json.loads(capsys.readouterr().out)
    assert report["fmi"] == "2.0" and report["kind"] == "cs" and report["dt"] == 1e-4
    assert report["parameters"] == ["R_a", "L_a", "K", "J_r", "b"]
    # the model file's constant input is the FMU's start value: it runs as the file says
    res = simulate_fmu(str(out), stop_time=0.01, output_interval=1e-3, output=["V.i"])
    assert res["V.i"][-1] > 1.0


@pytest.mark.parametrize("args, message", [
    (["export", "nope.yaml", "--fmu", "x.fmu"], "not found"),
    (["export", str(ROOT / "examples/models/double_pendulum.yaml"), "--fmu", "x.fmu"],
     "mechanism"),
    (["export", str(DC_MOTOR)], "--fmu FILE.fmu and/or --matrices"),
    (["export", str(DC_MOTOR), "--fmu", "x.zip"], ".fmu"),
])
def test_cli_errors_are_one_line_exit_2(tmp_path, capsys, monkeypatch, args, message):
    from porthamiltonian.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(args) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and message in err[0]
    assert not (tmp_path / "x.fmu").exists()


def test_cli_bad_kind_is_a_usage_error(capsys):
    from porthamiltonian.cli import main

    with pytest.raises(SystemExit) as exc:
        main(["export", str(DC_MOTOR), "--fmu", "x.fmu", "--kind", "both"])
    assert exc.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "--kind" in err[0]


def test_the_example_compares_and_plots(tmp_path, monkeypatch, capsys):
    import runpy
    import sys

    from matplotlib.figure import Figure

    monkeypatch.setenv("MPLBACKEND", "Agg")
    out = tmp_path / "fmu.png"
    monkeypatch.setattr(sys, "argv", ["fmu_dc_motor.py", "--out", str(out)])
    saved: list[Figure] = []
    original = Figure.savefig
    monkeypatch.setattr(Figure, "savefig",
                        lambda fig, *a, **k: (saved.append(fig), original(fig, *a, **k))[1])
    runpy.run_path(str(ROOT / "examples" / "fmu_dc_motor.py"), run_name="__main__")
    text = capsys.readouterr().out
    diffs = [float(x) for x in re.findall(r"difference ([0-9.e+-]+)", text)]
    assert len(diffs) == 2 and diffs[0] < 1e-8 and diffs[1] < 1e-12
    assert out.stat().st_size > 10_000 and len(saved) == 1
    assert all(re.search(r"\([^()]+\)$", ax.get_ylabel()) for ax in saved[0].axes)
