"""Drawing a bond graph: elements, power half-arrows, causal strokes, problems highlighted.

Notation (Breedveld, Appendix A of Duindam et al., *Modeling and Control of Complex
Physical Systems*, Springer 2009; Karnopp, Margolis and Rosenberg, *System Dynamics*)
-------------------------------------------------------------------------------------
* An element is its type and name, ``C:C1``, ``TF:tf``; a junction is ``0`` or ``1``
  with its name written small underneath.
* A bond ``tail → head`` is a line with a **half-arrow** at the head: the direction
  of positive power ``e·f`` (docs/design.md).  A multi-bond is drawn thicker and
  labelled with its dimension.
* The **causal stroke** is a short line across the bond at the end where the
  effort is *imposed on* the element: the element next to the stroke receives the
  effort and gives back the flow.  With the causality report of
  :func:`~porthamiltonian.bondgraph.causality.analyze_causality`, that is the end
  opposite to ``report.causality[bond]`` (which names the end whose element imposes
  the effort).
* Problem elements of the report are highlighted in colour with a legend:
  dependent storages (derivative causality), storages fixed by sources, dependent
  sources, and the resistors and junctions of algebraic loops.

The figure is a bare :class:`matplotlib.figure.Figure` (no pyplot): it renders
headless and never opens a window.  Node positions come from NetworkX
(Kamada–Kawai, O(n²), for up to :data:`KK_LIMIT` elements); larger graphs are laid
out in layers by breadth-first distance from the first element (linear time).
"""

from __future__ import annotations

import math
import pathlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import ModelError
from .causality import CausalityReport, analyze_causality
from .graph import JUNCTIONS, BondGraph

__all__ = ["draw", "Drawing", "Stroke", "PROBLEM_COLORS", "FORMATS"]

#: Output formats accepted by ``out=`` (and by ``porthamiltonian draw --out``).
FORMATS = (".svg", ".png", ".pdf")
#: Largest graph laid out with Kamada–Kawai (O(n²)); breadth-first layers above.
KK_LIMIT = 150
#: Highlight colour of each kind of problem (legend order).
PROBLEM_COLORS: dict[str, str] = {
    "dependent storage": "tab:red",
    "fixed by sources": "tab:orange",
    "dependent source": "tab:brown",
    "algebraic loop": "tab:purple",
}

# Geometry in layout units, after scaling so that the median bond is 1 long; a new
# figure is sized at _INCH inches per unit, so text sizes are known in units too.
_INCH = 1.0
_CHAR = 0.6 * 10 / 72 / _INCH   # width of a 10 pt character
_HALF_H = 0.11                  # half-height of a label with its padding
_GAP = 0.03                     # between a label's box and a bond's end
_ARROW = 0.14                   # length of the half-arrow's barb
_STROKE = 0.09                  # half-length of the causal stroke


@dataclass(frozen=True)
class Stroke:
    """One causal stroke: on ``bond``, at its ``end`` (``"tail"``/``"head"``), next to
    ``element`` (the element that receives the effort); ``segment`` is its two
    end points in data coordinates."""

    bond: str
    end: str
    element: str
    segment: tuple[tuple[float, float], tuple[float, float]]


@dataclass
class Drawing:
    """What :func:`draw` drew.

    Attributes
    ----------
    figure, ax:
        The Matplotlib figure and axes.
    positions:
        Element name → ``(x, y)`` of its label's centre.
    bonds:
        Bond name → ``((x, y) at the tail, (x, y) at the head)``: the drawn line.
    strokes:
        One :class:`Stroke` per bond (empty when ``causality=False``).
    highlighted:
        Element name → kind of problem (a key of :data:`PROBLEM_COLORS`).
    report:
        The causality report used, or ``None``.
    """

    figure: Any
    ax: Any
    positions: dict[str, tuple[float, float]] = field(default_factory=dict)
    bonds: dict[str, tuple[tuple[float, float], tuple[float, float]]] = field(
        default_factory=dict)
    strokes: list[Stroke] = field(default_factory=list)
    highlighted: dict[str, str] = field(default_factory=dict)
    report: CausalityReport | None = None

    def save(self, path: str | pathlib.Path, dpi: int = 150) -> pathlib.Path:
        """Write the figure to ``path`` (``.svg``, ``.png`` or ``.pdf``)."""
        path = pathlib.Path(path)
        check_format(path)
        self.figure.savefig(path, dpi=dpi)
        return path


def check_format(path: str | pathlib.Path) -> None:
    """Raise :class:`ModelError` unless ``path`` ends in one of :data:`FORMATS`."""
    suffix = pathlib.Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise ModelError(f"cannot draw to {str(path)!r}: unknown image format "
                         f"{suffix or '(no extension)'!r}; give a file ending in "
                         f"{', '.join(FORMATS)}")


def draw(graph: BondGraph, ax: Any = None, *, causality: bool = True,
         pos: Mapping[str, tuple[float, float]] | None = None,
         out: str | pathlib.Path | None = None, title: str | None = None) -> Drawing:
    """Draw a bond graph with Matplotlib.

    Parameters
    ----------
    graph:
        The bond graph; it is structurally checked first
        (:meth:`BondGraph.check`, which raises :class:`ModelError`).
    ax:
        Matplotlib axes to draw into; default a new figure.
    causality:
        Run the causality analysis (SCAP) and draw the causal strokes and the
        highlighted problem elements.
    pos:
        Element name → position, to override the automatic layout (missing
        elements are laid out automatically around them).
    out:
        Also save the figure to this file (``.svg``, ``.png`` or ``.pdf``).
    title:
        Axes title; default the graph's name.

    Returns
    -------
    Drawing
        The figure, axes and the drawn geometry (positions, bond lines, causal
        strokes, highlighted elements).

    Raises
    ------
    ModelError
        A structurally wrong graph, or ``out`` with an unknown extension (checked
        before anything is drawn).
    """
    if out is not None:
        check_format(out)
    graph.check()
    report = analyze_causality(graph) if causality else None
    if ax is None:
        from matplotlib.figure import Figure  # no pyplot: no GUI backend, no global state

    positions = _layout(graph, pos)
    xs = [p[0] for p in positions.values()]
    ys = [p[1] for p in positions.values()]
    if ax is None:
        from matplotlib.figure import Figure  # no pyplot: no GUI backend, no global state

        w, h = (max(xs) - min(xs) + 1.6) * _INCH, (max(ys) - min(ys) + 1.8) * _INCH
        k = min(1.0, 40.0 / max(w, h))  # huge graphs: shrink (labels may then overlap)
        ax = Figure(figsize=(max(w * k, 3.0), max(h * k, 2.5)),
                    layout="constrained").subplots()
    d = Drawing(figure=ax.figure, ax=ax, report=report, positions=positions)
    if report is not None:
        d.highlighted = problem_elements(report)
    _draw_bonds(graph, d)
    _draw_elements(graph, d)
    _legend(d)
    ax.set_xlim(min(xs) - 0.6, max(xs) + 0.6)
    ax.set_ylim(min(ys) - 0.6, max(ys) + 0.6)
    ax.set_aspect("equal")
    ax.set_axis_off()
    ax.set_title(graph.name if title is None else title)
    if out is not None:
        d.save(out)
    return d


def problem_elements(report: CausalityReport) -> dict[str, str]:
    """Element → kind of problem, from a causality report (first kind wins)."""
    kinds: dict[str, str] = {}
    groups = [("dependent storage", report.derivative),
              ("fixed by sources", report.fixed_by_sources),
              ("dependent source", report.dependent_sources),
              ("algebraic loop", [n for loop in report.algebraic_loops for n in loop])]
    for kind, names in groups:
        for name in names:
            kinds.setdefault(name, kind)
    return kinds


# ---------------------------------------------------------------------- layout
def _layout(graph: BondGraph, fixed: Mapping[str, tuple[float, float]] | None
            ) -> dict[str, tuple[float, float]]:
    """Positions scaled so that the median bond is 1 long (the geometry's unit)."""
    import networkx as nx
    import numpy as np

    g = nx.Graph()
    g.add_nodes_from(graph.elements)
    g.add_edges_from((b.tail, b.head) for b in graph.bonds)
    fixed = dict(fixed or {})
    unknown = sorted(set(fixed) - set(graph.elements))
    if unknown:
        raise ModelError(f"pos: unknown element(s) {', '.join(unknown)}; the elements are "
                         f"{', '.join(graph.elements)}")
    if len(fixed) == len(graph.elements):
        raw = {k: np.asarray(v, dtype=float) for k, v in fixed.items()}
    elif fixed:
        raw = nx.spring_layout(g, pos=fixed, fixed=list(fixed), seed=1)
    elif len(graph.elements) > KK_LIMIT:
        raw = _layers(g, next(iter(graph.elements)))
    else:
        raw = nx.kamada_kawai_layout(g)
    lengths = [float(np.hypot(*(raw[b.head] - raw[b.tail]))) for b in graph.bonds]
    lengths = [x for x in lengths if x > 0]
    scale = 1.0 / float(np.median(lengths)) if lengths and not fixed else 1.0
    return {k: (float(v[0]) * scale, float(v[1]) * scale) for k, v in raw.items()}


def _layers(g: Any, start: str) -> dict[str, Any]:
    """x = breadth-first distance from ``start``, y = rank within that layer (centred)."""
    import networkx as nx
    import numpy as np

    depth = nx.single_source_shortest_path_length(g, start)
    layers: dict[int, list[str]] = {}
    for node in g.nodes:  # the graph is connected (checked), so every node has a depth
        layers.setdefault(depth[node], []).append(node)
    return {n: np.array([float(d), k - (len(nodes) - 1) / 2])
            for d, nodes in layers.items() for k, n in enumerate(nodes)}


# ---------------------------------------------------------------------- artists
def _label(graph: BondGraph, name: str) -> str:
    el = graph.elements[name]
    return el.type if el.kind in JUNCTIONS else f"{el.type}:{name}"


def _clearance(graph: BondGraph, name: str, ux: float, uy: float) -> float:
    """Distance from a label's centre to its box's edge along ``(ux, uy)``, plus a gap."""
    el = graph.elements[name]
    half_w = (0.6 if el.kind in JUNCTIONS else 0.5 * len(_label(graph, name))) * _CHAR + 0.05
    half_h = 0.16 if el.kind in JUNCTIONS else _HALF_H  # a junction's name is underneath
    t = min(half_w / abs(ux) if ux else math.inf, half_h / abs(uy) if uy else math.inf)
    return t + _GAP


def _draw_elements(graph: BondGraph, d: Drawing) -> None:
    for name, (x, y) in d.positions.items():
        el = graph.elements[name]
        color = PROBLEM_COLORS.get(d.highlighted.get(name, ""), "black")
        # a box only around problem elements: boxes are costly to render in big graphs
        box = ({"boxstyle": "round,pad=0.25", "fc": "white", "ec": color, "lw": 1.5}
               if name in d.highlighted else None)
        big = el.kind in JUNCTIONS
        d.ax.text(x, y, _label(graph, name), ha="center", va="center", color=color,
                  fontsize=13 if big else 10, fontweight="bold" if big else "normal",
                  bbox=box, zorder=3, gid=f"element-{name}")
        if big:
            d.ax.text(x, y - 0.16, name, ha="center", va="top", fontsize=7, color="0.35",
                      zorder=3)


def _draw_bonds(graph: BondGraph, d: Drawing) -> None:
    """Bond lines with their half-arrow barbs, and the causal strokes.

    One :class:`~matplotlib.collections.LineCollection` per kind of line (``gid``
    ``bonds``, ``causal-strokes`` in an SVG): thousands of bonds render quickly.
    """
    from matplotlib.collections import LineCollection

    rep = d.report
    lines, widths, stroke_lines, stroke_widths = [], [], [], []
    for b in graph.bonds:
        (xt, yt), (xh, yh) = d.positions[b.tail], d.positions[b.head]
        length = math.hypot(xh - xt, yh - yt)
        if length == 0:  # coincident positions (user-given): nothing sensible to draw
            continue
        ux, uy = (xh - xt) / length, (yh - yt) / length
        nx_, ny_ = -uy, ux  # the left normal: the side of the half-arrow
        m_t = min(_clearance(graph, b.tail, ux, uy), 0.4 * length)
        m_h = min(_clearance(graph, b.head, ux, uy), 0.4 * length)
        p_t = (xt + m_t * ux, yt + m_t * uy)
        p_h = (xh - m_h * ux, yh - m_h * uy)
        d.bonds[b.name] = (p_t, p_h)
        lw = 2.6 if b.dim > 1 else 1.2
        a = min(_ARROW, 0.35 * (length - m_t - m_h))
        # the bond and its half-arrow: one barb on the left side, at the head
        barb = (p_h[0] - a * ux + 0.6 * a * nx_, p_h[1] - a * uy + 0.6 * a * ny_)
        lines += [(p_t, p_h), (p_h, barb)]
        widths += [lw, lw]
        if b.dim > 1:
            d.ax.text((p_t[0] + p_h[0]) / 2 - 0.12 * nx_, (p_t[1] + p_h[1]) / 2 - 0.12 * ny_,
                      str(b.dim), fontsize=7, ha="center", va="center", color="0.3")
        if rep is None:
            continue
        # the stroke sits next to the element that receives the effort
        end = "head" if rep.causality[b.name] == "tail" else "tail"
        px, py = p_h if end == "head" else p_t
        seg = ((px - _STROKE * nx_, py - _STROKE * ny_), (px + _STROKE * nx_, py + _STROKE * ny_))
        stroke_lines.append(seg)
        stroke_widths.append(lw + 0.8)
        d.strokes.append(Stroke(b.name, end, b.head if end == "head" else b.tail, seg))
    d.ax.add_collection(LineCollection(lines, colors="black", linewidths=widths, zorder=1,
                                       gid="bonds"))
    if stroke_lines:
        d.ax.add_collection(LineCollection(stroke_lines, colors="tab:blue",
                                           linewidths=stroke_widths, zorder=2,
                                           gid="causal-strokes"))


def _legend(d: Drawing) -> None:
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], color="black", lw=1.2, label="bond (half-arrow: power)")]
    if d.report is not None:
        handles.append(Line2D([], [], color="tab:blue", lw=2.0,
                              label="causal stroke (effort imposed here)"))
    for kind, color in PROBLEM_COLORS.items():
        if kind in d.highlighted.values():
            handles.append(Line2D([], [], color=color, marker="s", ls="none", mfc="white",
                                  mew=1.5, label=kind))
    d.ax.legend(handles=handles, loc="lower left", fontsize=7, frameon=False)
