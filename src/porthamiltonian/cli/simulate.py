"""``porthamiltonian simulate MODEL`` (docs/cli.md): run a model file's simulation.

Defaults come from the model's ``simulate:`` section (``t_start``, ``t_end``, ``dt``,
``method``, ``inputs`` — expressions or CSV tables —, ``initial``, ``modulation``,
``events``), read by :func:`porthamiltonian.io.simulation.simulation_arguments` exactly
as :func:`porthamiltonian.io.simulate_model` reads them; ``--t-end``, ``--dt`` and
``--method`` override them; without any ``dt`` the steps are adaptive (``--rtol``,
``--atol``).  ``--out`` writes CSV, JSON, netCDF (``.nc``) or Parquet (``.parquet``,
with the ``data`` extra) by the file's extension; a CSV file is
written while the run goes (streaming: memory stays bounded however long the run)
unless ``--plot`` needs the series in memory.  ``--save-every N`` keeps every N-th
step.  Without ``--out`` a short summary is printed, with the event times; JSON output
has them under ``"events"`` (``{name: {"t": [...], "states": {state: [...]}}}``).  A
terminal event ends the run (and the time series) at the event time.  Runs longer than
a few seconds show a progress bar on stderr when it is a terminal.  When the run fails
(:class:`SimulationError`) the results up to the failure are still in ``--out`` before
the one-line error.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

import numpy as np

from ..errors import ModelError, SimulationError
from ..quantities import pretty_unit
from ..simulate.output.progress import ProgressBar
from ..simulate.output.result import SimulationResult
from ..simulate.problem.problem import problem_kind
from ..simulate.registry import METHODS
from ..simulate.run import simulate

__all__ = ["run_command"]


def run_command(args: argparse.Namespace) -> int:
    """Run the subcommand; user errors raise :class:`ModelError` (exit 2 in ``cli.main``)."""
    from ..io import load_model
    from ..io.simulation import simulation_arguments, simulation_system

    if args.out:  # before the run: never an error after minutes of computing
        from ..simulate.output.export import check_destination

        check_destination(args.out)
    method = args.method
    if method is not None and method not in METHODS:
        raise ModelError(f"unknown method {method!r}; choose one of "
                         f"{', '.join(METHODS)}")
    if getattr(args, "plot_vars", None) and not args.plot:
        raise ModelError("--plot-vars chooses what --plot draws: give --plot FILE.png too")
    if args.save_every < 1:
        raise ModelError(f"--save-every must be a positive integer, got {args.save_every}")
    model = load_model(args.model)
    _warn(model, strict=getattr(args, "strict", False))
    system = simulation_system(model)
    run = simulation_arguments(model, system, t_end=args.t_end)
    run.update({k: v for k, v in (("method", method), ("dt", args.dt),
                                  ("max_steps", getattr(args, "max_steps", None)))
                if v is not None})
    # a CSV file is streamed, unless the plot needs the series or the system is a DAE
    # (whose driver keeps the multipliers beside the series)
    stream = args.out if args.out and args.out.lower().endswith(".csv") and not args.plot \
        and problem_kind(system) != "dae" else None
    bar = None if args.no_progress else ProgressBar(*run["t_span"])
    try:
        res = simulate(system, **run, rtol=args.rtol, atol=args.atol,
                       save_every=args.save_every, progress=bar, stream=stream)
    except OSError as err:  # the streamed CSV could not be written (disk full, removed …)
        raise ModelError(f"--out {args.out}: cannot write it ({err.strerror or err})") from None
    except SimulationError as err:
        if args.out and isinstance(err.partial, SimulationResult):
            if stream is None:
                _write(err.partial, args.out)
            raise SimulationError(f"{err} (results up to t = {err.t_reached:.6g} s written "
                                  f"to {args.out})", t_reached=err.t_reached,
                                  partial=err.partial) from None
        raise
    finally:
        if bar is not None:
            bar.close()
    if not res.model:  # a mechanism's DAE carries no name: the model file's
        res.model = model.name
    names = [getattr(g, "name", f"events[{k}]") for k, g in enumerate(run.get("events", []))]
    if args.out and stream is None:
        _write(res, args.out, names)
    if args.plot:
        res.plot(args.plot, vars=_plot_vars(args))
    if not args.out:
        print(summary(res, names))
    return 0


def _warn(model: Any, strict: bool) -> None:
    """Print the warnings ``validate`` gives (negative storage values); refuse singular
    element values; with ``--strict`` a warning is an error."""
    from ..io.preflight import value_problems

    errors, warnings = value_problems(model)
    if errors:
        raise ModelError(errors[0])
    if warnings and strict:
        raise ModelError(f"{warnings[0]} (--strict)")
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)


def _plot_vars(args: argparse.Namespace) -> list[str] | None:
    names = getattr(args, "plot_vars", None)
    return [n.strip() for n in names.split(",") if n.strip()] if names else None


def _write(res: SimulationResult, path: str, events: list[str] | None = None) -> None:
    from ..simulate.output.export import write_result

    try:
        write_result(res, path, events)
    except OSError as err:  # disk full, a file system gone read-only …
        raise ModelError(f"--out {path}: cannot write it ({err.strerror or err})") from None


def summary(res: SimulationResult, events: list[str] | None = None) -> str:
    """Final values of the physical variables (with units), energy change, the largest
    power residual and the event times, in a few lines."""
    final = final_values(res)
    dH = res.H[-1] - res.H[0]
    lines = [f"  event {name}: " + (", ".join(f"t = {t:.9g} s" for t in te[:10])
                                   + (f", … ({te.size} in all)" if te.size > 10 else "")
                                   if te.size else "no crossing")
             for name, te in zip(events or [], res.t_events, strict=False)]
    return "\n".join([
        f"{res.method}: {res.nsteps} steps, t = {res.t[0]:g} … {res.t[-1]:g} s",
        *([f"  {res.extra['method_choice']}"] if "method_choice" in res.extra else []),
        *_engine_line(res.extra),
        f"  final values: {final}",
        f"  energy: H = {res.H[0]:.6g} J → {res.H[-1]:.6g} J (change {dH:.6g} J; "
        f"supplied {np.sum(res.work_supplied):.6g} J, dissipated "
        f"{np.sum(res.work_dissipated):.6g} J)",
        f"  max |power residual|: "
        f"{res.extra.get('max_abs_power_residual', np.max(np.abs(res.power_residual))):.3g} J",
        *lines,
    ])


#: at most this many final values in the summary
_SUMMARY_VALUES = 16


def final_values(res: SimulationResult) -> str:
    """``"L1.i = 0.12 A, C1.v = 3.2 V"``: the shown variables at the last saved point
    (the states when the model shows nothing else), with their units."""
    names = list(res.shown) or list(res.states)
    units = {v.name: v.unit for v in res.variables}
    parts = []
    for name in names[:_SUMMARY_VALUES]:
        unit = units.get(name, "")
        parts.append(f"{name} = {float(res[name][-1]):.6g}"
                     + (f" {pretty_unit(unit)}" if unit else ""))
    if len(names) > _SUMMARY_VALUES:
        parts.append(f"… ({len(names)} in all; --out writes every series)")
    return ", ".join(parts)


def _engine_line(extra: dict) -> list[str]:
    """Which engine ran the steps (compiled or NumPy, and why not compiled)."""
    if extra.get("engine") == "numba":
        return [f"  engine: compiled (Numba; compile/load {extra.get('compile_time', 0.0):.2f} s)"]
    if "engine_reason" in extra:
        return [f"  engine: NumPy ({extra['engine_reason']})"]
    return []
