"""The documented example runs; analysis accepts systems from the model-file front-end."""

from __future__ import annotations

import os
import subprocess
import sys

import sympy as sp

from conftest import EXAMPLES
from porthamiltonian import analysis as an
from porthamiltonian.io import load_model
from porthamiltonian.io.build import build_system


def test_rlc_bode_example_runs_and_writes_a_png(tmp_path):
    out = tmp_path / "bode.png"
    env = {**os.environ, "MPLBACKEND": "Agg"}
    proc = subprocess.run([sys.executable, str(EXAMPLES / "analysis_rlc_bode.py"), str(out)],
                          capture_output=True, text=True, env=env, timeout=120, check=True)
    assert "I/V   = C*s/(C*L*s**2 + C*R*s + 1)" in proc.stdout
    assert out.stat().st_size > 10_000


def test_bond_graph_model_file_gives_the_kvl_admittance():
    sys_ = build_system(load_model(EXAMPLES / "models" / "series_rlc.yaml"))
    s = sp.Symbol("s")
    R, L, C = sp.symbols("R L C", positive=True)
    Y = an.transfer_function(sys_, symbolic=True)
    assert sp.simplify(Y[0, 0] - 1 / (L * s + R + 1 / (C * s))) == 0
    # numerically with the file's values R = 10, L = 0.1, C = 1e-3: |Y| = 1/R at 100 rad/s
    assert abs(an.transfer_function(sys_)(100j)[0, 0] - 0.1) < 1e-12
