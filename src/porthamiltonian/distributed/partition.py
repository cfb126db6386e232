r"""Which field goes in H¹: the primal or the dual partition, chosen from the ends.

The balance laws :math:`\partial_t\alpha_q = L e_p`, :math:`\partial_t\alpha_p = -L^* e_q`
(:mod:`.fem`) can be discretized two ways:

* **primal** — :math:`e_p` (velocity, current) continuous: the effort at an end is a
  natural input (force ports), an imposed flow removes the boundary node;
* **dual** — :math:`e_q` (force, voltage) continuous, i.e. the same method applied to
  :math:`\partial_t\alpha_p = L' e_q`, :math:`\partial_t\alpha_q = -L'^* e_p` with
  :math:`L' = -L^* = \sigma\partial_s - A_0^\top`: the flow at an end is a natural
  input (velocity ports).

A natural port is exact in the sense that the whole mass (compliance) of the domain
stays in the model.  An *imposed* non-zero flow in the primal partition (or effort in
the dual) removes the boundary node, whose inertia (compliance) is then carried by
whatever imposes the value: the port output misses the term ``m_end · du/dt`` — an
O(h) inconsistency, with the power balance still exact.  So :func:`assemble` picks
the dual partition when every open port imposes a flow, joins a primal and a dual
part (:mod:`.split`) when one end imposes an effort and the other a flow, and the
primal partition otherwise.  Node removal is left only for an end that imposes an
effort on one field and a flow on another, and for Kelvin–Voigt damping (which needs
a continuous velocity).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .boundary import Condition
from .fem import Discretization, EffortField, FlowField, discretize
from .mesh import Mesh
from .split import SplitDiscretization, split_assemble

__all__ = ["assemble"]

_SWAP = {Condition.FREE: Condition.FIXED, Condition.FIXED: Condition.FREE,
         Condition.FORCE: Condition.VELOCITY, Condition.VELOCITY: Condition.FORCE}


def assemble(mesh: Mesh, degree: int, flows: Sequence[FlowField],
             efforts: Sequence[EffortField], ends: dict[str, tuple[Condition, ...]], *,
             sigma: float = 1.0, coupling: np.ndarray | None = None, signed: str = "effort",
             name: str = "", partition: str = "auto") -> Discretization | SplitDiscretization:
    """Discretize with the partition that makes the open ports natural (module docstring).

    ``signed`` says which port variable carries the outward normal in the model's
    convention: ``"effort"`` (mechanics: force on the body) or ``"flow"`` (a line:
    current into it).  ``partition`` forces ``"primal"``, ``"dual"`` or ``"split"``.
    """
    effort_ends = [e for e, cs in ends.items() if Condition.FORCE in cs]
    flow_ends = [e for e, cs in ends.items() if Condition.VELOCITY in cs]
    dual_possible = all(f.viscosity is None and f.state is not None for f in efforts)
    if partition == "auto":
        partition = "primal"
        if flow_ends and dual_possible:
            if not effort_ends:
                partition = "dual"
            elif len(effort_ends) == 1 and effort_ends != flow_ends and mesh.elements > 1:
                partition = "split"
    if partition == "split":
        def build(part_mesh: Mesh, part_ends: dict, part: str) -> Discretization:
            return assemble(part_mesh, degree, flows, efforts, part_ends, sigma=sigma,
                            coupling=coupling, signed=signed, name=name, partition=part)
        return split_assemble(mesh, ends, effort_ends[0], build, signed, name)
    sn = {"left": -sigma, "right": sigma}  # σ·n: the sign of the natural input
    if partition == "primal":
        flip = {} if signed == "effort" else {e: -1.0 for e, v in sn.items() if v < 0}
        disc = discretize(mesh, degree, flows, efforts, ends, sigma=sigma, coupling=coupling,
                          port_sign=flip, name=name)
        disc.partition = "primal"
        return disc
    A0 = np.zeros((len(efforts), len(flows))) if coupling is None else np.asarray(coupling)
    d_flows = [FlowField(e.state or "", e.effort, f.flow, e.compliance, e.conductance)
               for e, f in zip(efforts, flows, strict=True)]
    d_efforts = [EffortField(f.state, f.flow, compliance=f.density, conductance=f.damping)
                 for f in flows]
    d_ends = {e: tuple(_SWAP[c] for c in cs) for e, cs in ends.items()}
    flip = {} if signed == "flow" else {e: -1.0 for e, v in sn.items() if v < 0}
    disc = discretize(mesh, degree, d_flows, d_efforts, d_ends, sigma=sigma, coupling=-A0.T,
                      port_sign=flip, name=name)
    disc.partition = "dual"
    disc.conditions = dict(ends)  # report the physical conditions, not the swapped ones
    return disc


