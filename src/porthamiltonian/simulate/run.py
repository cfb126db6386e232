r"""``simulate(system, t_span, x0, ...)``: the driver around the one-step methods.

Fixed steps of at most ``dt`` land exactly on ``t_end`` and on every ``t_eval`` time.
A step whose Newton iteration fails is split in halves (recursively, down to
``dt·2⁻¹⁰``); below that a :class:`~porthamiltonian.errors.SimulationError` carries
the time reached and the results up to it (``.partial``).  A non-finite state
raises at once, the same way.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError, SimulationError
from .base import Dynamics, Method, StepInfo
from .discrete_gradient import AVF, DiscreteGradient, avf_nodes
from .explicit import RK4
from .gauss import Gauss
from .inputs import make_signal
from .midpoint import Midpoint
from .newton import NewtonFailure
from .recorder import Recorder
from .scipy_ivp import SCIPY_METHODS, solve_scipy

__all__ = ["simulate", "METHODS"]

#: Methods implemented here (fixed step); the SciPy names go to ``solve_ivp``.
METHODS = ("midpoint", "discrete_gradient", "avf", "gauss1", "gauss2", "gauss3", "rk4")
MAX_HALVINGS = 10


def simulate(
    system: Any,
    t_span: Sequence[float],
    x0: Any = None,
    u: Any = None,
    method: str = "midpoint",
    dt: float | None = None,
    rtol: float = 1e-10,
    atol: float = 1e-12,
    t_eval: Sequence[float] | None = None,
    save_every: int = 1,
    newton_tol: float | None = None,
    max_newton: int = 20,
) -> Any:
    r"""Simulate a port-Hamiltonian system :math:`\dot x = (J-R)\nabla H + (G-P)u`.

    Parameters
    ----------
    system:
        A :class:`~porthamiltonian.PHS` (all parameters numeric).  A
        :class:`~porthamiltonian.DescriptorPHS` must be converted with ``.to_phs()``.
    t_span:
        ``(t0, t1)`` in s, ``t1 > t0``.
    x0:
        Initial state: array of length n, or dict ``{state name: value}`` (missing → 0).
    u:
        Input: ``None`` (zero), a number/array (constant), a callable ``u(t)`` or
        ``u(t, x)`` (state feedback), an expression of ``t`` (one input), or a dict
        ``{input name: any of these}`` (see :mod:`.inputs`).
    method:
        ``"midpoint"`` (default), ``"discrete_gradient"`` (Gonzalez), ``"avf"``,
        ``"gauss1"``–``"gauss3"``, ``"rk4"``, or a :func:`scipy.integrate.solve_ivp`
        method (``"RK45"``, ``"DOP853"``, ``"Radau"``, ``"BDF"``, ``"LSODA"``).
    dt:
        Step (s) of the fixed-step methods, default ``(t1 − t0)/1000``; shortened so
        that steps land on ``t1`` and ``t_eval``.  For SciPy methods: the output grid.
    rtol, atol:
        Tolerances of the SciPy methods.
    t_eval:
        Times (s) at which to save, in ``[t0, t1]``; default every step.
    save_every:
        Save every ``save_every``-th step (and the last); the power residual of a
        saved interval is the sum over its steps.
    newton_tol, max_newton:
        Relative Newton tolerance on the update (default 1e-12) and iteration limit.

    Returns
    -------
    SimulationResult

    Raises
    ------
    ModelError
        Bad arguments (unknown method, state or input names, DAE systems).
    SimulationError
        Newton failure below the minimum step, or NaN/Inf; ``.partial`` holds the
        results up to ``.t_reached``.
    """
    from ..descriptor import DescriptorPHS

    if isinstance(system, DescriptorPHS):
        raise ModelError(
            "DAE simulation of a DescriptorPHS is not available yet; convert it to an "
            "explicit PHS first with system.to_phs()"
        )
    t0, t1 = (float(v) for v in t_span)
    if not (math.isfinite(t0) and math.isfinite(t1) and t1 > t0):
        raise ModelError(f"t_span must be (t0, t1) with t1 > t0, got ({t0:g}, {t1:g})")
    if dt is not None and not (dt > 0 and math.isfinite(dt)):
        raise ModelError(f"dt must be a positive number of seconds, got {dt!r}")
    if int(save_every) < 1:
        raise ModelError(f"save_every must be a positive integer, got {save_every!r}")
    num = system.compile()
    dyn = Dynamics(num, make_signal(u, list(system.inputs)))
    x_init = initial_state(x0, list(system.states))
    h_max = float(dt) if dt is not None else (t1 - t0) / 1000.0
    rec = Recorder(dyn, list(system.states), list(system.inputs), list(system.outputs), method)
    if method in SCIPY_METHODS:
        return _run_scipy(dyn, rec, method, (t0, t1), x_init, h_max, t_eval, save_every,
                          rtol, atol)
    stepper = make_method(method, dyn, system,
                          newton_tol=1e-12 if newton_tol is None else float(newton_tol),
                          max_newton=int(max_newton))
    grid, save = step_grid(t0, t1, h_max, t_eval, int(save_every))
    return _run_fixed(stepper, dyn, rec, grid, save, x_init, h_max * 2.0**-MAX_HALVINGS)


def initial_state(x0: Any, states: list[str]) -> np.ndarray:
    """The initial state vector from an array or a dict by state name (missing → 0)."""
    n = len(states)
    if x0 is None:
        return np.zeros(n)
    if isinstance(x0, Mapping):
        unknown = [k for k in x0 if k not in states]
        if unknown:
            raise ModelError(f"unknown state(s) {', '.join(map(str, unknown))} in x0; the "
                             f"system's states are: {', '.join(states)}")
        return np.array([float(x0.get(s, 0.0)) for s in states])
    x = np.asarray(x0, dtype=float).ravel()
    if x.size != n:
        raise ModelError(f"x0 has {x.size} values but the system has {n} states "
                         f"({', '.join(states[:10])}{', ...' if n > 10 else ''})")
    if not np.all(np.isfinite(x)):
        raise ModelError("x0 contains NaN or Inf")
    return x.copy()


def make_method(name: str, dyn: Dynamics, system: Any, **kw: Any) -> Method:
    """The one-step method called ``name`` for ``dyn``."""
    if name == "midpoint":
        return Midpoint(dyn, **kw)
    if name == "discrete_gradient":
        return DiscreteGradient(dyn, **kw)
    if name == "avf":
        return AVF(dyn, nodes=avf_nodes(_hamiltonian_degree(system)), **kw)
    if name in ("gauss1", "gauss2", "gauss3"):
        return Gauss(dyn, int(name[-1]), **kw)
    if name == "rk4":
        return RK4(dyn)
    raise ModelError(f"unknown simulation method {name!r}; choose one of "
                     f"{', '.join(METHODS + SCIPY_METHODS)}")


def _hamiltonian_degree(system: Any) -> int | None:
    if not getattr(system, "symbolic", False):
        return 2
    try:
        return int(sp.Poly(system.hamiltonian, *system.state_symbols).total_degree())
    except (sp.PolynomialError, sp.GeneratorsNeeded, ValueError):
        return None


def step_grid(
    t0: float, t1: float, h: float, t_eval: Sequence[float] | None, save_every: int
) -> tuple[np.ndarray, np.ndarray]:
    """Step times (steps ≤ ``h`` landing on ``t1``/``t_eval``) and which ones are saved."""
    if t_eval is None:
        n = max(1, math.ceil((t1 - t0) / h - 1e-9))
        grid = np.linspace(t0, t1, n + 1)
        save = np.zeros(n + 1, dtype=bool)
        save[::save_every] = True
        save[-1] = True
        return grid, save
    te = np.asarray(t_eval, dtype=float)
    if te.size == 0 or np.any(np.diff(te) <= 0) or te[0] < t0 or te[-1] > t1:
        raise ModelError("t_eval must be increasing times within t_span")
    points, flags = [np.array([t0])], [np.array([te[0] == t0])]
    prev = t0
    for t in te[te > t0]:
        n = max(1, math.ceil((t - prev) / h - 1e-9))
        seg = np.linspace(prev, t, n + 1)[1:]
        points.append(seg)
        flag = np.zeros(n, dtype=bool)
        flag[-1] = True
        flags.append(flag)
        prev = t
    return np.concatenate(points), np.concatenate(flags)


def _advance(
    stepper: Method, t: float, x: np.ndarray, h: float, h_min: float
) -> tuple[np.ndarray, StepInfo]:
    """One step, split in halves while Newton fails (raises NewtonFailure below h_min)."""
    try:
        return stepper.step(t, x, h)
    except (NewtonFailure, np.linalg.LinAlgError, RuntimeError) as err:
        if 0.5 * h < h_min * (1 - 1e-12):
            raise NewtonFailure(str(err)) from None
    x1, a = _advance(stepper, t, x, 0.5 * h, h_min)
    x2, b = _advance(stepper, t + 0.5 * h, x1, 0.5 * h, h_min)
    return x2, StepInfo(a.supplied + b.supplied, a.dissipated + b.dissipated,
                        a.delta_H + b.delta_H, a.newton_iterations + b.newton_iterations,
                        a.nfev + b.nfev)


def _run_fixed(
    stepper: Method, dyn: Dynamics, rec: Recorder, grid: np.ndarray, save: np.ndarray,
    x: np.ndarray, h_min: float,
) -> Any:
    rec.allocate(int(save.sum()) + (0 if save[0] else 1))
    rec.record(grid[0], x)
    acc = np.zeros(3)  # supplied, dissipated, residual since the last saved point
    iters = nfev = 0
    for k in range(grid.size - 1):
        t, h = grid[k], grid[k + 1] - grid[k]
        try:
            with np.errstate(all="ignore"):
                x_new, info = _advance(stepper, t, x, h, h_min)
        except NewtonFailure as err:
            raise _failure(rec, t, x, f"Newton did not converge at t = {t:.6g} s even with "
                           f"the step reduced to {h_min:.3g} s ({err}); state there: "
                           f"{_state_text(rec.states, x)}; try a smaller dt or another method",
                           iters, nfev) from None
        if not np.all(np.isfinite(x_new)):
            raise _failure(rec, t, x, f"the state became NaN/Inf in the step from t = {t:.6g} s "
                           f"(state before it: {_state_text(rec.states, x)}); the system may "
                           "blow up or the step is too large for this method", iters, nfev)
        x = x_new
        iters += info.newton_iterations
        nfev += info.nfev
        acc += (info.supplied, info.dissipated,
                info.delta_H - (info.supplied - info.dissipated))
        if save[k + 1]:
            rec.record(grid[k + 1], x, acc)
            acc[:] = 0.0
    return rec.result(nsteps=grid.size - 1, newton_iterations=iters, nfev=nfev)


def _failure(rec: Recorder, t: float, x: np.ndarray, message: str, iters: int,
             nfev: int) -> SimulationError:
    if rec.last_time() != t:
        with np.errstate(all="ignore"):
            rec.record(t, x, None)
    partial = rec.result(newton_iterations=iters, nfev=nfev, message=message, success=False)
    return SimulationError(message, t_reached=t, partial=partial)


def _state_text(states: list[str], x: np.ndarray, limit: int = 6) -> str:
    parts = [f"{s}={v:.6g}" for s, v in zip(states[:limit], x[:limit], strict=False)]
    return ", ".join(parts) + (", ..." if len(states) > limit else "")


def _run_scipy(
    dyn: Dynamics, rec: Recorder, method: str, t_span: tuple[float, float], x0: np.ndarray,
    h: float, t_eval: Sequence[float] | None, save_every: int, rtol: float, atol: float,
) -> Any:
    if t_eval is None:
        grid, save = step_grid(t_span[0], t_span[1], h, None, save_every)
        te = grid[save]
    else:
        te = np.asarray(t_eval, dtype=float)
    sol = solve_scipy(dyn, method, t_span, x0, te, rtol, atol)
    rec.allocate(sol.t.size)
    prev: tuple[float, float, float, float] | None = None
    for k, t in enumerate(sol.t):
        x = sol.y[:, k]
        if not np.all(np.isfinite(x)):
            break
        rec.record(t, x, None)
        now = (t, rec.H[k], rec.supplied[k], rec.dissipated[k])
        if prev is not None:  # trapezoidal rule between output points
            dt = t - prev[0]
            ws, wd = 0.5 * dt * (now[2] + prev[2]), 0.5 * dt * (now[3] + prev[3])
            rec.set_interval(k, ws, wd, now[1] - prev[1] - (ws - wd))
        prev = now
    ok = sol.status == 0 and rec.count == sol.t.size
    if not ok:
        t_reached = rec.last_time()
        msg = f"solve_ivp ({method}) failed at t = {t_reached:.6g} s: {sol.message}"
        raise SimulationError(msg, t_reached=t_reached,
                              partial=rec.result(nfev=int(sol.nfev), message=msg, success=False))
    return rec.result(nsteps=int(sol.t.size - 1), nfev=int(sol.nfev), message=str(sol.message))
