"""Sub-graphs in bond-graph model files: ``bondgraph.include`` and ``bondgraph.ports``.

::

    bondgraph:
      include:
        - {name: m1, file: dc_motor_block.yaml}
        - {name: m2, file: blocks/dc_motor_block.yaml, parameters: {J_r: J2}}
      elements: [...]
      bonds: [[V, node], [node, m1.elec], [node, m2.elec]]

An entry includes the bond graph of another model file as the sub-graph ``name``, as
:meth:`porthamiltonian.bondgraph.BondGraph.include` does: its elements and states are
renamed ``m1.Ra``, ``m1.La``, its sources' inputs ``m1.V``, and a bond of the including
file ends at one of its exposed ports, ``m1.elec``.  The included file exposes junctions
with ``ports:`` — a list of junction names (each port named like its junction) or a
mapping ``port: junction`` (a junction of its own, or a port ``sub.port`` of a file it
includes in turn).  Its ``simulate:`` section is not read.

Parameters
----------
Parameters are shared by name across the whole model, as in ``BondGraph.include``, with
two rules that make one file usable many times:

* the including file's own ``parameters:`` win over an included file's parameter of the
  same name (so ``sweep --param Ra=…`` on the including file reaches every block);
* ``parameters:`` on an entry *binds* the included file's parameters, in that instance
  only, to a number or an expression in the including file's parameters
  (``{J_r: J2}``); a bound parameter is replaced by its value in that instance and is not
  a parameter of the whole model.

Parameters an included file derives from a bound one (``tau: La/Ra``) follow the binding.
The remaining parameters of each instance join the model's; two instances that give one
name two different values are an error naming the entry's line.

Safety (docs/model-files.md, "Limits and safety")
-------------------------------------------------
``file`` is relative to the including file's folder and must stay inside it: absolute
paths, ``~``, ``..`` segments and links leading out are refused.  Includes nest at most
:data:`MAX_DEPTH` files deep, a file that includes itself (directly or through others) is
refused with the chain, each file is read with the size and node limits of any model
file, and the whole graph after expansion has at most ``nodes`` (the limit) elements.
Every problem names the file and line at fault; nothing is executed.
"""

from __future__ import annotations

import contextvars
import pathlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import sympy

from ..errors import ModelError
from .schema import Checker, KeyPath

__all__ = ["MAX_DEPTH", "INCLUDE_KEYS", "check_includes", "check_ports", "flattened",
           "port_ends"]

#: how many files deep includes may nest (a file including one that includes … )
MAX_DEPTH = 8
INCLUDE_KEYS = ("name", "file", "parameters")
_SUFFIXES = (".yaml", ".yml", ".json")
_JUNCTIONS = ("0", "1", "0s", "1s")

#: the files being read, outermost first (per thread: the workbench checks in several);
#: and the files already read in this check, by (path, symbolic names, mtime, size)
_OPEN: contextvars.ContextVar[tuple[pathlib.Path, ...]] = contextvars.ContextVar(
    "porthamiltonian_includes", default=())
_READ: contextvars.ContextVar[dict[Any, Any] | None] = contextvars.ContextVar(
    "porthamiltonian_include_cache", default=None)


def check_includes(ck: Checker, value: Any, path: KeyPath, own: set[str]) -> list[dict[str, Any]]:
    """The checked ``include:`` entries (reported problems leave an entry out).

    Each is ``{"name", "file", "model" (the included :class:`~porthamiltonian.io.Model`,
    its bound parameters symbolic), "bind" ({its symbol: the value here}), "ports"
    ({port: junction}), "line", "label", "count" (elements after expansion)}``.  The
    instances' parameters are added to ``ck.symbols`` / ``ck.values``; ``own`` are the
    element names of the including file (an include may not take one)."""
    label = "bondgraph.include"
    raw = ck.sequence(value, path, label)
    out: list[dict[str, Any]] = []
    mine = set(ck.symbols)  # the including file's own parameters
    joined: dict[str, str] = {}  # parameter → the entry that brought it
    for k, item in enumerate(raw or []):
        ipath, ilabel = (*path, k), f"{label}[{k}]"
        entry = ck.mapping(item, ipath, ilabel)
        if entry is None or not ck.keys(entry, ipath, ilabel, INCLUDE_KEYS, ("name", "file"),
                                        "in an include"):
            continue
        name = ck.identifier(entry["name"], (*ipath, "name"), ilabel, "sub-graph")
        if name is None:
            continue
        ilabel = f"{ilabel} ({name})"
        if name in own or any(o["name"] == name for o in out):
            what = "an element" if name in own else "another include"
            ck.error((*ipath, "name"), ilabel, f"{what} is already called {name!r}; give "
                     "each sub-graph its own name")
            continue
        found = _read_include(ck, entry["file"], (*ipath, "file"), ilabel)
        if found is None:
            continue
        target, sub = found
        given = entry.get("parameters") or {}
        if ck.mapping(given, (*ipath, "parameters"), f"{ilabel}.parameters") is None:
            continue
        unknown = sorted(str(p) for p in given if p not in sub.parameters)
        if unknown:
            ck.error((*ipath, "parameters"), f"{ilabel}.parameters",
                     f"{entry['file']} has no parameter(s) {', '.join(unknown)}; its "
                     f"parameters are: {', '.join(sub.parameters) or '(none)'}")
            continue
        bound = sorted(set(given) | (set(sub.parameters) & mine))
        if bound:  # read again with the bound parameters left free, so derived ones follow
            again = _load(ck, target, bound, (*ipath, "file"), ilabel)
            if again is None:
                continue
            sub = again
        bind = _bindings(ck, sub, given, bound, ipath, ilabel)
        if bind is None:
            continue
        if not _join(ck, sub, bound, bind, joined, mine, ipath, ilabel):
            continue
        out.append({"name": name, "file": entry["file"], "model": sub, "bind": bind,
                    "ports": dict(sub.section.get("ports") or {}), "line": ck.line(ipath),
                    "label": ilabel, "count": sub.section.get("count", 0)})
    return out


def check_ports(ck: Checker, value: Any, path: KeyPath, elements: dict[str, str],
                includes: list[dict[str, Any]]) -> dict[str, str]:
    """``ports:``: a list of junction names, or a mapping ``port: junction`` (a junction of
    this file or a port ``sub.port`` of an included one); ``{port: element}``.
    ``elements``: this file's element → type."""
    label = "bondgraph.ports"
    if isinstance(value, list):
        pairs = [((*path, k), j, j) for k, j in enumerate(value)]
    elif isinstance(value, dict):
        pairs = [((*path, p), p, j) for p, j in value.items()]
    else:
        ck.error(path, label, "give a list of junctions ([je, jm]) or a mapping "
                 f"port: junction ({{elec: je}}), got {type(value).__name__}")
        return {}
    ends = port_ends(includes)
    out: dict[str, str] = {}
    for kpath, port, junction in pairs:
        if not isinstance(port, str) or not port.isidentifier():
            ck.error(kpath, label, f"{port!r} is not a port name (letters, digits, _); a port "
                     f"of an included graph needs a name of its own: ports: {{<name>: {port}}}")
            continue
        if port in out:
            ck.error(kpath, label, f"the port {port!r} is given twice")
            continue
        if isinstance(junction, str) and junction in ends:
            out[port] = ends[junction]
        elif isinstance(junction, str) and elements.get(junction) in _JUNCTIONS:
            out[port] = junction
        else:
            what = (f"a {elements[junction]} element" if junction in elements else
                    "not an element of this file")
            ck.error(kpath, f"{label}.{port}", f"{junction!r} is {what}; a port is a 0- or "
                     "1-junction (put one between an element and the outside)")
    return out


def port_ends(includes: list[dict[str, Any]]) -> dict[str, str]:
    """``"m1.elec"`` → ``"m1.je"``: the bond ends the included graphs offer, and the
    junction each one is."""
    return {f"{inc['name']}.{p}": f"{inc['name']}.{j}" for inc in includes
            for p, j in inc["ports"].items()}


def flattened(section: dict[str, Any], prefix: str = "", fallback: str | None = None
              ) -> tuple[list[tuple[Any, ...]], list[tuple[str, str, str]]]:
    """The elements ``(name, type, declared domain, fallback domain, label)`` and bonds
    ``(tail, head, label)`` of a checked section with its includes expanded, named as
    :meth:`BondGraph.include` names them, in the order the compiler adds them (own
    elements, each include, own bonds); for the domain propagation at load time."""
    elements = [(prefix + e["name"], e["type"], e.get("domain"), fallback, e["label"])
                for e in section["elements"]]
    bonds: list[tuple[str, str, str]] = []
    for inc in section.get("include") or []:
        sub = inc["model"].section
        els, bds = flattened(sub, f"{prefix}{inc['name']}.", sub.get("domain") or fallback)
        elements += els
        bonds += bds
    ends = {prefix + k: prefix + v for k, v in port_ends(section.get("include") or []).items()}
    for b in section["bonds"]:
        tail, head = prefix + b["from"], prefix + b["to"]
        bonds.append((ends.get(tail, tail), ends.get(head, head),
                      f"bond {tail} → {head}" + (f" at line {b['line']}" if b.get("line")
                                                 else "")))
    return elements, bonds


# ---------------------------------------------------------------------- reading
def _read_include(ck: Checker, file: Any, fpath: KeyPath, label: str
                  ) -> tuple[pathlib.Path, Any] | None:
    """The path and checked model of ``file``, or ``None`` after reporting why not."""
    flabel = f"{label}.file"
    if not isinstance(file, str) or not file.strip():
        ck.error(fpath, flabel, f"give the model file's path as text, got {file!r}")
        return None
    text = file.strip().replace("\\", "/")
    pure = pathlib.PurePosixPath(text)
    inside = "an included file must be in the including file's folder or a sub-folder"
    if pure.is_absolute() or text.startswith("~") or (len(text) > 1 and text[1] == ":"):
        ck.error(fpath, flabel, f"{file!r} is an absolute path; {inside}: give it "
                 "relative to that folder")
        return None
    if ".." in pure.parts:
        ck.error(fpath, flabel, f"{file!r} goes up with '..'; {inside}")
        return None
    if pure.suffix.lower() not in _SUFFIXES:
        ck.error(fpath, flabel, f"{file!r} is not a model file (.yaml, .yml or .json)")
        return None
    folder = pathlib.Path(ck.folder) if ck.folder is not None else pathlib.Path.cwd()
    target = folder / pathlib.Path(*pure.parts)
    real, root = target.resolve(), folder.resolve()
    if root not in real.parents:
        ck.error(fpath, flabel, f"{file!r} leads outside {str(root)!r} (through a link); "
                 f"{inside}")
        return None
    model = _load(ck, target, (), fpath, label)
    return None if model is None else (target, model)


def _load(ck: Checker, target: pathlib.Path, symbolic: Any, fpath: KeyPath, label: str
          ) -> Any:
    """The checked bond-graph model of ``target`` (``symbolic``: its parameters left free),
    or ``None`` after reporting its problems (each naming the included file's line)."""
    flabel = f"{label}.file"
    real = target.resolve()
    chain = _OPEN.get() or ((pathlib.Path(ck.path).resolve(),) if ck.path else ())
    if real in chain:
        names = " → ".join(p.name for p in (*chain[chain.index(real):], real))
        ck.error(fpath, flabel, f"the includes form a cycle ({names}); a file cannot "
                 "include itself, directly or through others")
        return None
    if len(chain) > MAX_DEPTH:
        ck.error(fpath, flabel, f"includes nest more than {MAX_DEPTH} files deep "
                 f"({' → '.join(p.name for p in chain)} → {real.name}); flatten some")
        return None
    if ck.include_loader is None:
        ck.error(fpath, flabel, "includes are read only from model files and documents "
                 "checked by porthamiltonian.io")
        return None
    with _reading((*chain, real)) as cache:
        try:
            info = real.stat()
            key = (real, tuple(symbolic), info.st_mtime_ns, info.st_size)
        except OSError:
            key = None
        if key is not None and key in cache:
            model, problems = cache[key]
        else:
            try:
                model, problems = ck.include_loader(target, tuple(symbolic))
            except ModelError as err:
                ck.error(fpath, flabel, str(err))
                return None
            if key is not None:
                cache[key] = (model, problems)
    source = str(target)
    for problem in problems:
        # the included file by the name the entry gives it; not cut to MAX_MESSAGE: the
        # chain of includes is at most MAX_DEPTH files long
        if problem.startswith(source):
            problem = _shown(ck, target) + problem[len(source):]
        ck.problems.append(ck.locate(fpath, f"{label}: {problem}"))
    if problems or model is None:
        return None
    if model.kind != "bondgraph":
        ck.error(fpath, flabel, f"{target.name} is a '{model.kind}' model; only bond-graph "
                 "model files can be included")
        return None
    if not model.section.get("ports"):
        ck.error(fpath, flabel, f"{target.name} exposes no ports; add ports: [junction, …] "
                 "to its bondgraph section (the junctions the including graph bonds to)")
        return None
    return model


def _shown(ck: Checker, target: pathlib.Path) -> str:
    """``target`` relative to the including file's folder (as the entry names it)."""
    try:
        return target.relative_to(ck.folder or pathlib.Path.cwd()).as_posix()
    except ValueError:
        return str(target)


@contextmanager
def _reading(chain: tuple[pathlib.Path, ...]) -> Iterator[dict[Any, Any]]:
    """Within the block, ``chain`` is the stack of files being read; the cache of files
    read lives as long as the outermost include."""
    cache = _READ.get()
    fresh = cache is None
    if fresh:
        cache = {}
        cache_token = _READ.set(cache)
    token = _OPEN.set(chain)
    try:
        yield cache
    finally:
        _OPEN.reset(token)
        if fresh:
            _READ.reset(cache_token)


# ---------------------------------------------------------------------- parameters
def _bindings(ck: Checker, sub: Any, given: dict[str, Any], bound: list[str],
              ipath: KeyPath, label: str) -> dict[sympy.Symbol, sympy.Expr] | None:
    """The included file's bound parameter symbols → their values here: the entry's
    ``parameters:`` (expressions in this file's parameters), else this file's parameter
    of the same name."""
    bind: dict[sympy.Symbol, sympy.Expr] = {}
    ok = True
    for p in bound:
        if p in given:
            value = ck.expression(given[p], (*ipath, "parameters", p),
                                  f"{label}.parameters.{p}", ck.symbols)
            if value is None:
                ok = False
                continue
        else:
            value = ck.symbols[p]
        bind[sub.symbols[p]] = value
    return bind if ok else None


def _join(ck: Checker, sub: Any, bound: list[str], bind: dict[sympy.Symbol, sympy.Expr],
          joined: dict[str, str], mine: set[str], ipath: KeyPath, label: str) -> bool:
    """Add the instance's free parameters to the model's; ``False`` on a clash."""
    numeric = {ck.symbols[n]: v for n, v in ck.values.items() if n in ck.symbols}
    ok = True
    for q, raw in sub.parameters.items():
        if q in bound or q in mine:
            continue
        value = sympy.sympify(raw).xreplace(bind).xreplace(numeric)
        if q in joined and value != ck.values[q]:
            ck.error((*ipath, "file"), label,
                     f"parameter {q!r} = {value} here but {ck.values[q]} in {joined[q]}; "
                     "bind it in one of the entries (parameters: {" + q + ": …}), set it "
                     "in this file's parameters, or give it another name in one file")
            ok = False
            continue
        joined.setdefault(q, label)
        ck.symbols[q] = sub.symbols[q]
        ck.values[q] = value
    return ok
