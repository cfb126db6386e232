r"""Electrical components.  Ports: effort = voltage (V), flow = current (A).

Passive sign convention at every port (``e·f`` = power into the component) except the
sources, whose port ``p`` is oriented out (``e·f`` = power delivered).  Conventions of
the laws: :mod:`porthamiltonian.library._elements`.

=====================  ===========================================  ==================
component              law                                          state (unit)
=====================  ===========================================  ==================
Resistor(R)            v = R i                                      —
Capacitor(C)           H = q²/(2C), v = q/C, q̇ = i                 q (C)
NonlinearCapacitor     H(q) given, v = ∂H/∂q                         q (C)
Inductor(L)            H = φ²/(2L), i = φ/L, φ̇ = v                 phi (Wb)
NonlinearInductor      H(φ) given, i = ∂H/∂φ                         phi (Wb)
VoltageSource()        v = u, output: current delivered              —
CurrentSource()        current delivered = u, output: voltage        —
IdealTransformer(n)    v_a = n v_b, i_b = n i_a                      —
Diode(Is, VT, Cj)      i = Is (exp(v/VT) − 1) + Cj v̇                q (C)
IdealSwitch(S)         switch pair, v_a = (1−S) v_b, i_b = (1−S) i_a —
BoostConverter         §3.1 of Duindam et al. (2009), switched       phi_L, q_C
=====================  ===========================================  ==================
"""

from __future__ import annotations

from typing import Any

from ..network.component import Component, Context, Law
from ..network.ports import Port
from . import _elements as el

__all__ = ["Resistor", "Capacitor", "NonlinearCapacitor", "Inductor", "NonlinearInductor",
           "VoltageSource", "CurrentSource", "IdealTransformer", "Diode", "IdealSwitch",
           "BoostConverter"]

D = "electrical"


class Resistor(el.Resistor1):
    """Linear resistor ``v = R i``, ``R`` in Ω (≥ 0); dissipates ``R i²``."""

    domain, key = D, "R"

    def __init__(self, R: Any = None) -> None:
        super().__init__(R)


class Capacitor(el.Storage):
    """Linear capacitor, ``C`` in F: state ``q`` (C), ``H = q²/(2C)``, ``v = q/C``."""

    domain, key = D, "C"

    def __init__(self, C: Any = None) -> None:
        super().__init__(C)


class Inductor(el.Storage):
    """Linear inductor, ``L`` in H: state ``phi`` (flux linkage, Wb), ``H = φ²/(2L)``,
    ``i = φ/L``, ``φ̇ = v``."""

    domain, key, inertial, state = D, "L", True, "phi"

    def __init__(self, L: Any = None) -> None:
        super().__init__(L)


class NonlinearCapacitor(el.NonlinearStorage):
    """Capacitor with any charge energy ``H(q)`` (J), e.g.
    ``NonlinearCapacitor("q**2/(2*C0) + a*q**4/4", C0=1e-6, a=1e18)``; ``v = ∂H/∂q``."""

    domain = D


class NonlinearInductor(el.NonlinearStorage):
    """Inductor with any flux energy ``H(phi)`` (J), e.g. a saturating core
    ``NonlinearInductor("L0*Is**2*log(cosh(phi/(L0*Is)))", L0=1e-3, Is=2)`` with
    ``i = Is·tanh(φ/(L0 Is))``; ``i = ∂H/∂φ``."""

    domain, inertial, state = D, True, "phi"


class VoltageSource(el.EffortSource):
    """Ideal voltage source: the voltage of port ``p`` is the input ``u`` (V); the output
    is the current it delivers (A), so ``u·y`` is the power it supplies."""

    domain = D


class CurrentSource(el.FlowSource):
    """Ideal current source: the current delivered at ``p`` is the input ``u`` (A); the
    output is the voltage across it (V)."""

    domain = D


class IdealTransformer(el.Transformer):
    """Ideal transformer with turns ratio ``n = v_a / v_b``: ``v_a = n v_b``,
    ``i_b = n i_a`` (primary ``a`` in, secondary ``b`` out); lossless."""

    domains, key = (D, D), "n"

    def __init__(self, n: Any = None) -> None:
        super().__init__(n)


class IdealSwitch(el.Transformer):
    r"""Ideal complementary switch pair (transistor + diode, a commutation cell).

    A single ideal switch changes causality (short: ``v = 0``; open: ``i = 0``), so it
    has no fixed input-output PHS; the pair that alternately connects port ``a`` to port
    ``b`` and shorts it is the modulated transformer of ratio ``1 − S``
    (Escobar, van der Schaft & Ortega, *Automatica* 35 (1999) 445–452):
    ``v_a = (1 − S) v_b``, ``i_b = (1 − S) i_a``, with ``S = 1`` (switch on: ``a``
    shorted, ``b`` isolated) or ``S = 0`` (``a`` connected to ``b``).  ``S`` is a
    parameter; by default the network-level symbol ``S`` (``modulation={"S": ...}`` in
    switched simulation); give ``S="D"`` for the averaged model with duty ratio ``D``.
    """

    domains, key = (D, D), "S"

    def __init__(self, S: Any = "S") -> None:
        super().__init__(S)

    def ratio(self, c: Context) -> Any:
        return 1 - c["S"]


class Diode(Component):
    r"""Shockley diode with its junction capacitance.

    .. math::  i = I_s\,(e^{v/V_T} - 1) + C_j \dot v

    A memoryless nonlinear resistor ``i = g(v)`` is not of the PHS form (the resistive
    relation of a PHS is linear in the efforts, with coefficients that may depend on
    the *state*); with the junction capacitance the voltage is the state function
    :math:`v = q/C_j` and the diode current is :math:`R(q)\,\partial H/\partial q` with
    :math:`R(q) = I_s (e^{v/V_T} - 1)/v = (I_s/V_T)\,\mathrm{exprel}(v/V_T) > 0`.
    State ``q`` (C), ``H = q²/(2 C_j)``; port ``p`` (anode → cathode, receives the
    current).  ``Is`` (A), ``VT`` (V, ≈ 0.02585 at 300 K), ``Cj`` (F).
    """

    nonlinear = True

    def __init__(self, Is: Any = 1e-12, VT: Any = 0.02585, Cj: Any = 1e-9) -> None:
        for k, v in (("Is", Is), ("VT", VT), ("Cj", Cj)):
            el.positive(k, v, "Diode")
        super().__init__([Port("p", D, "flow")], Is=Is, VT=VT, Cj=Cj)

    def law(self, c: Context) -> Law:
        q = c.x("q")
        v = q / c.Cj
        H = q**2 / (2 * c.Cj)
        Rq = c.Is / c.VT * el.exprel(v / c.VT)  # R(q)·v = Is (exp(v/VT) − 1), v = ∂H/∂q
        return Law(["q"], ["p"], R=[[Rq]], G=[[1]], hamiltonian=H, storages={"q": ("C", D)})


class BoostConverter(Component):
    r"""DC–DC boost converter as a switched PHS (Duindam et al. 2009, §3.1; Escobar,
    van der Schaft & Ortega 1999).

    States ``phi_L`` (inductor flux, Wb) and ``q_C`` (capacitor charge, C),
    :math:`H = \phi_L^2/(2L) + q_C^2/(2C)`,

    .. math::
        \dot x = \left(\begin{bmatrix} 0 & -(1-S)\\ 1-S & 0\end{bmatrix}
                 - \begin{bmatrix} 0 & 0\\ 0 & 1/R\end{bmatrix}\right)\nabla H
                 + \begin{bmatrix}1\\0\end{bmatrix} E,

    ``S ∈ {0, 1}`` the switch position (a parameter: ``S="S"`` by default, the
    network-level symbol used by switched simulation), ``E`` the input voltage (port
    ``in``, input named ``E``); the output is the input current ``φ_L/L``.
    :meth:`averaged` gives the averaged model, ``S`` replaced by the duty ratio ``D``.
    """

    def __init__(self, L: Any = None, C: Any = None, R: Any = None, S: Any = "S") -> None:
        for k, v in (("L", L), ("C", C), ("R", R)):
            el.positive(k, v, "BoostConverter")
        super().__init__([Port("in", D, "effort", inputs=("E",))], L=L, C=C, R=R, S=S)

    @classmethod
    def averaged(cls, L: Any = None, C: Any = None, R: Any = None,
                 D: Any = "D") -> BoostConverter:
        """The averaged model: the switch position replaced by the duty ratio ``D``."""
        return cls(L, C, R, S=D)

    def law(self, c: Context) -> Law:
        s = 1 - c.S
        return Law(["phi_L", "q_C"], ["E"], J=[[0, -s], [s, 0]], R=[[0, 0], [0, 1 / c.R]],
                   G=[[1], [0]], Q=[[1 / c.L, 0], [0, 1 / c.C]],
                   storages={"phi_L": ("I", D), "q_C": ("C", D)})


