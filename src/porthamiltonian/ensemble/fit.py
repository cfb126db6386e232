r"""Parameter estimation: fit parameters of a model to measured time series.

:func:`fit` finds the parameters :math:`\theta` (``p`` of them) that minimize the
weighted sum of squares

.. math::

    S(\theta) = \sum_v \sum_i r_{vi}(\theta)^2, \qquad
    r_{vi}(\theta) = \frac{y_v(t_i;\theta) - \tilde y_{vi}}{\sigma_v},

where :math:`\tilde y_{vi}` is the measured value of variable ``v`` (a state, input,
output, co-energy or observable of the results: ``q``, ``mass.v``, ``L1.i``) at the data
time :math:`t_i`, :math:`y_v(t_i;\theta)` the simulated one (the run saves exactly the
data times, ``t_eval``) and :math:`\sigma_v` the noise level of variable ``v`` in its SI
unit.  The minimization is :func:`scipy.optimize.least_squares` (trust-region
reflective, bounds respected); ``cost`` is SciPy's :math:`\tfrac12 S(\theta)`.

**Noise levels.** Given as ``sigma`` (a number for every variable, or ``{variable:
number}``) they are used as they are.  Otherwise they are estimated in two stages, the
feasible weighted least squares of Seber & Wild (*Nonlinear Regression*, Wiley 1989,
§2.8.8): stage 1 weights each variable by the root mean square of its data (so
variables of different units are comparable); then :math:`\sigma_v` is set to the rms
residual of variable ``v`` at the stage-1 optimum and, when more than one variable is
measured, the fit is run again from there with these weights.  With one variable the
weight does not move the optimum and the second run is skipped.

**Sensitivities** :math:`J = \partial r/\partial\theta` are central differences,
column ``j`` with the step :math:`h_j = 10^{-4}\max(|\theta_j|, 10^{-2}\,\bar\theta_j)`
(:math:`\bar\theta_j` the parameter's typical size: its guess, else half its bound
width), one-sided where a bound is nearer than :math:`h_j`.  The truncation error is
:math:`O(h^2)`, about 1e-8 relative; the step is large enough that the error of an
adaptive integration (relative ``rtol``, 1e-6 by default) changes a sensitivity by at
most about ``rtol``/1e-4 — give ``rtol=1e-9`` for sharper intervals, or a fixed step
``dt``, whose results are smooth in the parameters.

**Confidence intervals** are the linearized (Gauss–Newton) ones of Bates & Watts,
*Nonlinear Regression Analysis and Its Applications* (Wiley 1988, §2.3):

.. math::

    \hat C = s^2 (J^\top J)^{-1},\quad s^2 = \frac{S(\hat\theta)}{m - p},\quad
    \hat\theta_j \pm t_{m-p,\,0.975}\sqrt{\hat C_{jj}},

``m`` the number of measured values, :math:`t_{m-p,0.975}` the Student-t quantile.
With ``sigma`` given, :math:`s^2` should come out near 1 (it is reported; far from 1
says the noise levels or the model are off).  :math:`J^\top J` is inverted through the
SVD of :math:`J D` (:math:`D` the parameters' sizes, so units do not matter); singular
values below :data:`RANK_TOL` times the largest mean directions the data cannot
resolve: the parameters along them are named *not identifiable* (two that enter only
as a product, or m, c, k of a free response, which only fixes their ratios) and get no
interval, instead of a meaningless one.

**Failures.** A run that fails at a trial point (a :class:`SimulationError`, values the
model refuses, NaN) is a residual far above any real one, so the optimizer steps back;
when the best point itself fails the result says so (``success`` false).

**Multi-start.** ``starts = N`` begins from the guess and ``N − 1`` points of a seeded
Latin hypercube in the bounds (:mod:`scipy.stats.qmc`; log-scaled where ``0 < low`` and
``high/low`` ≥ 100), each a whole ``least_squares`` run, on the executor of
:func:`~.executors.open_executor` (local processes, ``"serial"`` or a Dask cluster);
every start's cost is recorded.  The starts stop at a relative cost change of
:data:`SCREEN_TOL` (1e-6: a start caught in a local minimum with large residuals
converges only linearly, and needs no more digits to be ranked); the best is then
polished from there at :data:`POLISH_TOL` (1e-8) with the final weights.
"""

from __future__ import annotations

import math
import os
import pathlib
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

import numpy as np

from ..errors import ModelError
from . import runner
from .fit_data import Bounds, Data, parse_params, read_data, unit_scale
from .fit_objective import (
    FD_STEP,
    ROLES,
    RUN_ERRORS,
    STORED,
    Objective,
    Outcome,
    Problem,
    Target,
    solve,
    start_task,
)
from .fit_report import FitResult, Series, statistics

__all__ = ["fit", "FitResult", "RANK_TOL", "FD_STEP", "SCREEN_TOL", "POLISH_TOL"]

#: ``ftol`` and ``xtol`` of least_squares: the starts of a multi-start, the final fit
SCREEN_TOL, POLISH_TOL = 1e-6, 1e-8
#: singular values of the scaled Jacobian below this times the largest are rank-deficient
RANK_TOL = 1e-6


# ---------------------------------------------------------------------------- set-up
def _load(model: Any) -> tuple[Any, list[str], str]:
    """``(model or system, parameter names, display name)``."""
    from ..io.model import Model

    if isinstance(model, (str, os.PathLike)):
        from ..io import load_model

        if not pathlib.Path(model).is_file():
            raise ModelError(f"model file {model} not found")
        model = load_model(model)
    if isinstance(model, Model):
        return model, list(model.parameters), model.name
    if not hasattr(model, "with_parameters") or not hasattr(model, "parameters"):
        raise ModelError(f"cannot fit a {type(model).__name__}: give a model file, a loaded "
                         "model (porthamiltonian.io.load_model) or a PHS / DescriptorPHS")
    names = list(model.parameters)
    free = getattr(model, "free_parameters", None)
    if callable(free):
        names += [str(n) for n in free() if str(n) not in names]
    return model, names, getattr(model, "name", "") or type(model).__name__


def _overrides(model: Any, data: Data, t_end: float | None,
               simulate_overrides: dict[str, Any]) -> dict[str, Any]:
    """The run's arguments: it covers the data times exactly (ModelError otherwise)."""
    from ..io.model import Model

    t_first, t_last = float(data.t[0]), float(data.t[-1])
    over = dict(simulate_overrides)
    for key in ("t_eval", "stream", "save_every"):
        if key in over:
            raise ModelError(f"{key}= is set by fit (the run saves the data times); leave it out")
    if t_end is not None and t_end < t_last:
        raise ModelError(f"the data run to t = {t_last:g} s, past t_end = {t_end:g} s; give "
                         f"t_end ≥ {t_last:g} or drop the later rows")
    if isinstance(model, Model):
        t0 = float((model.simulate or {}).get("t_start") or 0.0)
        where = "the model's simulate.t_start"
        over["t_end"] = float(t_end if t_end is not None else t_last)
    else:
        span = over.setdefault("t_span", (0.0, float(t_end if t_end is not None else t_last)))
        try:
            t0, t1 = (float(v) for v in span)
        except (TypeError, ValueError):
            raise ModelError(f"t_span={span!r}: give (t0, t1) in s") from None
        where = "t_span"
        if t_last > t1:
            raise ModelError(f"the data run to t = {t_last:g} s, past the end of t_span = "
                             f"({t0:g}, {t1:g}) s; give a longer t_span")
    if t_first < t0:
        raise ModelError(f"the data start at t = {t_first:g} s, before the run starts at "
                         f"{t0:g} s ({where}); drop the earlier rows or start the run earlier")
    return over


def _targets(res: Any, data: Data) -> tuple[tuple[Target, ...], np.ndarray]:
    """Each data column as a result variable, and the data converted to SI units."""
    variables = list(res.variables)
    out, cols = [], []
    for j, column in enumerate(data.columns):
        prefix, sep, rest = column.partition(":")
        role = ROLES.get(prefix) if sep else None
        name = rest if role else column
        match = [v for v in variables if v.name == name and (role is None or v.role == role)]
        if not match:
            listed = ", ".join(dict.fromkeys(v.name for v in variables))
            raise ModelError(f"{data.source}: column {column!r} is not a variable of the "
                             f"model's results; its variables: {listed} (x:, u:, y: prefixes "
                             "choose a state, input or output of the same name)")
        v = match[0]
        scale, offset = unit_scale(data.units[j], v.unit, f"{data.source}: column {column!r}")
        out.append(Target(column, v.name, role or (v.role if v.role in STORED else None),
                           v.unit, v.kind))
        cols.append(data.values[:, j] * scale + offset)
    return tuple(out), np.column_stack(cols)


def _sigma(sigma: Any, targets: Sequence[Target]) -> np.ndarray | None:
    """The given noise levels (SI), one per variable; ``None`` when to be estimated."""
    if sigma is None:
        return None
    names = [t.column for t in targets]
    if isinstance(sigma, Mapping):
        unknown = [k for k in sigma if k not in names]
        if unknown:
            raise ModelError(f"sigma: {unknown[0]!r} is not a measured variable; they are "
                             f"{', '.join(names)}")
        missing = [n for n in names if n not in sigma]
        if missing:
            raise ModelError(f"sigma: no noise level for {', '.join(missing)}; give one for "
                             "every measured variable, or leave sigma out to estimate them")
        given = [sigma[n] for n in names]
    else:
        given = [sigma] * len(names)
    out = []
    for n, s in zip(names, given, strict=True):
        if isinstance(s, bool) or not isinstance(s, (int, float, np.number)) \
                or not (math.isfinite(float(s)) and float(s) > 0):
            raise ModelError(f"sigma of {n}: must be a positive number (its noise level, in its "
                             f"unit), got {s!r}")
        out.append(float(s))
    return np.array(out)


def _typical(b: Bounds) -> np.ndarray:
    width = np.where(b.bounded, 0.5 * (b.high - b.low), 1.0)
    return np.where(b.guess != 0.0, np.abs(b.guess), width)


def _start_points(b: Bounds, starts: int, seed: int) -> list[np.ndarray]:
    """The guess, then ``starts − 1`` Latin-hypercube points in the bounds."""
    points = [b.guess.copy()]
    if starts > 1:
        from scipy.stats import qmc

        unit = qmc.LatinHypercube(d=b.guess.size, seed=seed).random(starts - 1)
        lo = np.where(b.log, np.log(np.where(b.log, b.low, 1.0)), b.low)
        hi = np.where(b.log, np.log(np.where(b.log, b.high, 1.0)), b.high)
        for u in unit:
            x = lo + u * (hi - lo)
            points.append(np.where(b.log, np.exp(x), x))
    return points


def _parameter_units(model: Any, names: Sequence[str]) -> dict[str, str]:
    """SI units of parameters the model file wrote with one (``8 N/m`` → ``N/m``,
    ``10 mH`` → ``H``)."""
    from ..io.units import convert, describe, dim_of_unit, split_quantity

    doc = getattr(model, "document", None)
    params = doc.get("parameters") if isinstance(doc, Mapping) else None
    out: dict[str, str] = {}
    for n in names:
        try:
            given = split_quantity(params.get(n)) if isinstance(params, Mapping) else None
            if given is None:
                continue
            unit = given[1]
            if convert("1", unit).si != 1.0 or convert("0", unit).si != 0.0:
                text = describe(dim_of_unit(unit))
                unit = text[text.find("(") + 1:-1] if text.endswith(")") else text
            out[n] = unit
        except ModelError:
            continue
    return out


# ------------------------------------------------------------------------------ fit
def fit(model: Any, data: Any, params: Mapping[str, Any], *,
        variables: Sequence[str] | None = None, sigma: Any = None, starts: int = 1,
        seed: int = 0, executor: Any = None, workers: int | None = None,
        t_end: float | None = None,
        progress: Callable[[int, int, float], None] | None = None,
        **simulate_overrides: Any) -> FitResult:
    r"""Fit ``params`` of ``model`` to the measured ``data`` (module docstring).

    Parameters
    ----------
    model:
        A model file, a loaded model (:func:`porthamiltonian.io.load_model`), or a
        :class:`~porthamiltonian.PHS` / :class:`~porthamiltonian.DescriptorPHS` — then
        ``simulate_overrides`` hold :func:`~porthamiltonian.simulate`'s ``x0``, ``u`` …
        (``t_span`` defaults to ``(0, last data time)``).
    data:
        A CSV file, a :class:`pandas.DataFrame` or ``{"t": times, name: values}``: the
        times ``t`` (s) and one column per measured variable (``q``, ``mass.v``;
        ``x:``/``u:``/``y:`` pick a state, input or output); a header ``q [mm]`` gives
        the column's unit, checked against the variable's and converted to SI
        (:mod:`.fit_data`).
    params:
        ``{name: guess}``, ``{name: (low, high)}`` or ``{name: (low, high, guess)}``.
    variables:
        The data columns to fit (default: all).
    sigma:
        Noise level (SI) of every variable, or ``{column: level}``; default: estimated.
    starts, seed:
        Multi-start: the guess and ``starts − 1`` Latin-hypercube points in the bounds.
    executor, workers:
        Where the starts run (:func:`~.executors.open_executor`); one start runs here.
    t_end:
        End of a model file's run (s); default the last data time.
    progress:
        ``progress(done, starts, cost)`` after each finished start.
    simulate_overrides:
        Passed to the simulation: ``method``, ``dt``, ``rtol``, ``atol`` …

    Returns a :class:`FitResult`.  Raises :class:`ModelError` for every bad input
    (naming it and the fix) and when no start gives a run that works.
    """
    if isinstance(starts, bool) or not isinstance(starts, (int, np.integer)) or starts < 1:
        raise ModelError(f"starts must be a positive integer, got {starts!r}")
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ModelError(f"seed must be a non-negative integer, got {seed!r}")
    target, known, title = _load(model)
    measured = read_data(data)
    if variables is not None:
        measured = measured.select(list(variables))
    bounds = parse_params(params, known)
    if starts > 1 and not np.all(bounds.bounded):
        free = [n for n, ok in zip(bounds.names, bounds.bounded, strict=True) if not ok]
        raise ModelError(f"starts={starts} draws starting points in the bounds, but "
                         f"{', '.join(free)} has none; give (low, high) or (low, high, guess)")
    m, p = measured.values.size, len(bounds.names)
    if m <= p:
        raise ModelError(f"{measured.source}: {m} measured values for {p} parameters; a fit "
                         "needs more values than parameters (more rows or variables)")
    over = _overrides(target, measured, t_end, simulate_overrides)
    token = uuid.uuid4().hex
    job = runner.job_from(target, token=token, overrides=over, times=measured.t,
                          keep="series", names=None)
    payload = runner.serialize(job)
    prep = runner.prepared(token, payload)
    res0 = _first_run(prep, bounds)
    targets, values = _targets(res0, measured)
    given = _sigma(sigma, targets)
    scale = np.sqrt(np.mean(values ** 2, axis=0))
    problem = Problem(bounds, _typical(bounds), targets, measured.t, values,
                       given if given is not None else np.where(scale > 0, scale, 1.0),
                       tol=SCREEN_TOL if starts > 1 else POLISH_TOL)
    outcomes = _run_starts(prep, problem, _start_points(bounds, int(starts), int(seed)),
                           token, payload, executor, workers, progress)
    ok = [o for o in outcomes if math.isfinite(o.cost)]
    if not ok:
        raise ModelError(f"the fit found no parameter values at which the model runs over the "
                         f"data: {outcomes[0].failure}; check the bounds and the guess")
    best = min(ok, key=lambda o: o.cost)
    nsim = sum(o.nsim for o in outcomes)
    final = best
    polish = starts > 1
    problem = replace(problem, tol=POLISH_TOL)
    if given is None:  # stage 2: noise levels from the residuals, refit when they weigh
        sim = Objective(prep, problem).simulate(best.x)
        nsim += 1
        if sim is not None:
            rms = np.sqrt(np.mean((sim - values) ** 2, axis=0))
            tiny = 1e-12 * np.where(scale > 0, scale, 1.0)
            problem = replace(problem, sigma=np.maximum(rms, tiny))
            polish = polish or len(targets) > 1
    if polish:  # from the best start, with the final weights and tolerance
        final = solve(prep, problem, best.x)
        nsim += final.nsim
        if not math.isfinite(final.cost):  # keep the best start's point
            final = best
    obj = Objective(prep, problem)
    r = obj.residual(final.x)
    sim = None if r is None else r.reshape(values.shape, order="F") * problem.sigma + values
    jac = obj.jacobian(final.x, strict=True) if r is not None else None
    nsim += obj.nsim
    stats = statistics(jac, r, final.x, bounds, problem.typical, RANK_TOL)
    message = final.message
    if r is None:
        message = f"the simulation fails at the best point found: {obj.failure}"
    success = final.success and r is not None
    var_units = {tg.column: tg.unit for tg in targets}
    series = Series(measured.t, {tg.column: values[:, k] for k, tg in enumerate(targets)},
                    {tg.column: sim[:, k] for k, tg in enumerate(targets)} if sim is not None
                    else {}, var_units, {tg.column: tg.kind for tg in targets})
    starts_log = [{"x0": dict(zip(bounds.names, map(float, o.x0), strict=True)),
                   "x": dict(zip(bounds.names, map(float, o.x), strict=True)),
                   "cost": o.cost, "success": o.success, "nsim": o.nsim,
                   "message": o.failure or o.message} for o in outcomes]
    rms = {tg.column: float(np.sqrt(np.mean((sim[:, k] - values[:, k]) ** 2)))
           if sim is not None else math.nan for k, tg in enumerate(targets)}
    return FitResult(
        names=bounds.names, values=dict(zip(bounds.names, map(float, final.x), strict=True)),
        stderr=stats.stderr, ci95=stats.ci95, covariance=stats.covariance,
        correlation=stats.correlation, cost=0.5 * float(r @ r) if r is not None else math.inf,
        rms=rms, nfev=nsim, success=success, message=message, starts=starts_log,
        sigma={tg.column: float(s) for tg, s in zip(targets, problem.sigma, strict=True)},
        sigma_estimated=given is None, dof=m - p, s2=stats.s2,
        non_identifiable=stats.non_identifiable, null_directions=stats.null_directions,
        at_bound=stats.at_bound, units=_parameter_units(target, bounds.names),
        model=title, source=measured.source, series=series)


def _first_run(prep: Any, bounds: Bounds) -> Any:
    """A run at the guess (else at the model's own values), whose variables name the
    data columns; :class:`ModelError` when neither runs."""
    guess = {n: float(v) for n, v in zip(bounds.names, bounds.guess, strict=True)}
    try:
        return runner.simulate_at(prep, guess)
    except RUN_ERRORS as err:
        first = f"{type(err).__name__}: {err}"
    try:
        return runner.simulate_at(prep, {})
    except RUN_ERRORS:
        pass
    raise ModelError(f"the model does not run at the initial guess "
                     f"({', '.join(f'{k} = {v:g}' for k, v in guess.items())}): {first}")


def _run_starts(prep: Any, problem: Problem, points: list[np.ndarray], token: str,
                payload: bytes, executor: Any, workers: int | None,
                progress: Callable[[int, int, float], None] | None) -> list[Outcome]:
    """Every start's outcome, in start order; one start runs in this process."""
    outcomes: list[Outcome | None] = [None] * len(points)
    if len(points) == 1:
        outcomes[0] = solve(prep, problem, points[0])
        if progress is not None:
            progress(1, 1, outcomes[0].cost)
        return [o for o in outcomes if o is not None]
    from .executors import open_executor

    with open_executor(executor, workers) as pool:
        for done, (k, outcome) in enumerate(
                pool.map_unordered(start_task, points, token, payload, problem), start=1):
            outcomes[k] = outcome
            if progress is not None:
                progress(done, len(points), outcome.cost)
    return [o for o in outcomes if o is not None]

