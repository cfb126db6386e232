"""Hostile and broken inputs through the command line: each gives exit 2 and one
``error:`` line naming the fault (problems listed above it for ``validate``) — never a
traceback, an internal error, a hang or a silent wrong answer — within seconds.

Each case is a model file (written to a fresh folder) and a command line; the table
says which phrase the error must contain.  docs/model-files.md, "Limits and safety".
"""

from __future__ import annotations

import csv
import re
import time

import numpy as np
import pytest

from porthamiltonian import PHS, StructureError
from porthamiltonian.cli import main

RLC = """name: rlc
parameters: {{R: 10, L: 0.1, C: {C}}}
bondgraph:
  elements:
    - {{name: u,  type: Se}}
    - {{name: j,  type: "1"}}
    - {{name: R1, type: R, r: R}}
    - {{name: C1, type: C, c: C}}
    - {{name: L1, type: I, i: L}}
  bonds: [[u, j], [j, R1], [j, C1], [j, L1]]
simulate: {{t_end: 0.01, dt: 0.001{extra}}}
"""

OSCILLATOR = """name: oscillator
phs:
  states: [q, p]
  hamiltonian: "{H}"
  J: [[0, 1], [-1, 0]]
simulate:
  t_end: 1.0
  dt: 0.01
  initial: {{q: {q0}, p: 0}}
"""

GEAR = """name: gear
parameters: {{n: {n}}}
bondgraph:
  elements:
    - {{name: u, type: Se}}
    - {{name: L1, type: I, i: 1}}
    - {{name: j, type: "1"}}
    - {{name: gear, type: TF, ratio: n}}
    - {{name: j2, type: "1"}}
    - {{name: L2, type: I, i: 2}}
    - {{name: R1, type: R, r: 1}}
  bonds: [[u, j], [j, L1], [j, gear], [gear, j2], [j2, L2], [j2, R1]]
simulate: {{t_end: 1, initial: {{{initial}}}}}
"""


def _alias_bomb(levels: int) -> str:
    lines = ["name: bomb", "a: &a [x, x, x, x, x, x, x, x, x, x]"]
    prev = "a"
    for k in "bcdefghijk"[:levels]:
        lines.append(f"{k}: &{k} [{', '.join(['*' + prev] * 10)}]")
        prev = k
    lines.append(f"description: *{prev}")
    return "\n".join(lines) + "\n"


CASES = {
    # name: (file text, command line with {model} and {dir}, phrase in the error)
    "zero capacitance by parameter": (RLC.format(C=0, extra=""), "simulate {model}",
                                      "C1"),
    "zero capacitance, validate": (RLC.format(C=0, extra=""), "validate {model}", "C1"),
    "zero gear ratio": (GEAR.format(n=0, initial="L1: 1"), "validate {model}",
                        "'gear' (TF): ratio = 0"),
    "unknown method": (RLC.format(C=1e-3, extra=", method: heun3"), "validate {model}",
                       "heun3"),
    "initial value of a merged storage": (GEAR.format(n=2, initial="L1: 1, L2: 1"),
                                          "validate {model}", "merged the dependent"),
    "floor in H": (OSCILLATOR.format(H="floor(q*10)*q + p**2/2", q0=1), "simulate {model}",
                   "not differentiable"),
    "initial state 1e308": (OSCILLATOR.format(H="q**2/2 + p**2/2", q0="1e308"),
                            "simulate {model}", "energy H = inf"),
    "1e15 steps": (OSCILLATOR.format(H="q**2/2 + p**2/2", q0=1),
                   "simulate {model} --t-end 1e6 --dt 1e-9", "max_steps"),
    "dt below resolution": (OSCILLATOR.format(H="q**2/2 + p**2/2", q0=1),
                            "simulate {model} --dt 1e-300", "resolution"),
    "a device as model file": ("", "validate /dev/zero", "not a regular file"),
    "a folder as model file": ("", "validate {dir}", "directory"),
    "alias bomb": (_alias_bomb(7), "validate {model}", "expands to more than"),
    "output is a folder": (RLC.format(C=1e-3, extra=""), "simulate {model} --out {dir}",
                           "give a file"),
    "output folder missing": (RLC.format(C=1e-3, extra=""),
                              "simulate {model} --out {dir}/no/such/r.csv", "does not exist"),
    "output suffix": (RLC.format(C=1e-3, extra=""), "simulate {model} --out {dir}/r.txt",
                      ".parquet"),
    "CSV input outside the folder": (
        OSCILLATOR.format(H="q**2/2 + p**2/2", q0=1).replace(
            "phs:\n", "phs:\n  inputs: [F]\n  G: [[0], [1]]\n").replace(
            "  dt: 0.01\n", "  dt: 0.01\n  inputs: {F: {csv: /etc/passwd}}\n"),
        "simulate {model}", "outside the model's folder"),
    "unknown limit": (RLC.format(C=1e-3, extra=""), "validate {model} --limit speed=3",
                      "unknown limit"),
    "full-width parameter beside its ASCII twin": (
        OSCILLATOR.format(H="k*q**2/2 + ｋ*p**2/2", q0=1).replace(
            "name: oscillator\n", "name: oscillator\nparameters: {k: 1, ｋ: 2}\n"),
        "validate {model}", "indistinguishable from 'k'"),
    "exponent after simplification": (OSCILLATOR.format(H="(p**999)**999 + q**2", q0=1),
                                      "validate {model}", "exponent of 998001"),
    "huge multi-bond element": (
        "name: d\nbondgraph:\n  elements:\n    - {name: C1, type: C, c: 1, dim: 100000}\n"
        "  bonds: []\n", "validate {model}", "dim = 100000 is more than the limit"),
    "merged storages that cancel": (
        GEAR.format(n=1, initial="L1: 0").replace("i: 2", "i: -1"), "phs {model}",
        "H is infinite"),
    "value beyond double precision": (
        RLC.format(C=1e-3, extra="").replace("R: 10", "R: 1e-300").replace(
            "r: R}", "r: 1/(R*R*R)}"), "phs {model}", "beyond double precision"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_hostile_input_is_one_error_line(case, tmp_path, capsys):
    text, command, phrase = CASES[case]
    model = tmp_path / "model.yaml"
    model.write_text(text)
    argv = command.format(model=model, dir=tmp_path).split()
    start = time.monotonic()
    code = main(argv)
    elapsed = time.monotonic() - start
    out, err = capsys.readouterr()
    lines = err.strip().splitlines()
    assert code == 2, (out, err)
    assert lines and lines[-1].startswith("error: "), err
    assert "Traceback" not in err and "internal error" not in err
    assert phrase in err, err
    assert all(len(line) <= 1000 for line in lines)  # short excerpts, never the whole input
    assert "root:" not in err  # nothing read from outside the model's folder is echoed
    assert elapsed < 10.0


def test_large_model_file_is_refused_before_reading(tmp_path, capsys):
    model = tmp_path / "big.yaml"
    with open(model, "w") as fh:
        fh.write("name: big\ndescription: |\n")
        line = "  " + "x" * 98 + "\n"
        fh.write(line * 60_000)  # 6 MB
    assert main(["validate", str(model)]) == 2
    assert "more than the limit of 5 MB" in capsys.readouterr().err
    assert main(["validate", str(model), "--limit", "file_mb=10"]) == 2  # read, then refused
    assert "more than the limit" not in capsys.readouterr().err  # … for its content only


def test_negative_storage_warns_and_strict_refuses(tmp_path, capsys):
    model = tmp_path / "neg.yaml"
    model.write_text(RLC.format(C=1e-3, extra="").replace("L: 0.1", "L: -0.1"))
    assert main(["validate", str(model)]) == 0
    err = capsys.readouterr().err
    assert "warning:" in err and "'L1' (I)" in err and "negative" in err
    assert main(["validate", str(model), "--strict"]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("error:")


def test_blow_up_keeps_every_step_up_to_the_failure(tmp_path, capsys):
    """H = p²/2 − q⁴/4 on its zero level set: q̇ = q²/√2 blows up at t = √2/q₀ = 0.3 s.

    The step that reaches the singularity fails either with a NaN/Inf state (the
    compiled steps, once built) or with Newton diverging at every step size (the NumPy
    steps, which run until the compiled ones are built on this machine): both are the
    blow-up, reported at the time it happens."""
    q0 = float(np.sqrt(2) / 0.3)
    model = tmp_path / "blow.yaml"
    model.write_text(OSCILLATOR.format(H="p**2/2 - q**4/4", q0=q0).replace(
        "p: 0}", f"p: {float(q0**2 / np.sqrt(2))!r}}}").replace("dt: 0.01", "dt: 0.001"))
    out = tmp_path / "r.csv"
    assert main(["simulate", str(model), "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ")
    assert "NaN/Inf" in err[0] or "Newton did not converge" in err[0]
    with open(out) as fh:
        rows = list(csv.DictReader(fh))
    t = np.array([float(r["t"]) for r in rows])
    t_fail = float(re.search(r"(?:from|at) t = ([0-9.e+-]+) s", err[0]).group(1))
    assert 0.28 < t_fail < 0.3  # the closed-form blow-up time, within the step
    np.testing.assert_allclose(t, np.arange(t.size) * 1e-3, atol=1e-12)  # every step …
    assert t[-1] == pytest.approx(t_fail)  # … up to the failure
    q = np.array([float(r["x:q"]) for r in rows])
    exact = q0 / (1 - q0 * t / np.sqrt(2))  # q(t) of the closed form, while it holds
    early = t < 0.2
    np.testing.assert_allclose(q[early], exact[early], rtol=1e-3)


def test_non_finite_matrix_entries_are_named():
    with pytest.raises(StructureError, match=r"J has a NaN .* row 0, column 1"):
        PHS(J=[[0, np.nan], [-1, 0]], Q=np.eye(2))
    with pytest.raises(StructureError, match=r"R has a NaN or infinite entry at row 0, column 0"):
        PHS(R=[[np.inf, 0], [0, 1]], Q=np.eye(2))
