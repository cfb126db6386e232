"""Thermodynamics and chemistry as port-Hamiltonian systems (docs/thermo-chemistry.md).

* Reaction networks (:mod:`.reactions`): species with ideal chemical potentials,
  mass-action reactions in stoichiometric notation, conservation laws as Casimirs,
  Wegscheider's condition; :class:`ReactionNetwork` → PHS.
* Irreversible port-Hamiltonian systems (:mod:`.irreversible`): entropy as a state, the
  first law exact and the second by construction; two bodies in thermal contact, the
  gas–piston–gas system, a non-isothermal CSTR, the heat equation in entropy form.
* Property models (:mod:`.properties`): ideal gas, incompressible liquid, ideal
  mixtures, their Legendre potentials and thermodynamic identities.
* Transport (:mod:`.transport`): diffusion between compartments and in 1-D, an open
  stirred tank with convective streams.
"""

from __future__ import annotations

from .. import lazy

#: each public name and the module that defines it, imported on first use (PEP 562): the
#: bond-graph elements import ``thermo.reactions.laws`` alone, and must not pull in the
#: irreversible, property and transport models (and the FEM behind them) with it
_WHERE = {
    "cstr": "cstr", "cstr_balances": "cstr", "heat_entropy": "heat_entropy",
    "Coupling": "irreversible", "IrreversiblePHS": "irreversible",
    "irreversible_phs": "irreversible", "gas_piston": "irreversible_models",
    "two_bodies": "irreversible_models", "ideal_gas": "properties",
    "ideal_gas_mixture": "properties", "ideal_solution": "properties",
    "incompressible_liquid": "properties", "ReactionNetwork": "reactions.network",
    "parse_reaction": "reactions.parse", "conservation_laws": "reactions.stoichiometry",
    "compartments": "transport", "diffusion_line": "transport", "stirred_tank": "transport",
}

__all__ = sorted(_WHERE)


__getattr__, __dir__ = lazy.exports(__name__, _WHERE, globals())
