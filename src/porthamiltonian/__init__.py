"""porthamiltonian — port-based modeling, simulation, analysis and control.

The public API.  Everything a user imports lives here; modules hold one idea each.

Every name is imported on first use (PEP 562 ``__getattr__``), so ``import
porthamiltonian`` — and with it the command line's ``--help`` — loads neither SymPy nor
SciPy nor Matplotlib; ``from porthamiltonian import PHS`` and ``porthamiltonian.PHS``
work as if the names were imported here (docs/cli.md, "Start-up").
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the names of __all__, for type checkers and the import graph
    from typing import Any

    from .bondgraph import BondGraph
    from .compiled import PowerBalance
    from .descriptor import DescriptorPHS
    from .dirac import DiracStructure
    from .ensemble import fit, sweep
    from .errors import (
        CausalityError,
        ExpressionError,
        ModelError,
        ModelWarning,
        NoExplicitFormError,
        SchemaError,
        SimulationError,
        StructureError,
    )
    from .export import export_fmu
    from .interconnection import feedback, interconnect, parallel
    from .linear_ph import LinearPH
    from .phs import PHS
    from .reduction import reduce
    from .simulate import SimulationResult, simulate

# Subpackages with their own namespace (``porthamiltonian.distributed.wave(...)``) are
# imported on first attribute access too.
_SUBPACKAGES = frozenset(
    {"analysis", "bondgraph", "control", "distributed", "energy", "ensemble", "export", "io",
     "lagrange", "library", "mechanics", "network", "reduction", "simulate", "thermo"}
)

_ERRORS = frozenset({"ModelError", "StructureError", "ExpressionError", "SchemaError",
                     "CausalityError", "NoExplicitFormError", "SimulationError",
                     "ModelWarning"})


def _load(name: str) -> Any:
    """The public name ``name``, imported now (a normal import: a layering edge)."""
    if name in _ERRORS:
        from . import errors

        return getattr(errors, name)
    if name == "PHS":
        from .phs import PHS

        return PHS
    if name == "BondGraph":
        from .bondgraph import BondGraph

        return BondGraph
    if name == "DescriptorPHS":
        from .descriptor import DescriptorPHS

        return DescriptorPHS
    if name == "DiracStructure":
        from .dirac import DiracStructure

        return DiracStructure
    if name == "PowerBalance":
        from .compiled import PowerBalance

        return PowerBalance
    if name in ("feedback", "interconnect", "parallel"):
        from . import interconnection

        return getattr(interconnection, name)
    if name in ("sweep", "fit"):
        from . import ensemble

        return getattr(ensemble, name)
    if name == "export_fmu":
        from .export import export_fmu

        return export_fmu
    if name == "reduce":
        from .reduction import reduce

        return reduce
    if name == "LinearPH":
        from .linear_ph import LinearPH

        return LinearPH
    if name == "SimulationResult":
        from .simulate import SimulationResult

        return SimulationResult
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            return version("porthamiltonian")
        except PackageNotFoundError:  # running from a source tree that was not installed
            return "0.0.0+unknown"
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __getattr__(name: str) -> Any:
    if name in _SUBPACKAGES:
        import importlib

        return importlib.import_module(f"{__name__}.{name}")
    value = _load(name)
    globals()[name] = value  # once: later look-ups do not come here
    return value


def __dir__() -> list[str]:
    """The public names and the subpackages, loaded or not (not the helpers here)."""
    here = {n for n in globals() if n.startswith("__") or not n.startswith("_")}
    return sorted((here - {"TYPE_CHECKING", "annotations"}) | set(__all__) | _SUBPACKAGES)



__all__ = [
    "__version__",
    "PHS",
    "BondGraph",
    "simulate",
    "SimulationResult",
    "sweep",
    "fit",
    "export_fmu",
    "reduce",
    "LinearPH",
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
    "ModelWarning",
]
