"""Thermodynamics and chemistry as port-Hamiltonian systems.

Reaction networks (species with chemical potentials, mass-action reactions written in
stoichiometric notation, conservation laws, detailed balance), irreversible
port-Hamiltonian systems (entropy as a state: the first law exact, the second law by
construction), property models (ideal gas, incompressible liquid, ideal mixture) and
transport (diffusion, convective ports).  Every model compiles to a ``PHS``.
"""

__all__: list[str] = []
