"""Signal-flow graphs of bond graphs: gains by causality, the diagram's own transfer
function against the generated PHS, drawing, and the refusals."""

from __future__ import annotations

import pathlib

import pytest
import sympy as sp

from porthamiltonian import ModelError
from porthamiltonian.analysis.transfer import transfer_function
from porthamiltonian.bondgraph import BondGraph, block_diagram, block_transfer, to_phs
from porthamiltonian.bondgraph.flow_drawing import draw_block_diagram
from porthamiltonian.bondgraph.signal_flow import S
from porthamiltonian.io import load_model

MODELS = pathlib.Path(__file__).resolve().parents[2] / "examples" / "models"


def graph(name: str, params: dict, elements: list[tuple], bonds: list[tuple]) -> BondGraph:
    bg = BondGraph(name, parameters=params)
    for e in elements:
        bg.add(e[0], e[1], **(e[2] if len(e) > 2 else {}))
    for tail, head in bonds:
        bg.connect(tail, head)
    return bg


def series_rlc() -> BondGraph:
    return graph("rlc", {"R": None, "L": None, "C": None},
                 [("u", "Se"), ("j", "1"), ("R1", "R", {"r": "R"}), ("C1", "C", {"c": "C"}),
                  ("L1", "I", {"i": "L"})],
                 [("u", "j"), ("j", "R1"), ("j", "C1"), ("j", "L1")])


def same(a: sp.Expr, b: sp.Expr) -> bool:
    """Two rational functions are equal: their difference cancels to 0."""
    return sp.cancel(sp.together(a - b)) == 0


def gain(g, src: str, dst: str) -> sp.Expr:
    names = g.graph["names"]
    return g.edges[names[src], names[dst]]["gain"]


def test_series_rlc_gains_are_the_element_laws_in_their_causality():
    g = block_diagram(series_rlc())
    R, L, C = sp.symbols("R L C", positive=True)
    # C1 integral: q = f/s, e = q/C; L1 integral: p = e/s, f = p/L; R1: e = R f
    assert gain(g, "C1.f", "C1") == 1 / S and gain(g, "C1", "C1.e") == 1 / C
    assert gain(g, "L1.e", "L1") == 1 / S and gain(g, "L1", "L1.f") == 1 / L
    assert gain(g, "R1.f", "R1.e") == R
    # the 1-junction: L1 takes the effort, Kirchhoff's voltage law e_L = u − e_R − e_C,
    # and the common current from L1 to every other bond
    assert gain(g, "u.e", "L1.e") == 1
    assert gain(g, "R1.e", "L1.e") == -1 and gain(g, "C1.e", "L1.e") == -1
    assert all(gain(g, "L1.f", f"{x}.f") == 1 for x in ("u", "R1", "C1"))
    assert g.number_of_edges() == 12  # u 1, C1 2, L1 2, R1 1, junction 2 × 3
    # u → current: the admittance 1/(R + Ls + 1/(Cs)) by hand
    assert same(block_transfer(g, "u", "u.f"), 1 / (R + L * S + 1 / (C * S)))


def test_servo_block_diagram_equals_the_phs_transfer_function():
    bg = BondGraph.from_model(load_model(MODELS / "servo_order3.yaml"))
    g = block_diagram(bg)
    ours = ["V.i", "kr.tau", "Jt.w", "La"]  # output, co-energies by name, a state
    G = transfer_function(to_phs(bg), "V", ["V.i", "dH/dkr", "dH/dJt", "La"], symbolic=True)
    for k, out in enumerate(ours):
        assert same(block_transfer(g, "V", out), G[k, 0]), out


def test_algebraic_loop_servo_order1_equals_the_phs():
    bg = BondGraph.from_model(load_model(MODELS / "servo_order1.yaml"))
    g = block_diagram(bg)
    G = transfer_function(to_phs(bg), "V", ["dH/dkr"], symbolic=True)[0, 0]
    assert same(block_transfer(g, "V", "dH/dkr"), G)


def test_dependent_capacitor_is_a_differentiator_and_the_merged_phs_agrees():
    # Se – 1{R} – 0{C1, C2}: C2 in derivative causality, gains C2 (e → q) and s (q → f)
    bg = graph("twin", {"R": None, "Ca": None, "Cb": None},
               [("u", "Se"), ("j", "1"), ("R1", "R", {"r": "R"}), ("p", "0"),
                ("C1", "C", {"c": "Ca"}), ("C2", "C", {"c": "Cb"})],
               [("u", "j"), ("j", "R1"), ("j", "p"), ("p", "C1"), ("p", "C2")])
    g = block_diagram(bg)
    R, Ca, Cb = sp.symbols("R Ca Cb", positive=True)
    assert gain(g, "C2.e", "C2") == Cb and gain(g, "C2", "C2.f") == S
    Y = block_transfer(g, "u", "u.f")
    assert same(Y, (Ca + Cb) * S / (1 + R * (Ca + Cb) * S))
    assert same(Y, transfer_function(to_phs(bg), "u", ["u.f"], symbolic=True)[0, 0])


def test_drawing_writes_every_signal_and_every_non_unit_gain(tmp_path):
    bg = series_rlc()
    d = draw_block_diagram(bg, out=tmp_path / "rlc.png")
    g = d.graph
    assert set(d.positions) == set(g.nodes)
    assert set(d.edge_labels) == {e for e, v in g.edges.items() if v["gain"] != 1}
    assert d.edge_labels[g.graph["names"]["R1.f"], g.graph["names"]["R1.e"]] == "R"
    assert (tmp_path / "rlc.png").stat().st_size > 10_000
    with pytest.raises(ModelError, match="unknown image format"):
        draw_block_diagram(bg, out=tmp_path / "rlc.bmp")


def test_modulated_and_nonlinear_elements_are_refused_by_name():
    mod = graph("crank", {"r": 1.0},
                [("F", "Se"), ("ja", "1"), ("J", "I", {"i": 1}), ("th", "C", {"c": 1}),
                 ("tf", "MTF", {"ratio": "r*cos(th)"}), ("jb", "1"),
                 ("k", "C", {"c": 1})],
                [("F", "ja"), ("ja", "J"), ("ja", "th"), ("ja", "tf"), ("tf", "jb"),
                 ("jb", "k")])
    with pytest.raises(ModelError, match=r"'tf' \(MTF\).*depends on a state"):
        block_diagram(mod)
    duff = graph("duffing", {}, [("F", "Se"), ("j", "1"), ("m", "I", {"i": 1}),
                                 ("k", "C", {"hamiltonian": "k**2/2 + k**4/4"})],
                 [("F", "j"), ("j", "m"), ("j", "k")])
    with pytest.raises(ModelError, match=r"'k' \(C\).*nonlinear storage"):
        block_diagram(duff)
    # a modulated element with a constant ratio is its base element
    const = graph("lever", {}, [("F", "Se"), ("tf", "MTF", {"ratio": 2}), ("j", "1"),
                                ("m", "I", {"i": 1})], [("F", "tf"), ("tf", "j"), ("j", "m")])
    assert same(block_transfer(block_diagram(const), "F", "m.f"), 1 / (2 * S))


def test_unknown_names_are_errors_that_list_the_known_ones():
    g = block_diagram(series_rlc())
    with pytest.raises(ModelError, match=r"no output 'C9.e'.*C1.e"):
        block_transfer(g, "u", "C9.e")
    with pytest.raises(ModelError, match=r"no input 'w'.*source \(u\)"):
        block_transfer(g, "w", "C1.e")
    with pytest.raises(ModelError, match="'C1.e' is not an input"):
        block_transfer(g, "C1.e", "L1.f")
