"""Energy and co-energy of storages (Duindam et al. 2009, App. B.2; docs/energy.md).

* :mod:`.legendre_transform` — the Legendre transform, co-energy :math:`E^*(e)` with
  :math:`E + E^* = e^\\top q`, partial transforms, the identity check.
* :mod:`.reciprocity` — Maxwell reciprocity of a law e(q) (symmetric Jacobian) and its
  energy by line integration; the offending pair named when it fails.
* :mod:`.stability` — intrinsic stability (convexity of E), symbolic or sampled.
* :mod:`.thermodynamic` — homogeneous energies, Euler and Gibbs–Duhem, the potentials
  F, H, G; Callen's ideal gas.
* :mod:`.storage_check` — the cheap check every user-written nonlinear storage energy
  of a bond graph or ``phs:`` section goes through (a ModelWarning when not convex at
  rest, an error when undefined at the initial state).

SymPy and NumPy only (layer 1 of docs/design.md); names are imported on first use.
"""

from __future__ import annotations

from .. import lazy

#: each public name and the module that defines it, imported on first use (PEP 562): the
#: bond-graph hook needs storage_check alone.  No module is named like a function
#: (importing it would shadow the function on the package)
_WHERE = {
    "CoEnergy": "legendre_transform", "legendre": "legendre_transform",
    "coenergy": "legendre_transform", "check_legendre_identity": "legendre_transform",
    "effort_symbols": "legendre_transform",
    "Reciprocity": "reciprocity", "maxwell_reciprocity": "reciprocity",
    "energy_from_law": "reciprocity",
    "Stability": "stability", "intrinsic_stability": "stability",
    "is_homogeneous": "thermodynamic", "euler_residual": "thermodynamic",
    "gibbs_duhem_residual": "thermodynamic", "Potentials": "thermodynamic",
    "potentials": "thermodynamic", "ideal_gas_energy": "thermodynamic",
    "check_storage_law": "storage_check", "check_graph_storages": "storage_check",
}

__all__ = sorted(_WHERE)


__getattr__, __dir__ = lazy.exports(__name__, _WHERE, globals())
