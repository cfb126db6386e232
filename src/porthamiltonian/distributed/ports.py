r"""The boundary port matrices of a partitioned-FEM discretization.

A *natural* port (an imposed effort, :class:`~.boundary.Condition` ``FORCE``) enters
the flow equation of its boundary node: a unit entry of ``G``; its output is the
node's flow.  An *essential* port (an imposed flow, ``VELOCITY``) removes the node; the
imposed value enters the effort equations through the node's column of ``D`` (in
``G``) and the flow equations through its column of the viscous ``R`` (in ``P``, with
the node's own entry in ``S``), so that ``W = [[R, P], [Pᵀ, S]]`` is the viscous
matrix of the full node set — positive semidefinite — and the output is the effort
the source exerts on the body.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sps

from .boundary import END_NAMES, Condition

__all__ = ["EndPorts", "classify_ends"]


@dataclass
class EndPorts:
    """Boundary dofs by kind, with the input index of each port (None: no port)."""

    removed: list[tuple[int, int | None]] = field(default_factory=list)
    natural: list[tuple[int, int | None]] = field(default_factory=list)
    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)

    def kept(self, size: int) -> np.ndarray:
        """The flow dofs that stay states (all but the removed boundary nodes)."""
        mask = np.ones(size, dtype=bool)
        mask[[d for d, _ in self.removed]] = False
        return np.flatnonzero(mask)

    def matrices(self, Dst: Any, Rpp: Any, kept: np.ndarray, signs: dict[str, float],
                 Np: int) -> tuple[sps.csr_array, sps.csr_array, sps.csr_array]:
        """``(G, P, S)`` for the state ``x = (x_q, x_p[kept])`` (module docstring)."""
        nq = Dst.shape[0]
        n, m = nq + kept.size, len(self.inputs)
        position = np.full(Rpp.shape[0], -1)
        position[kept] = np.arange(kept.size)

        def sign(dof: int) -> float:
            return signs["left" if dof % Np == 0 else "right"]

        ports = sorted((k, dof, ess) for ess, group in ((False, self.natural),
                                                         (True, self.removed))
                       for dof, k in group if k is not None)
        Rk = Rpp[kept]
        G_cols, P_cols = [], []
        for _, dof, ess in ports:
            if ess:
                g = sps.vstack([Dst[:, [dof]], sps.csr_array((kept.size, 1))])
                p = sps.vstack([sps.csr_array((nq, 1)), Rk[:, [dof]]])
            else:
                g = sps.csr_array(([1.0], ([nq + position[dof]], [0])), shape=(n, 1))
                p = sps.csr_array((n, 1))
            G_cols.append(sign(dof) * g)
            P_cols.append(sign(dof) * p)
        G = sps.csr_array(sps.hstack(G_cols)) if m else sps.csr_array((n, 0))
        P = sps.csr_array(sps.hstack(P_cols)) if m else sps.csr_array((n, 0))
        S = np.zeros((m, m))
        essential = [(k, dof) for k, dof, ess in ports if ess]
        for k, dof in essential:
            for k2, dof2 in essential:
                S[k, k2] = sign(dof) * sign(dof2) * Rpp[[dof]][:, [dof2]].toarray()[0, 0]
        return G, P, sps.csr_array(S)


def classify_ends(ends: dict[str, tuple[Condition, ...]], flows: Sequence[Any],
                  Np: int) -> EndPorts:
    """Sort the boundary dofs (flow field ``b``: ``b·Np`` left, ``b·Np + Np − 1`` right).

    Port names: a natural port takes ``<effort>_<end>`` and returns ``<flow>_<end>``,
    an essential one the other way round (``F_left`` in, ``v_left`` out…).
    """
    out = EndPorts()
    for end in END_NAMES:
        for b, cond in enumerate(ends[end]):
            dof = b * Np + (0 if end == "left" else Np - 1)
            port = len(out.inputs) if cond.port else None
            if cond.port:
                fl = flows[b]
                into, back = (fl.flow, fl.effort) if cond.essential else (fl.effort, fl.flow)
                out.inputs.append(f"{into}_{end}")
                out.outputs.append(f"{back}_{end}")
            (out.removed if cond.essential else out.natural).append((dof, port))
    return out
