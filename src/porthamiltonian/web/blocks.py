"""Sub-graph blocks for the workbench palette: bond-graph model files that expose ports.

A block is a model file with ``bondgraph.ports`` (docs/model-files.md, "Sub-graphs"); the
canvas places it as one node with its ports, and the saved model includes it
(``bondgraph.include``).  Blocks come from two places:

* the workbench folder: every model file there (and in its sub-folders) whose bond graph
  exposes ports;
* the library shipped with the package (``porthamiltonian/data/blocks``: a DC motor, a
  series RLC branch, a mass–spring–damper).  A library block is copied into the
  workbench folder when it is placed, so the saved model and the files it includes stay
  together and ``porthamiltonian simulate`` runs the saved file anywhere.

A block file is read by the model files' own loader (:func:`porthamiltonian.io.load_model`:
safe YAML, size limits, its includes confined to its folder) and only through
:class:`.files.Workspace`, so a name the page sends never reaches outside the folder.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from ..errors import ModelError, SchemaError
from .files import Workspace

__all__ = ["BlockInfo", "LIBRARY_PREFIX", "block_info", "block_options", "library_names",
           "place_library_block"]

#: the value of a library block in the palette's list: ``lib:dc_motor_block.yaml``
LIBRARY_PREFIX = "lib:"


@dataclass(frozen=True)
class BlockInfo:
    """What the canvas needs of a block file: its ports, and the names (within the block)
    of its states and its sources' inputs, for the simulation table."""

    file: str
    ports: list[str]
    states: list[str] = field(default_factory=list)
    inputs: list[str] = field(default_factory=list)


def _library() -> Any:
    return resources.files("porthamiltonian") / "data" / "blocks"


def library_names() -> list[str]:
    """The library's block files (``dc_motor_block.yaml``, …)."""
    return sorted(f.name for f in _library().iterdir() if f.name.endswith(".yaml"))


def block_info(workspace: Workspace, name: str) -> BlockInfo:
    """The ports, states and inputs of the block file ``name`` in the workspace;
    :class:`ModelError` when it is not a valid bond graph exposing ports."""
    from ..io import load_model

    path = workspace.resolve(name)
    if not path.is_file():
        raise ModelError(f"{name!r}: no such block file in {str(workspace.root)!r}")
    try:
        model = load_model(path)
    except SchemaError as err:
        raise ModelError(f"block {name}: {err}") from None
    ports = list(model.section.get("ports") or {}) if model.kind == "bondgraph" else []
    if not ports:
        raise ModelError(f"{name!r} is not a block: a block is a bond-graph model file "
                         "that exposes ports (bondgraph.ports: [junction, …])")
    return BlockInfo(name, ports, list(model.section["states"]),
                     list(model.section["inputs"]))


def block_options(workspace: Workspace) -> list[dict[str, str]]:
    """The palette's list: the folder's block files, then the library's not yet copied."""
    out, here = [], set()
    for name in workspace.names():
        try:
            text, _ = workspace.read(name)
        except ModelError:
            continue
        if "ports" not in text or "bondgraph" not in text:  # most files: no parse
            continue
        try:
            info = block_info(workspace, name)
        except ModelError:
            continue
        here.add(name)
        out.append({"label": f"{name} ({', '.join(info.ports)})", "value": name})
    for name in library_names():
        if name not in here:
            out.append({"label": f"library: {name}", "value": LIBRARY_PREFIX + name})
    return out


def place_library_block(workspace: Workspace, name: str) -> str:
    """Copy the library block ``name`` into the workspace (unless the same file is there
    already) and return its name there; :class:`ModelError` if another file has it."""
    if name not in library_names():
        raise ModelError(f"no library block {name!r}; the library has "
                         f"{', '.join(library_names())}")
    text = (_library() / name).read_text(encoding="utf-8")
    path = workspace.resolve(name)
    if path.exists():
        if path.read_text(encoding="utf-8") != text:
            raise ModelError(f"a different {name} is in the workbench folder; place that "
                             "one from the list, or rename it to use the library's")
        return name
    workspace.write(name, text)
    return name
