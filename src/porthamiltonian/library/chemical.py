r"""A stirred tank reactor with one exothermic reaction A → B, in irreversible
port-Hamiltonian form (Ramirez, Maschke & Sbarbaro, Chem. Eng. Sci. 89 (2013)
223–234; Duindam et al. 2009, §3.4).

The reactor content is an ideal mixture at constant volume with the same molar heat
capacity ``cv`` for A and B.  States: the amounts ``N_A``, ``N_B`` (mol) and the
entropy ``S`` (J/K).  With :math:`N = N_A + N_B` and

.. math::
    \sigma = \frac{S - \sum_i N_i\,(s_i - R_g \ln(N_i/N_\mathrm{ref}))}{c_v N},\qquad
    T = T_0 e^{\sigma},\qquad
    U = \sum_i N_i u_i + c_v N T_0 (e^{\sigma} - 1),

(the entropy of the ideal mixture solved for the temperature), the Hamiltonian is
:math:`H = U(N_A, N_B, S)` with :math:`\partial U/\partial S = T`,
:math:`\partial U/\partial N_i = \mu_i`.  The reaction rate

.. math::  r = k_0\, e^{-E_a/(R_g T)}\, N_A\,\big(1 - e^{-\mathcal A/(R_g T)}\big),
    \qquad \mathcal A = \mu_A - \mu_B,

has the sign of the affinity :math:`\mathcal A` (mass action consistent with the
thermodynamics), and the closed reactor is

.. math::
    \dot x = \frac{r}{T}\begin{bmatrix}0 & 0 & -1\\ 0 & 0 & 1\\ 1 & -1 & 0\end{bmatrix}
    \nabla H + \begin{bmatrix}0\\0\\1\end{bmatrix} \dot S_\mathrm{wall}:

:math:`\dot N_A = -r`, :math:`\dot N_B = r`, :math:`\dot S = r\mathcal A/T + \dot
S_\mathrm{wall}` — energy conserved by the skew structure, entropy produced at the
rate :math:`r\mathcal A/T \ge 0`.  Exothermic: ``uA > uB`` (the reaction energy
``uA − uB`` per mole becomes heat).  Port ``wall`` (thermal) receives the entropy flow
through the wall (connect a :class:`~porthamiltonian.library.thermal.HeatConduction`
to a coolant) and returns ``T``.

Feed and outflow are convective (not power) ports and are not modelled: this is the
stirred tank operated in batch, the setting in which the cited paper states the
thermodynamic properties checked here.

Reaction networks from parts
----------------------------
:class:`Species`, :class:`Reaction` and :class:`Stoichiometry` are the Ce, Re and TF
elements of a chemical bond graph (docs/bondgraphs-chemical.md) as network components,
so a reaction network is drawn in a ``network:`` section like a circuit: a species'
port joins the reactions that use it at a 0-junction (one potential, the molar flows
sum), a complex of several species is a 1-junction (one reaction flux, the affinities
sum), and a coefficient ν is a :class:`Stoichiometry` between the species and the
complex.  Isothermal: the Hamiltonian is the Gibbs energy, the resistive structure the
reactions' log-mean conductances (:mod:`porthamiltonian.bondgraph.reactions`).
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ..errors import ModelError
from ..network.component import Component, Context, Law
from ..network.ports import Port
from ..special import reaction_conductance
from ..thermo.reactions.laws import gibbs_energy_sym, gibbs_energy_x_sym
from . import _elements as el

__all__ = ["CSTR", "Species", "Mixture", "Reaction", "Stoichiometry"]

CH = "chemical"


class Species(Component):
    r"""An ideal species in a well-mixed volume: the Ce element.

    State ``n`` (amount, mol), energy (J) and effort, the chemical potential (J/mol)

    .. math::  H = n\Big(\mu^\circ + RT\big(\ln\tfrac{n}{V c^\circ} - 1\big)\Big),
        \qquad \mu = \mu^\circ + RT\ln\tfrac{n}{V c^\circ}

    (:func:`porthamiltonian.thermo.reactions.laws.gibbs_energy_sym`).  Give ``mu0``
    (J/mol) or BondGraphTools' ``K`` (:math:`\mu = RT\ln(K n)`, i.e.
    :math:`\mu^\circ = RT\ln(K V c^\circ)`), and ``RT`` (J/mol); ``V`` (m³) and
    ``c0`` (mol/m³) default to 1.  Port ``p`` (chemical) receives the molar flow into
    the volume (mol/s) and returns μ.  Defined for ``n > 0``.
    """

    nonlinear = True

    def __init__(self, mu0: Any = None, K: Any = None, RT: Any = None, V: Any = 1.0,
                 c0: Any = 1.0) -> None:
        if (mu0 is None) == (K is None):
            raise ModelError("Species: give exactly one of mu0 (standard chemical "
                             "potential, J/mol) or K (mu = RT ln(K n))")
        for key, v in (("K", K), ("RT", RT), ("V", V), ("c0", c0)):
            el.positive(key, v, "Species")
        given = {"mu0": mu0} if K is None else {"K": K}
        super().__init__([Port("p", CH, "flow")], RT=RT, V=V, c0=c0, **given)

    def law(self, c: Context) -> Law:
        n = c.x("n")
        mu0 = c.mu0 if "mu0" in self.parameters else c.RT * sp.log(c.K * c.V * c.c0)
        H = gibbs_energy_sym([n], [mu0], c.RT, c.V, c.c0)
        return Law(["n"], ["p"], G=[[1]], hamiltonian=H, storages={"n": ("C", CH)})


class Mixture(Component):
    r"""An ideal mixture of the species ``species``: one multiport storage (a C field).

    States ``n_<X>`` (mol) for each species X; energy (J) and efforts (J/mol) on the
    mole-fraction basis

    .. math::  H = \sum_i n_i\big(\mu_i^\circ + RT\ln x_i\big), \qquad
        \mu_i = \partial H/\partial n_i = \mu_i^\circ + RT\ln x_i,
        \qquad x_i = n_i \big/ \textstyle\sum_j n_j

    (:func:`porthamiltonian.thermo.reactions.laws.gibbs_energy_x_sym`;
    :math:`\sum_j n_j\,\partial\ln x_j/\partial n_i = 0`).  Each potential depends on
    every amount, so the mixture is one component rather than one :class:`Species` per
    species (a bond graph's Ce is a one-port; docs/bondgraphs-chemical.md).  ``mu0``
    (J/mol): one value per species, in order, or ``{species: value}``; ``RT`` (J/mol).
    Port ``p_<X>`` (chemical) receives the molar flow of X into the mixture (mol/s) and
    returns :math:`\mu_X`.  Defined for positive amounts.
    """

    nonlinear = True

    def __init__(self, species: Any = None, mu0: Any = None, RT: Any = None) -> None:
        names = [str(s) for s in (species or [])]
        if len(names) < 2 or len(set(names)) != len(names):
            raise ModelError(f"Mixture: species {names}: give two or more distinct names")
        if isinstance(mu0, dict):
            unknown = sorted(set(map(str, mu0)) - set(names))
            if unknown:
                raise ModelError(f"Mixture: mu0 of {', '.join(unknown)}, not among the "
                                 f"species {', '.join(names)}")
            mu0 = [mu0.get(s, 0.0) for s in names]
        mu0 = [0.0] * len(names) if mu0 is None else list(mu0)
        if len(mu0) != len(names):
            raise ModelError(f"Mixture: {len(mu0)} values of mu0 for {len(names)} species")
        el.positive("RT", RT, "Mixture")
        self.species = names
        super().__init__([Port(f"p_{s}", CH, "flow") for s in names], RT=RT,
                         **{f"mu0_{s}": v for s, v in zip(names, mu0, strict=True)})

    def law(self, c: Context) -> Law:
        n = [c.x(f"n_{s}") for s in self.species]
        mu0 = [getattr(c, f"mu0_{s}") for s in self.species]
        k = len(n)
        return Law([f"n_{s}" for s in self.species], [f"p_{s}" for s in self.species],
                   G=sp.eye(k).tolist(), hamiltonian=gibbs_energy_x_sym(n, mu0, c.RT),
                   storages={f"n_{s}": ("C", CH) for s in self.species})


class Reaction(Component):
    r"""A mass-action reaction: the Re element, a resistive two-port.

    Port ``f`` (in) receives the forward affinity :math:`A^f` (J/mol) from the
    reactants, port ``b`` (out) the backward affinity :math:`A^b` from the products;
    the flux (mol/s)

    .. math::  v = \kappa\big(e^{A^f/RT} - e^{A^b/RT}\big) = \gamma\,(A^f - A^b),
        \qquad y = \gamma\begin{bmatrix}1 & -1\\ -1 & 1\end{bmatrix}
        \begin{bmatrix}A^f\\ A^b\end{bmatrix}

    leaves the reactants through ``f`` and reaches the products through ``b``
    (Gawthrop & Crampin, Proc. R. Soc. A 470:20140459, 2014), dissipating
    :math:`v(A^f - A^b) \ge 0` (W); :math:`\gamma \ge 0` is the log-mean conductance
    (:class:`~porthamiltonian.bondgraph.reactions.reaction_conductance`).  ``kappa``
    in mol/s, ``RT`` in J/mol.  A single reactant joins ``f`` directly; several, or a
    coefficient, through a 1-junction and :class:`Stoichiometry`.
    """

    nonlinear = True

    def __init__(self, kappa: Any = None, RT: Any = None) -> None:
        for key, v in (("kappa", kappa), ("RT", RT)):
            el.positive(key, v, "Reaction")
        super().__init__([Port("f", CH, "effort", "in"), Port("b", CH, "effort", "out")],
                         kappa=kappa, RT=RT)

    def law(self, c: Context) -> Law:
        g = reaction_conductance(c.effort("f"), c.effort("b"), c.kappa, c.RT)
        return Law([], ["f", "b"], S=[[g, -g], [-g, g]])


class Stoichiometry(el.Transformer):
    r"""A stoichiometric coefficient ``nu``: the transformer between a species (port
    ``a``, in) and a complex (port ``b``, out) with :math:`e_b = \nu\,e_a` (the
    complex's affinity gets :math:`\nu\mu`) and :math:`f_a = \nu f_b` (ν moles of
    the species per mole of reaction) — a TF of ratio :math:`1/\nu` in the convention
    :math:`e_a = m\,e_b`, :math:`f_b = m\,f_a` of :class:`~._elements.Transformer`.
    """

    domains = (CH, CH)
    key = "nu"

    def __init__(self, nu: Any = None) -> None:
        el.positive("nu", nu, "Stoichiometry")
        super().__init__(nu)

    def ratio(self, c: Context) -> Any:
        return 1 / c.nu


class CSTR(Component):
    """Stirred tank with the reaction A → B (see the module docstring).

    Parameters (SI): ``k0`` (1/s), ``Ea`` (J/mol), ``cv`` (J/(mol·K)), ``uA``, ``uB``
    (reference molar energies, J/mol), ``sA``, ``sB`` (reference molar entropies,
    J/(mol·K)), ``T0`` (K), ``Nref`` (mol), ``Rg`` (J/(mol·K)).
    """

    nonlinear = True

    def __init__(self, k0: Any = 1.0, Ea: Any = 2.0e4, cv: Any = 30.0, uA: Any = 5.0e4,
                 uB: Any = 0.0, sA: Any = 10.0, sB: Any = 10.0, T0: Any = 300.0,
                 Nref: Any = 1.0, Rg: Any = 8.314) -> None:
        for key, v in (("cv", cv), ("T0", T0), ("Nref", Nref), ("Rg", Rg), ("k0", k0)):
            el.positive(key, v, "CSTR")
        super().__init__([Port("wall", "thermal", "flow")], k0=k0, Ea=Ea, cv=cv, uA=uA,
                         uB=uB, sA=sA, sB=sB, T0=T0, Nref=Nref, Rg=Rg)

    def energy(self, c: Context) -> tuple[sp.Expr, list[sp.Symbol]]:
        NA, NB, S = c.x("N_A"), c.x("N_B"), c.x("S")
        N = NA + NB
        ref = NA * (c.sA - c.Rg * sp.log(NA / c.Nref)) + NB * (c.sB - c.Rg * sp.log(NB / c.Nref))
        sigma = (S - ref) / (c.cv * N)
        U = NA * c.uA + NB * c.uB + c.cv * N * c.T0 * (sp.exp(sigma) - 1)
        return U, [NA, NB, S]

    def law(self, c: Context) -> Law:
        U, (NA, NB, S) = self.energy(c)
        muA, muB, T = (sp.diff(U, v) for v in (NA, NB, S))
        affinity = muA - muB
        r = c.k0 * sp.exp(-c.Ea / (c.Rg * T)) * NA * (1 - sp.exp(-affinity / (c.Rg * T)))
        g = r / T
        J = [[0, 0, -g], [0, 0, g], [g, -g, 0]]
        return Law(["N_A", "N_B", "S"], ["wall"], J=J, G=[[0], [0], [1]], hamiltonian=U,
                   storages={"N_A": ("C", "chemical"), "N_B": ("C", "chemical"),
                             "S": ("C", "thermal")})
