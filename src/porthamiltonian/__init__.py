"""porthamiltonian — port-based modeling, simulation, analysis and control.

The public API.  Everything a user imports lives here; modules hold one idea each.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from .bondgraph import BondGraph
from .compiled import PowerBalance
from .descriptor import DescriptorPHS
from .dirac import DiracStructure
from .errors import (
    CausalityError,
    ExpressionError,
    ModelError,
    NoExplicitFormError,
    SchemaError,
    SimulationError,
    StructureError,
)
from .interconnection import feedback, interconnect, parallel
from .phs import PHS
from .simulate import SimulationResult, simulate

try:
    __version__ = version("porthamiltonian")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0.0.0+unknown"

__all__ = [
    "__version__",
    "PHS",
    "BondGraph",
    "simulate",
    "SimulationResult",
    "DescriptorPHS",
    "DiracStructure",
    "PowerBalance",
    "feedback",
    "interconnect",
    "parallel",
    "ModelError",
    "StructureError",
    "ExpressionError",
    "SchemaError",
    "CausalityError",
    "NoExplicitFormError",
    "SimulationError",
]
