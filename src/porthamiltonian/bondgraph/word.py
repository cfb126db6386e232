"""Word bond graphs: each sub-graph one box, the bonds between them labelled in words.

A word bond graph (Breedveld, Appendix A.1 and Fig. A.16 of Duindam et al., *Modeling
and Control of Complex Physical Systems*, Springer 2009) is the top level of a
hierarchical model: every component is a box with its name, and the bonds that join
components are drawn as bonds (half-arrow at the head: the direction of positive
power ``e·f``) labelled with the power variables they carry in words, ``voltage /
current``, ``torque / angular velocity`` (effort / flow of the bond's domain,
:mod:`.domains`).

Here the components are the sub-graphs copied in by :meth:`BondGraph.include` (their
elements are named ``<sub-graph>.<element>``); elements of the top-level graph are drawn
as themselves (``Se:V``, a bold ``0``/``1`` for junctions).  Bonds inside one sub-graph
are hidden; several bonds between the same two boxes are drawn side by side.
"""

from __future__ import annotations

import math
import pathlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .graph import JUNCTIONS, BondGraph

__all__ = ["draw_word", "WordDrawing", "groups"]


@dataclass
class WordDrawing:
    """What :func:`draw_word` drew.

    Attributes
    ----------
    figure, ax:
        The Matplotlib figure and axes.
    boxes:
        Node (a sub-graph's instance name, or a top-level element) → ``(x, y)``.
    labels:
        Node → the text drawn for it (``"motor: dc-motor"``, ``"Se:V"``).
    bonds:
        Bond name → ``(tail node, head node, label)``: the bonds between nodes, each
        labelled ``"effort / flow"`` in its domain's words.
    """

    figure: Any
    ax: Any
    boxes: dict[str, tuple[float, float]] = field(default_factory=dict)
    labels: dict[str, str] = field(default_factory=dict)
    bonds: dict[str, tuple[str, str, str]] = field(default_factory=dict)

    def save(self, path: str | pathlib.Path, dpi: int = 150) -> pathlib.Path:
        from .draw import check_format

        path = pathlib.Path(path)
        check_format(path)
        self.figure.savefig(path, dpi=dpi)
        return path


def groups(bg: BondGraph) -> dict[str, str]:
    """Element → the node it belongs to: its top-level sub-graph, or itself."""
    subs = sorted(bg.subgraphs, key=len, reverse=True)  # the longest prefix wins
    out = {}
    for name in bg.elements:
        out[name] = next((s for s in subs if name.startswith(f"{s}.")), name)
    return out


def draw_word(bg: BondGraph, ax: Any = None, *,
              pos: Mapping[str, tuple[float, float]] | None = None,
              out: str | pathlib.Path | None = None, title: str | None = None
              ) -> WordDrawing:
    """Draw the word bond graph of ``bg`` (module docstring).

    ``pos``: node → position, overriding the layout; ``out``: also save to ``.svg``,
    ``.png`` or ``.pdf``; ``title``: default ``"<name>: word bond graph"``.  The graph is
    structurally checked first (:class:`~porthamiltonian.ModelError`).
    """
    from .domains import bond_domains
    from .draw import check_format

    if out is not None:
        check_format(out)
    bg.check()
    doms = bond_domains(bg)
    node = groups(bg)
    nodes = list(dict.fromkeys(node.values()))
    between = [b for b in bg.bonds if node[b.tail] != node[b.head]]
    positions = _layout(nodes, [(node[b.tail], node[b.head]) for b in between], pos)
    if ax is None:
        from matplotlib.figure import Figure  # no pyplot: headless, no global state

        xs, ys = zip(*positions.values(), strict=True)
        w, h = max(xs) - min(xs) + 3.0, max(ys) - min(ys) + 2.0
        ax = Figure(figsize=(max(w, 4.0), max(h, 3.0)), layout="constrained").subplots()
    d = WordDrawing(figure=ax.figure, ax=ax, boxes=positions)
    for n in nodes:
        d.labels[n] = _label(bg, n)
    _draw_bonds(d, between, node, doms)
    for n in nodes:
        x, y = positions[n]
        junction = n in bg.elements and bg.elements[n].kind in JUNCTIONS
        box = None if junction else {"boxstyle": "square,pad=0.4", "fc": "white",
                                     "ec": "black" if n in bg.subgraphs else "0.6",
                                     "lw": 1.5 if n in bg.subgraphs else 0.8}
        ax.text(x, y, d.labels[n], ha="center", va="center", zorder=3, bbox=box,
                fontsize=13 if junction else 10, fontweight="bold" if junction else "normal",
                gid=f"node-{n}")
    xs, ys = zip(*positions.values(), strict=True)
    ax.set_xlim(min(xs) - 1.2, max(xs) + 1.2)
    ax.set_ylim(min(ys) - 0.8, max(ys) + 0.8)
    ax.set_axis_off()
    ax.set_title(f"{bg.name}: word bond graph" if title is None else title)
    if out is not None:
        d.save(out)
    return d


def _label(bg: BondGraph, n: str) -> str:
    if n in bg.subgraphs:
        return n if bg.subgraphs[n] == n else f"{n}: {bg.subgraphs[n]}"
    el = bg.elements[n]
    return el.type if el.kind in JUNCTIONS else f"{el.type}:{n}"


def _layout(nodes: list[str], edges: list[tuple[str, str]],
            fixed: Mapping[str, tuple[float, float]] | None) -> dict[str, tuple[float, float]]:
    """Kamada–Kawai on the nodes (the word level is small), 2.5 units per bond."""
    import networkx as nx

    fixed = dict(fixed or {})
    if len(fixed) == len(nodes) and set(fixed) == set(nodes):
        return {n: (float(fixed[n][0]), float(fixed[n][1])) for n in nodes}
    g = nx.Graph()
    g.add_nodes_from(nodes)
    g.add_edges_from(edges)
    if len(nodes) == 1:
        raw = {nodes[0]: (0.0, 0.0)}
    elif fixed:
        raw = nx.spring_layout(g, pos=fixed, fixed=[n for n in fixed if n in g], seed=1)
    else:
        raw = nx.kamada_kawai_layout(g)
    lengths = [math.dist(raw[a], raw[b]) for a, b in edges if a != b]
    scale = 2.5 / (sorted(lengths)[len(lengths) // 2] or 1.0) if lengths and not fixed \
        else 1.0
    return {n: (float(raw[n][0]) * scale, float(raw[n][1]) * scale) for n in nodes}


def _clearance(label: str, ux: float, uy: float) -> float:
    """From a label's centre to its box's edge along ``(ux, uy)``, plus a gap (inches:
    a 10 pt character is about 0.085 wide, a framed line 0.36 high)."""
    half_w, half_h = 0.5 * len(label) * 0.085 + 0.08, 0.2
    return min(half_w / abs(ux) if ux else math.inf, half_h / abs(uy) if uy else math.inf
               ) + 0.06


def _draw_bonds(d: WordDrawing, bonds: list, node: dict[str, str], doms: Any) -> None:
    """Each bond a line with its half-arrow and its words; parallel bonds side by side."""
    from matplotlib.collections import LineCollection

    pair_count: dict[frozenset, int] = {}
    for b in bonds:
        pair_count[frozenset((node[b.tail], node[b.head]))] = \
            pair_count.get(frozenset((node[b.tail], node[b.head])), 0) + 1
    seen: dict[frozenset, int] = {}
    lines = []
    for b in bonds:
        t, h = node[b.tail], node[b.head]
        key = frozenset((t, h))
        k, n = seen.get(key, 0), pair_count[key]
        seen[key] = k + 1
        (xt, yt), (xh, yh) = d.boxes[t], d.boxes[h]
        length = math.hypot(xh - xt, yh - yt) or 1.0
        ux, uy = (xh - xt) / length, (yh - yt) / length
        nx_, ny_ = -uy, ux
        shift = 0.35 * (k - (n - 1) / 2)
        m_t = min(_clearance(d.labels[t], ux, uy), 0.4 * length)
        m_h = min(_clearance(d.labels[h], ux, uy), 0.4 * length)
        p_t = (xt + m_t * ux + shift * nx_, yt + m_t * uy + shift * ny_)
        p_h = (xh - m_h * ux + shift * nx_, yh - m_h * uy + shift * ny_)
        barb = (p_h[0] - 0.18 * ux + 0.11 * nx_, p_h[1] - 0.18 * uy + 0.11 * ny_)
        lines += [(p_t, p_h), (p_h, barb)]
        dom = doms.bond[b.name]
        words = f"{dom.effort.kind} / {dom.flow.kind}"
        d.bonds[b.name] = (t, h, words)
        angle = math.degrees(math.atan2(uy, ux))
        if angle > 90 or angle < -90:
            angle -= 180 * (1 if angle > 0 else -1)
        d.ax.text((p_t[0] + p_h[0]) / 2 + 0.14 * nx_, (p_t[1] + p_h[1]) / 2 + 0.14 * ny_,
                  words, fontsize=8, ha="center", va="center", rotation=angle,
                  rotation_mode="anchor", color="0.2", gid=f"bond-{b.name}")
    d.ax.add_collection(LineCollection(lines, colors="black", linewidths=1.4, zorder=1,
                                       gid="bonds"))
