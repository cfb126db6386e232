"""Mason's gain formula: equal to the block diagram's reduction and to the transfer
function of the generated PHS (servo, RLC ladder, a motor two-port with a GY), the
causal path gain against a hand derivation, and the guards."""

from __future__ import annotations

import itertools
import pathlib

import pytest
import sympy as sp

from porthamiltonian import ModelError
from porthamiltonian.analysis.transfer import transfer_function
from porthamiltonian.bondgraph import BondGraph, block_diagram, block_transfer, mason, to_phs
from porthamiltonian.bondgraph import mason_rule as mason_rule
from porthamiltonian.bondgraph.mason_rule import forward_paths, loops, path_gain
from porthamiltonian.bondgraph.signal_flow import S
from porthamiltonian.io import load_model

MODELS = pathlib.Path(__file__).resolve().parents[2] / "examples" / "models"
R, L, C, RL, K, J, b = sp.symbols("R L C RL K J b", positive=True)


def same(a: sp.Expr, b: sp.Expr) -> bool:
    return sp.cancel(sp.together(a - b)) == 0


def ladder(n: int) -> BondGraph:
    """Se V → n × (1{R, L} → 0{C}) → R_L: an RLC low-pass ladder."""
    bg = BondGraph("ladder", parameters={"R": None, "L": None, "C": None, "RL": None})
    bg.add("V", "Se")
    prev = "V"
    for k in range(1, n + 1):
        for name, kind, p in [(f"s{k}", "1", {}), (f"R{k}", "R", {"r": "R"}),
                              (f"L{k}", "I", {"i": "L"}), (f"p{k}", "0", {}),
                              (f"C{k}", "C", {"c": "C"})]:
            bg.add(name, kind, **p)
        for a, z in [(prev, f"s{k}"), (f"s{k}", f"R{k}"), (f"s{k}", f"L{k}"),
                     (f"s{k}", f"p{k}"), (f"p{k}", f"C{k}")]:
            bg.connect(a, z)
        prev = f"p{k}"
    bg.add("RL", "R", r="RL")
    bg.connect(prev, "RL")
    return bg


def motor() -> BondGraph:
    """A DC motor as a two-port: voltage V and load torque T (Se on the shaft)."""
    bg = BondGraph("motor", parameters={"R": None, "L": None, "K": None, "J": None, "b": None})
    for name, kind, p in [("V", "Se", {}), ("je", "1", {}), ("Ra", "R", {"r": "R"}),
                          ("La", "I", {"i": "L"}), ("gy", "GY", {"ratio": "K"}),
                          ("jm", "1", {}), ("Jr", "I", {"i": "J"}), ("br", "R", {"r": "b"}),
                          ("T", "Se", {})]:
        bg.add(name, kind, **p)
    for a, z in [("V", "je"), ("je", "Ra"), ("je", "La"), ("je", "gy"), ("gy", "jm"),
                 ("jm", "Jr"), ("jm", "br"), ("T", "jm")]:
        bg.connect(a, z)
    return bg


def test_servo_mason_equals_the_phs_and_the_diagram():
    bg = BondGraph.from_model(load_model(MODELS / "servo_order3.yaml"))
    G = transfer_function(to_phs(bg), "V", ["V.i", "dH/dkr"], symbolic=True)
    g = block_diagram(bg)
    for k, out in enumerate(["V.i", "kr.tau"]):
        T = mason(g, "V", out)
        assert same(T, G[k, 0]) and same(T, block_transfer(g, "V", out))
    # the load angle θ = q_kr follows V with K/(s((L s + R)(J s + b) + K²) + k_r(L s + R))
    Ra, La, Kt, Jt, bf, kr = sp.symbols("R_a L_a K J b k_r", positive=True)
    theta = Kt / (S * ((La * S + Ra) * (Jt * S + bf) + Kt**2) + kr * (La * S + Ra))
    assert same(mason(g, "V", "kr"), theta)


def test_ladder_mason_equals_the_phs_with_non_touching_loops():
    bg = ladder(3)
    g = block_diagram(bg)
    cycles = [set(c) for c in loops(g)]
    # Δ has products of non-touching loops (the first and the last section's)
    assert any(not (a & c) for a, c in itertools.combinations(cycles, 2))
    G = transfer_function(to_phs(bg), "V", ["dH/dC3", "V.f"], symbolic=True)
    for k, out in enumerate(["C3.e", "V.f"]):
        T = mason(g, "V", out)
        assert same(T, G[k, 0]) and same(T, block_transfer(g, "V", out))


def test_gyrator_two_port_matrix_equals_the_phs():
    bg = motor()
    g = block_diagram(bg)
    G = transfer_function(to_phs(bg), ["V", "T"], ["V.f", "T.f"], symbolic=True)
    for (i, u), (k, y) in itertools.product(enumerate(["V", "T"]), enumerate(["V.f", "T.f"])):
        assert same(mason(g, u, y), G[k, i]), (u, y)
    # by hand: (L s + R) i = V − K ω, (J s + b) ω = K i + T
    den = (L * S + R) * (J * S + b) + K**2
    assert same(mason(g, "V", "Jr.f"), K / den)
    assert same(mason(g, "T", "Jr.f"), (L * S + R) / den)
    assert same(mason(g, "T", "V.f"), -K / den)   # reciprocity of a GY: antisymmetric
    assert same(mason(g, "V", "T.f"), K / den)


def test_causal_path_gain_is_the_product_of_the_transmissions():
    bg = motor()
    g = block_diagram(bg)
    u, y = g.graph["names"]["V"], g.graph["names"]["Jr"]
    (path,) = forward_paths(g, u, y)
    # V → i: 1/(L s) (the inductor integrates), i → torque: K, torque → momentum: 1/s
    assert same(path_gain(g, path), K / (L * S**2))
    with pytest.raises(ModelError, match="not causal"):
        path_gain(g, [y, u])


def test_too_many_loops_or_terms_are_refused_with_the_alternative(monkeypatch):
    g = block_diagram(ladder(2))
    with pytest.raises(ModelError, match="more than 2 loops.*transfer_function"):
        loops(g, limit=2)
    monkeypatch.setattr(mason_rule, "MAX_TERMS", 3)
    with pytest.raises(ModelError, match="non-touching loops.*transfer_function"):
        mason(g, "V", "C2.e")


def test_unknown_input_and_output_are_named():
    bg = motor()
    with pytest.raises(ModelError, match=r"no input 'U'.*V, T"):
        mason(bg, "U", "V.f")
    with pytest.raises(ModelError, match=r"no output 'Jr.w'.*Jr.f"):
        mason(bg, "V", "Jr.w")
