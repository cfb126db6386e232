r"""Implicit midpoint and discrete-gradient steps for descriptor pH systems (pH-DAEs).

One step of length :math:`h` from :math:`x_k` solves for :math:`\delta = x_{k+1}-x_k`
and the constraint impulse :math:`\mu = h\,\lambda_{k+1/2}` together:

.. math::
    E\,\delta &= h\big[(J-R)(\bar x)\,\bar z + (G-P)(\bar x)\,\bar u\big] + B(\bar x)\,\mu,\\
    0 &= B(\bar x)^\top \bar z,
    \qquad \bar x = x_k + \tfrac12\delta,\quad \bar u = u(t_k + \tfrac h2, \bar x),

with :math:`\bar z = z(\bar x)` (implicit midpoint) or the discrete gradient
:math:`\bar z = z(\bar x) + \frac{\Delta H - z(\bar x)^\top E\delta}{\|E\delta\|^2}E\delta`
(Gonzalez, *J. Nonlinear Sci.* 6, 1996, with :math:`E\delta` in place of
:math:`\delta`), which satisfies :math:`\bar z^\top E\delta = H(x_{k+1}) - H(x_k)`
for any :math:`H` with :math:`E^\top z = \nabla H`.  For a quadratic
:math:`H = \tfrac12 x^\top E^\top Q x` (:math:`E^\top Q` symmetric) the midpoint
effort :math:`Q\bar x` already has that property.  Multiplying the first equation by
:math:`\bar z^\top` and using the discrete constraint :math:`B(\bar x)^\top\bar z = 0`
(the constraint force does no work) gives the discrete power balance

.. math::  H(x_{k+1}) - H(x_k) = -h\,\bar z^\top R\,\bar z + h\,\bar u^\top\bar y
           \;(- 2h\,\bar z^\top P\bar u - h\,\bar u^\top S\bar u),

exact up to round-off and the Newton tolerance (Mehrmann & Morandin, *Structure-
preserving discretization for port-Hamiltonian descriptor systems*, CDC 2019;
Kotyczka & Lefèvre, *Syst. Control Lett.* 133, 2019).

Where the constraint holds: exactly at the midpoints, where the method imposes it.
At the grid points :math:`B(x_k)^\top z(x_k)` is :math:`O(h^2)` for a state-dependent
``B``; for constant ``B`` and linear ``z`` it is exact at the grid points too (it is
linear in :math:`x`).  A holonomic position constraint :math:`g(q) = 0` whose
velocity form is :math:`B^\top z = 0` is a quadratic invariant for the pendulum
(:math:`|q|^2`), which the midpoint rule keeps exactly.

Newton uses the exact Jacobian of these equations (compiled once):

.. math::
    \begin{bmatrix} E - \tfrac h2 \partial_x f - h(J-R)D\bar z & -B(\bar x) \\
    \tfrac12\partial_x c + B(\bar x)^\top D\bar z & 0\end{bmatrix},

with :math:`D\bar z = \partial\bar z/\partial\delta`.  For a linear time-invariant
model the equations are affine: one LU factorization per step size (sparse SuperLU
for sparse models) is reused for every step.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.sparse as sps

from ...compiled.descriptor import CompiledDescriptor, _dense, is_identity
from ..linalg.newton import Factorization, SimplifiedNewton, newton
from ..method import StepInfo
from ..problem.inputs import InputSignal

__all__ = ["DAEMidpoint", "extrapolated_guess"]

_EPS13 = np.finfo(float).eps ** (1.0 / 3.0)
#: simplified Newton: iterations of a solve beyond which the step matrix is re-factored
#: at the next step (a fresh one converges in 4–5 here, a stale one slows down to the
#: limit of 8 and fails, wasting its residual evaluations)
REFRESH_AFTER = 5


def extrapolated_guess(hist: list[tuple[float, np.ndarray]], last: np.ndarray | None,
                       h: float, size: int) -> np.ndarray:
    """Newton's first guess: the rates ``(δ, μ)/h`` of the last three steps (``hist``,
    with their ``h``) extrapolated quadratically (error O(h⁴)) when they all had this
    ``h``, of the last two linearly (O(h³)), else the last rate ``last`` (O(h²)).  Only
    the iteration count depends on it: the step equations and their solution do not."""
    same = [r for hh, r in hist if hh == h]
    if len(same) == 3 and len(hist) == 3:
        return h * (3.0 * same[2] - 3.0 * same[1] + same[0])
    if len(hist) >= 2 and hist[-2][0] == h and hist[-1][0] == h:
        return h * (2.0 * hist[-1][1] - hist[-2][1])
    return h * last if last is not None else np.zeros(size)


class DAEMidpoint:
    """Implicit midpoint (``discrete_gradient=False``) or Gonzalez discrete-gradient step
    for a descriptor PHS; see the module docstring.

    ``step(t, x, h)`` returns ``(x_new, λ_mid, info, residual)`` with ``λ_mid = μ/h``
    the multiplier the step used and ``residual = |B(x̄)ᵀz̄|∞`` its constraint residual.
    """

    def __init__(self, model: CompiledDescriptor, signal: InputSignal, *,
                 discrete_gradient: bool = False, newton_tol: float = 1e-12,
                 max_newton: int = 20, simplified_newton: bool = False) -> None:
        self.model, self.signal = model, signal
        self.name = "discrete_gradient" if discrete_gradient else "midpoint"
        # for quadratic H the midpoint effort is already a discrete gradient
        self.dg = discrete_gradient and not model.linear
        self.affine = model.linear and not signal.feedback
        self.newton_tol, self.max_newton = newton_tol, max_newton
        self._lu: dict[float, Factorization] = {}
        # (δ, μ)/h of the last three steps and their h: Newton's first guess
        self._last: np.ndarray | None = None
        self._hist: list[tuple[float, np.ndarray]] = []
        # simplified Newton (a step matrix factored at an earlier step, reused while the
        # iteration contracts) for models whose step matrix changes slowly
        # E = I (mechanisms, most circuits): the step residual skips the product E δ
        self._E = None if is_identity(model.E) else model.E
        self._H_last: tuple[np.ndarray, float] | None = None  # H of the last step's end
        self._newton = (SimplifiedNewton(newton_tol, max_newton, refresh_after=REFRESH_AFTER)
                        if simplified_newton else None)

    @classmethod
    def create(cls, model: CompiledDescriptor, signal: InputSignal, options: Any, *,
               discrete_gradient: bool) -> Any:
        """The step with the Newton settings of ``options``
        (:class:`~..options.SimulationOptions`); ``simplified_newton=None`` there takes the
        model's preference (its ``simplified_newton`` attribute, else ``False``).

        A model may offer its own compiled midpoint step (``fused_midpoint(signal,
        newton_tol=, max_newton=, simplified_newton=)``, optional in
        :mod:`porthamiltonian.compiled.protocol`): it is used for the implicit midpoint
        rule without state feedback unless ``options.engine == "numpy"``; it solves the
        same step equations and returns what :meth:`step` returns."""
        simplified = options.simplified_newton
        if simplified is None:
            simplified = bool(getattr(model, "simplified_newton", False))
        fused = getattr(model, "fused_midpoint", None)
        if (fused is not None and not discrete_gradient and not signal.feedback
                and getattr(options, "engine", None) != "numpy"):
            stepper = fused(signal, newton_tol=options.newton_tol,
                            max_newton=options.max_newton, simplified_newton=bool(simplified))
            if stepper is not None:
                return stepper
        return cls(model, signal, discrete_gradient=discrete_gradient,
                   newton_tol=options.newton_tol, max_newton=options.max_newton,
                   simplified_newton=bool(simplified))

    # ------------------------------------------------------------------ efforts
    def effort(self, x: np.ndarray, d: np.ndarray, jac: bool = True) -> tuple[np.ndarray, Any]:
        r"""``(z̄, ∂z̄/∂δ)`` at ``(x, x + d)`` (the derivative only if ``jac``)."""
        m = self.model
        xm = x + 0.5 * d
        if not self.dg:
            return m.z(xm), 0.5 * m.Dz(xm) if jac else None
        g = m.z(xm)
        E = _dense(m.E)
        v = E @ d
        vv = float(v @ v)
        if math.sqrt(vv) <= _EPS13 * (1.0 + float(np.max(np.abs(x), initial=0.0))):
            return g, 0.5 * np.asarray(m.Dz(xm)) if jac else None
        x1 = x + d
        e = m.energy(x1) - m.energy(x) - float(g @ v)
        z = g + (e / vv) * v
        if not jac:  # the residual alone: no Hessian, no n × n outer products
            return z, None
        Dz = m.Dz(xm)
        de = E.T @ (m.z(x1) - g) - 0.5 * (np.asarray(Dz).T @ v)
        Dzb = 0.5 * np.asarray(Dz) + (np.outer(v, de) + e * E
                                      - 2.0 * e * np.outer(v, v @ E) / vv) / vv
        return z, Dzb

    # ------------------------------------------------------------------ one step
    def _equations(self, t: float, x: np.ndarray, h: float):  # noqa: ANN202
        m, n = self.model, self.model.n
        tm = t + 0.5 * h

        def F(w: np.ndarray) -> np.ndarray:
            d, mu = w[:n], w[n:]
            xm = x + 0.5 * d
            z, _ = self.effort(x, d, jac=False)
            um = self.signal(tm, xm)
            dyn = (d if self._E is None else self._E @ d) - h * m.f(xm, z, mu / h, um)
            return np.concatenate([dyn, m.c(xm, z)])

        def Jac(w: np.ndarray) -> Any:
            d, mu = w[:n], w[n:]
            xm = x + 0.5 * d
            z, Dzb = self.effort(x, d)
            um = self.signal(tm, xm)
            JR = m.matrix("J", xm) - m.matrix("R", xm)
            B = m.B(xm)
            A11 = m.E - (0.5 * h) * m.f_x(xm, z, mu / h, um) - h * (JR @ Dzb)
            if self.signal.feedback:
                GP = _dense(m.matrix("G", xm) - m.matrix("P", xm))
                A11 = A11 - (0.5 * h) * (GP @ self.signal.state_jacobian(tm, xm, um))
            A21 = 0.5 * m.c_x(xm, z) + B.T @ Dzb
            if m.sparse:
                return sps.csc_matrix(sps.bmat([[A11, -B], [A21, None]], format="csc"))
            A = np.zeros((n + m.k, n + m.k))
            A[:n, :n], A[:n, n:], A[n:, :n] = _dense(A11), -_dense(B), _dense(A21)
            return A

        return F, Jac

    def _guess(self, h: float, size: int) -> np.ndarray:
        return extrapolated_guess(self._hist, self._last, h, size)

    def _energy_change(self, x: np.ndarray, x_new: np.ndarray) -> float:
        """``H(x_new) − H(x)``, with ``H(x)`` reused from the previous step when it
        ended at ``x``."""
        last = self._H_last
        H0 = last[1] if last is not None and np.array_equal(last[0], x) else \
            self.model.energy(x)
        H1 = self.model.energy(x_new)
        self._H_last = (np.array(x_new, dtype=float), H1)
        return H1 - H0

    def step(self, t: float, x: np.ndarray, h: float
             ) -> tuple[np.ndarray, np.ndarray, StepInfo, float]:
        m, n = self.model, self.model.n
        F, Jac = self._equations(t, x, h)
        if self.affine:  # F affine in (δ, μ): one solve with the cached LU
            if h not in self._lu:
                self._lu[h] = Factorization(Jac(np.zeros(n + m.k)))
            res = newton(F, None, np.zeros(n + m.k), scale=1.0, factorization=self._lu[h],
                         affine=True)
        else:
            w0 = self._guess(h, n + m.k)
            scale = float(np.max(np.abs(x), initial=0.0))
            if self._newton is not None:
                res = self._newton.solve(F, Jac, w0, scale, h)
            else:
                res = newton(F, Jac, w0, scale=scale, tol=self.newton_tol,
                             max_iter=self.max_newton)
        w = res.w
        self._last = w / h
        self._hist = [*self._hist[-2:], (h, self._last)]
        d, mu = w[:n], w[n:]
        xm = x + 0.5 * d
        x_new = x + d
        z, _ = self.effort(x, d, jac=False)
        um = self.signal(t + 0.5 * h, xm)
        supplied, dissipated = m.port_powers(xm, z, um)
        # ΔH = z̄ᵀ E δ is an identity of the discrete gradient (exact for quadratic H,
        # Gonzalez's construction otherwise); computing it so avoids cancellation.
        dH = float(z @ (m.E @ d)) if m.linear else self._energy_change(x, x_new)
        info = StepInfo(h * supplied, h * dissipated, dH, res.iterations, res.nfev)
        residual = float(np.max(np.abs(m.c(xm, z)), initial=0.0))
        return x_new, mu / h, info, residual
