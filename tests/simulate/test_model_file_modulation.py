"""A switched model from a model file: ``simulate: modulation:`` drives the boost
converter's switch with a PWM signal (examples/models/boost_converter.yaml)."""

from __future__ import annotations

import numpy as np

from conftest import EXAMPLES
from porthamiltonian.cli import main

BOOST = EXAMPLES / "models" / "boost_converter.yaml"


def test_boost_converter_file_reaches_the_ideal_step_up_ratio(tmp_path):
    """Mean output voltage → E/(1 − D) = 12/(1 − 0.4) = 20 V (ideal boost in continuous
    conduction); the switched run keeps the power balance to round-off at every step."""
    out = tmp_path / "boost.csv"
    assert main(["simulate", str(BOOST), "--out", str(out), "--no-progress"]) == 0
    d = np.genfromtxt(out, delimiter=",", names=True)
    t, v = d["t"], d["xq"] / 1.0e-4  # capacitor voltage q/C
    last = t > 0.015  # 100 switching periods after a 15 ms settling (RC = 1 ms)
    ripple = v[last].max() - v[last].min()
    assert 0.1 < ripple < 1.0
    assert abs(v[last].mean() - 20.0) < ripple / 4
    assert np.max(np.abs(d["power_residual"])) <= 1e-12 * np.max(d["H"])


def test_bad_modulation_entries_are_named(tmp_path, capsys):
    text = BOOST.read_text()
    bad = tmp_path / "bad.yaml"
    bad.write_text(text.replace("duty: 0.4", "duty: 1.4"))
    assert main(["validate", str(bad)]) == 2
    assert "simulate.modulation.S.pwm.duty: the duty ratio must be in [0, 1], got 1.4" in \
        capsys.readouterr().err
    bad.write_text(text.replace("    S: {pwm:", "    T: {pwm:"))
    assert main(["validate", str(bad)]) == 2
    assert "'T' is not a parameter of the model" in capsys.readouterr().err
