"""The ten-line tearing example of docs/lagrange.md runs and is right."""

import re
import runpy
import sys

import numpy as np

from conftest import EXAMPLES, ROOT


def test_docs_example_matches_monolithic_chain(capsys):
    text = (ROOT / "docs" / "lagrange.md").read_text()
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    ns: dict = {}
    exec(compile(code, "docs/lagrange.md", "exec"), ns)
    res = ns["res"]
    from ld_models import spring_mono

    ref = spring_mono().simulate(10.0, [0.1, -0.2], [0.0, 0.0], dt=0.01)
    assert np.max(np.abs(res["x2"] - ref["x2"])) < 1e-8
    # the interaction force is spring 2's force on mass 1
    assert np.max(np.abs(res.lam[:, 0] - 5 * (res["x2"] - res["y1"]))) < 1e-9


def test_mass_spring_example_runs(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["x", "--out", str(tmp_path / "plot.png")])
    runpy.run_path(str(EXAMPLES / "lagrange_mass_spring.py"), run_name="__main__")
    out = capsys.readouterr().out
    assert "is Dirac: True" in out
    worst = float(re.search(r"max \|x - x_monolithic\|\s+= (\S+)", out).group(1))
    assert worst < 1e-8
    assert (tmp_path / "plot.png").exists()
