"""``porthamiltonian validate MODEL [--strict]``: check a model file and report every
problem found.

The file format first (every schema problem, located by line); element values that make
a law singular (zero capacitance, inertia, ratio); then — for the model kinds this
version compiles — the compilation to the IR (the structure checks) and the
``simulate:`` section set up as ``simulate`` would (method, steps, initial values after
merging, inputs, finite initial energy): what ``validate`` accepts, ``phs`` and
``simulate`` accept too.  The problems are listed one per line on stderr before the one
``error:`` line.  Physically suspicious values (negative storage values, an energy not
bounded below) are ``warning:`` lines; ``--strict`` makes them problems.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import ModelError

__all__ = ["run_command"]


def run_command(args: argparse.Namespace) -> int:
    from ..errors import SchemaError
    from ..io import load_model

    warnings: list[str] = []
    try:
        problems, warnings, note = _build_problems(load_model(args.model))
    except SchemaError as err:  # the file format: every problem found
        problems, note = err.problems, ""
    if getattr(args, "strict", False):
        problems, warnings = problems + [f"{w} (--strict)" for w in warnings], []
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
    if problems:
        for p in problems:
            print(f"  {p}", file=sys.stderr)
        n = len(problems)
        raise ModelError(f"{args.model}: {n} problem{'s' if n > 1 else ''} found (listed above)")
    print(f"{args.model}: valid{note}")
    return 0


def _build_problems(model: Any) -> tuple[list[str], list[str], str]:
    """Problems and warnings found when compiling a schema-valid model to the IR and
    setting up its simulation; and a note for the success line."""
    from ..io.build import COMPILERS, build_system
    from ..io.preflight import energy_warnings, simulation_problems, value_problems

    errors, warnings = value_problems(model)
    if errors:  # a singular law would only fail again, less clearly, while compiling
        return errors, warnings, ""
    if model.kind not in COMPILERS:
        return [], warnings, (f" (file format checked; this version does not yet compile "
                              f"'{model.kind}' models to a port-Hamiltonian system)")
    try:
        system = build_system(model)
    except ModelError as err:
        return err.problems, warnings, ""
    warnings += energy_warnings(system, str(model.path or model.name))
    return simulation_problems(model, system), warnings, ""
