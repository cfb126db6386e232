"""Chemical reaction networks as port-Hamiltonian systems (docs/thermo-chemistry.md).

Modules: ``laws`` (chemical potentials, Gibbs energy, mass-action flux, rate-constant
conversions; NumPy and SymPy), ``parse`` (stoichiometric notation), ``stoichiometry``
(N, conservation laws, cycles), ``consistency`` (Wegscheider), ``network``
(:class:`ReactionNetwork` → PHS).  This ``__init__`` imports nothing, so bond-graph
elements can import ``laws`` alone.
"""
