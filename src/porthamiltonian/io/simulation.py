r"""Run a model file's ``simulate:`` section: the arguments of :func:`porthamiltonian.simulate`.

:func:`simulation_arguments` turns a loaded :class:`~porthamiltonian.io.Model` and its
compiled system into the keyword arguments of :func:`porthamiltonian.simulate` —
``t_span``, ``x0``, ``u`` (expressions of ``t`` with the parameter values, CSV tables,
and the derivatives of those the model takes as inputs, :mod:`.derivative_inputs`),
``method``, ``dt``, ``modulation`` and ``events`` (the ``when`` expressions compiled to
functions ``g(t, x)`` with ``terminal`` and ``direction``, as
:func:`scipy.integrate.solve_ivp` takes them).  :func:`simulate_model` runs it; the
command line (``porthamiltonian simulate MODEL``) uses the same two functions, so a
model behaves the same from Python and from the shell::

    from porthamiltonian.io import load_model, simulate_model
    res = simulate_model(load_model("examples/models/lc_events.yaml"))
    res.t_events[0]          # times of the first event's crossings (s)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError, NoExplicitFormError
from ..expr import T
from .derivative_inputs import with_input_derivatives
from .event_section import EventSpec, event_names, parse_event

__all__ = ["simulation_arguments", "simulate_model", "explicit_if_possible", "event_function"]


#: a sparse DescriptorPHS larger than this is simulated as it is: its explicit form
#: would invert E densely (a consistent-mass finite-element model of 10⁴ dofs)
DENSE_REDUCTION_LIMIT = 2000


def explicit_if_possible(system: Any) -> Any:
    """A :class:`~porthamiltonian.DescriptorPHS` reduced to its explicit PHS when one
    exists (faster, and every explicit method applies) and is cheap to form; else the
    DAE itself (its sparse midpoint step needs no inverse of E)."""
    from ..descriptor import DescriptorPHS

    if not isinstance(system, DescriptorPHS):
        return system
    if system.core.kind == "sparse" and len(system.states) > DENSE_REDUCTION_LIMIT:
        return system
    try:
        return system.to_phs()
    except NoExplicitFormError:
        return system


def simulation_arguments(model: Any, system: Any, *, t_end: float | None = None
                         ) -> dict[str, Any]:
    """Keyword arguments of :func:`porthamiltonian.simulate` from ``model.simulate``.

    ``t_end`` (s) overrides the section's end time.  Raises :class:`ModelError` when
    there is no end time, or (naming the file, line and key) when an event expression
    uses a name the compiled ``system`` does not have.
    """
    sim: dict[str, Any] = model.simulate or {}
    t0 = float(sim.get("t_start") or 0.0)
    t1 = t_end if t_end is not None else sim.get("t_end")
    if t1 is None:
        raise ModelError(f"{model.path or model.name}: no end time; give t_end in the "
                         "simulate: section (or --t-end on the command line)")
    values = model.parameter_values()
    inputs = {name: (signal.xreplace(values) if isinstance(signal, sp.Basic) else signal)
              for name, signal in (sim.get("inputs") or {}).items()}
    if model.kind == "reactions":  # a chemostat's input defaults to the potential it holds
        from .reactions_section import held_inputs

        inputs = {**held_inputs(model), **inputs}
    elif model.kind == "bondgraph":  # and a chemical graph's chemostats theirs
        from .bondgraph_section import held_chemostat_inputs

        inputs = {**held_chemostat_inputs(model), **inputs}
    # the derivatives of inputs the model takes as inputs (a storage fixed by a source)
    try:
        inputs = with_input_derivatives(system, inputs)
    except ModelError as err:
        raise ModelError(f"{_where(model, 'simulate', 'inputs')}: {err}") from None
    modulation = {name: _modulation(spec) for name, spec in (sim.get("modulation") or {}).items()}
    events = [event_function(spec, model, system, inputs or None, bool(modulation))
              for spec in sim.get("events") or []]
    x0: Any = dict(sim.get("initial") or {})
    if model.kind == "mechanism":  # initial holds joint coordinates, not states
        from .mechanism_run import initial_state

        x0 = initial_state(model, system)
    elif model.kind == "distributed":  # initial may hold fields: expressions of x, y, z
        from .distributed_build import initial_state as field_state

        x0 = field_state(model, system, x0)
    args: dict[str, Any] = {"t_span": (t0, float(t1)), "x0": x0,
                            "u": inputs or None, "method": sim.get("method") or "auto",
                            "dt": sim.get("dt")}
    if modulation:
        args["modulation"] = modulation
    if events:
        args["events"] = events
    return args


def simulation_system(model: Any) -> Any:
    """The system to simulate for a loaded model: the numeric pH-DAE of a ``mechanism``
    model, else :func:`~porthamiltonian.io.build.build_system`'s result reduced to an
    explicit PHS when one exists."""
    if model.kind == "mechanism":
        from .mechanism_run import assemble_mechanism

        return assemble_mechanism(model)
    from .build import build_system

    return explicit_if_possible(build_system(model))


def simulate_model(model: Any, system: Any = None, **overrides: Any) -> Any:
    """Simulate a loaded model as its ``simulate:`` section says.

    ``system`` is the compiled model (default :func:`simulation_system`); ``overrides``
    replace or add keyword arguments of :func:`porthamiltonian.simulate` (``t_end=`` sets
    the end time).
    Returns the :class:`~porthamiltonian.simulate.SimulationResult` — for a ``mechanism``
    model a :class:`~porthamiltonian.mechanics.MechanismResult` (``.pose(body)``,
    ``.joint(name)``, and the DAE result as ``.raw``).
    """
    from ..simulate import simulate

    if system is None:
        system = simulation_system(model)
    args = simulation_arguments(model, system, t_end=overrides.pop("t_end", None))
    args.update({k: v for k, v in overrides.items() if v is not None})
    if overrides.get("u") is not None:  # inputs given here: their derivatives too
        args["u"] = with_input_derivatives(system, args["u"]) or None
    result = simulate(system, **args)
    if model.kind == "mechanism":
        from ..mechanics import MechanismResult
        from .mechanism_run import mechanism_of

        return MechanismResult(mechanism_of(model, system), result)
    return result


def event_function(spec: EventSpec, model: Any, system: Any, u: Any = None,
                   modulated: bool = False) -> Callable[[float, np.ndarray], float]:
    r"""The function :math:`g(t, x)` of a checked event, with ``.terminal``,
    ``.direction`` and ``.name``.

    ``when`` is parsed again against the compiled system's names (a network's states
    are only known now); outputs :math:`y = (G+P)^\top\nabla H + (M+S)u` and inputs are
    evaluated with the input signal ``u`` (as given to ``simulate``).
    """
    from ..simulate.problem.inputs import make_signal

    names = event_names(model.symbols, system.states, system.inputs, system.outputs)
    expr = parse_event(spec, names).xreplace(model.parameter_values())
    free = expr.free_symbols - {T}
    symbolic = sorted(str(s) for s in free if s in set(model.symbols.values()))
    if symbolic:
        raise ModelError(f"{spec.where}: depends on the parameter(s) {', '.join(symbolic)}, "
                         "which have no value; give them values under parameters")
    states = _used(free, system.states, "")
    outputs = _used(free, system.outputs, "y.")
    inputs = _used(free, system.inputs, "u.")
    args = [T, *(names[s] for s in states), *(names[f"y.{o}"] for o in outputs),
            *(names[f"u.{i}"] for i in inputs)]
    f = sp.lambdify(args, expr, modules="numpy", dummify=True)
    ix = [list(system.states).index(s) for s in states]
    iy = [list(system.outputs).index(o) for o in outputs]
    iu = [list(system.inputs).index(i) for i in inputs]
    port = None
    if iy or iu:
        if modulated:
            raise ModelError(f"{spec.where}: events on inputs or outputs are not available "
                             "with modulation; write the event in the states")
        port = (make_signal(u, list(system.inputs)), system.compile())

    def g(t: float, x: np.ndarray) -> float:
        extra: list[float] = []
        if port is not None:
            uu = port[0](t, x)
            extra = [*np.asarray(port[1].output(x, uu), dtype=float)[iy], *uu[iu]]
        return float(f(t, *x[ix], *extra))

    g.terminal = spec.terminal  # type: ignore[attr-defined]
    g.direction = spec.direction  # type: ignore[attr-defined]
    g.name = spec.name  # type: ignore[attr-defined]
    return g


def _where(model: Any, *keys: str) -> str:
    """``"<file>:<line>: simulate.inputs"`` (the line when the model came from a file)."""
    line = model.line_of(*keys) if hasattr(model, "line_of") else None
    place = f"{model.path or model.name}" + (f":{line}" if line else "")
    return f"{place}: {'.'.join(keys)}"


def _used(free: set[sp.Basic], names: Sequence[str], prefix: str) -> list[str]:
    """The names (in system order) whose symbol ``prefix + name`` occurs in ``free``."""
    present = {str(s) for s in free}
    return [n for n in names if prefix + n in present]


def _modulation(spec: tuple) -> Any:
    """A checked ``simulate.modulation`` entry (io.simulate_section) as a signal."""
    from ..simulate.problem.modulation import PiecewiseConstant, pwm

    if spec[0] == "pwm":
        _, period, duty, t0 = spec
        return pwm(period, duty, t0)
    _, times, values = spec
    return PiecewiseConstant(times, values)
