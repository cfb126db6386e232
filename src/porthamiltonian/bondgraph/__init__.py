"""Bond graphs → explicit port-Hamiltonian models.

:class:`BondGraph` holds the elements and bonds (``graph``); :func:`to_phs`
generates the explicit PHS and :func:`to_descriptor` the descriptor PHS (``generate``,
dependent storages merged by ``merge``); :func:`junction_structure` is the Dirac
structure on the exterior bonds (``dirac_path``);
:func:`draw` draws the graph with its causal strokes (``draw``).  Below them:
``elements`` (the storages' compliance and energy), ``linear_map`` (the solved element
equations and their port-Hamiltonian split), ``domains`` (energy domains: declared,
propagated, the physical names of states and outputs), ``equations``, ``elimination``
and ``causality``.  The ``check`` and ``draw`` commands live in :mod:`porthamiltonian.cli`.

The generators (``to_phs``, ``to_descriptor``, ``junction_structure``) are imported on
first use (PEP 562 ``__getattr__``), so reading a model file's ``bondgraph`` section
(which needs only ``graph`` and ``domains``) loads neither SciPy nor the
Dirac-structure machinery.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .causality import CausalityReport, analyze_causality
from .draw import draw
from .graph import Bond, BondGraph, Element

if TYPE_CHECKING:  # for type checkers and the import graph
    from .dirac_path import junction_structure
    from .flow_drawing import draw_block_diagram, draw_gains
    from .generate import to_descriptor, to_phs
    from .impedance import element_gains, port_admittance, port_impedance
    from .mason_rule import mason, path_gain
    from .signal_flow import block_diagram, block_transfer
    from .simplify import simplify
    from .word import draw_word

#: signal-flow graphs, Mason's rule, impedances (docs/bondgraphs-signal-flow.md): name → module
_LAZY = {"block_diagram": "signal_flow", "block_transfer": "signal_flow", "mason": "mason_rule",
         "path_gain": "mason_rule", "element_gains": "impedance", "port_impedance": "impedance",
         "port_admittance": "impedance", "draw_block_diagram": "flow_drawing",
         "draw_gains": "flow_drawing"}
#: Table A.1 simplification and word bond graphs (docs/bondgraphs-simplify.md)
_LAZY |= {"simplify": "simplify", "draw_word": "word"}

__all__ = ["BondGraph", "Element", "Bond", "to_phs", "to_descriptor", "junction_structure",
           "analyze_causality", "CausalityReport", "draw", "block_diagram", "block_transfer",
           "mason", "path_gain", "element_gains", "port_impedance", "port_admittance",
           "draw_block_diagram", "draw_gains"]
__all__ += ["simplify", "draw_word"]


def __getattr__(name: str) -> Any:
    if name in ("to_phs", "to_descriptor"):
        from . import generate

        return getattr(generate, name)
    if name == "junction_structure":
        from .dirac_path import junction_structure

        return junction_structure
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
