"""Lagrange–Dirac systems: tearing, interaction Dirac structures and
interconnection by the Dirac tensor product.

Modules: ``canonical`` (Dirac structures on ``T*Q``: canonical, induced from
constraint one-forms), ``system`` (:class:`LagrangeDiracSystem`, the implicit
Lagrange–d'Alembert–Pontryagin equations, energy and power balance),
``interaction`` (standard ``D_Σ``, magnetic two-forms, the ideal DC motor),
``interconnect`` (``(D_1 ⊕ … ⊕ D_n) ⊠ D_int`` with the clean-intersection check),
``descriptor`` (compilation to the port-Hamiltonian IR, :class:`DescriptorPHS`),
``result`` (simulation output), ``variational`` (Hamilton–Pontryagin and LDAP action
functionals, their stationarity conditions), ``discrete`` and ``discrete_dirac`` (the
discrete Dirac variational integrator).  See docs/lagrange.md.
"""

from __future__ import annotations

from .canonical import canonical, cotangent_ports, induced
from .discrete import DiscreteDiracStep, discrete_lagrangian
from .discrete_dirac import DiscreteDiracResult, discrete_dirac
from .interaction import Interaction, dc_motor, interaction, subspace_structure
from .interconnect import InterconnectedSystem, interconnect
from .result import LagrangeResult
from .system import ImplicitEquations, LagrangeDiracSystem
from .variational import (
    ActionFunctional,
    VariationalCheck,
    check_variational,
    compare_equations,
    hamilton_pontryagin,
    lagrange_dalembert_pontryagin,
    stationarity,
)

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
    "ActionFunctional",
    "VariationalCheck",
    "hamilton_pontryagin",
    "lagrange_dalembert_pontryagin",
    "stationarity",
    "compare_equations",
    "check_variational",
    "discrete_lagrangian",
    "DiscreteDiracStep",
    "DiscreteDiracResult",
    "discrete_dirac",
]
