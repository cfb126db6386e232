"""``porthamiltonian draw MODEL --out FILE.svg|.png``: the bond graph as a picture.

Exit status: **2** (one ``error:`` line on stderr) for a user error — a model that
is not a bond graph, a structurally wrong graph, an output file with an unknown
extension; **0** otherwise.  Causality problems (dependent storages or sources,
storages fixed by sources, algebraic loops) are not errors here: they are what
the picture is for, so they are highlighted and also listed on stdout.
"""

from __future__ import annotations

import argparse
import pathlib

from ..bondgraph.draw import check_format, draw
from ..bondgraph.graph import BondGraph
from ..errors import ModelError

__all__ = ["run_command", "run_draw"]


def run_command(args: argparse.Namespace) -> int:
    return run_draw(args.model, args.out, causality=not args.no_causality)


def run_draw(path: str | pathlib.Path, out: str | pathlib.Path, causality: bool = True) -> int:
    """Load the model file ``path`` and draw its bond graph to ``out``.

    Returns 0; raises :class:`ModelError` for the user errors listed above.
    """
    from ..io import load_model

    check_format(out)  # before any work: a typo in --out is cheap to report
    model = load_model(path)
    if model.kind != "bondgraph":
        raise ModelError(f"{path}: 'draw' is for bond graphs, and this model is a "
                         f"'{model.kind}' model")
    d = draw(BondGraph.from_model(model), causality=causality, out=out)
    n_el, n_b = len(d.positions), len(d.bonds)
    print(f"{out}: {n_el} elements, {n_b} bonds"
          + (f", {len(d.highlighted)} highlighted" if d.highlighted else ""))
    if d.report is not None:
        for m in d.report.messages:
            print(f"  {m}")
    return 0
