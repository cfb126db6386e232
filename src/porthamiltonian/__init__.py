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

# Subpackages with their own namespace (``porthamiltonian.distributed.wave(...)``) are
# imported on first attribute access, so ``import porthamiltonian`` stays fast.
_SUBPACKAGES = frozenset(
    {"analysis", "bondgraph", "control", "distributed", "io", "lagrange",
     "library", "mechanics", "network", "simulate"}
)


def __getattr__(name: str):
    if name in _SUBPACKAGES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
