r"""Mechanism graphs (Macchelli & Melchiorri 2008, §4; Stramigioli 2001, ch. 5).

Nodes are the bodies and ``ground``; an edge per kinematic pair, oriented parent → child.
With the incidence matrix :math:`A` (bodies × joints, ``+1`` at the child, ``−1`` at the
parent) the interconnection equations are the two Kirchhoff laws of the graph:

* **co-cycle (node) law** — the wrench on body ``b`` is the sum of the joint wrenches
  :math:`W_b = \sum_j A_{bj} W_j` (each joint pushes its child and pulls its parent);
* **cycle (loop) law** — a joint's relative twist is the difference of the twists of its
  ends, :math:`T_j = \sum_b A_{bj} T_b`, and around every cycle of the graph the relative
  twists (and relative poses) compose to zero (the identity).

A spanning tree rooted at ``ground`` (the *Lagrangian tree*) fixes independent joint
coordinates; every edge outside it (a *chord*) closes one fundamental cycle — a closed
kinematic chain — whose closure equations depend on those of the tree.  Redundant
closure equations (e.g. the out-of-plane ones of a planar four-bar built with spatial
revolute joints) are detected on the chords only (:mod:`.mechanism`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import networkx as nx
import numpy as np

from ..errors import ModelError

__all__ = ["MechanismGraph", "GROUND"]

GROUND = "ground"


class MechanismGraph:
    """Bodies (plus ``ground``) and joints (objects with ``name, parent, child``)."""

    def __init__(self, bodies: Sequence[str], joints: Sequence[Any]) -> None:
        self.bodies = list(bodies)
        self.joints = list(joints)
        self.graph = nx.MultiGraph()
        self.graph.add_nodes_from([GROUND, *self.bodies])
        for j in self.joints:
            for end in (j.parent, j.child):
                if end not in self.graph:
                    raise ModelError(f"joint {j.name!r}: unknown body {end!r}; add it with "
                                     "add_body() first (or use 'ground')")
            self.graph.add_edge(j.parent, j.child, key=j.name)
        self._tree()

    def _tree(self) -> None:
        """BFS spanning forest from ground (then from each floating component)."""
        self.tree: list[str] = []
        self.order: list[tuple[str, Any, bool]] = []  # (body, joint, joint runs parent→child)
        seen = {GROUND}
        roots = [GROUND] + [b for b in self.bodies]
        self.floating: list[str] = []
        by_name = {j.name: j for j in self.joints}
        for root in roots:
            if root in seen and root != GROUND:
                continue
            if root != GROUND:
                self.floating.append(root)
                seen.add(root)
            queue = [root]
            while queue:
                node = queue.pop(0)
                for _, other, key in sorted(self.graph.edges(node, keys=True),
                                            key=lambda e: e[2]):
                    if other in seen:
                        continue
                    j = by_name[key]
                    seen.add(other)
                    self.tree.append(key)
                    self.order.append((other, j, j.child == other))
                    queue.append(other)
        self.chords = [j.name for j in self.joints if j.name not in self.tree]

    def incidence(self) -> np.ndarray:
        """``A`` (len(bodies) × len(joints)): +1 child, −1 parent (ground row dropped)."""
        A = np.zeros((len(self.bodies), len(self.joints)))
        for k, j in enumerate(self.joints):
            if j.child != GROUND:
                A[self.bodies.index(j.child), k] += 1.0
            if j.parent != GROUND:
                A[self.bodies.index(j.parent), k] -= 1.0
        return A

    def tree_path(self, start: str, end: str) -> list[tuple[str, int]] | None:
        """The tree joints from body ``start`` to body ``end``: ``[(joint, ±1), ...]``, +1
        where the path runs parent → child; ``None`` if no tree path joins them."""
        T = nx.Graph()
        T.add_nodes_from(self.graph.nodes)
        by_name = {j.name: j for j in self.joints}
        for name in self.tree:
            T.add_edge(by_name[name].parent, by_name[name].child, name=name)
        if not nx.has_path(T, start, end):
            return None
        path = nx.shortest_path(T, start, end)
        return [(T.edges[a, b]["name"], 1 if by_name[T.edges[a, b]["name"]].parent == a else -1)
                for a, b in zip(path[:-1], path[1:], strict=False)]

    def cycles(self) -> dict[str, list[tuple[str, int]]]:
        """Fundamental cycle of each chord: ``[(joint, ±1), ...]`` — the joints of the loop
        with +1 where the loop runs parent → child (the cycle law sums their twists)."""
        by_name = {j.name: j for j in self.joints}
        return {c: [(c, 1)] + (self.tree_path(by_name[c].child, by_name[c].parent) or [])
                for c in self.chords}

    def cocycles(self) -> dict[str, list[str]]:
        """Fundamental co-cycle (cut set) of each tree joint: the joints that cross the cut
        obtained by removing it from the tree — their wrenches balance across the cut."""
        by_name = {j.name: j for j in self.joints}
        out = {}
        for name in self.tree:
            T = nx.Graph()
            T.add_nodes_from(self.graph.nodes)
            for other in self.tree:
                if other != name:
                    T.add_edge(by_name[other].parent, by_name[other].child)
            side = nx.node_connected_component(T, by_name[name].child)
            out[name] = [j.name for j in self.joints if (j.parent in side) != (j.child in side)]
        return out
