"""``porthamiltonian validate MODEL``: check a model file and report every problem found.

The file format first (every schema problem, located by line), then — for the model
kinds this version compiles — the compilation to the IR (the structure checks).  The
problems are listed one per line on stderr before the one ``error:`` line.
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

    try:
        problems, note = _build_problems(load_model(args.model))
    except SchemaError as err:  # the file format: every problem found
        problems, note = err.problems, ""
    if problems:
        for p in problems:
            print(f"  {p}", file=sys.stderr)
        n = len(problems)
        raise ModelError(f"{args.model}: {n} problem{'s' if n > 1 else ''} found (listed above)")
    print(f"{args.model}: valid{note}")
    return 0


def _build_problems(model: Any) -> tuple[list[str], str]:
    """Problems found when compiling a schema-valid model to the IR (structure checks).

    Returns the problems (located by the compiler) and a note for the success line.
    """
    from ..io.build import COMPILERS, build_system

    if model.kind not in COMPILERS:
        return [], (f" (file format checked; this version does not yet compile "
                    f"'{model.kind}' models to a port-Hamiltonian system)")
    try:
        build_system(model)
    except ModelError as err:
        return err.problems, ""
    return [], ""
