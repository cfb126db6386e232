r"""Electromechanical transducers.

=====================================  ============================================  ============
component                              law                                            states
=====================================  ============================================  ============
DCMotor(R, L, k, J, b)                 L di/dt = v − R i − k ω, J dω/dt = k i − b ω + τ  phi, p
Electromagnet(L0, L1, a, R)            H = φ²/(2 L(q)), L(q) = L1 + L0/(1 + q/a)        phi, q
Loudspeaker(Re, Le, Bl, m, k, c)       moving coil: GY Bl between coil and cone        phi, p, q
=====================================  ============================================  ============

Ports: ``electrical`` (voltage in, current out; passive convention, ``v·i`` is the
electrical power into the transducer) and a mechanical port (``shaft``: rotation;
``mechanical``/``cone``: translation) oriented *out*: its effort is the torque or
force the transducer exerts on its load and its flow the velocity of the load, so
``e·f`` is the mechanical power delivered (DC motor driving a gear, magnet pulling an
armature, cone pushing air).  Join it to an ``"in"`` port (``Gear.a``, ``Mass.p``) with
``connect``, or put it in a 1-junction with the load.
"""

from __future__ import annotations

from typing import Any

from ..network.component import Component, Context, Law
from ..network.ports import Port
from . import _elements as el

__all__ = ["DCMotor", "Electromagnet", "Loudspeaker"]


class DCMotor(Component):
    r"""Permanent-magnet DC motor with its armature circuit and rotor.

    States ``phi`` (armature flux linkage :math:`L i`, Wb) and ``p`` (rotor angular
    momentum :math:`J\omega`, N·m·s); :math:`H = \phi^2/(2L) + p^2/(2J)`;

    .. math::
        \dot x = \left(\begin{bmatrix}0 & -k\\ k & 0\end{bmatrix}
                 - \begin{bmatrix}R & 0\\ 0 & b\end{bmatrix}\right)\nabla H
                 + \begin{bmatrix} v\\ -\tau\end{bmatrix},\qquad
        y = \begin{bmatrix} i \\ -\omega\end{bmatrix}

    — the gyrator :math:`e_\mathrm{el} = k\omega`, :math:`\tau_\mathrm{m} = k i`
    (Duindam et al. 2009, §3.1).  ``R`` (Ω), ``L`` (H), ``k`` (V·s/rad =
    N·m/A), ``J`` (kg·m²), ``b`` (N·m·s/rad).  Ports ``electrical`` (receives the
    terminal voltage ``v``) and ``shaft`` (oriented out: receives the torque ``τ`` the
    motor exerts on its load, :math:`J\dot\omega = k i - b\omega - \tau`; ``τ ω`` is
    the mechanical power delivered).
    """

    def __init__(self, R: Any = None, L: Any = None, k: Any = None, J: Any = None,
                 b: Any = 0.0) -> None:
        for key, v in (("R", R), ("L", L), ("k", k), ("J", J)):
            el.positive(key, v, "DCMotor")
        super().__init__([Port("electrical", "electrical", "effort"),
                          Port("shaft", "rotation", "effort", "out")], R=R, L=L, k=k, J=J,
                         b=b)

    def law(self, c: Context) -> Law:
        return Law(["phi", "p"], ["electrical", "shaft"], J=[[0, -c.k], [c.k, 0]],
                   R=[[c.R, 0], [0, c.b]], G=[[1, 0], [0, -1]],
                   Q=[[1 / c.L, 0], [0, 1 / c.J]],
                   storages={"phi": ("I", "electrical"), "p": ("I", "rotation")})


class Electromagnet(Component):
    r"""Electromagnet with a movable armature: a nonlinear storage coupling the coil flux
    and the air gap (Duindam et al. 2009, §3.1).

    States ``phi`` (coil flux linkage, Wb) and ``q`` (air gap, m).  The inductance falls
    with the gap, :math:`L(q) = L_1 + L_0/(1 + q/a)`, and

    .. math::  H(\phi, q) = \frac{\phi^2}{2 L(q)},\qquad
        i = \frac{\partial H}{\partial \phi} = \frac{\phi}{L(q)},\qquad
        F = \frac{\partial H}{\partial q} = -\frac{\phi^2 L'(q)}{2 L(q)^2} \ge 0,

    :math:`\dot\phi = v - R i`.  Port ``electrical`` receives the coil voltage ``v``;
    port ``mechanical`` (translation, oriented out) has the effort ``F``, the magnetic
    pull on the armature, and the flow ``v_m``, the armature's velocity towards the
    magnet (closing the gap, :math:`\dot q = -v_m`), so ``F v_m`` is the mechanical power
    the field delivers.  ``L0``, ``L1`` (H), ``a`` (m), ``R`` (coil resistance, Ω).
    """

    nonlinear = True

    def __init__(self, L0: Any = None, L1: Any = None, a: Any = None, R: Any = 0.0) -> None:
        for key, v in (("L0", L0), ("L1", L1), ("a", a)):
            el.positive(key, v, "Electromagnet")
        super().__init__([Port("electrical", "electrical", "effort"),
                          Port("mechanical", "translation", "flow", "out")],
                         L0=L0, L1=L1, a=a, R=R)

    def inductance(self, c: Context, q: Any) -> Any:
        return c.L1 + c.L0 / (1 + q / c.a)

    def law(self, c: Context) -> Law:
        phi, q = c.x("phi"), c.x("q")
        H = phi**2 / (2 * self.inductance(c, q))
        return Law(["phi", "q"], ["electrical", "mechanical"], R=[[c.R, 0], [0, 0]],
                   G=[[1, 0], [0, 1]], hamiltonian=H,
                   storages={"phi": ("I", "electrical"), "q": ("C", "translation")})


class Loudspeaker(Component):
    r"""Moving-coil loudspeaker (Thiele–Small model).

    States ``phi`` (coil flux linkage, Wb), ``p`` (cone momentum, N·s), ``q`` (suspension
    displacement, m); :math:`H = \phi^2/(2L_e) + p^2/(2m) + k q^2/2`;

    .. math::
        \dot\phi = v - R_e i - Bl\,\dot x,\quad \dot p = Bl\, i - c\,\dot x - k q - F,
        \quad \dot q = \dot x = p/m,

    i.e. :math:`J = \begin{bmatrix}0&-Bl&0\\Bl&0&-1\\0&1&0\end{bmatrix}`,
    :math:`R = \mathrm{diag}(R_e, c, 0)`.  Port ``electrical`` receives ``v``; port
    ``cone`` (translation, oriented out) receives the force ``F`` the cone exerts on the
    air (or on a load), so :math:`\dot p = Bl\,i - c\dot x - kq - F`, and its flow is
    the cone velocity.  ``Re`` (Ω), ``Le`` (H), ``Bl`` (T·m), ``m`` (kg), ``k``
    (N/m), ``c`` (N·s/m).
    """

    def __init__(self, Re: Any = None, Le: Any = None, Bl: Any = None, m: Any = None,
                 k: Any = None, c: Any = 0.0) -> None:
        for key, v in (("Re", Re), ("Le", Le), ("Bl", Bl), ("m", m), ("k", k)):
            el.positive(key, v, "Loudspeaker")
        super().__init__([Port("electrical", "electrical", "effort"),
                          Port("cone", "translation", "effort", "out")],
                         Re=Re, Le=Le, Bl=Bl, m=m, k=k, c=c)

    def law(self, c: Context) -> Law:
        return Law(["phi", "p", "q"], ["electrical", "cone"],
                   J=[[0, -c.Bl, 0], [c.Bl, 0, -1], [0, 1, 0]],
                   R=[[c.Re, 0, 0], [0, c.c, 0], [0, 0, 0]], G=[[1, 0], [0, -1], [0, 0]],
                   Q=[[1 / c.Le, 0, 0], [0, 1 / c.m, 0], [0, 0, c.k]],
                   storages={"phi": ("I", "electrical"), "p": ("I", "translation"),
                             "q": ("C", "translation")})
