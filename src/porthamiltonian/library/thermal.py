r"""Thermal components with entropy as state (irreversible port-Hamiltonian form).

Ports: effort = temperature ``T`` (K), flow = entropy flow (W/K); ``T·Ṡ`` is a heat
flow (W).  Energy is the Hamiltonian, so power balance is the first law; the second
law is the sign of the entropy production.

Following Ramirez, Maschke & Sbarbaro, *Irreversible port-Hamiltonian systems: a
general formulation of irreversible processes with application to the CSTR*, Chem.
Eng. Sci. 89 (2013) 223–234 (and Duindam et al. 2009, §3.4), heat conduction between
two bodies at :math:`T_a, T_b` with the heat flow :math:`\dot Q = \lambda(T_a - T_b)`
is the *lossless* (in energy) two-port

.. math::
    \begin{bmatrix} f_a\\ f_b\end{bmatrix} =
    \begin{bmatrix} 0 & \mu\\ -\mu & 0\end{bmatrix}
    \begin{bmatrix} T_a\\ T_b\end{bmatrix},\qquad
    \mu = \lambda\,\frac{T_a - T_b}{T_a T_b},

whose skew matrix is modulated by its own port temperatures: the entropy
:math:`f_a = \dot Q/T_a` enters at ``a`` and :math:`\dot Q/T_b` leaves at ``b``;
energy is conserved (:math:`T_a f_a + T_b f_b = 0`) and the entropy production
:math:`\dot Q (1/T_b - 1/T_a) = \lambda (T_a - T_b)^2/(T_a T_b) \ge 0`.  Joined to
heat capacities (the temperatures are then functions of their entropies), the
assembled system is :math:`\dot x = J(x)\nabla H(x)` with the irreversible-pH
:math:`J(x) = \gamma(x)\{S, H\}_J J_0` structure.  Assemble symbolically.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ..network.component import Component, Context, Law
from ..network.ports import Port
from . import _elements as el

__all__ = ["HeatCapacity", "HeatConduction"]

D = "thermal"


class HeatCapacity(Component):
    r"""Incompressible body of constant heat capacity ``C`` (J/K).

    State ``S`` (entropy relative to the reference temperature ``T0``, J/K); from
    :math:`dU = T\,dS` and :math:`dU = C\,dT`, :math:`T = T_0 e^{S/C}` and
    :math:`H = U = C T_0 e^{S/C}` (J).  Port ``p`` receives the entropy flow into the
    body and returns its temperature :math:`T = \partial H/\partial S`.
    """

    nonlinear = True

    def __init__(self, C: Any = None, T0: Any = 300.0) -> None:
        el.positive("C", C, "HeatCapacity")
        el.positive("T0", T0, "HeatCapacity")
        super().__init__([Port("p", D, "flow")], C=C, T0=T0)

    def law(self, c: Context) -> Law:
        S = c.x("S")
        return Law(["S"], ["p"], G=[[1]], hamiltonian=c.C * c.T0 * sp.exp(S / c.C),
                   storages={"S": ("C", D)})


class HeatConduction(Component):
    r"""Heat conduction of conductance ``lam`` (W/K) between ports ``a`` and ``b``
    (Fourier: :math:`\dot Q = \lambda (T_a - T_b)` from ``a`` to ``b``); see the module
    docstring for its irreversible port-Hamiltonian form."""

    nonlinear = True

    def __init__(self, lam: Any = None) -> None:
        el.positive("lam", lam, "HeatConduction")
        super().__init__([Port("a", D, "effort"), Port("b", D, "effort")], lam=lam)

    def law(self, c: Context) -> Law:
        Ta, Tb = c.effort("a"), c.effort("b")
        mu = c.lam * (Ta - Tb) / (Ta * Tb)
        return Law([], ["a", "b"], M=[[0, mu], [-mu, 0]])
