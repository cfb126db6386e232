"""``porthamiltonian export MODEL --matrices FILE.mat|.npz``: the benchmark layout from a file.

The series RLC circuit (R = 10 Ω, L = 0.1 H, C = 1 mF, source voltage in, current out)
has the admittance 1/(R + sL + 1/(sC)); the matrices written by the CLI, read back by
SciPy (the library that owns the .mat format), must give it.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import scipy.io as sio

from porthamiltonian.cli import main

MODELS = Path(__file__).resolve().parents[2] / "examples" / "models"
R, L, C = 10.0, 0.1, 1e-3


def _transfer(m: dict, s: complex) -> complex:
    A = s * m["E"] - (m["J"] - m["R"]) @ m["Q"]
    X = np.linalg.solve(A, m["G"] - m["P"])
    return ((m["G"] + m["P"]).T @ m["Q"] @ X + m["S"] - m["N"])[0, 0]


@pytest.mark.parametrize("suffix", [".mat", ".npz"])
def test_written_matrices_give_the_rlc_admittance(tmp_path, capsys, suffix):
    out = tmp_path / f"rlc{suffix}"
    assert main(["export", str(MODELS / "series_rlc.yaml"), "--matrices", str(out)]) == 0
    assert "2 states and 1 port" in capsys.readouterr().out
    if suffix == ".mat":
        raw = sio.loadmat(out)
        mats = {k: np.asarray(raw[k].toarray() if hasattr(raw[k], "toarray") else raw[k],
                              dtype=float) for k in "EJRQGPSN"}
    else:
        with np.load(out, allow_pickle=False) as raw:
            mats = {k: np.asarray(raw[k], dtype=float) for k in "EJRQGPSN"}
    for s in (2j * np.pi * 50, 100j, 5.0 + 30j):
        assert _transfer(mats, s) == pytest.approx(1 / (R + s * L + 1 / (s * C)), rel=1e-12)


def test_fmu_and_matrices_in_one_call_report_both(tmp_path, capsys):
    fmu, mat = tmp_path / "rlc.fmu", tmp_path / "rlc.npz"
    assert main(["export", str(MODELS / "series_rlc.yaml"), "--matrices", str(mat), "--fmu",
                 str(fmu), "--no-compile", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["matrices"] == str(mat) and report["n_states"] == 2
    assert report["fmu"] == str(fmu) and report["binary"] is None
    assert fmu.exists() and mat.exists()


@pytest.mark.parametrize("model, out, message", [
    ("duffing_spring_mass.yaml", "d.mat", "not linear"),
    ("series_rlc.yaml", "rlc.txt", "give FILE.mat"),
])
def test_refusals_are_one_error_line(tmp_path, capsys, model, out, message):
    assert main(["export", str(MODELS / model), "--matrices", str(tmp_path / out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and message in err[0]
    assert not (tmp_path / out).exists()
