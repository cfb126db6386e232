"""examples/benchmark_msd.py runs and reports what it claims."""

from __future__ import annotations

import re
import runpy
import sys

import pytest

from conftest import EXAMPLES


@pytest.mark.slow
def test_benchmark_msd_example(monkeypatch, tmp_path, capsys):
    pytest.importorskip("pymor")
    monkeypatch.setenv("MPLBACKEND", "Agg")
    out, mat = tmp_path / "msd.png", tmp_path / "msd.mat"
    monkeypatch.setattr(sys, "argv", ["benchmark_msd", "--out", str(out), "--mat", str(mat),
                                      "--points", "4"])
    runpy.run_path(str(EXAMPLES / "benchmark_msd.py"), run_name="__main__")
    text = capsys.readouterr().out
    assert "matrices bitwise equal, names equal" in text
    h2 = re.search(r"H2 norm: pyMOR (\S+), .* (\S+), relative difference", text)
    assert h2 and abs(float(h2[1]) - float(h2[2])) < 1e-6 * float(h2[2])
    diff = float(re.search(r"max relative difference (\S+)", text)[1])
    assert diff < 1e-12
    assert out.stat().st_size > 10_000 and mat.stat().st_size > 1_000
