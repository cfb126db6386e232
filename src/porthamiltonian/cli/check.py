"""``porthamiltonian check MODEL``: structure and causality of a bond graph, in words.

Exit status (the choice made here)
----------------------------------
* **2** (a :class:`~porthamiltonian.errors.ModelError`, one ``error:`` line on
  stderr) when the model is ill-posed: a structural error (the graph's
  :meth:`~porthamiltonian.bondgraph.BondGraph.check`), a model that is not a bond
  graph, or **dependent sources** (two sources setting the same effort or flow: no
  solution exists for general inputs).  The causality report is still printed on
  stdout first when it was computed.
* **0** otherwise, including when there are dependent storages, storages fixed by
  sources or algebraic loops.  These are modeling feedback, not errors: the model
  still has a descriptor port-Hamiltonian form (and often an explicit one after
  merging storages), so they are printed as ``warning:`` lines.
"""

from __future__ import annotations

import argparse
import pathlib

from ..bondgraph.causality import CausalityReport, analyze_causality
from ..bondgraph.graph import BondGraph
from ..errors import CausalityError, ModelError

__all__ = ["run_command", "run_check"]


def run_command(args: argparse.Namespace) -> int:
    return run_check(args.model)


def run_check(path: str | pathlib.Path) -> int:
    """Load the model file ``path``, check it and print the causality report.

    Parameters
    ----------
    path:
        A YAML or JSON model file with a ``bondgraph`` section.

    Returns
    -------
    int
        0 (the report, with ``warning:`` lines if any, is on stdout).

    Raises
    ------
    ModelError
        The file is not a bond graph or the graph is structurally wrong.
    CausalityError
        The graph has dependent sources (after the report has been printed).
    """
    from ..io import load_model

    model = load_model(path)
    if model.kind != "bondgraph":
        raise ModelError(f"{path}: 'check' is for bond graphs, and this model is a "
                         f"'{model.kind}' model; use 'porthamiltonian validate' instead")
    bg = BondGraph.from_model(model)
    bg.check()
    report = analyze_causality(bg)
    print(report.explain())
    _raise_if_ill_posed(path, report)
    return 0


def _raise_if_ill_posed(path: str | pathlib.Path, report: CausalityReport) -> None:
    if report.dependent_sources:
        n = len(report.dependent_sources)
        raise CausalityError(
            f"{path}: dependent source{'s' if n > 1 else ''} "
            f"{', '.join(report.dependent_sources)} (see the report above); the model is "
            "ill-posed")
