r"""A rigid body as a port-Hamiltonian system on SE(3) (Macchelli & Melchiorri 2008,
eq. (6); Stramigioli 2001, ch. 3; Duindam et al. 2009, §3.2).

State: position ``p`` (m) and rotation matrix ``R`` (its 9 entries, row-major) of the
body frame, and the body-frame momentum ``P = M T = (P_ω, P_v)`` (N·m·s, N·s), where
``T = (ω, v)`` is the body twist :math:`\tilde T = H^{-1}\dot H`.  No angles: the pose is
the matrix itself, so there is no parametrization singularity.

.. math::
    \begin{bmatrix}\dot q\\ \dot P\end{bmatrix} =
    \begin{bmatrix} 0 & K(q)\\ -K(q)^\top & \mathcal P(P)\end{bmatrix}
    \begin{bmatrix}\partial_q \mathcal H\\ \partial_P \mathcal H\end{bmatrix}
    + \begin{bmatrix}0\\ \mathrm{Ad}_H^\top\end{bmatrix} W_s,\qquad
    T_s = \mathrm{Ad}_H\,\partial_P\mathcal H,

* :math:`K(q)T = (\dot p, \dot R) = (R v, R\tilde\omega)` — the kinematics;
* :math:`\mathcal P(P) = \begin{bmatrix}\tilde P_ω & \tilde P_v\\ \tilde P_v & 0\end{bmatrix}`
  (skew), so that :math:`\mathcal P(P)T = \mathrm{ad}^*_T P` (the Euler equations; the
  :math:`\tilde P_v` blocks are the "m∧" terms of the seed);
* :math:`\mathcal H = \tfrac12 P^\top M^{-1}P - m\,g^\top(p + R c)`: kinetic energy and the
  gravity potential, ``c`` the centre of mass in body coordinates;
* :math:`M = \begin{bmatrix} I_c - m\tilde c^2 & m\tilde c\\ -m\tilde c & m I_3\end{bmatrix}`,
  the inertia about the body-frame origin (``I_c`` about the centre of mass);
* the port: ``W_s`` a wrench in inertial coordinates (torque about the inertial origin),
  ``T_s`` the spatial twist; :math:`W_s^\top T_s` is the power delivered to the body.

With orthonormal ``R`` the kinematic block :math:`\dot R = R\tilde\omega` keeps
:math:`RR^\top` constant for *any* state, so the implicit midpoint rule keeps ``R``
orthonormal to round-off (it preserves quadratic invariants); ``H`` is quadratic in
``P`` and affine in ``q``, so midpoint steps satisfy the power balance exactly.

Slender and point bodies (a zero principal moment) are accepted: ``M`` is then only
positive semidefinite, :attr:`RigidBody.null_twists` spans its kernel and
:attr:`RigidBody.compliance` is :math:`M^+`; a mechanism simulates them with the spin
rates along the null twists as algebraic states (:mod:`.slender`).  The symbolic
:meth:`RigidBody.phs` needs an invertible ``M``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from .. import lie
from ..errors import ModelError

__all__ = ["RigidBody"]


def _skew(a: Any) -> sp.Matrix:
    return sp.Matrix([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])


class RigidBody:
    """A rigid body: mass (kg), inertia about its centre of mass in body axes (kg·m²),
    centre of mass ``com`` in body coordinates (m)."""

    def __init__(self, name: str, mass: float, inertia: Any, com: Any = (0.0, 0.0, 0.0)):
        self.name = name
        if not np.isfinite(mass) or mass <= 0:
            raise ModelError(f"body {name!r}: mass must be positive, got {mass}")
        I = np.asarray(inertia, dtype=float)
        if I.shape == (3,):
            I = np.diag(I)
        if I.shape != (3, 3) or not np.all(np.isfinite(I)) or not np.allclose(I, I.T):
            raise ModelError(f"body {name!r}: inertia must be a symmetric positive definite "
                             "(or semidefinite: slender and point bodies) 3×3 matrix, or 3 "
                             "principal moments, about the centre of mass")
        I = 0.5 * (I + I.T)
        ev, vec = np.linalg.eigh(I)
        tol = 1e-12 * max(float(ev[2]), 0.0)
        if ev[0] < -tol:
            raise ModelError(f"body {name!r}: inertia must be positive semidefinite (principal "
                             f"moments {ev}); a slender rod or a point mass may have zero "
                             "moments, no body a negative one")
        #: principal axes (body frame) with zero moment: a slender rod's axis, or all three
        #: axes of a point mass (module :mod:`.slender`)
        self.null_axes = vec[:, np.abs(ev) <= tol].copy()
        if ev[2] > ev[0] + ev[1] + 1e-12 * ev[2]:
            raise ModelError(f"body {name!r}: principal moments {ev} violate the triangle "
                             "inequality I3 ≤ I1 + I2 (no mass distribution has them)")
        self.mass, self.inertia = float(mass), I
        self.com = np.asarray(com, dtype=float)
        if self.com.shape != (3,):
            raise ModelError(f"body {name!r}: com must be a 3-vector in body coordinates")
        self.states = ([f"{name}.p[{i}]" for i in range(3)] + [f"{name}.R[{i}]" for i in range(9)]
                       + [f"{name}.P[{i}]" for i in range(6)])
        sym = sp.symbols(self.states, real=True)
        self.p = sp.Matrix(sym[:3])
        self.R = sp.Matrix(3, 3, sym[3:12])
        self.P = sp.Matrix(sym[12:])
        self.q = sp.Matrix(sym[:12])

    # ------------------------------------------------------------------ inertia
    @property
    def spatial_inertia(self) -> np.ndarray:
        """6×6 inertia ``M`` about the body-frame origin, twist order (ω, v)."""
        m, C = self.mass, lie.hat(self.com)
        return np.block([[self.inertia - m * C @ C, m * C], [-m * C, m * np.eye(3)]])

    @property
    def singular(self) -> bool:
        """Whether ``M`` is singular (a zero principal moment: slender rod, point mass)."""
        return self.null_axes.shape[1] > 0

    @property
    def null_twists(self) -> np.ndarray:
        r"""Basis (6 × r) of :math:`\ker M`: per zero-moment principal axis ``e``, the
        twist :math:`(e,\ c\times e)` — unit spin about the axis through the centre of
        mass, which moves no mass (r = 0 for a regular body)."""
        e = self.null_axes
        return np.vstack([e, np.cross(self.com, e.T).T]) if e.size else np.zeros((6, 0))

    @property
    def compliance(self) -> np.ndarray:
        r""":math:`M^{-1}`, or for a singular ``M`` its pseudo-inverse :math:`M^+`
        (``T = M⁺P`` is the part of the twist orthogonal to :attr:`null_twists`)."""
        M = self.spatial_inertia
        if not self.singular:
            return np.linalg.inv(M)
        Q = np.linalg.svd(self.null_twists, full_matrices=True)[0][:, self.null_axes.shape[1]:]
        return Q @ np.linalg.solve(Q.T @ M @ Q, Q.T)

    def _regular(self, what: str) -> None:
        if self.singular:
            raise ModelError(f"body {self.name!r}: {what} needs an invertible inertia, and "
                             f"this body has zero moments about {self.null_axes.T.tolist()} "
                             "(body axes); use Mechanism.assemble()/simulate(), which "
                             "handle slender and point bodies (mechanics.slender)")

    # ------------------------------------------------------------------ symbolic pieces
    def kinematics(self) -> sp.Matrix:
        """``K(q)`` (12×6): ``q̇ = K(q) T`` with ``ṗ = R v``, ``Ṙ = R ω̃``."""
        w = sp.Matrix(sp.symbols("w0:3"))
        v = sp.Matrix(sp.symbols("v0:3"))
        Rdot = self.R * _skew(w)
        qdot = sp.Matrix([*(self.R * v), *Rdot.reshape(9, 1)])
        return qdot.jacobian([*w, *v])

    def momentum_structure(self) -> sp.Matrix:
        """The skew block ``𝒫(P)`` with ``𝒫(P) T = ad*_T P``."""
        Pw, Pv = _skew(self.P[:3]), _skew(self.P[3:])
        return sp.Matrix(sp.BlockMatrix([[Pw, Pv], [Pv, sp.zeros(3)]]))

    def adjoint(self) -> sp.Matrix:
        """``Ad_H`` (6×6) in the state symbols."""
        return sp.Matrix(sp.BlockMatrix([[self.R, sp.zeros(3)],
                                         [_skew(self.p) * self.R, self.R]]))

    def hamiltonian(self, gravity: Any = None) -> sp.Expr:
        """Kinetic plus gravitational energy (J); ``gravity`` in m/s² (inertial)."""
        self._regular("the symbolic Hamiltonian")
        Minv = sp.Matrix(np.linalg.inv(self.spatial_inertia))
        H = (self.P.T * Minv * self.P)[0] / 2
        if gravity is not None:
            g = sp.Matrix(np.asarray(gravity, dtype=float))
            H -= self.mass * (g.T * (self.p + self.R * sp.Matrix(self.com)))[0]
        return H

    def structure(self) -> sp.Matrix:
        """The 18×18 skew matrix ``[[0, K], [−Kᵀ, 𝒫(P)]]``."""
        K = self.kinematics()
        return sp.Matrix(sp.BlockMatrix([[sp.zeros(12), K], [-K.T, self.momentum_structure()]]))

    def phs(self, gravity: Any = None, port: bool = True) -> Any:
        """The body alone as a symbolic :class:`~porthamiltonian.PHS` (module doc); with
        ``port`` the inputs are the inertial wrench ``<name>.W[0..5]`` and the outputs the
        spatial twist ``<name>.T[0..5]``."""
        from ..phs import PHS

        G = None
        inputs = outputs = None
        if port:
            G = sp.Matrix.vstack(sp.zeros(12, 6), self.adjoint().T)
            inputs = [f"{self.name}.W[{i}]" for i in range(6)]
            outputs = [f"{self.name}.T[{i}]" for i in range(6)]
        return PHS(J=self.structure(), G=G, hamiltonian=self.hamiltonian(gravity),
                   states=self.states, inputs=inputs, outputs=outputs, name=self.name,
                   check=False)

    # ------------------------------------------------------------------ numeric helpers
    def state(self, H: Any = None, twist: Any = None) -> np.ndarray:
        """State vector from a pose ``H`` (4×4) and a body twist ``(ω, v)``."""
        H = np.eye(4) if H is None else np.asarray(H, dtype=float)
        R = H[:3, :3]
        if H.shape != (4, 4) or not np.allclose(R @ R.T, np.eye(3), atol=1e-12):
            raise ModelError(f"body {self.name!r}: initial pose must be a 4×4 homogeneous "
                             "matrix with an orthonormal rotation (RRᵀ = I to 1e-12)")
        T = np.zeros(6) if twist is None else np.asarray(twist, dtype=float)
        return np.concatenate([H[:3, 3], R.reshape(9), self.spatial_inertia @ T])

    @staticmethod
    def pose(x: Any) -> np.ndarray:
        """4×4 pose(s) from a body's 18 state entries (last axis)."""
        x = np.asarray(x, dtype=float)
        H = np.zeros(x.shape[:-1] + (4, 4))
        H[..., :3, :3] = x[..., 3:12].reshape(x.shape[:-1] + (3, 3))
        H[..., :3, 3] = x[..., :3]
        H[..., 3, 3] = 1.0
        return H
