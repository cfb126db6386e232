"""``porthamiltonian simulate MODEL`` (DESIGN.md §3): run a model file's simulation.

Defaults come from the model's ``simulate:`` section (``t_start``, ``t_end``, ``dt``,
``method``, ``inputs``, ``initial``); ``--t-end``, ``--dt`` and ``--method`` override
them.  ``--out`` writes CSV or JSON by the file's extension; without it a short
summary is printed.  When the run fails (:class:`SimulationError`) the results up
to the failure are still written to ``--out`` before the one-line error.
"""

from __future__ import annotations

import argparse
import pathlib
from typing import Any

import numpy as np

from ..errors import ModelError, SimulationError
from .result import SimulationResult
from .run import METHODS, simulate
from .scipy_ivp import SCIPY_METHODS

__all__ = ["add_arguments", "run_command"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of the ``simulate`` subcommand."""
    p.add_argument("model", help="model file (.yaml, .yml or .json)")
    p.add_argument("--t-end", type=float, help="end time in s (default: simulate.t_end)")
    p.add_argument("--dt", type=float, help="step in s (default: simulate.dt or span/1000)")
    p.add_argument("--method", help=f"one of {', '.join(METHODS + SCIPY_METHODS)} "
                   "(default: simulate.method or midpoint)")
    p.add_argument("--out", help="write the time series to FILE.csv or FILE.json")
    p.add_argument("--plot", help="save a plot (PNG/SVG/PDF)")


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
    try:
        res = simulate(
            system, (t0, float(t1)), dict(sim.get("initial") or {}), u=inputs or None,
            method=method or sim.get("method") or "midpoint",
            dt=args.dt if args.dt is not None else sim.get("dt"),
        )
    except SimulationError as err:
        if args.out and isinstance(err.partial, SimulationResult):
            _write(err.partial, args.out)
            raise SimulationError(f"{err} (results up to t = {err.t_reached:.6g} s written "
                                  f"to {args.out})", t_reached=err.t_reached,
                                  partial=err.partial) from None
        raise
    if args.out:
        _write(res, args.out)
    if args.plot:
        res.plot(args.plot)
    if not args.out:
        print(summary(res))
    return 0


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
        f"  max |power residual|: {np.max(np.abs(res.power_residual)):.3g} J",
    ])
