r"""``simulate(system, t_span, x0, ...)``: checks the arguments, builds the dynamics
(compiled system, input signal, modulation) and hands over to the stepping loop
(:mod:`.driver`) or to ``solve_ivp`` (:mod:`.scipy_ivp`).

Failures (Newton below the minimum step, NaN/Inf) raise
:class:`~porthamiltonian.errors.SimulationError` with the time reached and the
results up to it (``.partial``).
"""

from __future__ import annotations

import math
import pathlib
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError
from .base import Dynamics, Method
from .discrete_gradient import AVF, DiscreteGradient, avf_nodes
from .driver import Stepping, integrate
from .events import EventSet
from .explicit import RK4
from .gauss import STAGES as GAUSS_STAGES
from .gauss import Gauss
from .inputs import InputSignal, make_signal, output_feedback
from .midpoint import Midpoint
from .modulation import Modulation
from .recorder import Recorder
from .scipy_ivp import SCIPY_METHODS, run_scipy

__all__ = ["simulate", "METHODS", "is_dae"]

#: Methods implemented here (fixed step); the SciPy names go to ``solve_ivp``.
METHODS = ("midpoint", "discrete_gradient", "avf",
           *(f"gauss{s}" for s in GAUSS_STAGES), "rk4")


def simulate(
    system: Any,
    t_span: Sequence[float],
    x0: Any = None,
    u: Any = None,
    method: str = "midpoint",
    dt: float | None = None,
    rtol: float = 1e-6,
    atol: float = 1e-9,
    t_eval: Sequence[float] | None = None,
    save_every: int = 1,
    newton_tol: float | None = None,
    max_newton: int = 20,
    *,
    modulation: Mapping[str, Any] | None = None,
    events: Any = None,
    max_step: float = math.inf,
    first_step: float | None = None,
    progress: Callable[[float], None] | None = None,
    stream: str | pathlib.Path | None = None,
) -> Any:
    r"""Simulate a port-Hamiltonian system :math:`\dot x = (J-R)\nabla H + (G-P)u`.

    Parameters
    ----------
    system:
        A :class:`~porthamiltonian.PHS` (all parameters numeric).  A
        :class:`~porthamiltonian.DescriptorPHS` is simulated as a DAE (:mod:`.dae_run`,
        ``docs/simulation-dae.md``); a :class:`.FunctionPHS` gives H by NumPy functions.
    t_span:
        ``(t0, t1)`` in s, ``t1 > t0``.
    x0:
        Initial state: array of length n, or dict ``{state name: value}`` (missing → 0).
    u:
        Input: ``None`` (zero), a number/array (constant), a callable ``u(t)``,
        ``u(t, x)`` (state feedback) or ``u(t, x, y)`` (output feedback), an expression
        of ``t`` (one input), a :class:`.Tabulated` signal or the name of a CSV file, a
        :class:`.PiecewiseConstant`/:func:`.pwm` signal, or a dict ``{input name: any of
        these}`` (see :mod:`.inputs`).
    method:
        ``"midpoint"`` (default), ``"discrete_gradient"`` (Gonzalez), ``"avf"``,
        ``"gauss1"``–``"gauss6"``, ``"rk4"``, or a :func:`scipy.integrate.solve_ivp`
        method (``"RK45"``, ``"DOP853"``, ``"Radau"``, ``"BDF"``, ``"LSODA"``).
    dt:
        Fixed step (s), shortened so that steps land on ``t1``, ``t_eval`` and switching
        instants.  ``None`` (default): adaptive steps by step doubling with ``rtol``,
        ``atol`` (see :mod:`.driver`).  For SciPy methods: the output grid (default
        ``(t1 − t0)/1000``).
    rtol, atol:
        Relative and absolute local error tolerances of adaptive steps (and of SciPy).
    t_eval:
        Times (s) at which to save, in ``[t0, t1]``; default every step.
    save_every:
        Save every ``save_every``-th step (and the last); the power residual of a
        saved interval is the sum over its steps.
    newton_tol, max_newton:
        Relative Newton tolerance on the update (default 1e-12) and iteration limit.
    modulation:
        ``{parameter name: signal}``: free parameters of a symbolic system driven by
        piecewise-constant signals (:class:`.PiecewiseConstant`, :func:`.pwm`, or a
        number); steps land on their switching instants (see :mod:`.modulation`).
    events:
        A function ``g(t, x)`` or a list of them, with optional ``terminal`` and
        ``direction`` attributes as in ``solve_ivp``; their zero crossings are in
        ``result.t_events`` / ``result.x_events`` (see :mod:`.events`).
    max_step, first_step:
        Largest and first step (s) of adaptive runs.
    progress:
        Called as ``progress(t)`` after every step (the CLI's progress bar).
    stream:
        A CSV file that receives every saved point as it is computed (memory stays
        bounded); the returned result then keeps only the first and last points, with
        the energies of the whole run in the last interval (see :class:`.Recorder`).

    Returns
    -------
    SimulationResult

    Raises
    ------
    ModelError
        Bad arguments (unknown method, state, input or modulation names, bad signals).
    SimulationError
        Newton failure below the minimum step, or NaN/Inf; ``.partial`` holds the
        results up to ``.t_reached``.
    """
    if is_dae(system):  # a DAE: see .dae_run
        from .dae_run import simulate_descriptor

        return simulate_descriptor(system, t_span, x0, u, method, dt, rtol, atol, t_eval,
                                   save_every, newton_tol, max_newton, modulation=modulation,
                                   events=events, progress=progress, stream=stream)
    t0, t1 = check_span(t_span, dt, save_every, t_eval)
    if dt is None and not (0 < rtol < 1 and atol > 0):
        raise ModelError(f"adaptive steps need 0 < rtol < 1 and atol > 0, got rtol={rtol!r}, "
                         f"atol={atol!r}")
    for name, value in (("max_step", max_step), ("first_step", first_step)):
        if value is not None and not value > 0:
            raise ModelError(f"{name} must be a positive number of seconds, got {value!r}")
    mod = None
    if modulation is not None:
        mod = Modulation(system, modulation)
        mod.check_start(t0)
    dyn = Dynamics(mod.compiled.bind(mod.value(t0)) if mod else system.compile(),
                   InputSignal(system.n_inputs), mod)
    dyn.signal = make_signal(u, list(system.inputs), output=output_feedback(dyn, system))
    dyn.affine = bool(dyn.num.linear and not dyn.signal.feedback)
    x_init = initial_state(x0, list(system.states))
    ev = EventSet.build(events)
    rec = Recorder(dyn, list(system.states), list(system.inputs), list(system.outputs), method,
                   stream=stream)
    breakpoints = np.concatenate([dyn.signal.breakpoints(t0, t1),
                                  mod.breakpoints(t0, t1) if mod else np.zeros(0)])
    if method in SCIPY_METHODS:
        h_out = float(dt) if dt is not None else (t1 - t0) / 1000.0
        return run_scipy(dyn, rec, method, (t0, t1), x_init, h_out, t_eval, save_every,
                          rtol, atol, breakpoints, ev)
    stepper = make_method(method, dyn, system,
                          newton_tol=1e-12 if newton_tol is None else float(newton_tol),
                          max_newton=int(max_newton))
    opts = Stepping(None if dt is None else float(dt), float(rtol), float(atol),
                    float(max_step), first_step, int(save_every))
    return integrate(stepper, dyn, rec, (t0, t1), x_init, opts, t_eval=t_eval,
                     breakpoints=breakpoints, events=ev, progress=progress)


def check_span(t_span: Sequence[float], dt: float | None, save_every: int,
               t_eval: Sequence[float] | None) -> tuple[float, float]:
    """``(t0, t1)`` after the checks every driver (ODE and DAE) shares: a finite span with
    ``t1 > t0``, a positive finite ``dt`` (or ``None``), ``save_every ≥ 1``, and ``t_eval``
    increasing within the span."""
    t0, t1 = (float(v) for v in t_span)
    if not (math.isfinite(t0) and math.isfinite(t1) and t1 > t0):
        raise ModelError(f"t_span must be (t0, t1) with t1 > t0, got ({t0:g}, {t1:g})")
    if dt is not None and not (dt > 0 and math.isfinite(dt)):
        raise ModelError(f"dt must be a positive number of seconds, got {dt!r}")
    if int(save_every) < 1:
        raise ModelError(f"save_every must be a positive integer, got {save_every!r}")
    if t_eval is not None:
        te = np.asarray(t_eval, dtype=float)
        if te.size == 0 or np.any(np.diff(te) <= 0) or te[0] < t0 or te[-1] > t1:
            raise ModelError("t_eval must be increasing times within t_span")
    return t0, t1


def initial_state(x0: Any, states: list[str]) -> np.ndarray:
    """The initial state vector from an array or a dict by state name (missing → 0)."""
    return named_vector(x0, states, "state", "x0")


def named_vector(values: Any, names: list[str], what: str, arg: str) -> np.ndarray:
    """A vector over ``names`` from ``None`` (zeros), a dict by name (missing → 0) or an
    array of matching length; ``what`` (``"state"``, ``"input"``) and ``arg`` (the
    argument's name) word the errors."""
    n = len(names)
    if values is None:
        return np.zeros(n)
    if isinstance(values, Mapping):
        unknown = [k for k in values if k not in names]
        if unknown:
            raise ModelError(f"unknown {what}(s) {', '.join(map(str, unknown))} in {arg}; "
                             f"the system's {what}s are: {', '.join(names) or 'none'}")
        return np.array([float(values.get(s, 0.0)) for s in names])
    x = np.asarray(values, dtype=float).ravel()
    if x.size != n:
        raise ModelError(f"{arg} has {x.size} values but the system has {n} {what}s "
                         f"({', '.join(names[:10])}{', ...' if n > 10 else ''})")
    if not np.all(np.isfinite(x)):
        raise ModelError(f"{arg} contains NaN or Inf")
    return x.copy()


def is_dae(system: Any) -> bool:
    """``system`` is simulated as a DAE: a :class:`~porthamiltonian.DescriptorPHS` or an
    already compiled descriptor model with multipliers (e.g. a mechanism's numeric
    :class:`~porthamiltonian.mechanics.MechanismDAE`)."""
    from ..descriptor import DescriptorPHS

    return isinstance(system, DescriptorPHS) or (
        hasattr(system, "multipliers") and hasattr(system, "algebraic")
        and callable(getattr(system, "compile", None)))


def make_method(name: str, dyn: Dynamics, system: Any, **kw: Any) -> Method:
    """The one-step method called ``name`` for ``dyn``."""
    if name == "midpoint":
        return Midpoint(dyn, **kw)
    if name == "discrete_gradient":
        return DiscreteGradient(dyn, nodes=avf_nodes(_hamiltonian_degree(system)), **kw)
    if name == "avf":
        return AVF(dyn, nodes=avf_nodes(_hamiltonian_degree(system)), **kw)
    if name.startswith("gauss") and name in METHODS:
        return Gauss(dyn, int(name[5:]), **kw)
    if name == "rk4":
        return RK4(dyn)
    raise ModelError(f"unknown simulation method {name!r}; choose one of "
                     f"{', '.join(METHODS + SCIPY_METHODS)}")


def _hamiltonian_degree(system: Any) -> int | None:
    if not getattr(system, "symbolic", False):
        return getattr(system, "degree", 2)
    try:
        return int(sp.Poly(system.hamiltonian, *system.state_symbols).total_degree())
    except (sp.PolynomialError, sp.GeneratorsNeeded, ValueError):
        return None
