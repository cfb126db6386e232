"""``porthamiltonian validate MODEL [MODEL ...] [--strict]``: check model files and report
every problem found.

The file format first (every schema problem, located by line); element values that make
a law singular (zero capacitance, inertia, ratio); then — for the model kinds this
version compiles — the compilation to the IR (the structure checks) and the
``simulate:`` section set up as ``simulate`` would (method, steps, initial values after
merging, inputs, finite initial energy): what ``validate`` accepts, ``phs`` and
``simulate`` accept too.  The problems are listed one per line on stderr before the one
``error:`` line (with several files: each file's problems, then one ``error:`` line
naming the files that have them; the files are checked in one process, so the imports
are paid once).  ``--watch`` checks again on every change (:mod:`.watch`).  Physically
suspicious values (negative storage values, an energy not
bounded below) are ``warning:`` lines; ``--strict`` makes them problems.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import ModelError

__all__ = ["run_command"]


def run_command(args: argparse.Namespace) -> int:
    models = args.model if isinstance(args.model, list) else [args.model]
    strict = bool(getattr(args, "strict", False))
    interval = getattr(args, "interval", None)
    if getattr(args, "watch", False):
        from .watch import watch

        interval = 0.5 if interval is None else float(interval)
        if not 0.01 <= interval <= 3600:
            raise ModelError(f"--interval {interval:g}: give seconds between 0.01 and 3600")
        return watch(models, lambda: _round(models, strict), interval)
    if interval is not None:
        raise ModelError("--interval sets how often --watch looks for changes; add --watch")
    return _check_all(models, strict)


def _round(models: list[str], strict: bool) -> int:
    """One round of ``--watch``: as a plain run, its error line printed, not raised."""
    try:
        return _check_all(models, strict)
    except ModelError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2


def _check_all(models: list[str], strict: bool) -> int:
    if len(models) == 1:  # its summary (or why it cannot be read) is the error line
        summary = _report(models[0], strict)
        if summary:
            raise ModelError(summary)
        return 0
    failed = []
    for model in models:
        try:
            summary = _report(model, strict)
        except ModelError as err:  # unreadable (missing, too large, ...): the next one
            print(f"  {err}", file=sys.stderr)
            summary = str(err)
        if summary:
            failed.append(model)
    if failed:
        raise ModelError(f"{len(failed)} of {len(models)} model files have problems (listed "
                         f"above): {', '.join(failed)}")
    return 0


def _report(model: str, strict: bool) -> str:
    """Check ``model``: print ``<model>: valid`` (stdout), or its warnings and problems
    (stderr, one per line) and return their summary ("" when valid)."""
    from ..errors import SchemaError
    from ..io import load_model

    warnings: list[str] = []
    try:
        problems, warnings, note = _build_problems(load_model(model))
    except SchemaError as err:  # the file format: every problem found
        problems, note = err.problems, ""
    if strict:
        problems, warnings = problems + [f"{w} (--strict)" for w in warnings], []
    for w in warnings:
        print(f"warning: {w}", file=sys.stderr)
    if not problems:
        print(f"{model}: valid{note}")
        return ""
    for p in problems:
        print(f"  {p}", file=sys.stderr)
    n = len(problems)
    return f"{model}: {n} problem{'s' if n > 1 else ''} found (listed above)"


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
