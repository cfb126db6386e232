"""A multi-domain library of port-Hamiltonian components (issue 5, part 2).

``porthamiltonian.library.<domain>.<Component>(...)``; every component documents its
equations, units and sign conventions.  Domains: :mod:`.electrical`,
:mod:`.mechanical` (translation and rotation), :mod:`.electromechanical`,
:mod:`.hydraulic`, :mod:`.thermal`, :mod:`.chemical`.  See docs/library.md.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["electrical", "mechanical", "electromechanical", "hydraulic", "thermal",
           "chemical"]


def __getattr__(name: str) -> ModuleType:  # noqa: N807 - PEP 562
    """A domain module, imported when first named: a network of electrical parts does not
    load the thermal domain and, with it, the distributed-parameter package."""
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return importlib.import_module(f".{name}", __name__)


def __dir__() -> list[str]:  # noqa: N807
    return sorted(set(globals()) | set(__all__))
