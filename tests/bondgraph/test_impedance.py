"""Impedance/admittance gains by causality and their composition at junctions, TF and
GY: closed forms, and the driving-point impedance against the PHS transfer function."""

from __future__ import annotations

import pytest
import sympy as sp

from porthamiltonian import ModelError
from porthamiltonian.analysis.transfer import transfer_function
from porthamiltonian.bondgraph import (
    BondGraph,
    element_gains,
    port_admittance,
    port_impedance,
    to_phs,
)
from porthamiltonian.bondgraph.flow_drawing import draw_gains
from porthamiltonian.bondgraph.impedance import gyrated, parallel, series, transformed
from porthamiltonian.bondgraph.signal_flow import S

R, L, C, m, K, J, b, R2 = sp.symbols("R L C m K J b R2", positive=True)
PARAMS = {"R": None, "L": None, "C": None, "m": None, "K": None, "J": None, "b": None,
          "R2": None}


def graph(elements: list[tuple], bonds: list[tuple[str, str]]) -> BondGraph:
    bg = BondGraph("g", parameters=PARAMS)
    for e in elements:
        bg.add(e[0], e[1], **(e[2] if len(e) > 2 else {}))
    for tail, head in bonds:
        bg.connect(tail, head)
    return bg


def same(a: sp.Expr, b: sp.Expr) -> bool:
    return sp.cancel(sp.together(a - b)) == 0


def series_rlc() -> BondGraph:
    return graph([("u", "Se"), ("j", "1"), ("R1", "R", {"r": "R"}), ("C1", "C", {"c": "C"}),
                  ("L1", "I", {"i": "L"})], [("u", "j"), ("j", "R1"), ("j", "C1"), ("j", "L1")])


def test_series_rlc_impedance_and_the_phs_admittance():
    bg = series_rlc()
    Z = port_impedance(bg, "u")
    assert same(Z, R + L * S + 1 / (C * S))
    assert same(port_admittance(bg, "u"), 1 / Z)
    # the source's output u.f is the current it delivers: Y = 1/Z
    G = transfer_function(to_phs(bg), "u", ["u.f"], symbolic=True)[0, 0]
    assert same(G, 1 / Z)
    # seen from the capacitor, with the source a short: R + L s
    assert same(port_impedance(bg, "C1"), R + L * S)


def test_parallel_rlc_admittances_add():
    bg = graph([("i", "Sf"), ("p", "0"), ("R1", "R", {"r": "R"}), ("C1", "C", {"c": "C"}),
                ("L1", "I", {"i": "L"})], [("i", "p"), ("p", "R1"), ("p", "C1"), ("p", "L1")])
    Z = port_impedance(bg, "i")
    assert same(1 / Z, 1 / R + C * S + 1 / (L * S))
    # an Sf's output is the effort across it: e = Z i
    assert same(transfer_function(to_phs(bg), "i", ["i.e"], symbolic=True)[0, 0], Z)


def test_transformer_scales_by_the_square_of_its_modulus_from_either_side():
    # from bond 1 (source on the TF's input side): m² (R + 1/(C s))
    bg = graph([("u", "Se"), ("tf", "TF", {"ratio": "m"}), ("j", "1"),
                ("R1", "R", {"r": "R"}), ("C1", "C", {"c": "C"})],
               [("u", "tf"), ("tf", "j"), ("j", "R1"), ("j", "C1")])
    Z = port_impedance(bg, "u")
    assert same(Z, m**2 * (R + 1 / (C * S))) and same(Z, transformed(R + 1 / (C * S), m))
    assert same(transfer_function(to_phs(bg), "u", ["u.f"], symbolic=True)[0, 0], 1 / Z)
    # from bond 2 (the load on the TF's input side, the source on its output): R/m²
    back = graph([("u", "Se"), ("js", "1"), ("tf", "TF", {"ratio": "m"}), ("jl", "1"),
                  ("R1", "R", {"r": "R"}), ("R2", "R", {"r": "R2"})],
                 [("u", "js"), ("tf", "js"), ("jl", "tf"), ("jl", "R1"), ("js", "R2")])
    Z = port_impedance(back, "u")
    assert same(Z, R2 + R / m**2)
    assert same(transfer_function(to_phs(back), "u", ["u.f"], symbolic=True)[0, 0], 1 / Z)


def test_gyrator_inverts_the_impedance_behind_it():
    # DC motor seen from its terminals: R + L s + K²/(J s + b)
    bg = graph([("V", "Se"), ("je", "1"), ("Ra", "R", {"r": "R"}), ("La", "I", {"i": "L"}),
                ("gy", "GY", {"ratio": "K"}), ("jm", "1"), ("Jr", "I", {"i": "J"}),
                ("br", "R", {"r": "b"})],
               [("V", "je"), ("je", "Ra"), ("je", "La"), ("je", "gy"), ("gy", "jm"),
                ("jm", "Jr"), ("jm", "br")])
    Z = port_impedance(bg, "V")
    assert same(Z, series(R, L * S, gyrated(J * S + b, K)))
    assert same(Z, R + L * S + K**2 / (J * S + b))
    assert same(transfer_function(to_phs(bg), "V", ["V.f"], symbolic=True)[0, 0], 1 / Z)
    # seen from the shaft inertia, the electrical side is K²/(R + L s) in series with b
    assert same(port_impedance(bg, "Jr"), b + K**2 / (R + L * S))


def test_ladder_section_composes_as_series_and_parallel():
    bg = graph([("u", "Se"), ("s", "1"), ("R1", "R", {"r": "R"}), ("L1", "I", {"i": "L"}),
                ("p", "0"), ("C1", "C", {"c": "C"}), ("RL", "R", {"r": "R2"})],
               [("u", "s"), ("s", "R1"), ("s", "L1"), ("s", "p"), ("p", "C1"), ("p", "RL")])
    expected = series(R, L * S, parallel(1 / (C * S), R2))
    assert same(port_impedance(bg, "u"), expected)
    assert same(expected, R + L * S + R2 / (1 + R2 * C * S))


def test_other_sources_are_switched_off():
    # an Sf in series is an open end: Y = 0, Z infinite
    bg = graph([("u", "Se"), ("j", "1"), ("R1", "R", {"r": "R"}), ("i", "Sf")],
               [("u", "j"), ("j", "R1"), ("i", "j")])
    assert port_admittance(bg, "u") == 0
    with pytest.raises(ModelError, match="open end"):
        port_impedance(bg, "u")
    # an Se in parallel is a short: Z = 0
    bg = graph([("i", "Sf"), ("p", "0"), ("R1", "R", {"r": "R"}), ("u", "Se")],
               [("i", "p"), ("p", "R1"), ("u", "p")])
    assert port_impedance(bg, "i") == 0


def test_element_gains_follow_the_causality():
    g = element_gains(series_rlc())
    assert (g["R1"].kind, g["R1"].gain) == ("impedance", R)
    assert (g["C1"].kind, g["C1"].gain, g["C1"].causality) == ("impedance", 1 / (C * S),
                                                               "integral")
    assert (g["L1"].kind, g["L1"].gain) == ("admittance", 1 / (L * S))
    assert str(g["L1"]) == "Y = 1/(L*s)"
    # two capacitors on a 0-junction: the dependent one is in derivative causality, Y = C s
    twin = graph([("u", "Se"), ("j", "1"), ("R1", "R", {"r": "R"}), ("p", "0"),
                  ("C1", "C", {"c": "C"}), ("C2", "C", {"c": "m"})],
                 [("u", "j"), ("j", "R1"), ("j", "p"), ("p", "C1"), ("p", "C2")])
    g = element_gains(twin)
    assert (g["C2"].kind, g["C2"].gain, g["C2"].causality) == ("admittance", m * S,
                                                               "derivative")
    # Sf → 0{R}: the resistor receives the effort (conductance causality), a TF passes it on
    cond = graph([("i", "Sf"), ("tf", "TF", {"ratio": "m"}), ("p", "0"),
                  ("R1", "R", {"r": "R"}), ("C1", "C", {"c": "C"})],
                 [("i", "tf"), ("tf", "p"), ("p", "R1"), ("p", "C1")])
    g = element_gains(cond)
    assert (g["R1"].kind, g["R1"].gain) == ("admittance", 1 / R)
    assert (g["tf"].kind, g["tf"].gain) == ("transmission", m)


def test_refusals_name_the_element():
    loop = graph([("u", "Se"), ("a", "0"), ("j1", "1"), ("j2", "1"), ("z", "0"),
                  ("R1", "R", {"r": "R"}), ("R2", "R", {"r": "R2"}), ("C1", "C", {"c": "C"})],
                 [("u", "a"), ("a", "j1"), ("a", "j2"), ("j1", "z"), ("j2", "z"),
                  ("j1", "R1"), ("j2", "R2"), ("z", "C1")])
    with pytest.raises(ModelError, match="loop through.*mason"):
        port_impedance(loop, "u")
    with pytest.raises(ModelError, match=r"'j' is a 1 element; port_impedance needs a one-port"):
        port_impedance(series_rlc(), "j")
    duff = graph([("F", "Se"), ("j", "1"), ("k", "C", {"hamiltonian": "k**4/4"})],
                 [("F", "j"), ("j", "k")])
    with pytest.raises(ModelError, match=r"'k' \(C\)"):
        element_gains(duff)


def test_gains_are_drawn_under_their_elements(tmp_path):
    d, gains = draw_gains(series_rlc(), out=tmp_path / "g.svg")
    texts = {t.get_text() for t in d.ax.texts}
    assert {str(g) for g in gains.values()} <= texts
    assert {"Z = R", "Z = 1/(C*s)", "Y = 1/(L*s)"} <= texts
    assert (tmp_path / "g.svg").stat().st_size > 1000
