"""Structure-preserving simulation of port-Hamiltonian systems.

``simulate(system, t_span, x0, u=..., method=...)`` returns a :class:`SimulationResult`.
Methods (one module each): implicit midpoint (:mod:`.midpoint`), Gonzalez discrete
gradient and AVF (:mod:`.discrete_gradient`), Gauss–Legendre collocation
(:mod:`.gauss`), RK4 (:mod:`.explicit`) and :func:`scipy.integrate.solve_ivp`
(:mod:`.scipy_ivp`).  See ``docs/simulation.md``.
"""

from __future__ import annotations

from .affine import AffineMatrix
from .closed_loop import simulate_feedback
from .dae_result import DAEResult
from .functional import FunctionPHS
from .ida import IDASolution, solve_ida
from .modulation import PWM, PiecewiseConstant, pwm
from .result import SimulationResult
from .run import METHODS, simulate
from .scipy_ivp import SCIPY_METHODS
from .tabulated import Tabulated

__all__ = ["simulate", "SimulationResult", "METHODS", "SCIPY_METHODS", "PiecewiseConstant",
           "PWM", "pwm", "Tabulated", "simulate_feedback", "FunctionPHS", "DAEResult",
           "solve_ida", "IDASolution", "AffineMatrix"]
