"""The DAE examples run (short horizons) and print the facts they claim."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import EXAMPLES


def _run(script: str, *args: str) -> str:
    env = dict(os.environ, MPLBACKEND="Agg", OMP_NUM_THREADS="1")
    out = subprocess.run([sys.executable, str(EXAMPLES / script), *args], env=env,
                         capture_output=True, text=True, timeout=120, check=True)
    return out.stdout


def test_constrained_pendulum_example(tmp_path):
    text = _run("constrained_pendulum.py", "--t-end", "0.5", "--out", str(tmp_path / "p.png"))
    line = next(s for s in text.splitlines() if s.startswith("midpoint"))
    energy = float(line.split("max |H − H0|/H0 = ")[1].split(",")[0])
    assert energy < 1e-12
    assert (tmp_path / "p.png").stat().st_size > 0


def test_parallel_capacitors_example(tmp_path):
    text = _run("parallel_capacitors_dae.py", "--out", str(tmp_path / "c.png"))
    err = float(text.split("max |v − v_merged| = ")[1].split(" V")[0])
    assert err < 1e-5
    assert (tmp_path / "c.png").stat().st_size > 0
