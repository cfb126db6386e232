r"""Pass-through to :func:`scipy.integrate.solve_ivp` (RK45, DOP853, Radau, BDF, LSODA).

For comparison with the structure-preserving methods.  The implicit solvers get the
exact Jacobian :math:`\partial\dot x/\partial x` (the constant, possibly sparse,
:math:`A` of an LTI system).  Solutions are reported on the output grid; the energy
bookkeeping between two output points uses the trapezoidal rule on the port powers
sampled there, so the reported power residual mixes the solver's own error with that
:math:`O(\Delta t^3)` quadrature error (the solver exposes no step-wise quantities).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.integrate as si

from ...errors import SimulationError
from ..method import Method
from ..output.recorder import Recorder
from ..problem.dynamics import Dynamics
from ..problem.events import EventSet, scipy_events

__all__ = ["SCIPY_METHODS", "ScipyMethod", "solve_scipy", "run_scipy", "trapezoid_interval"]


#: ``(t, H, supplied power, dissipated power)`` at an output point
Point = tuple[float, float, float, float]


def trapezoid_interval(rec: Recorder, k: int, t: float, prev: Point | None) -> Point:
    r"""Energy bookkeeping of a solver that exposes only output points (``solve_ivp``, IDA).

    Point ``k`` (time ``t``) was just recorded.  Over :math:`[t_{k-1}, t_k]` the work
    supplied and dissipated are the trapezoidal rule on the sampled port powers,
    :math:`W = \tfrac{h}{2}(P_{k-1} + P_k)` (error :math:`O(h^3)`), and the power residual
    is :math:`\Delta H - (W_s - W_d)`; stored in ``rec``.  Returns point ``k`` for the next
    call (``prev=None`` at the first point).
    """
    now = (t, float(rec.H[k]), float(rec.supplied[k]), float(rec.dissipated[k]))
    if prev is not None:
        h = t - prev[0]
        ws, wd = 0.5 * h * (now[2] + prev[2]), 0.5 * h * (now[3] + prev[3])
        rec.set_interval(k, ws, wd, now[1] - prev[1] - (ws - wd))
    return now


def solve_scipy(
    dyn: Dynamics,
    method: str,
    t_span: tuple[float, float],
    x0: np.ndarray,
    t_eval: np.ndarray,
    rtol: float,
    atol: float,
    events: Any = None,
) -> Any:
    """Run ``solve_ivp``; returns its ``OdeResult`` (``t``, ``y``, ``status``, ``nfev``)."""

    def fun(t: float, x: np.ndarray) -> np.ndarray:
        return dyn.f(x, dyn.u(t, x))

    kw: dict[str, Any] = {}
    if method in ("Radau", "BDF", "LSODA"):
        if dyn.affine:
            A = dyn.num.A
            if method == "LSODA":  # dense, and a callable: SciPy 1.17's LSODA tests an
                # array Jacobian for truth ("solver.jac or ...") and fails
                A = A.toarray() if hasattr(A, "toarray") else np.asarray(A)
                kw["jac"] = lambda t, x, A=A: A
            else:
                kw["jac"] = A
        else:
            def jac(t: float, x: np.ndarray) -> Any:
                J = dyn.jac(t, x, dyn.u(t, x))
                return J.toarray() if method == "LSODA" and hasattr(J, "toarray") else J

            kw["jac"] = jac
    with np.errstate(all="ignore"):
        return si.solve_ivp(fun, t_span, x0, method=method, t_eval=t_eval,
                            rtol=rtol, atol=atol, events=events, **kw)


def run_scipy(
    dyn: Dynamics, rec: Recorder, method: str, t_span: tuple[float, float], x0: np.ndarray,
    h: float, t_eval: Any, save_every: int, rtol: float, atol: float,
    breakpoints: np.ndarray, events: EventSet | None,
) -> Any:
    """``solve_ivp`` on each interval between switching instants, saved on the output grid
    (``t_eval``, or steps of ``h`` decimated by ``save_every``)."""
    t0, t1 = t_span
    if t_eval is None:
        n = max(1, int(np.ceil((t1 - t0) / h - 1e-9)))
        grid = np.linspace(t0, t1, n + 1)
        te = np.unique(np.concatenate([grid[::save_every], [t1]]))
    else:
        te = np.asarray(t_eval, dtype=float)
    bounds = np.unique(np.concatenate([[t0], breakpoints[(breakpoints > t0) &
                                                         (breakpoints < t1)], [t1]]))
    ev = scipy_events(events)
    ts, xs = [], []
    t_ev: list[list[float]] = [[] for _ in (ev or [])]
    x_ev: list[list[np.ndarray]] = [[] for _ in (ev or [])]
    x, nfev, status, message = np.array(x0, dtype=float), 0, 0, "completed"
    for k, (a, b) in enumerate(zip(bounds[:-1], bounds[1:], strict=True)):
        dyn.set_time(0.5 * (a + b))
        inside = te[(te > a) & (te <= b)] if k else te[(te >= a) & (te <= b)]
        sol = solve_scipy(dyn, method, (a, b), x, np.union1d(inside, [b]), rtol, atol, ev)
        nfev += int(sol.nfev)
        keep = np.isin(sol.t, inside)  # the interval's end is computed, saved if asked for
        ts.append(sol.t[keep])
        xs.append(sol.y.T[keep])
        for i in range(len(t_ev)):
            t_ev[i].extend(sol.t_events[i].tolist())
            x_ev[i].extend(list(sol.y_events[i]))
        status, message = int(sol.status), str(sol.message)
        if status != 0:
            if status == 1:  # a terminal event: its state is the run's last point
                last = [(te_i[-1], ye_i[-1]) for te_i, ye_i in
                        zip(sol.t_events, sol.y_events, strict=True) if te_i.size]
                t_end, x_end = max(last, key=lambda e: e[0])
                ts[-1] = np.append(ts[-1][ts[-1] < t_end], t_end)
                xs[-1] = np.vstack([xs[-1][: ts[-1].size - 1], x_end])
                status, message = 0, "a terminal event occurred"
            break
        x = sol.y[:, -1]
    t_all, x_all = np.concatenate(ts), np.concatenate(xs).reshape(-1, dyn.n)
    rec.allocate(t_all.size)
    prev: Point | None = None
    for k, t in enumerate(t_all):
        xk = x_all[k]
        if not np.all(np.isfinite(xk)):
            status = -1
            break
        dyn.set_time(t)
        rec.record(t, xk, None)
        prev = trapezoid_interval(rec, k, t, prev)
    if status < 0:
        t_reached = rec.last_time()
        msg = f"solve_ivp ({method}) failed at t = {t_reached:.6g} s: {message}"
        raise SimulationError(msg, t_reached=t_reached,
                              partial=rec.result(nfev=nfev, message=msg, success=False))
    res = rec.result(nsteps=int(t_all.size - 1), nfev=nfev, message=message)
    if events is not None:
        res.t_events = [np.array(v, dtype=float) for v in t_ev]
        res.x_events = [np.array(v, dtype=float).reshape(len(v), dyn.n) for v in x_ev]
    return res


class ScipyMethod(Method):
    """A :func:`scipy.integrate.solve_ivp` method; subclasses name it (``name``).

    ``dt`` (default ``(t1 − t0)/1000``) is the output grid, ``rtol``/``atol`` the
    solver's tolerances; the run is split at switching instants (``breakpoints``).
    ``order`` is the order of the solver's propagated solution (for BDF and LSODA, the
    largest order they use).
    """

    energy = "none"

    @classmethod
    def solve(cls, problem: Any, options: Any) -> Any:
        t0, t1 = problem.t_span
        dyn = problem.dynamics
        rec = Recorder(dyn, problem.states, problem.inputs, problem.outputs, cls.name,
                       stream=options.stream)
        h_out = options.dt if options.dt is not None else (t1 - t0) / 1000.0
        return run_scipy(dyn, rec, cls.name, (t0, t1), problem.x0, h_out, options.t_eval,
                         options.save_every, options.rtol, options.atol, problem.breakpoints,
                         problem.events)


def _scipy_method(name: str, order: int) -> type[ScipyMethod]:
    return type(name, (ScipyMethod,), {"name": name, "order": order, "__module__": __name__,
                                       "__doc__": f"SciPy's {name} (solve_ivp)."})


#: the ``solve_ivp`` methods, as registered method classes
SCIPY_CLASSES: tuple[type[ScipyMethod], ...] = tuple(
    _scipy_method(name, order) for name, order in
    (("RK45", 5), ("DOP853", 8), ("Radau", 5), ("BDF", 5), ("LSODA", 12), ("RK23", 3)))
#: their names
SCIPY_METHODS = tuple(c.name for c in SCIPY_CLASSES)
