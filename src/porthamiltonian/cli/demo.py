"""``porthamiltonian demo``: the main worked example, a DC motor (:mod:`porthamiltonian.demo`)."""

from __future__ import annotations

import argparse

__all__ = ["add_arguments", "run_command"]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options of ``demo``."""
    p.add_argument("--out", default="porthamiltonian-demo.png", help="plot file (PNG/SVG/PDF)")
    p.add_argument("--no-plot", action="store_true", help="print only")


def run_command(args: argparse.Namespace) -> int:
    from ..demo import run

    run(out=args.out, plot=not args.no_plot)
    return 0
