"""Model files: valid ones load to the right SymPy; each problem is reported with its line."""

from __future__ import annotations

import json
import pathlib
import shutil
import textwrap

import pytest
import sympy

from porthamiltonian.errors import ModelError, SchemaError
from porthamiltonian.expr import T, parameter_symbol, state_symbol
from porthamiltonian.io import (
    SECTIONS,
    Model,
    Section,
    load_dict,
    load_model,
    register_section,
    validate_model,
)

HERE = pathlib.Path(__file__).parent
MODELS = HERE / "models"
EXAMPLES = HERE.parents[1] / "examples" / "models"


def text(s: str) -> str:
    return textwrap.dedent(s).lstrip("\n")


def problems_of(source: str) -> list[str]:
    with pytest.raises(SchemaError) as info:
        load_model(text(source))
    assert str(info.value) == info.value.problems[0]
    return info.value.problems


BASE = """
name: m
parameters: {k: 2, mass: 1}
bondgraph:
  elements:
    - {name: u, type: Se}
    - {name: j, type: "1"}
    - {name: C1, type: C, c: k}
    - {name: L1, type: I, i: mass}
  bonds: [[u, j], [j, C1], [j, L1]]
"""


# -- valid files --------------------------------------------------------------------------
def test_series_rlc_example():
    model = load_model(EXAMPLES / "series_rlc.yaml")
    assert isinstance(model, Model)
    assert model.name == "series-rlc" and model.kind == "bondgraph"
    assert model.path == EXAMPLES / "series_rlc.yaml"
    R, L, C = (parameter_symbol(n) for n in "RLC")
    assert model.symbols == {"R": R, "L": L, "C": C}
    assert model.parameters == {"R": 10, "L": sympy.Float(0.1), "C": sympy.Float(1e-3)}
    elements = {e["name"]: e for e in model.section["elements"]}
    assert [e["type"] for e in model.section["elements"]] == ["Se", "1", "R", "C", "I"]
    assert elements["R1"]["r"] == R and elements["C1"]["c"] == C and elements["L1"]["i"] == L
    assert elements["C1"]["text"] == {"c": "C"} and elements["C1"]["line"] == 11
    assert model.section["domain"] == "electrical" and model.section["outputs"] == ["u.i"]
    assert [(b["from"], b["to"]) for b in model.section["bonds"]] == [
        ("u", "j"), ("j", "R1"), ("j", "C1"), ("j", "L1")
    ]  # fmt: skip
    assert model.section["states"] == ["C1", "L1"] and model.section["inputs"] == ["u"]
    sim = model.simulate
    assert sim["t_end"] == 1.0 and sim["t_start"] == 0.0
    assert sim["inputs"] == {"u": sympy.sin(100 * sympy.pi * T)}
    assert sim["initial"] == {"C1": 0.0, "L1": 0.0}
    assert model.line_of("bondgraph", "elements", 3, "c") == 11
    assert model.line_of("simulate", "t_end") == 15
    assert model.line_of("nope") is None
    assert model.parameter_values() == {R: 10, L: sympy.Float(0.1), C: sympy.Float(1e-3)}


def test_nonlinear_spring_hamiltonian():
    model = load_model(EXAMPLES / "duffing_spring_mass.yaml")
    K1 = state_symbol("K1")
    k, k3 = parameter_symbol("k"), parameter_symbol("k3")
    spring = next(e for e in model.section["elements"] if e["name"] == "K1")
    assert spring["hamiltonian"] == k * K1**2 / 2 + k3 * K1**4 / 4
    assert "c" not in spring


def test_multibond_example():
    model = load_model(EXAMPLES / "planar_mass_spring.yaml")
    el = {e["name"]: e for e in model.section["elements"]}
    m, d = parameter_symbol("m"), parameter_symbol("d")
    assert el["Mass"]["i"] == sympy.ImmutableMatrix([[m, 0], [0, m]])
    assert el["D"]["r"] == sympy.ImmutableMatrix([[d, 0], [0, 2 * d]])
    assert el["K"]["states"] == ["K[0]", "K[1]"]
    k0, k1 = state_symbol("K[0]"), state_symbol("K[1]")
    kx, ky, kxy = (parameter_symbol(n) for n in ("kx", "ky", "kxy"))
    assert el["K"]["hamiltonian"] == kx * k0**2 / 2 + kxy * k0 * k1 + ky * k1**2 / 2
    assert model.section["inputs"] == ["F[0]", "F[1]"]
    assert model.section["bonds"][0]["name"] == "drive"
    assert model.simulate["inputs"] == {"F[0]": 0, "F[1]": sympy.Heaviside(T - 1)}
    assert model.simulate["initial"] == {"K[0]": 0.1, "K[1]": 0.0, "Mass[0]": 0.0,
                                         "Mass[1]": 0.0}  # fmt: skip


def test_phs_example():
    model = load_model(EXAMPLES / "oscillator_phs.yaml")
    assert model.kind == "phs"
    sec = model.section
    c = parameter_symbol("c")
    assert sec["states"] == ["q", "p"] and sec["inputs"] == ["F"] and sec["outputs"] == ["v"]
    assert sec["J"] == sympy.ImmutableMatrix([[0, 1], [-1, 0]])
    assert sec["R"] == sympy.ImmutableMatrix([[0, 0], [0, c]])
    assert sec["G"].shape == (2, 1) and sec["P"] == sympy.zeros(2, 1)
    assert sec["M"] == sympy.zeros(1, 1) and sec["S"].shape == (1, 1)
    assert model.simulate["method"] == "midpoint"


def test_all_examples_are_valid():
    files = sorted(EXAMPLES.glob("*.yaml"))
    assert len(files) >= 4
    for f in files:
        assert validate_model(f) == [], f


def test_json_with_tabs_and_Q():
    model = load_model(MODELS / "oscillator.json")
    q, p = state_symbol("q"), state_symbol("p")
    k, m = parameter_symbol("k"), parameter_symbol("m")
    assert model.section["Q"] == sympy.ImmutableMatrix([[k, 0], [0, 1 / m]])
    assert sympy.simplify(model.section["hamiltonian"] - (k * q**2 / 2 + p**2 / (2 * m))) == 0
    assert model.section["outputs"] == ["y_F"]
    assert model.parameters["k"] == 2.0
    assert model.line_of("phs", "Q") == 9


def test_json_line_numbers_in_problems(tmp_path):
    f = tmp_path / "bad.json"
    f.write_text('{\n  "name": "x",\n  "phs": {\n    "states": ["q"],\n    "J": [[0, 1]],\n'
                 '    "hamiltonian": "q**2"\n  }\n}\n')  # fmt: skip
    assert validate_model(f) == [
        f"{f}:5: phs.J[0]: row 0 must have 1 entry (1 state), got 2 entries"
    ]


def test_bare_phs_json_round_trip():
    data = {"name": "osc", "states": ["q", "p"], "inputs": ["F"], "outputs": ["v"],
            "J": [[0, 1], [-1, 0]], "R": [[0, 0], [0, 0]], "G": [[0], [1]], "P": [[0], [0]],
            "M": [[0]], "S": [[0]], "hamiltonian": "q**2/2 + p**2/(2*m)",
            "Q": [[1, 0], [0, "1/m"]], "parameters": {"m": 2}}  # fmt: skip
    model = load_model(json.dumps(data, indent=1))
    assert model.kind == "phs" and model.name == "osc"
    assert model.parameters == {"m": 2}
    m = parameter_symbol("m")
    assert model.section["Q"] == sympy.ImmutableMatrix([[1, 0], [0, 1 / m]])


def test_phs_parameters_inside_section():
    model = load_model(
        text("""
        name: x
        phs:
          states: [q]
          hamiltonian: "k*q**2/2"
          parameters: {k: 3}
        """)
    )
    assert model.parameters == {"k": 3}


def test_parameters_expressions_and_symbolic():
    model = load_model(
        text("""
        name: p
        parameters:
          k2: "2*k"
          k: 3
          w: "sqrt(k/m)"
          m: null
          c: symbolic
          zero: 0
        phs: {states: [q], hamiltonian: "k2*q**2/2"}
        """)
    )
    k, m, c = (parameter_symbol(n) for n in ("k", "m", "c"))
    assert model.parameters["k2"] == 6 and model.parameters["k"] == 3
    assert model.parameters["w"] == sympy.sqrt(3 / m)
    assert model.parameters["m"] == m and model.parameters["c"] == c
    assert model.symbolic_parameters == ["m", "c"]
    assert k not in model.section["hamiltonian"].free_symbols
    assert model.section["hamiltonian"] == parameter_symbol("k2") * state_symbol("q") ** 2 / 2


def test_load_dict_and_text():
    data = {"name": "d", "parameters": {"k": 1}, "phs": {"states": ["q"], "hamiltonian": "k*q"}}
    model = load_dict(data)
    assert model.path is None and model.line_of("phs") is None
    with pytest.raises(SchemaError) as info:
        load_dict({"name": "d", "phs": {"states": ["q"], "hamiltonian": "k*q"}})
    assert info.value.problems[0].startswith("<dict>: phs.hamiltonian: unknown name 'k'")
    assert load_model(text(BASE)).path is None


def test_ratio_and_modulated_resistor_may_use_states():
    model = load_model(
        text("""
        name: mod
        parameters: {n: 2}
        bondgraph:
          elements:
            - {name: C1, type: C, c: 1}
            - {name: C2, type: C, c: 1}
            - {name: T, type: MTF, ratio: "n*C1"}
            - {name: D, type: MR, r: "1 + C2**2"}
          bonds: [[C1, T], [T, C2], [C2, D]]
        """)
    )
    el = {e["name"]: e for e in model.section["elements"]}
    assert el["T"]["ratio"] == parameter_symbol("n") * state_symbol("C1")
    assert el["D"]["r"] == 1 + state_symbol("C2") ** 2


# -- problems -----------------------------------------------------------------------------
def test_bad_bondgraph_reports_everything_with_lines():
    f = MODELS / "bad_bondgraph.yaml"
    problems = validate_model(f)
    s = str(f)
    assert problems == [
        f"{s}:2: duplicate key 'k'; each key may appear only once",
        f"{s}:7: bondgraph.elements[2] (C1): unknown key 'cc'; allowed keys for a C element: "
        "name, type, dim, domain, c, hamiltonian",
        f"{s}:7: bondgraph.elements[2] (C1): neither 'c' nor 'hamiltonian' given; give exactly "
        "one ('c' for a linear element, 'hamiltonian' for any energy function)",
        f"{s}:8: bondgraph.elements[3] (L1).i: '^' is not a power operator; use '**' "
        "(column 1: 'm^2') in 'm^2'",
        f"{s}:9: bondgraph.elements[4] (X1): unknown element type 'Q'; use one of Se, Sf, MSe, "
        "MSf, 0, 1, C, I, R, MR, TF, GY, MTF, MGY, Ce, Re, 0s, 1s",
        f"{s}:10: bondgraph.bonds[2]: unknown element 'Nope'; elements are: u, j, C1, L1",
        f"{s}:11: unknown top-level key 'extra'; expected one of name, description, "
        f"parameters, {', '.join(SECTIONS)}, simulate",
    ]
    with pytest.raises(SchemaError) as info:
        load_model(f)
    assert info.value.problems == problems and str(info.value) == problems[0]


def test_example_message_format():
    problems = problems_of(BASE.replace("{name: C1, type: C, c: k}", "{name: C1, type: C, cc: k}"))
    assert problems[0] == (
        "<string>:7: bondgraph.elements[2] (C1): unknown key 'cc'; allowed keys for a C "
        "element: name, type, dim, domain, c, hamiltonian"
    )


def test_hostile_model_file_creates_nothing(tmp_path, monkeypatch):
    shutil.copy(MODELS / "hostile.yaml", tmp_path / "hostile.yaml")
    monkeypatch.chdir(tmp_path)
    problems = validate_model("hostile.yaml")
    assert len(problems) == 2
    assert problems[0].startswith("hostile.yaml:3: parameters.k: attribute access is not allowed")
    assert problems[1].startswith(
        "hostile.yaml:7: bondgraph.elements[1] (C1).hamiltonian: attribute access"
    )
    with pytest.raises(SchemaError):
        load_model("hostile.yaml")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hostile.yaml"]


@pytest.mark.parametrize(
    "payload",
    [
        "!!python/object/apply:os.system ['touch pwned']",
        "!!python/object/new:os.system ['touch pwned']",
        "!!python/name:os.system",
        "!!python/module:os",
        "!custom 1",
    ],
)
def test_yaml_tags_rejected(payload, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    problems = problems_of(BASE + f"description: {payload}\n")
    assert problems[0].startswith("<string>:10: YAML tag")
    assert "is not allowed" in problems[0]
    assert list(tmp_path.iterdir()) == []


def test_yaml_alias_bomb_is_cheap():
    # 9 levels of 9 aliases: 9**9 values if expanded; shared while reading, and refused
    # (with the line of the alias that crosses the limit) before anything walks it
    rows = ['a: &a ["x","x","x","x","x","x","x","x","x"]']
    for prev, cur in zip("abcdefgh", "bcdefghi", strict=True):
        rows.append(f"{cur}: &{cur} [" + ",".join([f"*{prev}"] * 9) + "]")
    rows.append("name: bomb\nphs: {states: [q], hamiltonian: q}")
    problems = problems_of("\n".join(rows) + "\n")
    assert len(problems) == 1
    assert problems[0].startswith("<string>:7: the document expands to more than 1000000 ")
    # below the limit: shared, so cheap, and the schema problems are found as usual
    problems = problems_of("\n".join(rows[:6]) + "\nname: bomb\nphs: {states: [q], "
                           "hamiltonian: q}\n")
    assert len(problems) == 6
    assert problems[0] == (
        "<string>:1: unknown top-level key 'a'; expected one of name, description, "
        f"parameters, {', '.join(SECTIONS)}, simulate"
    )


def test_yaml_recursive_alias():
    problems = problems_of("name: r\nphs: {states: &s [q, *s], hamiltonian: q}\n")
    assert len(problems) == 1 and "phs.states" in problems[0]


def test_yaml_syntax_error_single_problem_with_line():
    problems = problems_of(BASE.replace("[[u, j], [j, C1], [j, L1]]", "[[u, j], [j, C1]"))
    assert len(problems) == 1
    assert problems[0].startswith("<string>:") and "YAML syntax error" in problems[0]
    assert int(problems[0].split(":")[1]) >= 9


def test_json_syntax_error(tmp_path):
    f = tmp_path / "m.json"
    f.write_text('{"name": "x",\n "phs": {,}}')
    assert validate_model(f) == [f"{f}:2: JSON syntax error: Expecting property name enclosed "
                                 "in double quotes (column 10)"]  # fmt: skip


def test_missing_file():
    with pytest.raises(ModelError, match="model file 'no/such/model.yaml' not found"):
        load_model("no/such/model.yaml")
    with pytest.raises(ModelError, match="not found"):
        validate_model(pathlib.Path("no/such/model.yaml"))


def test_empty_and_non_mapping():
    assert problems_of("# nothing\n\n") == [
        "<string>:1: the model is empty; see docs/model-files.md for the format"]
    assert "must be a mapping" in problems_of("- a\n- b\n")[0]


def test_section_count():
    assert "no model section" in problems_of("name: x\nparameters: {a: 1}\n")[0]
    two = problems_of(BASE + "phs: {states: [q], hamiltonian: q}\n")
    assert two == ["<string>:10: 2 model sections; a model has exactly one of: "
                   f"{', '.join(SECTIONS)}"]


def test_parameter_problems():
    problems = problems_of("""
        name: p
        parameters:
          a: "b + 1"
          b: "2*a"
          sin: 1
          t: 2
          neg: -3
          ok: 1
          bad: "ok +"
          yes: 1
        phs: {states: [q], hamiltonian: "ok*q**2"}
        """)
    assert problems == [
        "<string>:3: parameters.a: parameters refer to each other in a cycle (a -> b -> a); "
        "give one of them a number",
        "<string>:5: parameters: 'sin' cannot be a parameter name: it is reserved for the "
        "time 't', 'pi' or a function; choose another name",
        "<string>:6: parameters: 't' cannot be a parameter name: it is reserved for the "
        "time 't', 'pi' or a function; choose another name",
        "<string>:9: parameters.bad: syntax error (invalid syntax) in 'ok +'",
        "<string>:10: parameters: the parameter name must be text, got True (YAML reads "
        "yes/no/on/off/true/false/null as values; quote the name)",
    ]


def test_element_problems():
    problems = problems_of("""
        name: e
        parameters: {k: 1}
        bondgraph:
          elements:
            - {name: k, type: Se}
            - {name: j, type: "0", dim: 0}
            - {name: C1, type: C, c: 1, hamiltonian: "C1**2"}
            - {name: C1, type: I, i: 1}
            - {name: L1, type: I, hamiltonian: "C1**2"}
            - {name: R1, type: R, r: "L1"}
            - {name: T1, type: TF}
            - {type: GY, ratio: 2}
            - {name: "2x", type: Sf}
          bonds:
            - [k, k]
            - {from: C1, to: L1, via: x}
            - [C1]
        """)
    assert problems == [
        "<string>:6: bondgraph.elements[1] (j): dim must be a positive integer, got 0",
        "<string>:7: bondgraph.elements[2] (C1): both 'c' and 'hamiltonian' given; give "
        "exactly one ('c' for a linear element, 'hamiltonian' for any energy function)",
        "<string>:8: bondgraph.elements[3] (C1): the element name 'C1' is used twice; element "
        "names must be unique",
        "<string>:9: bondgraph.elements[4] (L1).hamiltonian: unknown name 'C1'; allowed names: "
        "L1, k, pi (column 1: 'C1') in 'C1**2'",
        "<string>:10: bondgraph.elements[5] (R1).r: unknown name 'L1'; allowed names: k, pi "
        "(column 1: 'L1') in 'L1'",
        "<string>:11: bondgraph.elements[6] (T1): missing key 'ratio' (the transformer/gyrator "
        "ratio)",
        "<string>:12: bondgraph.elements[7]: the element name must be text, got None (YAML "
        "reads yes/no/on/off/true/false/null as values; quote the name)",
        "<string>:13: bondgraph.elements[8]: '2x' is not a valid element name; use letters, "
        "digits and '_', starting with a letter",
        "<string>:15: bondgraph.bonds[0]: the bond joins 'k' to itself",
        "<string>:16: bondgraph.bonds[1]: unknown key 'via'; allowed keys for a bond: from, "
        "to, name",
        "<string>:17: bondgraph.bonds[2]: a bond is [from, to] or {from: ..., to: ..., name: ...}",
    ]


def test_multibond_matrix_shape():
    problems = problems_of("""
        name: mb
        bondgraph:
          elements:
            - {name: C1, type: C, dim: 2, c: [[1, 0], [0, 1], [0, 0]]}
            - name: L1
              type: I
              dim: 2
              i:
                - [1, 0]
                - [0]
            - {name: j, type: "1", dim: 2}
          bonds: [[j, C1], [j, L1]]
        """)
    assert problems == [
        "<string>:4: bondgraph.elements[0] (C1).c: must be 2×2 (dim 2), but has 3 rows",
        "<string>:10: bondgraph.elements[1] (L1).i[1]: row 1 must have 2 entries (dim 2), "
        "got 1 entry",
    ]


def test_phs_problems():
    problems = problems_of("""
        name: bad-phs
        parameters: {k: 1}
        phs:
          states: [q, p, q]
          inputs: [u]
        """)
    assert problems == [
        "<string>:4: phs.states: states: the name 'q' appears twice; names must be unique",
    ]
    problems = problems_of("""
        name: bad-phs
        parameters: {k: 1}
        phs:
          states: [q, p]
          inputs: [u]
          outputs: [y1, y2]
          J: [[0, 1, 0], [-1, 0, 0]]
          G: [[1, 0], [0, 1]]
          M: 0
          Z: 1
        """)
    assert problems == [
        "<string>:3: phs: missing the energy: give 'hamiltonian' (an expression in the "
        "parameters and states) or 'Q' (an n×n matrix, H = xᵀQx/2)",
        "<string>:6: phs.outputs: 2 outputs for 1 input; give one output per input (or leave "
        "'outputs' out)",
        "<string>:7: phs.J[0]: row 0 must have 2 entries (2 states), got 3 entries",
        "<string>:7: phs.J[1]: row 1 must have 2 entries (2 states), got 3 entries",
        "<string>:8: phs.G[0]: row 0 must have 1 entry (2 states × 1 input), got 2 entries",
        "<string>:8: phs.G[1]: row 1 must have 1 entry (2 states × 1 input), got 2 entries",
        "<string>:9: phs.M: expected a 1×1 matrix (1 input) as a list of rows, got int 0",
        "<string>:10: phs: unknown key 'Z'; allowed keys in a phs section: name, states, "
        "inputs, outputs, J, R, G, P, M, S, hamiltonian, Q, parameters",
    ]


def test_simulate_problems():
    problems = problems_of(
        BASE
        + text("""
        simulate:
          t_start: 2
          t_end: 1
          dt: -1
          method: 3
          inputs: {v: "t", u: "x*t"}
          initial: {C1: "k", L2: 0, L1: [1, 2]}
          speed: 3
        """)
    )
    assert problems == [
        "<string>:12: simulate.t_end: t_end (1) must be after t_start (2)",
        "<string>:13: simulate.dt: must be positive, got -1",
        "<string>:14: simulate.method: the method must be a name, got 3",
        "<string>:15: simulate.inputs.v: unknown input 'v'; the model's inputs are: u",
        "<string>:15: simulate.inputs.u: unknown name 'x'; allowed names: k, mass, pi, t "
        "(column 1: 'x') in 'x*t'",
        "<string>:16: simulate.initial.L2: unknown state 'L2'; the model's states are: C1, L1",
        "<string>:16: simulate.initial.L1: expected an expression (text or number), got list "
        "[1, 2]",
        "<string>:17: simulate: unknown key 'speed'; allowed keys in a simulate section: "
        "t_end, t_start, dt, method, inputs, initial, velocities, modulation, events",
    ]


def test_simulate_values_from_parameters():
    model = load_model(
        BASE
        + text("""
        simulate:
          t_end: "10*k"
          dt: 1e-3
          inputs: {u: "k*sin(t)"}
          initial: {C1: "k/4"}
        """)
    )
    assert model.simulate["t_end"] == 20.0 and model.simulate["dt"] == 1e-3
    assert model.simulate["initial"] == {"C1": 0.5}
    assert model.simulate["inputs"]["u"] == parameter_symbol("k") * sympy.sin(T)


def test_register_section(monkeypatch):
    monkeypatch.setitem(SECTIONS, "toy", SECTIONS["phs"])
    assert "toy" in SECTIONS

    def check_toy(ck, value, path):
        if value != "ok":
            ck.error(path, "toy", "must be 'ok'")
        return Section({"value": value}, states=["z"], inputs=[])

    register_section("toy", check_toy)
    model = load_model("name: t\ntoy: ok\nsimulate: {t_end: 1, initial: {z: 1}}\n")
    assert model.kind == "toy" and model.section == {"value": "ok"}
    assert problems_of("name: t\ntoy: no\n") == ["<string>:2: toy: must be 'ok'"]


def test_unquoted_junction_types_and_modulated_sources():
    model = load_model(
        text("""
        name: j
        bondgraph:
          elements:
            - {name: u, type: MSe}
            - {name: a, type: 0}
            - {name: b, type: 1}
            - {name: C1, type: C, c: 1}
          bonds: [[u, a], [a, b], [b, C1]]
        simulate: {t_end: 1, inputs: {u: "t"}}
        """)
    )
    assert [e["type"] for e in model.section["elements"]] == ["MSe", "0", "1", "C"]
    assert model.simulate["inputs"] == {"u": T}


def test_negative_parameter_values_get_real_symbols_and_stay_checked(tmp_path):
    """An offset may be negative; a negative *resistance* is still refused by the checks."""
    from porthamiltonian.errors import StructureError
    from porthamiltonian.io.build import build_system

    good = load_model(
        "name: offset\nparameters: {k: 2.0, q0: -0.5}\n"
        "phs: {states: [q], inputs: [F], G: [[1]], hamiltonian: 'k*(q - q0)**2/2'}\n"
    )
    assert good.symbols["q0"].is_positive is None and good.symbols["k"].is_positive
    sys = build_system(good)
    assert sys.gradient([0.0])[0] == pytest.approx(2.0 * 0.5)
    bad = load_model(
        "name: negative-damping\nparameters: {c: -1.0}\n"
        "phs: {states: [q], R: [[c]], hamiltonian: 'q**2/2'}\n"
    )
    with pytest.raises(StructureError, match="with the given parameter values"):
        build_system(bad)
