"""Command line: error discipline (exit 2, one `error:` line, no traceback), demo, phs."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

from porthamiltonian import __version__
from porthamiltonian.cli import main


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "porthamiltonian", *args],
                          capture_output=True, text=True, timeout=120)


def test_version_and_help(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["--version"])
    assert exc.value.code == 0
    assert __version__ in capsys.readouterr().out
    assert main([]) == 2  # no command: a usage error, naming the commands
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("error: no command given") and "validate" in err[-1]


def test_usage_errors_are_one_line_exit_2():
    res = run_cli("frobnicate")
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ")
    assert "Traceback" not in res.stderr


def test_missing_model_file_is_a_user_error(tmp_path, capsys):
    code = main(["phs", str(tmp_path / "nope.yaml")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("error: ")
    assert "nope.yaml" in err[0]


def test_demo_reproduces_the_closed_form_steady_state(tmp_path):
    from porthamiltonian.demo import run

    figures = run(out=tmp_path / "demo.png", plot=True)
    assert (tmp_path / "demo.png").stat().st_size > 10_000
    # ω_ss = K V / (R b + K²) from the motor equations; 0.4 s ≈ 10 mechanical time constants
    assert figures["steady_speed_rad_s"] == pytest.approx(figures["steady_speed_closed_form"],
                                                          rel=1e-3)
    # the library's midpoint rule: the discrete energy balance holds to round-off
    assert figures["energy_balance_error_J"] < 1e-12 * figures["final_energy_J"]
    assert figures["max_power_residual_J"] < 1e-13 * figures["final_energy_J"]


def test_phs_json_contract_on_a_phs_model(tmp_path):
    model = tmp_path / "osc.yaml"
    model.write_text(
        "name: oscillator\n"
        "parameters: {k: 3.0, m: 2.0, c: 0.5}\n"
        "phs:\n"
        "  states: [q, p]\n"
        "  inputs: [F]\n"
        "  outputs: [v]\n"
        "  J: [[0, 1], [-1, 0]]\n"
        "  R: [[0, 0], [0, c]]\n"
        "  G: [[0], [1]]\n"
        "  hamiltonian: k*q**2/2 + p**2/(2*m)\n"
    )
    res = run_cli("phs", str(model), "--json")
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    assert d["states"] == ["q", "p"] and d["inputs"] == ["F"] and d["outputs"] == ["v"]
    assert d["J"] == [[0, 1], [-1, 0]] and d["R"] == [[0, 0], [0, 0.5]]
    assert d["Q"] == [[3.0, 0], [0, 0.5]]
    assert set(d) >= {"J", "R", "G", "P", "M", "S", "hamiltonian", "parameters"}


def test_structure_error_in_a_model_is_one_line(tmp_path):
    model = tmp_path / "bad.yaml"
    model.write_text(
        "name: bad\nparameters: {}\nphs:\n  states: [q, p]\n  inputs: []\n"
        "  J: [[0, 1], [1, 0]]\n  hamiltonian: q**2 + p**2\n"
    )
    res = run_cli("phs", str(model))
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and "J is not skew-symmetric: J[q, p]" in lines[0]
    res = run_cli("validate", str(model))
    assert res.returncode == 2
    assert "J is not skew-symmetric" in res.stderr
    assert sum(ln.startswith("error:") for ln in res.stderr.splitlines()) == 1


def test_validate_checks_several_files_in_one_run(tmp_path, capsys):
    """Each file gets the verdict it gets alone: the valid ones their ``valid`` line, the
    others their problems (a skew-symmetry fault, a missing file); then one ``error:``
    line naming exactly the files with problems, exit 2."""
    good = tmp_path / "good.yaml"
    good.write_text("name: good\nphs:\n  states: [q, p]\n  J: [[0, 1], [-1, 0]]\n"
                    "  hamiltonian: q**2/2 + p**2/2\n")
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: bad\nphs:\n  states: [q, p]\n  J: [[0, 1], [1, 0]]\n"
                   "  hamiltonian: q**2/2 + p**2/2\n")
    missing = tmp_path / "missing.yaml"
    alone = {}
    for f in (good, bad, missing):
        alone[f] = main(["validate", str(f)]), capsys.readouterr()
    assert [alone[f][0] for f in (good, bad, missing)] == [0, 2, 2]
    assert main(["validate", str(good), str(bad), str(missing), str(good)]) == 2
    out, err = capsys.readouterr()
    assert out.splitlines() == [f"{good}: valid"] * 2
    errors = [ln for ln in err.splitlines() if ln.startswith("error:")]
    assert errors == [f"error: 2 of 4 model files have problems (listed above): {bad}, "
                      f"{missing}"]
    # the problem lines are those each file gives alone
    assert "J is not skew-symmetric" in alone[bad][1].err
    for line in alone[bad][1].err.splitlines()[:-1]:
        assert line in err
    assert alone[missing][1].err.removeprefix("error: ").strip() in err
    assert main(["validate", str(good), str(good)]) == 0


def _wait_for(path, text: str, proc, timeout: float = 90.0) -> str:
    """The file's text once it contains ``text`` (the watcher writes as it goes)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        got = path.read_text(encoding="utf-8") if path.exists() else ""
        if text in got:
            return got
        assert proc.poll() is None, f"the watcher stopped: {got}"
        time.sleep(0.05)
    proc.kill()
    raise AssertionError(f"no {text!r} within {timeout} s")


def test_validate_watch_checks_again_on_every_change_until_interrupted(tmp_path):
    """A real watcher process: valid at first; J made symmetric in the file, the next
    round names the fault; a CSV table appearing in the folder starts a round too (the
    fault again); put right, valid; Ctrl-C (SIGINT) ends it with status 0."""
    model = tmp_path / "osc.yaml"
    text = ("name: osc\nphs:\n  states: [q, p]\n  J: [[0, 1], [-1, 0]]\n"
            "  hamiltonian: q**2/2 + p**2/2\n")
    model.write_text(text)
    err = tmp_path / "err.txt"
    with open(tmp_path / "out.txt", "w") as out, open(err, "w") as errf:
        proc = subprocess.Popen([sys.executable, "-m", "porthamiltonian", "validate",
                                 str(model), "--watch", "--interval", "0.05"],
                                stdout=out, stderr=errf)
    try:
        _wait_for(err, "watching 1 file", proc)
        model.write_text(text.replace("[-1, 0]", "[1, 0]"))  # a new size: seen on any file system
        _wait_for(err, "J is not skew-symmetric", proc)
        (tmp_path / "table.csv").write_text("t,u\n0,1\n")
        _wait_for(err, "watching 2 files", proc)
        model.write_text(text)
        got = _wait_for(tmp_path / "out.txt", f"{model}: valid\n{model}: valid\n", proc)
        assert got.count(": valid\n") == 2
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 0
    finally:
        proc.kill()
    rounds = err.read_text(encoding="utf-8")
    assert rounds.count("changed, checking again") == 3
    # the fault is reported by the round of the edit and by the table's round
    assert rounds.count("error: ") == 2 and rounds.count("J is not skew-symmetric") == 2


def test_validate_interval_needs_watch_and_a_sensible_value(capsys):
    assert main(["validate", "x.yaml", "--interval", "1"]) == 2
    assert "add --watch" in capsys.readouterr().err
    assert main(["validate", "x.yaml", "--watch", "--interval", "0"]) == 2
    assert "between 0.01 and 3600" in capsys.readouterr().err


@pytest.mark.slow
def test_bondgraph_model_to_json_and_simulation_match_circuit_theory(tmp_path):
    """Series RLC from examples/: matrices by hand, and the 50 Hz steady-state current
    amplitude 1/|Z| with Z = R + j(ωL − 1/(ωC))."""
    import numpy as np

    from conftest import EXAMPLES

    model = EXAMPLES / "models" / "series_rlc.yaml"
    res = run_cli("phs", str(model), "--json")
    assert res.returncode == 0, res.stderr
    d = json.loads(res.stdout)
    assert d["states"] == ["C1", "L1"] and d["inputs"] == ["u"]
    assert d["J"] == [[0, 1], [-1, 0]] and d["R"] == [[0, 0], [0, 10]]
    assert d["G"] == [[0], [1]]
    np.testing.assert_allclose(d["Q"], [[1 / 1e-3, 0], [0, 1 / 0.1]])
    out = tmp_path / "rlc.csv"
    res = run_cli("simulate", str(model), "--out", str(out), "--dt", "1e-4")
    assert res.returncode == 0, res.stderr
    data = np.genfromtxt(out, delimiter=",", names=True)
    late = data["t"] > 0.8
    w = 2 * np.pi * 50
    Z = complex(10, w * 0.1 - 1 / (w * 1e-3))
    assert np.max(np.abs(data["yui"][late])) == pytest.approx(1 / abs(Z), rel=2e-3)
