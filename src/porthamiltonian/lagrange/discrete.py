r"""The discrete Lagrange–d'Alembert–Pontryagin step with the midpoint discrete
Lagrangian: one step of the discrete Dirac integrator of :mod:`.discrete_dirac`.

Discrete mechanics replaces the action ``∫ L dt`` over ``[t_k, t_{k+1}]`` by a
discrete Lagrangian; here the midpoint one (``h`` the step, s)

.. math::  L_d(q_k, q_{k+1}) = h\,L\Big(\bar q_k,\ w_k\Big),\qquad
           \bar q_k = \tfrac12 (q_k + q_{k+1}),\quad w_k = \frac{q_{k+1} − q_k}{h},

with the forces, the magnetic force and the constraint reactions as discrete
Lagrange–d'Alembert forces at both ends, ``F_d^± = \tfrac h2 (F + B w + A λ_k)`` at
``(\bar q_k, w_k, t_k + h/2)``.  The discrete LDAP principle (Leok & Ohsawa,
*Variational and geometric structures of discrete Dirac mechanics*, Found. Comput.
Math. 11 (2011) 529–562; discrete forces as in Marsden & West, *Discrete
mechanics and variational integrators*, Acta Numer. 10 (2001) 357–514)

.. math::  p_k = −D_1 L_d − F_d^−,\qquad p_{k+1} = D_2 L_d + F_d^+,\qquad
           A(\bar q_k)^\mathsf{T} (q_{k+1} − q_k) = 0,

reads, with ``D_1 L_d = \tfrac h2 L_q − L_v`` and ``D_2 L_d = \tfrac h2 L_q + L_v`` at
``(\bar q_k, w_k)``,

.. math::  q_{k+1} − q_k = h\,w_k,\qquad \tfrac12 (p_k + p_{k+1}) = L_v(\bar q_k, w_k),\qquad
           p_{k+1} − p_k = h\,\big(L_q + F + B w_k + A λ_k\big),\qquad
           A(\bar q_k)^\mathsf{T} w_k = 0 :

the discrete kinematic, Legendre, dynamic and constraint relations, i.e. the discrete
Dirac structure (the continuous ones are :meth:`.system.LagrangeDiracSystem.equations`).
Grid velocities follow from ``w_k = \tfrac12 (v_k + v_{k+1})``.  The unknowns
``(q_{k+1}, λ_k)`` solve

.. math::  2\,(L_v − p_k) − h\,(L_q + F + B w + A λ) = 0,\qquad A^\mathsf{T} w = 0,

by Newton's method with the exact Jacobian (``G = L_q + F + B v + A λ``, ``C = Aᵀ v``)

.. math::  \begin{bmatrix} L_{vq} + \tfrac2h L_{vv} − \tfrac h2 G_q − G_v & −hA \\
           \tfrac12 C_q + \tfrac1h A^\mathsf{T} & 0 \end{bmatrix};

after scaling rows and ``λ`` by powers of ``h`` it tends to the matrix
``[[L_vv, −A], [Aᵀ, 0]]`` of the acceleration form, so it is invertible for small ``h``
where that one is, and degenerate Lagrangians (charges as coordinates, massless cut
points) are handled as in the continuous case.  When the Jacobian is constant (quadratic
``L``, constant forms, forces affine in ``v``) the step is one linear solve.

Properties (tested in ``tests/lagrange/test_ld_discrete_dirac.py``): without
constraints and forces the map ``(q_k, p_k) ↦ (q_{k+1}, p_{k+1})`` is the discrete
Euler–Lagrange map of ``L_d`` and hence symplectic; a symmetry of ``L`` that acts
linearly on ``Q`` leaves ``L_d`` invariant, so its momentum map is conserved exactly
(discrete Noether theorem); for ``L = ½ vᵀMv − V(q)`` with constant ``M`` it is the
implicit midpoint rule on ``(q, v)``, for quadratic ``V`` and constant ``A`` the
generalized energy balance ``E_{k+1} − E_k = h⟨F, w_k⟩`` holds exactly.  For constant
``A`` the configurations coincide with those of Leok & Ohsawa's ``(+)`` scheme
(reaction ``A μ_k`` in ``p_k`` only, ``μ_k = −\tfrac h2 (λ_{k−1} + λ_k)``); the
momenta differ by an element of ``Δ°``: theirs, ``p_{k+1} = D_2 L_d``, lack the half
reaction ``\tfrac h2 A λ_k`` and are first-order accurate there, these are second-order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.linalg as sla
import sympy

from ..errors import ModelError, SimulationError
from ._symbols import T

#: annotations: a :class:`.system.LagrangeDiracSystem`
LagrangeDiracSystem = Any

__all__ = ["discrete_lagrangian", "DiscreteDiracStep", "StepResult"]

#: Newton stops when the update of ``q_{k+1}`` is below this times the scale of ``q``
NEWTON_RTOL = 4.0 * np.finfo(float).eps
#: affine steps with more unknowns than this reuse LU factors instead of dense solves
LU_FROM = 64


def discrete_lagrangian(system: LagrangeDiracSystem, h: Any = None
                        ) -> tuple[Any, tuple[sympy.Symbol, ...], tuple[sympy.Symbol, ...]]:
    """The midpoint discrete Lagrangian ``L_d(q_k, q_{k+1}) = h L(q̄, (q_{k+1} − q_k)/h)``
    (module docstring) with the system's parameters substituted.

    Returns ``(L_d, q_k, q_{k+1})``: the expression and the symbols ``<name>_k``,
    ``<name>_k1`` it is written in; ``h`` a number or symbol (default the symbol ``h``).
    """
    h = sympy.Symbol("h", positive=True) if h is None else sympy.sympify(h)
    qa = tuple(sympy.Symbol(f"{s}_k") for s in system.names)
    qb = tuple(sympy.Symbol(f"{s}_k1") for s in system.names)
    sub = {q: (a + b) / 2 for q, a, b in zip(system.coordinates, qa, qb, strict=True)}
    sub |= {v: (b - a) / h for v, a, b in zip(system.velocities, qa, qb, strict=True)}
    par = {k: sympy.Float(v) for k, v in system.parameters.items()}
    return h * system.lagrangian.xreplace(par).xreplace(sub), qa, qb


@dataclass(frozen=True)
class StepResult:
    """One step: ``q``, ``p``, ``v`` at ``t_{k+1}``, the midpoint multipliers ``lam``
    (``λ_k``, constraint force ``A(q̄) λ_k``), the discrete velocity ``w``, the discrete
    constraint residual ``A(q̄)ᵀ w``, the power ``⟨F, w⟩ − ∂L/∂t`` at the midpoint
    (W) and the Newton iterations used."""

    q: np.ndarray
    p: np.ndarray
    v: np.ndarray
    lam: np.ndarray
    w: np.ndarray
    constraint_residual: np.ndarray
    power: float
    iterations: int


class DiscreteDiracStep:
    """The compiled step of the module docstring for ``system`` (parameters substituted).

    ``step(t, q, p, v)`` advances ``(q_k, p_k)`` at ``t_k`` by ``h``; ``v`` is the grid
    velocity ``v_k`` (for ``v_{k+1} = 2 w − v_k`` and Newton's first guess).
    """

    def __init__(self, system: LagrangeDiracSystem, h: float, *, max_newton: int = 40) -> None:
        if not h > 0:
            raise ModelError(f"{system.name}: the step dt = {h} must be positive")
        self.system, self.h, self.max_newton = system, float(h), max_newton
        n, m = system.n, system.m
        par = {k: sympy.Float(v) for k, v in system.parameters.items()}
        q, v = sympy.Matrix(system.coordinates), sympy.Matrix(system.velocities)
        lam = sympy.Matrix(sympy.symbols(f"lambda_0:{m}")) if m else sympy.zeros(0, 1)
        L = system.lagrangian.xreplace(par)
        A = system.constraint_forms.xreplace(par)
        Lv = sympy.Matrix([L.diff(s) for s in v])
        F = system.forces.xreplace(par)
        G = sympy.Matrix([L.diff(s) for s in q]) + F + system.two_form.xreplace(par) * v
        if m:
            G += A * lam
        C = A.T * v if m else sympy.zeros(0, 1)
        left = (sympy.Matrix.vstack(Lv, G, C).free_symbols
                - set(q) - set(v) - set(lam) - {T})
        if left:
            raise ModelError(f"{system.name}: the model still depends on "
                             f"{', '.join(sorted(map(str, left)))}; give their values with "
                             "parameters={...}")
        power = sympy.Matrix([(F.T * v)[0, 0] - L.diff(T)])
        blocks = [Lv, Lv.jacobian(q), Lv.jacobian(v), G, G.jacobian(q), G.jacobian(v),
                  C, C.jacobian(q) if m else sympy.zeros(0, n), A if m else sympy.zeros(n, 0),
                  power]
        args = (T, list(q), list(v), list(lam))
        self._f = sympy.lambdify(args, blocks, modules="numpy", cse=True)
        self._power = sympy.lambdify(args, power[0, 0], modules="numpy")
        self._shapes = [b.shape for b in blocks]
        self.n, self.m = n, m
        jac = [blocks[i] for i in (1, 2, 4, 5, 7, 8)]
        #: the step equations are affine in (q_{k+1}, λ_k): one LU per step size, one solve
        self.affine = not any(b.free_symbols & (set(q) | set(v) | set(lam) | {T}) for b in jac)
        self._lu: dict[float, Any] = {}

    def blocks(self, t: float, q: np.ndarray, v: np.ndarray, lam: np.ndarray) -> list[np.ndarray]:
        """``L_v, L_vq, L_vv, G, G_q, G_v, C, C_q, A, power`` at a point (arrays)."""
        return [np.asarray(b, dtype=float).reshape(s) for b, s in
                zip(self._f(t, q, v, lam), self._shapes, strict=True)]

    def step(self, t: float, q0: np.ndarray, p0: np.ndarray, v0: np.ndarray,
             lam: np.ndarray | None = None, h: float | None = None) -> StepResult:
        """Solve the step equations for ``(q_{k+1}, λ_k)`` (module docstring); ``lam``
        Newton's first guess of ``λ_k``, ``h`` another step than the stepper's."""
        n, m = self.n, self.m
        h = self.h if h is None else float(h)
        q1 = q0 + h * v0
        lam = np.zeros(m) if lam is None else np.array(lam, dtype=float)
        tm = t + 0.5 * h
        if self.affine:
            return self._affine_step(t, h, q0, p0, v0, q1, lam)
        scale = max(float(np.abs(q0).max(initial=0.0)), h * float(np.abs(v0).max(initial=0.0)),
                    1e-300)
        last, it = np.inf, 0
        while it < self.max_newton:
            it += 1
            qb, w = 0.5 * (q0 + q1), (q1 - q0) / h
            Lv, Lvq, Lvv, G, Gq, Gv, C, Cq, A, _ = self.blocks(tm, qb, w, lam)
            res = np.concatenate([2.0 * (Lv.ravel() - p0) - h * G.ravel(), C.ravel()])
            J = self._matrix(h, Lvq, Lvv, Gq, Gv, Cq, A)
            try:
                delta = np.linalg.solve(J, -res)
            except np.linalg.LinAlgError:
                raise SimulationError(
                    f"{self.system.name}: the step equations are singular at t = {t:.6g} "
                    "(the matrix [[∂²L/∂v², −A], [Aᵀ, 0]] lost rank along the trajectory)",
                    t_reached=t) from None
            q1 = q1 + delta[:n]
            lam = lam + delta[n:]
            size = float(np.abs(delta[:n]).max(initial=0.0))
            # converged to round-off, or stagnating there (the update no longer shrinks)
            if size <= NEWTON_RTOL * scale or (size >= last and size <= 1e-9 * scale):
                break
            last = size
        else:  # the while loop ran out of iterations
            raise SimulationError(f"{self.system.name}: Newton's method did not converge in "
                                  f"{self.max_newton} iterations at t = {t:.6g}; take a "
                                  "smaller dt", t_reached=t)
        qb, w = 0.5 * (q0 + q1), (q1 - q0) / h
        _, _, _, G, _, _, C, _, _, power = self.blocks(tm, qb, w, lam)
        p1 = p0 + h * G.ravel()
        return StepResult(q=q1, p=p1, v=2.0 * w - v0, lam=lam, w=w,
                          constraint_residual=C.ravel(), power=float(power[0, 0]),
                          iterations=it)

    def _matrix(self, h: float, Lvq: np.ndarray, Lvv: np.ndarray, Gq: np.ndarray,
                Gv: np.ndarray, Cq: np.ndarray, A: np.ndarray) -> np.ndarray:
        """The Jacobian of the step equations (module docstring)."""
        n, m = self.n, self.m
        J = np.zeros((n + m, n + m))
        J[:n, :n] = Lvq + (2.0 / h) * Lvv - 0.5 * h * Gq - Gv
        if m:
            J[:n, n:] = -h * A
            J[n:, :n] = 0.5 * Cq + A.T / h
        return J

    def _affine_step(self, t: float, h: float, q0: np.ndarray, p0: np.ndarray,
                     v0: np.ndarray, q1: np.ndarray, lam: np.ndarray) -> StepResult:
        """Affine step equations (constant Jacobian): one solve with the LU factors of
        this ``h``; ``G`` and ``C`` at the solution follow from their (exact) linear
        models, so a single evaluation of the model is needed."""
        n, tm = self.n, t + 0.5 * h
        qb, w = 0.5 * (q0 + q1), (q1 - q0) / h
        Lv, Lvq, Lvv, G, Gq, Gv, C, Cq, A, _ = self.blocks(tm, qb, w, lam)
        J = self._lu.get(h)
        if J is None:
            J = self._matrix(h, Lvq, Lvv, Gq, Gv, Cq, A)
            if np.linalg.matrix_rank(J) < J.shape[0]:
                raise SimulationError(
                    f"{self.system.name}: the step equations are singular at t = {t:.6g} "
                    "(the matrix [[∂²L/∂v², −A], [Aᵀ, 0]] is singular)", t_reached=t)
            # small systems: a dense solve is cheaper than SciPy's LU call overhead
            J = self._lu[h] = J if J.shape[0] <= LU_FROM else sla.lu_factor(J)
        res = np.concatenate([2.0 * (Lv.ravel() - p0) - h * G.ravel(), C.ravel()])
        delta = np.linalg.solve(J, -res) if isinstance(J, np.ndarray) else sla.lu_solve(J, -res)
        dq, dlam = delta[:n], delta[n:]
        q1, lam = q1 + dq, lam + dlam
        G = G.ravel() + (0.5 * Gq + Gv / h) @ dq + A @ dlam
        C = C.ravel() + (0.5 * Cq + A.T / h) @ dq
        w = (q1 - q0) / h
        power = float(self._power(tm, 0.5 * (q0 + q1), w, lam))
        return StepResult(q=q1, p=p0 + h * G, v=2.0 * w - v0, lam=lam, w=w,
                          constraint_residual=C, power=power, iterations=1)
