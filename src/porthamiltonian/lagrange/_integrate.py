r"""Simulation of a Lagrange–Dirac system by index reduction to an ODE.

The DAE of :class:`.system.LagrangeDiracSystem` is reduced with its
:meth:`~.system.LagrangeDiracSystem.acceleration_form`: at each state ``(q, v)``
the linear system ``M [v̇; λ] = r`` gives the accelerations and the multipliers,
and ``(q, v, W)`` with ``Ẇ = ⟨F, v⟩ − ∂L/∂t`` (``power()``) is integrated by
SciPy's ``solve_ivp`` (default DOP853, tight tolerances).  ``W`` is the work of
the external forces (and of an explicitly time-dependent ``L``),
so the power balance ``E(t) − E(0) = W(t)`` can be checked to the integration
tolerance.  The constraints hold at velocity level because their time
derivative is imposed; the initial velocities must satisfy them (checked).
Momenta come from the Legendre map ``p = ∂L/∂v`` at the samples.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla
import sympy
from scipy.integrate import solve_ivp

from ..errors import ModelError, SimulationError
from . import _constraints
from ._symbols import T
from .result import LagrangeResult

#: annotations: a :class:`.system.LagrangeDiracSystem` (not imported: system imports us)
LagrangeDiracSystem = Any


def _lambdify(sys: LagrangeDiracSystem, expr: Any, what: str):
    if not isinstance(expr, sympy.MatrixBase):
        expr = sympy.Matrix([[expr]])
    expr = sympy.Matrix(expr).xreplace({k: sympy.Float(v) for k, v in sys.parameters.items()})
    left = expr.free_symbols - set(sys.coordinates) - set(sys.velocities) - {T}
    if left:
        raise ModelError(
            f"{sys.name}: {what} still depends on {', '.join(sorted(map(str, left)))}; give "
            "their values with parameters={...}"
        )
    f = sympy.lambdify((T, sys.coordinates, sys.velocities), expr, modules="numpy")
    shape = expr.shape

    def call(t: float, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        return np.asarray(f(t, q, v), dtype=float).reshape(shape)

    return call


def _vector(sys: LagrangeDiracSystem, x: Any, what: str) -> np.ndarray:
    if isinstance(x, dict):
        pt = sys.point(x)
        return np.array([pt[q] for q in sys.coordinates])
    arr = np.asarray(x, dtype=float).ravel()
    if arr.size != sys.n:
        raise ModelError(f"{sys.name}: {what} has {arr.size} entries; give {sys.n} "
                         f"(coordinates {', '.join(sys.names)})")
    return arr


#: methods of the index-reduced equations (the rest of the registry's DAE methods take
#: the descriptor route of :func:`simulate_descriptor`)
REDUCED_METHODS = ("RK45", "DOP853", "Radau", "BDF", "LSODA", "RK23", "ida")
#: defaults of the index-reduced route: tight, as its results are used as references
REDUCED_RTOL = 1e-11


def simulate(sys: LagrangeDiracSystem, t_span: Any, q0: Any, v0: Any, method: Any = "DOP853",
             dt: float | None = None, *, options: Any = None,
             **option_values: Any) -> LagrangeResult:
    """Integrate ``sys`` from ``(q0, v0)`` over ``t_span`` (s; a pair, or ``t_end`` for
    ``(0, t_end)``) with the arguments of :func:`porthamiltonian.simulate`.

    ``method`` a SciPy name or ``"ida"``: the index-reduced equations (module docstring),
    default ``rtol = 1e-11`` and ``atol = 1e-12 · max(|q0|, |v0|)`` (at least ``1e-18``,
    so small signals such as charges of mC are resolved as well as large ones); output
    every ``dt`` (default ``t_end/500``) or at ``t_eval``.  ``method`` a structure-
    preserving DAE method (``"midpoint"``, ``"discrete_gradient"``): the descriptor PHS of
    :meth:`~.system.LagrangeDiracSystem.to_descriptor` is simulated by
    :func:`porthamiltonian.simulate` with fixed steps ``dt`` (:func:`simulate_descriptor`).
    """
    from ..simulate import SimulationOptions
    from ..simulate.options import DEFAULT_ATOL

    if not isinstance(method, str) or method not in REDUCED_METHODS:
        return simulate_descriptor(sys, t_span, q0, v0, method, dt, options=options,
                                   **option_values)
    explicit = dict(option_values)  # unknown names are refused by build()
    opts = SimulationOptions.build(options, **explicit,
                                   **({"dt": dt} if dt is not None else {}),
                                   **({} if "rtol" in explicit else {"rtol": REDUCED_RTOL}))
    unsupported = [k for k in ("modulation", "events", "stream", "progress")
                   if getattr(opts, k) is not None]
    if unsupported:
        raise ModelError(f"{sys.name}: {', '.join(unsupported)} not available for a "
                         "Lagrange–Dirac system")
    t0, t_end = opts.check_span(_span(t_span))
    if t0 != 0.0:
        raise ModelError(f"{sys.name}: a Lagrange–Dirac simulation starts at t = 0; give "
                         f"t_span = (0, {t_end:g})")
    t_eval = None if opts.t_eval is None else np.asarray(opts.t_eval)
    # atol given by the user (keyword or options object) or else scaled to q0, v0
    atol_given = "atol" in explicit or (options is not None and options.atol != DEFAULT_ATOL)
    atol = opts.atol if atol_given else None
    return _reduced(sys, t_end, q0, v0, dt=opts.dt, t_eval=t_eval, rtol=opts.rtol, atol=atol,
                    method=method)


def _span(t_span: Any) -> tuple[float, float]:
    return (0.0, float(t_span)) if np.ndim(t_span) == 0 else tuple(t_span)


def simulate_descriptor(sys: LagrangeDiracSystem, t_span: Any, q0: Any, v0: Any,
                        method: Any, dt: float | None, *, options: Any = None,
                        **option_values: Any) -> LagrangeResult:
    """The structure-preserving route: ``porthamiltonian.simulate`` on
    ``sys.to_descriptor()`` (state ``x = (q, v)``; the forcing ``g(t)`` as inputs), read
    back as a :class:`LagrangeResult` — ``p`` from the Legendre map, ``work`` the
    integral of the supplied minus the dissipated power (so ``E − E(0) = W`` to
    round-off for a method exact for this H)."""
    from ..simulate import simulate

    desc, signals = sys.to_descriptor()
    q0 = _vector(sys, q0, "q0")
    v0 = _vector(sys, v0, "v0")
    u = {name: sympy.lambdify(T, g, modules="numpy") for name, g in signals.items()} or None
    res = simulate(desc, _span(t_span), np.concatenate([q0, v0]), u=u, method=method, dt=dt,
                   options=options, **option_values)
    n = sys.n
    q, v = res.x[:, :n], res.x[:, n:2 * n]
    p_f = _lambdify(sys, sys.legendre(), "the Legendre map")
    A_f = _lambdify(sys, sys.constraint_forms, "the constraints")
    p = np.array([p_f(t, qk, vk).ravel() for t, qk, vk in zip(res.t, q, v, strict=True)])
    cres = np.array([A_f(t, qk, vk).T @ vk for t, qk, vk in zip(res.t, q, v, strict=True)])
    work = np.cumsum(res.work_supplied - res.work_dissipated)
    labels = tuple(f"lambda_{k} ({o})" for k, o in enumerate(sys.constraint_owners))
    return LagrangeResult(t=res.t, q=q, v=v, p=p.reshape(len(res.t), n),
                          lam=res.lam.reshape(len(res.t), sys.m), energy=res.H, work=work,
                          constraint_residual=cres.reshape(len(res.t), sys.m),
                          names=sys.names, multipliers=labels)


def _reduced(sys: LagrangeDiracSystem, t_end: float, q0: Any, v0: Any, *,
             dt: float | None, t_eval: Any, rtol: float, atol: float | None,
             method: str) -> LagrangeResult:
    """The index-reduced equations integrated by SciPy or IDA (module docstring)."""
    n, m = sys.n, sys.m
    q0 = _vector(sys, q0, "q0")
    v0 = _vector(sys, v0, "v0")
    M_s, r_s = sys.acceleration_form()
    M_f = _lambdify(sys, M_s, "the Lagrangian or the constraints")
    r_f = _lambdify(sys, r_s, "the equations")
    A_f = _lambdify(sys, sys.constraint_forms, "the constraints")
    P_f = _lambdify(sys, sys.power(), "the forces")
    E_f = _lambdify(sys, sys.energy(), "the energy")
    p_f = _lambdify(sys, sys.legendre(), "the Legendre map")

    sys.check_constant_rank(q0)
    A0 = A_f(0.0, q0, v0)
    res0 = A0.T @ v0
    scale = max(1.0, float(np.abs(A0).max(initial=0.0) * np.abs(v0).max(initial=0.0)))
    if m and np.abs(res0).max() > 1e-9 * scale:
        k = int(np.argmax(np.abs(res0)))
        raise ModelError(
            f"{sys.name}: the initial velocities violate constraint {k} (from "
            f"{sys.constraint_owners[k]}): ω(v0) = {res0[k]:.3g}; choose v0 in the "
            "constraint distribution"
        )
    M0 = M_f(0.0, q0, v0)
    if np.linalg.matrix_rank(M0) < n + m:
        raise ModelError(
            f"{sys.name}: the accelerations and multipliers are not determined at the "
            "initial state (the matrix [[∂²L/∂v², −A], [Aᵀ, 0]] is singular): the "
            "Lagrangian is degenerate in directions the constraints do not fix (or "
            "the constraints are redundant); add the missing constraints (e.g. "
            "Kirchhoff's laws for a circuit) or a mass/inductance in that direction"
        )

    def solve(t: float, q: np.ndarray, v: np.ndarray) -> np.ndarray:
        M = M_f(t, q, v)
        try:
            return np.linalg.solve(M, r_f(t, q, v).ravel())
        except np.linalg.LinAlgError:
            raise SimulationError(
                f"{sys.name}: singular constraint/mass matrix at t = {t:.6g}, q = {q}; the "
                "constraints lost rank along the trajectory", t_reached=t) from None

    def rhs(t: float, y: np.ndarray) -> np.ndarray:
        q, v = y[:n], y[n:2 * n]
        sol = solve(t, q, v)
        return np.concatenate([v, sol[:n], P_f(t, q, v).ravel()])

    if t_eval is None:
        dt = dt if dt is not None else t_end / 500
        t_eval = np.linspace(0.0, t_end, int(round(t_end / dt)) + 1)
    t_eval = np.asarray(t_eval, dtype=float)
    if atol is None:
        atol = 1e-12 * max(float(np.abs(np.r_[q0, v0]).max(initial=0.0)), 1e-6)
    y0 = np.concatenate([q0, v0, [0.0]])
    if method == "ida":
        times, Y = _ida(sys, solve, M_f, r_f, P_f, y0, t_end, t_eval, rtol, atol)
    else:
        times, Y = _ivp(sys, rhs, A_f, y0, float(t_end), t_eval, method, rtol, atol)
    q, v, W = Y[:, :n], Y[:, n:2 * n], Y[:, 2 * n]
    lam = np.zeros((len(times), m))
    p = np.zeros_like(q)
    E = np.zeros(len(times))
    cres = np.zeros((len(times), m))
    for k, tk in enumerate(times):
        if m:
            _constraints.check_clean(A_f(tk, q[k], v[k]), m, sys.constraint_owners,
                                     f"at t = {tk:.6g} (q = {np.round(q[k], 6).tolist()})")
        lam[k] = solve(tk, q[k], v[k])[n:]
        p[k] = p_f(tk, q[k], v[k]).ravel()
        E[k] = E_f(tk, q[k], v[k])[0, 0]
        cres[k] = A_f(tk, q[k], v[k]).T @ v[k]
    labels = tuple(f"lambda_{k} ({o})" for k, o in enumerate(sys.constraint_owners))
    return LagrangeResult(t=times, q=q, v=v, p=p, lam=lam, energy=E, work=W,
                          constraint_residual=cres, names=sys.names, multipliers=labels)


def _ivp(sys: LagrangeDiracSystem, rhs, A_f, y0: np.ndarray, t_end: float,
         t_eval: np.ndarray, method: str, rtol: float, atol: float
         ) -> tuple[np.ndarray, np.ndarray]:
    """``solve_ivp`` with the rank monitor of :func:`_rank_event`.

    When the monitored minor vanishes, the rank of all the forms is tested there:
    a real rank drop raises :class:`ModelError` naming the subsystems; otherwise
    another minor has taken over, so the rows are chosen again and the
    integration continues from that point.
    """
    n, m = sys.n, sys.m
    t0, y, ts, ys = 0.0, y0, [], []
    for _ in range(10_000):
        seg_eval = t_eval[(t_eval >= t0) if not ts else (t_eval > t0)]
        out = solve_ivp(rhs, (t0, t_end), y, method=method, t_eval=seg_eval, rtol=rtol,
                        atol=atol, events=_rank_event(A_f, n, y) if m else None)
        if not out.success:
            t_last = float(out.t[-1]) if out.t.size else t0
            raise SimulationError(f"{sys.name}: integration failed at t = {t_last:.6g}: "
                                  f"{out.message}", t_reached=t_last)
        ts.append(np.asarray(out.t, dtype=float))
        ys.append(np.asarray(out.y, dtype=float).reshape(len(y0), -1).T)
        if not (m and out.t_events[0].size):
            break
        t0, y = float(out.t_events[0][0]), out.y_events[0][0]
        where = f"at t = {t0:.6g} (q = {np.round(y[:n], 6).tolist()})"
        _constraints.check_clean(A_f(t0, y[:n], y[n:2 * n]), m, sys.constraint_owners,
                                 where, rtol=1e-6)
    return np.concatenate(ts), np.concatenate(ys)


def _rank_event(A_f, n: int, y: np.ndarray):
    """Event: the best-conditioned maximal minor of the constraint forms at ``y``
    (rows chosen by a column-pivoted QR of ``Aᵀ``) changes sign.  A generic crossing
    of the set where the forms lose rank changes the sign of every maximal minor, so
    a rank drop between two output samples is caught (the clean-intersection
    condition of :mod:`._constraints`)."""
    A0 = A_f(0.0, y[:n], y[n:2 * n])
    rows = np.sort(sla.qr(A0.T, pivoting=True, mode="r")[1][: A0.shape[1]])
    scale = abs(np.linalg.det(A0[rows])) or 1.0

    def event(t: float, y: np.ndarray) -> float:
        return float(np.linalg.det(A_f(t, y[:n], y[n:2 * n])[rows]) / scale)

    event.terminal = True
    return [event]


def _ida(sys: LagrangeDiracSystem, solve, M_f, r_f, P_f, y0: np.ndarray, t_end: float,
         t_eval: np.ndarray, rtol: float, atol: float) -> tuple[np.ndarray, np.ndarray]:
    r"""The same reduced equations as an index-1 DAE for SUNDIALS IDA
    (:func:`porthamiltonian.simulate.linalg.sundials.solve_ida`): unknowns ``(q, v, λ, W)``,

    .. math::  \dot q − v = 0,\quad M(q, v) [\dot v; λ] − r(q, v, t) = 0,\quad
               \dot W − ⟨F, v⟩ = 0,

    with ``λ`` algebraic.  Consistent ``(y0, ẏ0)`` come from the linear solve at
    ``t = 0``.
    """
    from ..simulate.linalg.sundials import solve_ida

    n, m = sys.n, sys.m
    q0, v0 = y0[:n], y0[n:2 * n]
    sol0 = solve(0.0, q0, v0)
    Y0 = np.concatenate([q0, v0, sol0[n:], [0.0]])
    YP0 = np.concatenate([v0, sol0[:n], np.zeros(m), P_f(0.0, q0, v0).ravel()])

    def residual(t: float, y: np.ndarray, yp: np.ndarray) -> np.ndarray:
        q, v, lam = y[:n], y[n:2 * n], y[2 * n:2 * n + m]
        M = M_f(t, q, v)
        dyn = M @ np.concatenate([yp[n:2 * n], lam]) - r_f(t, q, v).ravel()
        return np.concatenate([yp[:n] - v, dyn, [yp[-1] - P_f(t, q, v)[0, 0]]])

    out = solve_ida(residual, (0.0, float(t_end)), Y0, YP0,
                    algebraic=list(range(2 * n, 2 * n + m)), rtol=rtol, atol=atol,
                    t_eval=t_eval)
    if not out.success:
        t_last = float(out.t[-1]) if out.t.size else 0.0
        raise SimulationError(f"{sys.name}: IDA failed at t = {t_last:.6g}: {out.message}",
                              t_reached=t_last)
    Y = out.y
    return out.t, np.hstack([Y[:, :2 * n], Y[:, -1:]])
