"""What ``porthamiltonian validate`` loads and computes to check a model file
(docs/cli.md, "Start-up"): facts about imported modules in a fresh interpreter, never
timings; and the energy check it runs, against an independent derivation.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import sympy as sp

from porthamiltonian import PHS
from porthamiltonian.cli.app import main
from porthamiltonian.io.preflight import _symbolic_hessian

RLC_WITH_UNITS = """name: rlc
parameters: {R: 10 ohm, L: 100 mH, C: 1 mF}
bondgraph:
  elements:
    - {name: u,  type: Se}
    - {name: j,  type: "1"}
    - {name: R1, type: R, r: R}
    - {name: C1, type: C, c: C}
    - {name: L1, type: I, i: L}
  bonds: [[u, j], [j, R1], [j, C1], [j, L1]]
simulate: {t_end: 0.01, dt: 0.001}
"""

#: validate in a fresh interpreter; prints the status, the SI parameter values and which
#: of the watched packages were imported
_VALIDATE = """\
import contextlib, io, json, sys
from porthamiltonian.cli.app import main
from porthamiltonian.io import load_model
with contextlib.redirect_stdout(io.StringIO()):
    status = main(['validate', sys.argv[1]])
values = {k: float(v) for k, v in load_model(sys.argv[1]).parameters.items()}
watched = ('pint', 'matplotlib', 'networkx', 'porthamiltonian.mechanics')
print(json.dumps([status, values, [m for m in watched if m in sys.modules]]))
"""


def _validate_fresh(model: str, cache: str) -> list:
    env = {**os.environ, "PORTHAMILTONIAN_CACHE": cache}
    res = subprocess.run([sys.executable, "-c", _VALIDATE, model], capture_output=True,
                         text=True, check=True, env=env)
    return json.loads(res.stdout.splitlines()[-1])


def test_units_read_once_by_pint_are_read_again_without_it(tmp_path):
    """10 Ω, 100 mH = 0.1 H and 1 mF = 1e-3 F exactly, whether pint reads the units (the
    first run on a machine) or its earlier answers do (every later run: no pint, no
    Matplotlib, no mechanics)."""
    model = tmp_path / "rlc.yaml"
    model.write_text(RLC_WITH_UNITS, encoding="utf-8")
    cache = str(tmp_path / "cache")
    si = {"R": 10.0, "L": 0.1, "C": 1e-3}
    assert _validate_fresh(str(model), cache) == [0, si, ["pint"]]
    assert _validate_fresh(str(model), cache) == [0, si, []]
    # damaged entries (a zero scale, a wrong shape, an exponent 1/0) are ignored: pint is
    # asked again, with the same values
    (known,) = (tmp_path / "cache").glob("units-pint-*.json")
    known.write_text('{"mH": [0, 0, []], "ohm": "x", "mF": [1e-3, 0, [["[length]", "1/0"]]]}',
                     encoding="utf-8")
    assert _validate_fresh(str(model), cache) == [0, si, ["pint"]]


def test_unknown_unit_is_still_refused_with_suggestions(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("PORTHAMILTONIAN_CACHE", str(tmp_path / "cache"))
    model = tmp_path / "rlc.yaml"
    model.write_text(RLC_WITH_UNITS.replace("100 mH", "100 mHz"), encoding="utf-8")
    assert main(["validate", str(model)]) == 2
    assert "mHz" in capsys.readouterr().err


def _phs_file(tmp_path, hamiltonian: str, parameters: str = "{}") -> str:
    model = tmp_path / "osc.yaml"
    model.write_text(f"name: osc\nparameters: {parameters}\nphs:\n  states: [q, p]\n"
                     f"  hamiltonian: \"{hamiltonian}\"\n  J: [[0, 1], [-1, 0]]\n",
                     encoding="utf-8")
    return str(model)


def test_energy_not_bounded_below_is_found_from_the_coefficients(tmp_path, capsys):
    """H = (q² + p²)/2 + 2qp = ½xᵀQx with Q = [[1, 2], [2, 1]]: eigenvalues 3 and −1, the
    latter along (q − p)/√2 — a warning naming both states; ``--strict`` refuses it."""
    model = _phs_file(tmp_path, "(q**2 + p**2)/2 + 2*q*p")
    assert main(["validate", model]) == 0
    err = capsys.readouterr().err
    assert "not bounded below" in err and "eigenvalue -1 along q, p" in err
    assert main(["validate", model, "--strict"]) == 2
    # with a parameter's value: H = k q²/2 + p²/2, k = −2, the eigenvalue is k along q
    model = _phs_file(tmp_path, "k*q**2/2 + p**2/2", "{k: -2}")
    assert main(["validate", model]) == 0
    assert "eigenvalue -2 along q" in capsys.readouterr().err


def test_no_energy_warning_for_bounded_or_non_quadratic_energies(tmp_path, capsys):
    """A positive definite quadratic H, and non-quadratic ones (their Hessian is not
    constant: the quadratic test does not apply), pass without a warning."""
    for H in ("q**2/2 + p**2/2 + q*p/2", "q**4/4 + q**2/2 + p**2/2", "exp(q) - q + p**2/2"):
        assert main(["validate", _phs_file(tmp_path, H)]) == 0
        assert "warning" not in capsys.readouterr().err, H


def test_semidefinite_energy_passes_and_a_small_negative_direction_is_found(tmp_path, capsys):
    """H = (q + p)²/2: Q = [[1, 1], [1, 1]] has the eigenvalue 0 (along q − p), bounded
    below, no warning (the factorization test allows round-off below zero); with
    10⁻⁶ q p added the eigenvalues are 2 + 10⁻⁶ and −10⁻⁶ (along q − p), far beyond
    round-off: a warning."""
    assert main(["validate", _phs_file(tmp_path, "(q + p)**2/2")]) == 0
    assert "warning" not in capsys.readouterr().err
    assert main(["validate", _phs_file(tmp_path, "(q + p)**2/2 + 1e-6*q*p")]) == 0
    assert "eigenvalue -1e-06 along q, p" in capsys.readouterr().err


def test_hessian_from_the_coefficients_is_sympys_hessian():
    """Q read off the monomials of a quadratic H equals ``sympy.hessian`` (with the
    parameter values), cross terms and linear terms included; ``None`` beyond degree 2."""
    x = sp.symbols("x0:4", real=True)
    a, b = sp.symbols("a b")
    rng = np.random.default_rng(3)
    C = rng.integers(-5, 6, size=(4, 4))
    H = sum(int(C[i, j]) * x[i] * x[j] for i in range(4) for j in range(i, 4))
    H += a * x[0] * x[3] + b * x[2] ** 2 / 2 + 3 * x[1] + a
    system = PHS(J=sp.zeros(4, 4), hamiltonian=H, states=list(x),
                 parameters={"a": 0.5, "b": -1.5})
    expected = np.array(sp.hessian(H, x).subs({a: 0.5, b: -1.5}).tolist(), dtype=float)
    assert np.array_equal(_symbolic_hessian(system), expected)
    cubic = PHS(J=sp.zeros(4, 4), hamiltonian=H + x[0] ** 2 * x[1], states=list(x),
                parameters={"a": 0.5, "b": -1.5})
    assert _symbolic_hessian(cubic) is None
