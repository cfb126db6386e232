"""The layers of docs/design.md, checked on the import graph of ``src/porthamiltonian``.

Every module is parsed with :mod:`ast` and every import counts: at module level, inside
functions, and under ``if TYPE_CHECKING:``.  Relative imports are resolved; ``from pkg
import name`` is an edge to the submodule ``pkg.name`` when there is one, else to
``pkg`` (its ``__init__``).  The graph must have

* no circles (a package's ``__init__`` may import its children, so a child must never
  import its own package — that would close a circle);
* no arrow upward: a module imports only from its own layer or lower ones, with the layer
  table below, which must match the diagram of docs/design.md (also checked here);
* a layer for every module: a new top-level module or package is placed in the table
  (and in the diagram) before it can land.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "porthamiltonian"
DESIGN = ROOT / "docs" / "design.md"
PACKAGE = "porthamiltonian"

#: Layer of each top-level module or package of porthamiltonian (docs/design.md);
#: "" is the package root, ``porthamiltonian/__init__.py`` (the public API).
LAYER: dict[str, int] = {
    # 0 foundation
    "errors": 0, "naming": 0, "expr": 0, "_matrices": 0, "printing": 0, "lie": 0, "sealed": 0,
    "jit": 0, "quantities": 0, "bounded": 0, "special": 0, "lazy": 0, "blas": 0,
    # 1 core IR
    "dirac": 1, "structure": 1, "compiled": 1, "serialize": 1, "phs": 1, "descriptor": 1,
    "functional": 1, "interconnection": 1, "linear_ph": 1, "energy": 1,
    "separable_terms": 1,
    # 2 back-ends
    "simulate": 2, "analysis": 2, "control": 2, "export": 2, "reduction": 2,
    # 3 front-ends
    "bondgraph": 3, "network": 3, "library": 3, "lagrange": 3, "distributed": 3,
    "mechanics": 3, "thermo": 3,
    # 4 model files, ensembles of runs, the browser workbench
    "io": 4, "demo": 4, "ensemble": 4, "web": 4,
    # 5 entry points
    "cli": 5, "__main__": 5, "": 5,
}
#: how the diagram of docs/design.md names the package root
ROOT_IN_DIAGRAM = "the package root"


# ---------------------------------------------------------------------- the graph
def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


@functools.cache
def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(SRC.rglob("*.py"))}


def _known(name: str) -> str | None:
    """The module an import of ``name`` runs last: the longest known prefix of it."""
    modules = _modules()
    parts = name.split(".")
    for k in range(len(parts), 0, -1):
        candidate = ".".join(parts[:k])
        if candidate in modules:
            return candidate
    return None


def _targets(module: str, path: Path, node: ast.Import | ast.ImportFrom) -> list[str]:
    """The porthamiltonian modules one import statement imports."""
    if isinstance(node, ast.Import):
        names = [a.name for a in node.names if a.name.split(".")[0] == PACKAGE]
        return [t for t in map(_known, names) if t is not None]
    if node.level:
        package = module.split(".") if _is_package(path) else module.split(".")[:-1]
        base_parts = package[:len(package) - node.level + 1]
        base = ".".join(base_parts + ([node.module] if node.module else []))
    else:
        base = node.module or ""
    if base.split(".")[0] != PACKAGE:
        return []
    out = []
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        target = sub if sub in _modules() else _known(base)
        if target is not None:
            out.append(target)
    return out


@functools.cache
def import_graph() -> nx.DiGraph:
    """Modules as nodes, imports as edges; each edge keeps where it is (``file:line``)."""
    graph = nx.DiGraph()
    for module, path in _modules().items():
        graph.add_node(module)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Import | ast.ImportFrom):
                continue
            for target in _targets(module, path, node):
                if target == module:
                    continue
                if not graph.has_edge(module, target):
                    graph.add_edge(module, target, where=[])
                where = graph.edges[module, target]["where"]
                line = f"{path.relative_to(ROOT)}:{node.lineno}"
                if line not in where:
                    where.append(line)
    return graph


def _edge(graph: nx.DiGraph, a: str, b: str) -> str:
    return f"{a} → {b}  ({', '.join(graph.edges[a, b]['where'])})"


def _top(module: str) -> str:
    """The entry of :data:`LAYER` a module belongs to ("" for the package root)."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


# ---------------------------------------------------------------------- the checks
def test_every_module_has_a_layer():
    unplaced = sorted({_top(m) for m in _modules()} - set(LAYER))
    assert not unplaced, (
        f"modules without a layer: {', '.join(unplaced)}; place each in LAYER of "
        "tests/test_architecture.py and in the diagram of docs/design.md")


def test_no_import_circles():
    graph = import_graph()
    circles = sorted((sorted(c) for c in nx.strongly_connected_components(graph)
                      if len(c) > 1), key=lambda c: (len(c), c))
    report = []
    for members in circles:
        sub = graph.subgraph(members)
        example = " → ".join([a for a, _ in nx.find_cycle(sub)] + [nx.find_cycle(sub)[0][0]])
        report.append(f"circle among {', '.join(members)} (e.g. {example}); its imports:")
        report += [f"    {_edge(graph, a, b)}" for a, b in sorted(sub.edges)]
    assert not circles, (f"{len(circles)} import circle(s) (type-checking and function-level "
                         "imports count):\n" + "\n".join(report))


def test_no_module_imports_its_own_package():
    """A package's ``__init__`` may import its children, so no child imports it back.

    The package root is left to the layer check: only the entry points (layer 5) may
    import it, and it imports none of them.
    """
    graph = import_graph()
    bad = [_edge(graph, a, b) for a, b in sorted(graph.edges)
           if b != PACKAGE and a.startswith(b + ".")]
    assert not bad, "modules importing their own package's __init__:\n    " + "\n    ".join(bad)


def test_imports_go_to_the_same_or_a_lower_layer():
    graph = import_graph()

    def layer(module: str) -> int:
        return LAYER.get(_top(module), -1)

    upward = [f"{_edge(graph, a, b)}: layer {layer(a)} → {layer(b)}"
              for a, b in sorted(graph.edges)
              if _top(a) in LAYER and _top(b) in LAYER and layer(b) > layer(a)]
    assert not upward, (f"{len(upward)} import(s) upward (docs/design.md: a module imports "
                        "only from its own layer or lower ones):\n    " + "\n    ".join(upward))


def _diagram_layers() -> dict[str, int]:
    """Name → layer from the diagram (the first code block of docs/design.md)."""
    text = DESIGN.read_text(encoding="utf-8")
    block = re.search(r"```\n(.*?)```", text, re.S)
    assert block, "docs/design.md has no diagram (a ``` code block)"
    layers: dict[str, int] = {}
    current = None
    for line in block.group(1).splitlines():
        head = re.match(r"\s*(\d)\s{2,}(\S.*?)\s{2,}(.*)$", line)
        if head:
            current, names = int(head.group(1)), head.group(3)
        elif line.strip():
            names = line
        else:
            continue
        assert current is not None, f"docs/design.md diagram: {line!r} before any layer"
        while re.search(r"\([^()]*\)", names):  # comments, nested ones too
            names = re.sub(r"\([^()]*\)", "", names)
        for name in re.split(r",|\s{2,}", names):
            name = name.strip().rstrip("/")
            if name:
                layers["" if name == ROOT_IN_DIAGRAM else name] = current
    return layers


def test_layer_table_matches_docs_design():
    diagram = _diagram_layers()
    differ = sorted(n for n in set(diagram) | set(LAYER) if diagram.get(n) != LAYER.get(n))
    assert not differ, "LAYER and the diagram of docs/design.md differ:\n    " + "\n    ".join(
        f"{n or ROOT_IN_DIAGRAM!r}: test {LAYER.get(n)}, docs {diagram.get(n)}" for n in differ)
