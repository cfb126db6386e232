r"""Physical variables of a mechanism's results: joint coordinates and rates, body
positions and attitudes, joint reactions, with their kinds and SI units.

The state of a mechanism is a pose ``(p, R)`` and a body momentum ``P`` per body
(:mod:`.rigid_body`) — what the integrator needs, not what a person reads.
:func:`mechanism_quantities` builds the :class:`~porthamiltonian.quantities.Quantities`
annotation that :meth:`.Mechanism.assemble` and :meth:`.Mechanism.system` attach to the
system (``system.quantities``); a result of :func:`porthamiltonian.simulate` then gives,
by name (``res["elbow.q"]``), the series below.  Only the joint coordinates and rates
are *shown* (summaries and the default plot); ``res.variables`` lists everything.

**Joints** (role ``"joint"``, shown) — ``<joint>.q`` and ``<joint>.qd`` for a joint with
one coordinate, ``<joint>.q[i]`` and ``<joint>.qd[i]`` for several:

=========== ============================================= ============================
kind        coordinates ``q`` (units)                     rates ``qd`` (units)
=========== ============================================= ============================
revolute    angle about the axis (rad)                    angular velocity (rad/s)
prismatic   displacement along the axis (m)               velocity (m/s)
cylindrical [angle (rad), displacement (m)]               [rad/s, m/s]
universal   [angle about ``axis``, about ``axis2``] (rad)   [rad/s, rad/s]
spherical   rotation vector (rad), :math:`|q| \le \pi`    its time derivative (rad/s)
planar      [x along ``u``, y along ``w`` (m), angle (rad)] [m/s, m/s, rad/s]
free        [position ``t`` (m), rotation vector (rad)]   twist [ṫ (m/s), ω (rad/s)]
=========== ============================================= ============================

A free joint's rates are the twist of :meth:`.Joint.screws`: ``ṫ`` and the relative
angular velocity ``ω`` in the parent anchor axes (not the rotation vector's derivative,
which is singular at :math:`|\varphi| = 2\pi`); ``<joint>.quat[0..3]`` (not shown) is
the relative rotation as a unit quaternion (w, x, y, z), its sign kept continuous in
time.

They are the coordinates of :meth:`.Joint.motion`: the relative pose of the child's
anchor frame in the parent's, :math:`A = (H_1\,Tr(a_1))^{-1} H_2\,Tr(a_2)` (rotation
:math:`R_A = R_1^\top R_2`, translation :math:`t_A`), measured from the joint's
reference configuration (``q = 0``: the child's axes parallel to the parent's, the
anchors together).  An angle about a unit axis ``e`` (with ``u, w`` completing it to a
right-handed basis) is :math:`\operatorname{atan2}(w^\top R_A u,\ u^\top R_A u)`, then
*unwrapped* over time (continuous, not folded into (−π, π]), and shifted by a whole
number of turns so that at ``t0`` it equals the initial angle the user gave (``q0`` of
:meth:`.Mechanism.simulate`, ``simulate.initial`` of a model file); a displacement is
:math:`e^\top t_A`.  The rates come from the velocities, not from differencing: the body
twists :math:`T_i = M_i^{-1}P_i` (body frame, order ``(ω, v)``) give the relative twist
in the parent anchor frame,

.. math::
    T_{rel} = \mathrm{Ad}_{(H_1 Tr(a_1))^{-1} H_2}\,T_2 - \mathrm{Ad}_{Tr(-a_1)}\,T_1
    = S(q)\,\dot q,

with ``S(q)`` the joint's screws in its anchor frame (:meth:`.Joint.screws` before the
adjoint); for a revolute joint :math:`\dot q = e^\top\omega_{rel}` with
:math:`\omega_{rel} = R_1^\top R_2\,\omega_2 - \omega_1`.

**Bodies** (role ``"body"``, not shown) — ``<body>.x``, ``.y``, ``.z``: the inertial
position of the centre of mass, :math:`p + Rc` (m); ``<body>.roll``, ``.pitch``,
``.yaw``: Cardan (Tait–Bryan) angles of the body axes in the z-y′-x″ convention,
:math:`R = R_z(\text{yaw})\,R_y(\text{pitch})\,R_x(\text{roll})` (rad; roll and yaw
unwrapped, pitch in [−π/2, π/2]).  A body turning about the inertial z axis has
``yaw`` equal to its rotation angle.

**Joint reactions** (role ``"force"``, not shown; DAE results only) —
``<joint>.F[i]`` (N) and ``<joint>.M[i]`` (N·m), ``i`` = 0, 1, 2: the force and the
moment the joint's constraints exert on its child body, in inertial axes, the moment
about the child's anchor point :math:`p_2 + R_2 a_2`.  They are the constraint columns
times the multipliers, :math:`\sum_r \lambda_r\,B_r(x)` on the child's momentum rows
(:mod:`.assembly`); a result of the midpoint or discrete-gradient step saves
:math:`\lambda` as the mean force over the step ending at the saved point, so they are
mean values there too (IDA: values at the point).  Actuator torques, springs and
dampers are not included (they are the ports).  A joint whose child is ``ground`` gets
minus the wrench on its parent (the co-cycle law).  With redundant closure rows dropped
(:attr:`.Mechanism.dropped`) the reactions of a closed chain are those of the kept rows.

**States and ports** — ``<body>.p[i]`` position of the body frame (m), co-energy
``<body>.dH/dp[i]`` = :math:`-m g_i` (N); ``<body>.R[i]`` rotation-matrix entries (1),
co-energy ``<body>.dH/dR[i]`` (J); ``<body>.P[0..2]`` angular momentum (N·m·s) with
co-energy ``<body>.w[i]`` the angular velocity (rad/s), ``<body>.P[3..5]`` momentum
(N·s) with co-energy ``<body>.v[i]`` the velocity of the body-frame origin (m/s), both in
body axes; an actuator spring ``<joint>.s[i]`` (rad or m) with co-energy
``<joint>.spring[i]`` (N·m or N).  Inputs ``<joint>.tau[i]``: torque (N·m) or force (N);
outputs ``<joint>.v[i]``: joint rate (rad/s or m/s).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from .. import lie
from ..quantities import Observable, Quantities, Quantity, StateInfo
from .assembly import _constraint_wrenches, _pack
from .dual import Ends
from .graph import GROUND
from .joints import Joint
from .protocols import MechanismModel

__all__ = ["mechanism_quantities", "joint_coordinates", "joint_rates", "angle_columns",
           "cardan_angles", "quaternions"]

ANGLE = Quantity("angle", "rad", "theta")
RATE = Quantity("angular velocity", "rad/s", "w")
LENGTH = Quantity("displacement", "m", "x")
SPEED = Quantity("velocity", "m/s", "v")
TORQUE = Quantity("torque", "N*m", "tau")
FORCE = Quantity("force", "N", "F")

#: per joint kind: whether each coordinate is an angle (else a length)
_ANGULAR: dict[str, tuple[bool, ...]] = {
    "revolute": (True,), "prismatic": (False,), "cylindrical": (True, False),
    "universal": (True, True), "spherical": (True, True, True),
    "planar": (False, False, True), "fixed": (),
    "free": (False, False, False, True, True, True),
}


def angle_columns(kind: str) -> list[int]:
    """Columns of a joint's coordinates that are angles about one axis — those
    unwrapped over time (a spherical joint's rotation vector is not: its components are
    not angles about fixed axes)."""
    if kind in ("spherical", "free"):
        return []
    return [i for i, a in enumerate(_ANGULAR[kind]) if a]


# ---------------------------------------------------------------------- kinematics
def _body_rows(res: Any, body: str) -> int | None:
    """Index of ``<body>.p[0]`` in the result's states (``None`` for ground)."""
    return None if body == GROUND else list(res.states).index(f"{body}.p[0]")


def _pose(X: np.ndarray, o: int | None) -> tuple[np.ndarray, np.ndarray]:
    """Positions (N × 3) and rotations (N × 3 × 3) of the body whose states begin at
    column ``o`` (ground: 0 and I)."""
    if o is None:
        n = X.shape[0]
        return np.zeros((n, 3)), np.broadcast_to(np.eye(3), (n, 3, 3))
    return X[:, o:o + 3], X[:, o + 3:o + 12].reshape(-1, 3, 3)


def _twist(X: np.ndarray, o: int | None, Minv: np.ndarray | None,
           null: tuple[np.ndarray, int] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Body twist ``(ω, v)`` (N × 3 each, body axes) from the momenta, ``T = M⁻¹P``; a
    slender or point body (``null`` = its null twists and the column of its first
    null rate): ``T = M⁺P + Nμ`` (:mod:`.slender`)."""
    if o is None:
        z = np.zeros((X.shape[0], 3))
        return z, z
    T = X[:, o + 12:o + 18] @ np.asarray(Minv).T
    if null is not None:
        N, c = null
        T = T + X[:, c:c + N.shape[1]] @ N.T
    return T[:, :3], T[:, 3:]


def _mv(R: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Row-wise ``R v`` (R: N × 3 × 3, v: N × 3 or 3)."""
    return np.einsum("nij,j->ni", R, v) if v.ndim == 1 else np.einsum("nij,nj->ni", R, v)


def _mtv(R: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Row-wise ``Rᵀ v``."""
    return np.einsum("nji,nj->ni", R, v) if v.ndim == 2 else np.einsum("nji,j->ni", R, v)


def _relative(j: Joint, p1: np.ndarray, R1: np.ndarray, p2: np.ndarray, R2: np.ndarray
              ) -> tuple[np.ndarray, np.ndarray]:
    """``R_A = R₁ᵀR₂`` (N × 3 × 3) and ``t_A`` (N × 3): the child anchor frame in the
    parent anchor frame."""
    RA = np.einsum("nji,njk->nik", R1, R2)
    gap = p2 + _mv(R2, j.a2) - p1 - _mv(R1, j.a1)
    return RA, _mtv(R1, gap)


def _angle_about(e: np.ndarray, u: np.ndarray, w: np.ndarray, R: np.ndarray) -> np.ndarray:
    """``atan2(wᵀRu, uᵀRu)``: the angle of ``R`` about ``e`` (exact when ``R e = e``)."""
    Ru = _mv(R, u)
    return np.arctan2(Ru @ w, Ru @ u)


def _rotate(e: np.ndarray, angle: np.ndarray, v: np.ndarray) -> np.ndarray:
    """Rodrigues: rows of ``v`` (N × 3) rotated about the unit vector ``e`` by ``angle``."""
    c, s = np.cos(angle)[:, None], np.sin(angle)[:, None]
    return v * c + np.cross(e, v) * s + np.outer(v @ e, e) * (1.0 - c)


def joint_coordinates(j: Joint, p1: np.ndarray, R1: np.ndarray, p2: np.ndarray,
                      R2: np.ndarray) -> np.ndarray:
    """Coordinates (N × dof) of joint ``j`` at parent poses ``(p1, R1)`` and child poses
    ``(p2, R2)`` (N × 3, N × 3 × 3): :meth:`.Joint.coordinates` for many poses at once
    (angles in (−π, π], not unwrapped)."""
    RA, t = _relative(j, p1, R1, p2, R2)
    e, u, w = j.e, j.u, j.w
    kind = j.kind
    if kind == "fixed":
        return np.zeros((RA.shape[0], 0))
    if kind == "spherical":
        return np.array([lie.log_so3(R) for R in RA]).reshape(-1, 3)
    if kind == "universal":  # R_A = Rot(e, q1) Rot(f, q2): R_A f = Rot(e, q1) f
        f = j.f
        Rf = _mv(RA, f)
        q1 = np.arctan2(Rf @ np.cross(e, f), Rf @ f)
        Re = _rotate(e, -q1, _mv(RA, e))  # Rot(f, q2) e = cos q2 e + sin q2 (f × e)
        q2 = np.arctan2(Re @ np.cross(f, e), Re @ e)
        return np.stack([q1, q2], axis=1)
    if kind == "free":
        return np.hstack([t, np.array([lie.log_so3(R) for R in RA]).reshape(-1, 3)])
    ang = _angle_about(e, u, w, RA)
    cols = {"revolute": [ang], "prismatic": [t @ e], "cylindrical": [ang, t @ e],
            "planar": [t @ u, t @ w, ang]}[kind]
    return np.stack(cols, axis=1)


def joint_rates(j: Joint, q: np.ndarray, p1: np.ndarray, R1: np.ndarray,
                T1: tuple[np.ndarray, np.ndarray], p2: np.ndarray, R2: np.ndarray,
                T2: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    r"""Rates :math:`\dot q` (N × dof) of joint ``j`` at coordinates ``q`` from the body
    twists ``T1, T2`` (``(ω, v)`` in body axes, N × 3 each; module docstring): the
    relative twist in the parent anchor frame, solved against the joint's screws."""
    RA = np.einsum("nji,njk->nik", R1, R2)           # R₁ᵀR₂
    pc = _mtv(R1, p2 - p1 - _mv(R1, j.a1))           # child origin in the anchor frame
    w2 = _mv(RA, T2[0])
    w_rel = w2 - T1[0]
    v_rel = np.cross(pc, w2) + _mv(RA, T2[1]) - (np.cross(-j.a1, T1[0]) + T1[1])
    e, u, w = j.e, j.u, j.w
    kind = j.kind
    if kind == "revolute":
        return (w_rel @ e)[:, None]
    if kind == "prismatic":
        return (v_rel @ e)[:, None]
    if kind == "cylindrical":
        return np.stack([w_rel @ e, v_rel @ e], axis=1)
    if kind == "universal":  # ω_rel = e q̇₁ + Rot(e, q₁) f q̇₂, the two orthogonal
        f1 = _rotate(e, q[:, 0], np.broadcast_to(j.f, w_rel.shape))
        return np.stack([w_rel @ e, np.einsum("ni,ni->n", w_rel, f1)], axis=1)
    if kind == "spherical":  # ω_rel = J_l(q) q̇ (left Jacobian of SO(3))
        out = np.empty_like(w_rel)
        for k in range(q.shape[0]):
            _, b, c = lie._coefficients(float(np.linalg.norm(q[k])))
            Q = lie.hat(q[k])
            out[k] = np.linalg.solve(np.eye(3) + b * Q + c * Q @ Q, w_rel[k])
        return out
    if kind == "planar":  # v_rel = u q̇₁ + w q̇₂ + (t × e) q̇₃, t = q₁u + q₂w
        rot = w_rel @ e
        t = np.outer(q[:, 0], u) + np.outer(q[:, 1], w)
        v = v_rel - np.cross(t, e) * rot[:, None]
        return np.stack([v @ u, v @ w, rot], axis=1)
    if kind == "free":  # v_rel = ṫ + t × ω
        return np.hstack([v_rel - np.cross(q[:, :3], w_rel), w_rel])
    return np.zeros((w_rel.shape[0], 0))


def quaternions(R: np.ndarray) -> np.ndarray:
    """Unit quaternions (N × 4, scalar first) of rotations ``R`` (N × 3 × 3) by
    Shepperd's method (from the largest of the four candidates), the sign of each
    chosen so that consecutive ones have a non-negative inner product."""
    tr = np.trace(R, axis1=1, axis2=2)
    cand = np.stack([tr, R[:, 0, 0], R[:, 1, 1], R[:, 2, 2]], axis=1)
    k = np.argmax(cand, axis=1)
    q = np.empty((R.shape[0], 4))
    for n, (Rn, kn) in enumerate(zip(R, k, strict=True)):
        if kn == 0:
            s = 2.0 * np.sqrt(1.0 + tr[n])
            q[n] = [s / 4, (Rn[2, 1] - Rn[1, 2]) / s, (Rn[0, 2] - Rn[2, 0]) / s,
                    (Rn[1, 0] - Rn[0, 1]) / s]
        else:
            i = kn - 1
            j, m = (i + 1) % 3, (i + 2) % 3
            s = 2.0 * np.sqrt(max(1.0 + Rn[i, i] - Rn[j, j] - Rn[m, m], 0.0))
            q[n, 0] = (Rn[m, j] - Rn[j, m]) / s
            q[n, 1 + i] = s / 4
            q[n, 1 + j] = (Rn[j, i] + Rn[i, j]) / s
            q[n, 1 + m] = (Rn[m, i] + Rn[i, m]) / s
    for n in range(1, q.shape[0]):
        if q[n] @ q[n - 1] < 0:
            q[n] = -q[n]
    return q


def cardan_angles(R: np.ndarray) -> np.ndarray:
    r"""Roll, pitch, yaw (N × 3, rad) of rotations ``R`` (N × 3 × 3) in the z-y′-x″
    convention :math:`R = R_z(\psi) R_y(\theta) R_x(\phi)`:
    :math:`\phi = \operatorname{atan2}(R_{32}, R_{33})`,
    :math:`\theta = \operatorname{atan2}(-R_{31}, \sqrt{R_{32}^2 + R_{33}^2})`,
    :math:`\psi = \operatorname{atan2}(R_{21}, R_{11})` (not unwrapped)."""
    roll = np.arctan2(R[:, 2, 1], R[:, 2, 2])
    pitch = np.arctan2(-R[:, 2, 0], np.hypot(R[:, 2, 1], R[:, 2, 2]))
    yaw = np.arctan2(R[:, 1, 0], R[:, 0, 0])
    return np.stack([roll, pitch, yaw], axis=1)


# ---------------------------------------------------------------------- the annotation
class _Kinematics:
    """What the observables of one mechanism read: body inertias and com's, joints (a
    snapshot, so a later change of the builder does not change them) and the initial
    coordinates that fix the turn of each angle."""

    def __init__(self, mech: MechanismModel, q0: Mapping[str, Any] | None) -> None:
        self.Minv = {b: body.compliance for b, body in mech.bodies.items()}
        self.null = {b: body.null_twists for b, body in mech.bodies.items() if body.singular}
        self.com = {b: body.com.copy() for b, body in mech.bodies.items()}
        self.joints = dict(mech.joints)
        self.q0 = {jn: np.atleast_1d(np.asarray(v, dtype=float))
                   for jn, v in dict(q0 or {}).items() if jn in self.joints}

    def ends(self, res: Any, j: Joint) -> tuple:
        X = np.asarray(res.x, dtype=float)
        o1, o2 = _body_rows(res, j.parent), _body_rows(res, j.child)
        return (X, o1, o2, *_pose(X, o1), *_pose(X, o2))

    def coordinates(self, res: Any, jn: str) -> np.ndarray:
        """Unwrapped coordinates of joint ``jn`` (N × dof), on the turn of ``q0``."""
        j = self.joints[jn]
        _, _, _, p1, R1, p2, R2 = self.ends(res, j)
        q = joint_coordinates(j, p1, R1, p2, R2)
        given = self.q0.get(jn)
        for i in angle_columns(j.kind):
            q[:, i] = np.unwrap(q[:, i])
            if given is not None and given.size == j.dof and q.shape[0]:
                q[:, i] += 2 * np.pi * np.round((given[i] - q[0, i]) / (2 * np.pi))
        return q

    def _null(self, res: Any, b: str) -> tuple[np.ndarray, int] | None:
        """A slender/point body's null twists and the column of ``<b>.mu[0]``."""
        if b not in self.null:
            return None
        return self.null[b], list(res.states).index(f"{b}.mu[0]")

    def rates(self, res: Any, jn: str) -> np.ndarray:
        j = self.joints[jn]
        X, o1, o2, p1, R1, p2, R2 = self.ends(res, j)
        q = joint_coordinates(j, p1, R1, p2, R2)
        T1 = _twist(X, o1, self.Minv.get(j.parent), self._null(res, j.parent))
        T2 = _twist(X, o2, self.Minv.get(j.child), self._null(res, j.child))
        return joint_rates(j, q, p1, R1, T1, p2, R2, T2)

    def quaternion(self, res: Any, jn: str) -> np.ndarray:
        """Relative rotation of joint ``jn`` as unit quaternions (N × 4), sign-continuous."""
        _, _, _, _, R1, _, R2 = self.ends(res, self.joints[jn])
        return quaternions(np.einsum("nji,njk->nik", R1, R2))

    def body(self, res: Any, b: str) -> tuple[np.ndarray, np.ndarray]:
        """Centre-of-mass positions (N × 3) and unwrapped roll, pitch, yaw (N × 3)."""
        p, R = _pose(np.asarray(res.x, dtype=float), _body_rows(res, b))
        ang = cardan_angles(R)
        ang[:, 0], ang[:, 2] = np.unwrap(ang[:, 0]), np.unwrap(ang[:, 2])
        return p + _mv(R, self.com[b]), ang

    def reaction(self, res: Any, jn: str) -> np.ndarray:
        """Force (N) and moment (N·m) on the child, inertial axes, the moment about the
        child anchor point (N × 6; module docstring)."""
        j = self.joints[jn]
        X, o1, o2, p1, R1, p2, R2 = self.ends(res, j)
        n = X.shape[0]
        names = list(getattr(res, "multipliers", []) or [])
        lam = np.asarray(getattr(res, "lam", np.zeros((n, 0))), dtype=float)
        pairs = j.constraint_pairs()
        rows = [(i, names.index(f"{jn}.lambda[{i}]")) for i in range(len(pairs))
                if f"{jn}.lambda[{i}]" in names]
        live = np.array([o1 is not None, o2 is not None], dtype=float)
        E = Ends(np.stack([p1, p2], axis=1), np.stack([R1, R2], axis=1),
                 np.broadcast_to(live, (n, 2)))
        side = 1 if o2 is not None else 0
        Wb = np.zeros((n, 6))
        for i, col in rows:
            fx, fy = (tuple(np.repeat(a, n, axis=0) for a in _pack([pairs[i][s]]))
                      for s in (0, 1))
            W, _ = _constraint_wrenches(E, fx, fy, deriv=False)
            Wb += lam[:, col, None] * W[:, side]
        p, R = (p2, R2) if side == 1 else (p1, R1)
        force = _mv(R, Wb[:, 3:])
        moment = _mv(R, Wb[:, :3]) + np.cross(p, force)   # about the inertial origin
        if side == 0:                                        # child is ground
            force, moment = -force, -moment
        anchor = p2 + _mv(R2, j.a2)
        return np.concatenate([force, moment - np.cross(anchor, force)], axis=1)


def _column(f: Callable[[Any], np.ndarray], i: int) -> Callable[[Any], np.ndarray]:
    return lambda res: f(res)[:, i]


def _names(base: str, sym: str, dof: int) -> list[str]:
    return [f"{base}.{sym}"] if dof == 1 else [f"{base}.{sym}[{i}]" for i in range(dof)]


def _joint_observables(kin: _Kinematics) -> list[Observable]:
    out: list[Observable] = []
    for jn, j in kin.joints.items():
        if j.dof == 0:
            continue
        q = lambda res, jn=jn: kin.coordinates(res, jn)  # noqa: E731
        qd = lambda res, jn=jn: kin.rates(res, jn)  # noqa: E731
        ang = _ANGULAR[j.kind]
        for i, (nq, nv) in enumerate(zip(_names(jn, "q", j.dof), _names(jn, "qd", j.dof),
                                         strict=True)):
            what = f"{j.kind} joint {jn!r}" + (f", coordinate {i}" if j.dof > 1 else "")
            out.append(Observable(nq, ANGLE if ang[i] else LENGTH, func=_column(q, i),
                                  role="joint", element=jn, shown=True,
                                  description=f"{what}: {'angle' if ang[i] else 'displacement'}"
                                              " from the reference configuration"))
            out.append(Observable(nv, RATE if ang[i] else SPEED, func=_column(qd, i),
                                  role="joint", element=jn, shown=True,
                                  description=f"{what}: rate"))
        if j.kind == "free":
            quat = lambda res, jn=jn: kin.quaternion(res, jn)  # noqa: E731
            for i in range(4):
                out.append(Observable(f"{jn}.quat[{i}]", Quantity("quaternion", "", "q"),
                                      func=_column(quat, i), role="joint", element=jn,
                                      description=f"free joint {jn!r}: relative rotation, "
                                      f"unit quaternion component {'wxyz'[i]}"))
    return out


def _body_observables(kin: _Kinematics, shown: bool) -> list[Observable]:
    out: list[Observable] = []
    labels = [("x", LENGTH, "centre of mass, inertial x"),
              ("y", LENGTH, "centre of mass, inertial y"),
              ("z", LENGTH, "centre of mass, inertial z"),
              ("roll", ANGLE, "Cardan z-y′-x″: rotation about body x″"),
              ("pitch", ANGLE, "Cardan z-y′-x″: rotation about y′"),
              ("yaw", ANGLE, "Cardan z-y′-x″: rotation about inertial z")]
    for b in kin.Minv:
        both = lambda res, b=b: np.hstack(kin.body(res, b))  # noqa: E731
        for i, (sym, qty, what) in enumerate(labels):
            out.append(Observable(f"{b}.{sym}", Quantity("position", "m", sym)
                                  if qty is LENGTH else qty, func=_column(both, i),
                                  role="body", element=b, description=what, shown=shown))
    return out


def _force_observables(kin: _Kinematics, multipliers: Sequence[str]) -> list[Observable]:
    out: list[Observable] = []
    have = set(multipliers)
    for jn, j in kin.joints.items():
        if not any(f"{jn}.lambda[{i}]" in have for i in range(len(j.constraint_pairs()))):
            continue
        f = lambda res, jn=jn: kin.reaction(res, jn)  # noqa: E731
        for i in range(3):
            out.append(Observable(f"{jn}.F[{i}]", FORCE, func=_column(f, i), role="force",
                                  element=jn, description=f"reaction force on {j.child!r}, "
                                  f"inertial axis {i}"))
        for i in range(3):
            out.append(Observable(f"{jn}.M[{i}]", Quantity("moment", "N*m", "M"),
                                  func=_column(f, 3 + i), role="force", element=jn,
                                  description=f"reaction moment on {j.child!r} about its "
                                  f"anchor, inertial axis {i}"))
    return out


def _state_infos(mech: MechanismModel, states: Sequence[str]) -> dict[str, StateInfo]:
    out: dict[str, StateInfo] = {}
    present = set(states)
    for b in mech.bodies:
        for i in range(3):
            out[f"{b}.p[{i}]"] = StateInfo(b, Quantity("position", "m", "p"),
                                           Quantity("potential force", "N", "F"),
                                           f"{b}.dH/dp[{i}]")
        for i in range(9):
            out[f"{b}.R[{i}]"] = StateInfo(b, Quantity("rotation matrix entry", "", "R"),
                                           Quantity("potential gradient", "J", ""),
                                           f"{b}.dH/dR[{i}]")
        for i in range(3):
            out[f"{b}.P[{i}]"] = StateInfo(b, Quantity("angular momentum", "N*m*s", "L"),
                                           Quantity("angular velocity", "rad/s", "w"),
                                           f"{b}.w[{i}]")
            out[f"{b}.P[{3 + i}]"] = StateInfo(b, Quantity("momentum", "N*s", "p"),
                                               Quantity("velocity", "m/s", "v"), f"{b}.v[{i}]")
        for i in range(mech.bodies[b].null_axes.shape[1]):  # slender/point bodies
            out[f"{b}.mu[{i}]"] = StateInfo(b, RATE, RATE, f"{b}.spin[{i}]")
    for jn in mech.actuators:
        j = mech.joints[jn]
        for i, (kind, _) in enumerate(j.actuator_directions()):
            rot = kind == "rot"
            out[f"{jn}.s[{i}]"] = StateInfo(
                jn, ANGLE if rot else LENGTH,
                Quantity("spring torque", "N*m", "tau") if rot
                else Quantity("spring force", "N", "F"), f"{jn}.spring[{i}]")
    return {s: info for s, info in out.items() if s in present}


def _ports(mech: MechanismModel) -> dict[str, Quantity]:
    out: dict[str, Quantity] = {}
    for jn in mech.actuators:
        for i, (kind, _) in enumerate(mech.joints[jn].actuator_directions()):
            rot = kind == "rot"
            out[f"{jn}.tau[{i}]"] = TORQUE if rot else FORCE
            out[f"{jn}.v[{i}]"] = RATE if rot else SPEED
    return out


def mechanism_quantities(mech: MechanismModel, system: Any,
                         q0: Mapping[str, Any] | None = None) -> Quantities:
    """The :class:`~porthamiltonian.quantities.Quantities` of ``system`` (the assembled
    or symbolic pH-DAE of ``mech``; module docstring): joint coordinates and rates
    (shown), body positions and Cardan angles, joint reactions for the multipliers
    ``system`` has, state and port kinds and units.  ``q0``: the initial joint
    coordinates, which fix the turn of the angles at ``t0``.  A mechanism without any
    joint coordinate shows its bodies' positions and angles instead."""
    kin = _Kinematics(mech, q0)
    joints = _joint_observables(kin)
    obs = [*joints, *_body_observables(kin, shown=not joints),
           *_force_observables(kin, list(getattr(system, "multipliers", []) or []))]
    return Quantities(states=_state_infos(mech, list(system.states)), ports=_ports(mech),
                      observables=tuple(obs), shown_only=True)
