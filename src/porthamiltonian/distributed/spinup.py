r"""The spin-up manoeuvre of a flexible beam (a classic flexible-multibody benchmark).

A beam clamped to a hub is spun up from rest to the angular velocity Ω in the time
:math:`T` with a smooth (zero-jerk-at-the-ends) angle profile, then turns at constant Ω
(Simo & Vu-Quoc, *J. Appl. Mech.* 53, 1986, §6; Kane, Ryan & Banerjee, *J. Guidance*
10, 1987):

.. math::
    \theta(t) = \frac{\Omega}{T}\Big[\frac{t^2}{2}
        + \Big(\frac{T}{2\pi}\Big)^2\Big(\cos\frac{2\pi t}{T} - 1\Big)\Big]\ (t \le T),
    \qquad \theta(t) = \Omega t - \frac{\Omega T}{2}\ (t > T),

so :math:`\dot\theta = (\Omega/T)[t - (T/2\pi)\sin(2\pi t/T)]` rises to Ω with
:math:`\ddot\theta(0) = \ddot\theta(T) = 0`.  With Ω = 6 rad/s and T = 15 s this is
θ = (6/15)[t²/2 + (15/2π)²(cos(2πt/15) − 1)], then 6t − 45.  The classic beam: L = 10 m,
EA = 2.8e7 N, EI = 1.4e4 N·m², ρA = 1.2 kg/m (:data:`SPINUP_BEAM`).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["spinup_angle", "spinup_rate", "SPINUP_BEAM"]

#: The beam of the benchmark: length (m), EA (N), EI (N·m²), ρA (kg/m).
SPINUP_BEAM = {"length": 10.0, "EA": 2.8e7, "EI": 1.4e4, "rhoA": 1.2}


def spinup_angle(t: Any, rate: float = 6.0, ramp: float = 15.0) -> Any:
    """Hub angle θ(t) in rad (module docstring); ``rate`` Ω in rad/s, ``ramp`` T in s.
    A number gives a float, an array an array."""
    if isinstance(t, (int, float)):  # plain math: a solver's user function calls it often
        if t > ramp:
            return rate * t - rate * ramp / 2
        c = (ramp / (2 * math.pi)) ** 2
        return rate / ramp * (t**2 / 2 + c * (math.cos(2 * math.pi * t / ramp) - 1.0))
    t = np.asarray(t, dtype=float)
    c = (ramp / (2 * np.pi)) ** 2
    up = rate / ramp * (t**2 / 2 + c * (np.cos(2 * np.pi * t / ramp) - 1.0))
    return np.where(t <= ramp, up, rate * t - rate * ramp / 2)


def spinup_rate(t: Any, rate: float = 6.0, ramp: float = 15.0) -> Any:
    """Hub angular velocity θ̇(t) in rad/s (a number gives a float)."""
    if isinstance(t, (int, float)):
        if t > ramp:
            return float(rate)
        return rate / ramp * (t - ramp / (2 * math.pi) * math.sin(2 * math.pi * t / ramp))
    t = np.asarray(t, dtype=float)
    up = rate / ramp * (t - ramp / (2 * np.pi) * np.sin(2 * np.pi * t / ramp))
    return np.where(t <= ramp, up, rate)
