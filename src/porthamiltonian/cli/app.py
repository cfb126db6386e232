"""``porthamiltonian`` (also ``python -m porthamiltonian``): the parser and the error discipline.

Error discipline (contract): a user error prints exactly one line ``error: …`` on
stderr and exits with status 2 — never a traceback.  ``validate`` lists every
problem it finds, one per line, then the one ``error:`` line.  Set
``PORTHAMILTONIAN_DEBUG=1`` to see tracebacks of internal errors.

The commands are listed in :data:`.commands.COMMANDS` (their options, declared without
importing anything heavy); each one's work lives in the sibling module of its name,
imported only when the command runs — so ``--help`` starts fast (docs/cli.md).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence

from ..errors import ModelError
from .commands import COMMANDS

EXIT_USER_ERROR = 2


class _Parser(argparse.ArgumentParser):
    """argparse with the one-line ``error:`` discipline."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"error: {message} (see '{self.prog} --help')\n")
        raise SystemExit(EXIT_USER_ERROR)


class _Version(argparse.Action):
    """``--version``: argparse's version action, with the version (package metadata,
    :mod:`importlib.metadata`) read only when asked for."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS,
                 default: str = argparse.SUPPRESS,
                 help: str = "show program's version number and exit") -> None:
        super().__init__(option_strings=option_strings, dest=dest, default=default, nargs=0,
                         help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace,
                 values: object, option_string: str | None = None) -> None:
        from .. import __version__

        print(f"porthamiltonian {__version__}")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="porthamiltonian",
        description="Port-based modeling, simulation and control of multi-physics systems.",
    )
    p.add_argument("--version", action=_Version)
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for command in COMMANDS:
        cmd = sub.add_parser(command.name, help=command.help)
        command.add_arguments(cmd)
        cmd.set_defaults(func=command.run)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):  # a command is required: say so, as argparse does
        parser.print_usage(sys.stderr)
        names = ", ".join(c.name for c in COMMANDS)
        print(f"error: no command given; choose one of {names} (porthamiltonian --help "
              "explains them; porthamiltonian demo runs the main example)", file=sys.stderr)
        return EXIT_USER_ERROR
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        if getattr(args, "limit", None) or getattr(args, "allow_path", None):
            from ..io.limits import allowing, parse_limits, raised  # only then: light --help

            with raised(parse_limits(args.limit)), allowing(args.allow_path):
                return func(args)
        return func(args)
    except ModelError as err:
        print(f"error: {_one_line(str(err))}", file=sys.stderr)
        return EXIT_USER_ERROR
    except FileNotFoundError as err:
        print(f"error: file not found: {err.filename}", file=sys.stderr)
        return EXIT_USER_ERROR
    except BrokenPipeError:  # `porthamiltonian … | head`: the reader left; nothing is wrong
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 — stays open until exit
        except OSError:
            pass
        return 0
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


#: longest error line: a message quoting a user's value is cut (never echo a whole input)
MAX_ERROR_LINE = 1000


def _one_line(text: str) -> str:
    line = " ".join(text[: 4 * MAX_ERROR_LINE].split())
    return line if len(line) <= MAX_ERROR_LINE else line[: MAX_ERROR_LINE - 1] + "…"
