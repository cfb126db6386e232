r"""Mixed boundary causality without approximation: a primal and a dual part joined.

When one end imposes an effort (force, voltage) and the other a flow (velocity,
current), no single partition has both as natural inputs (:mod:`.partition`).  The
interval is then cut at its middle element boundary: the part at the effort end is
discretized in the primal partition, the part at the flow end in the dual one, and the
two meet at the cut through their natural ports — the primal part takes the effort
there and returns the flow, the dual part the other way round — joined by the
power-conserving :func:`~porthamiltonian.feedback`.  Every node keeps its mass, so the
joined system converges like a single partition, and its power balance is exact.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..interconnection import feedback
from .boundary import Condition
from .fem import Discretization
from .mesh import Mesh

__all__ = ["SplitDiscretization", "split_assemble"]


class SplitDiscretization:
    """Two discretizations of adjacent intervals joined at the cut (module docstring)."""

    partition = "split"

    def __init__(self, left: Discretization, right: Discretization, system: Any,
                 positions: tuple[np.ndarray, np.ndarray],
                 conditions: dict[str, tuple[Condition, ...]]) -> None:
        self.parts = (left, right)
        self.system = system
        self.positions = positions  # where each part's states sit in the joined state
        self.conditions = conditions
        self.mesh = Mesh(np.concatenate([left.mesh.nodes, right.mesh.nodes[1:]]))
        self.degree = left.degree

    @property
    def momentum_states(self) -> np.ndarray:
        return np.sort(np.concatenate([pos[d.momentum_states]
                                       for d, pos in zip(self.parts, self.positions,
                                                         strict=True)]))

    def field_names(self) -> list[str]:
        return self.parts[0].field_names()

    def evaluate(self, name: str, x: np.ndarray, s: np.ndarray,
                 u: np.ndarray | None = None) -> np.ndarray | None:
        cut = self.parts[0].mesh.nodes[-1]
        out = np.empty(s.size)
        for part, pos, sel in zip(self.parts, self.positions, (s <= cut, s > cut), strict=True):
            if np.any(sel):
                vals = part.evaluate(name, x[pos], s[sel])
                if vals is None:
                    return None
                out[sel] = vals
        return out

    def strain_quadrature(self, pair: int, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Both parts' quadrature (:meth:`Discretization.strain_quadrature`), element-wise.

        The primal part has ``k`` Gauss points per element, the dual one ``k + 1`` GLL
        points: the shorter rows are padded with zero-weight points.
        """
        x = np.asarray(x, dtype=float)
        got = [d.strain_quadrature(pair, x[..., pos])
               for d, pos in zip(self.parts, self.positions, strict=True)]
        width = max(p.shape[1] for p, _ in got)
        pts, vals = [], []
        for p, v in got:
            extra = width - p.shape[1]
            pts.append(np.pad(p, ((0, 0), (0, extra)), mode="edge"))
            vals.append(np.pad(v, [(0, 0)] * (v.ndim - 1) + [(0, extra)]))
        return np.concatenate(pts), np.concatenate(vals, axis=-2)


def split_assemble(mesh: Mesh, ends: dict[str, tuple[Condition, ...]], effort_end: str,
                   build: Callable[[Mesh, dict, str], Discretization], signed: str,
                   name: str) -> SplitDiscretization:
    """Cut ``mesh`` in two; ``build(mesh, ends, partition)`` discretizes one part.

    ``effort_end`` is the end whose ports impose an effort: its part is primal.
    """
    mid = mesh.elements // 2
    meshes = {"left": Mesh(mesh.nodes[:mid + 1]), "right": Mesh(mesh.nodes[mid:])}
    nf = len(ends["left"])
    flow_end = "right" if effort_end == "left" else "left"
    # the primal part takes the effort at the cut, the dual part the flow
    primal_ends = {effort_end: ends[effort_end], flow_end: (Condition.FORCE,) * nf}
    dual_ends = {flow_end: ends[flow_end], effort_end: (Condition.VELOCITY,) * nf}
    primal = build(meshes[effort_end], primal_ends, "primal")
    dual = build(meshes[flow_end], dual_ends, "dual")
    tag = {id(primal): effort_end, id(dual): flow_end}
    systems = {}
    for d in (primal, dual):
        systems[id(d)] = d.system.rename(
            states={s: f"{tag[id(d)]}.{s}" for s in d.system.states})
    cut_p = [i for i in primal.system.inputs if i.endswith("_" + flow_end)]
    cut_d = [i for i in dual.system.inputs if i.endswith("_" + effort_end)]
    # power flows through the cut: u_p y_p + u_d y_d = 0.  Mechanics (signed efforts):
    # F_p = −F_d, v_d = v_p, i.e. u_p = −y_d, u_d = y_p; a line (signed flows):
    # V_p = V_d, I_d = −I_p, i.e. u_d = −y_p, u_p = y_d
    first, second = (primal, dual) if signed == "effort" else (dual, primal)
    pairs = list(zip(cut_p, cut_d, strict=True)) if signed == "effort" else \
        list(zip(cut_d, cut_p, strict=True))
    joined = feedback(systems[id(first)], systems[id(second)], pairs)
    n1 = first.system.n_states
    pos = {id(first): np.arange(n1), id(second): n1 + np.arange(second.system.n_states)}
    left, right = (primal, dual) if effort_end == "left" else (dual, primal)
    joined.name = name
    return SplitDiscretization(left, right, joined, (pos[id(left)], pos[id(right)]),
                               dict(ends))
