"""A multi-domain library of port-Hamiltonian components (issue 5, part 2).

``porthamiltonian.library.<domain>.<Component>(...)``; every component documents its
equations, units and sign conventions.  Domains: :mod:`.electrical`,
:mod:`.mechanical` (translation and rotation), :mod:`.electromechanical`,
:mod:`.hydraulic`, :mod:`.thermal`, :mod:`.chemical`.  See docs/library.md.
"""

from __future__ import annotations

from . import chemical, electrical, electromechanical, hydraulic, mechanical, thermal

__all__ = ["electrical", "mechanical", "electromechanical", "hydraulic", "thermal",
           "chemical"]
