"""`porthamiltonian simulate` (docs/cli.md): CSV/JSON contract and the error discipline."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import numpy as np

MODEL = """\
name: msd
parameters: {k: 4.0, m: 0.5, c: 0.3}
phs:
  states: [q, p]
  inputs: [F]
  outputs: [v]
  J: [[0, 1], [-1, 0]]
  R: [[0, 0], [0, c]]
  G: [[0], [1]]
  Q: [[k, 0], [0, 1/m]]
simulate:
  t_end: 2.0
  dt: 1.0e-3
  inputs: {F: "sin(3*t)"}
  initial: {q: 0.1}
"""


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "porthamiltonian", "simulate", *args],
                          capture_output=True, text=True, timeout=120)


def test_csv_has_the_contract_columns_and_a_closed_power_balance(tmp_path):
    (tmp_path / "model.yaml").write_text(MODEL)
    out = tmp_path / "x.csv"
    res = _run(str(tmp_path / "model.yaml"), "--out", str(out))
    assert res.returncode == 0, res.stderr
    with open(out, newline="") as fh:
        rows = list(csv.reader(fh))
    assert rows[0] == ["t", "x:q", "x:p", "u:F", "y:v", "H", "power_residual"]
    data = np.array(rows[1:], dtype=float)
    assert data.shape == (2001, 7)
    t, q, p, F, v, H, r = data.T
    assert t[-1] == 2.0 and q[0] == 0.1
    np.testing.assert_allclose(F, np.sin(3 * t), atol=1e-15)
    np.testing.assert_allclose(v, p / 0.5)  # y = Gᵀ∇H = p/m
    np.testing.assert_allclose(H, 2.0 * q**2 + p**2)  # k q²/2 + p²/(2m)
    assert np.max(np.abs(r)) <= 1e-15


def test_json_and_overrides(tmp_path):
    (tmp_path / "model.yaml").write_text(MODEL)
    out = tmp_path / "x.json"
    res = _run(str(tmp_path / "model.yaml"), "--out", str(out), "--t-end", "1", "--dt", "0.01",
               "--method", "gauss2")
    assert res.returncode == 0, res.stderr
    data = json.loads(out.read_text())
    assert set(data) >= {"t", "states", "inputs", "outputs", "H", "power_residual"}
    assert len(data["t"]) == 101 and data["t"][-1] == 1.0
    assert set(data["states"]) == {"q", "p"} and set(data["outputs"]) == {"v"}


def test_summary_without_out(tmp_path):
    (tmp_path / "model.yaml").write_text(MODEL)
    res = _run(str(tmp_path / "model.yaml"), "--t-end", "0.1")
    assert res.returncode == 0, res.stderr
    assert "final values" in res.stdout and "power residual" in res.stdout
    # which engine ran and why: a linear model is the LTI block stepper's
    assert "engine: NumPy (linear model" in res.stdout


def test_bad_method_is_one_error_line_exit_2(tmp_path):
    (tmp_path / "model.yaml").write_text(MODEL)
    res = _run(str(tmp_path / "model.yaml"), "--method", "euler")
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "euler" in lines[0]
    assert "midpoint" in lines[0]  # says what to use instead


def test_streamed_csv_with_save_every_keeps_the_energy_balance(tmp_path):
    # 2000 steps, every 7th saved: the file is written in blocks while the run goes; the
    # decimated rows still satisfy H_k − H_{k−1} = ∫(uᵀy − d) dt + residual (≈ 0)
    (tmp_path / "model.yaml").write_text(MODEL)
    out = tmp_path / "x.csv"
    res = _run(str(tmp_path / "model.yaml"), "--out", str(out), "--save-every", "7")
    assert res.returncode == 0, res.stderr
    assert res.stderr == ""  # no progress bar when stderr is not a terminal
    data = np.loadtxt(out, delimiter=",", skiprows=1)
    t = data[:, 0]
    assert t.size == 2000 // 7 + 2 and t[-1] == 2.0
    np.testing.assert_allclose(np.diff(t[:-1]), 7e-3, rtol=1e-9)
    assert np.max(np.abs(data[:, -1])) <= 1e-15


def test_adaptive_when_no_dt_anywhere(tmp_path):
    (tmp_path / "model.yaml").write_text(MODEL.replace("  dt: 1.0e-3\n", ""))
    out = tmp_path / "x.json"
    res = _run(str(tmp_path / "model.yaml"), "--out", str(out), "--rtol", "1e-8")
    assert res.returncode == 0, res.stderr
    data = json.loads(out.read_text())
    steps = np.diff(data["t"])
    assert steps.max() > 2 * steps.min()  # the steps adapt
    assert max(abs(r) for r in data["power_residual"]) <= 1e-14


def test_progress_bar_draws_on_a_terminal_only():
    import io

    from porthamiltonian.simulate.output.progress import ProgressBar

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    tty, pipe = Tty(), io.StringIO()
    for stream in (tty, pipe):
        bar = ProgressBar(0.0, 10.0, stream=stream, delay=0.0, interval=0.0)
        bar(5.0)
        bar.close()
    assert "50.0%" in tty.getvalue() and tty.getvalue().endswith("\r")
    assert pipe.getvalue() == ""
