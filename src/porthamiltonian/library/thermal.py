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

from ..errors import ModelError
from ..network.component import Component, Context, Law
from ..network.ports import Port
from ..special import logmean_exp
from ..thermo.transport import GAS_CONSTANT
from . import _elements as el

__all__ = ["Compartment", "HeatCapacity", "HeatConduction", "Membrane"]

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


class Compartment(Component):
    r"""A well-mixed compartment of volume ``V`` (m³) holding an ideal dilute species.

    State ``n`` (mol); the Gibbs energy at the temperature ``T`` (K)

    .. math:: H = n\Big(\mu^\circ + RT\big(\ln\frac{n}{V c^\circ} - 1\big)\Big)
        \quad(\mathrm J),\qquad \mu = \frac{\partial H}{\partial n}
        = \mu^\circ + RT\ln\frac{c}{c^\circ},

    with the standard potential ``mu0`` (J/mol) and concentration ``c_ref`` (mol/m³).
    Port ``p`` (chemical) receives the molar flow into the compartment and returns μ.
    """

    nonlinear = True

    def __init__(self, V: Any = None, mu0: Any = 0.0, T: Any = 298.15,
                 c_ref: Any = 1.0) -> None:
        for key, v in (("V", V), ("T", T), ("c_ref", c_ref)):
            el.positive(key, v, "Compartment")
        super().__init__([Port("p", "chemical", "flow")], V=V, mu0=mu0, T=T, c_ref=c_ref)

    def law(self, c: Context) -> Law:
        n = c.x("n")
        RT = GAS_CONSTANT * c.T
        H = n * (c.mu0 + RT * (sp.log(n / (c.V * c.c_ref)) - 1))
        return Law(["n"], ["p"], G=[[1]], hamiltonian=H, storages={"n": ("C", "chemical")})


class Membrane(Component):
    r"""A membrane between the chemical ports ``a`` and ``b``: the molar flow
    :math:`J = L(\mu_a - \mu_b)` from ``a`` to ``b`` (Kedem & Katchalsky 1958).

    ``law="fick"`` (default): permeance ``k`` = permeability × area (m³/s) and
    :math:`J = k(c_a - c_b)`, i.e. :math:`L = (k/RT)\,\mathrm{logmean}(c_a, c_b)` with
    :math:`c = c^\circ e^{(\mu - \mu^\circ)/RT}` — the compartments it joins must share
    ``mu0``, ``T`` and ``c_ref``; ``law="linear"``: a constant Onsager conductance
    ``k`` = L (mol²/(J·s)).  Both ports receive the potential and return the molar flow
    into the membrane (``J`` at ``a``, ``−J`` at ``b``): the resistive two-port
    :math:`y = L\,[[1, -1], [-1, 1]]\,u`, dissipating :math:`L(\mu_a - \mu_b)^2 \ge 0`
    (W), the Gibbs energy lost, :math:`T` times the entropy produced.
    """

    nonlinear = True

    def __init__(self, k: Any = None, law: str = "fick", mu0: Any = 0.0,
                 T: Any = 298.15, c_ref: Any = 1.0) -> None:
        for key, v in (("k", k), ("T", T), ("c_ref", c_ref)):
            el.positive(key, v, "Membrane")
        if law not in ("fick", "linear"):
            raise ModelError(f"Membrane: law must be 'fick' or 'linear', got {law!r}")
        self.transport_law = law
        super().__init__([Port("a", "chemical", "effort"), Port("b", "chemical", "effort")],
                         k=k, mu0=mu0, T=T, c_ref=c_ref)

    def law(self, c: Context) -> Law:
        if self.transport_law == "linear":
            L = c.k
        else:
            RT = GAS_CONSTANT * c.T
            mua, mub = c.effort("a"), c.effort("b")
            L = (c.k * c.c_ref / RT) * logmean_exp((mua - c.mu0) / RT, (mub - c.mu0) / RT)
        return Law([], ["a", "b"], S=[[L, -L], [-L, L]])
