r"""One run of an ensemble, on whichever process executes it.

A :class:`Job` is everything a worker needs: the model (a loaded model file, or a
:class:`~porthamiltonian.PHS` / :class:`~porthamiltonian.DescriptorPHS` with its
:func:`~porthamiltonian.simulate` arguments), the common output times and what to keep.
The client serializes it once (cloudpickle, so input functions and lambdas travel too)
and every task carries the same bytes; each worker process deserializes and **compiles
the model once** (:func:`prepared`, cached by the job's token), then every parameter
point only swaps values:

* a model file: :meth:`Model.with_parameters` (so parameters defined by expressions in
  the swept ones follow), then the compiled system's ``with_parameters`` with the new
  values — nothing is derived or generated symbolically again (the compiled engine's
  kernels read parameters from a vector and are shared; the NumPy functions of the new
  values are made again, ~10–20 ms for a small model).  When a swept
  name is not a parameter of the compiled system (a mechanism assembled numerically, or
  a value the front-end folds in) the system is built again for that point: slower,
  never stale;
* a system: ``system.with_parameters(point)``.

:func:`run_point` returns a :class:`RunRecord`: the series on the common times (NaN
after a failure or a terminal event), final values, the energy-balance residual of the
run — :math:`\max_k |\Delta H_k - \int (u^\top y - d)\,dt|` over the steps, J — and,
when the run failed, the error's message (a failed run is a result, never dropped).
"""

from __future__ import annotations

import pickle
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ModelError
from .stats import Moments, merge_moments

__all__ = ["Job", "RunRecord", "prepared", "simulate_at", "run_point", "run_chunk",
           "serialize", "job_from"]


@dataclass(frozen=True)
class Job:
    """What every run of one ensemble shares (see the module docstring).

    ``model`` is a loaded model file or ``None``; ``system`` the compiled system when no
    model file is given; ``overrides`` keyword arguments of
    :func:`~porthamiltonian.simulate` (``t_end`` sets a model file's end time);
    ``times`` the common saved times (s); ``keep`` is ``"series"`` (every series over
    time) or ``"summary"`` (final values and run statistics only); ``names`` the series
    to keep (``None``: what :func:`~porthamiltonian.simulate.output.export.columns_of`
    exports by default — states, inputs, outputs, shown co-energies, H and the powers).
    """

    token: str
    model: Any = None
    system: Any = None
    overrides: dict[str, Any] = field(default_factory=dict)
    times: tuple[float, ...] = ()
    keep: str = "series"
    names: tuple[str, ...] | None = None


def serialize(job: Job) -> bytes:
    """The job as bytes for the workers: cloudpickle when installed (closures and
    lambdas in ``u`` survive), else pickle."""
    try:
        import cloudpickle
    except ImportError:  # pragma: no cover - cloudpickle comes with the dependencies
        dumps = pickle.dumps
    else:
        dumps = cloudpickle.dumps
    try:
        return dumps(job)
    except Exception as err:  # what cannot be pickled is the user's object: name it
        raise ModelError(f"the model or its simulation arguments cannot be sent to worker "
                         f"processes ({type(err).__name__}: {err}); give functions "
                         "defined at module level, or executor='serial'") from None


@dataclass
class _Prepared:
    job: Job
    system: Any
    system_parameters: frozenset[str]


#: per worker process: job token → the job with its compiled system (compiled once)
_CACHE: dict[str, _Prepared] = {}


def prepared(token: str, payload: bytes) -> _Prepared:
    """The job of ``token`` with its system compiled, from this process's cache."""
    hit = _CACHE.get(token)
    if hit is not None:
        return hit
    job: Job = pickle.loads(payload)
    if job.model is not None:
        from ..io.simulation import simulation_system

        system = simulation_system(job.model)
    else:
        system = job.system
    params = getattr(system, "parameters", None)
    names = frozenset(params) if hasattr(params, "keys") else frozenset()
    _CACHE.clear()  # one ensemble at a time per worker: do not hold old models
    _CACHE[token] = hit = _Prepared(job, system, names)
    return hit


def simulate_at(prep: _Prepared, values: dict[str, float]) -> Any:
    """Simulate the job at the parameter point ``values`` (name → number); returns the
    :class:`~porthamiltonian.simulate.SimulationResult` (a model file's run as
    :func:`~porthamiltonian.io.simulate_model` makes it: a mechanism's result is a
    :class:`~porthamiltonian.mechanics.MechanismResult`).  Raises what the model or the
    run raises (:class:`ModelError` for values the model refuses,
    :class:`SimulationError` for a run that fails)."""
    from ..simulate.run import simulate

    job = prep.job
    args = dict(job.overrides)
    if job.times and "save_every" not in args:
        args["t_eval"] = job.times
    if job.model is None:
        system = prep.system.with_parameters(values) if values else prep.system
        args.pop("t_end", None)
        return simulate(system, **args)
    from ..io.simulation import simulate_model, simulation_system

    model = job.model.with_parameters(values) if values else job.model
    if not values:
        system = prep.system
    elif set(values) <= prep.system_parameters:
        system = prep.system.with_parameters(
            {n: model.parameters[n] for n in prep.system_parameters if n in model.parameters})
    else:  # a value the compiled system does not take as a parameter: build again
        system = simulation_system(model)
    return simulate_model(model, system, **args)


@dataclass
class RunRecord:
    """The outcome of one run (see the module docstring); ``series`` is ``None`` when the
    job keeps summaries only, ``variables`` the exported variables (name, unit, kind …)
    in series order."""

    index: int
    ok: bool
    message: str = ""
    series: dict[str, np.ndarray] | None = None
    finals: dict[str, float] = field(default_factory=dict)
    energy_residual: float = float("nan")
    energy_balance: float = float("nan")
    t_reached: float = float("nan")
    nsteps: int = 0
    cpu_time: float = 0.0
    variables: tuple[Any, ...] = ()


def _saved_on_grid(t: np.ndarray, times: np.ndarray) -> bool:
    """Whether the run saved exactly the first ``t.size`` of ``times`` (to 1e-9 of the
    span: a fixed-step run's own sums of steps)."""
    n = t.size
    span = abs(times[-1] - times[0]) if times.size else 0.0
    return bool(n and n <= times.size
                and np.max(np.abs(t - times[:n])) <= 1e-9 * span)


def _on_grid(t: np.ndarray, y: np.ndarray, times: np.ndarray, same: bool) -> np.ndarray:
    """``y(t)`` on ``times``: the same values when the run saved exactly those times
    (``same``), linear interpolation otherwise (a terminal event's last point); NaN past
    the run."""
    out = np.full(times.size, np.nan)
    if same:
        out[:t.size] = y
    elif t.size:
        inside = times <= t[-1]
        out[inside] = np.interp(times[inside], t, y)
    return out


def _record(index: int, res: Any, times: np.ndarray,
            names: tuple[str, ...] | None) -> RunRecord:
    from ..simulate.output.export import columns_of

    cols = columns_of(res)
    if names is not None:
        wanted = set(names)
        cols = [c for c in cols if c.name in wanted]
    t = np.asarray(res.t, dtype=float)
    grid = times if times.size else t
    same = _saved_on_grid(t, grid)
    series = {c.name: _on_grid(t, c.values, grid, same) for c in cols}
    finals = {c.name: float(c.values[-1]) if c.values.size else float("nan") for c in cols}
    resid = np.asarray(res.power_residual, dtype=float)
    balance = float(res.H[-1] - res.H[0] - np.sum(res.work_supplied)
                    + np.sum(res.work_dissipated)) if len(res.H) else float("nan")
    return RunRecord(index, True, series=series, finals=finals,
                     energy_residual=float(np.max(np.abs(resid))) if resid.size else 0.0,
                     energy_balance=balance, t_reached=float(t[-1]) if t.size else float("nan"),
                     nsteps=int(getattr(res, "nsteps", 0)),
                     variables=tuple(c.variable for c in cols))


def run_point(prep: _Prepared, index: int, values: dict[str, float]) -> RunRecord:
    """One run; a failure is recorded with its message (and the partial series)."""
    from ..errors import SimulationError

    times = np.asarray(prep.job.times, dtype=float)
    start = time.process_time()
    try:
        res = simulate_at(prep, values)
    except SimulationError as err:
        rec = RunRecord(index, False, message=str(err))
        if err.partial is not None and hasattr(err.partial, "power_residual"):
            try:
                rec = _record(index, err.partial, times, prep.job.names)
            except Exception:  # a partial result too short to evaluate: the message stays
                rec = RunRecord(index, False)
            rec.ok, rec.message = False, str(err)
        rec.t_reached = float(err.t_reached) if err.t_reached is not None else float("nan")
    except ModelError as err:
        rec = RunRecord(index, False, message=str(err))
    except (ArithmeticError, ValueError, np.linalg.LinAlgError) as err:
        rec = RunRecord(index, False, message=f"{type(err).__name__}: {err}")
    else:
        rec = _record(index, res, times, prep.job.names)
    rec.cpu_time = time.process_time() - start
    return rec


def job_from(model: Any, *, token: str, overrides: dict[str, Any], times: Any,
             keep: str, names: Any) -> Job:
    """A :class:`Job` for a loaded model file or a system (see :class:`Job`)."""
    from ..io.model import Model

    kw = dict(token=token, overrides=dict(overrides),
              times=tuple(float(t) for t in np.asarray(times, dtype=float).ravel())
              if times is not None else (), keep=keep,
              names=tuple(names) if names is not None else None)
    if isinstance(model, Model):
        return Job(model=model, **kw)
    if not hasattr(model, "with_parameters"):
        raise ModelError(f"cannot sweep a {type(model).__name__}: give a model file, a "
                         "loaded model (porthamiltonian.io.load_model) or a PHS / "
                         "DescriptorPHS")
    return Job(system=model, **kw)


def run_chunk(token: str, payload: bytes, chunk: list[tuple[int, dict[str, float]]]
              ) -> tuple[list[RunRecord], dict[str, Moments]]:
    """The task a worker runs: the runs of ``chunk`` (``(index, point)`` pairs) and the
    per-time moments of their series over the successful ones (:mod:`.stats`).  With
    ``keep="summary"`` the series stay here: only the moments travel."""
    prep = prepared(token, payload)
    records = [run_point(prep, k, values) for k, values in chunk]
    moments: dict[str, Moments] = {}
    ok = [r for r in records if r.ok and r.series]
    for name in (ok[0].series if ok else {}):
        rows = [r.series[name] for r in ok if name in r.series]
        merge_moments(moments, {name: Moments.of(np.vstack(rows))})
    if prep.job.keep != "series":
        for r in records:
            r.series = None
    return records, moments
