"""Sub-graphs in bond-graph model files (``bondgraph.include`` / ``bondgraph.ports``).

The facts checked: an included block gives the port-Hamiltonian model of the same graph
written out flat, and of the same hierarchy built with ``BondGraph.include`` (same
names, matrices and energy); the DC motors of the example reach the closed-form steady
speed ``K V / (R_a (b + b_fan) + K²)``; bound and overridden parameters reach the
energy; and every unsafe or broken include is refused naming the file and line at fault.
"""

from __future__ import annotations

import contextlib
import io
import os
import pathlib
import shutil
import textwrap

import numpy as np
import pytest
import sympy as sp

from porthamiltonian.bondgraph import BondGraph, to_phs
from porthamiltonian.cli.app import main
from porthamiltonian.errors import ModelError, SchemaError
from porthamiltonian.expr import state_symbol
from porthamiltonian.io import load_model
from porthamiltonian.io.build import build_system

MODELS = pathlib.Path(__file__).resolve().parents[2] / "examples" / "models"
DRIVE = MODELS / "two_motor_drive.yaml"
MATRICES = ("J", "R", "G", "P", "M", "S")


def _write(folder: pathlib.Path, name: str, text: str) -> pathlib.Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text))
    return path


def _numbers(system) -> dict[str, np.ndarray]:
    d = system.to_dict()
    return {k: np.array(d[k], dtype=float) for k in MATRICES}


def _valued(system) -> sp.Expr:
    """The system's energy with its parameter values put in."""
    h = system.hamiltonian
    return h.xreplace({s: system.parameters[s.name] for s in h.free_symbols
                       if s.name in system.parameters})


@pytest.fixture
def drive(tmp_path) -> pathlib.Path:
    for name in ("two_motor_drive.yaml", "dc_motor_block.yaml"):
        shutil.copy(MODELS / name, tmp_path)
    return tmp_path / "two_motor_drive.yaml"


FLAT = """\
name: two-motor-drive-flat
parameters: {b_fan: 2.0e-4, J2: 2.0e-4, k_s: 50.0, J_fw: 1.0e-3, b_fw: 1.0e-5,
             R_a: 1.0, L_a: 0.5e-3, K: 0.05, J_r: 1.0e-4, b: 1.0e-4}
bondgraph:
  domain: electrical
  elements:
    - {name: V, type: Se}
    - {name: node, type: "0"}
    - {name: fan, type: R, r: b_fan, domain: rotational}
    - {name: js, type: "0", domain: rotational}
    - {name: ks, type: C, c: 1/k_s}
    - {name: jfw, type: "1"}
    - {name: Jfw, type: I, i: J_fw}
    - {name: bfw, type: R, r: b_fw}
    - {name: m1_je, type: "1", domain: electrical}
    - {name: m1_Ra, type: R, r: R_a}
    - {name: m1_La, type: I, i: L_a}
    - {name: m1_K1, type: GY, ratio: K, domain: [electrical, rotational]}
    - {name: m1_jm, type: "1"}
    - {name: m1_Jr, type: I, i: J_r}
    - {name: m1_br, type: R, r: b}
    - {name: m2_je, type: "1", domain: electrical}
    - {name: m2_Ra, type: R, r: R_a}
    - {name: m2_La, type: I, i: L_a}
    - {name: m2_K1, type: GY, ratio: K, domain: [electrical, rotational]}
    - {name: m2_jm, type: "1"}
    - {name: m2_Jr, type: I, i: J2}
    - {name: m2_br, type: R, r: b}
  bonds: [[m1_je, m1_Ra], [m1_je, m1_La], [m1_je, m1_K1], [m1_K1, m1_jm], [m1_jm, m1_Jr],
          [m1_jm, m1_br], [m2_je, m2_Ra], [m2_je, m2_La], [m2_je, m2_K1], [m2_K1, m2_jm],
          [m2_jm, m2_Jr], [m2_jm, m2_br],
          [V, node], [node, m1_je], [node, m2_je], [m1_jm, fan], [m2_jm, js], [js, ks],
          [js, jfw], [jfw, Jfw], [jfw, bfw]]
"""


def test_included_motors_give_the_flat_graph(tmp_path):
    included = build_system(load_model(DRIVE))
    flat = build_system(load_model(_write(tmp_path, "flat.yaml", FLAT)))
    assert included.states == ("ks", "Jfw", "m1.La", "m1.Jr", "m2.La", "m2.Jr")
    assert [s.replace("_", ".") for s in flat.states] == list(included.states)
    a, b = _numbers(included), _numbers(flat)
    for k in MATRICES:
        assert a[k].shape == b[k].shape and np.array_equal(a[k], b[k]), k
    renamed = {state_symbol(s): state_symbol(s.replace("_", ".")) for s in flat.states}
    assert sp.simplify(flat.hamiltonian.xreplace(renamed) - included.hamiltonian) == 0
    # m2's rotor is J2 = 2e-4 (bound in its include), m1's the block's own 1e-4
    h = _valued(included)
    assert h.coeff(state_symbol("m1.Jr") ** 2) == pytest.approx(1 / (2 * 1e-4))
    assert h.coeff(state_symbol("m2.Jr") ** 2) == pytest.approx(1 / (2 * 2e-4))
    assert included.inputs == ("V",) and included.outputs == ("V.i",)


def test_file_includes_are_those_of_the_python_api(tmp_path):
    block = load_model(MODELS / "dc_motor_block.yaml")
    motor = BondGraph.from_model(block)
    assert motor.ports == {"elec": "je", "shaft": "jm"}
    drive = BondGraph("drive", parameters={"b_fan": 2e-4})
    drive.add("V", "Se")
    drive.add("node", "0")
    drive.add("fan", "R", r="b_fan", domain="rotational")
    drive.include("m1", motor)
    for tail, head in (("V", "node"), ("node", "m1.elec"), ("m1.shaft", "fan")):
        drive.connect(tail, head)
    api = to_phs(drive)
    shutil.copy(MODELS / "dc_motor_block.yaml", tmp_path)
    mine = build_system(load_model(_write(tmp_path, "drive.yaml", """\
        name: drive
        parameters: {b_fan: 2.0e-4}
        bondgraph:
          include: [{name: m1, file: dc_motor_block.yaml}]
          elements:
            - {name: V, type: Se}
            - {name: node, type: "0"}
            - {name: fan, type: R, r: b_fan, domain: rotational}
          bonds: [[V, node], [node, m1.elec], [m1.shaft, fan]]
        """)))
    assert mine.states == api.states == ("m1.La", "m1.Jr")
    assert mine.outputs == api.outputs == ("V.i",)
    a, b = _numbers(mine), _numbers(api)
    for k in MATRICES:
        assert np.array_equal(a[k], b[k]), k
    assert sp.simplify(mine.hamiltonian - api.hamiltonian) == 0


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def test_cli_phs_and_simulate_on_an_including_file(drive, tmp_path):
    code, text, err = _cli("phs", "--json", str(drive))
    assert code == 0, err
    assert '"m2.Jr"' in text
    out = tmp_path / "run.csv"
    code, _, err = _cli("simulate", str(drive), "--out", str(out), "--no-progress")
    assert code == 0, err
    head = out.read_text().splitlines()[0].split(",")
    assert head[:7] == ["t", "x:ks", "x:Jfw", "x:m1.La", "x:m1.Jr", "x:m2.La", "x:m2.Jr"]
    last = dict(zip(head, map(float, out.read_text().splitlines()[-1].split(",")),
                    strict=True))
    # motor 1 and its fan settle at K V / (R_a (b + b_fan) + K²) (mechanical time
    # constant J_r / (b + b_fan + K²/R_a) = 36 ms, run 0.5 s), p = J_r ω
    omega = 0.05 * 12 / (1.0 * (1e-4 + 2e-4) + 0.05**2)
    assert last["x:m1.Jr"] / 1e-4 == pytest.approx(omega, rel=1e-6)
    # the current of motor 1 is (b + b_fan) ω / K, its flux L_a i; i = (V - K ω)/R_a
    # magnifies what is left of the transient (e^(-14) ≈ 8e-7 of ω) by K ω / (R_a i) ≈ 8
    assert last["x:m1.La"] / 0.5e-3 == pytest.approx(3e-4 * omega / 0.05, rel=1e-5)
    assert max(abs(float(r.split(",")[-1])) for r in out.read_text().splitlines()[1:]) < 1e-12


BLOCK = """\
name: spring-block
parameters: {k: 100.0, c_s: "1/k", m: 2.0}
bondgraph:
  ports: [j]
  elements:
    - {name: j, type: "1"}
    - {name: mass, type: I, i: m}
    - {name: spring, type: C, c: c_s}
  bonds: [[j, mass], [j, spring]]
"""


def _parent(folder: pathlib.Path, include: str, parameters: str = "{F0: 1.0}",
            bonds: str = "[[F, s1.j]]", name: str = "parent.yaml") -> pathlib.Path:
    return _write(folder, name, f"""\
        name: parent
        parameters: {parameters}
        bondgraph:
          include: {include}
          elements:
            - {{name: F, type: Se}}
          bonds: {bonds}
        """)


def test_bound_parameters_and_the_including_files_win(tmp_path):
    _write(tmp_path, "spring.yaml", BLOCK)
    # bound to 400: the derived compliance c_s = 1/k follows, H = k q²/2 + p²/(2m)
    model = load_model(_parent(tmp_path, "[{name: s1, file: spring.yaml, "
                                         "parameters: {k: 4*F0*100}}]"))
    h = _valued(build_system(model))
    q, p = state_symbol("s1.spring"), state_symbol("s1.mass")
    assert sp.simplify(h - (400 * q**2 / 2 + p**2 / 4)) == 0
    assert "k" not in model.parameters and model.parameters["m"] == 2.0
    # the including file's own parameter m wins over the block's; sweeps reach it
    model = load_model(_parent(tmp_path, "[{name: s1, file: spring.yaml}]", "{m: 5.0}"))
    h = _valued(build_system(model))
    assert sp.simplify(h - (100 * q**2 / 2 + p**2 / 10)) == 0
    h = _valued(build_system(model.with_parameters(m=8.0)))
    assert sp.simplify(h - (100 * q**2 / 2 + p**2 / 16)) == 0


def test_nested_includes_and_ports_given_as_a_list(tmp_path):
    _write(tmp_path, "blocks/spring.yaml", BLOCK)
    _write(tmp_path, "blocks/pair.yaml", """\
        name: pair
        bondgraph:
          include: [{name: a, file: spring.yaml}, {name: b, file: spring.yaml}]
          ports: {left: a.j}
          elements: [{name: link, type: "0"}, {name: d, type: R, r: 0.5}]
          bonds: [[a.j, link], [link, b.j], [link, d]]
        """)
    model = load_model(_parent(tmp_path, "[{name: s1, file: blocks/pair.yaml}]",
                               bonds="[[F, s1.left]]"))
    sys_ = build_system(model)
    assert sys_.states == ("s1.a.mass", "s1.a.spring", "s1.b.mass", "s1.b.spring")
    assert model.section["count"] == 1 + 2 + 2 * 3


@pytest.mark.parametrize("include, expected", [
    ("[{name: s1, file: /etc/passwd.yaml}]", "is an absolute path"),
    ("[{name: s1, file: ../spring.yaml}]", "goes up with '..'"),
    ("[{name: s1, file: nothere.yaml}]", "not found"),
    ("[{name: s1, file: spring.yaml, parameters: {kk: 1}}]", "has no parameter(s) kk"),
    ("[{name: F, file: spring.yaml}]", "an element is already called 'F'"),
    ("[{name: s1, file: noports.yaml}]", "noports.yaml exposes no ports"),
    ("[{name: s1, file: phs.yaml}]", "only bond-graph model files can be included"),
])
def test_bad_includes_name_the_file_and_line(tmp_path, include, expected):
    folder = tmp_path / "model"
    _write(folder, "spring.yaml", BLOCK)
    _write(folder, "noports.yaml", BLOCK.replace("  ports: [j]\n", ""))
    _write(folder, "phs.yaml", "name: p\nphs: {states: [x], J: [[0]], hamiltonian: x**2}\n")
    _write(tmp_path, "spring.yaml", BLOCK)
    with pytest.raises(SchemaError) as err:
        load_model(_parent(folder, include))
    assert "parent.yaml:4: bondgraph.include[0]" in str(err.value)
    assert expected in str(err.value)


def test_a_link_out_of_the_folder_is_refused(tmp_path):
    _write(tmp_path, "outside/spring.yaml", BLOCK)
    folder = tmp_path / "model"
    folder.mkdir()
    os.symlink(tmp_path / "outside", folder / "shared")
    with pytest.raises(SchemaError, match=r"parent.yaml:4: .*'shared/spring.yaml' leads "
                                          r"outside .* \(through a link\)"):
        load_model(_parent(folder, "[{name: s1, file: shared/spring.yaml}]"))


def test_problems_inside_the_included_file_name_its_line(tmp_path):
    _write(tmp_path, "spring.yaml", BLOCK.replace("c: c_s", "c: c_s + nope"))
    with pytest.raises(SchemaError) as err:
        load_model(_parent(tmp_path, "[{name: s1, file: spring.yaml}]"))
    assert "parent.yaml:4: bondgraph.include[0] (s1): " in str(err.value)
    assert "spring.yaml:8: bondgraph.elements[2] (spring).c" in str(err.value)


def test_missing_port_and_clashing_parameters(tmp_path):
    _write(tmp_path, "spring.yaml", BLOCK)
    with pytest.raises(SchemaError, match=r"parent.yaml:7: bondgraph.bonds\[0\]: the "
                                          r"sub-graph 's1' \(spring.yaml\) has no port 'x'; "
                                          r"its ports are: s1.j"):
        load_model(_parent(tmp_path, "[{name: s1, file: spring.yaml}]", bonds="[[F, s1.x]]"))
    _write(tmp_path, "heavy.yaml", BLOCK.replace("m: 2.0", "m: 3.0"))
    with pytest.raises(SchemaError, match=r"parameter 'm' = 3.0\d* here but 2.0\d* in "
                                          r"bondgraph.include\[0\] \(s1\)"):
        load_model(_parent(tmp_path, "[{name: s1, file: spring.yaml}, "
                                     "{name: s2, file: heavy.yaml}]",
                           bonds="[[F, j0], [j0, s1.j], [j0, s2.j]]"))


def test_cycles_and_depth_are_refused(tmp_path):
    _write(tmp_path, "a.yaml", BLOCK.replace("  ports: [j]\n", """\
          ports: [j]
          include: [{name: x, file: b.yaml}]
        """.replace("        ", "")))
    _write(tmp_path, "b.yaml", BLOCK.replace("  ports: [j]\n", """\
          ports: [j]
          include: [{name: y, file: a.yaml}]
        """.replace("        ", "")))
    with pytest.raises(SchemaError, match=r"the includes form a cycle \(a.yaml → b.yaml → "
                                          r"a.yaml\)"):
        load_model(tmp_path / "a.yaml")
    # a chain of 10 files: each includes the next
    for k in range(10):
        inner = f"  include: [{{name: n, file: c{k + 1}.yaml}}]\n" if k < 9 else ""
        _write(tmp_path, f"c{k}.yaml", BLOCK.replace("  ports: [j]\n",
                                                     "  ports: [j]\n" + inner))
    with pytest.raises(SchemaError, match=r"includes nest more than 8 files deep"):
        load_model(tmp_path / "c0.yaml")
    load_model(tmp_path / "c2.yaml")  # 7 nested files below it: allowed


def test_the_expanded_size_counts_against_the_nodes_limit(tmp_path):
    # an "include bomb": each level includes the one below twice; every file is small,
    # the expanded graph has 3·2⁶ + (2⁶ − 1) = 255 elements
    _write(tmp_path, "level0.yaml", BLOCK)
    for k in range(1, 7):
        _write(tmp_path, f"level{k}.yaml", f"""\
            name: level{k}
            bondgraph:
              include: [{{name: a, file: level{k - 1}.yaml}}, {{name: b, file: level{k - 1}.yaml}}]
              ports: [j]
              elements: [{{name: j, type: "0"}}]
              bonds: [[a.j, j], [j, b.j]]
            """)
    assert load_model(tmp_path / "level6.yaml").section["count"] == 255
    with pytest.raises(SchemaError, match="255 elements with its includes expanded, more "
                                          "than the limit of 200"):
        load_model(tmp_path / "level6.yaml", limits={"nodes": 200})


def test_an_include_is_not_possible_from_a_plain_bond_graph_without_ports(tmp_path):
    # a port must be a junction: exposing a storage is refused at its line
    _write(tmp_path, "bad.yaml", BLOCK.replace("ports: [j]", "ports: [mass]"))
    with pytest.raises(SchemaError, match=r"bad.yaml:4: bondgraph.ports.mass: 'mass' is a "
                                          r"I element; a port is a 0- or 1-junction"):
        load_model(tmp_path / "bad.yaml")
    with pytest.raises(ModelError):
        load_model(tmp_path / "missing.yaml")
