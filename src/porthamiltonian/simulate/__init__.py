"""Structure-preserving simulation of port-Hamiltonian systems.

``simulate(system, t_span, x0, u=..., method=...)`` returns a :class:`SimulationResult`
(a :class:`DAEResult` for a descriptor system).  The package is arranged by job:

- :mod:`.run` — :func:`simulate`, the one entry point; :mod:`.options` — the one set of
  options (:class:`SimulationOptions`); :mod:`.registry` — ``METHODS = {name: class}``;
  :mod:`.method` — the method contract (:class:`Method`, :class:`StepInfo`);
- :mod:`.problem` — what is simulated: the problem (:mod:`.problem.problem`), the
  dynamics of an ODE, inputs and tabulated signals, modulation, events;
- :mod:`.ode` — one-step methods for explicit systems (midpoint, discrete gradients,
  Gauss–Legendre, RK4), their stepping loop and LTI block loop, and SciPy's ``solve_ivp``;
- :mod:`.dae` — descriptor systems: consistent initialization, the structure-preserving
  midpoint / discrete-gradient step, its loop, and SUNDIALS IDA;
- :mod:`.linalg` — Newton's method and LU factorizations, the SUNDIALS wrapper;
- :mod:`.output` — recorder, results, failures, plots and the progress bar.

See ``docs/simulation.md`` and ``docs/simulation-dae.md``.
"""

from __future__ import annotations

import sys as _sys
import types as _types
from typing import Any as _Any

from ..compiled.affine import AffineMatrix
from ..functional import FunctionPHS, SeparablePHS
from ._moved import install as _install_moved
from .closed_loop import simulate_feedback
from .linalg.sundials import IDASolution, solve_ida
from .method import Method, StepInfo
from .ode.base import OneStepMethod
from .ode.scipy_ivp import SCIPY_METHODS
from .options import SimulationOptions
from .output.dae_result import DAEResult
from .output.export import write_result
from .output.result import SimulationResult
from .problem.modulation import PWM, PiecewiseConstant, pwm
from .problem.tabulated import Tabulated
from .registry import METHODS, register_method
from .run import simulate


class _CallablePackage(_types.ModuleType):
    """The package is also the function: ``porthamiltonian.simulate(system, …)`` runs
    :func:`.run.simulate`, and ``porthamiltonian.simulate.SimulationOptions`` is still
    the package's name (one object, so neither shadows the other)."""

    def __call__(self, *args: _Any, **kwargs: _Any) -> _Any:
        return simulate(*args, **kwargs)

    @property
    def __signature__(self) -> _Any:  # help() and IDEs show simulate()'s parameters
        import inspect

        return inspect.signature(simulate)


_sys.modules[__name__].__class__ = _CallablePackage
_install_moved()  # the flat module paths of the last release still import, with a warning

__all__ = ["simulate", "SimulationResult", "DAEResult", "SimulationOptions", "METHODS",
           "SCIPY_METHODS", "register_method", "Method", "OneStepMethod", "StepInfo",
           "PiecewiseConstant", "PWM", "pwm", "Tabulated", "simulate_feedback", "FunctionPHS",
           "SeparablePHS",
           "solve_ida", "IDASolution", "AffineMatrix", "write_result"]
