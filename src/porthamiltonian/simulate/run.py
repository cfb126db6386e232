r"""``simulate(system, t_span, x0, u, method, ...)``: the one entry point for every model.

:func:`simulate` gathers the options into one :class:`~.options.SimulationOptions`,
builds the :class:`~.problem.problem.Problem` (the compiled system, its input, the
initial state; ODE or DAE as the model declares), looks the method up in the registry
(:mod:`.registry`) and lets it solve the problem.  Mechanisms, Lagrange–Dirac systems
and the command line all come through here.

Failures (Newton below the minimum step, NaN/Inf) raise
:class:`~porthamiltonian.errors.SimulationError` with the time reached and the results
up to it (``.partial``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from typing import Any

from .. import blas
from ..errors import SimulationError
from .options import SimulationOptions
from .output.progress import progress_bar
from .output.variables import Observer
from .problem.problem import build_problem, problem_kind
from .registry import resolve_method

__all__ = ["simulate"]


def simulate(
    system: Any,
    t_span: Sequence[float],
    x0: Any = None,
    u: Any = None,
    method: Any = "auto",
    dt: float | None = None,
    *,
    options: SimulationOptions | None = None,
    **option_values: Any,
) -> Any:
    r"""Simulate a port-Hamiltonian system :math:`\dot x = (J-R)\nabla H + (G-P)u`
    (explicit) or :math:`E\dot x = (J-R)z + B\lambda + (G-P)u,\ 0 = B^\top z` (descriptor).

    Parameters
    ----------
    system:
        A :class:`~porthamiltonian.PHS` (all parameters numeric, or driven by
        ``modulation``), a :class:`~porthamiltonian.simulate.FunctionPHS`, a
        :class:`~porthamiltonian.DescriptorPHS` or a compiled model such as a mechanism's
        :class:`~porthamiltonian.mechanics.MechanismDAE` — anything with
        ``problem_kind`` and a ``compile()`` honouring
        :mod:`porthamiltonian.compiled.protocol`.
    t_span:
        ``(t0, t1)`` in s, ``t1 > t0``.
    x0:
        Initial state: array of length n, or dict ``{state name: value}`` (missing → 0).
        For a DAE the differential states; algebraic states and multipliers are computed.
    u:
        Input: ``None`` (zero), a number/array (constant), a callable ``u(t)``,
        ``u(t, x)`` (state feedback) or ``u(t, x, y)`` (output feedback), an expression
        of ``t`` (one input), a :class:`.Tabulated` signal or the name of a CSV file, a
        :class:`.PiecewiseConstant`/:func:`.pwm` signal, or a dict ``{input name: any of
        these}`` (see :mod:`.problem.inputs`).
    method:
        A name from :data:`~.registry.METHODS` — ``"auto"`` (default: ``"midpoint"`` for
        quadratic H, ``"discrete_gradient"`` otherwise, see :mod:`.auto`), ``"midpoint"``,
        ``"discrete_gradient"``, ``"avf"``, ``"gauss1"``–``"gauss6"``, ``"rk4"``,
        ``"ida"`` (DAE), or a :func:`scipy.integrate.solve_ivp` method (``"RK45"``,
        ``"DOP853"``, ``"Radau"``, ``"BDF"``, ``"LSODA"``, ``"RK23"``) — or a method class
        (:class:`~.method.Method`).
    dt:
        Fixed step (s); ``None``: adaptive steps (ODE), ``(t1 − t0)/1000`` (DAE steps and
        the output grid of SciPy/IDA).
    options:
        A :class:`~.options.SimulationOptions`; keyword arguments replace its fields.
    **option_values:
        Any field of :class:`~.options.SimulationOptions`: ``rtol``, ``atol``,
        ``t_eval``, ``save_every``, ``newton_tol``, ``max_newton``,
        ``simplified_newton``, ``max_step``, ``first_step``, ``modulation``, ``events``,
        ``progress`` (a callable ``progress(t)``, or ``True``/``"tqdm"`` for a tqdm bar),
        ``stream`` (see :mod:`.options` for meanings and defaults).

    Returns
    -------
    SimulationResult
        (:class:`.DAEResult` for a DAE) with ``method`` naming the method that ran.

    Raises
    ------
    ModelError
        Bad arguments (unknown method or option, state, input or modulation names, bad
        signals, a method that cannot solve this kind of system).
    SimulationError
        Newton failure below the minimum step, NaN/Inf; ``.partial`` holds the results
        up to ``.t_reached``.
    """
    if dt is not None:
        option_values["dt"] = dt
    opts = SimulationOptions.build(options, **option_values)
    cls = resolve_method(method, problem_kind(system))  # before compiling: fail fast
    bar = None
    problem = None
    try:
        problem = build_problem(system, t_span, x0, u, opts)
        bar = progress_bar(opts.progress, *problem.t_span)  # progress=True / "tqdm"
        if bar is not None:
            opts = opts.replace(progress=bar)
        with _blas_threads(len(problem.x0)):
            res = cls.solve(problem, opts)
        if bar is not None and len(res.t):
            bar(float(res.t[-1]))  # methods that report no steps (SciPy, IDA) end here
    except SimulationError as err:
        if getattr(err, "partial", None) is not None:
            _observe(err.partial, system, problem, opts)
        raise
    finally:
        if bar is not None:
            bar.close()
    return _observe(res, system, problem, opts)


#: runs of at most this many states keep BLAS to one thread (:mod:`porthamiltonian.blas`:
#: their dense Newton solves lose to threads that spin-wait on each other); larger models
#: keep the library's threads (their sparse LU is single-threaded anyway)
SINGLE_BLAS_THREAD_UP_TO = 1000


def _blas_threads(n_states: int) -> Any:
    """One BLAS thread for a run of ``n_states`` ≤ :data:`SINGLE_BLAS_THREAD_UP_TO`."""
    if n_states > SINGLE_BLAS_THREAD_UP_TO:
        return contextlib.nullcontext()
    return blas.one_thread()


def _observe(res: Any, system: Any, problem: Any, opts: SimulationOptions) -> Any:
    """Give ``res`` the model's name and its physical variables (co-energies, units).

    The co-energies are evaluated with the run's own compiled system: with modulation it
    is bound at the start value of the modulated parameters, which is exact as long as
    they do not enter H (they sit in J, R, G); when they do, no co-energy is offered."""
    res.model = str(getattr(system, "name", "") or "")
    compiled = getattr(problem, "compiled", None)
    modulated = set(opts.modulation or {})
    # only with modulation: a numeric system builds its symbolic H from Q on request,
    # which costs more than the run itself at a hundred states
    H = getattr(system, "hamiltonian", None) if modulated else None
    if H is not None and {str(s) for s in H.free_symbols} & modulated:
        compiled = False  # H changes with the modulation: ∇H of a frozen H would be wrong
    res.observer = Observer(system, compiled)
    return res
