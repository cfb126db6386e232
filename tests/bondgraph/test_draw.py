"""Drawing bond graphs: files, causal strokes against the SCAP report, highlighting."""

from __future__ import annotations

import math
import struct
import textwrap
import xml.etree.ElementTree as ET

import pytest

import porthamiltonian
from porthamiltonian import ModelError
from porthamiltonian.bondgraph import BondGraph, analyze_causality
from porthamiltonian.bondgraph.draw import PROBLEM_COLORS, Drawing
from porthamiltonian.cli import main


def graph(elements: list[tuple], bonds: list[tuple[str, str]], name: str = "g") -> BondGraph:
    bg = BondGraph(name)
    for e in elements:
        bg.add(e[0], e[1], **(e[2] if len(e) > 2 else {}))
    for tail, head in bonds:
        bg.connect(tail, head)
    return bg


def series_rlc() -> BondGraph:
    return graph([("u", "Se"), ("j", "1"), ("R1", "R", {"r": 1}), ("C1", "C", {"c": 1}),
                  ("L1", "I", {"i": 1})], [("u", "j"), ("j", "R1"), ("j", "C1"), ("j", "L1")])


def coupled_inertias() -> BondGraph:
    """Se–1 ja{I1}–TF–1 jb{I2, R1}: I2 is a dependent storage."""
    return graph([("F", "Se"), ("ja", "1"), ("I1", "I", {"i": 1}), ("tf", "TF", {"ratio": 2}),
                  ("jb", "1"), ("I2", "I", {"i": 1}), ("R1", "R", {"r": 1})],
                 [("F", "ja"), ("ja", "I1"), ("ja", "tf"), ("tf", "jb"), ("jb", "I2"),
                  ("jb", "R1")], "coupled")


def loop() -> BondGraph:
    """Sf s → 0 j0 → {R1, 1 j1 → {R2, C1}}: an algebraic loop among R1, R2."""
    return graph([("s", "Sf"), ("j0", "0"), ("R1", "R", {"r": 1}), ("j1", "1"),
                  ("R2", "R", {"r": 1}), ("C1", "C", {"c": 1})],
                 [("s", "j0"), ("j0", "R1"), ("j0", "j1"), ("j1", "R2"), ("j1", "C1")], "loop")


def fixed_by_source() -> BondGraph:
    return graph([("u", "Se"), ("j0", "0"), ("C1", "C", {"c": 1}), ("R1", "R", {"r": 1})],
                 [("u", "j0"), ("j0", "C1"), ("j0", "R1")], "fixed")


def dependent_sources() -> BondGraph:
    return graph([("u1", "Se"), ("u2", "Se"), ("j0", "0"), ("R1", "R", {"r": 1})],
                 [("u1", "j0"), ("u2", "j0"), ("j0", "R1")], "two-sources")


ALL = [series_rlc, coupled_inertias, loop, fixed_by_source, dependent_sources]


@pytest.mark.parametrize("make", ALL)
def test_each_bond_has_its_stroke_next_to_the_element_that_receives_the_effort(make):
    bg = make()
    d = porthamiltonian.bondgraph.draw(bg)
    rep = analyze_causality(bg)
    assert sorted(s.bond for s in d.strokes) == sorted(b.name for b in bg.bonds)
    for s in d.strokes:
        bond = next(b for b in bg.bonds if b.name == s.bond)
        # the report names the end that imposes the effort; the stroke is at the other
        assert s.end != rep.causality[s.bond]
        assert s.element != rep.effort_from[s.bond]
        assert {s.element, rep.effort_from[s.bond]} == {bond.tail, bond.head}
        # geometry: the stroke crosses the bond line at its end next to s.element
        (x0, y0), (x1, y1) = s.segment
        mx, my = (x0 + x1) / 2, (y0 + y1) / 2
        p_t, p_h = d.bonds[s.bond]
        end_pt = p_h if s.end == "head" else p_t
        assert math.dist((mx, my), end_pt) < 1e-12
        ex, ey = d.positions[s.element]
        ox, oy = d.positions[rep.effort_from[s.bond]]
        assert math.dist((mx, my), (ex, ey)) < math.dist((mx, my), (ox, oy))
        # perpendicular to the bond
        bx, by = p_h[0] - p_t[0], p_h[1] - p_t[1]
        assert abs(bx * (x1 - x0) + by * (y1 - y0)) < 1e-9 * math.hypot(bx, by)


def test_textbook_strokes_of_the_series_rlc():
    """Series RLC on a 1-junction: C and I integral (C gives its effort to the junction,
    L receives it), R in resistance causality, Se gives its effort."""
    d = porthamiltonian.bondgraph.draw(series_rlc())
    at = {s.bond: s.element for s in d.strokes}
    assert at == {"b1": "j", "b2": "j", "b3": "j", "b4": "L1"}


@pytest.mark.parametrize("make, expected", [
    (series_rlc, {}),
    (coupled_inertias, {"I2": "dependent storage"}),
    (fixed_by_source, {"C1": "fixed by sources"}),
    (dependent_sources, {"u2": "dependent source"}),
    (loop, {"R1": "algebraic loop", "R2": "algebraic loop", "j0": "algebraic loop",
            "j1": "algebraic loop"}),
])
def test_highlighted_are_exactly_the_problem_elements(make, expected):
    bg = make()
    d = porthamiltonian.bondgraph.draw(bg)
    assert d.highlighted == expected
    rep = analyze_causality(bg)
    problems = (set(rep.derivative) | set(rep.fixed_by_sources) | set(rep.dependent_sources)
                | {n for group in rep.algebraic_loops for n in group})
    assert set(d.highlighted) == problems
    # each highlighted label is drawn in its problem's colour, the others in black
    from matplotlib.colors import to_rgba
    for t in d.ax.texts:
        gid = t.get_gid() or ""
        if gid.startswith("element-"):
            name = gid.removeprefix("element-")
            want = PROBLEM_COLORS[expected[name]] if name in expected else "black"
            assert to_rgba(t.get_color()) == to_rgba(want)
    labels = {t.get_text() for t in d.ax.get_legend().get_texts()}
    assert set(expected.values()) <= labels


def test_without_causality_no_strokes_no_highlight():
    d = porthamiltonian.bondgraph.draw(coupled_inertias(), causality=False)
    assert d.strokes == [] and d.highlighted == {} and d.report is None
    assert len(d.bonds) == 6


def test_labels_and_half_arrows_point_along_the_bonds():
    bg = series_rlc()
    d = porthamiltonian.bondgraph.draw(bg)
    texts = {t.get_text() for t in d.ax.texts}
    assert {"Se:u", "R:R1", "C:C1", "I:L1", "1"} <= texts
    for b in bg.bonds:  # drawn line goes from near the tail to near the head
        p_t, p_h = d.bonds[b.name]
        t, h = d.positions[b.tail], d.positions[b.head]
        assert math.dist(p_t, t) < math.dist(p_t, h) and math.dist(p_h, h) < math.dist(p_h, t)


def test_writes_valid_svg_and_png(tmp_path):
    svg, png = tmp_path / "g.svg", tmp_path / "g.png"
    porthamiltonian.bondgraph.draw(loop(), out=svg)
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    assert any(el.get("id") == "causal-strokes" for el in root.iter())
    d = porthamiltonian.bondgraph.draw(loop())
    out = d.save(png)
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert width > 100 and height > 100


def test_draws_into_given_axes():
    from matplotlib.figure import Figure

    ax = Figure().subplots()
    d = porthamiltonian.bondgraph.draw(series_rlc(), ax=ax)
    assert isinstance(d, Drawing) and d.ax is ax and len(d.strokes) == 4


def test_bad_extension_and_bad_graph_are_model_errors(tmp_path):
    with pytest.raises(ModelError, match=r"'\.jpg'.*\.svg, \.png"):
        porthamiltonian.bondgraph.draw(series_rlc(), out=tmp_path / "g.jpg")
    assert not (tmp_path / "g.jpg").exists()
    bad = graph([("u", "Se"), ("j", "1"), ("C1", "C", {"c": 1})], [("u", "j"), ("C1", "j")])
    with pytest.raises(ModelError, match="points out of C element 'C1'"):
        porthamiltonian.bondgraph.draw(bad)
    with pytest.raises(ModelError, match="unknown element"):
        porthamiltonian.bondgraph.draw(series_rlc(), pos={"nope": (0, 0)})


def test_user_positions_are_kept():
    pos = {"u": (0, 0), "j": (2, 0), "R1": (2, 2), "C1": (4, 0), "L1": (2, -2)}
    d = porthamiltonian.bondgraph.draw(series_rlc(), pos=pos)
    assert d.positions == {k: (float(x), float(y)) for k, (x, y) in pos.items()}


MODEL = textwrap.dedent("""\
    name: coupled
    bondgraph:
      elements:
        - {name: F, type: Se}
        - {name: ja, type: "1"}
        - {name: I1, type: I, i: 1}
        - {name: tf, type: TF, ratio: 2}
        - {name: jb, type: "1"}
        - {name: I2, type: I, i: 1}
      bonds: [[F, ja], [ja, I1], [ja, tf], [tf, jb], [jb, I2]]
    """)


def test_cli_draw(tmp_path, capsys):
    model = tmp_path / "m.yaml"
    model.write_text(MODEL)
    out = tmp_path / "m.svg"
    assert main(["draw", str(model), "--out", str(out)]) == 0
    assert ET.parse(out).getroot().tag.endswith("svg")
    printed = capsys.readouterr().out
    assert "1 highlighted" in printed and "I2 is in derivative causality" in printed
    assert main(["draw", str(model), "--out", str(tmp_path / "m.png"), "--no-causality"]) == 0


def test_cli_draw_user_errors_are_one_line_exit_2(tmp_path, capsys):
    model = tmp_path / "m.yaml"
    model.write_text(MODEL)
    assert main(["draw", str(model), "--out", str(tmp_path / "x.gif")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error:") and "'.gif'" in err
    with pytest.raises(SystemExit) as exc:  # --out is required: argparse's error
        main(["draw", str(model)])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error:") and "--out" in err
    assert main(["draw", str(tmp_path / "none.yaml"), "--out", "x.svg"]) == 2
    assert capsys.readouterr().err.startswith("error: model file")


def test_cli_draw_refuses_a_structurally_wrong_graph_and_other_models(tmp_path, capsys):
    model = tmp_path / "bad.yaml"
    model.write_text(MODEL.replace("[ja, I1]", "[I1, ja]"))
    assert main(["draw", str(model), "--out", str(tmp_path / "b.svg")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "points out of I element 'I1'" in err
    assert not (tmp_path / "b.svg").exists()
    phs = tmp_path / "p.yaml"
    phs.write_text("name: p\nphs: {states: [q], J: [[0]], hamiltonian: 'q**2/2'}\n")
    assert main(["draw", str(phs), "--out", str(tmp_path / "p.svg")]) == 2
    assert "'draw' is for bond graphs" in capsys.readouterr().err



def test_large_graphs_are_laid_out_in_breadth_first_layers(monkeypatch):
    """Above KK_LIMIT: x is the breadth-first distance from the first element, so every
    bond joins the same or neighbouring layers and the layers are unit-spaced."""
    import importlib

    # the module, not the function ``bondgraph.draw`` that shadows it as an attribute
    drawing = importlib.import_module("porthamiltonian.bondgraph.draw")
    monkeypatch.setattr(drawing, "KK_LIMIT", 3)
    bg = series_rlc()
    d = porthamiltonian.bondgraph.draw(bg)
    unit = d.positions["j"][0] - d.positions["u"][0]  # positions are scaled as a whole
    xs = {n: x / unit for n, (x, _) in d.positions.items()}
    assert xs["u"] == 0 and [xs[n] for n in ("R1", "C1", "L1")] == pytest.approx([2, 2, 2])
    ys = sorted(d.positions[n][1] / unit for n in ("R1", "C1", "L1"))
    assert ys == pytest.approx([-1, 0, 1])  # centred ranks within the layer
    assert len(d.strokes) == len(bg.bonds)
