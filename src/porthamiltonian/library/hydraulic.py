r"""Hydraulic components.  Ports: effort = pressure (Pa), flow = volume flow (m³/s).

==========================  ==============================================  ==================
component                   law                                              state
==========================  ==============================================  ==================
Pipe(I, R)                  I dQ/dt = p_a − p_b − R Q                         Gamma (Pa·s)
Tank(A, rho, g)             p = ρ g V / A (hydrostatic), V̇ = Q_in            V (m³)
Accumulator(C)              p = V / C, V̇ = Q_in                              V (m³)
Piston(A)                   Q = A v, F = A p (transformer)                   —
PressureSource / FlowSource p = u / Q = u                                    —
==========================  ==============================================  ==================
"""

from __future__ import annotations

from typing import Any

from ..network.component import Component, Context, Law
from ..network.ports import Port
from . import _elements as el

__all__ = ["Pipe", "Tank", "Accumulator", "Piston", "PressureSource", "FlowSource"]

D = "hydraulic"


class Pipe(Component):
    r"""Pipe with fluid inertance ``I = ρℓ/A`` (kg/m⁴) and linear resistance ``R``
    (Pa·s/m³, e.g. Hagen–Poiseuille :math:`8\mu\ell/(\pi r^4)`).

    State ``Gamma`` (pressure momentum, Pa·s), :math:`H = \Gamma^2/(2I)`, flow
    :math:`Q = \Gamma/I` from ``a`` to ``b``:
    :math:`\dot\Gamma = p_a - p_b - R Q`.  Both ports receive their pressure; ``a``
    returns the flow entering the pipe (``Q``), ``b`` the flow entering it at ``b``
    (``−Q``): ``G = [[1, −1]]``.
    """

    def __init__(self, I: Any = None, R: Any = 0.0) -> None:  # noqa: E741 - inertance
        el.positive("I", I, "Pipe")
        super().__init__([Port("a", D, "effort"), Port("b", D, "effort")], I=I, R=R)

    def law(self, c: Context) -> Law:
        return Law(["Gamma"], ["a", "b"], R=[[c.R]], G=[[1, -1]], Q=[[1 / c.I]],
                   storages={"Gamma": ("I", D)})


class Tank(el.Storage):
    r"""Open tank of cross-section ``A`` (m²) filled with a liquid of density ``rho``
    (kg/m³) under gravity ``g`` (m/s²): state ``V`` (volume, m³), bottom pressure
    :math:`p = \rho g V/A`, :math:`H = \rho g V^2/(2A)` (potential energy of the column)."""

    domain, key, state, invert = D, "c", "V", False

    def __init__(self, A: Any = None, rho: Any = 1000.0, g: Any = 9.81) -> None:
        for key, v in (("A", A), ("rho", rho), ("g", g)):
            el.positive(key, v, "Tank")
        Component.__init__(self, [Port("p", D, "flow")], A=A, rho=rho, g=g)

    def law(self, c: Context) -> Law:
        return Law(["V"], ["p"], G=[[1]], Q=[[c.rho * c.g / c.A]], storages={"V": ("C", D)})


class Accumulator(el.Storage):
    """Linear accumulator of hydraulic capacitance ``C`` (m³/Pa): state ``V`` (m³),
    ``p = V/C``, ``H = V²/(2C)``."""

    domain, key, state = D, "C", "V"

    def __init__(self, C: Any = None) -> None:
        super().__init__(C)


class Piston(el.Transformer):
    """Piston of area ``A`` (m²): hydraulic port ``a``, translation port ``b`` (rod);
    ``Q = A v``, ``F = A p`` — a transformer ``p = F/A``, ``v = Q/A`` of modulus ``1/A``."""

    domains, key = (D, "translation"), "A"

    def __init__(self, A: Any = None) -> None:
        el.positive("A", A, "Piston")
        super().__init__(A)

    def ratio(self, c: Context) -> Any:
        return 1 / c.A


class PressureSource(el.EffortSource):
    """Ideal pressure source ``p = u`` (Pa); output: the volume flow it delivers."""

    domain = D


class FlowSource(el.FlowSource):
    """Ideal volume-flow source ``Q = u`` (m³/s); output: the pressure at it."""

    domain = D
