"""The ``distributed`` model-file section: checking with line numbers, building the
2-D/3-D models, initial fields, and running a model file from the command line."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest
import scipy.linalg as sla

from porthamiltonian import ModelError
from porthamiltonian.errors import SchemaError
from porthamiltonian.io import load_model, simulate_model, validate_model
from porthamiltonian.io.build import build_system
from porthamiltonian.io.distributed_build import build_domain_model

EXAMPLE = Path(__file__).parents[2] / "examples" / "models" / "membrane.yaml"

MEMBRANE = """\
name: drum
parameters: {a: 1.0, V0: 0.01}
distributed:
  domain: {shape: rectangle, size: [a, a], elements: [6, 6]}
  model: {kind: membrane, rho: 0.5 kg/m^2, tension: 50 N/m}
  boundary: {left: fixed, right: fixed, bottom: fixed, top: force}
  points: {hammer: [0.3, 0.4]}
simulate:
  t_end: 0.01
  dt: 1.0e-3
  initial: {v: "V0*sin(pi*x/a)*sin(pi*y/a)"}
  inputs: {F_top: "0", F_hammer: "0"}
"""


def _lowest_omega(system):
    p = np.array([nm.startswith("p[") for nm in system.states])
    J, Q = system.J.tocsr(), system.Q.tocsr()
    K = -(J[p][:, ~p] @ Q[~p][:, ~p] @ J[~p][:, p]).toarray()
    lam = sla.eigh(0.5 * (K + K.T), np.diag(1.0 / Q.diagonal()[p]), eigvals_only=True,
                   subset_by_index=[0, 0])
    return float(np.sqrt(lam[0]))


def test_example_builds_the_membrane_with_its_first_mode():
    model = load_model(EXAMPLE)
    assert model.kind == "distributed"
    system = build_system(model)
    c = np.sqrt(50.0 / 0.5)
    assert np.isclose(_lowest_omega(system), np.pi * np.sqrt(2) * c, rtol=0.01)


def test_units_ports_and_initial_field(tmp_path):
    f = tmp_path / "drum.yaml"
    f.write_text(MEMBRANE)
    model = load_model(f)
    assert model.section["model"]["parameters"] == {"rho": 0.5, "tension": 50.0}
    dm = build_domain_model(model)
    assert list(dm.system.inputs) == ["F_top", "F_hammer"]
    res = simulate_model(model)
    # the initial field: v = V0 sin sin at the nodes, kinetic energy ρ V0² a²/8
    v0 = dm.field("v", res.x[0])
    x, y = dm.domain.mesh.p
    assert np.allclose(v0, 0.01 * np.sin(np.pi * x) * np.sin(np.pi * y), atol=1e-15)
    H = np.array([0.5 * xi @ (dm.system.Q @ xi) for xi in res.x])
    assert np.isclose(H[0], 0.5 * 0.01 ** 2 / 8, rtol=0.05)
    assert np.allclose(H, H[0], rtol=1e-12)  # lossless, no input, midpoint rule


def test_vector_field_and_heat_and_maxwell_kinds(tmp_path):
    f = tmp_path / "m.yaml"
    f.write_text(textwrap.dedent("""\
        name: cavity
        distributed:
          domain: {shape: rectangle, size: [1, 1], elements: 4, cell: quad}
          model: {kind: maxwell_te, epsilon: 2.0, mu: 0.5}
          boundary: {left: port}
        simulate:
          t_end: 0.01
          initial: {E: ["1.0", "x"]}
          inputs: {E_left: "0"}
        """))
    model = load_model(f)
    dm = build_domain_model(model)
    assert list(dm.system.inputs) == ["E_left"]
    from porthamiltonian.io.distributed_build import initial_state

    x0 = initial_state(model, dm.system, model.simulate["initial"])
    E = dm.field("E", x0)
    centre = dm.domain.mesh.p[:, dm.domain.mesh.t].mean(axis=1)
    assert np.allclose(E[0], 1.0) and np.allclose(E[1], centre[0])  # exact: Q1 holds x
    heat = tmp_path / "h.yaml"
    heat.write_text(textwrap.dedent("""\
        name: plate
        distributed:
          domain: {shape: box, size: 1, elements: 2, cell: hexahedron}
          model: {kind: heat, capacity: "2 + x", conductivity: 3.0}
          boundary: {right: flux, left: insulated}
        """))
    hm = build_domain_model(load_model(heat))
    assert list(hm.system.inputs) == ["q_right"]
    assert np.isclose(hm.capacity_matrix.sum(), 2.5)  # ∫(2 + x) dV over the unit cube


def test_mesh_file_in_the_model_folder(tmp_path):
    import skfem

    from porthamiltonian.distributed.domains import rectangle

    mesh = rectangle(2000.0, 1000.0, (4, 2)).mesh
    mesh.save(str(tmp_path / "plate.msh"), file_format="gmsh22")  # parts from the generator
    f = tmp_path / "m.yaml"
    f.write_text(textwrap.dedent("""\
        name: from-file
        distributed:
          domain: {mesh: plate.msh, scale: 1 mm}
          model: {kind: wave, density: 1.0, stiffness: 1.0}
          boundary: fixed
        """))
    dm = build_domain_model(load_model(f))
    assert np.allclose(dm.domain.mesh.p.max(axis=1), [2.0, 1.0])
    assert isinstance(dm.domain.mesh, skfem.MeshTri)
    outside = tmp_path / "sub"
    outside.mkdir()
    (outside / "m.yaml").write_text(f.read_text().replace("plate.msh", "../plate.msh"))
    with pytest.raises(ModelError, match="outside the model's folder"):
        build_system(load_model(outside / "m.yaml"))


@pytest.mark.parametrize("change,line,words", [
    (("kind: membrane", "kind: drumhead"), 5, "kind"),
    (("shape: rectangle", "shape: hexagon"), 4, "shape"),
    (("elements: [6, 6]", "elements: [6, 0]"), 4, "elements"),
    (("tension: 50 N/m", "tension: -50 N/m"), 5, "positive"),
    (("tension: 50 N/m", "degree: 3"), 5, "degree"),
    (("left: fixed", "middle: fixed"), 6, "no boundary part 'middle'"),
    (("top: force", "top: clamped"), 6, "unknown condition 'clamped'"),
    (("[0.3, 0.4]", "[0.3]"), 7, "coordinates"),
    (("initial: {v:", "initial: {w:"), 11, "unknown field 'w'"),
    (("F_hammer:", "F_anvil:"), 12, "unknown input 'F_anvil'"),
    (('"V0*sin(pi*x/a)*sin(pi*y/a)"', '"sin(q)"'), 11, "q"),
])
def test_bad_input_names_the_key_and_line(tmp_path, change, line, words):
    f = tmp_path / "bad.yaml"
    text = MEMBRANE.replace(*change)
    f.write_text(text)
    problems = validate_model(f)
    assert problems, text
    assert any(p.startswith(f"{f}:{line}:") and words in p for p in problems), problems
    with pytest.raises(SchemaError):
        load_model(f)


def test_coordinates_cannot_be_parameters(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(MEMBRANE.replace("{a: 1.0, V0: 0.01}", "{a: 1.0, V0: 0.01, x: 2.0}"))
    assert any("x is a parameter" in p for p in validate_model(f))


def test_missing_parameters_and_points_of_maxwell(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(MEMBRANE.replace("rho: 0.5 kg/m^2, ", ""))
    assert any(":5:" in p and "missing key 'rho'" in p for p in validate_model(f))
    g = tmp_path / "bad2.yaml"
    g.write_text(MEMBRANE.replace("kind: membrane, rho: 0.5 kg/m^2, tension: 50 N/m",
                                  "kind: maxwell_tm, epsilon: 1, mu: 1")
                 .replace("top: force", "top: port").replace("left: fixed", "left: pec")
                 .replace("right: fixed", "right: pec").replace("bottom: fixed", "bottom: pec"))
    assert any("no point ports" in p for p in validate_model(g))


def test_cli_simulates_a_few_steps(tmp_path):
    f = tmp_path / "drum.yaml"
    f.write_text(MEMBRANE)
    out = tmp_path / "drum.csv"
    from porthamiltonian.cli import main  # the entry point `porthamiltonian` runs

    assert main(["simulate", str(f), "--t-end", "0.003", "--out", str(out),
                 "--no-progress"]) == 0
    header = out.read_text().splitlines()[0].split(",")
    assert header[0] == "t" and "x:p[8]" in header and "u:F_hammer" in header
    rows = np.loadtxt(out, delimiter=",", skiprows=1)
    assert rows.shape[0] == 4 and np.allclose(rows[:, 0], [0, 0.001, 0.002, 0.003])


def test_cli_reports_a_bad_model_in_one_line(tmp_path, capsys):
    from porthamiltonian.cli import main

    bad = tmp_path / "bad.yaml"
    bad.write_text(MEMBRANE.replace("kind: membrane", "kind: drumhead"))
    assert main(["simulate", str(bad)]) == 2
    err = capsys.readouterr().err
    assert "error:" in err and "bad.yaml:5:" in err and "drumhead" in err


@pytest.mark.parametrize("kind,cell", [("mindlin", "quad"), ("kirchhoff", "triangle")])
def test_plate_kinds_build_with_their_own_defaults(tmp_path, kind, cell):
    f = tmp_path / "plate.yaml"
    f.write_text(textwrap.dedent(f"""\
        name: plate
        distributed:
          domain: {{shape: rectangle, size: [1, 1], elements: 2, cell: {cell}}}
          model: {{kind: {kind}, E: 70 GPa, nu: 0.3, rho: 2700, thickness: 10 mm}}
          boundary: simply_supported
        """))
    model = load_model(f)
    assert model.section["model"]["degree"] is None  # the plate's own default
    assert model.section["model"]["parameters"]["E"] == 70e9
    assert build_domain_model(model).kind == "plate"
    f.write_text(f.read_text().replace("simply_supported", "glued"))
    assert any(":5:" in p and "glued" in p for p in validate_model(f))


def test_heat_model_file_decays_at_the_first_rate(tmp_path):
    """T(x, y, 0) = sin(πx) sin(πy) with T = 0 on the edges decays as e^{-μ t},
    μ = (k/c)·2π²; the discrete mode's rate is the model's first decay rate."""
    f = tmp_path / "heat.yaml"
    f.write_text(textwrap.dedent("""\
        name: slab
        parameters: {c: 2.0, k: 3.0}
        distributed:
          domain: {shape: rectangle, size: [1, 1], elements: 8, cell: quad}
          model: {kind: heat, capacity: c, conductivity: k, degree: 2}
          boundary: zero
        simulate:
          t_end: 0.02
          dt: 1.0e-4
          method: midpoint
          initial: {T: "sin(pi*x)*sin(pi*y)"}
        """))
    model = load_model(f)
    dm = build_domain_model(model)
    res = simulate_model(model)
    mu = dm.decay_rates(1)[0]
    assert np.isclose(mu, 1.5 * 2 * np.pi ** 2, rtol=1e-3)
    centre = np.argmin(np.hypot(*(dm.domain.mesh.p - 0.5)))
    T = dm.field("T", res.x)[:, centre]
    assert np.isclose(T[-1] / T[0], np.exp(-mu * 0.02), rtol=2e-3)


def test_a_large_consistent_mass_model_is_simulated_without_inverting_its_mass():
    # P2 triangles keep a consistent mass: a sparse DescriptorPHS whose explicit form
    # would invert E densely; model files simulate it as it is
    from porthamiltonian.distributed.domains import rectangle, wave
    from porthamiltonian.io.simulation import DENSE_REDUCTION_LIMIT, explicit_if_possible

    system = wave(rectangle(1.0, 1.0, 12), degree=2).system
    assert len(system.states) > DENSE_REDUCTION_LIMIT
    assert explicit_if_possible(system) is system


def test_mindlin_plate_released_from_a_velocity_field(tmp_path):
    # v = sin(πx)sin(πy) on the unit square: the kinetic energy ρh∫v²/2 = ρh/8 (J)
    f = tmp_path / "plate.yaml"
    f.write_text(textwrap.dedent("""
        name: plate
        distributed:
          domain: {shape: rectangle, size: [1.0, 1.0], elements: [4, 4], cell: quad}
          model: {kind: mindlin, E: 70 GPa, nu: 0.3, rho: 2700, thickness: 0.01}
          boundary: clamped
        simulate:
          t_end: 5.0e-4
          dt: 1.0e-4
          initial: {v: "sin(pi*x)*sin(pi*y)"}
        """))
    res = simulate_model(load_model(f))
    assert res.H[0] == pytest.approx(2700 * 0.01 / 8, rel=1e-3)  # Q2 Gauss–Lobatto mass
    assert abs(res.H[-1] - res.H[0]) < 1e-12 * res.H[0]
