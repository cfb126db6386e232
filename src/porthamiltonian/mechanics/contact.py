r"""Unilateral compliant contact of a sphere (or point) on a body with a fixed plane,
with regularized Coulomb friction — a force element of :mod:`.forces`.

Geometry: the plane :math:`\{x : n\cdot x = h\}` of the inertial frame (``normal`` n,
unit after normalization; ``offset`` h, m), the sphere of ``radius`` r (m; 0: a point)
centred at the anchor ``a`` of the body (body coordinates).  Penetration

.. math::  \delta = r + h - n\cdot(p + R a),

affine in the raw pose entries, so ``∂δ/∂p = −n``, ``∂δ/∂R = −n aᵀ``.

Normal law (penalty, during contact only, :math:`\delta > 0`):

.. math::
    F_n = k\,\delta^{e} + c\,\delta^{e_c}\,\dot\delta,\qquad
    V(\delta) = \frac{k\,\delta^{e+1}}{e+1}\ (\delta > 0),\ 0\ \text{otherwise},

``stiffness`` k (N/m^e), ``exponent`` e (1: linear spring, 1.5: Hertz), ``damping`` c,
``damping_exponent`` e_c (0: the linear spring–dashpot, damping only while in contact;
e_c = e: Hunt & Crossley, *J. Appl. Mech.* 42, 1975).  The elastic part is the energy
``V`` in :math:`\mathcal H` (what the contact stores), the dashpot a dissipation
:math:`c\,\delta^{e_c} w_n w_n^\top` with :math:`w_n = (a\times R^\top n, R^\top n)`
(``w_nᵀT`` is the normal velocity of the sphere's centre, ``= −δ̇``): its power is
what the contact dissipates.  For the linear law (e = 1, e_c = 0) a mass m hitting the
plane without gravity leaves it (when δ returns to 0) with the coefficient of
restitution

.. math::  e_r = \exp\!\Big(-\frac{\zeta\pi}{\sqrt{1-\zeta^2}}\Big),\qquad
           \zeta = \frac{c}{2\sqrt{k m}} < 1,

independent of the impact speed (:func:`restitution`; the free response of a damped
oscillator over half a period).  The force may pull briefly before δ returns to 0 —
the law's known artefact, kept so that this closed form holds.

Friction: the contact point :math:`R b + p`, :math:`b = a - r R^\top n`, slides with the
tangential velocity ``v_t`` (components along ``t₁, t₂ ⊥ n``; columns
:math:`w_{t_j} = (b\times R^\top t_j, R^\top t_j)`).  The regularized Coulomb force

.. math::  F_t = -\mu\,F_n^+\,\frac{v_t}{\sqrt{|v_t|^2 + \varepsilon^2}},\qquad
           F_n^+ = \max(F_n, 0),

(``friction`` μ, ``slip_velocity`` ε in m/s) is a dissipation
:math:`r_f (w_{t_1}w_{t_1}^\top + w_{t_2}w_{t_2}^\top)` with
:math:`r_f = \mu F_n^+/\sqrt{|v_t|^2+\varepsilon^2} \ge 0`, a function of the state
(the pose and the momenta) — so ``𝓡(x) ⪰ 0`` and the friction power
:math:`r_f|v_t|^2` is reported with the rest of the dissipation.  Above ε the force is
μF_n (Coulomb); below, viscous (a block creeps instead of sticking).  A body sliding
on its contact points with speed v₀ and constant normal force m g stops after
:math:`\frac{1}{2\mu g}\big(v_0\sqrt{v_0^2+\varepsilon^2} + \varepsilon^2
\operatorname{asinh}(v_0/\varepsilon)\big)` ≈ v₀²/(2μg).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..errors import ModelError
from .forces import GROUND, ForceElement, _cross, _nonneg, _vec3

__all__ = ["PlaneContact", "restitution", "damping_for_restitution"]


def restitution(stiffness: float, damping: float, mass: float) -> float:
    """Coefficient of restitution of the linear spring–dashpot (module docstring) for a
    body of ``mass`` (kg) hitting the plane; 0 when overdamped (ζ ≥ 1)."""
    zeta = damping / (2.0 * np.sqrt(stiffness * mass))
    if zeta >= 1.0:
        return 0.0
    return float(np.exp(-zeta * np.pi / np.sqrt(1.0 - zeta * zeta)))


def damping_for_restitution(e: float, stiffness: float, mass: float) -> float:
    """The dashpot c (N·s/m) that gives the linear law the restitution ``e`` (0 < e ≤ 1):
    ζ = −ln e / √(π² + ln² e), c = 2ζ√(k m)."""
    if not 0.0 < e <= 1.0:
        raise ModelError(f"restitution must be in (0, 1], got {e}")
    L = -np.log(e)
    return float(2.0 * L / np.sqrt(np.pi ** 2 + L * L) * np.sqrt(stiffness * mass))


class PlaneContact(ForceElement):
    """A sphere (``radius``, m; 0 for a point) at ``anchor`` on ``body`` against the fixed
    plane ``normal · x = offset`` (module docstring).  ``stiffness`` (N/m^exponent),
    ``damping`` (N·s/m per m^damping_exponent), ``friction`` μ, ``slip_velocity`` ε (m/s).
    The sphere should start outside the plane (δ ≤ 0) or at rest in it."""

    has_energy = True
    quadratic = False

    def __init__(self, name: str, body: str, anchor: Sequence[float] = (0, 0, 0), *,
                 radius: float = 0.0, normal: Sequence[float] = (0, 0, 1),
                 offset: float = 0.0, stiffness: float, damping: float = 0.0,
                 exponent: float = 1.0, damping_exponent: float = 0.0,
                 friction: float = 0.0, slip_velocity: float = 1e-3) -> None:
        if body == GROUND:
            raise ModelError(f"contact {name!r}: the sphere must sit on a body, not on ground")
        super().__init__(name, GROUND, body, (0, 0, 0), anchor)
        n = _vec3(normal, f"contact {name!r}: normal")
        if not np.linalg.norm(n) > 0:
            raise ModelError(f"contact {name!r}: the plane's normal must not be zero")
        self.normal = n / np.linalg.norm(n)
        k = np.argmin(np.abs(self.normal))
        t1 = _cross(self.normal, np.eye(3)[k])
        t1 /= np.linalg.norm(t1)
        self.tangents = np.stack([t1, _cross(self.normal, t1)])
        what = f"contact {name!r}"
        self.radius = float(_nonneg(radius, 1, f"{what}: radius")[0])
        self.offset = float(offset)
        self.stiffness = float(_nonneg(stiffness, 1, f"{what}: stiffness")[0])
        self.damping = float(_nonneg(damping, 1, f"{what}: damping")[0])
        self.friction = float(_nonneg(friction, 1, f"{what}: friction")[0])
        self.exponent = float(exponent)
        self.damping_exponent = float(_nonneg(damping_exponent, 1,
                                              f"{what}: damping_exponent")[0])
        if self.exponent < 1.0:
            raise ModelError(f"{what}: exponent must be ≥ 1 (a force continuous at "
                             f"touch-down), got {exponent}")
        self.slip_velocity = float(slip_velocity)
        if not self.slip_velocity > 0:
            raise ModelError(f"{what}: slip_velocity must be > 0 (m/s; the regularization "
                             "of Coulomb friction)")
        if not np.isfinite(self.offset):
            raise ModelError(f"{what}: offset must be finite")

    @property
    def anchor(self) -> np.ndarray:
        return self.anchors[1]

    def penetration(self, q: np.ndarray) -> float:
        """δ (m): > 0 in contact."""
        c = q[1, :3] + q[1, 3:].reshape(3, 3) @ self.anchor
        return self.radius + self.offset - float(self.normal @ c)

    def energy(self, q: np.ndarray) -> float:
        d = self.penetration(q)
        return self.stiffness * d ** (self.exponent + 1) / (self.exponent + 1) if d > 0 else 0.0

    def gradient(self, q: np.ndarray) -> np.ndarray:
        out = np.zeros((2, 12))
        d = self.penetration(q)
        if d > 0:
            F = self.stiffness * d ** self.exponent          # ∂V/∂δ
            out[1, :3] = -F * self.normal
            out[1, 3:] = -F * np.outer(self.normal, self.anchor).ravel()
        return out

    def hessian(self, q: np.ndarray) -> np.ndarray:
        """``V''(δ) g gᵀ`` with ``g = ∂δ/∂q = (−n, −n aᵀ)`` on the body."""
        out = np.zeros((2, 12, 2, 12))
        d = self.penetration(q)
        if d > 0:
            g = -np.concatenate([self.normal, np.outer(self.normal, self.anchor).ravel()])
            out[1, :, 1, :] = (self.exponent * self.stiffness * d ** (self.exponent - 1)
                               * np.outer(g, g))
        return out

    def _normal_column(self, R: np.ndarray) -> np.ndarray:
        Rn = R.T @ self.normal
        return np.concatenate([_cross(self.anchor, Rn), Rn])

    def normal_force(self, q: np.ndarray, T: np.ndarray) -> float:
        """``F_n`` (N) at pose ``q`` and twists ``T`` (0 out of contact)."""
        d = self.penetration(q)
        if d <= 0:
            return 0.0
        rate = -float(self._normal_column(q[1, 3:].reshape(3, 3)) @ T[1])
        return self.stiffness * d ** self.exponent + \
            self.damping * d ** self.damping_exponent * rate

    def dampers(self, q: np.ndarray, T: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        d = self.penetration(q)
        if d <= 0:
            return np.zeros((0, 2, 6)), np.zeros(0)
        R = q[1, 3:].reshape(3, 3)
        cols, coef = [], []
        if self.damping > 0:
            w = np.zeros((2, 6))
            w[1] = self._normal_column(R)
            cols.append(w)
            coef.append(self.damping * d ** self.damping_exponent)
        if self.friction > 0:
            Fn = max(self.normal_force(q, T), 0.0)
            b = self.anchor - self.radius * (R.T @ self.normal)
            wt = np.zeros((2, 2, 6))
            for j in range(2):
                Rt = R.T @ self.tangents[j]
                wt[j, 1, :3], wt[j, 1, 3:] = _cross(b, Rt), Rt
            vt = wt[:, 1] @ T[1]
            r = self.friction * Fn / np.sqrt(vt @ vt + self.slip_velocity ** 2)
            cols += [wt[0], wt[1]]
            coef += [r, r]
        return np.array(cols).reshape(-1, 2, 6), np.array(coef, dtype=float)
