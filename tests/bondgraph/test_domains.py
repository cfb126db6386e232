"""Energy domains of bond graphs: declaration, propagation, conflicts, physical names.

Facts checked: a series RLC's voltages and currents (named ``C1.v``, ``L1.i``, ``u.i``,
in V and A) against the closed-form step response; domains propagate through junctions
and undeclared transformers and stop at gyrators; two declarations that meet are an
error naming both elements and the bond; a source's output is its conjugate variable;
storages merged away remain readable (speed and momentum of a load behind a gear).
"""

from __future__ import annotations

import textwrap

import numpy as np
import pytest

from porthamiltonian import ModelError, simulate
from porthamiltonian.bondgraph import BondGraph, to_descriptor, to_phs
from porthamiltonian.bondgraph.dirac_path import via_dirac
from porthamiltonian.io import load_model, simulate_model


def graph(elements, bonds, parameters=None, domain=None, name="g") -> BondGraph:
    bg = BondGraph(name, parameters=parameters or {}, domain=domain)
    for e in elements:
        bg.add(*e[:2], **(e[2] if len(e) > 2 else {}))
    for a, b in bonds:
        bg.connect(a, b)
    return bg


R, L, C = 10.0, 0.1, 1.0e-3


def series_rlc(domain="electrical", **declared) -> BondGraph:
    return graph([("u", "Se", declared.get("u", {})), ("j", "1"), ("R1", "R", {"r": "R"}),
                  ("C1", "C", {"c": "C", **declared.get("C1", {})}),
                  ("L1", "I", {"i": "L", **declared.get("L1", {})})],
                 [("u", "j"), ("j", "R1"), ("j", "C1"), ("j", "L1")],
                 {"R": R, "L": L, "C": C}, domain=domain)


# ---------------------------------------------------------------------- series RLC
def test_series_rlc_step_response_in_volts_and_amperes():
    """Step V0 at t = 0 into the series RLC (α = R/2L = 50/s, ω0 = 1/√(LC) = 100 rad/s):
    v_C = V0 [1 − e^{−αt}(cos ω_d t + α/ω_d sin ω_d t)], i = V0 ω0²/ω_d C e^{−αt} sin ω_d t."""
    V0 = 2.0
    sys = to_phs(series_rlc(), symbolic=False)
    res = simulate(sys, (0.0, 0.08), x0={"C1": 0.0, "L1": 0.0}, u={"u": V0},
                   method="gauss3", dt=1e-4)
    t = res.t
    a, w0 = R / (2 * L), 1 / np.sqrt(L * C)
    wd = np.sqrt(w0**2 - a**2)
    v = V0 * (1 - np.exp(-a * t) * (np.cos(wd * t) + a / wd * np.sin(wd * t)))
    i = V0 * w0**2 / wd * C * np.exp(-a * t) * np.sin(wd * t)
    np.testing.assert_allclose(res["C1.v"], v, atol=1e-9 * V0)
    np.testing.assert_allclose(res["L1.i"], i, atol=1e-9 * V0 / R)
    np.testing.assert_allclose(res["u.i"], res["L1.i"], atol=1e-12)  # one loop current
    assert [res.unit(n) for n in ("C1", "L1", "C1.v", "L1.i", "u", "u.i")] == [
        "C", "Wb", "V", "A", "V", "A"]
    assert res.variable("C1.v").kind == "voltage" and res.variable("u.i").kind == "current"
    assert res.coenergy("L1") is not None and res.shown == ["C1.v", "L1.i"]


def test_series_rlc_model_file_gives_the_same_names_at_load_and_after_generation(tmp_path):
    f = tmp_path / "rlc.yaml"
    f.write_text(textwrap.dedent("""\
        name: rlc
        parameters: {R: 10, L: 0.1, C: 1.0e-3}
        bondgraph:
          domain: electrical
          elements:
            - {name: u,  type: Se}
            - {name: j,  type: "1"}
            - {name: R1, type: R, r: R}
            - {name: C1, type: C, c: C}
            - {name: L1, type: I, i: L}
          bonds: [[u, j], [j, R1], [j, C1], [j, L1]]
        simulate:
          t_end: 0.01
          inputs: {u: "1"}
          events: [{name: half, when: "y.u.i - 0.05", direction: rising}]
        """), encoding="utf-8")
    model = load_model(f)
    assert model.section["outputs"] == ["u.i"]
    res = simulate_model(model)
    assert res.outputs == ["u.i"] and res.unit("u.i") == "A"
    assert res["L1.i"][-1] > 0.05 and len(res.t_events[0]) == 1


# ---------------------------------------------------------------------- names
def test_undeclared_graph_is_generic():
    sys = to_phs(series_rlc(domain=None))
    q = sys.quantities
    assert sys.outputs == ("u.f",)
    assert q.states["C1"].coenergy_name == "C1.e" and q.states["L1"].coenergy_name == "L1.f"
    assert q.states["C1"].coenergy.unit == "" and q.ports["u"].kind == "effort"


@pytest.mark.parametrize("kind, domain, output, unit", [
    ("Se", "electrical", "s.i", "A"), ("Sf", "electrical", "s.v", "V"),
    ("Se", "translational", "s.v", "m/s"), ("Sf", "rotational", "s.tau", "N*m"),
    ("Se", "hydraulic", "s.Q", "m**3/s"), ("Sf", "hydraulic", "s.P", "Pa"),
    ("Se", None, "s.f", ""), ("Sf", None, "s.e", ""),
])
def test_source_output_is_named_by_its_conjugate_variable(kind, domain, output, unit):
    bg = graph([("s", kind), ("j", "0" if kind == "Sf" else "1"), ("R1", "R", {"r": 2.0}),
                ("C1", "C", {"c": 1.0})], [("s", "j"), ("j", "R1"), ("j", "C1")],
               domain=domain)
    for sys in (to_phs(bg, symbolic=True), to_phs(bg, symbolic=False),
                via_dirac(bg, True), to_descriptor(bg)):
        assert list(sys.inputs) == ["s"] and list(sys.outputs) == [output]
        assert sys.quantities.ports[output].unit == unit


def test_multibond_names_keep_the_index_last():
    bg = graph([("F", "Se", {"dim": 2}), ("v", "1", {"dim": 2}),
                ("K", "C", {"dim": 2, "c": 0.5}), ("m", "I", {"dim": 2, "i": 2.0})],
               [("F", "v"), ("v", "K"), ("v", "m")], domain="translational")
    sys = to_phs(bg)
    assert sys.outputs == ("F.v[0]", "F.v[1]")
    q = sys.quantities
    assert [q.states[s].coenergy_name for s in sys.states] == ["K.F[0]", "K.F[1]",
                                                                "m.v[0]", "m.v[1]"]
    res = simulate(sys, (0, 0.1), x0=[0.1, -0.2, 0.0, 0.0], u=[0.0, 0.0], dt=1e-3)
    np.testing.assert_allclose(res["K.F[1]"], res["K[1]"] / 0.5)  # F = q / c
    assert res.unit("K.F[0]") == "N" and res.unit("m.v[1]") == "m/s"


# ---------------------------------------------------------------------- propagation
def rack(declared_tf=("rotational", "translational"), **extra) -> BondGraph:
    """Torque source on a pinion (inertia J) driving a rack (mass m) of radius r."""
    return graph([("tau", "Se", extra.get("tau", {})), ("w", "1"), ("J", "I", {"i": 0.01}),
                  ("pin", "TF", {"ratio": 0.05, "domain": declared_tf}), ("v", "1"),
                  ("m", "I", {"i": 2.0, **extra.get("m", {})}), ("b", "R", {"r": 3.0})],
                 [("tau", "w"), ("w", "J"), ("w", "pin"), ("pin", "v"), ("v", "m"),
                  ("v", "b")], domain=extra.get("default"))


def test_transformer_with_two_sides_changes_the_domain():
    sys = to_descriptor(rack())  # J and m are rigidly coupled: keep both states
    q = sys.quantities
    assert (q.states["J"].coenergy_name, q.states["J"].coenergy.unit) == ("J.w", "rad/s")
    assert (q.states["m"].coenergy_name, q.states["m"].coenergy.unit) == ("m.v", "m/s")
    assert sys.outputs == ("tau.w",) and q.ports["tau"].unit == "N*m"


def test_undeclared_transformer_carries_the_domain_across():
    sys = to_descriptor(rack(declared_tf=None, tau={"domain": "rotational"}))
    assert sys.quantities.states["m"].coenergy_name == "m.w"  # a gear: rotation both sides


def test_gyrator_does_not_carry_a_domain_across():
    """A DC motor declared only on the electrical side: the rotor takes the default."""
    bg = graph([("V", "Se", {"domain": "electrical"}), ("je", "1"), ("Ra", "R", {"r": 1.0}),
                ("gy", "GY", {"ratio": 0.05}), ("jm", "1"), ("Jr", "I", {"i": 1e-4})],
               [("V", "je"), ("je", "Ra"), ("je", "gy"), ("gy", "jm"), ("jm", "Jr")])
    assert to_phs(bg).quantities.states["Jr"].coenergy_name == "Jr.f"  # generic
    bg.domain = "rotational"  # the default reaches the bonds no declaration reaches
    assert to_phs(bg).quantities.states["Jr"].coenergy_name == "Jr.w"
    assert to_phs(bg).outputs == ("V.i",)


def test_included_graph_keeps_its_own_default_domain():
    coil = series_rlc(domain="electrical")
    coil.expose("loop", "j")
    top = BondGraph("top", parameters={"R": R, "L": L, "C": C})
    top.include("c", coil)
    top.add("R2", "R", r=5.0)
    top.connect("c.loop", "R2")
    q = to_phs(top).quantities
    assert q.states["c.L1"].coenergy_name == "c.L1.i"
    assert q.states["c.C1"].coenergy.unit == "V"


# ---------------------------------------------------------------------- conflicts
def test_conflicting_declarations_name_both_elements_and_the_bond():
    bg = series_rlc(u={"domain": "electrical"}, L1={"domain": "rotational"})
    with pytest.raises(ModelError) as err:
        to_phs(bg)
    msg = str(err.value)
    assert "element 'L1' (I) is declared rotational" in msg
    assert "element 'u' (Se) declares electrical" in msg
    assert "bond b4 (j → L1)" in msg


def test_conflict_through_an_undeclared_transformer():
    with pytest.raises(ModelError, match="element 'm' \\(I\\) is declared translational"):
        to_descriptor(rack(declared_tf=None, tau={"domain": "rotational"},
                           m={"domain": "translational"}))


def test_conflict_with_a_declared_transformer_side():
    with pytest.raises(ModelError, match="element 'm' \\(I\\) is declared rotational.*"
                                         "'pin' \\(TF\\) declares translational"):
        to_descriptor(rack(m={"domain": "rotational"}))


@pytest.mark.parametrize("element, domain, message", [
    ("C1", "electricity", "element 'C1' \\(C\\): unknown domain 'electricity'; use one of"),
    ("C1", ["electrical", "thermal"], "element 'C1' \\(C\\): domain .*give one domain name"),
    ("u", 3, "element 'u' \\(Se\\): a domain is a name"),
])
def test_bad_declarations_name_the_element(element, domain, message):
    with pytest.raises(ModelError, match=message):
        to_phs(series_rlc(**{element: {"domain": domain}}))


def test_model_file_conflict_is_reported_at_load_with_lines(tmp_path):
    f = tmp_path / "bad.yaml"
    f.write_text(textwrap.dedent("""\
        name: bad
        parameters: {R: 10, L: 0.1, C: 1.0e-3}
        bondgraph:
          elements:
            - {name: u,  type: Se, domain: electrical}
            - {name: j,  type: "1"}
            - {name: R1, type: R, r: R}
            - {name: C1, type: C, c: C}
            - {name: L1, type: I, i: L, domain: rotational}
            - {name: g,  type: GY, ratio: 2, domain: [electrical, rotational, thermal]}
          bonds: [[u, j], [j, R1], [j, C1], [j, L1]]
        """), encoding="utf-8")
    with pytest.raises(ModelError) as err:
        load_model(f)
    problems = err.value.problems
    assert any(":10: bondgraph.elements[5] (g).domain: domain" in p for p in problems)
    conflict = [p for p in problems if "domain conflict" in p]
    assert len(conflict) == 1
    assert "bondgraph.elements[4] (L1) is declared rotational" in conflict[0]
    assert "bondgraph.elements[0] (u) declares electrical" in conflict[0]
    assert "line 11" in conflict[0]


# ---------------------------------------------------------------------- merged storages
def motor_gear() -> BondGraph:
    """Se V → 1{R_a, L_a} → GY k → 1{J_m, b_m} → TF 1/n → 1{J_L, b_L}."""
    return graph(
        [("V", "Se"), ("je", "1"), ("Ra1", "R", {"r": "Ra"}), ("La1", "I", {"i": "La"}),
         ("gy", "GY", {"ratio": "k", "domain": ["electrical", "rotational"]}), ("jm", "1"),
         ("Jm1", "I", {"i": "Jm"}), ("bm1", "R", {"r": "bm"}),
         ("gear", "TF", {"ratio": "1/n"}), ("jl", "1"), ("JL1", "I", {"i": "JL"}),
         ("bL1", "R", {"r": "bL"})],
        [("V", "je"), ("je", "Ra1"), ("je", "La1"), ("je", "gy"), ("gy", "jm"),
         ("jm", "Jm1"), ("jm", "bm1"), ("jm", "gear"), ("gear", "jl"), ("jl", "JL1"),
         ("jl", "bL1")],
        {"Ra": 1.0, "La": 1e-3, "k": 0.05, "Jm": 1e-4, "bm": 1e-5, "n": 10.0, "JL": 2e-2,
         "bL": 2e-3}, domain="electrical")


@pytest.mark.parametrize("symbolic", [True, False])
def test_merged_load_speed_and_momentum_are_observables(symbolic):
    sys = to_phs(motor_gear(), symbolic=symbolic)
    assert list(sys.states) == ["La1", "Jm1"]  # JL1 merged into the rotor
    obs = {o.name: o for o in sys.quantities.observables}
    assert obs["JL1.w"].quantity.unit == "rad/s" and obs["JL1"].quantity.unit == "N*m*s"
    res = simulate(sys, (0.0, 6.0), x0={"La1": 0.0, "Jm1": 0.0}, u={"V": 12.0}, dt=1e-3)
    n, k, V, Ra, bm, bL = 10.0, 0.05, 12.0, 1.0, 1e-5, 2e-3
    omega = n * k * V / (Ra * (n**2 * bm + bL) + (n * k) ** 2)
    assert res["JL1.w"][-1] == pytest.approx(omega, rel=1e-6)
    np.testing.assert_allclose(res["Jm1.w"], n * res["JL1.w"], rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(res["JL1"], 2e-2 * res["JL1.w"], rtol=1e-10, atol=1e-14)
    energy = 1e-3 * res["La1.i"] ** 2 / 2 + 1e-4 * res["Jm1.w"] ** 2 / 2 \
        + 2e-2 * res["JL1.w"] ** 2 / 2
    np.testing.assert_allclose(energy, res.H, rtol=1e-10, atol=1e-14)


def test_descriptor_keeps_every_storage_and_its_elimination_reconstructs_them():
    dae = to_descriptor(motor_gear())
    assert set(dae.quantities.states) == {"La1", "Jm1", "JL1"}
    red = dae.to_phs()
    names = {o.name for o in red.quantities.observables}
    gone = ({"Jm1", "JL1"} - set(red.states)).pop()
    assert {gone, f"{gone}.w"} <= names


def test_the_docs_quote_the_domain_table():
    from pathlib import Path

    from porthamiltonian.bondgraph.domains import domain_table

    docs = Path(__file__).resolve().parents[2] / "docs" / "bondgraphs.md"
    assert domain_table() in docs.read_text(encoding="utf-8")
