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

from .cstr import cstr, cstr_balances
from .heat_entropy import heat_entropy
from .irreversible import Coupling, IrreversiblePHS, irreversible_phs
from .irreversible_models import gas_piston, two_bodies
from .properties import ideal_gas, ideal_gas_mixture, ideal_solution, incompressible_liquid
from .reactions.network import ReactionNetwork
from .reactions.parse import parse_reaction
from .reactions.stoichiometry import conservation_laws
from .transport import compartments, diffusion_line, stirred_tank

__all__ = ["Coupling", "IrreversiblePHS", "ReactionNetwork", "compartments",
           "conservation_laws", "cstr", "cstr_balances", "diffusion_line", "gas_piston",
           "heat_entropy", "ideal_gas", "ideal_gas_mixture", "ideal_solution",
           "incompressible_liquid", "irreversible_phs", "parse_reaction", "stirred_tank",
           "two_bodies"]
