"""Word bond graphs (bondgraph/word.py): one box per included sub-graph, the bonds
between them labelled with their domain's power variables; checked on the artists."""

from __future__ import annotations

import pytest

from porthamiltonian.bondgraph import BondGraph, to_phs
from porthamiltonian.bondgraph.word import WordDrawing, draw_word, groups
from porthamiltonian.errors import ModelError


def motor() -> BondGraph:
    m = BondGraph("dc-motor", parameters={"Ra": 1.5, "La": 2e-3, "K": 0.05, "Jm": 1e-4,
                                          "bm": 1e-5}, domain="electrical")
    for name, kind, p in [("je", "1", {}), ("R", "R", {"r": "Ra"}), ("L", "I", {"i": "La"}),
                          ("gy", "GY", {"ratio": "K", "domain": ("electrical", "rotational")}),
                          ("jm", "1", {}), ("J", "I", {"i": "Jm"}), ("b", "R", {"r": "bm"})]:
        m.add(name, kind, **p)
    for a, b in [("je", "R"), ("je", "L"), ("je", "gy"), ("gy", "jm"), ("jm", "J"), ("jm", "b")]:
        m.connect(a, b)
    m.expose("elec", "je")
    m.expose("shaft", "jm")
    return m


def load() -> BondGraph:
    g = BondGraph("fan", parameters={"Jl": 3e-4, "bl": 2e-4}, domain="rotational")
    for name, kind, p in [("j", "1", {}), ("J", "I", {"i": "Jl"}), ("b", "R", {"r": "bl"})]:
        g.add(name, kind, **p)
    g.connect("j", "J")
    g.connect("j", "b")
    g.expose("shaft", "j")
    return g


def drive() -> BondGraph:
    """V → 0 node → motor m1 → fan; node → motor m2 (no load)."""
    bg = BondGraph("drive", domain="electrical")
    bg.add("V", "Se")
    bg.add("node", "0")
    bg.include("m1", motor())
    bg.include("m2", motor())
    bg.include("fan", load())
    bg.connect("V", "node")
    bg.connect("node", "m1.elec")
    bg.connect("node", "m2.elec")
    bg.connect("m1.shaft", "fan.shaft")
    return bg


def texts(d: WordDrawing) -> dict[str, object]:
    return {t.get_gid(): t for t in d.ax.texts if t.get_gid()}


def test_one_box_per_subgraph_and_labelled_bonds_between_them():
    bg = drive()
    d = draw_word(bg)
    assert set(d.boxes) == {"V", "node", "m1", "m2", "fan"}
    assert d.labels["m1"] == "m1: dc-motor" and d.labels["fan"] == "fan"  # named as its graph
    art = texts(d)
    for sub in ("m1", "m2", "fan"):  # a framed box with the sub-graph's name
        assert art[f"node-{sub}"].get_text() == d.labels[sub]
        assert art[f"node-{sub}"].get_bbox_patch() is not None
    assert art["node-node"].get_text() == "0" and art["node-V"].get_text() == "Se:V"
    # only the bonds between boxes are drawn: 4 of the graph's 4 + 3 × internal bonds
    assert len(d.bonds) == 4 and len(bg.bonds) == 4 + 2 * 6 + 2
    words = {(t, h): w for t, h, w in d.bonds.values()}
    assert words == {("V", "node"): "voltage / current", ("node", "m1"): "voltage / current",
                     ("node", "m2"): "voltage / current",
                     ("m1", "fan"): "torque / angular velocity"}
    for name, (_, _, w) in d.bonds.items():
        assert art[f"bond-{name}"].get_text() == w
    (lines,) = [c for c in d.ax.collections if c.get_gid() == "bonds"]
    assert len(lines.get_segments()) == 2 * 4  # each bond: the line and its half-arrow barb


def test_grouping_and_title():
    bg = drive()
    d = draw_word(bg, title="drive train")
    assert d.ax.get_title() == "drive train"
    g = groups(bg)
    assert g["m1.gy"] == "m1" and g["fan.J"] == "fan" and g["V"] == "V"
    # the same model underneath: the fan's inertia is rigidly on m1's shaft, merged
    assert to_phs(bg).states == ("m1.L", "m1.J", "m2.L", "m2.J")
    with pytest.raises(ModelError, match="unknown image format"):
        draw_word(bg, out="drive.txt")


def test_parallel_bonds_between_two_boxes_are_drawn_apart(tmp_path):
    """A sub-graph with two ports both bonded to one junction: two parallel lines, apart,
    each with its words; the figure is written to a file."""
    import numpy as np

    sub = BondGraph("rc-pair", parameters={"Ca": 1e-3, "Rm": 10.0})
    for name, kind, p in [("a", "0", {}), ("C1", "C", {"c": "Ca"}), ("r", "1", {}),
                          ("R", "R", {"r": "Rm"}), ("b", "0", {}), ("C2", "C", {"c": "Ca"})]:
        sub.add(name, kind, **p)
    for x, y in [("a", "C1"), ("a", "r"), ("r", "R"), ("r", "b"), ("b", "C2")]:
        sub.connect(x, y)
    sub.expose("p", "a")
    sub.expose("n", "b")
    bg = BondGraph("pair", domain="electrical")
    bg.add("V", "Se")
    bg.add("loop", "1")
    bg.include("rc", sub)
    for x, y in [("V", "loop"), ("loop", "rc.p"), ("loop", "rc.n")]:
        bg.connect(x, y)
    d = draw_word(bg, out=tmp_path / "pair.svg")
    assert (tmp_path / "pair.svg").stat().st_size > 0
    assert sorted(w for _, _, w in d.bonds.values()) == ["voltage / current"] * 3
    (lines,) = [c for c in d.ax.collections if c.get_gid() == "bonds"]
    segs = [np.asarray(s) for s in lines.get_segments()]
    two = [s for s, (name, (t, h, _)) in zip(segs[::2], d.bonds.items(), strict=True)
           if (t, h) == ("loop", "rc")]
    assert len(two) == 2
    d0, d1 = two[0][1] - two[0][0], two[1][1] - two[1][0]
    assert abs(d0[0] * d1[1] - d0[1] * d1[0]) < 1e-9  # parallel
    assert np.linalg.norm(two[0][0] - two[1][0]) > 0.2  # and apart
