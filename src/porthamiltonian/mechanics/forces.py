r"""Force elements between two body frames: a wrench port, a spring–damper, a bushing.

A force element joins two ends — bodies or ``ground`` — at anchor points ``a₁``, ``a₂``
(body coordinates, m) and enters the mechanism's pH-DAE through the same three doors as
everything else (:mod:`.force_assembly`):

* **energy** ``V(q₁, q₂)`` of the two poses, added to :math:`\mathcal H`; its gradient
  with respect to the raw pose entries ``(p, R)`` joins the efforts ``z``, and the body
  structure :math:`-K(q)^\top\partial_q\mathcal H` turns it into the spring wrenches —
  exactly as gravity enters (:mod:`.rigid_body`);
* **dissipation** :math:`\mathcal R = \sum_j r_j\,c_j c_j^\top` with columns ``c_j``
  (12-vectors: a wrench on each end, body coordinates ``(τ, f)``) and coefficients
  ``r_j ≥ 0``: the damping force ``−r_j (c_jᵀT) c_j``, dissipated power
  :math:`r_j (c_j^\top T)^2`;
* **ports**: input columns ``G`` (the same kind of 12-vectors) with outputs
  ``y = Gᵀ T``, so ``uᵀy`` is the power delivered through the element.

Notation: ``c_i = p_i + R_i a_i`` the anchor points, ``d = c₂ − c₁``; body twists
``T_i = (ω_i, v_i)`` (body axes, ``v_i`` the velocity of the body-frame origin); the
anchor point moves with :math:`\dot c_i = R_i(v_i + \omega_i\times a_i)`.  All formulas
are written for *any* 3×3 ``R`` (the midpoint of two rotations is not a rotation), and a
column ``c`` paired with ``T`` is always the exact rate of what it measures, so power
is conserved at the discrete level whatever ``R`` is.

Relative twist of end 2 with respect to end 1 (:func:`relative_columns`), components in
the axes of end 1 (``axes="first"``; :math:`A = R_1^\top R_2`) or inertial (``"world"``):

.. math::
    \Delta\omega = A\,\omega_2 - \omega_1,\qquad
    \Delta v = A\,(v_2 + \omega_2\times a_2) - (v_1 + \omega_1\times a_1)
    \quad\text{(first)},

the angular-velocity difference and the relative velocity of the anchor points.  Its six
rows are the columns of a :class:`WrenchPort` (input: a torque ``τ`` and a force ``f``
acting on end 2 at ``c₂``, minus them on end 1 at ``c₁``; output: the relative twist)
and of a :class:`Bushing`'s dampers.  References: Stramigioli, *Modeling and IPC Control
of Interactive Mechanical Systems* (2001) (springs between bodies as pH elements on the
relative pose); Fasse & Breedveld, *Modelling of elastically coupled bodies*, ASME J.
Dyn. Syst. Meas. Control 120 (1998) (spatial springs).  The bushing's rotational
potential is ½ θᵀK θ on the rotation vector — for equal stiffnesses the squared geodesic
distance on SO(3).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..errors import ModelError

__all__ = ["ForceElement", "WrenchPort", "SpringDamper", "Bushing", "relative_columns",
           "relative_columns_jacobian", "rotation_vector", "term_derivatives"]

GROUND = "ground"


def _vec3(value: Any, what: str) -> np.ndarray:
    v = np.asarray(value, dtype=float)
    if v.shape != (3,) or not np.all(np.isfinite(v)):
        raise ModelError(f"{what}: expected a finite 3-vector, got {value!r}")
    return v


def _cross(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a × b`` of two 3-vectors (``np.cross`` costs ~10 µs of axis handling per call,
    and the elements call it in every residual)."""
    return np.array([a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                     a[0] * b[1] - a[1] * b[0]])


def _nonneg(value: Any, size: int, what: str) -> np.ndarray:
    v = np.broadcast_to(np.asarray(value, dtype=float), (size,)).copy()
    if not np.all(np.isfinite(v)) or (v < 0).any():
        raise ModelError(f"{what} must be ≥ 0 (a passive element), got {value!r}")
    return v


class ForceElement:
    """A force element on two ends (module docstring); subclasses override what they
    use.  ``q`` is (2, 12): ``p`` then ``R`` row-major of each end (ground: 0 and I);
    ``T`` (2, 6) the ends' body twists (ground: 0)."""

    #: ``V`` is a polynomial of degree ≤ 2 in the raw pose entries (the midpoint rule
    #: then balances it exactly; otherwise ``method="auto"`` takes the discrete gradient)
    quadratic = True
    has_energy = False

    def __init__(self, name: str, first: str, second: str, first_anchor: Sequence[float],
                 second_anchor: Sequence[float]) -> None:
        if first == second:
            raise ModelError(f"force element {name!r}: its two ends are the same body "
                             f"{first!r}; join two different bodies (or a body and ground)")
        self.name = name
        self.ends = (str(first), str(second))
        self.anchors = np.stack([_vec3(first_anchor, f"{name}: first_anchor"),
                                 _vec3(second_anchor, f"{name}: second_anchor")])

    @property
    def inputs(self) -> list[str]:
        return []

    @property
    def outputs(self) -> list[str]:
        return []

    def energy(self, q: np.ndarray) -> float:
        return 0.0

    def gradient(self, q: np.ndarray) -> np.ndarray:
        """``∂V/∂q`` (2, 12)."""
        return np.zeros((2, 12))

    def hessian(self, q: np.ndarray) -> np.ndarray:
        """``∂²V/∂q²`` (2, 12, 2, 12); here central differences of :meth:`gradient`
        (step 1e-6·max(1, |q|), error ~1e-12 relative) — it only steers Newton."""
        out = np.zeros((2, 12, 2, 12))
        for s in range(2):
            for i in range(12):
                h = 1e-6 * max(1.0, abs(float(q[s, i])))
                qp, qm = q.copy(), q.copy()
                qp[s, i] += h
                qm[s, i] -= h
                out[:, :, s, i] = (self.gradient(qp) - self.gradient(qm)) / (2 * h)
        return out

    def dampers(self, q: np.ndarray, T: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Columns (k, 2, 6) and coefficients (k,) of the element's ``𝓡``."""
        return np.zeros((0, 2, 6)), np.zeros(0)

    def ports(self, q: np.ndarray) -> np.ndarray:
        """Input columns (m, 2, 6)."""
        return np.zeros((0, 2, 6))

    def term(self, q: np.ndarray, T: np.ndarray, w: np.ndarray, u: np.ndarray
             ) -> np.ndarray:
        """The element's part of the momentum rows of ``f`` (2, 6): ``−Σ_k r_k (c_kᵀw)
        c_k + Σ_k u_k g_k`` at pose ``q``, twists ``T``, efforts ``w`` (2, 6) of the
        ends' momenta and inputs ``u``."""
        C, r = self.dampers(q, T)
        out = np.zeros((2, 6))
        if r.size:
            out -= np.einsum("k,ksi->si", r * np.einsum("ksi,si->k", C, w), C)
        if u.size:
            out += np.einsum("k,ksi->si", u, self.ports(q))
        return out

    def term_jacobian(self, q: np.ndarray, T: np.ndarray, w: np.ndarray, u: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
        """``∂term/∂q`` (2, 6, 2, 12) and ``∂term/∂T`` (2, 6, 2, 6) at fixed ``w``, ``u``.
        Here central differences of :meth:`term` (step 1e-6·max(1, |·|), error ~1e-12
        relative; they only steer Newton's iteration); the elements with closed-form
        column derivatives override it (:func:`term_derivatives`)."""
        dq, dT = np.zeros((2, 6, 2, 12)), np.zeros((2, 6, 2, 6))
        if not u.size and not self.dampers(q, T)[1].size:
            return dq, dT  # no damper acts here (a contact in flight): nothing to vary
        q, T = np.array(q, dtype=float), np.array(T, dtype=float)  # perturbed in place
        for arr, out in ((q, dq), (T, dT)):
            for s in range(2):
                for i in range(arr.shape[1]):
                    h = 1e-6 * max(1.0, abs(float(arr[s, i])))
                    old = arr[s, i]
                    arr[s, i] = old + h
                    fp = self.term(q, T, w, u)
                    arr[s, i] = old - h
                    fm = self.term(q, T, w, u)
                    arr[s, i] = old
                    out[:, :, s, i] = (fp - fm) / (2 * h)
        return dq, dT

    def anchor_points(self, q: np.ndarray) -> np.ndarray:
        """``c₁, c₂`` (2, 3), inertial (m)."""
        R = q[:, 3:].reshape(2, 3, 3)
        return q[:, :3] + np.einsum("sij,sj->si", R, self.anchors)


def term_derivatives(C: np.ndarray, r: np.ndarray, dC: np.ndarray, w: np.ndarray,
                     u: np.ndarray, dG: np.ndarray | None = None,
                     dr: np.ndarray | None = None) -> np.ndarray:
    r"""``∂term/∂q`` (2, 6, 2, 12) of :meth:`ForceElement.term` from the columns' closed
    forms: with :math:`v_k = c_k^\top w`,

    .. math::
        \partial(-\textstyle\sum_k r_k v_k c_k + \sum_k u_k g_k)
        = -\sum_k \big(\partial r_k\, v_k c_k + r_k (\partial c_k^\top w)\, c_k
          + r_k v_k\, \partial c_k\big) + \sum_k u_k\, \partial g_k,

    ``C`` (k, 2, 6), ``r`` (k,), ``dC = ∂C/∂q`` (k, 2, 6, 2, 12), ``dr = ∂r/∂q``
    (k, 2, 12; ``None``: constant), ``dG = ∂G/∂q`` (m, 2, 6, 2, 12)."""
    out = np.zeros((2, 6, 2, 12))
    if r.size:
        v = np.einsum("ksi,si->k", C, w)
        dv = np.einsum("ksitj,si->ktj", dC, w)
        out -= np.einsum("k,ktj,ksi->sitj", r, dv, C)
        out -= np.einsum("k,ksitj->sitj", r * v, dC)
        if dr is not None:
            out -= np.einsum("ktj,ksi->sitj", dr * v[:, None, None], C)
    if u.size and dG is not None:
        out += np.einsum("k,ksitj->sitj", u, dG)
    return out


def _skew(a: np.ndarray) -> np.ndarray:
    """``[a]×`` with ``[a]× b = a × b``."""
    return np.array([[0.0, -a[2], a[1]], [a[2], 0.0, -a[0]], [-a[1], a[0], 0.0]])


def _columns_of(B1: np.ndarray, B2: np.ndarray, anchors: np.ndarray) -> np.ndarray:
    """The relative-twist columns (6, 2, 6, …) from the direction matrices ``B_i``
    (3, 3, …; column ``j`` the direction ``e_j`` in the axes of end ``i``) — linear in
    them, so the same map turns ``∂B_i`` into the columns' derivative."""
    a1, a2 = (_skew(a) for a in anchors)
    extra = B1.shape[2:]
    out = np.zeros((6, 2, 6, *extra))
    # row j: (−B₁e_j, B₂e_j) on the angular parts; row 3+j: the anchors' velocities
    out[:3, 0, :3] = -np.swapaxes(B1, 0, 1)
    out[:3, 1, :3] = np.swapaxes(B2, 0, 1)
    out[3:, 0, :3] = -np.swapaxes(np.tensordot(a1, B1, axes=(1, 0)), 0, 1)
    out[3:, 0, 3:] = -np.swapaxes(B1, 0, 1)
    out[3:, 1, :3] = np.swapaxes(np.tensordot(a2, B2, axes=(1, 0)), 0, 1)
    out[3:, 1, 3:] = np.swapaxes(B2, 0, 1)
    return out


def relative_columns_jacobian(q: np.ndarray, anchors: np.ndarray, axes: str = "first"
                              ) -> np.ndarray:
    r"""``∂/∂q`` (6, 2, 6, 2, 12) of :func:`relative_columns`.  ``axes="first"``:
    :math:`B_2 = R_2^\top R_1`, :math:`\partial B_{2,ij}/\partial R_{1,ab} = R_{2,ai}
    \delta_{jb}`, :math:`\partial B_{2,ij}/\partial R_{2,ab} = \delta_{ib} R_{1,aj}`
    (``B₁ = I``); ``"world"``: :math:`B_i = R_i^\top`,
    :math:`\partial B_{i,jk}/\partial R_{i,ab} = \delta_{ka}\delta_{jb}`."""
    R1, R2 = q[0, 3:].reshape(3, 3), q[1, 3:].reshape(3, 3)
    dB1, dB2 = np.zeros((3, 3, 2, 3, 3)), np.zeros((3, 3, 2, 3, 3))
    eye = np.eye(3)
    if axes == "first":
        dB2[:, :, 0] = np.einsum("ai,jb->ijab", R2, eye)
        dB2[:, :, 1] = np.einsum("ib,aj->ijab", eye, R1)
    else:
        T = np.einsum("ka,jb->jkab", eye, eye)
        dB1[:, :, 0], dB2[:, :, 1] = T, T
    full = np.zeros((2, 3, 3, 2, 12))
    full[0, :, :, :, 3:] = dB1.reshape(3, 3, 2, 9)
    full[1, :, :, :, 3:] = dB2.reshape(3, 3, 2, 9)
    return _columns_of(full[0], full[1], anchors)


def relative_columns(q: np.ndarray, anchors: np.ndarray, axes: str = "first") -> np.ndarray:
    r"""The six columns (6, 2, 6) of the relative twist ``(Δω, Δv)`` (module docstring):
    row ``j`` paired with the two body twists gives component ``j``."""
    R1, R2 = q[0, 3:].reshape(3, 3), q[1, 3:].reshape(3, 3)
    a1, a2 = anchors
    # column j of B_i: the direction e_j (of the first end's axes, or inertial) in the
    # axes of body i — Aᵀe_j = R₂ᵀR₁e_j on the second end
    if axes == "first":
        B1, B2 = np.eye(3), R2.T @ R1
    else:
        B1, B2 = R1.T, R2.T
    out = np.zeros((6, 2, 6))
    for j in range(3):
        out[j, 0, :3], out[j, 1, :3] = -B1[:, j], B2[:, j]
        out[3 + j, 0, :3], out[3 + j, 0, 3:] = -_cross(a1, B1[:, j]), -B1[:, j]
        out[3 + j, 1, :3], out[3 + j, 1, 3:] = _cross(a2, B2[:, j]), B2[:, j]
    return out


class WrenchPort(ForceElement):
    r"""An external wrench between two frames: inputs ``<name>.W[0..5]`` — a torque
    (N·m) and a force (N) in the axes of ``axes`` (``"first"``: the first end's body
    axes, inertial if it is ground; ``"world"``: inertial), acting on the second end at
    its anchor and, equal and opposite, on the first end at its anchor; outputs
    ``<name>.T[0..5]`` — the relative angular velocity (rad/s) and the relative velocity
    of the anchor points (m/s) in the same axes, so ``Wᵀ T`` is the power delivered."""

    def __init__(self, name: str, first: str, second: str,
                 first_anchor: Sequence[float] = (0, 0, 0),
                 second_anchor: Sequence[float] = (0, 0, 0), axes: str = "first") -> None:
        super().__init__(name, first, second, first_anchor, second_anchor)
        if axes not in ("first", "world"):
            raise ModelError(f"wrench port {name!r}: axes must be 'first' or 'world', "
                             f"got {axes!r}")
        self.axes = axes

    @property
    def inputs(self) -> list[str]:
        return [f"{self.name}.W[{i}]" for i in range(6)]

    @property
    def outputs(self) -> list[str]:
        return [f"{self.name}.T[{i}]" for i in range(6)]

    def ports(self, q: np.ndarray) -> np.ndarray:
        return relative_columns(q, self.anchors, self.axes)

    def term_jacobian(self, q: np.ndarray, T: np.ndarray, w: np.ndarray, u: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
        """Closed form: ``Σ_k u_k ∂g_k/∂q`` (:func:`relative_columns_jacobian`)."""
        dG = relative_columns_jacobian(q, self.anchors, self.axes)
        return (term_derivatives(np.zeros((0, 2, 6)), np.zeros(0), np.zeros((0, 2, 6, 2, 12)),
                                 w, u, dG), np.zeros((2, 6, 2, 6)))


class SpringDamper(ForceElement):
    r"""A point-to-point spring–damper along the line between the anchor points.

    .. math::
        V = \tfrac12 k\,(r - L_0)^2,\qquad r = |d|,\ d = c_2 - c_1,\qquad
        F_{\text{damp}} = -c\,\dot r,\quad \dot r = n\cdot(\dot c_2 - \dot c_1),\
        n = d/r,

    ``stiffness`` k (N/m), ``rest_length`` L₀ (m), ``damping`` c (N·s/m); the force on
    end 2 is :math:`-(k(r-L_0) + c\dot r)\,n` at ``c₂``, its opposite on end 1 at
    ``c₁``.  ``∂V/∂d = k(r − L₀) n``, so ``∂V/∂p₂ = ∂V/∂d``, ``∂V/∂R₂ = (∂V/∂d)a₂ᵀ``
    (minus for end 1).  ``𝓡 = c\,w wᵀ`` with :math:`w = (a_2\times R_2^\top n,
    R_2^\top n;\ -a_1\times R_1^\top n, -R_1^\top n)`.  With ``L₀ = 0`` the energy
    ``½k|d|²`` is quadratic in the pose (the midpoint rule balances it exactly; the
    line of a zero-length spring need not be defined); with ``L₀ > 0`` the anchor points
    must stay apart (the direction ``n`` is undefined at ``r = 0``)."""

    has_energy = True

    def __init__(self, name: str, first: str, second: str,
                 first_anchor: Sequence[float] = (0, 0, 0),
                 second_anchor: Sequence[float] = (0, 0, 0), *, stiffness: float = 0.0,
                 damping: float = 0.0, rest_length: float = 0.0) -> None:
        super().__init__(name, first, second, first_anchor, second_anchor)
        self.stiffness = float(_nonneg(stiffness, 1, f"spring-damper {name!r}: stiffness")[0])
        self.damping = float(_nonneg(damping, 1, f"spring-damper {name!r}: damping")[0])
        self.rest_length = float(_nonneg(rest_length, 1,
                                         f"spring-damper {name!r}: rest_length")[0])
        self.quadratic = self.rest_length == 0.0
        self._L2 = self._map().reshape(3, 24)  # d = L q: one product per residual
        # the damper column on end s is S_s R_sᵀn, S_s = ±([a_s]×; I)
        self._S = np.stack([sign * np.vstack([_skew(a), np.eye(3)])
                            for sign, a in zip((-1.0, 1.0), self.anchors, strict=True)])
        # ∂(R_sᵀn)_i/∂R_{s,ji} = n_j: the 3 × 9 block is Σ_j n_j E_j
        self._E = np.zeros((3, 3, 9))
        for j in range(3):
            for i in range(3):
                self._E[j, i, 3 * j + i] = 1.0

    def _line(self, q: np.ndarray) -> tuple[np.ndarray, float]:
        d = self._L2 @ q.reshape(24)
        r = float(np.sqrt(d @ d))
        if r < 1e-12 * max(1.0, self.rest_length) and self.rest_length > 0:
            raise ModelError(f"spring-damper {self.name!r}: its anchor points coincide, so "
                             "the line of action is undefined; give a rest configuration "
                             "with the anchors apart (or rest_length 0)")
        return d, r

    def energy(self, q: np.ndarray) -> float:
        d, r = self._line(q)
        return 0.5 * self.stiffness * (r - self.rest_length) ** 2

    def gradient(self, q: np.ndarray) -> np.ndarray:
        d, r = self._line(q)
        F = self.stiffness * (d if self.rest_length == 0 else (r - self.rest_length) * d / r)
        return (self._L2.T @ F).reshape(2, 12)  # (∂d/∂q)ᵀ ∂V/∂d

    def _map(self) -> np.ndarray:
        """``∂d/∂q`` (3, 2, 12): ``d = p₂ + R₂a₂ − p₁ − R₁a₁`` is linear in ``q``."""
        L = np.zeros((3, 2, 12))
        for s, sign in ((0, -1.0), (1, 1.0)):
            L[:, s, :3] = sign * np.eye(3)
            L[:, s, 3:] = sign * np.kron(np.eye(3), self.anchors[s][None, :])
        return L

    def hessian(self, q: np.ndarray) -> np.ndarray:
        """``Lᵀ ∇²_d V L`` with ``∇²_d V = k n nᵀ + k (1 − L₀/r)(I − n nᵀ)``."""
        d, r = self._line(q)
        k = self.stiffness
        if self.rest_length == 0:
            Hd = k * np.eye(3)
        else:
            n = d / r
            Hd = k * np.outer(n, n) + k * (1 - self.rest_length / r) * (np.eye(3)
                                                                         - np.outer(n, n))
        L = self._L2
        return (L.T @ Hd @ L).reshape(2, 12, 2, 12)

    def dampers(self, q: np.ndarray, T: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.damping == 0:
            return super().dampers(q, T)
        d, r = self._line(q)
        if r == 0.0:
            raise ModelError(f"spring-damper {self.name!r}: its anchor points coincide, so "
                             "the damper's line of action is undefined")
        n = d / r
        return self._column(q, n)[None], np.array([self.damping])

    def _column(self, q: np.ndarray, n: np.ndarray) -> np.ndarray:
        """The damper column (2, 6): ``±(a_s × R_sᵀn, R_sᵀn)`` on end ``s``."""
        m = n @ q[:, 3:].reshape(2, 3, 3)                  # rows R_sᵀn
        return np.matmul(self._S, m[:, :, None])[:, :, 0]

    def term(self, q: np.ndarray, T: np.ndarray, w: np.ndarray, u: np.ndarray
             ) -> np.ndarray:
        """``−c (c_wᵀw) c_w`` (the spring force is in ``z``, through the structure)."""
        if self.damping == 0:
            return np.zeros((2, 6))
        d, r = self._line(q)
        if r == 0.0:
            raise ModelError(f"spring-damper {self.name!r}: its anchor points coincide, so "
                             "the damper's line of action is undefined")
        col = self._column(q, d / r)
        return (-self.damping * float(np.vdot(col, w))) * col

    def term_jacobian(self, q: np.ndarray, T: np.ndarray, w: np.ndarray, u: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
        r"""Closed form: the term is :math:`-c\,(c_w^\top w)\,c_w` with the column
        :math:`c_w = (S_s m_s)_s`, :math:`m_s = R_s^\top n`, :math:`S_s = \pm([a_s]_\times;
        I)`; :math:`\partial n = (I - n n^\top)\,\partial d / r` (``∂d/∂q = L``:
        :meth:`_map`), :math:`\partial m_s = R_s^\top\partial n` plus
        :math:`\partial m_{s,i}/\partial R_{s,ji} = n_j`, so
        :math:`\partial\,\text{term} = -c\,(c_w (w^\top\partial c_w) + (c_w^\top w)
        \,\partial c_w)`."""
        dT = np.zeros((2, 6, 2, 6))
        if self.damping == 0:
            return np.zeros((2, 6, 2, 12)), dT
        d, dist = self._line(q)
        n = d / dist
        col = self._column(q, n).reshape(12)
        L = self._L2
        M = (L - np.outer(n, n @ L)) / dist                          # ∂n/∂q (3 × 24)
        dm = np.matmul(q[:, 3:].reshape(2, 3, 3).transpose(0, 2, 1), M)  # R_sᵀ ∂n
        K = np.tensordot(n, self._E, axes=1)                         # ∂m_s/∂R_s at fixed n
        dm[0, :, 3:12] += K
        dm[1, :, 15:24] += K
        dcol = np.matmul(self._S, dm).reshape(12, 24)
        wf = w.reshape(12)
        out = -self.damping * (np.outer(col, wf @ dcol) + float(col @ wf) * dcol)
        return out.reshape(2, 6, 2, 12), dT


# a_l = ½ ε_lij A_ji  (a_0 = ½(A21 − A12) …): ∂a_l/∂A_ab = ½ ε_lba
_EPS = np.zeros((3, 3, 3))
for _i, _j, _k in ((0, 1, 2), (1, 2, 0), (2, 0, 1)):
    _EPS[_i, _j, _k], _EPS[_i, _k, _j] = 1.0, -1.0
_DA_DA = 0.5 * _EPS.transpose(0, 2, 1)


def rotation_vector(A: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""The rotation vector ``φ`` of a 3×3 matrix near SO(3) and ``∂(gᵀφ)/∂A`` as a
    function of ``g`` — returned as the pair ``(φ, J)`` with ``J`` (3, 3, 3):
    ``∂φ_l/∂A_ab``.

    With :math:`a = \mathrm{vee}(A - A^\top)/2`, :math:`c = (\mathrm{tr}A - 1)/2`,
    :math:`s = |a|`, :math:`\theta = \mathrm{atan2}(s, c)`: :math:`\varphi = (\theta/s)\,a`
    — for a rotation ``a = sin θ e``, ``c = cos θ``, so ``φ = θ e`` (``log`` of
    :mod:`porthamiltonian.lie`), and the formula extends it smoothly to the
    non-orthonormal midpoints of the integrator (θ < π)."""
    a = 0.5 * np.array([A[2, 1] - A[1, 2], A[0, 2] - A[2, 0], A[1, 0] - A[0, 1]])
    c = 0.5 * (np.trace(A) - 1.0)
    s = float(np.sqrt(a @ a))
    rho2 = s * s + c * c
    if s < 1e-6 * max(abs(c), 1e-300) and c > 0:
        # θ/s = atan(s/c)/s = (1/c)(1 − s²/(3c²) + …); d/ds: −2s/(3c³); d/dc: −1/c² + s²/c⁴
        f = (1.0 - s * s / (3 * c * c)) / c
        fs_over_s = -2.0 / (3 * c ** 3)
        fc = -1.0 / (c * c) + s * s / c ** 4
    else:
        theta = float(np.arctan2(s, c))
        f = theta / s
        # ∂f/∂s = (s ∂θ/∂s − θ)/s², ∂θ/∂s = c/ρ², ∂f/∂c = (∂θ/∂c)/s = −1/ρ²
        fs_over_s = (s * c / rho2 - theta) / s ** 3
        fc = -1.0 / rho2
    phi = f * a
    # ∂φ/∂a = f I + (∂f/∂s / s) a aᵀ,  ∂φ/∂c = fc a;  ∂a/∂A = ½ ε-pattern, ∂c/∂A = ½ I
    dphi_da = f * np.eye(3) + fs_over_s * np.outer(a, a)
    J = np.einsum("lm,mab->lab", dphi_da, _DA_DA) + 0.5 * fc * a[:, None, None] * np.eye(3)
    return phi, J


class Bushing(ForceElement):
    r"""A 6-dof linear spring–damper on the relative pose of two frames — a compliant
    alternative to a kinematic pair.

    The frames sit at the anchors with the bodies' axes (as the joints': in the rest
    configuration the second end's axes are parallel to the first's and the anchors
    coincide).  With :math:`A = R_1^\top R_2` and :math:`t = R_1^\top d` (the second
    anchor seen from the first, in its axes):

    .. math::
        V = \tfrac12\,\varphi^\top K_r\,\varphi + \tfrac12\,t^\top K_t\,t,
        \qquad \varphi = \log A\ (\text{rotation vector, } |\varphi| < \pi),

    ``stiffness`` = (k_rx, k_ry, k_rz, k_tx, k_ty, k_tz) (N·m/rad, N/m; a number for all
    six), ``damping`` likewise (N·m·s/rad, N·s/m) on the relative twist of
    :func:`relative_columns` (axes of the first end): ``𝓡 = Σ_j c_j g_j g_jᵀ``.  A
    rotation about one axis ``e`` of the first frame stores ``½ k_e θ²`` at any angle —
    the energy of a revolute joint with a torsion spring.  Gradient ``Dᵀ K (φ, t)`` with
    ``D = ∂(φ, t)/∂q`` (:meth:`coordinates`): ``∂φ_l/∂R₂ = R₁ ∂φ_l/∂A``,
    ``∂φ_l/∂R₁ = R₂ (∂φ_l/∂A)ᵀ`` (:func:`rotation_vector`); ``∂t_i/∂p₂ = R₁e_i =
    −∂t_i/∂p₁``, ``∂t_i/∂R₂ = (R₁e_i)a₂ᵀ``, ``∂t_i/∂R₁ = d e_iᵀ − (R₁e_i)a₁ᵀ``."""

    has_energy = True
    quadratic = False

    def __init__(self, name: str, first: str, second: str,
                 first_anchor: Sequence[float] = (0, 0, 0),
                 second_anchor: Sequence[float] = (0, 0, 0), *, stiffness: Any = 0.0,
                 damping: Any = 0.0) -> None:
        super().__init__(name, first, second, first_anchor, second_anchor)
        self.stiffness = _nonneg(stiffness, 6, f"bushing {name!r}: stiffness")
        self.damping = _nonneg(damping, 6, f"bushing {name!r}: damping")
        self._memo: list[tuple[bytes, tuple[np.ndarray, np.ndarray]]] = []

    def coordinates(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The relative pose ``(φ, t)`` (6,) and its derivative ``∂(φ, t)/∂q``
        (6, 2, 12) — the gradient is ``Dᵀ K (φ, t)``.  The last two are kept: a
        residual asks for ``z`` and ``∂z/∂x`` at one state."""
        key = q.tobytes()
        for k, v in self._memo:
            if k == key:
                return v
        out = self._coordinates(q)
        self._memo = [self._memo[-1], (key, out)] if self._memo else [(key, out)]
        return out

    def _coordinates(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        R1, R2 = q[0, 3:].reshape(3, 3), q[1, 3:].reshape(3, 3)
        c = self.anchor_points(q)
        d = c[1] - c[0]
        phi, J = rotation_vector(R1.T @ R2)
        D = np.zeros((6, 2, 12))
        # φ(A), A = R₁ᵀR₂: ∂φ_l/∂R₂ = R₁ J_l, ∂φ_l/∂R₁ = R₂ J_lᵀ
        D[:3, 1, 3:] = np.einsum("ia,lab->lib", R1, J).reshape(3, 9)
        D[:3, 0, 3:] = np.einsum("ib,lab->lia", R2, J).reshape(3, 9)
        # t_i = R₁[:, i]·d, d = p₂ + R₂a₂ − p₁ − R₁a₁
        a1, a2 = self.anchors
        for i in range(3):
            e = R1[:, i]
            D[3 + i, 1, :3], D[3 + i, 0, :3] = e, -e
            D[3 + i, 1, 3:] = np.outer(e, a2).ravel()
            M = -np.outer(e, a1)
            M[:, i] += d
            D[3 + i, 0, 3:] = M.ravel()
        return np.concatenate([phi, R1.T @ d]), D

    def energy(self, q: np.ndarray) -> float:
        x, _ = self.coordinates(q)
        return 0.5 * float(x @ (self.stiffness * x))

    def gradient(self, q: np.ndarray) -> np.ndarray:
        x, D = self.coordinates(q)
        return np.einsum("k,ksi->si", self.stiffness * x, D)

    def hessian(self, q: np.ndarray) -> np.ndarray:
        """The Gauss–Newton part ``Dᵀ K D`` (exact at rest; the curvature terms
        ``(Kx)·∂²x`` are left out — the Hessian only steers Newton's iteration)."""
        _, D = self.coordinates(q)
        return np.einsum("ksi,k,ktj->sitj", D, self.stiffness, D)

    def dampers(self, q: np.ndarray, T: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        live = np.flatnonzero(self.damping > 0)
        if not live.size:
            return super().dampers(q, T)
        return relative_columns(q, self.anchors)[live], self.damping[live]

    def term_jacobian(self, q: np.ndarray, T: np.ndarray, w: np.ndarray, u: np.ndarray
                      ) -> tuple[np.ndarray, np.ndarray]:
        """Closed form (:func:`relative_columns_jacobian`; constant coefficients)."""
        live = np.flatnonzero(self.damping > 0)
        dT = np.zeros((2, 6, 2, 6))
        if not live.size:
            return np.zeros((2, 6, 2, 12)), dT
        C = relative_columns(q, self.anchors)[live]
        dC = relative_columns_jacobian(q, self.anchors)[live]
        return term_derivatives(C, self.damping[live], dC, w, u), dT
