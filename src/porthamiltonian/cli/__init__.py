"""The command line, ``porthamiltonian`` (also ``python -m porthamiltonian``): every command.

One module per command — :mod:`.validate`, :mod:`.phs`, :mod:`.simulate`, :mod:`.check`,
:mod:`.draw`, :mod:`.demo` — each with ``run_command(args)`` (the work; returns the exit
status).  :mod:`.commands` declares each command's options (argparse only, nothing heavy,
so ``--help`` starts fast) and imports a command's module only when it runs; :mod:`.app`
builds the parser and keeps the error discipline: a user error prints one ``error: …``
line on stderr and exits with status 2.  A new command is a new module here and one
:class:`~.commands.Command` in :data:`.commands.COMMANDS` (docs/design.md).
"""

from __future__ import annotations

from .app import main

__all__ = ["main"]
