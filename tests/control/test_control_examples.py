"""The control examples run and write their figure (Agg backend, temporary folder).

The physics they print is asserted in the other test files of this folder; here each
script's printed claims are checked against what it computed.
"""

from __future__ import annotations

import re
import runpy
import sys

import pytest

from conftest import EXAMPLES


@pytest.mark.parametrize("name", ["control_maglev_ida_pbc", "control_boost_energy_shaping"])
def test_example_runs_and_writes_its_png(name, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("MPLBACKEND", "Agg")
    out = tmp_path / f"{name}.png"
    monkeypatch.setattr(sys, "argv", [name, "--out", str(out)])
    runpy.run_path(str(EXAMPLES / f"{name}.py"), run_name="__main__")
    printed = capsys.readouterr().out
    assert out.stat().st_size > 10_000
    if name == "control_maglev_ida_pbc":
        errors = [float(e) for e in re.findall(r"\|x\(30 s\) − x\*\| = ([0-9.e+-]+)", printed)]
        assert len(errors) == 3 and max(errors) < 1e-6
        assert printed.count("Hd non-increasing: True") == 3
    else:
        volts = [float(v) for v in re.findall(r"v\(20 ms\) = ([0-9.]+) V", printed)]
        assert len(volts) == 4 and max(abs(v - 24.0) for v in volts) < 1e-6
