"""Table A.1 simplification (bondgraph/simplify.py): one test per rule, each checking
that the simplified graph has the original's transfer function (sources' inputs to
their conjugate outputs) and energy, and the rewritten element against the rule's
closed form."""

from __future__ import annotations

import pytest
import sympy as sp

from porthamiltonian.analysis.transfer import LAPLACE_S as s
from porthamiltonian.analysis.transfer import transfer_function
from porthamiltonian.bondgraph import BondGraph, to_phs
from porthamiltonian.bondgraph.simplify import RULES, simplify


def graph(elements, bonds, name="g", domain=None, **params):
    bg = BondGraph(name, parameters=params, domain=domain)
    for n, kind, p in elements:
        bg.add(n, kind, **p)
    for a, b in bonds:
        bg.connect(a, b)
    return bg


def same_model(bg, simple):
    """Same states, ports, energy and transfer function (symbolic, cancelled)."""
    a, b = to_phs(bg), to_phs(simple)
    assert (a.states, a.inputs, a.outputs) == (b.states, b.inputs, b.outputs)
    assert sp.simplify(a.hamiltonian - b.hamiltonian) == 0
    Ga, Gb = transfer_function(a, symbolic=True), transfer_function(b, symbolic=True)
    assert (Ga - Gb).applyfunc(sp.simplify) == sp.zeros(*Ga.shape)
    return Gb


def rules(steps):
    return [st.rule for st in steps]


P = {"Ra": 2, "Rb": 3, "L": 0.5, "C": 0.1}
Ra, Rb, Lp, Cp = sp.symbols("Ra Rb L C", positive=True)


def test_trivial_junctions_0_and_1_are_removed_and_the_bonds_joined():
    """u → 1 k {R0} → 0 a → 1 b → 0 c {R1, C1}: a and b pass e and f unchanged (one
    bond in, one out); u sees R_b in series with R_a ‖ C."""
    bg = graph([("u", "Se", {}), ("k", "1", {}), ("R0", "R", {"r": "Rb"}), ("a", "0", {}),
                ("b", "1", {}), ("c", "0", {}), ("R1", "R", {"r": "Ra"}),
                ("C1", "C", {"c": "C"})],
               [("u", "k"), ("k", "R0"), ("k", "a"), ("a", "b"), ("b", "c"), ("c", "R1"),
                ("c", "C1")], **P)
    simple, steps = simplify(bg)[:2]
    assert rules(steps) == ["trivial junction", "trivial junction"]
    assert set(simple.elements) == {"u", "k", "R0", "c", "R1", "C1"}
    assert [(b.tail, b.head) for b in simple.bonds_of("c")][0] == ("k", "c")
    G = same_model(bg, simple)
    assert sp.simplify(G[0, 0] - 1 / (Rb + 1 / (1 / Ra + s * Cp))) == 0
    assert "removed the 0-junction a" in steps[0].text


def test_a_junction_with_both_bonds_in_is_kept():
    """ja → j ← jb: the 0-junction j reverses a flow (f_a + f_b = 0); joining the bonds
    would change a sign, so no rule applies."""
    bg = graph([("u", "Se", {}), ("ja", "1", {}), ("I1", "I", {"i": "L"}), ("j", "0", {}),
                ("jb", "1", {}), ("R1", "R", {"r": "Ra"}), ("C1", "C", {"c": "C"})],
               [("u", "ja"), ("ja", "I1"), ("ja", "j"), ("jb", "j"), ("jb", "R1"),
                ("jb", "C1")], **P)
    simple, steps = simplify(bg)[:2]
    assert steps == [] and set(simple.elements) == set(bg.elements)
    same_model(bg, simple)


def test_adjacent_junctions_of_one_type_merge_whatever_the_orientations():
    """0 ja {C1} ← 0 jb {R2}, with the inductor's 1-junction t pointing into jb and a
    source branch into ja: one node, KCL over every bond with its own sign."""
    bg = graph([("u", "Se", {}), ("s1", "1", {}), ("R0", "R", {"r": "Rb"}),
                ("ja", "0", {}), ("C1", "C", {"c": "C"}), ("jb", "0", {}),
                ("R2", "R", {"r": "Ra"}), ("t", "1", {}), ("I1", "I", {"i": "L"})],
               [("u", "s1"), ("s1", "R0"), ("s1", "ja"), ("ja", "C1"), ("jb", "ja"),
                ("jb", "R2"), ("t", "I1"), ("t", "jb")], **P)
    simple, steps = simplify(bg)[:2]
    assert rules(steps) == ["junction merging"]
    assert steps[0].elements == ("jb", "ja") or set(steps[0].elements) == {"ja", "jb"}
    assert sum(el.kind == "0" for el in simple.elements.values()) == 1
    same_model(bg, simple)


@pytest.mark.parametrize("first, second, kind, ratio", [
    ("TF", "TF", "TF", Ra * Rb), ("GY", "GY", "TF", Ra / Rb),
    ("TF", "GY", "GY", Ra * Rb), ("GY", "TF", "GY", Ra / Rb)])
def test_two_port_chains_collapse_to_one(first, second, kind, ratio):
    """u → 1 {R1} → A(Ra) → B(Rb) → 1 {I2, C2}: TF·TF = TF(m₁m₂), GY·GY = TF(r₁/r₂),
    TF·GY = GY(r m), GY·TF = GY(r/m) in graph.py's conventions."""
    bg = graph([("u", "Se", {}), ("j1", "1", {}), ("R1", "R", {"r": 1}),
                ("A", first, {"ratio": "Ra"}), ("B", second, {"ratio": "Rb"}),
                ("j2", "1", {}), ("I2", "I", {"i": "L"}), ("C2", "C", {"c": "C"})],
               [("u", "j1"), ("j1", "R1"), ("j1", "A"), ("A", "B"), ("B", "j2"),
                ("j2", "I2"), ("j2", "C2")], **P)
    simple, steps = simplify(bg)[:2]
    assert rules(steps) == ["two-port chain"]
    A = simple.elements["A"]
    assert A.type == kind and "B" not in simple.elements
    assert sp.simplify(A.params["ratio"] - ratio) == 0
    same_model(bg, simple)


def test_matrix_transformer_chain_multiplies_in_order():
    """Multi-bond TF(M₁) then TF(M₂): f₃ = M₂ M₁ f₁ (not M₁ M₂)."""
    M1, M2 = [[1, 2], [0, 1]], [[3, 0], [1, 1]]
    two = {"dim": 2}
    bg = graph([("u", "Se", two), ("j1", "1", two), ("R1", "R", {"r": 1, **two}),
                ("A", "TF", {"ratio": M1, **two}), ("B", "TF", {"ratio": M2, **two}),
                ("j2", "1", two), ("m", "I", {"i": 1, **two}), ("k", "C", {"c": 1, **two})],
               [("u", "j1"), ("j1", "R1"), ("j1", "A"), ("A", "B"), ("B", "j2"),
                ("j2", "m"), ("j2", "k")])
    simple, steps = simplify(bg)[:2]
    assert rules(steps) == ["two-port chain"]
    assert sp.Matrix(simple.elements["A"].params["ratio"]) == sp.Matrix(M2) * sp.Matrix(M1)
    same_model(bg, simple)


def test_unit_transformer_is_removed():
    """TF of modulus 1 between two 1-junctions: removed, then the junctions merge into
    one series loop u–R–I–C with impedance R + sL + 1/(sC)."""
    bg = graph([("u", "Se", {}), ("j1", "1", {}), ("R1", "R", {"r": "Ra"}),
                ("t", "TF", {"ratio": 1}), ("j2", "1", {}), ("I1", "I", {"i": "L"}),
                ("C1", "C", {"c": "C"})],
               [("u", "j1"), ("j1", "R1"), ("j1", "t"), ("t", "j2"), ("j2", "I1"),
                ("j2", "C1")], **P)
    simple, steps = simplify(bg)[:2]
    assert rules(steps) == ["unit transformer", "junction merging"]
    G = same_model(bg, simple)
    assert sp.simplify(G[0, 0] - 1 / (Ra + s * Lp + 1 / (s * Cp))) == 0


def test_series_resistors_add_and_parallel_conductances_add():
    """1-junction: u sees R_a + R_b + 1/(sC); 0-junction fed by a current source: the
    voltage is i/(1/R_a + 1/R_b + sC)."""
    series = graph([("u", "Se", {}), ("j", "1", {}), ("R1", "R", {"r": "Ra"}),
                    ("R2", "R", {"r": "Rb"}), ("C1", "C", {"c": "C"})],
                   [("u", "j"), ("j", "R1"), ("j", "R2"), ("j", "C1")], **P)
    simple, steps = simplify(series)[:2]
    assert rules(steps) == ["series resistors"]
    assert simple.elements["R1"].params["r"] == Ra + Rb
    G = same_model(series, simple)
    assert sp.simplify(G[0, 0] - 1 / (Ra + Rb + 1 / (s * Cp))) == 0
    par = graph([("i", "Sf", {}), ("j", "0", {}), ("R1", "R", {"r": "Ra"}),
                 ("R2", "R", {"r": "Rb"}), ("C1", "C", {"c": "C"})],
                [("i", "j"), ("j", "R1"), ("j", "R2"), ("j", "C1")], **P)
    simple, steps = simplify(par)[:2]
    assert rules(steps) == ["parallel resistors"]
    G = same_model(par, simple)
    assert sp.simplify(G[0, 0] - 1 / (1 / Ra + 1 / Rb + s * Cp)) == 0


def test_linear_storages_merge_into_the_sum_state():
    """Two C on a 0-junction: compliance C + C₂, state C1 = the total charge, H equal to
    the merged model to_phs builds from the original; two I on a 1-junction likewise."""
    bg = graph([("u", "Se", {}), ("j", "1", {}), ("R1", "R", {"r": "Ra"}),
                ("n", "0", {}), ("C1", "C", {"c": "C"}), ("C2", "C", {"c": "Rb"})],
               [("u", "j"), ("j", "R1"), ("j", "n"), ("n", "C1"), ("n", "C2")], **P)
    simple, steps, merged = simplify(bg)
    assert rules(steps) == ["parallel compliances", "trivial junction"]  # n: j → n → C1
    assert merged == {"C1": "C1 + C2"} and "total displacement C1 + C2" in steps[0].text
    assert simple.elements["C1"].params["c"] == Cp + Rb
    same_model(bg, simple)
    assert str(to_phs(simple).hamiltonian) == "C1**2/(2*(C + Rb))"  # of the total charge
    ii = graph([("u", "Se", {}), ("j", "1", {}), ("R1", "R", {"r": "Ra"}),
                ("I1", "I", {"i": "L"}), ("I2", "I", {"i": "C"})],
               [("u", "j"), ("j", "R1"), ("j", "I1"), ("j", "I2")], **P)
    simple, steps, merged = simplify(ii)
    assert rules(steps) == ["series inertias"] and merged == {"I1": "I1 + I2"}
    same_model(ii, simple)


def test_nonlinear_storages_are_left_alone():
    bg = graph([("i", "Sf", {}), ("j", "0", {}), ("R1", "R", {"r": 1}),
                ("C1", "C", {"hamiltonian": "C1**4/4"}), ("C2", "C", {"c": 1})],
               [("i", "j"), ("j", "R1"), ("j", "C1"), ("j", "C2")])
    assert simplify(bg).steps == []


def test_combined_graph_with_trivial_junctions_and_transformer_chains():
    """Trivial junctions, a TF–TF–TF chain through a trivial 0-junction, a unit TF and
    two series resistors: every rule fires, the model (transfer function and H) stays;
    domains and output names survive the removal of the declaring junction."""
    bg = graph([("u", "Se", {}), ("a", "1", {"domain": "electrical"}),
                ("t1", "TF", {"ratio": "Ra"}), ("b", "0", {}), ("t2", "TF", {"ratio": "Rb"}),
                ("t3", "TF", {"ratio": 1}), ("j", "1", {}), ("R1", "R", {"r": "Ra"}),
                ("R2", "R", {"r": "Rb"}), ("I1", "I", {"i": "L"}), ("C1", "C", {"c": "C"})],
               [("u", "a"), ("a", "t1"), ("t1", "b"), ("b", "t2"), ("t2", "t3"),
                ("t3", "j"), ("j", "R1"), ("j", "R2"), ("j", "I1"), ("j", "C1")], **P)
    simple, steps, _ = simplify(bg)
    assert rules(steps) == ["unit transformer", "trivial junction", "trivial junction",
                            "two-port chain", "series resistors"]
    assert set(simple.elements) == {"u", "t1", "j", "R1", "I1", "C1"}
    assert sp.simplify(simple.elements["t1"].params["ratio"] - Ra * Rb) == 0
    a = same_model(bg, simple)
    n = Ra * Rb  # e_u = n e, f = n f_u: u sees the loop's impedance as n² Z
    assert sp.simplify(a[0, 0] - 1 / (n**2 * (Ra + Rb + s * Lp + 1 / (s * Cp)))) == 0
    assert to_phs(simple).outputs == ("u.i",)
    assert all(str(st) == st.text for st in steps) and set(rules(steps)) <= set(RULES)


def test_switched_junction_keeps_its_switched_bond_when_a_neighbour_goes():
    """E → 1 jL {Lb} → 1s sw → 1 k → 0 out {Cb, Rl}, sw switching its bond to k: k is
    removed, sw now names the joined bond, and the boost's J(S) is unchanged."""
    bg = graph([("E", "Se", {}), ("jL", "1", {}), ("Lb", "I", {"i": "L"}),
                ("sw", "1s", {"switch": "1 - S", "switched": ["k"]}), ("k", "1", {}),
                ("out", "0", {}), ("Cb", "C", {"c": "C"}), ("Rl", "R", {"r": "Ra"})],
               [("E", "jL"), ("jL", "Lb"), ("jL", "sw"), ("sw", "k"), ("k", "out"),
                ("out", "Cb"), ("out", "Rl")], L=1.0, C=1.0, Ra=10.0, S=None)
    simple, steps = simplify(bg)[:2]
    assert rules(steps) == ["trivial junction"] and "sw" in simple.elements
    (joined,) = [b for b in simple.bonds if (b.tail, b.head) == ("sw", "out")]
    assert simple.elements["sw"].params["switched"] == (joined.name,)
    a, b = to_phs(bg), to_phs(simple)
    assert sp.expand(sp.Matrix(a.J) - sp.Matrix(b.J)) == sp.zeros(2, 2)
    assert next(iter(sp.Matrix(b.J).free_symbols)).name == "S"
