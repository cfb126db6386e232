"""porthamiltonian — port-based modeling, simulation, analysis and control.

The public API.  Everything a user imports lives here; modules hold one idea each.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

from .errors import (
    CausalityError,
    ExpressionError,
    ModelError,
    NoExplicitFormError,
    SchemaError,
    SimulationError,
    StructureError,
)

try:
    __version__ = version("porthamiltonian")
except PackageNotFoundError:  # running from a source tree that was not installed
    __version__ = "0.0.0+unknown"

__all__ = [
    "__version__",
    "ModelError",
    "StructureError",
    "ExpressionError",
    "SchemaError",
    "CausalityError",
    "NoExplicitFormError",
    "SimulationError",
]
