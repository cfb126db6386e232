"""Bond graphs → explicit port-Hamiltonian models.

:class:`BondGraph` holds the elements and bonds (``graph``); :func:`to_phs`
generates the explicit PHS (``generate``);
:func:`draw` draws the graph with its causal strokes (``draw``).
"""

from .causality import CausalityReport, analyze_causality
from .draw import draw
from .generate import to_phs
from .graph import Bond, BondGraph, Element

__all__ = ["BondGraph", "Element", "Bond", "to_phs", "analyze_causality", "CausalityReport",
           "draw"]
