r"""Discrete-gradient methods: Gonzalez's midpoint discrete gradient and the
average vector field (AVF) method.

Both replace :math:`\nabla H(\bar x)` in the implicit midpoint rule by a discrete
gradient :math:`\bar\nabla H(x_k, x_{k+1})`, a vector with
:math:`H(x_{k+1}) - H(x_k) = \bar\nabla H^\top (x_{k+1} - x_k)` for *any* :math:`H`:

.. math::

    x_{k+1} = x_k + h\big[(J-R)(\bar x)\,\bar\nabla H + (G-P)(\bar x)\,u_{k+1/2}\big],
    \qquad \bar y = (G+P)^\top(\bar x)\,\bar\nabla H + (M+S)u_{k+1/2}.

Hence the discrete power balance
:math:`H(x_{k+1}) - H(x_k) = h\,(u_{k+1/2}^\top\bar y - \bar d)` with
:math:`\bar d = \bar\nabla H^\top R\,\bar\nabla H + 2\bar\nabla H^\top P u + u^\top S u \ge 0`
is exact up to the Newton tolerance, and energy is conserved for lossless,
unforced systems.  Both are second order and symmetric.

- Gonzalez (*Time integration and discrete Hamiltonian systems*, J. Nonlinear Sci. 6,
  1996): :math:`\bar\nabla H = \nabla H(\bar x) + \frac{H(x_{k+1}) - H(x_k) -
  \nabla H(\bar x)^\top\delta}{\delta^\top\delta}\,\delta`, :math:`\delta = x_{k+1}-x_k`.
  The numerator is evaluated as :math:`\int_0^1 (\nabla H(x_k + s\delta) -
  \nabla H(\bar x))^\top\delta\,ds` by the same Gauss–Legendre rule as the AVF
  integral below (exact for polynomial :math:`H`): the direct difference
  :math:`H(x_{k+1}) - H(x_k)` of two nearly equal energies loses
  :math:`\epsilon H/\|\delta\|` of accuracy in :math:`\bar\nabla H` for small steps,
  which the quadrature of gradient differences does not.
- AVF (Quispel & McLaren, *A new class of energy-preserving numerical integration
  methods*, J. Phys. A 41, 2008; Celledoni et al., *Energy-preserving methods on
  Riemannian manifolds*, 2017): :math:`\bar\nabla H = \int_0^1 \nabla H(x_k + s\delta)\,ds`,
  computed by Gauss–Legendre quadrature with :math:`\lceil p/2\rceil` nodes for a
  polynomial :math:`H` of degree :math:`p` (exact) and 6 nodes otherwise (error
  :math:`O(\|\delta\|^{12})`, below round-off for the steps one uses).

The input is evaluated at the midpoint time :math:`t_k + h/2` (and at :math:`\bar x`
for feedback).  For quadratic :math:`H` both coincide with the implicit midpoint rule,
which is then used (one LU reused for LTI systems).  Newton uses the exact Jacobian
of the step equation (Hessians compiled once from the symbolic :math:`H`); for
state-dependent structure matrices their derivative is taken with
:math:`\nabla H(\bar x)` in place of :math:`\bar\nabla H` (an :math:`O(h^2)`
approximation that only slows Newton slightly).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sps

from ..dae.midpoint import DAEMidpoint
from ..linalg.newton import SimplifiedNewton
from ..method import StepInfo
from ..problem.dynamics import Dynamics
from .base import OneStepMethod
from .midpoint import Midpoint, identity_minus

__all__ = ["DiscreteGradient", "AVF"]


class _DiscreteGradientMethod(OneStepMethod):
    """Common Newton step of the discrete-gradient methods; subclasses give ``dgrad``."""

    order = 2
    energy = "any"

    def __init__(self, dyn: Dynamics, *, nodes: int = 6, newton_tol: float = 1e-12,
                 max_newton: int = 20) -> None:
        super().__init__(dyn, newton_tol=newton_tol, max_newton=max_newton)
        # Gauss–Legendre rule on [0, 1] for the integrals of ∇H along the step
        s, w = np.polynomial.legendre.leggauss(max(1, int(nodes)))
        self._s, self._w = 0.5 * (s + 1.0), 0.5 * w
        self.newton_tol, self.max_newton = newton_tol, max_newton
        self._midpoint = Midpoint(dyn, newton_tol=newton_tol, max_newton=max_newton)
        self._newton = SimplifiedNewton(newton_tol, max_newton)
        self._last: tuple[float, np.ndarray, float, np.ndarray] | None = None
        self._prev_d: np.ndarray | None = None

    @classmethod
    def create(cls, problem: Any, options: Any) -> OneStepMethod:
        """The step with as many quadrature nodes as make the integrals of ∇H exact for
        a polynomial H of the model's degree (6 otherwise)."""
        return cls(problem.dynamics, nodes=avf_nodes(hamiltonian_degree(problem.system)),
                   newton_tol=options.newton_tol, max_newton=options.max_newton)

    def lti_block(self) -> Callable[..., Any] | None:
        """For quadratic H the discrete gradient is the midpoint effort: the midpoint
        rule's LTI block stepper."""
        return self._midpoint.lti_block()

    def dgrad(self, x: np.ndarray, d: np.ndarray,
              derivative: bool = True) -> tuple[np.ndarray, Any]:
        """Discrete gradient at ``(x, x + d)`` and (if asked) its derivative with respect
        to ``d`` — sparse when the Hessian is (then possibly without the small dense
        terms, which only slows Newton down)."""
        raise NotImplementedError

    def _predict(self, x: np.ndarray, t: float, h: float) -> np.ndarray:
        """Initial Newton guess: ``h f(x̃)`` at the explicit midpoint
        ``x̃ = x + (h/2) f(x)`` (error O(h³)), or, continuing the previous step of the
        same size, the previous increment plus its change (also O(h³))."""
        dyn = self.dyn
        last = self._last
        if last is not None and last[0] == t and last[2] == h and np.array_equal(last[1], x):
            prev = self._prev_d
            d = last[3]
            self._prev_d = d
            if prev is not None:
                return 2.0 * d - prev
            return d.copy()
        self._prev_d = None
        f0 = dyn.f(x, dyn.u(t, x))
        xm = x + 0.5 * h * f0
        return h * dyn.f(xm, dyn.u(t + 0.5 * h, xm))

    def _sparse_jacobian(self, tm: float, xm: np.ndarray, um: np.ndarray, Dz: Any,
                         h: float) -> Any:
        r"""The step matrix :math:`I - h\,[(J-R)D_z + \tfrac12 S]` kept sparse (else
        ``None``), with :math:`S = \partial_x f - (J-R)\nabla^2H` the derivative of a
        state-dependent structure (zero for constant J, R, G, P)."""
        dyn, num = self.dyn, self.dyn.num
        if not sps.issparse(Dz) or dyn.signal.feedback:
            return None
        JR = num.matrix("J", xm) - num.matrix("R", xm)
        if not sps.issparse(JR):
            return None
        step = JR @ Dz
        if any(k not in num.constant_matrices for k in ("J", "R", "G", "P")):
            jac, hess = dyn.jac(tm, xm, um), num.hessian(xm)
            if not (sps.issparse(jac) and sps.issparse(hess)):
                return None
            step = step + 0.5 * (jac - JR @ hess)
        return identity_minus(h, step)

    def step(self, t: float, x: np.ndarray, h: float) -> tuple[np.ndarray, StepInfo]:
        dyn = self.dyn
        if dyn.num.linear:
            return self._midpoint.step(t, x, h)
        num, tm, n = dyn.num, t + 0.5 * h, dyn.n
        u_at = dyn.input_at(tm, x)

        def F(d: np.ndarray) -> np.ndarray:
            xm = x + 0.5 * d
            z, _ = self.dgrad(x, d, derivative=False)
            return d - h * dyn.f_effort(xm, z, u_at(xm))

        def Jac(d: np.ndarray) -> Any:
            xm = x + 0.5 * d
            um = u_at(xm)
            _, Dz = self.dgrad(x, d)
            sparse = self._sparse_jacobian(tm, xm, um, Dz, h)
            if sparse is not None:
                return sparse
            JR = _dense(num.matrix("J", xm) - num.matrix("R", xm))
            structural = _dense(dyn.jac(tm, xm, um)) - JR @ _dense(num.hessian(xm))
            return np.eye(n) - h * (0.5 * structural + JR @ _dense(Dz))

        w0 = self._predict(x, t, h)
        res = self._newton.solve(F, Jac, w0, float(np.max(np.abs(x), initial=0.0)),
                                 (h, dyn.key))
        d = res.w
        self._last = (t + h, x + d, h, d)
        xm = x + 0.5 * d
        z, _ = self.dgrad(x, d, derivative=False)
        supplied, dissipated = dyn.port_powers(xm, z, u_at(xm))
        x_new = x + d
        info = StepInfo(h * supplied, h * dissipated, dyn.delta_H(x, x_new),
                        res.iterations, res.nfev)
        return x_new, info


class DiscreteGradient(_DiscreteGradientMethod):
    """Gonzalez's midpoint discrete gradient (order 2, exact energy balance for any H)."""

    name = "discrete_gradient"
    kernel = "gonzalez"
    problems = frozenset({"ode", "dae"})
    dae_step = staticmethod(lambda model, signal, options: DAEMidpoint.create(
        model, signal, options, discrete_gradient=True))

    def dgrad(self, x: np.ndarray, d: np.ndarray,
              derivative: bool = True) -> tuple[np.ndarray, Any]:
        num = self.dyn.num
        xm = x + 0.5 * d
        g = num.gradient(xm)
        nn = float(d @ d)
        Hm = num.hessian(xm) if derivative else None
        if nn == 0.0:
            return g, (0.5 * Hm if derivative else None)
        x1 = x + d
        # e = H(x1) − H(x) − ∇H(x̄)ᵀd as a quadrature of gradient differences (no cancellation)
        e = float(sum(w * ((num.gradient(x + s * d) - g) @ d)
                      for s, w in zip(self._s, self._w, strict=True)))
        z = g + (e / nn) * d
        if not derivative:
            return z, None
        if sps.issparse(Hm):  # keep the Newton matrix sparse: drop the O(|d|) rank-2 terms
            return z, 0.5 * Hm
        Hm = np.asarray(Hm)
        de = num.gradient(x1) - g - 0.5 * (Hm @ d)
        Dz = 0.5 * Hm + (np.outer(d, de) + e * np.eye(d.size) - 2.0 * e * np.outer(d, d) / nn) / nn
        return z, Dz


class AVF(_DiscreteGradientMethod):
    """Average vector field method (order 2, exact energy balance for any H)."""

    name = "avf"
    kernel = "avf"

    def dgrad(self, x: np.ndarray, d: np.ndarray,
              derivative: bool = True) -> tuple[np.ndarray, Any]:
        num = self.dyn.num
        z = np.zeros_like(x)
        Dz: Any = None
        for s, w in zip(self._s, self._w, strict=True):
            xs = x + s * d
            z += w * num.gradient(xs)
            if derivative:
                Hs = num.hessian(xs)
                Hs = Hs if sps.issparse(Hs) else np.asarray(Hs)
                Dz = (w * s) * Hs if Dz is None else Dz + (w * s) * Hs
        return z, Dz


def _dense(A: Any) -> np.ndarray:
    return A.toarray() if sps.issparse(A) else np.asarray(A, dtype=float)


def avf_nodes(degree: int | None) -> int:
    """Gauss–Legendre nodes making the AVF integral exact for a polynomial H of ``degree``."""
    if degree is None:
        return 6
    return max(1, math.ceil(degree / 2))


def hamiltonian_degree(system: Any) -> int | None:
    """Total degree of a symbolic polynomial H (``None`` if H is not a polynomial); a
    numeric model reports its own ``degree`` (2 for quadratic H)."""
    if not getattr(system, "symbolic", False):
        return getattr(system, "degree", 2)
    import sympy as sp

    try:
        return int(sp.Poly(system.hamiltonian, *system.state_symbols).total_degree())
    except (sp.PolynomialError, sp.GeneratorsNeeded, ValueError):
        return None
