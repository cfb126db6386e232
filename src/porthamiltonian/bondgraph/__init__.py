"""Bond graphs → explicit port-Hamiltonian models.

:class:`BondGraph` holds the elements and bonds (``graph``); :func:`to_phs`
generates the explicit PHS and :func:`to_descriptor` the descriptor PHS (``generate``,
dependent storages merged by ``merge``); :func:`junction_structure` is the Dirac
structure on the exterior bonds (``dirac_path``);
:func:`draw` draws the graph with its causal strokes (``draw``).  Below them:
``elements`` (the storages' compliance and energy), ``linear_map`` (the solved element
equations and their port-Hamiltonian split), ``equations``, ``elimination`` and
``causality``.  The ``check`` and ``draw`` commands live in :mod:`porthamiltonian.cli`.
"""

from .causality import CausalityReport, analyze_causality
from .dirac_path import junction_structure
from .draw import draw
from .generate import to_descriptor, to_phs
from .graph import Bond, BondGraph, Element

__all__ = ["BondGraph", "Element", "Bond", "to_phs", "to_descriptor", "junction_structure",
           "analyze_causality", "CausalityReport", "draw"]
