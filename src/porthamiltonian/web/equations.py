r"""The generated equations of the graph on the canvas: ``porthamiltonian phs``'s output.

The state's document is checked and compiled exactly as a model file is
(:func:`porthamiltonian.io.load_dict`, :func:`porthamiltonian.io.build.build_system`),
a descriptor model reduced to its explicit form when it has one, and shown as

* the LaTeX of ``porthamiltonian phs --latex`` (:func:`porthamiltonian.serialize.phs_to_latex`):
  :math:`\dot x = (J - R)\nabla H + (G - P)u`, :math:`y = (G + P)^\top\nabla H + (M + S)u`
  and :math:`H` (docs/design.md sign conventions: :math:`u^\top y` is the power delivered
  into the system by its ports);
* the plain summary of ``porthamiltonian phs`` (states, inputs, outputs, the non-zero
  matrices, :math:`H`, assumptions);
* the explicit matrices, entry by entry as text (``phs --json``'s entries).
"""

from __future__ import annotations

import pathlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import ModelError, NoExplicitFormError
from .canvas import to_document

__all__ = ["Equations", "equations", "phs_summary"]

#: the matrices shown, in ``phs``'s order
MATRICES = ("J", "R", "G", "P", "M", "S")


@dataclass
class Equations:
    """The explicit model of a graph: ``latex`` (``phs --latex``), ``summary``
    (``phs``), ``matrices`` (name → rows of entry texts) and the ``states``,
    ``inputs``, ``outputs`` they are written in; ``note`` says why there is no explicit
    form when there is none."""

    latex: str = ""
    summary: str = ""
    matrices: dict[str, list[list[str]]] = field(default_factory=dict)
    states: list[str] = field(default_factory=list)
    inputs: list[str] = field(default_factory=list)
    outputs: list[str] = field(default_factory=list)
    note: str = ""


def equations(state: Mapping[str, Any], folder: str | pathlib.Path | None = None
              ) -> Equations:
    """The equations of the graph ``state`` (:mod:`.canvas`; its blocks' files in
    ``folder``); :class:`ModelError` (or a subclass) when the model file would be
    refused."""
    from ..descriptor import DescriptorPHS
    from ..io import load_dict
    from ..io.build import build_system
    from ..serialize import phs_to_latex

    system = build_system(load_dict(to_document(state), source="model", folder=folder))
    if isinstance(system, DescriptorPHS):
        try:
            system = system.to_phs()
        except NoExplicitFormError as err:
            return Equations(note=f"no explicit form: {err}")
    if not hasattr(system, "to_dict"):
        raise ModelError("this model is assembled numerically only; simulate it instead")
    d = system.to_dict()
    return Equations(latex=phs_to_latex(system, max_size=10**9), summary=phs_summary(system),
                     matrices={k: [[str(v) for v in row] for row in d[k]] for k in MATRICES},
                     states=list(d["states"]), inputs=list(d["inputs"]),
                     outputs=list(d["outputs"]))


def phs_summary(system: Any) -> str:
    """The text ``porthamiltonian phs`` prints for an explicit model."""
    d = system.to_dict()
    lines = [f"{d['name'] or 'model'}: {len(d['states'])} states, {len(d['inputs'])} ports",
             f"  states  x = {d['states']}",
             f"  inputs  u = {d['inputs']}",
             f"  outputs y = {d['outputs']}"]
    lines += [f"  {k} = {d[k]}" for k in MATRICES
              if any(v not in (0, 0.0) for row in d[k] for v in row)]
    lines.append(f"  H = {d['hamiltonian']}")
    lines += [f"  assuming {a}" for a in system.assumptions]
    if getattr(system, "reduction", None):
        lines.append(f"  note: {system.reduction}")
    return "\n".join(lines)
