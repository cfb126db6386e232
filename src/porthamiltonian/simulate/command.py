"""``porthamiltonian simulate MODEL`` (DESIGN.md §3): run a model file's simulation.

Defaults come from the model's ``simulate:`` section (``t_start``, ``t_end``, ``dt``,
``method``, ``inputs``, ``initial``); ``--t-end``, ``--dt`` and ``--method`` override
them; without any ``dt`` the steps are adaptive (``--rtol``, ``--atol``).  ``--out``
writes CSV or JSON by the file's extension; a CSV file is written while the run goes
(streaming: memory stays bounded however long the run) unless ``--plot`` needs the
series in memory.  ``--save-every N`` keeps every N-th step.  Without ``--out`` a
short summary is printed.  Runs longer than a few seconds show a progress bar on
stderr when it is a terminal.  When the run fails (:class:`SimulationError`) the
results up to the failure are still in ``--out`` before the one-line error.
"""

from __future__ import annotations

import argparse
import pathlib
from typing import Any

import numpy as np

from ..errors import ModelError, SimulationError
from .progress import ProgressBar
from .result import SimulationResult
from .run import METHODS, simulate
from .scipy_ivp import SCIPY_METHODS

__all__ = ["add_arguments", "run_command"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of the ``simulate`` subcommand."""
    p.add_argument("model", help="model file (.yaml, .yml or .json)")
    p.add_argument("--t-end", type=float, help="end time in s (default: simulate.t_end)")
    p.add_argument("--dt", type=float,
                   help="fixed step in s (default: simulate.dt; without one, adaptive steps)")
    p.add_argument("--method", help=f"one of {', '.join(METHODS + SCIPY_METHODS)} "
                   "(default: simulate.method or midpoint)")
    p.add_argument("--rtol", type=float, default=1e-6,
                   help="relative local error tolerance of adaptive steps (default 1e-6)")
    p.add_argument("--atol", type=float, default=1e-9,
                   help="absolute local error tolerance of adaptive steps (default 1e-9)")
    p.add_argument("--save-every", type=int, default=1, metavar="N",
                   help="save every N-th step (and the last); default 1")
    p.add_argument("--out", help="write the time series to FILE.csv (streamed) or FILE.json")
    p.add_argument("--plot", help="save a plot (PNG/SVG/PDF)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def run_command(args: argparse.Namespace) -> int:
    """Run the subcommand; user errors raise :class:`ModelError` (exit 2 in ``cli.main``)."""
    from ..build import build_system
    from ..descriptor import DescriptorPHS
    from ..io import load_model

    if args.out and pathlib.Path(args.out).suffix.lower() not in (".csv", ".json"):
        raise ModelError(f"--out {args.out}: give a file ending in .csv or .json")
    method = args.method
    if method is not None and method not in METHODS + SCIPY_METHODS:
        raise ModelError(f"unknown method {method!r}; choose one of "
                         f"{', '.join(METHODS + SCIPY_METHODS)}")
    model = load_model(args.model)
    system = build_system(model)
    if isinstance(system, DescriptorPHS):
        system = system.to_phs()
    sim: dict[str, Any] = model.simulate or {}
    t0 = float(sim.get("t_start") or 0.0)
    t1 = args.t_end if args.t_end is not None else sim.get("t_end")
    if t1 is None:
        raise ModelError(f"{args.model}: no end time; give --t-end or a simulate: section "
                         "with t_end")
    values = model.parameter_values()
    inputs = {name: expr.xreplace(values) for name, expr in (sim.get("inputs") or {}).items()}
    if args.save_every < 1:
        raise ModelError(f"--save-every must be a positive integer, got {args.save_every}")
    stream = args.out if args.out and args.out.lower().endswith(".csv") and not args.plot \
        else None
    modulation = {name: _signal(spec) for name, spec in (sim.get("modulation") or {}).items()}
    bar = None if args.no_progress else ProgressBar(t0, float(t1))
    try:
        res = simulate(
            system, (t0, float(t1)), dict(sim.get("initial") or {}), u=inputs or None,
            method=method or sim.get("method") or "midpoint",
            dt=args.dt if args.dt is not None else sim.get("dt"), rtol=args.rtol,
            atol=args.atol, save_every=args.save_every, progress=bar, stream=stream,
            modulation=modulation or None,
        )
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
    if args.out and stream is None:
        _write(res, args.out)
    if args.plot:
        res.plot(args.plot)
    if not args.out:
        print(summary(res))
    return 0


def _signal(spec: tuple) -> Any:
    """A checked ``simulate.modulation`` entry (io.simulate_section) as a signal."""
    from .modulation import PiecewiseConstant, pwm

    if spec[0] == "pwm":
        _, period, duty, t0 = spec
        return pwm(period, duty, t0)
    _, times, values = spec
    return PiecewiseConstant(times, values)


def _write(res: SimulationResult, path: str) -> None:
    if path.lower().endswith(".json"):
        res.to_json(path)
    else:
        res.to_csv(path)


def summary(res: SimulationResult) -> str:
    """Final state, energy change and the largest power residual, in a few lines."""
    final = ", ".join(f"{s} = {v:.6g}" for s, v in zip(res.states, res.x[-1], strict=True))
    dH = res.H[-1] - res.H[0]
    return "\n".join([
        f"{res.method}: {res.nsteps} steps, t = {res.t[0]:g} … {res.t[-1]:g} s",
        f"  final state: {final}",
        f"  energy: H = {res.H[0]:.6g} J → {res.H[-1]:.6g} J (change {dH:.6g} J; "
        f"supplied {np.sum(res.work_supplied):.6g} J, dissipated "
        f"{np.sum(res.work_dissipated):.6g} J)",
        f"  max |power residual|: "
        f"{res.extra.get('max_abs_power_residual', np.max(np.abs(res.power_residual))):.3g} J",
    ])
