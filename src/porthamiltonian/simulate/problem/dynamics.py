r"""The dynamics of an ODE problem: a compiled PHS together with its input signal (and
the piecewise-constant modulation in force), as every one-step method evaluates it.

For a PHS :math:`\dot x = (J-R)(x)\,z + (G-P)(x)\,u` with effort :math:`z = \nabla H(x)`,
:meth:`Dynamics.port_powers` gives the supplied power :math:`u^\top y` with
:math:`y = (G+P)^\top z + (M+S)u` and the dissipated power
:math:`d = z^\top R z + 2 z^\top P u + u^\top S u` (W) for *any* effort ``z`` — the
discrete-gradient methods pass the discrete gradient :math:`\bar\nabla H` there, which
makes their discrete power balance exact (Gonzalez 1996; Celledoni et al. 2017).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sps

from ...compiled import NumericPHS
from .inputs import InputSignal

__all__ = ["Dynamics"]


class Dynamics:
    """A compiled PHS together with its input signal."""

    def __init__(self, num: NumericPHS, signal: InputSignal, modulation: Any = None) -> None:
        self.num = num
        self.signal = signal
        self.n, self.m = num.n, num.m
        #: piecewise-constant modulation (:class:`.modulation.Modulation`) or ``None``
        self.modulation = modulation
        #: identifies the structure in force (the modulation value); part of LU cache keys
        self.key: tuple[float, ...] | None = None
        #: (numeric system, its constant (J − R, G − P) or None) for f_effort
        self._constant: tuple[NumericPHS, Any] | None = None
        #: the step equations are affine in the unknowns (one LU, reused)
        self.affine = bool(self.num.linear and not signal.feedback)
        self.sparse = bool(self.num.linear and sps.issparse(self.num.A))
        #: ``points(X, U) -> (Y, H, stored, supplied, dissipated)`` of saved points in one
        #: call, set by a compiled stepper (:mod:`..kernels.stepper`); ``None``: the
        #: recorder evaluates the numeric model (:mod:`..output.points`)
        self.points: Any = None

    def set_time(self, t: float) -> None:
        """Put in force the structure of the modulation at time ``t`` (s); steps call it
        with their midpoint time, so a step never mixes two switch positions."""
        if self.modulation is not None:
            self.key, self.num = self.modulation.numeric(t)

    def u(self, t: float, x: np.ndarray) -> np.ndarray:
        """Input at time ``t`` (s) and state ``x``."""
        return self.signal(t, x)

    def input_at(self, t: float, x: np.ndarray) -> Callable[[np.ndarray], np.ndarray]:
        """``u(t, ·)`` for the Newton iterations of one step: an input that does not feed
        back the state is one value at ``t``, evaluated once here, not per iteration."""
        if self.signal.feedback:
            return lambda xm: self.signal(t, xm)
        u = self.signal(t, x)
        return lambda xm: u

    def f(self, x: np.ndarray, u: np.ndarray) -> np.ndarray:
        r""":math:`\dot x = (J-R)\nabla H + (G-P)u`."""
        return self.num.rhs(x, u)

    def f_effort(self, x: np.ndarray, z: np.ndarray, u: np.ndarray) -> np.ndarray:
        r""":math:`(J-R)(x)\,z + (G-P)(x)\,u` for a given effort ``z``."""
        num = self.num
        if self._constant is None or self._constant[0] is not num:
            c = num.constant_matrices
            const = all(k in c for k in ("J", "R", "G", "P"))
            self._constant = (num, (c["J"] - c["R"], c["G"] - c["P"]) if const else None)
        if self._constant[1] is not None:
            JR, GP = self._constant[1]
        else:
            JR = num.matrix("J", x) - num.matrix("R", x)
            GP = num.matrix("G", x) - num.matrix("P", x)
        return JR @ z + GP @ u

    def jac(self, t: float, x: np.ndarray, u: np.ndarray) -> Any:
        r""":math:`d\dot x/dx`, including :math:`(G-P)\,\partial u/\partial x` for feedback."""
        Jf = self.num.jacobian(x, u)
        if self.signal.feedback:
            GP = self.num.matrix("G", x) - self.num.matrix("P", x)
            Du = self.signal.state_jacobian(t, x, u)
            Jf = (Jf.toarray() if sps.issparse(Jf) else np.asarray(Jf)) + GP @ Du
        return Jf

    def port_powers(self, x: np.ndarray, z: np.ndarray, u: np.ndarray) -> tuple[float, float]:
        """``(uᵀy, d)`` in W at state ``x`` (for the matrices) with effort ``z``."""
        num = self.num
        own = getattr(num, "port_powers", None)
        if own is not None:  # a model's own (fused) evaluation: no matrices formed
            return own(x, z, u)  # type: ignore[no-any-return]
        R, P = num.matrix("R", x), num.matrix("P", x)
        if self.m:
            G = num.matrix("G", x)
            MS = num.matrix("M", x) + num.matrix("S", x)
            y = (G + P).T @ z + MS @ u
            Pu = P @ u
            supplied = float(u @ y)
            dissipated = float(z @ (R @ z) + 2.0 * z @ Pu + u @ (num.matrix("S", x) @ u))
        else:
            supplied, dissipated = 0.0, float(z @ (R @ z))
        return supplied, dissipated

    def delta_H(self, x: np.ndarray, x_new: np.ndarray) -> float:
        """``H(x_new) − H(x)`` in J (cancellation-free for quadratic H)."""
        if self.num.linear:
            return float(0.5 * (x + x_new) @ (self.num.Q @ (x_new - x)))
        return self.num.energy(x_new) - self.num.energy(x)
