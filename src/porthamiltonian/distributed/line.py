r"""Transmission line (telegrapher's equations), lossless or lossy.

Energy variables: charge density :math:`Q` (C/m) and flux density :math:`\phi` (Wb/m).
Hamiltonian

.. math:: H = \frac12\int_0^L \Big(\frac{Q^2}{C'(s)} + \frac{\phi^2}{L'(s)}\Big)\,ds

(J).  Co-energy variables: voltage :math:`V = Q/C'` (V) and current
:math:`I = \phi/L'` (A).  Balance laws (Duindam et al. 2009, §4.1):

.. math::
    \partial_t Q = -\partial_s I - G' V,\qquad \partial_t\phi = -\partial_s V - R' I,

with series resistance R′ (Ω/m) and shunt conductance G′ (S/m).  Boundary port
variables: the voltage ``V`` and the current *into* the line at each end,
:math:`I_{left} = I(0)`, :math:`I_{right} = -I(L)`:

.. math:: \dot H = V(0) I(0) - V(L) I(L) - \int_0^L (R' I^2 + G' V^2)\,ds.

Discrete states: charges ``Q[i]`` (C) of the Gauss-point cells and fluxes
``phi[j]`` (Wb) of the nodes.
"""

from __future__ import annotations

from typing import Any

from .boundary import Condition, parse_ends
from .fem import Coef, EffortField, FlowField, Param
from .mesh import check_degree, make_mesh
from .model import DistributedModel
from .partition import assemble

__all__ = ["transmission_line", "LINE_ENDS"]

#: End conditions of the transmission line.
LINE_ENDS = {
    "voltage": (Condition.FORCE,), "port": (Condition.FORCE,),
    "current": (Condition.VELOCITY,), "short": (Condition.FREE,), "open": (Condition.FIXED,),
}


def transmission_line(length: float, L: Coef, C: Coef, R: Coef | None = None,
                      G: Coef | None = None, *, elements: Any = 20, degree: int = 1,
                      left: str = "voltage", right: str = "voltage") -> DistributedModel:
    """A transmission line with per-length L′ (H/m), C′ (F/m), R′ (Ω/m), G′ (S/m).

    Parameters may be numbers or functions of s (m).  Ends: ``"voltage"``/``"port"``
    (input ``V_<end>``, output ``I_<end>``, the current into the line), ``"current"``
    (input ``I_<end>``, output ``V_<end>``), ``"short"`` (V = 0) or ``"open"`` (I = 0).
    ``degree`` k ≥ 1: frequencies converge at order 2k.  Fields: ``"V"``, ``"I"``.
    """
    check_degree(degree, "transmission line")
    mesh = make_mesh(length, elements)
    ends = parse_ends(left, right, LINE_ENDS, "transmission line")
    flow = FlowField("phi", "I", "V", Param(L, "L", "H/m"),
                     None if R is None else Param(R, "R", "Ω/m"))
    eff = EffortField("Q", "V", compliance=Param(C, "C", "F/m"),
                      conductance=None if G is None else Param(G, "G", "S/m"))
    # σ = −1 (∂t Q = −∂s I); the current into the line is σ·n·I
    disc = assemble(mesh, degree, [flow], [eff], ends, sigma=-1.0, signed="flow",
                    name="transmission line")
    variables = {
        "energy": "Q: charge density (C/m); phi: flux density (Wb/m)",
        "coenergy": "V = Q/C' (V); I = phi/L' (A)",
        "boundary": "V (V) and the current into the line I (A) at each end",
        "hamiltonian": "H = ½∫(Q²/C' + phi²/L') ds (J)",
    }
    return DistributedModel(disc, "transmission line", variables)
