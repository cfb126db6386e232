"""``porthamiltonian demo``: the main worked example, a DC motor (:mod:`porthamiltonian.demo`)."""

from __future__ import annotations

import argparse

__all__ = ["run_command"]


def run_command(args: argparse.Namespace) -> int:
    from ..demo import run

    run(out=args.out, plot=not args.no_plot)
    return 0
