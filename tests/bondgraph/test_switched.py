"""Switched junctions 0s/1s (bondgraph/switched.py): the boost converter written with
one gives the hand-written J(S) and the same PWM trajectories as boost_converter.yaml;
causality, the dual 0s, the Dirac path, model files and bad switch signals."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from conftest import EXAMPLES
from porthamiltonian.bondgraph import BondGraph, analyze_causality, to_phs
from porthamiltonian.bondgraph.dirac_path import via_dirac
from porthamiltonian.cli import main
from porthamiltonian.errors import ModelError
from porthamiltonian.io import load_model
from porthamiltonian.io.simulation import simulate_model

SWITCHED = EXAMPLES / "models" / "boost_switched.yaml"
MODULATED = EXAMPLES / "models" / "boost_converter.yaml"
S = sp.Symbol("S", real=True)


def boost(**sw) -> BondGraph:
    """E → 1 jL {Lb} → 1s sw → 0 out {Cb, Rl}, as in boost_switched.yaml."""
    bg = BondGraph("boost", parameters={"L": 1e-3, "C": 1e-4, "R_load": 10.0, "S": None},
                   domain="electrical")
    for name, kind, p in [("E", "Se", {}), ("jL", "1", {}), ("Lb", "I", {"i": "L"}),
                          ("sw", "1s", {"switch": "1 - S", "switched": ["out"]} | sw),
                          ("out", "0", {}), ("Cb", "C", {"c": "C"}), ("Rl", "R", {"r": "R_load"})]:
        bg.add(name, kind, **p)
    for a, b in [("E", "jL"), ("jL", "Lb"), ("jL", "sw"), ("sw", "out"), ("out", "Cb"),
                 ("out", "Rl")]:
        bg.connect(a, b)
    return bg


def test_boost_with_a_switched_junction_has_the_hand_written_J_of_S():
    """J(S) = [[0, −(1−S)], [1−S, 0]], R = diag(0, 1/R_load), G = [1, 0]ᵀ
    (Duindam et al. §3.1), by elimination and by Dirac-structure composition alike."""
    bg = boost()
    bg.check()  # resolves the parameters, as to_phs does before the Dirac path
    for system in (to_phs(bg), via_dirac(bg, True)):
        J = sp.Matrix(system.J)
        (s,) = J.free_symbols  # the switch position, the only symbol left in J
        assert s.name == "S"
        assert sp.expand(J - sp.Matrix([[0, -(1 - s)], [1 - s, 0]])) == sp.zeros(2, 2)
        R = sp.Matrix(system.R).subs(dict(system.parameter_values()))
        assert R == sp.diag(0, sp.Rational(1, 10)) or np.allclose(
            np.array(R, dtype=float), np.diag([0, 0.1]))
        assert sp.Matrix(system.G) == sp.Matrix([[1], [0]])


def test_boost_file_trajectories_equal_the_modulated_phs():
    """Same PWM (20 kHz, D = 0.4), same steps: the switched-junction bond graph and the
    hand-written PHS give the same states (round-off), and the voltage rises."""
    a = simulate_model(load_model(MODULATED), t_end=6e-4)
    b = simulate_model(load_model(SWITCHED), t_end=6e-4)
    np.testing.assert_array_equal(a.t, b.t)
    np.testing.assert_allclose(b["Lb"], a["phi"], rtol=0, atol=1e-12 * np.abs(a["phi"]).max())
    np.testing.assert_allclose(b["Cb"], a["q"], rtol=0, atol=1e-12 * np.abs(a["q"]).max())
    assert a["q"][-1] / 1e-4 > 5.0  # the output capacitor charges (V)


def test_causality_of_a_switched_junction_is_that_of_its_junction():
    """The 1s passes the inductor's flow on (jL imposes the flow on sw, sw imposes the
    effort back); the capacitor's 0-junction imposes the effort on the switched bond."""
    bg = boost()
    rep = analyze_causality(bg)
    assert rep.ok and rep.integral == ["Lb", "Cb"]
    names = {(b.tail, b.head): b.name for b in bg.bonds}
    assert rep.effort_from[names["jL", "sw"]] == "sw"
    assert rep.effort_from[names["sw", "out"]] == "out"


def test_switched_0_junction_connects_a_branch_to_a_node():
    """Sf i → 0s n {C1, R1 switched}: the switched bond's effort is s·v and its flow
    enters the balance × s, so q̇ = i − s² v/R: the resistor loads the node while s = 1,
    and off (s = 0) sees no effort and leaves the balance; elimination and Dirac
    composition agree."""
    bg = BondGraph("node", parameters={"C": 2.0, "R": 5.0, "s": None})
    for name, kind, p in [("i", "Sf", {}), ("n", "0s", {"switch": "s", "switched": ["R1"]}),
                          ("C1", "C", {"c": "C"}), ("R1", "R", {"r": "R"})]:
        bg.add(name, kind, **p)
    for a, b in [("i", "n"), ("n", "C1"), ("n", "R1")]:
        bg.connect(a, b)
    bg.check()
    x, u = np.array([4.0]), np.array([1.0])  # v = 4/2 = 2 V
    for system in (to_phs(bg), via_dirac(bg, True)):
        for s in (1.0, 0.0, 0.5):
            on = system.with_parameters(s=s)
            assert np.isclose(on.rhs(x, u)[0], 1.0 - s**2 * 2.0 / 5.0)
            assert np.isclose(on.output(x, u)[0], 2.0)  # the node's voltage


def test_model_file_round_trip():
    """boost_switched.yaml → BondGraph: the 1s element, its signal and switched bond,
    and the same model as the one built in Python."""
    model = load_model(SWITCHED)
    bg = BondGraph.from_model(model)
    sw = bg.elements["sw"]
    assert (sw.type, sw.kind, sw.params["switched"]) == ("1s", "1", ("out",))
    assert sp.simplify(sw.params["switch"] - (1 - S)) == 0
    a, b = to_phs(bg), to_phs(boost())
    assert a.states == b.states and a.outputs == b.outputs == ("E.i",)
    x, u = np.array([0.2, 3e-4]), np.array([12.0])
    for s in (0.0, 1.0, 0.4):
        np.testing.assert_allclose(a.with_parameters(S=s).rhs(x, u),
                                   b.with_parameters(S=s).rhs(x, u), rtol=1e-14)


@pytest.mark.parametrize("change, words", [
    ({"switch": "2"}, "switch 2 is outside [0, 1]"),
    ({"switched": ["Cb"]}, "switched names 'Cb', which is not a neighbour"),
    ({"switched": ["out", "jL"]}, "every bond is switched"),
    ({"switched": []}, "has no switched bonds"),
])
def test_bad_switch_is_a_model_error_naming_the_element(change, words):
    with pytest.raises(ModelError, match="element 'sw' \\(1s\\)") as err:
        to_phs(boost(**change))
    assert words in str(err.value)


def test_state_dependent_switch_in_a_file_is_named(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text(SWITCHED.read_text().replace('switch: "1 - S"', 'switch: "1 - Lb"'))
    assert main(["validate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "(sw).switch: unknown name 'Lb'" in err
    bad.write_text(SWITCHED.read_text().replace(', switch: "1 - S"', ""))
    assert main(["validate", str(bad)]) == 2
    assert "(sw): missing key 'switch'" in capsys.readouterr().err
