"""``porthamiltonian modes``: undamped natural frequencies of a model file (docs/cli.md)."""

from __future__ import annotations

import json
import math
import subprocess
import sys

from porthamiltonian.cli import main


def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "porthamiltonian", *args],
                          capture_output=True, text=True, timeout=120)


def two_masses(tmp_path):
    """Wall–k–m–k–m–k–wall (phs section): ω = √(k/m), √(3k/m)."""
    model = tmp_path / "two_masses.yaml"
    model.write_text(
        "name: two-masses\n"
        "parameters: {k: 8.0, m: 2.0, c: 0.3}\n"
        "phs:\n"
        "  states: [e1, e2, e3, p1, p2]\n"
        "  J: [[0, 0, 0, 1, 0], [0, 0, 0, -1, 1], [0, 0, 0, 0, -1],\n"
        "      [-1, 1, 0, 0, 0], [0, -1, 1, 0, 0]]\n"
        "  R: [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, c, 0],\n"
        "      [0, 0, 0, 0, 0]]\n"
        "  hamiltonian: k*(e1**2 + e2**2 + e3**2)/2 + (p1**2 + p2**2)/(2*m)\n"
    )
    return model


def test_modes_json_gives_the_closed_form_in_hz(tmp_path, capsys):
    assert main(["modes", str(two_masses(tmp_path)), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    w = [math.sqrt(8.0 / 2.0), math.sqrt(3 * 8.0 / 2.0)]  # damping c is ignored
    assert d["model"] == "two-masses" and d["count"] == 2
    assert d["frequencies_hz"] == [float(f) for f in d["frequencies_hz"]]
    for got, omega in zip(d["frequencies_hz"], w, strict=True):
        assert abs(got - omega / (2 * math.pi)) <= 1e-12 * got
    assert d["linearized_at"] is None  # linear: no operating point needed


def test_modes_table_and_count(tmp_path, capsys):
    assert main(["modes", str(two_masses(tmp_path)), "--count", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [ln.split() for ln in out if ln.strip()[:1].isdigit()]
    assert len(rows) == 1 and rows[0][0] == "1"
    f, w, period = (float(v) for v in rows[0][1:])
    assert abs(w - 2.0) <= 1e-5 and abs(f * period - 1.0) <= 1e-5  # 6 digits printed


def test_nonlinear_model_is_linearized_at_rest(tmp_path, capsys):
    """A pendulum started at θ = 0.4 (not at rest): linearized at θ = 0, ω = √(g/l)."""
    model = tmp_path / "pendulum.yaml"
    model.write_text(
        "name: pendulum\n"
        "parameters: {m: 1.5, g: 9.81, l: 0.7}\n"
        "phs:\n"
        "  states: [th, p]\n"
        "  J: [[0, 1], [-1, 0]]\n"
        "  hamiltonian: p**2/(2*m*l**2) + m*g*l*(1 - cos(th))\n"
        "simulate: {t_end: 1.0, initial: {th: 0.4}}\n"
    )
    assert main(["modes", str(model), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert abs(d["rad_per_s"][0] - math.sqrt(9.81 / 0.7)) <= 1e-9
    assert d["linearized_at"] == {"th": 0.0, "p": 0.0}


def test_rc_circuit_has_no_oscillating_mode(tmp_path, capsys):
    """An RC circuit (ẋ = −x/(RC)): no natural frequency, an empty list."""
    model = tmp_path / "rc.yaml"
    model.write_text(
        "name: rc\nparameters: {R: 10.0, C: 0.01}\n"
        "phs:\n  states: [q]\n  J: [[0]]\n  R: [[1/R]]\n  hamiltonian: q**2/(2*C)\n"
    )
    assert main(["modes", str(model), "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["frequencies_hz"] == [] and d["count"] == 0
    assert main(["modes", str(model)]) == 0
    assert "no oscillating mode" in capsys.readouterr().out


def test_bad_count_is_one_error_line_exit_2(tmp_path):
    res = run_cli("modes", str(two_masses(tmp_path)), "--count", "0")
    assert res.returncode == 2
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "--count 0" in lines[0]
