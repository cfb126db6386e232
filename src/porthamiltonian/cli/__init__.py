"""The command line, ``porthamiltonian`` (also ``python -m porthamiltonian``): every command.

One module per command — :mod:`.validate`, :mod:`.phs`, :mod:`.simulate`, :mod:`.check`,
:mod:`.draw`, :mod:`.demo` — each with ``add_arguments(parser)`` (its options) and
``run_command(args)`` (the work; returns the exit status).  :mod:`.app` builds the parser
from them and keeps the error discipline: a user error prints one ``error: …`` line on
stderr and exits with status 2.  A new command is a new module here and one line in
:data:`.app.COMMANDS` (docs/design.md).
"""

from __future__ import annotations

from .app import main

__all__ = ["main"]
