r"""Mechanical components, translation and rotation.

Translation ports: effort = force (N), flow = velocity (m/s); rotation ports:
effort = torque (N·m), flow = angular velocity (rad/s).  Passive sign convention
(``e·f`` = power into the component) except the sources (port oriented out).

====================================  ==========================================  ===========
component                             law                                         state
====================================  ==========================================  ===========
Mass(m) / Inertia(J)                  H = p²/(2m), v = p/m, ṗ = F                 p (N·s / N·m·s)
Spring(k) / TorsionSpring(k)          H = k q²/2, F = k q, q̇ = v_a − v_b           q (m / rad)
NonlinearSpring / NonlinearTorsion…   H(q) given, F = ∂H/∂q                        q
Damper(b) / RotationalDamper(b)       F = b (v_a − v_b)                            —
Fixed() / FixedRotation()             v = 0 (a support)                            —
ForceSource / TorqueSource            F = u (output: velocity delivered)           —
VelocitySource / AngularVelocity…     v = u (output: force)                        —
Gear(n)                               ω_a = n ω_b, τ_b = n τ_a                     —
Lever(la, lb)                         v_b = (lb/la) v_a, F_a = (lb/la) F_b          —
Rack(r)                               v = r ω (pinion radius r), τ = r F            —
====================================  ==========================================  ===========

Springs and dampers are series elements with two ports, ``a`` (oriented in) and ``b``
(out), transmitting one force ``F`` (compression positive: ``F`` pushes the body at
``b`` forward and the body at ``a`` back) and compressed at the rate ``v_a − v_b``.
A body with several elements attached is a 1-junction (one velocity, forces balance):
``net.junction("1", "k1.b", "m.p", "k2.a")``.  Join ``b`` to a :class:`Fixed` support
for a spring to the ground.
"""

from __future__ import annotations

from typing import Any

from ..network.component import Context
from . import _elements as el

__all__ = ["Mass", "Inertia", "Spring", "TorsionSpring", "NonlinearSpring",
           "NonlinearTorsionSpring", "Damper", "RotationalDamper", "ForceSource",
           "TorqueSource", "VelocitySource", "AngularVelocitySource", "Gear", "Lever", "Rack",
           "Fixed", "FixedRotation"]

TR, ROT = "translation", "rotation"


class Mass(el.Storage):
    """Point mass ``m`` (kg): state ``p`` (momentum, N·s), ``H = p²/(2m)``; its port
    receives the net force and returns the velocity ``p/m``."""

    domain, key, inertial, state = TR, "m", True, "p"

    def __init__(self, m: Any = None) -> None:
        super().__init__(m)


class Inertia(el.Storage):
    """Rotor of moment of inertia ``J`` (kg·m²): state ``p`` (angular momentum, N·m·s),
    ``H = p²/(2J)``; the port receives the net torque, returns ``ω = p/J``."""

    domain, key, inertial, state = ROT, "J", True, "p"

    def __init__(self, J: Any = None) -> None:
        super().__init__(J)


class Spring(el.Storage):
    """Linear spring of stiffness ``k`` (N/m) between flanges ``a`` and ``b``: state ``q``
    (compression, m), ``q̇ = v_a − v_b``, ``H = k q²/2``, force ``F = k q``."""

    series = True

    domain, key, invert = TR, "k", True

    def __init__(self, k: Any = None) -> None:
        super().__init__(k)


class TorsionSpring(el.Storage):
    """Linear torsion spring ``k`` (N·m/rad): state ``q`` (twist, rad), ``H = k q²/2``."""

    series = True

    domain, key, invert = ROT, "k", True

    def __init__(self, k: Any = None) -> None:
        super().__init__(k)


class NonlinearSpring(el.NonlinearStorage):
    """Spring with any energy ``H(q)`` (J); default the hardening (Duffing) spring
    ``H = k q²/2 + k3 q⁴/4`` with parameters ``k`` (N/m) and ``k3`` (N/m³)."""

    series = True

    domain = TR
    default_energy = "k*q**2/2 + k3*q**4/4"


class NonlinearTorsionSpring(el.NonlinearStorage):
    """Torsion spring with any energy ``H(q)``; default ``k q²/2 + k3 q⁴/4``."""

    series = True

    domain = ROT
    default_energy = "k*q**2/2 + k3*q**4/4"


class Damper(el.Resistor1):
    """Viscous damper between flanges ``a`` and ``b``: ``F = b (v_a − v_b)``, ``b`` in
    N·s/m; dissipates ``b (v_a − v_b)²``."""

    series = True

    domain, key = TR, "b"

    def __init__(self, b: Any = None) -> None:
        super().__init__(b)


class RotationalDamper(el.Resistor1):
    """Viscous rotational damper ``τ = b ω``, ``b`` in N·m·s/rad."""

    series = True

    domain, key = ROT, "b"

    def __init__(self, b: Any = None) -> None:
        super().__init__(b)


class ForceSource(el.EffortSource):
    """Ideal force source ``F = u`` (N); output: the velocity of its point of
    application in the direction of ``F`` (so ``u·y`` is the power it delivers)."""

    domain = TR


class TorqueSource(el.EffortSource):
    """Ideal torque source ``τ = u`` (N·m); output: the angular velocity."""

    domain = ROT


class VelocitySource(el.FlowSource):
    """Ideal velocity source ``v = u`` (m/s); output: the force it exerts."""

    domain = TR


class AngularVelocitySource(el.FlowSource):
    """Ideal angular-velocity source ``ω = u`` (rad/s); output: the torque."""

    domain = ROT


class Gear(el.Transformer):
    """Ideal gear pair of ratio ``n = ω_a/ω_b`` (``n > 1``: speed reduction from the
    input shaft ``a`` to the output shaft ``b``): ``ω_b = ω_a/n``, ``τ_b = n τ_a``.
    A transformer of modulus ``1/n``; lossless."""

    domains, key = (ROT, ROT), "n"

    def __init__(self, n: Any = None) -> None:
        el.positive("n", n, "Gear")
        super().__init__(n)

    def ratio(self, c: Context) -> Any:
        return 1 / c.n


class Lever(el.Transformer):
    """Ideal lever with arm lengths ``la`` (input side) and ``lb`` (m):
    ``v_b = (lb/la) v_a``, ``F_a = (lb/la) F_b``."""

    domains = (TR, TR)

    def __init__(self, la: Any = None, lb: Any = None) -> None:
        el.positive("la", la, "Lever")
        el.positive("lb", lb, "Lever")
        super().__init__(la, lb=lb)

    key = "la"

    def ratio(self, c: Context) -> Any:
        return c.lb / c.la


class Rack(el.Transformer):
    """Rack and pinion of pinion radius ``r`` (m): rotation port ``a`` (pinion), translation
    port ``b`` (rack): ``v = r ω``, ``τ = r F``."""

    domains, key = (ROT, TR), "r"

    def __init__(self, r: Any = None) -> None:
        el.positive("r", r, "Rack")
        super().__init__(r)


class Fixed(el.Fixed):
    """Fixed support (translation): ``v = 0``; receives the reaction force."""

    domain = TR


class FixedRotation(el.Fixed):
    """Fixed support (rotation): ``ω = 0``; receives the reaction torque."""

    domain = ROT
