"""Lagrange–Dirac systems: tearing, interaction Dirac structures and
interconnection by the Dirac tensor product.

Modules: ``canonical`` (Dirac structures on ``T*Q``: canonical, induced from
constraint one-forms), ``system`` (:class:`LagrangeDiracSystem`, the implicit
Lagrange–d'Alembert–Pontryagin equations, energy and power balance),
``interaction`` (standard ``D_Σ``, magnetic two-forms, the ideal DC motor),
``interconnect`` (``(D_1 ⊕ … ⊕ D_n) ⊠ D_int`` with the clean-intersection check),
``descriptor`` (compilation to the port-Hamiltonian IR, :class:`DescriptorPHS`),
``result`` (simulation output).  See docs/lagrange.md.
"""

from __future__ import annotations

from .canonical import canonical, cotangent_ports, induced
from .interaction import Interaction, dc_motor, interaction, subspace_structure
from .interconnect import InterconnectedSystem, interconnect
from .result import LagrangeResult
from .system import ImplicitEquations, LagrangeDiracSystem

__all__ = [
    "LagrangeDiracSystem",
    "ImplicitEquations",
    "LagrangeResult",
    "Interaction",
    "InterconnectedSystem",
    "interaction",
    "dc_motor",
    "interconnect",
    "canonical",
    "induced",
    "cotangent_ports",
    "subspace_structure",
]
