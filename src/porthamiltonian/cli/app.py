"""``porthamiltonian`` (also ``python -m porthamiltonian``): the parser and the error discipline.

Error discipline (contract): a user error prints exactly one line ``error: …`` on
stderr and exits with status 2 — never a traceback.  ``validate`` lists every
problem it finds, one per line, then the one ``error:`` line.  Set
``PORTHAMILTONIAN_DEBUG=1`` to see tracebacks of internal errors.

The commands themselves live in the sibling modules, listed in :data:`COMMANDS`.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from types import ModuleType

from .. import __version__
from ..errors import ModelError
from . import check, demo, draw, phs, simulate, validate

EXIT_USER_ERROR = 2

#: (name, help, module) of every command, in the order ``--help`` lists them; each
#: module has ``add_arguments(parser)`` and ``run_command(args) -> int``
COMMANDS: tuple[tuple[str, str, ModuleType], ...] = (
    ("validate", "check a model file and report every problem found", validate),
    ("phs", "print the explicit port-Hamiltonian model", phs),
    ("simulate", "simulate a model file; time series to CSV/JSON", simulate),
    ("check", "causality of a bond graph, in words (SCAP)", check),
    ("draw", "draw a bond graph: half-arrows, causal strokes, problems", draw),
    ("demo", "run the main worked example (DC motor) and plot it", demo),
)


class _Parser(argparse.ArgumentParser):
    """argparse with the one-line ``error:`` discipline."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"error: {message} (see '{self.prog} --help')\n")
        raise SystemExit(EXIT_USER_ERROR)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="porthamiltonian",
        description="Port-based modeling, simulation and control of multi-physics systems.",
    )
    p.add_argument("--version", action="version", version=f"porthamiltonian {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, help_text, module in COMMANDS:
        cmd = sub.add_parser(name, help=help_text)
        module.add_arguments(cmd)
        cmd.set_defaults(func=module.run_command)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except ModelError as err:
        print(f"error: {_one_line(str(err))}", file=sys.stderr)
        return EXIT_USER_ERROR
    except FileNotFoundError as err:
        print(f"error: file not found: {err.filename}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except Exception as err:  # an internal bug: still one line unless debugging
        if os.environ.get("PORTHAMILTONIAN_DEBUG"):
            raise
        print(
            f"error: internal error ({type(err).__name__}: {_one_line(str(err))}); please "
            "report it with the model file (PORTHAMILTONIAN_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        return 1


def _one_line(text: str) -> str:
    return " ".join(text.split())
