"""Tabulated (CSV) inputs in model files: ``simulate.inputs.<name>: {csv: ..., column: ...,
interpolation: linear | previous}``, from the command line and from ``porthamiltonian.io``.

The test circuit is a series RC driven by a source voltage u(t): with the capacitor
charge q, ``R q̇ + q/C = u``, so for RC = τ

- a unit step at t_s (zero-order hold table):  v_C = 1 − exp(−(t − t_s)/τ)  for t ≥ t_s;
- the ramp u = t (linear table):                v_C = t − τ (1 − exp(−t/τ)).
"""

from __future__ import annotations

import numpy as np
import pytest

from porthamiltonian import ModelError
from porthamiltonian.cli import main
from porthamiltonian.io import load_model, simulate_model, simulation_arguments
from porthamiltonian.io.build import build_system
from porthamiltonian.simulate import simulate

R, C = 100.0, 1.0e-3  # τ = RC = 0.1 s
TAU = R * C

RC_MODEL = """\
name: rc-table
parameters: {R: 100, C: 1.0e-3}
bondgraph:
  elements:
    - {name: u,  type: Se}
    - {name: j,  type: "1"}
    - {name: R1, type: R, r: R}
    - {name: C1, type: C, c: C}
  bonds: [[u, j], [j, R1], [j, C1]]
simulate:
  t_end: 0.5
  dt: 1.0e-3
  method: gauss2
  inputs:
    u: {csv: data/supply.csv, column: volts, interpolation: previous}
"""

SUPPLY = """\
# a unit voltage step at t = 0.2 s
time,volts,ramp
0.0,0.0,0.0
0.2,1.0,0.2
1.0,1.0,1.0
"""


@pytest.fixture
def rc(tmp_path):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "supply.csv").write_text(SUPPLY)
    model = tmp_path / "rc.yaml"
    model.write_text(RC_MODEL)
    return model


def _step(t):
    return np.where(t >= 0.2, 1.0 - np.exp(-(t - 0.2) / TAU), 0.0)


def test_csv_step_from_the_command_line_matches_the_closed_form(rc, tmp_path):
    # the zero-order-hold sample at 0.2 s is a step boundary, so the order-4 Gauss method
    # keeps its accuracy across the jump: error ~ (h/τ)⁴/… ≪ 1e-8
    out = tmp_path / "rc.csv"
    assert main(["simulate", str(rc), "--out", str(out), "--no-progress"]) == 0
    d = np.genfromtxt(out, delimiter=",", names=True)
    assert np.any(np.isclose(d["t"], 0.2, rtol=0, atol=1e-15))
    np.testing.assert_allclose(d["xC1"] / C, _step(d["t"]), atol=1e-8)
    np.testing.assert_array_equal(d["uu"], np.where(d["t"] >= 0.2, 1.0, 0.0))


def test_linear_table_from_python_matches_the_ramp_response(rc):
    text = rc.read_text().replace("column: volts, interpolation: previous", "column: ramp")
    rc.write_text(text)
    model = load_model(rc)
    res = simulate_model(model)
    exact = res.t - TAU * (1.0 - np.exp(-res.t / TAU))
    np.testing.assert_allclose(res["C1"] / C, exact, atol=1e-9)
    # the same arguments by hand give the same run
    system = build_system(model)
    again = simulate(system, **simulation_arguments(model, system))
    np.testing.assert_array_equal(again.x, res.x)


def test_column_named_like_the_input_is_the_default(rc):
    (rc.parent / "data" / "supply.csv").write_text("t,u,other\n0,2.0,5\n1,2.0,5\n")
    rc.write_text(rc.read_text().replace("column: volts, interpolation: previous",
                                         "interpolation: linear"))
    res = simulate_model(load_model(rc), t_end=0.3)
    # constant 2 V from q(0) = 0: v_C = 2(1 − e^{−t/τ})
    np.testing.assert_allclose(res["C1"] / C, 2.0 * (1.0 - np.exp(-res.t / TAU)), atol=1e-8)


@pytest.mark.parametrize(("old", "new", "message"), [
    ("data/supply.csv", "data/missing.csv",
     "15: simulate.inputs.u.csv: no file '{dir}/data/missing.csv'; the path is relative"
     " to the model file's folder"),
    ("column: volts", "column: amps",
     "15: simulate.inputs.u.column: {dir}/data/supply.csv has no signal column 'amps'; "
     "its signal columns are: volts, ramp"),
    ("interpolation: previous", "interpolation: cubic",
     "15: simulate.inputs.u.interpolation: 'cubic' is not an interpolation; use linear"
     " or previous (zero-order hold)"),
    ("column: volts, ", "",
     "15: simulate.inputs.u: {dir}/data/supply.csv has no column 'u' and several signal"
     " columns (volts, ramp); choose one with column:"),
    ("t_end: 0.5", "t_end: 1.5",
     "15: simulate.inputs.u: {dir}/data/supply.csv covers t = 0 … 1 s, not the "
     "simulated 0 … 1.5 s; extend the table"),
    ("interpolation: previous", "interpolation: previous, scale: 2",
     "15: simulate.inputs.u: unknown key 'scale'; allowed keys in a tabulated input: "
     "csv, column, interpolation"),
])
def test_table_errors_name_the_key_and_line(rc, capsys, old, new, message):
    rc.write_text(rc.read_text().replace(old, new))
    expected = f"{rc}:" + message.format(dir=rc.parent)
    with pytest.raises(ModelError) as err:
        load_model(rc)
    assert str(err.value) == expected
    assert main(["simulate", str(rc), "--no-progress"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert lines == [f"error: {expected}"]


def test_bad_cell_names_the_csv_line(rc):
    (rc.parent / "data" / "supply.csv").write_text(SUPPLY.replace("0.2,1.0", "0.2,one"))
    with pytest.raises(ModelError, match=r"simulate\.inputs\.u\.csv: .*supply\.csv:4: column "
                                         r"'volts': 'one' is not a number"):
        load_model(rc)


def test_run_past_the_table_end_is_refused(rc, capsys):
    # --t-end beyond the table: no silent extrapolation
    assert main(["simulate", str(rc), "--t-end", "2", "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "covers t = 0 … 1 s" in err[0] and "t = 1" in err[0]
