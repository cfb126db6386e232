r"""Lower kinematic pairs as holonomic constraints on the poses of two bodies.

A joint connects a *parent* (pose ``p₁, R₁``) and a *child* (``p₂, R₂``) at anchor
points ``a₁`` (parent frame) and ``a₂`` (child frame); ``axis`` ``e`` is given in the
parent frame, and at joint coordinate ``q = 0`` the child's axes are parallel to the
parent's (so ``e`` is the same vector in both frames).  With ``u, w`` completing ``e`` to an
orthonormal basis and the anchor gap :math:`d = p_2 + R_2a_2 - p_1 - R_1a_1`, the
*forbidden* directions (Macchelli & Melchiorri 2008, §3.3; Stramigioli 2001, §3.4) are

=========== ============================================================== =====
kind        constraints :math:`g = 0`                                       rows
=========== ============================================================== =====
spherical   :math:`d`                                                         3
revolute    :math:`d,\ (R_1u)·(R_2e),\ (R_1w)·(R_2e)`                         5
prismatic   :math:`(R_1u)·d,\ (R_1w)·d`, orientation lock                   5
cylindrical :math:`(R_1u)·d,\ (R_1w)·d,\ (R_1u)·(R_2e),\ (R_1w)·(R_2e)`     4
universal   :math:`d,\ (R_1e)·(R_2f)` (``f = axis2`` ⊥ ``e``)                 4
planar      :math:`(R_1e)·d,\ (R_1u)·(R_2e),\ (R_1w)·(R_2e)` (``e`` the normal) 3
fixed       :math:`d`, orientation lock                                       6
free        none (a floating body: 6 joint coordinates, no constraint)        0
=========== ============================================================== =====

orientation lock: :math:`(R_1\hat x)·(R_2\hat y) = (R_1\hat y)·(R_2\hat z)
= (R_1\hat z)·(R_2\hat x) = 0`.

Every ``g`` is at most quadratic in the entries of ``(p, R)``.  The DAE imposes the
velocity form :math:`\dot g = \nabla g^\top K(q)\,T = B^\top z` (``T`` the body twists);
the midpoint rule evaluates it at :math:`\bar x`, and for quadratic ``g``
:math:`g(q_{k+1}) - g(q_k) = \nabla g(\bar q)^\top (q_{k+1} - q_k)` exactly, so the
position-level constraints are *kept to round-off without projection or stabilization*
(the same argument keeps ``RRᵀ = I``).

The free directions carry the joint coordinates and an actuator port: the generalized
velocity :math:`\dot q_i` and force/torque :math:`\tau_i` with power :math:`\tau_i\dot q_i`.

The **free joint** (6 dof) relates a floating body to its parent (or ``ground``) without
any constraint: it only names the relative pose and gives the body an input port.  Its
coordinates are the child anchor's position ``t`` in the parent anchor frame (m) and the
rotation vector :math:`\varphi = \log R_A` (rad) — a chart used for reporting only: the
state is the pose on SE(3), so nothing is singular at :math:`|\varphi| = \pi`.  Its
rates are a twist, not :math:`\dot\varphi`: :math:`(\dot t,\ \omega)` with ``ω`` the
relative angular velocity in the parent anchor axes
(:math:`\dot R_A R_A^\top = \tilde\omega`).  The port applies a force along and a torque
about the parent's axes at the child anchor (equal and opposite on the parent), with
power :math:`f\cdot\dot t + \tau\cdot\omega`: a wrench on the body.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from .. import lie
from ..errors import ModelError

__all__ = ["Feature", "Joint", "KINDS"]

#: number of joint coordinates of each kind (the free directions)
KINDS = {"revolute": 1, "prismatic": 1, "cylindrical": 2, "universal": 2, "spherical": 3,
         "planar": 3, "fixed": 0, "free": 6}


def _unit(v: Any, what: str) -> np.ndarray:
    a = np.asarray(v, dtype=float)
    if a.shape != (3,) or not np.linalg.norm(a) > 0:
        raise ModelError(f"{what} must be a nonzero 3-vector")
    return a / np.linalg.norm(a)


def _basis(e: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two unit vectors completing ``e`` to a right-handed orthonormal basis (u, w, e)."""
    t = np.eye(3)[int(np.argmin(np.abs(e)))]
    u = np.cross(t, e)
    u /= np.linalg.norm(u)
    return u, np.cross(e, u)


@dataclass(frozen=True)
class Feature:
    r"""An affine vector function of two poses,
    :math:`X = s_1 p_1 + R_1 a_1 + s_2 p_2 + R_2 a_2 + c` (``a`` entries ``None`` = 0).

    Every constraint of the table is ``g = X·Y`` for two features, so ``g`` is at most
    quadratic in ``(p, R)``, and its velocity form follows from
    :math:`\dot X = \sum_i R_i(s_i v_i - a_i\times\omega_i)` (body twists
    :math:`(\omega_i, v_i)`) — the form :mod:`.assembly` evaluates numerically.
    """

    s: tuple[int, int] = (0, 0)
    a: tuple[Any, Any] = (None, None)
    c: tuple[float, float, float] = (0, 0, 0)

    def __call__(self, p1: Any, R1: Any, p2: Any, R2: Any) -> Any:
        """The value, in SymPy (if any argument is a SymPy matrix) or NumPy arithmetic."""
        if any(isinstance(v, sp.MatrixBase) for v in (p1, R1, p2, R2)):
            out = sp.Matrix(self.c)
            for s, a, p, R in zip(self.s, self.a, (p1, p2), (R1, R2), strict=True):
                out += s * sp.Matrix(p) + (sp.Matrix(R) * sp.Matrix(a) if a is not None
                                           else sp.zeros(3, 1))
            return out
        out = np.array(self.c, dtype=float)
        for s, a, p, R in zip(self.s, self.a, (p1, p2), (R1, R2), strict=True):
            out = out + s * np.asarray(p, dtype=float)
            if a is not None:
                out = out + np.asarray(R, dtype=float) @ a
        return out


@dataclass
class Joint:
    """A lower pair between ``parent`` and ``child`` (body names; ``"ground"`` is fixed).

    ``axis``: the joint axis in the parent frame (revolute, prismatic, cylindrical,
    universal: first axis; planar: the plane normal), default z; ``axis2`` the universal
    joint's second axis (child frame), default a unit vector ⊥ ``axis``.
    """

    name: str
    kind: str
    parent: str
    child: str
    axis: Any = (0.0, 0.0, 1.0)
    parent_anchor: Any = (0.0, 0.0, 0.0)
    child_anchor: Any = (0.0, 0.0, 0.0)
    axis2: Any = None
    e: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ModelError(f"joint {self.name!r}: unknown kind {self.kind!r}; use one of "
                             f"{', '.join(KINDS)}")
        if self.parent == self.child:
            raise ModelError(f"joint {self.name!r} connects body {self.parent!r} to itself")
        self.e = _unit(self.axis, f"joint {self.name!r}: axis")
        self.u, self.w = _basis(self.e)
        self.a1 = np.asarray(self.parent_anchor, dtype=float).reshape(3)
        self.a2 = np.asarray(self.child_anchor, dtype=float).reshape(3)
        self.f = self.u if self.axis2 is None else _unit(self.axis2, f"joint {self.name!r}: axis2")
        if self.kind == "universal" and abs(self.f @ self.e) > 1e-12:
            raise ModelError(f"joint {self.name!r}: a universal joint needs axis2 ⊥ axis")

    @property
    def dof(self) -> int:
        return KINDS[self.kind]

    # ------------------------------------------------------------------ constraints
    def constraint_pairs(self) -> list[tuple[Feature, Feature]]:
        """The constraint rows as pairs ``(X, Y)`` of :class:`Feature` with ``g = X·Y``
        (module table, in its order)."""
        e, u, w = self.e, self.u, self.w
        d = Feature(s=(-1, 1), a=(-self.a1, self.a2))
        r1, r2 = (lambda v: Feature(a=(v, None))), (lambda v: Feature(a=(None, v)))
        gap = [(d, Feature(c=tuple(int(i == k) for i in range(3)))) for k in range(3)]
        align = [(r1(u), r2(e)), (r1(w), r2(e))]
        perp = [(r1(u), d), (r1(w), d)]
        X, Y, Z = np.eye(3)
        lock = [(r1(X), r2(Y)), (r1(Y), r2(Z)), (r1(Z), r2(X))]
        return {
            "spherical": gap,
            "revolute": gap + align,
            "prismatic": perp + lock,
            "cylindrical": perp + align,
            "universal": gap + [(r1(e), r2(self.f))],
            "planar": [(r1(e), d)] + align,
            "fixed": gap + lock,
            "free": [],
        }[self.kind]

    def constraints(self, p1: Any, R1: Any, p2: Any, R2: Any) -> list[Any]:
        """The constraint functions ``g = X·Y`` (module table), in SymPy or NumPy
        arithmetic."""
        symbolic = any(isinstance(a, sp.MatrixBase) for a in (p1, R1, p2, R2))
        out = []
        for X, Y in self.constraint_pairs():
            x, y = X(p1, R1, p2, R2), Y(p1, R1, p2, R2)
            out.append(sum(x[i] * y[i] for i in range(3)) if symbolic else float(x @ y))
        return out

    def actuator_directions(self) -> list[tuple[str, Feature]]:
        """Free directions: ``("rot", n)`` a torque about, ``("trans", n)`` a force along
        the inertial vector ``n`` (a :class:`Feature`), one per joint coordinate."""
        r1 = lambda v: Feature(a=(v, None))  # noqa: E731
        e, u, w = self.e, self.u, self.w
        X, Y, Z = np.eye(3)
        return {
            "revolute": [("rot", r1(e))],
            "prismatic": [("trans", r1(e))],
            "cylindrical": [("rot", r1(e)), ("trans", r1(e))],
            "universal": [("rot", r1(e)), ("rot", Feature(a=(None, self.f)))],
            "spherical": [("rot", r1(X)), ("rot", r1(Y)), ("rot", r1(Z))],
            "planar": [("trans", r1(u)), ("trans", r1(w)), ("rot", r1(e))],
            "fixed": [],
            "free": [("trans", r1(X)), ("trans", r1(Y)), ("trans", r1(Z)),
                     ("rot", r1(X)), ("rot", r1(Y)), ("rot", r1(Z))],
        }[self.kind]

    # ------------------------------------------------------------------ joint motion
    def motion(self, q: Any) -> np.ndarray:
        """Pose of the child anchor frame in the parent anchor frame at coordinates ``q``."""
        q = np.atleast_1d(np.asarray(q, dtype=float))
        if q.shape != (self.dof,):
            raise ModelError(f"joint {self.name!r} ({self.kind}) has {self.dof} coordinate(s), "
                             f"got {q.size}")
        e, u, w = self.e, self.u, self.w
        rot = lambda axis, ang: lie.homogeneous(lie.exp_so3(ang * axis))  # noqa: E731
        tr = lambda v: lie.homogeneous(p=v)  # noqa: E731
        if self.kind == "revolute":
            return rot(e, q[0])
        if self.kind == "prismatic":
            return tr(q[0] * e)
        if self.kind == "cylindrical":
            return tr(q[1] * e) @ rot(e, q[0])
        if self.kind == "universal":
            return rot(e, q[0]) @ rot(self.f, q[1])
        if self.kind == "spherical":
            return lie.homogeneous(lie.exp_so3(q))
        if self.kind == "planar":
            return tr(q[0] * u + q[1] * w) @ rot(e, q[2])
        if self.kind == "free":
            return tr(q[:3]) @ lie.homogeneous(lie.exp_so3(q[3:]))
        return np.eye(4)

    def child_pose(self, H1: np.ndarray, q: Any) -> np.ndarray:
        """Child pose from the parent pose: ``H₂ = H₁ · Tr(a₁) · motion(q) · Tr(−a₂)``."""
        return H1 @ lie.homogeneous(p=self.a1) @ self.motion(q) @ lie.homogeneous(p=-self.a2)

    def coordinates(self, H1: np.ndarray, H2: np.ndarray) -> np.ndarray:
        """Joint coordinates from the two poses (inverse of :meth:`child_pose`; the
        revolute angle is in (−π, π], unwrap a time series with ``numpy.unwrap``)."""
        A = lie.inverse(H1 @ lie.homogeneous(p=self.a1)) @ H2 @ lie.homogeneous(p=self.a2)
        R, t = A[:3, :3], A[:3, 3]
        e, u, w = self.e, self.u, self.w
        ang = float(np.arctan2(w @ R @ u, u @ R @ u))  # rotation about e
        if self.kind == "revolute":
            return np.array([ang])
        if self.kind == "prismatic":
            return np.array([t @ e])
        if self.kind == "cylindrical":
            return np.array([ang, t @ e])
        if self.kind == "universal":  # R = Rot(e, q1) Rot(f, q2), so R f = Rot(e, q1) f
            Rf = R @ self.f
            q1 = float(np.arctan2(Rf @ np.cross(e, self.f), Rf @ self.f))
            return np.array([q1, lie.log_so3(lie.exp_so3(-q1 * e) @ R) @ self.f])
        if self.kind == "spherical":
            return lie.log_so3(R)
        if self.kind == "planar":
            return np.array([t @ u, t @ w, ang])
        if self.kind == "free":
            return np.concatenate([t, lie.log_so3(R)])
        return np.zeros(0)

    def screws(self, H1: np.ndarray, q: Any) -> np.ndarray:
        r"""Spatial twists (6 × dof, inertial frame) of the child relative to the parent
        per unit joint velocity, at parent pose ``H1`` and coordinates ``q``: the free
        directions.  In the anchor frame, :math:`\dot M M^{-1}` of :meth:`motion`
        (spherical: the left Jacobian of SO(3)), then :math:`\mathrm{Ad}_{H_1 Tr(a_1)}`."""
        q = np.atleast_1d(np.asarray(q, dtype=float))
        e, u, w, z = self.e, self.u, self.w, np.zeros(3)
        cols: list[np.ndarray]
        if self.kind == "revolute":
            cols = [np.r_[e, z]]
        elif self.kind == "prismatic":
            cols = [np.r_[z, e]]
        elif self.kind == "cylindrical":
            cols = [np.r_[e, z], np.r_[z, e]]
        elif self.kind == "universal":
            cols = [np.r_[e, z], np.r_[lie.exp_so3(q[0] * e) @ self.f, z]]
        elif self.kind == "spherical":
            _, b, c = lie._coefficients(float(np.linalg.norm(q)))
            Q = lie.hat(q)
            Jl = np.eye(3) + b * Q + c * Q @ Q
            cols = [np.r_[Jl[:, i], z] for i in range(3)]
        elif self.kind == "planar":
            t = q[0] * u + q[1] * w
            cols = [np.r_[z, u], np.r_[z, w], np.r_[e, np.cross(t, e)]]
        elif self.kind == "free":  # rates (ṫ, ω): twist (ω, ṫ + t × ω) of Tr(t)R
            E3 = np.eye(3)
            cols = ([np.r_[z, E3[i]] for i in range(3)]
                    + [np.r_[E3[i], np.cross(q[:3], E3[i])] for i in range(3)])
        else:
            cols = []
        A = lie.Ad(H1 @ lie.homogeneous(p=self.a1))
        return A @ np.array(cols).reshape(-1, 6).T
