"""Read a YAML or JSON document into plain data plus the line of every key.

The text is *composed* into YAML nodes with :class:`yaml.SafeLoader` (never a
full loader); the nodes are then turned into dicts, lists and scalars here, so
that each key path can be mapped to its 1-based line number.  A key path is a
tuple of mapping keys and sequence indices, e.g. ``("bondgraph", "elements", 2,
"c")``; the recorded line is that of the key (for a mapping entry) or of the
item (for a sequence entry).  The empty path ``()`` is line 1.

JSON goes through the same route (YAML is a superset of JSON for model files):
tabs, which JSON allows between tokens but YAML does not, are replaced by
spaces first (a JSON string cannot contain a raw tab, so nothing else changes).

Safety: scalars are constructed by the safe constructor, so tags such as
``!!python/object`` are refused; a node reached again through an alias is
converted once and shared (lines are recorded at its first occurrence), so an
"alias bomb" costs no more memory than the text it is written in; its *expanded* size
(every value counted as often as it is reached) is counted too, and a document that
expands beyond the ``nodes`` limit (:mod:`.limits`) is refused — the checks and messages
that walk the data would otherwise walk every copy.
"""

from __future__ import annotations

import json
import re
from typing import Any

import yaml

from ..errors import SchemaError
from .limits import current

__all__ = ["KeyPath", "read_document", "MAX_NESTING"]

KeyPath = tuple[Any, ...]

MAX_NESTING = 100

_MAP = "tag:yaml.org,2002:map"
_SEQ = "tag:yaml.org,2002:seq"


class _Loader(yaml.SafeLoader):
    """SafeLoader that also reads ``1e-3`` and ``2E5`` as floats (as YAML 1.2 and JSON do)."""


_Loader.add_implicit_resolver(
    "tag:yaml.org,2002:float",
    re.compile(r"^[-+]?[0-9][0-9_]*(?:\.[0-9_]*)?[eE][-+]?[0-9]+$"),
    list("-+0123456789"),
)


def read_document(
    text: str, source: str, fmt: str = "yaml"
) -> tuple[Any, dict[KeyPath, int], list[str]]:
    """Parse ``text`` and return ``(data, lines, problems)``.

    ``problems`` lists forbidden tags and duplicate keys (the offending value
    is left out of ``data``), so that the caller can go on checking the rest.

    Parameters
    ----------
    text:
        The document.
    source:
        Name used in messages (the file path, or ``"<string>"``).
    fmt:
        ``"yaml"`` or ``"json"``.

    Raises
    ------
    SchemaError
        On a syntax error (one problem, with the line) or a document that
        expands to too many nodes or is nested too deeply.
    """
    if fmt == "json":
        try:
            json.loads(text)
        except json.JSONDecodeError as err:
            raise _error(
                f"{source}:{err.lineno}: JSON syntax error: {err.msg} (column {err.colno})"
            ) from None
        text = text.replace("\t", " ")
    loader = _Loader(text)
    try:
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        line = f":{mark.line + 1}" if mark is not None else ""
        what = " ".join(x for x in (err.context, err.problem) if x)
        raise _error(f"{source}{line}: YAML syntax error: {what}") from None
    except yaml.YAMLError as err:
        raise _error(f"{source}: YAML error: {err}") from None
    except RecursionError:
        raise _error(f"{source}: the document is nested too deeply") from None
    finally:
        loader.dispose()
    lines: dict[KeyPath, int] = {(): 1}
    problems: list[str] = []
    if node is None:
        return None, lines, problems
    data = _Walker(loader, source, lines, problems).convert(node, (), 0)
    return data, lines, problems


def _tag(node: yaml.Node) -> str:
    return node.tag.replace("tag:yaml.org,2002:", "!!")


def _error(message: str) -> SchemaError:
    return SchemaError(message, problems=[message])


class _Walker:
    """Turns composed nodes into Python data, recording lines and problems."""

    def __init__(
        self, loader: _Loader, source: str, lines: dict[KeyPath, int], problems: list[str]
    ) -> None:
        self.loader = loader
        self.source = source
        self.lines = lines
        self.problems = problems
        self.done: dict[int, Any] = {}  # id(node) -> converted value, for aliases
        self.size: dict[int, int] = {}  # id(node) -> values in it, aliases expanded
        self.max_nodes = current().nodes

    def problem(self, node: yaml.Node, message: str) -> None:
        self.problems.append(f"{self.source}:{node.start_mark.line + 1}: {message}")

    def convert(self, node: yaml.Node, path: KeyPath, depth: int) -> Any:
        if id(node) in self.done:
            return self.done[id(node)]
        value = self._convert(node, path, depth)
        children = node.value if isinstance(node, yaml.SequenceNode) else (
            [v for _, v in node.value] if isinstance(node, yaml.MappingNode) else [])
        n = 1 + sum(self.size.get(id(c), 1) for c in children)
        self.size[id(node)] = n
        if n > self.max_nodes:
            raise _error(
                f"{self.source}:{node.start_mark.line + 1}: the document expands to more than "
                f"{self.max_nodes} values (YAML aliases repeat a value each time they are "
                "used); write the data out, or raise the limit (--limit nodes=N) if you mean it")
        return value

    def _convert(self, node: yaml.Node, path: KeyPath, depth: int) -> Any:
        if depth > MAX_NESTING:
            raise _error(
                f"{self.source}:{node.start_mark.line + 1}: the document is nested "
                f"more than {MAX_NESTING} levels deep"
            )
        if isinstance(node, yaml.MappingNode):
            return self.mapping(node, path, depth)
        if isinstance(node, yaml.SequenceNode):
            if node.tag != _SEQ:
                self.problem(node, f"YAML tag {_tag(node)!r} is not allowed")
                return None
            out: list[Any] = []
            self.done[id(node)] = out
            for i, item in enumerate(node.value):
                self.lines[(*path, i)] = item.start_mark.line + 1
                out.append(self.convert(item, (*path, i), depth + 1))
            return out
        return self.scalar(node)

    def scalar(self, node: yaml.Node) -> Any:
        try:
            return self.loader.construct_object(node, deep=True)
        except yaml.constructor.ConstructorError:
            self.problem(node, f"YAML tag {_tag(node)!r} is not allowed; use plain values")
            return None

    def mapping(self, node: yaml.MappingNode, path: KeyPath, depth: int) -> dict[Any, Any]:
        if node.tag != _MAP:
            self.problem(node, f"YAML tag {_tag(node)!r} is not allowed")
            return {}
        try:
            self.loader.flatten_mapping(node)  # resolves '<<' merge keys
        except yaml.constructor.ConstructorError as err:
            self.problem(node, f"bad YAML merge key: {err.problem}")
            return {}
        out: dict[Any, Any] = {}
        self.done[id(node)] = out
        for key_node, value_node in node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                self.problem(
                    key_node, "a key must be a plain value (a name), not a list or mapping"
                )
                continue
            key = self.scalar(key_node)
            if key in out:
                self.problem(key_node, f"duplicate key {key!r}; each key may appear only once")
                continue
            self.lines[(*path, key)] = key_node.start_mark.line + 1
            out[key] = self.convert(value_node, (*path, key), depth + 1)
        return out
