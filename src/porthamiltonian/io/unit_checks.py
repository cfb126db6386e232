"""Where a model file's values with units are used: is their dimension the one the role needs?

Values written with a unit (``10 mH``, :mod:`.units`) are converted to SI when read
(:meth:`.schema.Checker.expression`); this module then checks the places whose role
fixes a dimension:

* the fields of bond-graph elements: ``c`` a compliance (displacement/effort), ``i`` an
  inertia (momentum/flow), ``r`` a resistance (effort/flow), of the element's energy
  domain (``domain:``, declared or propagated along the bonds).  Without a domain the
  value must fit the role in *some* domain (``i: 10 mF`` fits none);
* ``simulate``: ``t_start``, ``t_end``, ``dt`` are times; an ``initial`` value of a
  bond-graph storage is its state (a C's displacement: charge, m, rad …; an I's
  momentum: flux linkage, N·s, N·m·s …).

A field written as an expression carries the dimensions of the parameters in it
(``c: 1/k`` with ``k: 1000 N/m`` is m/N); a part without a unit (a plain number or
parameter) makes it unknown and unchecked.  Messages name the parameter, the element,
the unit given and the unit expected::

    bondgraph.elements[2] (L1).i: parameter La = 10 mF used as the inductance of I element
    L1: expected henry (H), got farad (F)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy

from ..errors import ModelError
from ..naming import split_index
from ..quantities import DOMAINS
from .schema import Checker, KeyPath
from .units import (
    COMMON_DOMAINS,
    Dim,
    DimensionMismatch,
    describe,
    dim_of_unit,
    dimension_of,
    physical_domains,
    role_dimension,
    role_name,
    state_dimension,
)

__all__ = ["check_element_units", "check_simulate_units", "element_domains"]

_FIELDS = {"C": ("c",), "I": ("i",), "R": ("r",), "MR": ("r",)}


def element_domains(data: Mapping[str, Any]) -> dict[str, str | None]:
    """Element name -> its energy domain (``None``: not known) in a checked bondgraph
    section: the domain of its first bond as the bond-graph front-end propagates the
    ``domain:`` declarations, else its own declaration."""
    elements, bonds = data.get("elements", []), data.get("bonds", [])
    out: dict[str, str | None] = {}
    for e in elements:
        declared = e.get("domain")
        out[e["name"]] = declared if isinstance(declared, str) else None
    from ..bondgraph.domains import propagate  # only for a model with units
    from ..bondgraph.graph import base_type

    try:
        per_bond = propagate(
            [(e["name"], base_type(e["type"]), e.get("domain"), None, e["label"])
             for e in elements],
            [(b["from"], b["to"], "") for b in bonds], data.get("domain"))
    except ModelError:  # a conflict of declarations: reported by the section check
        return out
    for b, dom in zip(bonds, per_bond, strict=True):
        for end in (b["from"], b["to"]):
            if out.get(end) is None and dom != "generic":
                out[end] = dom
    return out


def _parameter_dims(ck: Checker) -> dict[sympy.Symbol, Dim]:
    return {ck.symbols[n]: dim for n, (dim, _) in ck.units.items() if n in ck.symbols}


def _entries(value: Any, text: Any, path: KeyPath) -> list[tuple[KeyPath, Any]]:
    """(key path, parsed entry) of a field: one scalar, or each entry of a matrix written
    as rows (a scalar written for a matrix field is one entry)."""
    if isinstance(value, sympy.MatrixBase):
        if isinstance(text, list):
            rows, cols = value.shape
            return [((*path, i, j), value[i, j]) for i in range(rows) for j in range(cols)]
        return [(path, value[0, 0])]
    return [(path, value)]


def _origin(ck: Checker, key: str, expr: Any, text: Any, path: KeyPath) -> str:
    """How the value was given, for messages: ``parameter La = 10 mF`` or ``i = 10 mF``."""
    given = ck.quantities.get(tuple(path))
    if given is not None:
        return f"{key} = {given.text}"
    if isinstance(expr, sympy.Symbol) and expr.name in ck.units:
        return f"parameter {expr.name} = {ck.units[expr.name][1]}"
    used = sorted(s.name for s in getattr(expr, "free_symbols", ()) if s.name in ck.units)
    detail = ", ".join(f"{n} = {ck.units[n][1]}" for n in used)
    return f"{key} = {text!r}" + (f" (with {detail})" if detail else "")


def _field_dim(ck: Checker, expr: Any, path: KeyPath, label: str,
               dims: Mapping[sympy.Symbol, Dim]) -> Dim | None:
    given = ck.quantities.get(tuple(path))
    if given is not None:
        return given.dim
    if not dims:
        return None
    try:
        return dimension_of(expr, dims)
    except DimensionMismatch as err:
        ck.error(path, label, str(err))
        return None


def check_element_units(ck: Checker, data: Mapping[str, Any]) -> None:
    """Check the ``c``/``i``/``r`` fields of a checked bondgraph section against their
    roles (module docstring); problems go to ``ck``."""
    if not ck.quantities:  # nothing in the file has a unit
        return
    dims = _parameter_dims(ck)
    domains: dict[str, str | None] | None = None
    for e in data.get("elements", []):
        for key in _FIELDS.get(e["type"], ()):
            value = e.get(key)
            if value is None:
                continue
            kpath, klabel = (*e["path"], key), f"{e['label']}.{key}"
            for path, expr in _entries(value, e["text"].get(key), kpath):
                dim = _field_dim(ck, expr, path, klabel, dims)
                if dim is None:
                    continue
                if domains is None:
                    domains = element_domains(data)
                problem = _role_problem(key, dim, domains.get(e["name"]))
                if problem:
                    origin = _origin(ck, key, expr, e["text"].get(key), path)
                    ck.error(path, klabel, f"{origin} used as the "
                             f"{role_name(key, domains.get(e['name']))} of {e['type']} element "
                             f"{e['name']}: {problem}")


def _role_problem(key: str, dim: Dim, domain: str | None) -> str | None:
    """What is wrong with ``dim`` for field ``key`` in ``domain`` (``None``: any), or
    ``None`` when it fits."""
    if domain in physical_domains():
        expected, shown = role_dimension(key, domain)
        if dim == expected:
            return None
        hint = ""
        if key == "c" and dim == expected ** -1:
            hint = "; c is a compliance, the inverse of a stiffness: write 1/k"
        return f"expected {shown}, got {describe(dim)}{hint}"
    fits = {dom: role_dimension(key, dom) for dom in COMMON_DOMAINS}
    if any(dim == d for d, _ in fits.values()):
        return None
    hint = ""
    if key == "c" and any(dim == d ** -1 for d, _ in fits.values()):
        hint = "; c is a compliance, the inverse of a stiffness: write 1/k"
    return f"expected {_one_of(fits.values())}, got {describe(dim)}{hint}{_UNDECLARED}"


#: why a value was checked against several domains
_UNDECLARED = f" ({', '.join(COMMON_DOMAINS)}: the element declares no domain)"


def _one_of(options: Any) -> str:
    """``"H, kg, kg·m² or Pa·s²/m³"`` (the unit symbols of ``(dim, shown)`` pairs)."""
    shown = [_symbol(text) for _, text in options]
    return ", ".join(shown[:-1]) + " or " + shown[-1]


def _symbol(shown: str) -> str:
    """``"henry (H)"`` → ``"H"``; ``"flux linkage (Wb)"`` → ``"Wb"``; ``"m/N"`` as it is."""
    return shown[shown.rindex("(") + 1:-1] if shown.endswith(")") and " (" in shown else shown


# -- the simulate section --------------------------------------------------------------
def check_simulate_units(ck: Checker, section: Mapping[str, Any], path: KeyPath,
                         model: Mapping[str, Any] | None) -> None:
    """Times must be times; the initial value of a bond-graph storage must have its
    state's dimension (module docstring).  ``model`` is the checked model section."""
    if not ck.quantities and not ck.units:
        return
    time = dim_of_unit("s")
    for key in ("t_start", "t_end", "dt"):
        if key in section:
            kpath = (*path, key)
            dim = _value_dim(ck, section[key], kpath, f"simulate.{key}")
            if dim is not None and dim != time:
                ck.error(kpath, f"simulate.{key}",
                         f"{_shown(ck, section[key], kpath)} is not a time: expected "
                         f"second (s), got {describe(dim)}")
    initial = section.get("initial")
    if isinstance(initial, dict) and model is not None and "elements" in model:
        _initial(ck, initial, (*path, "initial"), model)


def _value_dim(ck: Checker, value: Any, path: KeyPath, label: str) -> Dim | None:
    given = ck.quantities.get(tuple(path))
    if given is not None:
        return given.dim
    if not ck.units or not isinstance(value, str):
        return None
    expr = ck.expression(value, path, label, ck.symbols)
    return None if expr is None else _field_dim(ck, expr, path, label, _parameter_dims(ck))


def _shown(ck: Checker, value: Any, path: KeyPath) -> str:
    given = ck.quantities.get(tuple(path))
    return given.text if given is not None else repr(value)


def _initial(ck: Checker, initial: Mapping[Any, Any], path: KeyPath,
             model: Mapping[str, Any]) -> None:
    owner: dict[str, dict[str, Any]] = {}
    for e in model["elements"]:
        if e["type"] in ("C", "I"):
            owner[e["name"]] = e
            for s in e["states"]:
                owner[s] = owner[split_index(s)[0]] = e
    domains: dict[str, str | None] | None = None
    for name, value in initial.items():
        e = owner.get(name) if isinstance(name, str) else None
        if e is None:
            continue
        entries = [((*path, name, k), v) for k, v in enumerate(value)] \
            if isinstance(value, list) else [((*path, name), value)]
        for vpath, v in entries:
            label = "simulate.initial." + ".".join(str(x) for x in vpath[len(path):])
            dim = _value_dim(ck, v, vpath, label)
            if dim is None:
                continue
            if domains is None:
                domains = element_domains(model)
            problem = _state_problem(e["type"], dim, domains.get(e["name"]))
            if problem:
                ck.error(vpath, label, f"{_shown(ck, v, vpath)} as the initial state of "
                         f"{e['type']} element {e['name']}: {problem}")


def _state_problem(kind: str, dim: Dim, domain: str | None) -> str | None:
    """What is wrong with ``dim`` for the state of a ``kind`` storage in ``domain``."""
    if domain in physical_domains():
        expected, shown, name = state_dimension(kind, domain)
        if dim == expected:
            return None
        co = getattr(DOMAINS[domain], "effort" if kind == "C" else "flow")
        hint = ""
        if co.unit and dim == dim_of_unit(co.unit):
            law = "c·e" if kind == "C" else "i·f"
            hint = (f"; the state is the {name}, not the {co.kind} (for a linear element "
                    f"{name} = {law})")
        return f"expected its {shown}, got {describe(dim)}{hint}"
    fits = {dom: state_dimension(kind, dom)[:2] for dom in COMMON_DOMAINS}
    if any(dim == d for d, _ in fits.values()):
        return None
    what = "displacement" if kind == "C" else "momentum"
    return f"expected a {what} ({_one_of(fits.values())}), got {describe(dim)}{_UNDECLARED}"
