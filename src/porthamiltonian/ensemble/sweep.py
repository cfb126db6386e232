r"""``sweep(model, params, ...)``: run a model for many parameter values, one dataset out.

The client (this process) makes the parameter points (:mod:`.space`), serializes the job
once (:mod:`.runner`), hands chunks of points to the executor (:mod:`.executors`: local
processes by default, or a Dask cluster) and stores each chunk's runs as it arrives
(:mod:`.store`: memory, or a netCDF file written run by run), merging the workers'
per-time moments (:mod:`.stats`) on the way.  The result is one :class:`xarray.Dataset`
with dimensions ``run`` × ``time`` (layout in :mod:`.store`).

Every run saves the same times, so the runs line up along ``time``: with fixed steps
(``dt``) every k-th step, about 501 in all; with adaptive steps 501 evenly spaced times
the step sequence lands on exactly (hard stops, not interpolation); or the ``times``
given (hard stops too).  A run that fails keeps its place
with ``success = 0`` and its error in ``message``; the others complete.
"""

from __future__ import annotations

import pathlib
import sys
import uuid
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import ModelError
from .executors import open_executor
from .runner import job_from, run_chunk, serialize
from .space import Points, from_table, grid, latin_hypercube, monte_carlo
from .stats import Moments, merge_moments
from .store import open_store

__all__ = ["sweep", "DEFAULT_TIMES"]

#: saved times per run when none are given
DEFAULT_TIMES = 501


def _load(model: Any, limits: Any, allow_paths: Any) -> Any:
    if isinstance(model, (str, pathlib.Path)):
        from ..io import load_model

        return load_model(model, limits=limits, allow_paths=allow_paths)
    return model


def _points(params: Any, samples: int | None, sampling: str, seed: int | None) -> Points:
    if isinstance(params, Points):
        return params
    if params is None:
        params = {}
    if isinstance(params, (str, pathlib.Path)) or hasattr(params, "to_numpy"):
        return from_table(params)
    if not isinstance(params, Mapping):
        raise ModelError("params is {name: values} (a grid, or ranges with samples=N), "
                         "a table (CSV file or DataFrame) or Points")
    if samples is None:
        return grid(params)
    if sampling in ("lhs", "latin_hypercube"):
        return latin_hypercube(params, samples, seed)
    if sampling in ("random", "monte_carlo"):
        return monte_carlo(params, samples, seed)
    raise ModelError(f"unknown sampling {sampling!r}; choose 'lhs' or 'random'")


def _check_names(model: Any, names: Sequence[str]) -> None:
    """Every swept name must be a parameter of the model (listing them if not)."""
    known = set(getattr(model, "parameters", {}) or {})
    free = getattr(model, "free_parameters", None)
    if callable(free):
        known |= {str(s) for s in free()}
    unknown = [n for n in names if n not in known]
    if unknown:
        listed = ", ".join(sorted(known)) or "none"
        raise ModelError(f"{unknown[0]!r} is not a parameter of the model; its parameters: "
                         f"{listed}")


def _span(model: Any, t_end: float | None, overrides: dict[str, Any]) -> tuple[float, float]:
    """The run's ``(t0, t1)`` (s), checked here once rather than failing in every run."""
    if "t_span" in overrides:
        try:
            t0, t1 = (float(v) for v in overrides["t_span"])
        except (TypeError, ValueError):
            raise ModelError(f"t_span must be (t0, t1) in s, got "
                             f"{overrides['t_span']!r}") from None
    else:
        sim = getattr(model, "simulate", None) or {}
        if not isinstance(sim, Mapping):
            sim = {}
        end = t_end if t_end is not None else sim.get("t_end")
        if end is None:
            raise ModelError("no end time: give t_end= (or the model file's simulate: t_end, "
                             "or t_span= for a system)")
        t0, t1 = float(sim.get("t_start") or 0.0), float(end)
    if not (np.isfinite(t0) and np.isfinite(t1) and t1 > t0):
        raise ModelError(f"the run must end after it starts, at finite times; got "
                         f"{t0:g} … {t1:g} s")
    return t0, t1


def _fixed_step(model: Any, overrides: dict[str, Any]) -> float | None:
    dt = overrides.get("dt")
    if dt is None:
        sim = getattr(model, "simulate", None)
        dt = sim.get("dt") if isinstance(sim, Mapping) else None
    if dt is None:
        return None
    from ..simulate.options import SimulationOptions

    return SimulationOptions(dt=dt).dt  # the simulator's own check of dt, here once


def _times(times: Any, n_times: int | None, span: tuple[float, float],
           dt: float | None = None) -> tuple[np.ndarray, int | None]:
    """The saved times, and the ``save_every`` that gives them when the steps are fixed
    (cheaper than stopping at given times: ``None`` means "stop at the times")."""
    if times is not None:
        arr = np.asarray(times, dtype=float).ravel()
        if arr.size == 0 or not np.all(np.isfinite(arr)) or np.any(np.diff(arr) <= 0):
            raise ModelError("times must be finite, strictly increasing times (s)")
        if arr[0] < span[0] or arr[-1] > span[1]:
            raise ModelError(f"times must lie within the run, {span[0]:g} … {span[1]:g} s")
        return arr, None
    n = DEFAULT_TIMES if n_times is None else n_times
    if isinstance(n, bool) or int(n) != n or n < 2:
        raise ModelError(f"the number of saved times must be an integer ≥ 2, got {n_times!r}")
    steps = (span[1] - span[0]) / dt if dt else 0.0
    if steps >= 1 and abs(steps - round(steps)) <= 1e-9 * steps:
        # fixed steps landing on the end: every k-th step, as the run saves them itself
        every = max(1, -(-round(steps) // (int(n) - 1)))
        grid = span[0] + dt * np.arange(0, round(steps) + 1, every)
        if grid[-1] < span[1] - 1e-9 * dt:
            grid = np.append(grid, span[1])
        return grid, every
    return np.linspace(span[0], span[1], int(n)), None


def _chunks(points: Points, size: int) -> Iterator[list[tuple[int, dict[str, float]]]]:
    """Chunks of ``(index, point)`` made as the executor asks for them (a grid of
    millions of points is never one list of dicts)."""
    for a in range(0, len(points), size):
        yield [(k, points.row(k)) for k in range(a, min(len(points), a + size))]


def sweep(model: Any, params: Any = None, *, samples: int | None = None,
          sampling: str = "lhs", seed: int | None = 0, times: Any = None,
          n_times: int | None = None, t_end: float | None = None, keep: str = "series",
          variables: Sequence[str] | None = None,
          quantiles: Sequence[float] = (0.05, 0.5, 0.95), executor: Any = None,
          workers: int | None = None, chunk: int | None = None,
          out: str | pathlib.Path | None = None, progress: bool = True,
          limits: Mapping[str, Any] | None = None,
          allow_paths: Sequence[str | pathlib.Path] | None = None,
          **simulate_args: Any) -> Any:
    r"""Run ``model`` at every parameter point; one :class:`xarray.Dataset` of all runs.

    Parameters
    ----------
    model:
        A model file's path, a loaded model (:func:`porthamiltonian.io.load_model`), or a
        :class:`~porthamiltonian.PHS` / :class:`~porthamiltonian.DescriptorPHS` (then
        ``t_span``, ``x0``, ``u`` … go in ``simulate_args``).
    params:
        ``{name: values}`` — the grid of every combination; with ``samples=N``,
        ``{name: range}`` where a range is ``(low, high)``, a list of values or a frozen
        ``scipy.stats`` distribution; or a table (CSV path, DataFrame); or
        :class:`~.space.Points`.
    samples, sampling, seed:
        ``N`` points by ``"lhs"`` (Latin hypercube, default) or ``"random"`` (Monte
        Carlo), seeded.
    times, n_times, t_end:
        The saved times (s) every run shares (default ``n_times = 501`` evenly spaced
        over the run); ``t_end`` overrides a model file's end time.
    keep:
        ``"series"`` keeps every series over time; ``"summary"`` keeps final values,
        per-run figures and the per-time moments only (the series never leave the
        workers; quantiles then need ``"series"``).
    variables:
        The series to keep (default: states, inputs, outputs, shown co-energies, H,
        powers and the power residual).
    quantiles:
        Quantiles per time point over the successful runs (``keep="series"``).
    executor, workers, chunk:
        ``None``/``"processes"`` (a local pool of ``workers`` processes), ``"serial"``,
        a :class:`dask.distributed.Client` or a scheduler address ``"tcp://host:8786"``;
        ``chunk`` runs per task (default: about four tasks per worker, at most 32).
    out:
        A ``.nc`` file: the dataset is written there while the runs finish (memory stays
        bounded) and returned opened lazily.
    progress:
        A tqdm bar over the runs on a terminal; the Dask dashboard's address is printed.

    Returns the dataset (layout in :mod:`porthamiltonian.ensemble.store`).  Raises
    :class:`ModelError` for a name that is not a parameter, bad points or options, and
    when every run failed (with the first run's error; the file is still written).
    """
    if keep not in ("series", "summary"):
        raise ModelError(f"keep must be 'series' or 'summary', got {keep!r}")
    qs = tuple(float(q) for q in quantiles)
    if any(not 0.0 <= q <= 1.0 for q in qs):
        raise ModelError(f"quantiles must lie in [0, 1], got {list(quantiles)}")
    if keep == "summary":
        qs = ()
    from ..simulate.output.export import _need

    _need("xarray", "sweep()")
    model = _load(model, limits, allow_paths)
    points = _points(params, samples, sampling, seed)
    _check_names(model, points.names)
    overrides = dict(simulate_args)
    if t_end is not None:
        overrides["t_end"] = t_end
    grid_times, every = _times(times, n_times, _span(model, t_end, overrides),
                               _fixed_step(model, overrides))
    if every is not None:
        overrides["save_every"] = every
    token = uuid.uuid4().hex
    job = job_from(model, token=token, overrides=overrides, times=grid_times, keep=keep,
                   names=variables)
    payload = serialize(job)
    name = getattr(model, "name", "") or ""
    with open_executor(executor, workers) as pool:
        size = chunk or max(1, min(32, -(-len(points) // (4 * pool.n_workers))))
        if isinstance(size, bool) or int(size) != size or size < 1:
            raise ModelError(f"chunk must be a positive integer, got {chunk!r}")
        attrs = {"model": name, "design": points.design, "seed": points.seed,
                 "executor": pool.description, "keep": keep}
        store = open_store(out, points, grid_times, attrs)
        if progress and pool.kind == "dask":
            print(f"sweep: {len(points)} runs on {pool.description}", file=sys.stderr)
        bar = _bar(len(points), progress)
        moments: dict[str, Moments] = {}
        try:
            for _, (records, part) in pool.map_unordered(run_chunk, _chunks(points, int(size)),
                                                         token, payload):
                store.add(records)
                merge_moments(moments, part)
                if bar is not None:
                    bar.update(len(records))
        except BaseException:
            if hasattr(store, "abort"):
                store.abort()
            raise
        finally:
            if bar is not None:
                bar.close()
        ds = store.finish(moments, qs)
    if store.failed == len(points):
        first = str(ds["message"].values[0])
        raise ModelError(f"all {len(points)} runs failed; the first: {first}"
                         + (f" (the dataset is in {out})" if out else ""))
    return ds


def _bar(total: int, progress: bool) -> Any:
    if not progress or not getattr(sys.stderr, "isatty", lambda: False)():
        return None
    from tqdm.auto import tqdm

    return tqdm(total=total, unit="run", desc="sweep", file=sys.stderr)
