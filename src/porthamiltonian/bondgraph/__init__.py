"""Bond graphs → explicit port-Hamiltonian models.

:class:`BondGraph` holds the elements and bonds (``graph``); :func:`to_phs`
generates the explicit PHS (``generate``).
"""

from .graph import Bond, BondGraph, Element

__all__ = ["BondGraph", "Element", "Bond"]
