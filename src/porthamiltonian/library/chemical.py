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
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ..network.component import Component, Context, Law
from ..network.ports import Port
from . import _elements as el

__all__ = ["CSTR"]


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
