r"""Classical explicit Runge–Kutta method of order 4 (for comparison).

.. math::

    k_1 = f(t_k, x_k),\ k_2 = f(t_k + \tfrac h2, x_k + \tfrac h2 k_1),\
    k_3 = f(t_k + \tfrac h2, x_k + \tfrac h2 k_2),\ k_4 = f(t_k + h, x_k + h k_3),\quad
    x_{k+1} = x_k + \tfrac h6 (k_1 + 2k_2 + 2k_3 + k_4).

It preserves no energy structure: on a lossless system :math:`H` drifts by
:math:`O(h^4)` per unit time (Hairer, Lubich & Wanner, *Geometric Numerical
Integration*, 2nd ed., Springer 2006, ch. I).  Supplied and dissipated energy
over a step use the same weights on the stage values, so the reported power
residual shows that drift.
"""

from __future__ import annotations

import numpy as np

from ..method import StepInfo
from ..problem.dynamics import Dynamics
from .base import OneStepMethod

__all__ = ["RK4"]

_C = (0.0, 0.5, 0.5, 1.0)
_B = (1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0, 1.0 / 6.0)


class RK4(OneStepMethod):
    """Explicit fourth-order Runge–Kutta (no Newton, no structure preservation)."""

    name = "rk4"
    order = 4
    energy = "none"

    def __init__(self, dyn: Dynamics, **_: object) -> None:
        super().__init__(dyn)

    def step(self, t: float, x: np.ndarray, h: float) -> tuple[np.ndarray, StepInfo]:
        dyn = self.dyn
        supplied = dissipated = 0.0
        ks: list[np.ndarray] = []
        for i, (c, b) in enumerate(zip(_C, _B, strict=True)):
            xi = x if i == 0 else x + (h if i == 3 else 0.5 * h) * ks[-1]
            ui = dyn.u(t + c * h, xi)
            ks.append(dyn.f(xi, ui))
            p_in, p_d = dyn.port_powers(xi, dyn.num.gradient(xi), ui)
            supplied += h * b * p_in
            dissipated += h * b * p_d
        x_new = x + h * sum(b * k for b, k in zip(_B, ks, strict=True))
        return x_new, StepInfo(supplied, dissipated, dyn.delta_H(x, x_new), 0, 4)
