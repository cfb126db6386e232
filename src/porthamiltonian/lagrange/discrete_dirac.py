r"""Discrete Dirac (variational) integrator for Lagrange–Dirac systems and their
interconnections.

:func:`discrete_dirac` marches the discrete Lagrange–d'Alembert–Pontryagin step of
:mod:`.discrete` (midpoint discrete Lagrangian; Leok & Ohsawa, *Variational and
geometric structures of discrete Dirac mechanics*, Found. Comput. Math. 11 (2011)
529–562) with a fixed step ``h`` on the discrete Pontryagin bundle
``(q_k, v_k, p_k)``.  An :class:`.interconnect.InterconnectedSystem` is integrated
as it is, with the stacked constraint forms ``[diag(A_i) | A_Σ]`` and ``L = Σ L_i``:
since the midpoint ``L_d`` of a sum is the sum of the parts' ``L_d``, this is the
discrete analogue of the variational interconnection (Jacobs & Yoshimura, J. Geom.
Mech. 6 (2014) 67–98, Thm. 6.6): the discrete action of the whole is the sum of
the parts' discrete actions with the discrete interaction constraint.

Output, at ``t_k = k h``: ``q_k``, ``v_k``, ``p_k``, the generalized energy
``E_k = ⟨p_k, v_k⟩ − L(q_k, v_k)`` (J), the discrete work
``W_k = Σ_{j<k} h (⟨F, w_j⟩ − ∂L/∂t)`` at the midpoints, the multipliers (``lam[0]``
from the acceleration form at ``t = 0``, ``lam[k]`` the midpoint multiplier
``λ_{k−1}`` of the step ending at ``t_k``), the grid constraint residual
``A(q_k)ᵀ v_k`` and the discrete one ``A(q̄_k)ᵀ w_k`` of every step.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ModelError
from ._integrate import _lambdify, _span, _vector
from .discrete import DiscreteDiracStep
from .result import LagrangeResult

#: annotations: a :class:`.system.LagrangeDiracSystem`
LagrangeDiracSystem = Any

__all__ = ["DiscreteDiracResult", "discrete_dirac"]


@dataclass(frozen=True)
class DiscreteDiracResult(LagrangeResult):
    """A :class:`.result.LagrangeResult` of the discrete Dirac integrator, with the
    step data: ``t_mid`` (``t_k + h/2``, shape ``(N−1,)``), ``w`` (discrete velocities
    ``(q_{k+1} − q_k)/h``), ``discrete_constraint_residual`` (``A(q̄_k)ᵀ w_k``, zero to
    the Newton tolerance) and ``iterations`` (Newton iterations per step)."""

    t_mid: np.ndarray
    w: np.ndarray
    discrete_constraint_residual: np.ndarray
    iterations: np.ndarray


def _initial_checks(sys: LagrangeDiracSystem, q0: np.ndarray, v0: np.ndarray
                    ) -> np.ndarray:
    """Clean intersection at ``q0``, ``v0 ∈ Δ``, a solvable step; returns ``λ(0)``."""
    n, m = sys.n, sys.m
    sys.check_constant_rank(q0)
    if m:
        A0 = _lambdify(sys, sys.constraint_forms, "the constraints")(0.0, q0, v0)
        res0 = A0.T @ v0
        scale = max(1.0, float(np.abs(A0).max() * np.abs(v0).max(initial=0.0)))
        if np.abs(res0).max() > 1e-9 * scale:
            k = int(np.argmax(np.abs(res0)))
            raise ModelError(
                f"{sys.name}: the initial velocities violate constraint {k} (from "
                f"{sys.constraint_owners[k]}): ω(v0) = {res0[k]:.3g}; choose v0 in the "
                "constraint distribution")
    M_s, r_s = sys.acceleration_form()
    M0 = _lambdify(sys, M_s, "the Lagrangian or the constraints")(0.0, q0, v0)
    if np.linalg.matrix_rank(M0) < n + m:
        raise ModelError(
            f"{sys.name}: the discrete Dirac step is not solvable at the initial state (the "
            "matrix [[∂²L/∂v², −A], [Aᵀ, 0]] is singular): the Lagrangian is degenerate "
            "in directions the constraints do not fix; add the missing constraints (e.g. "
            "Kirchhoff's laws for a circuit) or a mass/inductance in that direction")
    r0 = _lambdify(sys, r_s, "the equations")(0.0, q0, v0).ravel()
    return np.linalg.solve(M0, r0)[n:]


def discrete_dirac(system: LagrangeDiracSystem, t_span: Any, q0: Any, v0: Any, dt: float,
                   *, max_newton: int = 40) -> DiscreteDiracResult:
    """Integrate ``system`` from ``(q0, v0)`` (``p0 = ∂L/∂v``) over ``t_span`` (s; a pair
    starting at 0 or ``t_end``) with fixed steps ``dt`` (the last one shortened so the
    run ends at ``t_end``).  See the module docstring for the output.

    Raises :class:`ModelError` for inconsistent initial velocities, a configuration
    where the constraint forms lose rank, or a step that cannot be solved (degenerate
    directions not fixed by constraints); :class:`SimulationError` when Newton fails.
    """
    t0, t_end = _span(t_span)
    if t0 != 0.0:
        raise ModelError(f"{system.name}: a discrete Dirac run starts at t = 0; give "
                         f"t_span = (0, {t_end:g})")
    if not (t_end > 0 and dt > 0):
        raise ModelError(f"{system.name}: need t_end > 0 and dt > 0 (got {t_end}, {dt})")
    q = _vector(system, q0, "q0")
    v = _vector(system, v0, "v0")
    lam = _initial_checks(system, q, v)
    p = _lambdify(system, system.legendre(), "the Legendre map")(0.0, q, v).ravel()
    L_f = _lambdify(system, system.lagrangian, "the Lagrangian")
    steps = int(np.ceil(t_end / dt - 1e-9))
    n, m = system.n, system.m
    t = np.zeros(steps + 1)
    Q, V, P = (np.zeros((steps + 1, n)) for _ in range(3))
    LAM = np.zeros((steps + 1, m))
    Wd = np.zeros((steps, n))
    DC = np.zeros((steps, m))
    its = np.zeros(steps, dtype=int)
    work = np.zeros(steps + 1)
    Q[0], V[0], P[0], LAM[0] = q, v, p, lam
    stepper = DiscreteDiracStep(system, dt, max_newton=max_newton)
    t[1:] = np.minimum(dt * np.arange(1, steps + 1), t_end)  # only the last step is shorter
    t[-1] = t_end
    for k in range(steps):
        h = dt if k < steps - 1 else t_end - t[k]
        s = stepper.step(t[k], Q[k], P[k], V[k], LAM[k] if k else None, h=h)
        Q[k + 1], V[k + 1], P[k + 1], LAM[k + 1] = s.q, s.v, s.p, s.lam
        Wd[k], DC[k], its[k] = s.w, s.constraint_residual, s.iterations
        work[k + 1] = work[k] + h * s.power
    A_f = _lambdify(system, system.constraint_forms, "the constraints")
    energy = np.array([P[k] @ V[k] - L_f(t[k], Q[k], V[k])[0, 0] for k in range(steps + 1)])
    cres = np.array([A_f(t[k], Q[k], V[k]).T @ V[k] for k in range(steps + 1)])
    labels = tuple(f"lambda_{k} ({o})" for k, o in enumerate(system.constraint_owners))
    return DiscreteDiracResult(
        t=t, q=Q, v=V, p=P, lam=LAM, energy=energy, work=work,
        constraint_residual=cres.reshape(steps + 1, m), names=system.names,
        multipliers=labels, t_mid=0.5 * (t[:-1] + t[1:]), w=Wd,
        discrete_constraint_residual=DC, iterations=its)
