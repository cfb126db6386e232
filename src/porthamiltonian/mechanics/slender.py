r"""Slender and point bodies: rigid bodies with a singular inertia, simulated without
inverting it.

A slender rod has no moment about its own axis, a point mass none at all, so the
spatial inertia ``M`` (:mod:`.rigid_body`) is only positive semidefinite: the *null
twists* :math:`N` (6 × r, :attr:`.RigidBody.null_twists`; for each zero-moment
principal axis ``e`` the spin :math:`(e,\ c\times e)` about the axis through the centre of
mass) move no mass, :math:`MN = 0`.  The momentum then lies in the range of ``M``
(:math:`N^\top P = 0`) and does not fix the twist: :math:`T = M^+P + N\mu` with the
spin rates ``μ`` (rad/s) undetermined by the energy.  They are fixed instead by the
joints (a rod on a revolute joint cannot spin about its own axis), and the matching
row of the momentum balance has no inertia: :math:`N^\top(\text{wrench}) = 0`.

**Formulation.**  The spin rates are *algebraic states* of the descriptor system, the
states ``<body>.mu[j]`` appended after those of the rigid assembly
(:class:`.MechanismDAE` with :math:`M^+` in place of :math:`M^{-1}`).  With the constant
map :math:`S = [\,I\ \ N_\mathrm{e}\,]` (``N_e``: the null twists in the momentum rows of
their bodies) the effective effort of the rigid assembly is :math:`S z`, i.e. the twist
:math:`M^+P + N\mu`, and

.. math::
    E\dot x = S^\top\big[(J_r - R_r)(x)\,S z + B_r\lambda + G_r u\big],\qquad
    0 = (S^\top B_r)^\top z,\qquad y = (S^\top G_r)^\top z,

with :math:`E = \mathrm{diag}(I, 0)`, :math:`z = (\nabla H_r,\ \mu)`, :math:`H =
\tfrac12 P^\top M^+P + V(q)`.  So :math:`J = S^\top J_r S` is skew, :math:`R = S^\top R_r S
\succeq 0`, :math:`E^\top z = \nabla H` — a pH-DAE in the sense of Beattie, Mehrmann,
Xu & Zwart (*MCSS* 30, 2018) — and the algebraic rows are exactly
:math:`N^\top(\text{momentum rows})`, so the midpoint rule keeps the linear invariant
:math:`N^\top P = 0` to round-off and the discrete power balance holds as for regular
bodies (``H`` stays quadratic).  Nothing is regularized: no fictitious inertia.

**When it is singular.**  Let ``W`` be the constraint wrenches (the momentum rows of
``B``).  The admissible twists are :math:`\ker W^\top`, the kinetic energy is positive
definite on them iff :math:`\ker M\cap\ker W^\top = 0`, i.e. iff :math:`W^\top N` has
full column rank — every massless spin is blocked by a joint.  Otherwise (a rod between
two spherical joints, a point mass on a free joint) the spin is a motion with no
inertia and nothing to resist it; :meth:`SlenderMechanismDAE.consistent_point` refuses
it with a :class:`~porthamiltonian.errors.ModelError` naming the body and the axis.

**Consistent values** (:meth:`SlenderMechanismDAE.consistent_point`, used by the DAE
driver at ``t0`` and at each saved point): the spin rates from the velocity constraints
:math:`W^\top(M^+P + N\mu) = 0` (full column rank, above), then :math:`(\lambda,
\dot\mu)` from the algebraic rows and the hidden constraint
:math:`C_x\dot x + C_\mu\dot\mu = 0` — the constraints involve the algebraic states here,
which the generic initializer does not assume.  The spin rates at the grid points carry
no energy and do not enter the next step (only their midpoint values do), so this
changes the reported rates, not the trajectory.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import scipy.sparse as sps

from ..compiled import PowerBalance
from ..errors import ModelError
from .assembly import MechanismDAE
from .rigid_body import RigidBody

__all__ = ["SlenderMechanismDAE"]


def _dense(A: Any) -> np.ndarray:
    return A.toarray() if sps.issparse(A) else np.asarray(A, dtype=float)


class SlenderMechanismDAE:
    """The pH-DAE of a mechanism with slender or point bodies (module docstring): the
    rigid assembly ``rigid`` (built with :math:`M^+`, NumPy engine) plus one algebraic
    spin-rate state per zero principal moment.  Same interface as
    :class:`.MechanismDAE`."""

    linear = False
    Q = None
    simplified_newton = True
    problem_kind = "dae"
    quadratic_energy = True
    fused_midpoint = None     # the compiled step has no algebraic states
    points = None

    def __init__(self, rigid: MechanismDAE, bodies: Mapping[str, RigidBody]) -> None:
        self.rigid = r = rigid
        nr = r.n
        cols, self.spins = [], []
        for i, (name, body) in enumerate(bodies.items()):
            N = body.null_twists
            for j in range(N.shape[1]):
                col = np.zeros(nr)
                col[18 * i + 12:18 * i + 18] = N[:, j]
                cols.append(col)
                self.spins.append((name, body.null_axes[:, j]))
        na = len(cols)
        self.nr, self.na = nr, na
        Ne = np.array(cols).T.reshape(nr, na)
        self.sparse = r.sparse
        self._Ne = sps.csr_array(Ne) if self.sparse else Ne
        self._NeT = sps.csr_array(Ne.T) if self.sparse else Ne.T
        self.states = list(r.states) + [f"{b}.mu[{sum(1 for s in self.spins[:j] if s[0] == b)}]"
                                        for j, (b, _) in enumerate(self.spins)]
        self.inputs, self.outputs = r.inputs, r.outputs
        self.multipliers, self.rows, self.all_rows = r.multipliers, r.rows, r.all_rows
        self.n, self.k, self.m = nr + na, r.k, r.m
        eye = np.eye(self.n)
        self.algebraic = self.left_kernel = eye[:, nr:]
        E = np.diag(np.r_[np.ones(nr), np.zeros(na)])
        self.E = sps.csr_array(E) if self.sparse else E
        self.engine = "numpy"

    # ------------------------------------------------------------------ the map S
    def _lift(self, w: np.ndarray) -> np.ndarray:
        """``S w``: the rigid assembly's effort with the spin rates added to the twists."""
        w = np.asarray(w, dtype=float)
        return w[:self.nr] + self._Ne @ w[self.nr:]

    def _project(self, v: np.ndarray) -> np.ndarray:
        """``Sᵀ v`` of a vector (rows of the rigid assembly)."""
        return np.concatenate([v, self._NeT @ v])

    def _rows(self, A: Any) -> Any:
        """``Sᵀ A`` of a matrix with the rigid assembly's rows."""
        if self.sparse:
            return sps.csr_array(sps.vstack([sps.csr_array(A), self._NeT @ sps.csr_array(A)]))
        A = _dense(A)
        return np.vstack([A, self._NeT @ A])

    def _cols(self, A: Any, with_spins: bool) -> Any:
        """``A S`` (``with_spins``) or ``[A, 0]`` of a matrix with the rigid columns."""
        if self.sparse:
            A = sps.csr_array(A)
            right = A @ self._Ne if with_spins else sps.csr_array((A.shape[0], self.na))
            return sps.csr_array(sps.hstack([A, right]))
        A = _dense(A)
        right = A @ self._Ne if with_spins else np.zeros((A.shape[0], self.na))
        return np.hstack([A, right])

    # ------------------------------------------------------------------ the protocol
    def compile(self) -> SlenderMechanismDAE:
        return self

    @property
    def n_constraints(self) -> int:
        return self.k

    def z(self, x: np.ndarray) -> np.ndarray:
        x = np.asarray(x, dtype=float)
        return np.concatenate([self.rigid.z(x[:self.nr]), x[self.nr:]])

    def Dz(self, x: np.ndarray) -> Any:
        D = self.rigid.Dz(x[:self.nr])
        if self.sparse:
            return sps.csr_array(sps.block_diag([D, sps.identity(self.na)]))
        out = np.eye(self.n)
        out[:self.nr, :self.nr] = _dense(D)
        return out

    def energy(self, x: np.ndarray) -> float:
        return self.rigid.energy(np.asarray(x, dtype=float)[:self.nr])

    def f(self, x: np.ndarray, w: np.ndarray, lam: np.ndarray, u: np.ndarray) -> np.ndarray:
        return self._project(self.rigid.f(x[:self.nr], self._lift(w), lam, u))

    def f_x(self, x: np.ndarray, w: np.ndarray, lam: np.ndarray, u: np.ndarray) -> Any:
        # the structure depends on the poses and momenta only, not on the spin rates
        return self._cols(self._rows(self.rigid.f_x(x[:self.nr], self._lift(w), lam, u)),
                          with_spins=False)

    def c(self, x: np.ndarray, w: np.ndarray) -> np.ndarray:
        return self.rigid.c(x[:self.nr], self._lift(w))

    def c_x(self, x: np.ndarray, w: np.ndarray) -> Any:
        return self._cols(self.rigid.c_x(x[:self.nr], self._lift(w)), with_spins=False)

    def B(self, x: np.ndarray) -> Any:
        return self._rows(self.rigid.B(x[:self.nr]))

    def constraint(self, x: np.ndarray) -> np.ndarray:
        """``B(x)ᵀz(x)``: the velocity form of the joint constraints."""
        return self.c(x, self.z(x))

    def constraint_jacobian(self, x: np.ndarray) -> Any:
        return self.c_x(x, self.z(x)) + self.B(x).T @ self.Dz(x)

    def matrix(self, name: str, x: np.ndarray) -> Any:
        """``J, R, G, P, M, S`` or ``B`` at ``x`` (congruent to the rigid assembly's)."""
        if name in ("J", "R"):
            return self._cols(self._rows(self.rigid.matrix(name, x[:self.nr])), True)
        if name in ("G", "B"):
            return self._rows(self.rigid.matrix(name, x[:self.nr]))
        if name == "P":
            return sps.csr_array((self.n, self.m)) if self.sparse else np.zeros((self.n, self.m))
        return self.rigid.matrix(name, x[:self.nr])

    def position_residual(self, x: np.ndarray) -> np.ndarray:
        return self.rigid.position_residual(x[:self.nr])

    def output(self, x: np.ndarray, u: np.ndarray, z: np.ndarray | None = None) -> np.ndarray:
        z = self.z(x) if z is None else z
        return self.rigid.output(x[:self.nr], u, self._lift(z))

    def port_powers(self, x: np.ndarray, z: np.ndarray, u: np.ndarray) -> tuple[float, float]:
        return self.rigid.port_powers(x[:self.nr], self._lift(z), u)

    def power_balance(self, x: np.ndarray, u: np.ndarray) -> PowerBalance:
        z = self.z(x)
        stored = float(z @ self.f(x, z, np.zeros(self.k), u))
        return PowerBalance(stored, *self.port_powers(x, z, u))

    # ------------------------------------------------------------------ consistency
    def spin_rates(self, x: np.ndarray) -> np.ndarray:
        r"""The spin rates ``μ`` that satisfy the velocity constraints at the poses and
        momenta of ``x``, :math:`W^\top N\mu = -W^\top M^+P` (least squares; exact for
        consistent momenta).  Raises :class:`ModelError` when a spin is free (module
        docstring)."""
        x = np.asarray(x, dtype=float)
        B = _dense(self.rigid.B(x[:self.nr]))
        norms = np.linalg.norm(B, axis=0)
        Bn = B / np.where(norms > 0, norms, 1.0)
        A = Bn.T @ _dense(self._Ne)                 # (k × na): ∂c/∂μ, rows normalized
        s, V = (np.linalg.svd(A)[1:] if A.size else (np.zeros(0), np.eye(self.na)))
        if s.size < self.na or s[-1] < 1e-9:
            v = V[-1] if s.size == self.na else V[min(s.size, self.na - 1)]
            body, axis = self.spins[int(np.argmax(np.abs(v)))]
            raise ModelError(
                f"body {body!r} has no moment of inertia about its axis "
                f"{np.round(axis, 12).tolist()} (body frame), and the joints leave the spin "
                "about that axis free: a motion with no inertia and nothing to resist it. "
                "Give the body a moment about that axis, or join it so that the spin is "
                "blocked (e.g. a revolute instead of a spherical joint)")
        x0 = x.copy()
        x0[self.nr:] = 0.0
        c0 = self.c(x0, self.z(x0)) / np.where(norms > 0, norms, 1.0)
        return np.linalg.lstsq(A, -c0, rcond=None)[0]

    def consistent_point(self, t: float, x: np.ndarray, signal: Any,
                         lam_guess: np.ndarray | None = None
                         ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        r"""``(x, λ, ẋ)`` at time ``t``: the spin rates from the velocity constraints
        (:meth:`spin_rates`), then :math:`(\lambda, \dot\mu)` from the algebraic rows
        :math:`N_\mathrm{e}^\top f = 0` and the hidden constraint
        :math:`C_x \dot x_r + C_\mu\dot\mu = 0` (one linear solve; :math:`f` is affine in
        :math:`\lambda`)."""
        x = np.array(x, dtype=float)
        nr, k = self.nr, self.k
        x[nr:] = self.spin_rates(x)
        u = signal(t, x)
        z = self.z(x)
        f0 = self.f(x, z, np.zeros(k), u)
        if k == 0:
            return x, np.zeros(0), np.concatenate([f0[:nr], np.zeros(self.na)])
        B = _dense(self.B(x))
        C = _dense(self.constraint_jacobian(x))
        A = np.block([[C[:, :nr] @ B[:nr], C[:, nr:]],
                      [B[nr:], np.zeros((self.na, self.na))]])
        rhs = -np.concatenate([C[:, :nr] @ f0[:nr], f0[nr:]])
        r = np.max(np.abs(A), axis=1, keepdims=True)
        r = np.where(r > 0, r, 1.0)
        sol = np.linalg.lstsq(A / r, rhs / r.ravel(), rcond=None)[0]
        lam, mudot = sol[:k], sol[k:]
        return x, lam, np.concatenate([f0[:nr] + B[:nr] @ lam, mudot])
