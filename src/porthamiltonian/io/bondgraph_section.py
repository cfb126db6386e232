"""The ``bondgraph`` section of a model file (docs/model-files.md), checked at schema level.

Only the file format is checked here (keys, names, expressions, matrix shapes,
bond ends); causality and existence of an explicit form are the bond-graph
compiler's business.

The checked section is::

    {"domain": "electrical" | None,                  # the graph's default domain
     "elements": [{"name": "C1", "type": "C", "dim": 1,
                   "domain": None,                   # declared: a name, a pair, or None
                   "line": 7, "path": ("bondgraph", "elements", 3),
                   "label": "bondgraph.elements[3] (C1)",  # for messages
                   "states": ["C1"],                 # C and I elements only ("C1.q"
                                                     # when a parameter is named C1)
                   "c": <sympy.Expr>,                # the keys the element gave, parsed
                   "text": {"c": "C"}}, ...],        # ... and their original text
     "bonds": [{"from": "u", "to": "j", "name": None, "line": 9}, ...],
     "include": [...], "ports": {"elec": "je"},      # sub-graphs (.bondgraph_include)
     "count": 12,                                    # elements, includes expanded
     "states": [...], "inputs": [...], "outputs": [...]}

States, inputs and outputs include those of the included sub-graphs, renamed as
:meth:`porthamiltonian.bondgraph.BondGraph.include` renames them (``m1.La``).

``domain:`` (on the section: the default; on an element: its declaration, two names
``[in, out]`` for a TF/GY) is checked and propagated as the compiler does
(:mod:`porthamiltonian.bondgraph.domains`), so the outputs — each source's conjugate
variable, ``V.i`` for an electrical Se ``V`` — are known at load time, and a conflict of
declarations is reported with the model's other problems.

For ``dim: k > 1`` the matrix parameters ``c``, ``i``, ``r``, ``ratio`` are
``k×k`` :class:`sympy.ImmutableMatrix` (a scalar ``a`` in the file means ``a``
times the identity) and the element's states are ``C1[0] ... C1[k-1]``.
Expressions are in terms of the parameter symbols (see :mod:`.parameters`) and
the state symbols :func:`porthamiltonian.expr.state_symbol`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy

from ..errors import ModelError
from ..expr import state_symbol
from ..naming import expand, qualified_state
from .bondgraph_include import check_includes, check_ports, flattened, port_ends
from .limits import current as current_limits
from .schema import Checker, KeyPath, Section, label_of
from .unit_checks import check_element_units

__all__ = ["ELEMENT_KEYS", "STORAGE_TYPES", "SOURCE_TYPES", "check_bondgraph",
           "held_chemostat_inputs"]

_COMMON = ("name", "type", "dim", "domain")

#: Extra keys each element type accepts (besides name, type, dim).
ELEMENT_KEYS: dict[str, tuple[str, ...]] = {
    "Se": (), "Sf": (), "MSe": (), "MSf": (), "0": (), "1": (),
    "C": ("c", "hamiltonian"), "I": ("i", "hamiltonian"),
    "R": ("r",), "MR": ("r",),
    "TF": ("ratio",), "GY": ("ratio",), "MTF": ("ratio",), "MGY": ("ratio",),
    "Ce": ("mu0", "K", "RT", "V", "c0"), "Re": ("kappa", "RT"),
    "0s": ("switch", "switched"), "1s": ("switch", "switched"),
}  # fmt: skip
#: chemical elements (docs/bondgraphs-chemical.md): a Ce holds the amount of a species
#: (a state), an Re is a reaction; both are in the chemical domain unless declared
CHEMICAL_TYPES = ("Ce", "Re")
STORAGE_TYPES = ("C", "I")
SOURCE_TYPES = ("Se", "Sf", "MSe", "MSf")

# How each value key is read: (matrix-valued for dim > 1, names it may use).
# "own": parameters + the element's own states; "states": parameters + all storage states.
_VALUE_KEYS: dict[str, tuple[bool, str]] = {
    "c": (True, "params"), "i": (True, "params"), "hamiltonian": (False, "own"),
    "ratio": (True, "states"), "switch": (False, "params"),
}  # fmt: skip


def check_bondgraph(ck: Checker, value: Any, path: KeyPath) -> Section:
    """Check a ``bondgraph`` section (see module docstring)."""
    label = label_of(path)
    data: dict[str, Any] = {"domain": None, "elements": [], "bonds": [], "states": [],
                            "inputs": [], "outputs": [], "include": [], "ports": {},
                            "count": 0}
    section = ck.mapping(value, path, label)
    if section is None:
        return Section(data, None, None)
    ck.keys(
        section, path, label, ("elements", "bonds", "domain", "include", "ports"),
        ("elements", "bonds"), "in a bondgraph section"
    )
    if section.get("include") is not None:  # first: their parameters name states, too
        own = {e.get("name") for e in section.get("elements") or [] if isinstance(e, dict)}
        data["include"] = check_includes(ck, section["include"], (*path, "include"), own)
    if section.get("domain") is not None:
        data["domain"] = _declared(ck, section["domain"], "", (*path, "domain"),
                                   f"{label}.domain")
    raw = ck.sequence(section.get("elements", []), (*path, "elements"), f"{label}.elements")
    elements = _headers(ck, raw or [], (*path, "elements"), f"{label}.elements")
    for e in elements:
        if e["type"] in (*STORAGE_TYPES, "Ce"):
            data["states"] += e["states"]
        elif e["type"] in SOURCE_TYPES:
            data["inputs"] += expand(e["name"], e["dim"])
    every_state = {s: state_symbol(s) for s in data["states"]}
    for e in elements:
        raw = e["raw"].get("domain")
        if raw is None and e["type"] in CHEMICAL_TYPES:
            raw = "chemical"
        e["domain"] = None if raw is None else _declared(
            ck, raw, e["type"], (*e["path"], "domain"), f"{e['label']}.domain")
        _values(ck, e, every_state)
        data["elements"].append(e)
    for inc in data["include"]:
        sub = inc["model"].section
        for key in ("states", "inputs"):
            data[key] += [f"{inc['name']}.{n}" for n in sub[key]]
    data["count"] = len(elements) + sum(inc["count"] for inc in data["include"])
    if data["count"] > current_limits().nodes:
        ck.error((*path, "include"), label,
                 f"the graph has {data['count']} elements with its includes expanded, more "
                 f"than the limit of {current_limits().nodes} (--limit nodes=N raises it)")
    data["bonds"] = _bonds(
        ck,
        section.get("bonds", []),
        (*path, "bonds"),
        f"{label}.bonds",
        [e["name"] for e in elements],
        data["include"],
        {i.get("name") for i in section.get("include") or [] if isinstance(i, dict)},
    )
    if section.get("ports") is not None:
        data["ports"] = check_ports(ck, section["ports"], (*path, "ports"),
                                    {e["name"]: e["type"] for e in elements}, data["include"])
    data["outputs"] = _outputs(ck, data, path, label)
    check_element_units(ck, data)
    return Section(data, data["states"], data["inputs"], list(data["outputs"]))


def _declared(ck: Checker, raw: Any, kind: str, path: KeyPath, label: str) -> Any:
    """A checked ``domain:`` value (canonical names), or ``None`` after reporting."""
    from ..bondgraph.domains import normalize  # the front-end, only for bond-graph files
    from ..bondgraph.graph import base_type

    try:
        return normalize(raw, base_type(kind) if kind else "0", label)
    except ModelError as err:
        ck.error(path, label, str(err).removeprefix(f"{label}: "))
        return None


def _outputs(ck: Checker, data: dict[str, Any], path: KeyPath, label: str) -> list[str]:
    """The sources' output names (their conjugate variables in their propagated domain:
    ``V.i``); a conflict of domain declarations is reported here."""
    from ..bondgraph.domains import propagate, source_output, source_quantities
    from ..bondgraph.graph import base_type
    from ..quantities import DOMAINS

    elements, bonds = flattened(data)  # with the included sub-graphs
    try:
        per_bond = propagate([(n, base_type(t), dec, fb, lab) for n, t, dec, fb, lab in elements],
                             bonds, data["domain"])
    except ModelError as err:
        ck.error(path, label, str(err))
        per_bond = ["generic"] * len(bonds)
    first = {}
    for (tail, head, _), dom in zip(bonds, per_bond, strict=True):
        for end in (tail, head):
            first.setdefault(end, dom)
    dims = _dims(data)
    out: list[str] = []
    for name, kind, _, fallback, _ in elements:
        if kind in SOURCE_TYPES:
            dom = DOMAINS[first.get(name, fallback or data["domain"] or "generic")]
            _, yq = source_quantities(base_type(kind), dom)
            out += [source_output(u, yq) for u in expand(name, dims.get(name, 1))]
    return out


def _dims(section: dict[str, Any], prefix: str = "") -> dict[str, int]:
    """Element → dim, the included sub-graphs' elements renamed (``m1.C1``)."""
    out = {prefix + e["name"]: e["dim"] for e in section["elements"]}
    for inc in section.get("include") or []:
        out.update(_dims(inc["model"].section, f"{prefix}{inc['name']}."))
    return out


def _headers(ck: Checker, raw: list[Any], path: KeyPath, label: str) -> list[dict[str, Any]]:
    """Name, type and dim of each element; the raw mapping is kept under ``"raw"``."""
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for k, item in enumerate(raw):
        epath = (*path, k)
        entry = ck.mapping(item, epath, f"{label}[{k}]")
        if entry is None:
            continue
        name = ck.identifier(entry.get("name"), (*epath, "name"), f"{label}[{k}]", "element")
        elabel = f"{label}[{k}]" + (f" ({name})" if name else "")
        if name in seen:
            ck.error(
                (*epath, "name"),
                elabel,
                f"the element name {name!r} is used twice; element names must be unique",
            )
        kind = entry.get("type")
        kind = str(kind) if kind in (0, 1) and not isinstance(kind, bool) else kind
        if kind not in ELEMENT_KEYS:
            ck.error(
                (*epath, "type"),
                elabel,
                f"unknown element type {kind!r}; use one of {', '.join(ELEMENT_KEYS)}",
            )
        dim = entry.get("dim", 1)
        if isinstance(dim, bool) or not isinstance(dim, int) or dim < 1:
            ck.error((*epath, "dim"), elabel, f"dim must be a positive integer, got {dim!r}")
            dim = None
        elif dim > current_limits().dimension:
            ck.error((*epath, "dim"), elabel,
                     f"dim = {dim} is more than the limit of {current_limits().dimension} "
                     f"bonds per element (a dense {dim}×{dim} block); split the element, or "
                     "raise the limit (--limit dimension=N) if you mean it")
            dim = None
        if kind in ELEMENT_KEYS:
            ck.keys(
                entry,
                epath,
                elabel,
                _COMMON + ELEMENT_KEYS[kind],
                what=f"for a{'n' if kind in ('I', 'MSe', 'MSf') else ''} {kind} element",
            )
        if name is None or kind not in ELEMENT_KEYS or dim is None:
            continue
        seen.add(name)
        e: dict[str, Any] = {
            "name": name,
            "type": kind,
            "dim": dim,
            "line": ck.line(epath),
            "path": epath,
            "label": elabel,
            "raw": entry,
            "text": {},
        }
        if kind in (*STORAGE_TYPES, "Ce"):
            # named like a parameter: the state is qualified (docs/model-files.md, "Names")
            shared = name in ck.symbols
            e["states"] = expand(qualified_state(name, "C" if kind == "Ce" else kind)
                                 if shared else name, dim)
        out.append(e)
    return out


def _values(ck: Checker, e: dict[str, Any], every_state: dict[str, sympy.Symbol]) -> None:
    """Parse the value keys of element ``e`` in place."""
    raw, kind, dim, epath, elabel = e.pop("raw"), e["type"], e["dim"], e["path"], e["label"]
    own = {s: state_symbol(s) for s in e.get("states", [])}
    if kind in STORAGE_TYPES:
        given = [k for k in ELEMENT_KEYS[kind] if k in raw]
        if len(given) != 1:
            key = ELEMENT_KEYS[kind][0]
            what = f"both '{key}' and" if given else f"neither '{key}' nor"
            ck.error(
                epath,
                elabel,
                f"{what} 'hamiltonian' given; give exactly one "
                f"('{key}' for a linear element, 'hamiltonian' for any energy function)",
            )
    if kind in ("R", "MR", "TF", "GY", "MTF", "MGY"):
        key = ELEMENT_KEYS[kind][0]
        if key not in raw:
            ck.error(epath, elabel, f"missing key {key!r} (the {_MEANING[key]})")
    if kind in CHEMICAL_TYPES:
        _chemical_keys(ck, raw, kind, epath, elabel)
    if kind in ("0s", "1s"):
        _switched_keys(ck, raw, e)
    for key in ELEMENT_KEYS[kind]:
        if key not in raw or key == "switched":
            continue
        matrix, scope = _VALUE_KEYS.get(key, (True, "states" if kind == "MR" else "params"))
        names: dict[str, sympy.Expr] = dict(ck.symbols)
        names.update(own if scope == "own" else every_state if scope == "states" else {})
        kpath, klabel = (*epath, key), f"{elabel}.{key}"
        if matrix and dim > 1:
            value = ck.matrix(
                raw[key], kpath, klabel, names, (dim, dim), allow_scalar=True, explain=f"dim {dim}"
            )
        else:
            value = ck.expression(raw[key], kpath, klabel, names)
        e[key] = value
        e["text"][key] = raw[key]
    _depends_on_state(ck, e)


def _depends_on_state(ck: Checker, e: dict[str, Any]) -> None:
    """A storage's ``hamiltonian`` must be a function of its state (a bare name that is
    also a parameter's is the parameter: the state is then written ``La.p``)."""
    energy = e.get("hamiltonian")
    if energy is None or energy.free_symbols & {state_symbol(s) for s in e["states"]}:
        return
    shared = e["states"][0] != expand(e["name"], e["dim"])[0]
    hint = (f"; {e['name']!r} alone is the parameter {e['name']}, the state is written "
            f"{e['states'][0]!r}" if shared else f"; write it in {', '.join(e['states'])}")
    ck.error((*e["path"], "hamiltonian"), f"{e['label']}.hamiltonian",
             f"the energy does not depend on the element's state{hint}")


_MEANING = {"r": "resistance", "ratio": "transformer/gyrator ratio",
            "RT": "gas constant times temperature, J/mol",
            "kappa": "reaction constant, mol/s"}


def _chemical_keys(ck: Checker, raw: dict[str, Any], kind: str, epath: KeyPath,
                   elabel: str) -> None:
    """The keys a Ce (``RT`` and one of ``mu0``/``K``) or an Re (``kappa``, ``RT``) needs."""
    for key in ("RT",) if kind == "Ce" else ("kappa", "RT"):
        if key not in raw:
            ck.error(epath, elabel, f"missing key {key!r} (the {_MEANING[key]})")
    if kind == "Ce" and ("mu0" in raw) == ("K" in raw):
        what = "both 'mu0' and 'K'" if "mu0" in raw else "neither 'mu0' nor 'K'"
        ck.error(epath, elabel, f"{what} given; give exactly one (mu0: the standard chemical "
                 "potential, J/mol; K: BondGraphTools' constant, mu = RT ln(K n))")


def _switched_keys(ck: Checker, raw: dict[str, Any], e: dict[str, Any]) -> None:
    """A switched junction's ``switch`` (required) and ``switched`` (a list of the
    neighbours or bonds it switches; checked against the bonds by the compiler)."""
    epath, elabel = e["path"], e["label"]
    if "switch" not in raw:
        ck.error(epath, elabel, "missing key 'switch' (the switch signal: a parameter set by "
                 "simulate.modulation, e.g. switch: S, or an expression such as 1 - S)")
    names = raw.get("switched")
    if isinstance(names, str):
        names = [names]
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        ck.error((*epath, "switched"), f"{elabel}.switched", "give switched: [the neighbour "
                 f"element(s) or bond(s) the switch connects], got {names!r}")
        return
    e["switched"] = tuple(names)


def _bonds(
    ck: Checker, value: Any, path: KeyPath, label: str, names: list[str],
    includes: Sequence[dict[str, Any]] = (), failed: set[Any] = frozenset(),
) -> list[dict[str, Any]]:
    """The checked bonds; an end is an element or a port ``m1.elec`` of an include (one
    that could not be read, in ``failed``, has been reported already)."""
    raw = ck.sequence(value, path, label)
    out: list[dict[str, Any]] = []
    known = set(names) | set(port_ends(includes))
    subs = {inc["name"]: inc for inc in includes}
    seen: set[str] = set()
    for k, item in enumerate(raw or []):
        bpath, blabel = (*path, k), f"{label}[{k}]"
        if isinstance(item, list) and len(item) == 2:
            ends, bond_name, epaths = item, None, [(*bpath, 0), (*bpath, 1)]
        elif isinstance(item, dict):
            if not ck.keys(
                item, bpath, blabel, ("from", "to", "name"), ("from", "to"), "for a bond"
            ):
                continue
            ends, bond_name = [item["from"], item["to"]], item.get("name")
            epaths = [(*bpath, "from"), (*bpath, "to")]
            if bond_name is not None and not isinstance(bond_name, str):
                ck.error((*bpath, "name"), blabel, f"the bond name must be text, got {bond_name!r}")
            elif bond_name in seen:
                ck.error((*bpath, "name"), blabel, f"the bond name {bond_name!r} is used twice")
            elif bond_name is not None:
                seen.add(bond_name)
        else:
            ck.error(bpath, blabel, "a bond is [from, to] or {from: ..., to: ..., name: ...}")
            continue
        ok = True
        for end, epath in zip(ends, epaths, strict=True):
            if isinstance(end, str) and end.split(".", 1)[0] in failed - set(subs):
                ok = False  # the include's own problem is reported
            elif isinstance(end, str) and end.split(".", 1)[0] in subs and end not in known:
                ok = False
                inc = subs[end.split(".", 1)[0]]
                ck.error(epath, blabel, f"the sub-graph {inc['name']!r} ({inc['file']}) has no "
                         f"port {end.split('.', 1)[1]!r}; its ports are: "
                         + ", ".join(f"{inc['name']}.{p}" for p in inc["ports"]))
            elif not isinstance(end, str) or end not in known:
                ok = False
                ck.error(
                    epath,
                    blabel,
                    f"unknown element {end!r}; elements are: {', '.join(names) or '(none)'}"
                    + (f"; ports of the sub-graphs: {', '.join(port_ends(includes))}"
                       if includes else ""),
                )
        if ok and ends[0] == ends[1]:
            ck.error(bpath, blabel, f"the bond joins {ends[0]!r} to itself")
            ok = False
        if ok:
            out.append({"from": ends[0], "to": ends[1], "name": bond_name, "line": ck.line(bpath)})
    return out


def held_chemostat_inputs(model: Any) -> dict[str, float]:
    """``{X: mu_X}`` (J/mol) for every chemostat of a chemical ``bondgraph`` model: an
    ``Se`` named ``X`` in a graph with reactions (Re) and a declared numeric parameter
    ``mu_X``, the potential at which the reactions' conductances are evaluated.  It is
    the input a run uses when ``simulate: inputs:`` does not give it; another value makes
    the flux differ from mass action (docs/bondgraphs-chemical.md, "Chemostats")."""
    elements = model.section["elements"]
    if not any(e["type"] == "Re" for e in elements):
        return {}
    held = {}
    for e in elements:
        name = e["name"]
        value = model.parameters.get(f"mu_{name}")
        if e["type"] == "Se" and e["dim"] == 1 and value is not None and value.is_number:
            held[name] = float(value)
    return held
