"""What the canvas shows on top of the graph: causal strokes, problems, messages.

Computed again after every change, in three layers of checks that each name the element
at fault:

1. **structure** — :meth:`porthamiltonian.bondgraph.BondGraph.problems` on the graph as
   drawn (a C with two bonds, a bond pointing out of a resistor, a junction with one
   bond, a graph in pieces);
2. **causality** — :func:`porthamiltonian.bondgraph.analyze_causality` (SCAP; Breedveld,
   Appendix A of Duindam et al., *Modeling and Control of Complex Physical Systems*,
   Springer 2009), run on unfinished graphs too so the strokes appear while drawing; its
   report's own sentences are the messages, its dependent storages, storages fixed by
   sources, dependent sources and algebraic loops are the highlighted elements
   (:func:`porthamiltonian.bondgraph.draw.problem_elements`, the colours of
   ``porthamiltonian draw``);
3. **the model file** — :func:`porthamiltonian.io.load_dict`, the checks every model file
   gets (expressions in the safe language, parameter names, units): each message is tied
   to its element through the ``bondgraph.elements[k] (name)`` label it carries.

The causal stroke of a bond is drawn at the end *opposite* to
``report.causality[bond]`` (the end whose element imposes the effort): next to the
element that receives the effort, as in :mod:`porthamiltonian.bondgraph.draw`.
"""

from __future__ import annotations

import pathlib
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import ModelError, SchemaError
from .canvas import to_document

__all__ = ["Overlay", "overlay", "PROBLEM_COLORS"]

#: highlight colour (CSS) of each kind of problem; the kinds of ``porthamiltonian draw``
PROBLEM_COLORS: dict[str, str] = {
    "dependent storage": "#d62728", "fixed by sources": "#ff7f0e",
    "dependent source": "#8c564b", "algebraic loop": "#9467bd", "invalid": "#e377c2",
}

_ELEMENT_LABEL = re.compile(r"bondgraph\.elements\[(\d+)\]")
_INCLUDE_LABEL = re.compile(r"bondgraph\.include\[(\d+)\]")


@dataclass
class Overlay:
    """The checks of one graph state.

    Attributes
    ----------
    strokes:
        Bond index → ``"tail"`` or ``"head"``: the end where the causal stroke is drawn.
    problems:
        Element → kind of causality problem (a key of :data:`PROBLEM_COLORS`).
    messages:
        The causality analysis's sentences (dependent sources, storages, loops).
    explanation:
        The whole report in words (``porthamiltonian check``'s text).
    structure, model:
        Structural problems of the graph; problems of the model file (expressions,
        parameters, units), each a sentence naming the element.
    faulty:
        Element → the structure and model messages that name it.
    """

    strokes: dict[int, str] = field(default_factory=dict)
    problems: dict[str, str] = field(default_factory=dict)
    messages: list[str] = field(default_factory=list)
    explanation: str = ""
    structure: list[str] = field(default_factory=list)
    model: list[str] = field(default_factory=list)
    faulty: dict[str, list[str]] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        """True when the graph is complete, valid and causally sound."""
        return not (self.problems or self.structure or self.model)


def overlay(state: Mapping[str, Any], folder: str | pathlib.Path | None = None) -> Overlay:
    """Check the graph ``state`` (:mod:`.canvas`) in the three layers above; ``folder``
    is where its blocks' files are (the workbench folder).  A block is checked through
    the graph it includes (its storages, sources and junctions take part in the
    causality analysis as in the compiled model)."""
    from ..bondgraph.causality import analyze_causality
    from ..bondgraph.draw import problem_elements

    out = Overlay()
    graph = _structure(state, out, folder)
    if graph is not None and graph.elements and graph.bonds:
        try:
            report = analyze_causality(graph)
        except ModelError as err:
            out.structure.append(str(err))
        else:
            order = {_bond_name(b, k): k for k, b in enumerate(state["bonds"])}
            out.strokes = {order[b]: ("head" if end == "tail" else "tail")
                           for b, end in report.causality.items() if b in order}
            out.problems = problem_elements(report)
            out.messages = list(report.messages)
            out.explanation = report.explain()
    out.model = _model_problems(state, folder)
    names = [e["name"] for e in state["elements"]]
    blocks = [b["name"] for b in state.get("blocks") or []]
    for message in out.structure:
        for name in names:
            if f"'{name}'" in message or f" {name} " in f" {message} ":
                out.faulty.setdefault(name, []).append(message)
    for message in out.model:
        hit = _ELEMENT_LABEL.search(message)
        if hit and int(hit.group(1)) < len(names):
            out.faulty.setdefault(names[int(hit.group(1))], []).append(message)
        hit = _INCLUDE_LABEL.search(message)
        if hit and int(hit.group(1)) < len(blocks):
            out.faulty.setdefault(blocks[int(hit.group(1))], []).append(message)
    return out


def _bond_name(bond: Mapping[str, Any], k: int) -> str:
    """The name of the state's bond ``k`` in the checked graph (its own, or ``b<k+1>``:
    the included graphs' bonds are named ``motor1.b1``, so the two never meet)."""
    return str(bond.get("name") or f"b{k + 1}")


def _structure(state: Mapping[str, Any], out: Overlay,
               folder: str | pathlib.Path | None = None) -> Any:
    """The graph as drawn (structure only: values are not needed for causality), its
    structural problems added to ``out.structure``."""
    from ..bondgraph.graph import BondGraph
    from ..io import load_dict

    graph = BondGraph(str(state.get("name") or "untitled"), domain=None)
    for e in state["elements"]:
        try:
            el = graph.add(e["name"], str(e["type"]), dim=int(e.get("extra", {}).get("dim", 1)))
        except (ModelError, TypeError, ValueError) as err:
            out.structure.append(str(err))
            continue
        graph._pending.pop(e["name"], None)  # values are the model file check's business
        el.params.update({k: v for k, v in e.get("values", {}).items()})
    for b in state.get("blocks") or []:
        # the block's file read as an include is (confined to the folder, checked), then
        # its graph included as the compiler includes it
        doc = {"name": "block", "bondgraph": {"include": [{"name": b["name"],
                                                           "file": b["file"]}],
                                              "elements": [], "bonds": []}}
        try:
            sub = load_dict(doc, source="model", folder=folder).section["include"][0]
            inner = BondGraph.from_model(sub["model"], storage_check=False)
            inner.state_names()  # named as compiled, before the values go
            inner.parameters = {}  # values are not needed here; blocks may differ in them
            graph.include(b["name"], inner)
        except (ModelError, SchemaError) as err:
            problems = getattr(err, "problems", None) or [str(err)]
            out.structure.append(f"block {b['name']} ({b['file']}): "
                                 + problems[0].removeprefix("model: "))
            return None
    for k, b in enumerate(state["bonds"]):
        try:
            graph.connect(b["from"], b["to"], _bond_name(b, k))
        except ModelError as err:
            out.structure.append(str(err))
            return None
    out.structure += list(graph.problems())
    return graph


def _model_problems(state: Mapping[str, Any],
                    folder: str | pathlib.Path | None = None) -> list[str]:
    """Every problem :func:`porthamiltonian.io.load_dict` finds in the state's document."""
    from ..io import load_dict

    try:
        load_dict(to_document(state), source="model", folder=folder)
    except SchemaError as err:
        return list(err.problems) or [str(err)]
    except ModelError as err:
        return [str(err)]
    return []
