"""A chemical bond graph's ``porthamiltonian phs --json`` reads back.

Facts checked: the model printed by ``phs --json`` (whose R holds the Re elements'
``reaction_conductance`` calls) rebuilt by ``PHS.from_dict`` has the right-hand side of
the closed-form mass-action cycle at several states; the parser gives the conductance its
value (the log-mean, with its limit at equal affinities); the function lives in the
foundation layer and is the one the bond graph uses.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from porthamiltonian.bondgraph import reactions as bg_reactions
from porthamiltonian.cli import main
from porthamiltonian.expr import parse_expression
from porthamiltonian.phs import PHS
from porthamiltonian.special import reaction_conductance

RT = 2478.957  # J/mol, as in the model file
MODEL = Path(__file__).resolve().parents[2] / "examples" / "models" / "chemical" / \
    "reaction_cycle.yaml"


def cycle_rhs(n: np.ndarray) -> np.ndarray:
    """ṅ of A ⇌ B ⇌ C ⇌ A by mass action, v = κ(e^{μ_f/RT} − e^{μ_b/RT})."""
    mu = np.array([0.0, -1000.0, 500.0]) + RT * np.log(n)
    e = np.exp(mu / RT)
    v1, v2, v3 = 1.0 * (e[0] - e[1]), 0.5 * (e[1] - e[2]), 0.2 * (e[2] - e[0])
    return np.array([v3 - v1, v1 - v2, v2 - v3])


def test_phs_json_of_a_chemical_bond_graph_reads_back(capsys):
    assert main(["phs", str(MODEL), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert "reaction_conductance(" in data["R"][0][0]  # the opaque γ is what is printed
    back = PHS.from_dict(data)
    assert back.states == ("A", "B", "C")
    rng = np.random.default_rng(3)
    for n in [np.array([1.0, 0.2, 0.1]), *rng.uniform(0.05, 2.0, size=(3, 3))]:
        np.testing.assert_allclose(back.rhs(n), cycle_rhs(n), rtol=1e-12, atol=1e-15)
    # the rebuilt model's Gibbs energy: H = Σ n(μ° + RT(ln n − 1))
    n = np.array([0.3, 0.5, 0.9])
    H = float(np.sum(n * (np.array([0.0, -1000.0, 500.0]) + RT * (np.log(n) - 1.0))))
    assert back.energy(n) == pytest.approx(H, rel=1e-13)


def test_the_parser_evaluates_the_conductance():
    # equal affinities: the limit κ e^{A/RT}/RT
    e = parse_expression("reaction_conductance(1000, 1000, 2, 2500)", {})
    assert float(e) == pytest.approx(2.0 * math.exp(0.4) / 2500.0, rel=1e-15)
    # A_f − A_b = 1e-9 J/mol: no 0/0, the log-mean to round-off
    e = parse_expression("reaction_conductance(1000.000000001, 1000, 2, 2500)", {})
    assert float(e) == pytest.approx(2.0 * math.exp(0.4) / 2500.0, rel=1e-12)
    # and v = γ (A_f − A_b) = κ (e^{A_f/RT} − e^{A_b/RT})
    x, rt = sp.Symbol("x", positive=True), sp.Symbol("RT", positive=True)
    e = parse_expression("reaction_conductance(RT*log(x), -300, 3, RT)", {"x": x, "RT": rt})
    value = float(e.subs({rt: 2500.0, x: 0.4}))
    Af, Ab = 2500.0 * math.log(0.4), -300.0
    assert value * (Af - Ab) == pytest.approx(3.0 * (0.4 - math.exp(Ab / 2500.0)), rel=1e-13)


def test_one_function_re_exported_by_the_bond_graph():
    assert bg_reactions.reaction_conductance is reaction_conductance
