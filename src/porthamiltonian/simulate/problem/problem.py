r"""A simulation problem: the compiled system, its input, initial state and time span.

:func:`build_problem` turns what a user hands to :func:`porthamiltonian.simulate` into a
:class:`Problem` that every method solves the same way.  The problem's kind comes from the
model's own ``problem_kind`` — ``"ode"`` for an explicit PHS
(:math:`\dot x = (J-R)\nabla H + (G-P)u`), ``"dae"`` for a descriptor PHS
(:math:`E\dot x = (J-R)z + B\lambda + (G-P)u`, :math:`0 = B^\top z`) — and the compiled
form is checked against its contract (:mod:`porthamiltonian.compiled.protocol`); nothing
here knows which front-end built the model.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...compiled.protocol import check_compiled
from ...errors import ModelError
from ..options import SimulationOptions
from .dynamics import Dynamics
from .events import EventSet
from .inputs import InputSignal, make_signal, output_feedback
from .modulation import Modulation

__all__ = ["Problem", "build_problem", "named_vector", "initial_state", "PROBLEM_KINDS"]

#: the problem kinds and what a model of each is
PROBLEM_KINDS = {"ode": "an explicit PHS (an ODE)", "dae": "a descriptor PHS (a DAE)"}
#: options only explicit systems support
_EXPLICIT_ONLY = ("modulation", "events", "stream")


@dataclass
class Problem:
    """What a method needs to run.

    Attributes
    ----------
    kind:
        ``"ode"`` or ``"dae"``.
    system:
        The model as given (for names and hints such as the degree of a polynomial H).
    compiled:
        Its compiled form (:class:`~porthamiltonian.compiled.protocol.CompiledODE` or
        :class:`~porthamiltonian.compiled.protocol.CompiledDAE`); for a modulated system
        the structure at ``t0``.
    t_span:
        ``(t0, t1)`` in s.
    x0:
        Initial state (the differential part, for a DAE; algebraic states and
        multipliers are made consistent by the DAE methods).
    signal:
        The input :math:`u(t, x)`.
    states, inputs, outputs:
        Names.
    dynamics:
        ODE only: the compiled system with its signal and modulation.
    events:
        ODE only: the state events, or ``None``.
    breakpoints:
        Times (s) where the input or the structure switches; steps land on them.
    """

    kind: str
    system: Any
    compiled: Any
    t_span: tuple[float, float]
    x0: np.ndarray
    signal: InputSignal
    states: list[str]
    inputs: list[str]
    outputs: list[str]
    dynamics: Dynamics | None = None
    events: EventSet | None = None
    breakpoints: np.ndarray = field(default_factory=lambda: np.zeros(0))


def problem_kind(system: Any) -> str:
    """``"ode"`` or ``"dae"``, as the model declares; a :class:`ModelError` otherwise."""
    kind = getattr(system, "problem_kind", None)
    if kind not in PROBLEM_KINDS:
        raise ModelError(
            f"cannot simulate a {type(system).__name__}: give a PHS, FunctionPHS or "
            "DescriptorPHS (or a model with problem_kind 'ode'/'dae' and a compile() "
            "returning what porthamiltonian.compiled.protocol describes)")
    return kind


def build_problem(system: Any, t_span: Any, x0: Any, u: Any,
                  options: SimulationOptions) -> Problem:
    """The :class:`Problem` of ``simulate(system, t_span, x0, u, **options)``.

    Raises :class:`ModelError` for a span, initial state, input or option that does not
    fit the system, naming the state, input or option at fault.
    """
    kind = problem_kind(system)
    t0, t1 = options.check_span(t_span)
    states, inputs = list(system.states), list(system.inputs)
    outputs = list(system.outputs)
    what = getattr(system, "name", None) or type(system).__name__
    if kind == "dae":
        given = [k for k in _EXPLICIT_ONLY if getattr(options, k) is not None]
        if given:
            raise ModelError(f"{', '.join(given)} not available for a DescriptorPHS (a DAE); "
                             "reduce it with system.to_phs() when an explicit form exists")
        compiled = system.compile()
        check_compiled(compiled, "dae", what)
        x_start = _initial(x0, system, states)
        check_initial_energy(compiled, x_start, states)
        return Problem("dae", system, compiled, (t0, t1), x_start,
                       make_signal(u, inputs), states, inputs, outputs)
    mod = None
    if options.modulation is not None:
        mod = Modulation(system, options.modulation)
        mod.check_start(t0)
    compiled = mod.compiled.bind(mod.value(t0)) if mod else system.compile()
    check_compiled(compiled, "ode", what)
    x_start = _initial(x0, system, states)
    check_initial_energy(compiled, x_start, states)
    dyn = Dynamics(compiled, InputSignal(len(inputs)), mod)
    dyn.signal = make_signal(u, inputs, output=output_feedback(dyn, system))
    dyn.affine = bool(dyn.num.linear and not dyn.signal.feedback)
    breakpoints = np.concatenate([dyn.signal.breakpoints(t0, t1),
                                  mod.breakpoints(t0, t1) if mod else np.zeros(0)])
    return Problem("ode", system, compiled, (t0, t1), x_start, dyn.signal,
                   states, inputs, outputs, dynamics=dyn, events=EventSet.build(options.events),
                   breakpoints=breakpoints)


def _initial(x0: Any, system: Any, states: list[str]) -> np.ndarray:
    """:func:`initial_state`, saying which storages a reduction removed when a removed
    one is given a value."""
    try:
        return initial_state(x0, states)
    except ModelError as err:
        reduction = getattr(system, "reduction", None)
        if reduction and isinstance(x0, Mapping):
            raise ModelError(f"{err}. The model was reduced — {reduction}; give the initial "
                             "values of the kept states") from None
        raise


def check_initial_energy(compiled: Any, x0: np.ndarray, states: list[str]) -> None:
    """Refuse an initial state whose energy is not a finite number (``1e308`` squared
    is ``inf``: every energy figure of the run would be ``inf``/``nan``)."""
    with np.errstate(all="ignore"):
        try:
            H = float(compiled.energy(x0))
        except (ArithmeticError, ValueError):
            H = float("nan")
    if not math.isfinite(H):
        big = np.argsort(-np.abs(x0))[:3]
        where = ", ".join(f"{states[i]} = {x0[i]:.6g}" for i in big)
        raise ModelError(f"the initial state has energy H = {H} (largest entries: {where}); "
                         "the energy must be a finite number of joules — check the initial "
                         "values and their units")


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
