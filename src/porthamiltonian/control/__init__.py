"""Passivity-based control of port-Hamiltonian systems (see ``docs/control.md``).

- :func:`damping_injection`, :func:`output_feedback` — ``u = −K y + v`` on chosen ports;
- :func:`casimirs` — conserved quantities independent of the Hamiltonian;
- :func:`interconnect_controller`, :func:`energy_shaping` — control by interconnection
  and energy shaping with Casimirs;
- :func:`ida_pbc`, :func:`solve_matching` — interconnection and damping assignment.
"""

from __future__ import annotations

from .casimirs import Casimirs, casimirs
from .cbi import ShapedEnergy, energy_shaping, interconnect_controller
from .damping import damping_injection, output_feedback
from .ida_pbc import IdaPbc, ida_pbc, solve_matching
from .matching import MatchingSolution

__all__ = [
    "damping_injection",
    "output_feedback",
    "casimirs",
    "Casimirs",
    "interconnect_controller",
    "energy_shaping",
    "ShapedEnergy",
    "ida_pbc",
    "solve_matching",
    "IdaPbc",
    "MatchingSolution",
]
