"""The workbench's graph state and the model file it is: canvas ↔ YAML document.

The state the browser edits is plain JSON (it travels between the page and the server)::

    {"name": "series-rlc", "description": "", "domain": "electrical",
     "parameters": {"R": 10, "L": "10 mH"},           # as written in a model file
     "elements": [{"name": "C1", "type": "C", "values": {"c": "C"},
                   "extra": {"dim": 2},               # dim/domain, kept as written
                   "x": 120.0, "y": 80.0}, ...],      # canvas position (px)
     "bonds": [{"from": "u", "to": "j", "name": None}, ...],   # tail → head
     "blocks": [{"name": "dcmotor1", "file": "dc_motor_block.yaml",
                 "ports": ["elec", "shaft"], "states": ["La", "Jr"], "inputs": [],
                 "parameters": {}, "x": 300.0, "y": 200.0}, ...],
     "ports": None,                                   # the file's own ports:, as written
     "simulate": {"t_end": 1.0, "inputs": {"u": "sin(t)"}}}

A block is a sub-graph included from a model file (``bondgraph.include``,
:mod:`.blocks`); a bond ends at one of its ports, ``"dcmotor1.elec"``, and its states and
inputs are ``dcmotor1.La`` in the ``simulate`` section, as in the model file.

:func:`to_document` gives the model file's document (``name``, ``parameters``,
``bondgraph: {elements, bonds}``, ``simulate``), which :func:`to_yaml` writes with
PyYAML's safe dumper — a file saved in the browser is an ordinary model file that
``porthamiltonian simulate`` runs unchanged.  :func:`from_text` reads a file with the
loader of :mod:`porthamiltonian.io` (safe YAML, the node and size limits; no code runs)
and places the elements with :func:`layout` (Kamada–Kawai, deterministic), since model
files hold no drawing positions.  Nothing here checks the model: the overlay
(:mod:`.overlay`) does, with the model files' own checks.

Numbers travel as text in the state (``"8.0"``): the page's JavaScript has one number
type and would bring ``8.0`` back as ``8``, and the model files keep ``8.0`` a float
(``phs`` prints ``8.0``).  :func:`to_document` turns number texts back into numbers, so
the document is the one a YAML file with those values gives.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Mapping
from typing import Any

from ..errors import ModelError

__all__ = ["PALETTE", "VALUE_KEYS", "as_text", "as_number", "new_state", "add_element",
           "add_block", "add_bond", "remove", "rename", "to_document", "to_yaml",
           "from_document", "from_text", "layout", "place", "port_ends", "port_offset"]

#: The element types the palette offers, with the value key each one needs and its
#: default (docs/model-files.md): a new C is ``c: 1`` (F), an R ``r: 1`` (Ω), …
VALUE_KEYS: dict[str, tuple[str, Any] | None] = {
    "C": ("c", 1), "I": ("i", 1), "R": ("r", 1), "Se": None, "Sf": None,
    "TF": ("ratio", 1), "GY": ("ratio", 1), "MTF": ("ratio", 1), "MGY": ("ratio", 1),
    "0": None, "1": None,
}  # fmt: skip
PALETTE: tuple[str, ...] = tuple(VALUE_KEYS)

#: keys of an element kept as written besides its name, type and value keys
_EXTRA = ("dim", "domain")
#: canvas size (px) that :func:`layout` fills
_WIDTH, _HEIGHT, _MARGIN = 560.0, 380.0, 50.0
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def new_state(name: str = "untitled") -> dict[str, Any]:
    """An empty bond graph."""
    return {"name": name, "description": "", "domain": None, "parameters": {},
            "elements": [], "bonds": [], "blocks": [], "ports": None, "simulate": {}}


def port_ends(state: Mapping[str, Any]) -> dict[str, str]:
    """The bond ends the blocks offer: ``"motor1.elec"`` → ``"motor1"``."""
    return {f"{b['name']}.{p}": b["name"] for b in state.get("blocks") or []
            for p in b["ports"]}


def port_offset(k: int, count: int) -> float:
    """Horizontal offset (px) of a block's port ``k`` of ``count`` from the block's place."""
    return (k - (count - 1) / 2) * 70.0


def _fresh_name(state: Mapping[str, Any], kind: str) -> str:
    """``C1``, ``C2`` …; junctions are ``j1``, ``j2`` … (a name is an identifier)."""
    stem = "j" if kind in ("0", "1") else kind
    taken = ({e["name"] for e in state["elements"]} | set(state["parameters"])
             | {b["name"] for b in state.get("blocks") or []})
    k = 1
    while f"{stem}{k}" in taken:
        k += 1
    return f"{stem}{k}"


def add_element(state: dict[str, Any], kind: str, x: float, y: float,
                name: str | None = None) -> dict[str, Any]:
    """A copy of ``state`` with a new element of type ``kind`` at ``(x, y)``."""
    if kind not in VALUE_KEYS:
        raise ModelError(f"unknown element type {kind!r}; the palette has {', '.join(PALETTE)}")
    new = copy.deepcopy(state)
    name = name or _fresh_name(new, kind)
    if any(e["name"] == name for e in new["elements"]):
        raise ModelError(f"an element is already called {name!r}")
    key = VALUE_KEYS[kind]
    new["elements"].append({"name": name, "type": kind,
                            "values": {key[0]: key[1]} if key else {}, "extra": {},
                            "x": float(x), "y": float(y)})
    return new


def add_block(state: dict[str, Any], info: Any, x: float, y: float,
              name: str | None = None) -> dict[str, Any]:
    """A copy of ``state`` with the block file ``info["file"]`` (its ``ports``, ``states``,
    ``inputs``: :class:`.blocks.BlockInfo`) placed at ``(x, y)`` as ``name`` (default: the
    file's stem and a number, ``dcmotor1``)."""
    info = info if isinstance(info, Mapping) else vars(info)  # a BlockInfo too
    new = copy.deepcopy(state)
    new.setdefault("blocks", [])
    if name is None:
        stem = re.sub(r"\W", "_", str(info["file"]).rsplit("/", 1)[-1].rsplit(".", 1)[0])
        # without underscores: printed names read them as subscripts (dc_motor1.La)
        stem = stem.removesuffix("_block").replace("_", "") or "block"
        stem = stem if stem[0].isalpha() else f"b_{stem}"
        taken = ({e["name"] for e in new["elements"]} | set(new["parameters"])
                 | {b["name"] for b in new["blocks"]})
        k = 1
        while f"{stem}{k}" in taken:
            k += 1
        name = f"{stem}{k}"
    if any(e["name"] == name for e in new["elements"]) or \
            any(b["name"] == name for b in new["blocks"]):
        raise ModelError(f"an element or block is already called {name!r}")
    new["blocks"].append({"name": name, "file": str(info["file"]),
                          "ports": list(info["ports"]), "states": list(info.get("states", [])),
                          "inputs": list(info.get("inputs", [])), "parameters": {},
                          "x": float(x), "y": float(y)})
    return new


def add_bond(state: dict[str, Any], tail: str, head: str) -> dict[str, Any]:
    """A copy of ``state`` with the bond ``tail → head`` (positive power from tail to head);
    an end is an element or a block's port (``motor1.elec``)."""
    names = {e["name"] for e in state["elements"]} | set(port_ends(state))
    blocks = {b["name"]: b for b in state.get("blocks") or []}
    for end in (tail, head):
        if end in blocks:
            raise ModelError(f"bond {tail} → {head}: click one of the ports of the block "
                             f"{end!r} ({', '.join(blocks[end]['ports'])}), not the block")
        if end not in names:
            raise ModelError(f"bond {tail} → {head}: no element {end!r}")
    if tail == head:
        raise ModelError(f"a bond joins two elements; {tail!r} to itself is not one")
    new = copy.deepcopy(state)
    new["bonds"].append({"from": tail, "to": head, "name": None})
    return new


def remove(state: dict[str, Any], elements: list[str], bonds: list[int]) -> dict[str, Any]:
    """A copy of ``state`` without the given elements (and their bonds) and bonds (indices)."""
    ports = port_ends(state)
    gone = {ports.get(n, n) for n in elements}  # a port selected: its block goes
    new = copy.deepcopy(state)
    new["elements"] = [e for e in new["elements"] if e["name"] not in gone]
    new["blocks"] = [b for b in new.get("blocks") or [] if b["name"] not in gone]

    def kept(end: str) -> bool:
        return end not in gone and ports.get(end) not in gone

    new["bonds"] = [b for k, b in enumerate(new["bonds"])
                    if k not in set(bonds) and kept(b["from"]) and kept(b["to"])]
    sim = new["simulate"] or {}
    for key in ("inputs", "initial"):
        if isinstance(sim.get(key), dict):
            sim[key] = {k: v for k, v in sim[key].items()
                        if k not in gone and k.split(".", 1)[0] not in gone}
    return new


def rename(state: dict[str, Any], old: str, new_name: str) -> dict[str, Any]:
    """A copy of ``state`` with element ``old`` called ``new_name`` (bonds and inputs follow)."""
    if not isinstance(new_name, str) or not _IDENT.fullmatch(new_name):
        raise ModelError(f"element name {new_name!r}: use letters, digits and _, starting "
                         "with a letter")
    taken = [e["name"] for e in state["elements"]] + [b["name"] for b in
                                                        state.get("blocks") or []]
    if new_name != old and new_name in taken:
        raise ModelError(f"an element or block is already called {new_name!r}")
    new = copy.deepcopy(state)
    for e in [*new["elements"], *(new.get("blocks") or [])]:
        if e["name"] == old:
            e["name"] = new_name

    def moved(name: str) -> str:  # the element, or a block's port / state ``old.x``
        if name == old:
            return new_name
        head, dot, rest = name.partition(".")
        return f"{new_name}.{rest}" if dot and head == old else name

    for b in new["bonds"]:
        b["from"], b["to"] = moved(b["from"]), moved(b["to"])
    sim = new["simulate"] or {}
    for key in ("inputs", "initial"):
        if isinstance(sim.get(key), dict):
            sim[key] = {moved(k): v for k, v in sim[key].items()}
    return new


# ------------------------------------------------------------------ state → file
def as_text(value: Any) -> Any:
    """``value`` with every float written as text (``8.0`` → ``"8.0"``), for the state."""
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, dict):
        return {k: as_text(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_text(v) for v in value]
    return value


def as_number(value: Any) -> Any:
    """``value`` with every number text made a number again (``"8.0"`` → ``8.0``,
    ``"10"`` → ``10``); other texts (expressions, values with units) stay text."""
    if isinstance(value, str):
        text = value.strip()
        for kind in (int, float):
            try:
                number = kind(text)
            except ValueError:
                continue
            return number if text.lower() not in ("nan", "inf", "-inf", "infinity") else value
        return value
    if isinstance(value, dict):
        return {k: as_number(v) for k, v in value.items()}
    if isinstance(value, list):
        return [as_number(v) for v in value]
    return value


def to_document(state: Mapping[str, Any]) -> dict[str, Any]:
    """The model file's document (plain data, as a YAML file would give it)."""
    doc: dict[str, Any] = {"name": state.get("name") or "untitled"}
    if state.get("description"):
        doc["description"] = state["description"]
    if state.get("parameters"):
        doc["parameters"] = as_number(dict(state["parameters"]))
    section: dict[str, Any] = {}
    if state.get("domain"):
        section["domain"] = state["domain"]
    if state.get("ports"):
        section["ports"] = copy.deepcopy(state["ports"])
    if state.get("blocks"):
        section["include"] = [{"name": b["name"], "file": b["file"],
                               **({"parameters": as_number(dict(b["parameters"]))}
                                  if b.get("parameters") else {})}
                              for b in state["blocks"]]
    section["elements"] = [{"name": e["name"], "type": str(e["type"]),
                            **as_number(e.get("extra", {})), **as_number(e.get("values", {}))}
                           for e in state["elements"]]
    section["bonds"] = [[b["from"], b["to"]] if not b.get("name") else
                        {"from": b["from"], "to": b["to"], "name": b["name"]}
                        for b in state["bonds"]]
    doc["bondgraph"] = section
    sim = {k: as_number(v) for k, v in (state.get("simulate") or {}).items()
           if v not in (None, {}, "")}
    if sim:
        doc["simulate"] = sim
    return doc


def to_yaml(state: Mapping[str, Any]) -> str:
    """The model file's text (YAML, block style; element lines in flow style)."""
    import yaml

    class _Dumper(yaml.SafeDumper):
        pass

    def flow_map(dumper: yaml.SafeDumper, data: _Flow) -> yaml.Node:
        return dumper.represent_mapping("tag:yaml.org,2002:map", data, flow_style=True)

    def flow_seq(dumper: yaml.SafeDumper, data: _FlowList) -> yaml.Node:
        return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)

    _Dumper.add_representer(_Flow, flow_map)
    _Dumper.add_representer(_FlowList, flow_seq)
    doc = to_document(state)
    section = doc["bondgraph"]
    section["elements"] = [_Flow(e) for e in section["elements"]]
    if "include" in section:
        section["include"] = [_Flow(i) for i in section["include"]]
    section["bonds"] = [_FlowList(b) if isinstance(b, list) else _Flow(b)
                        for b in section["bonds"]]
    head = "# written by the porthamiltonian workbench (porthamiltonian serve)\n"
    return head + yaml.dump(doc, Dumper=_Dumper, sort_keys=False, allow_unicode=True,
                            width=100)


class _Flow(dict):
    """A mapping written on one line."""


class _FlowList(list):
    """A sequence written on one line."""


# ------------------------------------------------------------------ file → state
def from_text(text: str, source: str = "<workbench>", fmt: str = "yaml",
              blocks: Callable[[str], Any] | None = None) -> dict[str, Any]:
    """The state of a model file's text, laid out (:func:`layout`).

    Read by :func:`porthamiltonian.io.yamlmarks.read_document`, the model files' own safe
    reader (sizes and nesting limited, no tags that construct objects).  ``blocks`` gives
    the :class:`.blocks.BlockInfo` of an included file (its ports), needed when the file
    has ``bondgraph.include``."""
    from ..errors import SchemaError
    from ..io.yamlmarks import read_document

    try:
        data, _lines, problems = read_document(text, source, fmt)
    except SchemaError as err:
        raise ModelError(str(err)) from None
    if problems:
        raise ModelError(problems[0])
    return from_document(data, source, blocks)


def from_document(doc: Any, source: str = "<workbench>",
                  blocks: Callable[[str], Any] | None = None) -> dict[str, Any]:
    """The state of a model document (positions from :func:`layout`; ``blocks`` as for
    :func:`from_text`)."""
    if not isinstance(doc, dict):
        raise ModelError(f"{source}: a model file is a mapping (name:, bondgraph:, …)")
    section = doc.get("bondgraph")
    if not isinstance(section, dict):
        others = [k for k in ("phs", "network", "mechanism", "distributed", "reactions")
                  if k in doc]
        what = f"a {others[0]!r} section" if others else "no bondgraph section"
        raise ModelError(f"{source}: the workbench draws bond graphs, and this file has "
                         f"{what}; open it with 'porthamiltonian simulate' or 'phs'")
    state = new_state(str(doc.get("name") or "untitled"))
    state["description"] = doc.get("description") or ""
    state["domain"] = section.get("domain")
    state["parameters"] = as_text(dict(doc.get("parameters") or {}))
    state["ports"] = copy.deepcopy(section.get("ports"))
    for k, raw in enumerate(section.get("include") or []):
        if not isinstance(raw, dict) or "name" not in raw or "file" not in raw:
            raise ModelError(f"{source}: bondgraph.include[{k}] needs a name and a file")
        if blocks is None:
            raise ModelError(f"{source}: the file includes sub-graphs; open it from the "
                             "workbench folder")
        info = blocks(str(raw["file"]))
        state["blocks"].append({"name": str(raw["name"]), "file": str(raw["file"]),
                                "ports": list(info.ports), "states": list(info.states),
                                "inputs": list(info.inputs),
                                "parameters": as_text(dict(raw.get("parameters") or {})),
                                "x": 0.0, "y": 0.0})
    state["simulate"] = as_text(copy.deepcopy(doc.get("simulate") or {}))
    for k, raw in enumerate(section.get("elements") or []):
        if not isinstance(raw, dict) or "name" not in raw or "type" not in raw:
            raise ModelError(f"{source}: bondgraph.elements[{k}] needs a name and a type")
        kind = str(raw["type"])
        state["elements"].append({
            "name": str(raw["name"]), "type": kind,
            "values": as_text({key: v for key, v in raw.items()
                               if key not in ("name", "type", *_EXTRA)}),
            "extra": as_text({key: raw[key] for key in _EXTRA if key in raw}),
            "x": 0.0, "y": 0.0})
    for k, raw in enumerate(section.get("bonds") or []):
        if isinstance(raw, list) and len(raw) == 2:
            state["bonds"].append({"from": str(raw[0]), "to": str(raw[1]), "name": None})
        elif isinstance(raw, dict) and "from" in raw and "to" in raw:
            state["bonds"].append({"from": str(raw["from"]), "to": str(raw["to"]),
                                   "name": raw.get("name")})
        else:
            raise ModelError(f"{source}: bondgraph.bonds[{k}] is [from, to] or "
                             "{from: …, to: …}")
    return place(state)


def place(state: dict[str, Any]) -> dict[str, Any]:
    """``state`` with every element and block placed by :func:`layout` (in place)."""
    items = [*state["elements"], *(state.get("blocks") or [])]
    for e, (x, y) in zip(items, layout(state), strict=True):
        e["x"], e["y"] = x, y
    return state


def layout(state: Mapping[str, Any]) -> list[tuple[float, float]]:
    """Canvas positions (px) of the elements, then the blocks, in their order:
    Kamada–Kawai on the graph of bonds (each connected part laid out on its own,
    deterministic), scaled to the canvas with the power flowing left to right where it
    can.  A bond to a block's port counts as a bond to the block."""
    import networkx as nx
    import numpy as np

    names = [e["name"] for e in state["elements"]] + [b["name"] for b in
                                                      state.get("blocks") or []]
    if not names:
        return []
    ports = port_ends(state)
    g = nx.Graph()
    g.add_nodes_from(names)
    ends = [(ports.get(b["from"], b["from"]), ports.get(b["to"], b["to"]))
            for b in state["bonds"]]
    g.add_edges_from((a, b) for a, b in ends if a in g and b in g and a != b)
    pos = nx.kamada_kawai_layout(g) if len(names) > 2 else {
        n: np.array([float(k), 0.0]) for k, n in enumerate(names)}
    xy = np.array([pos[n] for n in names], dtype=float)
    # the first source on the left: flip x if the graph came out mirrored
    first = next((k for k, e in enumerate(state["elements"]) if e["type"] in ("Se", "Sf")), 0)
    if xy[first, 0] > xy[:, 0].mean():
        xy[:, 0] = -xy[:, 0]
    span = np.ptp(xy, axis=0)
    span[span == 0] = 1.0
    xy = (xy - xy.min(axis=0)) / span
    out = xy * [_WIDTH - 2 * _MARGIN, _HEIGHT - 2 * _MARGIN] + _MARGIN
    return [(round(float(x), 1), round(float(y), 1)) for x, y in out]
