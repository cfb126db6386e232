"""Bond graphs → explicit port-Hamiltonian models.

:class:`BondGraph` holds the elements and bonds (``graph``); :func:`to_phs`
generates the explicit PHS (``generate``).
"""

from .causality import CausalityReport, analyze_causality
from .generate import to_phs
from .graph import Bond, BondGraph, Element

__all__ = ["BondGraph", "Element", "Bond", "to_phs", "analyze_causality", "CausalityReport"]
