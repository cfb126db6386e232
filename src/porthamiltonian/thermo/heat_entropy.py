r"""The 1-D heat equation in entropy form: an irreversible pH system on a mesh.

Beside the quadratic model of :mod:`porthamiltonian.distributed.heat` (Lyapunov
functional :math:`\tfrac12\int cT^2`, temperature as co-energy), the thermodynamic
form takes the *internal energy* as Hamiltonian and the *entropy density* as state
(Ramirez, Maschke & Sbarbaro, Eur. J. Control 19 (2013) 513–520, §5; Duindam et al.
2009, §4.1.3):

.. math::
    \partial_t s = -\partial_z\Big(\frac{J_Q}{T}\Big) + \frac{\lambda(\partial_zT)^2}{T^2},
    \qquad J_Q = -\lambda\,\partial_z T,\qquad u(s) = c\,T_\mathrm{ref}\,e^{s/c}.

Finite volumes: cell j of length :math:`\Delta z` holds the entropy :math:`S_j` (J/K)
with :math:`U_j = C T_\mathrm{ref}e^{S_j/C}` (:math:`C = c\Delta z`, J/K, so
:math:`T_j = T_\mathrm{ref}e^{S_j/C}`); neighbours exchange heat through the
conductance :math:`G = \lambda/\Delta z` (W/K) exactly as two bodies do
(:func:`~porthamiltonian.thermo.irreversible_models.two_bodies`):
:math:`\gamma_{j} = G/(T_jT_{j+1})`, :math:`\{S, U\}_{J_j} = T_{j+1} - T_j`.  The
discrete energy :math:`\sum U_j` is conserved in an insulated rod and the total entropy
grows by :math:`\sum_j G(T_{j+1}-T_j)^2/(T_jT_{j+1}) \ge 0` — the discrete production.

Ports at the ends: input the entropy flow into the rod ``fS_left``, ``fS_right``
(W/K), output the end temperatures (K); their product is the heat flow in (W).  This
lives in ``thermo/`` (not ``distributed/``): it is a lumped irreversible pH system
built by :func:`~porthamiltonian.thermo.irreversible.irreversible_phs`, not a
finite-element discretization of a Stokes–Dirac structure.
"""

from __future__ import annotations

import sympy as sp

from ..errors import ModelError
from .irreversible import Coupling, IrreversiblePHS, irreversible_phs

__all__ = ["heat_entropy"]


def heat_entropy(length: float, capacity: float, conductance: float, *, cells: int = 20,
                 T_ref: float = 300.0) -> IrreversiblePHS:
    """Rod of ``length`` (m), heat capacity per length ``capacity`` c (J/(K·m)) and
    ``conductance`` λ = k·A (W·m/K) in ``cells`` finite volumes; states ``S[j]`` (J/K),
    inputs ``fS_left``, ``fS_right`` (W/K).  ``S[j] = 0`` at ``T_ref`` (K)."""
    if min(length, capacity, conductance, T_ref) <= 0 or cells < 2:
        raise ModelError("heat_entropy: positive length, capacity, conductance, T_ref "
                         "and at least 2 cells")
    dz = length / cells
    C, G = capacity * dz, conductance / dz
    x = tuple(sp.Symbol(f"S[{j}]", real=True) for j in range(cells))
    U = sum((C * T_ref * sp.exp(s / C) for s in x), sp.S.Zero)
    T = [sp.diff(U, s) for s in x]
    couplings = []
    for j in range(cells - 1):
        J = sp.zeros(cells, cells)
        J[j, j + 1], J[j + 1, j] = 1, -1
        couplings.append(Coupling(G / (T[j] * T[j + 1]), J, f"conduction {j}"))
    Gm = sp.zeros(cells, 2)
    Gm[0, 0], Gm[cells - 1, 1] = 1, 1
    units = {str(s): "J/K" for s in x} | {"fS_left": "W/K", "fS_right": "W/K"}
    return irreversible_phs(U, x, (1,) * cells, couplings, G=Gm,
                            inputs=["fS_left", "fS_right"], units=units, name="heat_entropy")
