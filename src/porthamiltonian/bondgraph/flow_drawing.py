"""Drawing the signal-flow graph of a bond graph, and the element gains on the bond graph.

:func:`draw_block_diagram` draws :func:`~.signal_flow.block_diagram`: a node per
signal (efforts orange, flows blue, states green, inputs grey; labelled with the
one-port's variable ``C1.e`` where there is one, else the bond's ``b3.f``), an arrow
per edge with its gain written on it (gains of 1 are left unwritten).
:func:`draw_gains` draws the bond graph (:func:`~.draw.draw`, with its causal strokes)
and writes each element's causal impedance ``Z = …``, admittance ``Y = …`` or TF
transmission ``T = …`` (:func:`~.impedance.element_gains`) under it.  Both use a bare
Matplotlib :class:`~matplotlib.figure.Figure` (no pyplot, headless).
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass, field
from typing import Any

import networkx as nx
import sympy as sp

from .draw import Drawing, check_format, draw
from .graph import BondGraph
from .impedance import ElementGain, element_gains
from .signal_flow import block_diagram

__all__ = ["draw_block_diagram", "draw_gains", "BlockDrawing", "NODE_COLORS"]

#: Node colour of each kind of signal.
NODE_COLORS = {"effort": "tab:orange", "flow": "tab:blue", "state": "tab:green",
               "input": "tab:gray"}


@dataclass
class BlockDrawing:
    """What :func:`draw_block_diagram` drew: the figure and axes, the graph, the node
    positions and the gain written on each edge (``(u, v) → text``)."""

    figure: Any
    ax: Any
    graph: nx.DiGraph
    positions: dict[str, tuple[float, float]] = field(default_factory=dict)
    edge_labels: dict[tuple[str, str], str] = field(default_factory=dict)


def draw_block_diagram(graph: BondGraph | nx.DiGraph, ax: Any = None, *,
                       out: str | pathlib.Path | None = None,
                       title: str | None = None) -> BlockDrawing:
    """Draw the signal-flow graph of a bond graph (or a graph from
    :func:`~.signal_flow.block_diagram`); ``out`` also saves it (.svg, .png, .pdf)."""
    if out is not None:
        check_format(out)
    g = block_diagram(graph) if isinstance(graph, BondGraph) else graph
    if ax is None:
        from matplotlib.figure import Figure

        ax = Figure(figsize=(9, 7), layout="constrained").subplots()
    pos = {n: (float(x), float(y)) for n, (x, y) in nx.kamada_kawai_layout(g).items()}
    kinds = nx.get_node_attributes(g, "kind")
    labels = {e: sp.sstr(d["gain"]) for e, d in g.edges.items() if d["gain"] != 1}
    arc = "arc3,rad=0.12"  # curved, so that a pair of opposite edges stays two arrows
    nx.draw_networkx_edges(g, pos, ax=ax, arrowsize=10, node_size=900, width=0.8,
                           edge_color="0.45", connectionstyle=arc)
    nx.draw_networkx_edge_labels(g, pos, labels, ax=ax, font_size=7, connectionstyle=arc,
                                 bbox={"fc": "white", "ec": "none", "pad": 0.2})
    for n, (x, y) in pos.items():
        ax.text(x, y, g.nodes[n].get("label", n), ha="center", va="center", fontsize=7,
                bbox={"boxstyle": "round,pad=0.25", "fc": "white",
                      "ec": NODE_COLORS.get(kinds.get(n, ""), "k"), "lw": 1.5})
    ax.set_xticks([])
    ax.set_yticks([])
    ax.margins(0.08)
    ax.set_title(title if title is not None else
                 f"signal-flow graph of {g.graph.get('name', 'the bond graph')}")
    d = BlockDrawing(ax.figure, ax, g, pos, labels)
    if out is not None:
        d.figure.savefig(out, dpi=150)
    return d


def draw_gains(bg: BondGraph, ax: Any = None, *, out: str | pathlib.Path | None = None,
               title: str | None = None) -> tuple[Drawing, dict[str, ElementGain]]:
    """Draw ``bg`` with its causal strokes and each element's causal gain under it."""
    if out is not None:
        check_format(out)
    gains = element_gains(bg)
    d = draw(bg, ax, title=title)
    for name, gain in gains.items():
        x, y = d.positions[name]
        d.ax.annotate(str(gain), (x, y), xytext=(0, -13), textcoords="offset points",
                      ha="center", va="top", fontsize=7, color="tab:green",
                      bbox={"fc": "white", "ec": "none", "alpha": 0.8, "pad": 0.5})
    if out is not None:
        d.save(out)
    return d, gains
