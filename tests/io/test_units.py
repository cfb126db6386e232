"""Units in model files: values with units are converted to SI on load (pint), and a unit
whose dimension does not fit its role is refused, naming the parameter, the element, the
unit given and the unit expected."""

from __future__ import annotations

import json
import math
import subprocess
import sys
import textwrap

import numpy as np
import pytest
import sympy

from porthamiltonian.errors import SchemaError
from porthamiltonian.io import load_dict, load_model, simulate_model, validate_model
from porthamiltonian.io.units import UnitError, convert, split_quantity


def text(s: str) -> str:
    return textwrap.dedent(s).lstrip("\n")


def problems_of(source: str) -> list[str]:
    with pytest.raises(SchemaError) as info:
        load_model(text(source))
    return info.value.problems


def rlc(parameters: str, *, domain: str = "", simulate: str = "") -> str:
    """A series RLC file with the given parameters line (line 2) and elements on lines 7-9."""
    return text(f"""
        name: rlc
        parameters: {parameters}
        bondgraph:
          elements:
            - {{name: u, type: Se}}
            - {{name: j, type: "1"}}
            - {{name: R1, type: R, r: R}}
            - {{name: C1, type: C, c: C}}
            - {{name: L1, type: I, i: L}}
          bonds: [[u, j], [j, R1], [j, C1], [j, L1]]
        """) + (f"  domain: {domain}\n" if domain else "") + text(simulate)


# -- conversion ---------------------------------------------------------------------------
@pytest.mark.parametrize("written, si", [
    ("10 mH", 0.01),
    ("2.2 kohm", 2200.0),
    ("4.7 uF", 4.7e-6),
    ("1e-4 kg*m^2", 1e-4),
    ("1e-4 kg·m²", 1e-4),
    ("3000 rpm", 100 * math.pi),        # rev/min -> rad/s
    ("90 deg", math.pi / 2),
    ("2 ms", 0.002),
    ("-5 V", -5.0),
    ("20 degC", 293.15),                # an offset unit: absolute temperature
    ("5 %", 0.05),
    ("3 N*s/m", 3.0),
])
def test_values_with_units_are_converted_to_si(written, si):
    number, unit = split_quantity(written)
    assert convert(number, unit).si == pytest.approx(si, rel=1e-15)


def test_decimal_values_convert_to_the_double_written_in_si():
    """The SI value is the correctly rounded decimal product: 10 mH is the double 0.01,
    bit for bit (a naive 10 * 0.001 is 0.010000000000000002)."""
    assert convert("10", "mH").si == 0.01
    assert convert("2.2", "kohm").si == 2200.0
    assert convert("0.1", "mm").si == 1e-4


def test_parameters_with_units_load_as_si_numbers():
    model = load_model(rlc('{R: 2.2 kohm, C: "4.7 uF", L: {value: 10, unit: mH}}',
                           simulate="""
                           simulate: {t_end: 2 ms, dt: 1 us, t_start: 0 s}
                           """))
    assert {k: float(v) for k, v in model.parameters.items()} == {"R": 2200.0, "C": 4.7e-6,
                                                                  "L": 0.01}
    assert (model.simulate["t_end"], model.simulate["dt"]) == (0.002, 1e-6)
    assert model.simulate["t_start"] == 0.0


def test_mechanical_units_and_a_stiffness_through_an_expression():
    model = load_model(text("""
        name: spring-mass
        parameters: {m: 250 g, k: 1.2 kN/m, d: 0.5 N*s/m, w: 3000 rpm}
        bondgraph:
          domain: translational
          elements:
            - {name: F, type: Se}
            - {name: j, type: "1"}
            - {name: mass, type: I, i: m}
            - {name: spring, type: C, c: 1/k}
            - {name: damper, type: R, r: d}
          bonds: [[F, j], [j, mass], [j, spring], [j, damper]]
        simulate: {t_end: 10 ms, initial: {mass: 0.1 kg*m/s, spring: 2 mm}}
        """))
    assert model.parameters["m"] == sympy.Float(0.25)
    assert float(model.parameters["k"]) == 1200.0
    assert float(model.parameters["w"]) == pytest.approx(314.1592653589793, rel=1e-15)
    assert model.simulate["initial"] == {"mass": pytest.approx(0.1), "spring": 0.002}


def test_inline_units_in_element_fields():
    model = load_model(text("""
        name: inline
        bondgraph:
          domain: electrical
          elements:
            - {name: u, type: Se}
            - {name: L1, type: I, i: 10 mH}
          bonds: [[u, L1]]
        """))
    assert model.section["elements"][1]["i"] == sympy.Float(0.01)


def test_plain_numbers_are_si_and_a_model_without_units_never_imports_pint():
    code = textwrap.dedent("""
        import json, sys
        from porthamiltonian.io import load_model
        m = load_model('''name: m
        parameters: {L: 0.01}
        bondgraph:
          elements:
            - {name: u, type: Se}
            - {name: L1, type: I, i: L}
          bonds: [[u, L1]]
        simulate: {t_end: 0.002}
        ''')
        print(json.dumps([float(m.parameters["L"]), "pint" in sys.modules]))
        """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert json.loads(out.stdout.splitlines()[-1]) == [0.01, False]


# -- refused dimensions --------------------------------------------------------------------
def test_a_capacitance_used_as_an_inductance_is_refused_naming_parameter_and_element():
    problems = problems_of(rlc("{R: 10 ohm, C: 1 mF, L: 10 mF}", domain="electrical"))
    assert problems == [
        "<string>:9: bondgraph.elements[4] (L1).i: parameter L = 10 mF used as the inductance "
        "of I element L1: expected henry (H), got farad (F)"]


def test_without_a_domain_the_value_must_fit_the_role_in_some_domain():
    assert validate_model_text(rlc("{R: 10 ohm, C: 1 mF, L: 2 kg}")) == []  # a mass is an inertia
    problems = problems_of(rlc("{R: 10 ohm, C: 1 mF, L: 10 mF}"))
    assert problems == [
        "<string>:9: bondgraph.elements[4] (L1).i: parameter L = 10 mF used as the inertia of I "
        "element L1: expected H, kg, kg·m² or Pa·s²/m³, got farad (F) (electrical, "
        "translational, rotational, hydraulic: the element declares no domain)"]
    (problem,) = problems_of(rlc("{R: 10 ohm, C: 1 mF, L: 0.1}",
                                 simulate="simulate: {t_end: 1, initial: {C1: 2 V}}\n"))
    assert problem == (
        "<string>:11: simulate.initial.C1: 2 V as the initial state of C element C1: expected "
        "a displacement (C, m, rad or m³), got volt (V) (electrical, translational, rotational, "
        "hydraulic: the element declares no domain)")


def test_a_stiffness_given_as_a_compliance_gets_a_hint():
    (problem,) = problems_of(text("""
        name: spring
        parameters: {k: 1000 N/m}
        bondgraph:
          domain: translational
          elements:
            - {name: F, type: Se}
            - {name: spring, type: C, c: k}
          bonds: [[F, spring]]
        """))
    assert problem == (
        "<string>:7: bondgraph.elements[1] (spring).c: parameter k = 1000 N/m used as the "
        "compliance of C element spring: expected m/N, got kg/s²; c is a compliance, the "
        "inverse of a stiffness: write 1/k")


def test_dimensions_follow_parameters_defined_by_expressions():
    """L = 2*L0/C has the dimension H/F = Ω²: refused as an inductance, naming L's
    definition; the same L0 as an expression that stays in henry is accepted."""
    (problem,) = problems_of(rlc('{R: 10 ohm, C: 1 mF, L0: 5 mH, L: "2*L0/C"}',
                                 domain="electrical"))
    assert problem == (
        "<string>:9: bondgraph.elements[4] (L1).i: parameter L = 2*L0/C used as the "
        "inductance of I element L1: expected henry (H), got kg²·m⁴/(s⁶·A⁴)")
    model = load_model(rlc('{R: 10 ohm, C: 1 mF, L0: 5 mH, L: "2*L0"}', domain="electrical"))
    assert model.parameters["L"] == sympy.Float(0.01)


def test_adding_quantities_of_different_dimensions_is_refused():
    (problem,) = problems_of(rlc('{R: 10 ohm, C: 1 mF, L: "C + R"}'))
    assert problem.startswith("<string>:2: parameters.L: ")
    assert "are added but have different dimensions" in problem


def test_an_inline_unit_of_the_wrong_dimension_is_refused():
    (problem,) = problems_of(text("""
        name: inline
        bondgraph:
          domain: electrical
          elements:
            - {name: u, type: Se}
            - {name: R1, type: R, r: 2 H}
          bonds: [[u, R1]]
        """))
    assert problem == ("<string>:6: bondgraph.elements[1] (R1).r: r = 2 H used as the "
                       "resistance of R element R1: expected ohm (Ω), got henry (H)")


def test_times_must_be_times():
    (problem,) = problems_of(rlc("{R: 10, C: 1.0e-3, L: 0.1}",
                                 simulate="simulate: {t_end: 2 mH}\n"))
    assert problem == ("<string>:11: simulate.t_end: 2 mH is not a time: expected second (s), "
                       "got henry (H)")


def test_an_initial_value_is_the_state_not_the_coenergy():
    (problem,) = problems_of(rlc("{R: 10, C: 1.0e-3, L: 0.1}", domain="electrical",
                                 simulate="simulate: {t_end: 1, initial: {L1: 1 A}}\n"))
    assert problem == (
        "<string>:12: simulate.initial.L1: 1 A as the initial state of I element L1: expected "
        "its flux linkage (Wb), got ampere (A); the state is the flux linkage, not the current "
        "(for a linear element flux linkage = i·f)")


# -- unreadable units -----------------------------------------------------------------------
def test_an_unknown_unit_is_reported_with_its_line_and_suggestions():
    (problem,) = problems_of(rlc("{R: 2.2 kOhm, C: 1 mF, L: 10 mH}"))
    assert problem == ("<string>:2: parameters.R: unknown unit 'kOhm' in 'kOhm'; did you "
                       "mean kohm?")
    (problem,) = problems_of(rlc("{R: 10 ohm, C: 1 mF, L: 10 mHenri}"))
    assert problem.startswith("<string>:2: parameters.L: unknown unit 'mHenri' in 'mHenri'")


@pytest.mark.parametrize("hostile", [
    "1 m; import os", "1 m__import__('os')", "1 m.__class__", "2 kg[0]", "1 m^(99999)",
    "1 m" + "*m" * 60, "1 m**2**2", "1 m)(",
])
def test_units_are_read_by_a_whitelist_never_evaluated(hostile):
    with pytest.raises(UnitError):
        convert(*split_quantity(hostile))


def test_text_that_is_not_a_number_and_a_unit_stays_an_expression():
    assert split_quantity("1 __import__('os')") is None  # not a unit: the safe parser's
    assert split_quantity("2*k") is None and split_quantity("1e-3") is None
    (problem,) = problems_of(rlc("{R: \"1 __import__('os')\", C: 1, L: 1}"))
    assert problem.startswith("<string>:2: parameters.R: ")


def test_the_mapping_form_takes_a_plain_number_only():
    problems = problems_of(rlc('{R: {value: "2*C", unit: ohm}, C: 1 mF, L: 10 mH}'))
    assert problems == ["<string>:2: parameters.R: 'value' must be a plain number, got '2*C'"]


def validate_model_text(source: str) -> list[str]:
    try:
        load_model(source)
    except SchemaError as err:
        return err.problems
    return []


# -- the same model in units and in SI numbers ----------------------------------------------
def test_a_model_in_units_simulates_identically_to_the_model_in_si_numbers():
    sim = text("""
        simulate:
          t_end: {t_end}
          dt: {dt}
          inputs: {{u: "sin(2*pi*50*t)"}}
          initial: {{C1: {q0}, L1: 0.0}}
        """)
    with_units = rlc("{R: 10 ohm, C: 1 mF, L: 100 mH}", domain="electrical",
                     simulate=sim.format(t_end="20 ms", dt="0.1 ms", q0="1 mC"))
    in_si = rlc("{R: 10, C: 1.0e-3, L: 0.1}", domain="electrical",
                simulate=sim.format(t_end=0.02, dt=1.0e-4, q0=1.0e-3))
    a, b = (simulate_model(load_model(src)) for src in (with_units, in_si))
    assert a.states == b.states == ["C1", "L1"]
    assert len(a.t) == len(b.t) == 201
    for field in ("t", "x", "u", "y", "H"):
        assert np.array_equal(getattr(a, field), getattr(b, field)), field


def test_units_work_from_plain_data_too():
    model = load_dict({"name": "d", "parameters": {"L": "10 mH"},
                       "bondgraph": {"elements": [{"name": "u", "type": "Se"},
                                                  {"name": "L1", "type": "I", "i": "L"}],
                                     "bonds": [["u", "L1"]]}})
    assert model.parameters["L"] == sympy.Float(0.01)


def test_validate_lists_every_unit_problem(tmp_path):
    path = tmp_path / "m.yaml"
    path.write_text(rlc("{R: 10 kH, C: 1 mF, L: 10 mF}", domain="electrical",
                        simulate="simulate: {t_end: 1 kg}\n"), encoding="utf-8")
    problems = validate_model(path)
    assert [p.split(": ", 2)[1] for p in problems] == [
        "bondgraph.elements[2] (R1).r", "bondgraph.elements[4] (L1).i", "simulate.t_end"]


# -- the domain an element's unit is checked in ----------------------------------------------
MOTOR = text("""
    name: motor
    parameters: {{La: 2 mH, Ra: 1.5 ohm, K: 0.05, J: {J}, b: 1e-4 N*m*s/rad}}
    bondgraph:
      domain: electrical
      elements:
        - {{name: u, type: Se}}
        - {{name: je, type: "1"}}
        - {{name: Ra1, type: R, r: Ra}}
        - {{name: La1, type: I, i: La}}
        - {{name: G, type: GY, ratio: K}}
        - {{name: jm, type: "1", domain: rotational}}
        - {{name: J1, type: I, i: J}}
        - {{name: b1, type: R, r: b}}
      bonds: [[u, je], [je, Ra1], [je, La1], [je, G], [G, jm], [jm, J1], [jm, b1]]
    simulate: {{t_end: 10 ms, initial: {{La1: 0.1 mWb, J1: 2e-5 N*m*s}}}}
    """)


def test_each_element_is_checked_in_the_domain_propagated_to_its_bond():
    """The graph's default is electrical; the rotor side is declared rotational at its
    junction, and the rotor J1 and friction b1 take that domain through the junction."""
    model = load_model(MOTOR.format(J="1e-4 kg*m^2"))
    assert model.simulate["initial"] == {"La1": pytest.approx(1e-4), "J1": 2e-5}
    (problem,) = problems_of(MOTOR.format(J="1e-4 H"))
    assert problem == ("<string>:12: bondgraph.elements[6] (J1).i: parameter J = 1e-4 H used "
                       "as the moment of inertia of I element J1: expected kg·m², got henry (H)")


def test_a_constant_input_with_a_unit_is_converted():
    model = load_model(rlc("{R: 10, C: 1.0e-3, L: 0.1}",
                           simulate='simulate: {t_end: 1, inputs: {u: "12 V"}}\n'))
    assert model.simulate["inputs"] == {"u": sympy.Float(12.0)}
