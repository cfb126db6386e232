"""An element may share its name with a parameter (``{name: La, type: I, i: La}``).

The rule (docs/model-files.md, "Names"): element fields read parameters; the state of a
storage named like a parameter is the qualified name ``La.p`` (an I's momentum) or
``Ca.q`` (a C's displacement) — in the PHS, in expressions, in ``initial`` (where the
element's name ``La`` is accepted too) and in results.  A storage with no parameter of
its name keeps the state named like the element.
"""

from __future__ import annotations

import csv
import textwrap

import numpy as np
import pytest
import sympy

from porthamiltonian.bondgraph import BondGraph
from porthamiltonian.bondgraph.generate import to_phs
from porthamiltonian.cli.app import main
from porthamiltonian.errors import ModelError, SchemaError
from porthamiltonian.expr import parameter_symbol, state_symbol
from porthamiltonian.io import load_model, simulate_model
from porthamiltonian.io.build import build_system


def text(s: str) -> str:
    return textwrap.dedent(s).lstrip("\n")


# A DC motor: armature La, Ra; gyrator K; rotor J, friction b.  SHARED names every element
# after its parameter; DISTINCT is the same model with element names L1, R1, ...
SHARED = text("""
    name: motor
    parameters: {V: 12, La: 2.0e-3, Ra: 1.5, K: 0.05, J: 1.0e-4, b: 1.0e-4}
    bondgraph:
      elements:
        - {name: u, type: Se, domain: electrical}
        - {name: je, type: "1"}
        - {name: Ra, type: R, r: Ra}
        - {name: La, type: I, i: La}
        - {name: K, type: GY, ratio: K}
        - {name: jm, type: "1", domain: rotational}
        - {name: J, type: I, hamiltonian: "J.p**2/(2*J)"}
        - {name: b, type: R, r: b}
      bonds: [[u, je], [je, Ra], [je, La], [je, K], [K, jm], [jm, J], [jm, b]]
    simulate:
      t_end: 0.05
      dt: 1.0e-4
      inputs: {u: "V"}
      initial: {La: 1.0e-4, J.p: 2.0e-5}
    """)
DISTINCT = (SHARED.replace("{name: Ra,", "{name: R1,").replace("{name: La,", "{name: L1,")
            .replace("{name: K,", "{name: G1,").replace("{name: J,", "{name: J1,")
            .replace("{name: b,", "{name: B1,").replace("J.p**2", "J1**2")
            .replace("[je, Ra], [je, La], [je, K], [K, jm], [jm, J], [jm, b]",
                     "[je, R1], [je, L1], [je, G1], [G1, jm], [jm, J1], [jm, B1]")
            .replace("{La: 1.0e-4, J.p: 2.0e-5}", "{L1: 1.0e-4, J1: 2.0e-5}"))


def test_the_two_files_differ_only_in_element_names():
    assert "name: La" in SHARED and "name: La" not in DISTINCT
    assert SHARED.count("\n") == DISTINCT.count("\n")


def test_fields_read_parameters_and_the_states_are_qualified():
    model = load_model(SHARED)
    elements = {e["name"]: e for e in model.section["elements"]}
    assert model.section["states"] == ["La.p", "J.p"]
    assert elements["La"]["i"] == parameter_symbol("La")           # the parameter
    assert elements["J"]["hamiltonian"] == state_symbol("J.p") ** 2 / (2 * parameter_symbol("J"))
    assert model.simulate["initial"] == {"La.p": 1.0e-4, "J.p": 2.0e-5}
    sys = build_system(model)
    assert list(sys.states) == ["La.p", "J.p"]
    assert sys.free_parameters() == ["J", "K", "La", "Ra", "b"]
    # the state La.p and the parameter La are two symbols, and stay two in the PHS
    La, p = parameter_symbol("La"), state_symbol("La.p")
    assert {La, p} <= sys.hamiltonian.free_symbols
    assert sympy.simplify(sys.hamiltonian - (p**2 / (2 * La) + state_symbol("J.p") ** 2
                                             / (2 * parameter_symbol("J")))) == 0
    # co-energies are named after the element: the current of La, the speed of J
    assert sys.quantities.states["La.p"].coenergy_name == "La.i"
    assert sys.quantities.states["J.p"].coenergy_name == "J.w"


def test_shared_names_simulate_exactly_like_distinct_names():
    a, b = (simulate_model(load_model(src)) for src in (SHARED, DISTINCT))
    assert a.states == ["La.p", "J.p"] and b.states == ["L1", "J1"]
    for field in ("t", "x", "u", "y", "H", "power_residual"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field
    assert np.array_equal(a["La.i"], b["L1.i"]) and np.array_equal(a["J.w"], b["J1.w"])
    assert a["J.w"][-1] > 100  # the rotor spun up (rad/s)


def test_phs_matrices_are_the_same_with_shared_and_distinct_names():
    a, b = (build_system(load_model(src)) for src in (SHARED, DISTINCT))
    x = np.array([1.0e-4, 2.0e-5])
    np.testing.assert_array_equal(a.rhs(x, [12.0]), b.rhs(x, [12.0]))
    np.testing.assert_array_equal(a.output(x, [12.0]), b.output(x, [12.0]))


def test_command_line_simulate_on_shared_names(tmp_path):
    paths = {}
    for tag, src in (("shared", SHARED), ("distinct", DISTINCT)):
        model, out = tmp_path / f"{tag}.yaml", tmp_path / f"{tag}.csv"
        model.write_text(src, encoding="utf-8")
        assert main(["simulate", str(model), "--out", str(out)]) == 0
        paths[tag] = out
    rows = {tag: list(csv.reader(p.open(encoding="utf-8"))) for tag, p in paths.items()}
    header = rows["shared"][0]
    assert "x:La.p" in header and "x:J.p" in header
    assert rows["distinct"][0] == [h.replace("La.p", "L1").replace("J.p", "J1")
                                   for h in header]
    assert rows["shared"][1:] == rows["distinct"][1:]  # the same numbers, as text


def test_the_state_of_a_storage_without_a_parameter_of_its_name_keeps_the_element_name():
    model = load_model(text("""
        name: m
        parameters: {La: 1.0}
        bondgraph:
          elements:
            - {name: u, type: Se}
            - {name: L1, type: I, hamiltonian: "L1**2/(2*La)"}
          bonds: [[u, L1]]
        """))
    assert model.section["states"] == ["L1"]


def test_a_bare_shared_name_in_the_energy_is_the_parameter_and_is_refused():
    with pytest.raises(SchemaError) as info:
        load_model(text("""
            name: m
            parameters: {La: 1.0}
            bondgraph:
              elements:
                - {name: u, type: Se}
                - {name: La, type: I, hamiltonian: "La**2/2"}
              bonds: [[u, La]]
            """))
    assert info.value.problems == [
        "<string>:6: bondgraph.elements[1] (La).hamiltonian: the energy does not depend on "
        "the element's state; 'La' alone is the parameter La, the state is written 'La.p'"]


def test_modulated_ratios_read_qualified_states_and_parameters():
    model = load_model(text("""
        name: m
        parameters: {theta: 0.5, k: 2.0}
        bondgraph:
          elements:
            - {name: F, type: Se}
            - {name: T, type: MTF, ratio: "cos(theta.q) + theta"}
            - {name: theta, type: C, c: k}
            - {name: m, type: I, i: 1.0}
            - {name: j, type: "0"}
          bonds: [[F, T], [T, j], [j, theta], [j, m]]
        """))
    ratio = model.section["elements"][1]["ratio"]
    assert ratio == sympy.cos(state_symbol("theta.q")) + parameter_symbol("theta")


def test_multi_bond_storages_named_like_a_parameter():
    model = load_model(text("""
        name: m
        parameters: {K: 2.0}
        bondgraph:
          elements:
            - {name: F, type: Sf, dim: 2}
            - {name: K, type: C, dim: 2, hamiltonian: "K*(K.q[0]**2 + K.q[1]**2)/2"}
          bonds: [[F, K]]
        simulate: {t_end: 1, initial: {K: [1.0, 2.0]}}
        """))
    assert model.section["states"] == ["K.q[0]", "K.q[1]"]
    assert model.simulate["initial"] == {"K.q[0]": 1.0, "K.q[1]": 2.0}
    np.testing.assert_allclose(build_system(model).gradient([1.0, 2.0]), [2.0, 4.0])


def test_unknown_initial_names_list_the_qualified_states():
    with pytest.raises(SchemaError, match=r"unknown state 'Lb'; the model's states are: "
                                          r"La\.p, J\.p"):
        load_model(SHARED.replace("{La: 1.0e-4,", "{Lb: 1.0e-4,"))


# -- the Python API --------------------------------------------------------------------
def _motor(names: dict[str, str]) -> BondGraph:
    n = names
    bg = BondGraph("motor", parameters={"La": 2.0e-3, "Ra": 1.5, "K": 0.05, "J": 1.0e-4,
                                        "b": 1.0e-4})
    bg.add("u", "Se"), bg.add("je", "1"), bg.add("jm", "1")
    bg.add(n["Ra"], "R", r="Ra")
    bg.add(n["La"], "I", i="La")
    bg.add(n["K"], "GY", ratio="K")
    bg.add(n["J"], "I", hamiltonian=f"{n['Jstate']}**2/(2*J)")
    bg.add(n["b"], "R", r="b")
    for tail, head in (("u", "je"), ("je", n["Ra"]), ("je", n["La"]), ("je", n["K"]),
                       (n["K"], "jm"), ("jm", n["J"]), ("jm", n["b"])):
        bg.connect(tail, head)
    return bg


@pytest.mark.parametrize("symbolic", [True, False])
def test_api_graph_with_shared_names_equals_the_graph_with_distinct_names(symbolic):
    shared = to_phs(_motor({"Ra": "Ra", "La": "La", "K": "K", "J": "J", "b": "b",
                            "Jstate": "J.p"}), symbolic=symbolic)
    distinct = to_phs(_motor({"Ra": "R1", "La": "L1", "K": "G1", "J": "J1", "b": "B1",
                              "Jstate": "J1"}), symbolic=symbolic)
    assert list(shared.states) == ["La.p", "J.p"] and list(distinct.states) == ["L1", "J1"]
    x = np.array([3.0e-4, 1.0e-5])
    np.testing.assert_array_equal(shared.rhs(x, [12.0]), distinct.rhs(x, [12.0]))
    assert shared.energy(x) == distinct.energy(x)


def test_api_with_parameters_changes_the_parameter_not_the_state():
    sys = to_phs(_motor({"Ra": "Ra", "La": "La", "K": "K", "J": "J", "b": "b",
                         "Jstate": "J.p"}))
    assert sys.with_parameters(La=4.0e-3).gradient([4.0e-3, 0.0])[0] == pytest.approx(1.0)


def test_api_include_keeps_the_qualified_state():
    sub = BondGraph("armature", parameters={"La": 2.0e-3})
    sub.add("j", "1"), sub.add("La", "I", hamiltonian="La.p**2/(2*La)")
    sub.connect("j", "La")
    sub.expose("port", "j")
    top = BondGraph("top")
    top.add("u", "Se")
    top.include("arm", sub)
    top.connect("u", "arm.port")
    sys = to_phs(top)
    assert list(sys.states) == ["arm.La.p"]
    assert sys.gradient([2.0e-3]) == pytest.approx([1.0])


def test_api_a_bare_shared_name_in_the_energy_is_refused():
    bg = BondGraph("m", parameters={"La": 1.0})
    bg.add("u", "Se"), bg.add("La", "I", hamiltonian="La**2/2")
    bg.connect("u", "La")
    with pytest.raises(ModelError, match="its hamiltonian does not depend on its state; 'La' "
                                         "alone is the parameter La, the state is written "
                                         "'La.p'"):
        to_phs(bg)


# -- phs sections: states are named by the user, so a clash stays an error --------------
def test_a_phs_state_named_like_a_parameter_is_still_refused():
    with pytest.raises(SchemaError, match="the state 'q' has the same name as a parameter"):
        load_model(text("""
            name: m
            parameters: {q: 1.0}
            phs: {states: [q], J: [[0]], hamiltonian: "q**2/2"}
            """))
