"""Causality analysis (SCAP) and ``porthamiltonian check``: hand-checked cases."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from porthamiltonian.bondgraph import Bond, BondGraph
from porthamiltonian.bondgraph.causality import analyze_causality


def graph(elements: list[tuple], bonds: list[tuple[str, str]]) -> BondGraph:
    bg = BondGraph("test")
    for name, kind, *dim in elements:
        bg.add(name, kind, dim=dim[0] if dim else 1)
    for tail, head in bonds:
        bg.connect(tail, head)
    return bg


def test_series_rlc_all_integral():
    bg = graph([("u", "Se"), ("j", "1"), ("R1", "R"), ("C1", "C"), ("L1", "I")],
               [("u", "j"), ("j", "R1"), ("j", "C1"), ("j", "L1")])
    rep = analyze_causality(bg)
    assert rep.ok
    assert rep.integral == ["C1", "L1"]
    assert not rep.derivative and not rep.algebraic_loops and not rep.messages
    # the 1-junction sets the flow: it gives the effort to L1 only
    assert rep.effort_from == {"b1": "u", "b2": "R1", "b3": "C1", "b4": "j"}
    assert rep.causality == {"b1": "tail", "b2": "head", "b3": "head", "b4": "tail"}
    assert rep.storage_causality("L1") == "integral"
    assert "ok" in rep.explain()


def test_two_capacitors_on_a_zero_junction():
    bg = graph([("i0", "Sf"), ("j0", "0"), ("R1", "R"), ("C1", "C"), ("C2", "C")],
               [("i0", "j0"), ("j0", "R1"), ("j0", "C1"), ("j0", "C2")])
    rep = analyze_causality(bg)
    assert not rep.ok
    assert rep.integral == ["C1"] and rep.derivative == ["C2"]
    assert rep.effort_from["b4"] == "j0"  # C2 receives its effort: derivative
    (msg,) = rep.messages
    assert msg.startswith("warning: C2 is in derivative causality")
    assert "C1 and C2 share the 0-junction j0" in msg and "efforts are equal" in msg


def test_capacitor_fixed_by_effort_source():
    bg = graph([("u", "Se"), ("j0", "0"), ("C1", "C")], [("u", "j0"), ("j0", "C1")])
    rep = analyze_causality(bg)
    assert rep.fixed_by_sources == ["C1"] and not rep.derivative and not rep.integral
    assert rep.storage_causality("C1") == "derivative"
    assert "fixed by the source u" in rep.messages[0] and "u → j0 → C1" in rep.messages[0]
    assert not rep.ok


def test_capacitor_on_flow_source_is_integral():
    bg = graph([("i", "Sf"), ("j0", "0"), ("C1", "C")], [("i", "j0"), ("j0", "C1")])
    rep = analyze_causality(bg)
    assert rep.ok and rep.integral == ["C1"]


def test_two_effort_sources_on_a_zero_junction_are_dependent():
    bg = graph([("u1", "Se"), ("u2", "Se"), ("j0", "0"), ("R1", "R")],
               [("u1", "j0"), ("u2", "j0"), ("j0", "R1")])
    rep = analyze_causality(bg)
    assert rep.dependent_sources == ["u2"] and not rep.ok
    msg = rep.messages[0]
    assert msg.startswith("error: dependent sources")
    assert "u1" in msg and "u2" in msg and "0-junction j0" in msg and "effort" in msg


def test_two_flow_sources_on_a_one_junction_are_dependent():
    bg = graph([("f1", "Sf"), ("f2", "Sf"), ("j1", "1"), ("C1", "C")],
               [("f1", "j1"), ("f2", "j1"), ("j1", "C1")])
    rep = analyze_causality(bg)
    assert rep.dependent_sources == ["f2"]
    assert "1-junction j1" in rep.messages[0] and "flow" in rep.messages[0]


def test_two_inertias_rigidly_coupled_through_a_transformer():
    # Se–1a{I1}–TF–1b{I2, R}: I1 integral forces the flow of 1b, hence I2's
    bg = graph([("u", "Se"), ("ja", "1"), ("I1", "I"), ("tf", "TF"), ("jb", "1"),
                ("I2", "I"), ("R1", "R")],
               [("u", "ja"), ("ja", "I1"), ("ja", "tf"), ("tf", "jb"), ("jb", "I2"),
                ("jb", "R1")])
    rep = analyze_causality(bg)
    assert rep.integral == ["I1"] and rep.derivative == ["I2"]
    msg = rep.messages[0]
    assert "I2 is in derivative causality" in msg
    assert "flow is set by I1" in msg and "I1 → ja → tf → jb → I2" in msg


def test_resistor_network_with_an_algebraic_loop():
    # Sf–0{R1}–1{R2, C}: the flow source leaves j0's effort to be set by R1 or by
    # the 1-junction; C fixes only the 1-junction's effort sum.  Choosing R1 in
    # resistance causality: e_R1 = R1 (f_s − (e_R1 − e_C)/R2) — e_R1 depends on
    # itself: a zero-order causal loop R1 → j0 → j1 → R2 → j1 → j0 → R1.
    bg = graph([("s", "Sf"), ("j0", "0"), ("R1", "R"), ("j1", "1"), ("R2", "R"), ("C", "C")],
               [("s", "j0"), ("j0", "R1"), ("j0", "j1"), ("j1", "R2"), ("j1", "C")])
    rep = analyze_causality(bg)
    assert rep.integral == ["C"] and not rep.derivative
    assert rep.algebraic_loops == [["R1", "R2", "j0", "j1"]]
    assert rep.arbitrary == ["R1"] and not rep.ok
    assert "algebraic loop" in rep.messages[0] and "R1, R2" in rep.messages[0]
    # the arbitrary choice is completed consistently
    assert rep.effort_from == {"b1": "j0", "b2": "R1", "b3": "j0", "b4": "j1", "b5": "C"}


def test_resistors_fixed_by_storages_have_no_loop():
    # Sf–0{C, R1}: C sets the effort of j0, R1 receives it — no choice is needed
    bg = graph([("s", "Sf"), ("j0", "0"), ("C", "C"), ("R1", "R")],
               [("s", "j0"), ("j0", "C"), ("j0", "R1")])
    rep = analyze_causality(bg)
    assert rep.ok and rep.effort_from["b3"] == "j0"


def test_dc_motor_with_gyrator_is_all_integral():
    bg = graph([("u", "Se"), ("je", "1"), ("Ra", "R"), ("La", "I"), ("gy", "GY"),
                ("jm", "1"), ("J", "I"), ("b", "R")],
               [("u", "je"), ("je", "Ra"), ("je", "La"), ("je", "gy"), ("gy", "jm"),
                ("jm", "J"), ("jm", "b")])
    rep = analyze_causality(bg)
    assert rep.ok and rep.integral == ["La", "J"]
    # a GY inverts causality: it gives the effort on both of its bonds
    assert rep.effort_from["b4"] == "gy" and rep.effort_from["b5"] == "gy"


def test_gyrator_turns_an_inertia_into_a_capacitor():
    # Se–1{I1}–GY–0{C1}: through the GY, I1's flow sets the effort of the 0-junction,
    # exactly as a second capacitor would: C1 is dependent
    bg = graph([("u", "Se"), ("ja", "1"), ("I1", "I"), ("gy", "GY"), ("jb", "0"),
                ("C1", "C")],
               [("u", "ja"), ("ja", "I1"), ("ja", "gy"), ("gy", "jb"), ("jb", "C1")])
    rep = analyze_causality(bg)
    assert rep.integral == ["I1"] and rep.derivative == ["C1"]
    assert "effort is set by I1" in rep.messages[0]
    assert "I1 → ja → gy → jb → C1" in rep.messages[0]


def test_multibond_mass_spring_damper_2d():
    bg = graph([("F", "Se", 2), ("v", "1", 2), ("m", "I", 2), ("k", "C", 2), ("d", "R", 2)],
               [("F", "v"), ("v", "m"), ("v", "k"), ("v", "d")])
    assert all(b.dim == 2 for b in bg.bonds)
    rep = analyze_causality(bg)
    assert rep.ok and rep.integral == ["m", "k"]


def test_multibond_masses_on_one_velocity_junction_are_dependent():
    bg = graph([("F", "Se", 2), ("v", "1", 2), ("m1", "I", 2), ("m2", "I", 2)],
               [("F", "v"), ("v", "m1"), ("v", "m2")])
    rep = analyze_causality(bg)
    assert rep.derivative == ["m2"] and "m1 and m2 share the 1-junction v" in rep.messages[0]


def ladder(n: int) -> BondGraph:
    """Se–1{L0}–0{C0}–1{L1}–0{C1}… –R: ``n`` LC sections and a load."""
    bg = BondGraph("ladder")
    bg.add("u", "Se")
    prev = "u"
    for k in range(n):
        for name, kind in ((f"s{k}", "1"), (f"L{k}", "I"), (f"p{k}", "0"), (f"C{k}", "C")):
            bg.add(name, kind)
        # Bond objects directly: BondGraph.connect checks names in O(bonds)
        bg.bonds += [Bond(prev, f"s{k}", f"a{k}"), Bond(f"s{k}", f"L{k}", f"l{k}"),
                     Bond(f"s{k}", f"p{k}", f"m{k}"), Bond(f"p{k}", f"C{k}", f"c{k}")]
        prev = f"p{k}"
    bg.add("RL", "R")
    bg.bonds.append(Bond(prev, "RL", "load"))
    return bg


def test_ladder_of_ten_thousand_sections():
    n = 10_000
    rep = analyze_causality(ladder(n))
    assert rep.ok and len(rep.integral) == 2 * n and len(rep.causality) == 4 * n + 1


# ---------------------------------------------------------------- command line
def run_cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "porthamiltonian", *args],
                          capture_output=True, text=True, timeout=120)


def write(tmp_path, text: str, name: str = "model.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return str(path)


RLC = """\
    name: series-rlc
    parameters: {R: 10, L: 0.1, C: 1.0e-3}
    bondgraph:
      elements:
        - {name: u,  type: Se}
        - {name: j,  type: "1"}
        - {name: R1, type: R, r: R}
        - {name: C1, type: C, c: C}
        - {name: L1, type: I, i: L}
      bonds: [[u, j], [j, R1], [j, C1], [j, L1]]
    """

TWO_C = """\
    name: two-capacitors
    parameters: {C: 1.0e-3, R: 5}
    bondgraph:
      elements:
        - {name: i0, type: Sf}
        - {name: j0, type: "0"}
        - {name: R1, type: R, r: R}
        - {name: C1, type: C, c: C}
        - {name: C2, type: C, c: C}
      bonds: [[i0, j0], [j0, R1], [j0, C1], [j0, C2]]
    """

TWO_SE = """\
    name: two-sources
    parameters: {R: 5}
    bondgraph:
      elements:
        - {name: u1, type: Se}
        - {name: u2, type: Se}
        - {name: j0, type: "0"}
        - {name: R1, type: R, r: R}
      bonds: [[u1, j0], [u2, j0], [j0, R1]]
    """


def test_cli_check_ok(tmp_path):
    res = run_cli("check", write(tmp_path, RLC))
    assert res.returncode == 0, res.stderr
    assert "integral causality (2): C1, L1" in res.stdout and "ok" in res.stdout
    assert "warning" not in res.stdout


def test_cli_check_dependent_storage_is_a_warning(tmp_path):
    res = run_cli("check", write(tmp_path, TWO_C))
    assert res.returncode == 0, res.stderr
    assert "warning: C2 is in derivative causality" in res.stdout
    assert "C1 and C2 share the 0-junction j0" in res.stdout


def test_cli_check_dependent_sources_exit_2(tmp_path):
    res = run_cli("check", write(tmp_path, TWO_SE))
    assert res.returncode == 2
    err = res.stderr.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error: ") and "u2" in err[0]
    assert "Traceback" not in res.stderr
    assert "u1" in res.stdout and "0-junction j0" in res.stdout


def test_cli_check_structural_error_exit_2(tmp_path):
    text = RLC.replace("[j, L1]]", "[L1, j]]")
    res = run_cli("check", write(tmp_path, text))
    assert res.returncode == 2
    err = res.stderr.strip().splitlines()
    assert len(err) == 1 and "L1" in err[0]


def test_cli_check_rejects_other_models(tmp_path):
    text = """\
        name: oscillator
        parameters: {k: 2, m: 1}
        phs:
          states: [q, p]
          inputs: [F]
          J: [[0, 1], [-1, 0]]
          G: [[0], [1]]
          Q: [[k, 0], [0, 1/m]]
        """
    res = run_cli("check", write(tmp_path, text))
    assert res.returncode == 2
    assert "'check' is for bond graphs" in res.stderr


@pytest.mark.parametrize("model", [RLC, TWO_C])
def test_run_check_returns_zero(tmp_path, capsys, model):
    from porthamiltonian.cli.check import run_check

    assert run_check(write(tmp_path, model)) == 0
    assert "causality of 4 bonds" in capsys.readouterr().out
