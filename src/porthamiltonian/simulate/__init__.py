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

from .. import lazy as _lazy
from ._moved import install as _install_moved

#: public name -> the submodule defining it, imported on first use (``validate`` sets a
#: run up with the options and the problem and must not load every method and kernel)
_WHERE = {
    "simulate": "run", "SimulationResult": "output.result", "DAEResult": "output.dae_result",
    "SimulationOptions": "options", "METHODS": "registry", "SCIPY_METHODS": "ode.scipy_ivp",
    "register_method": "registry", "Method": "method", "OneStepMethod": "ode.base",
    "StepInfo": "method", "PiecewiseConstant": "problem.modulation", "PWM": "problem.modulation",
    "pwm": "problem.modulation", "Tabulated": "problem.tabulated",
    "simulate_feedback": "closed_loop", "FunctionPHS": ".functional",
    "SeparablePHS": ".functional", "solve_ida": "linalg.sundials",
    "IDASolution": "linalg.sundials", "AffineMatrix": ".compiled.affine",
    "write_result": "output.export",
}
__getattr__, __dir__ = _lazy.exports(__name__, _WHERE, globals())


class _CallablePackage(_types.ModuleType):
    """The package is also the function: ``porthamiltonian.simulate(system, …)`` runs
    :func:`.run.simulate`, and ``porthamiltonian.simulate.SimulationOptions`` is still
    the package's name (one object, so neither shadows the other)."""

    def __call__(self, *args: _Any, **kwargs: _Any) -> _Any:
        from .run import simulate

        return simulate(*args, **kwargs)

    @property
    def __signature__(self) -> _Any:  # help() and IDEs show simulate()'s parameters
        import inspect

        from .run import simulate

        return inspect.signature(simulate)


_sys.modules[__name__].__class__ = _CallablePackage
_install_moved()  # the flat module paths of the last release still import, with a warning

__all__ = ["simulate", "SimulationResult", "DAEResult", "SimulationOptions", "METHODS",
           "SCIPY_METHODS", "register_method", "Method", "OneStepMethod", "StepInfo",
           "PiecewiseConstant", "PWM", "pwm", "Tabulated", "simulate_feedback", "FunctionPHS",
           "SeparablePHS",
           "solve_ida", "IDASolution", "AffineMatrix", "write_result"]
