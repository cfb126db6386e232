"""The ``network`` section of a model file: library components joined at ports.

::

    network:
      components:
        - {name: V, type: electrical.VoltageSource}
        - {name: motor, type: electromechanical.DCMotor, R: R, L: 1.0e-3, k: 0.05,
           J: 1.0e-4, b: 1.0e-5}
        - {name: gear, type: mechanical.Gear, n: 10}
        - {name: load, type: mechanical.Inertia, J: 0.02}
      connections:
        - [V.p, motor.electrical]                       # connect: shared effort
        - [motor.shaft, gear.a]
        - {junction: "1", ports: [gear.b, load.p]}      # or "0"; two or more ports
        - {junction: "0", ports: [...], name: n1}       # a named junction; later junctions
                                                        # may list n1 among their ports
      expose: {}                                        # optional: {component.port: name}

``type`` is ``<domain>.<Class>`` of :mod:`porthamiltonian.library`; the other keys of
a component are its constructor's parameters, numbers or expressions in the model's
``parameters`` (a bare parameter name makes one symbol shared by the components
that use it).  Only the format is checked here; the physics (dangling ports,
over-determined connections) is checked when the network is assembled.

The checked section is ``{"components": [{"name", "type", "class", "parameters":
{key: SymPy expression}, "line"}], "connections": [{"kind": "connect" | "0" | "1",
"ports": [...], "name": junction name or None, "line"}], "expose": {ref: name}}``.
"""

from __future__ import annotations

import inspect
from typing import Any

from .schema import Checker, KeyPath, Section, label_of

__all__ = ["check_network", "component_class"]


def component_class(type_name: Any) -> Any:
    """The library class named ``"<domain>.<Class>"``, or ``None``."""
    from .. import library
    from ..network.component import Component

    if not isinstance(type_name, str) or type_name.count(".") != 1:
        return None
    domain, cls = type_name.split(".")
    mod = getattr(library, domain, None)
    obj = getattr(mod, cls, None) if mod is not None and not cls.startswith("_") else None
    return obj if isinstance(obj, type) and issubclass(obj, Component) else None


def _known_types() -> str:
    from .. import library

    names = []
    for domain in library.__all__:
        mod = getattr(library, domain)
        names += [f"{domain}.{c}" for c in getattr(mod, "__all__", [])]
    return ", ".join(names)


def check_network(ck: Checker, value: Any, path: KeyPath) -> Section:
    """Check a ``network`` section (see the module docstring)."""
    label = label_of(path)
    data: dict[str, Any] = {"components": [], "connections": [], "expose": {}}
    section = ck.mapping(value, path, label)
    if section is None:
        return Section(data, None, None)
    ck.keys(section, path, label, ("components", "connections", "expose"),
            ("components", "connections"), "in a network section")
    names = _components(ck, section.get("components", []), (*path, "components"),
                        f"{label}.components", data)
    _connections(ck, section.get("connections", []), (*path, "connections"),
                 f"{label}.connections", names, data)
    expose = section.get("expose") or {}
    if ck.mapping(expose, (*path, "expose"), f"{label}.expose") is not None:
        for ref, new in expose.items():
            if _ref_ok(ck, ref, (*path, "expose", ref), f"{label}.expose", names):
                data["expose"][ref] = str(new) if new is not None else ref
    return Section(data, None, None)  # states/inputs are known after assembly


def _components(ck: Checker, raw: Any, path: KeyPath, label: str,
                data: dict[str, Any]) -> set[str]:
    names: set[str] = set()
    for k, item in enumerate(ck.sequence(raw, path, label) or []):
        cpath = (*path, k)
        entry = ck.mapping(item, cpath, f"{label}[{k}]")
        if entry is None:
            continue
        name = ck.identifier(entry.get("name"), (*cpath, "name"), f"{label}[{k}]", "component")
        clabel = f"{label}[{k}]" + (f" ({name})" if name else "")
        if name in names:
            ck.error((*cpath, "name"), clabel, f"the component name {name!r} is used twice")
            continue
        cls = component_class(entry.get("type"))
        if cls is None:
            ck.error((*cpath, "type"), clabel,
                     f"unknown component type {entry.get('type')!r}; use one of "
                     f"{_known_types()}")
            continue
        allowed = [p for p in inspect.signature(cls.__init__).parameters if p != "self"]
        ck.keys(entry, cpath, clabel, ("name", "type", *allowed),
                what=f"for a {entry['type']}")
        params = {}
        for key in allowed:
            if key not in entry:
                continue
            if key == "energy":  # an expression in the element's own state: kept as text
                params[key] = str(entry[key])
                continue
            expr = ck.expression(entry[key], (*cpath, key), f"{clabel}.{key}", ck.symbols)
            if expr is not None:
                params[key] = expr
        if name is not None:
            names.add(name)
            data["components"].append({"name": name, "type": entry["type"], "class": cls,
                                       "parameters": params, "line": ck.line(cpath)})
    return names


def _ref_ok(ck: Checker, ref: Any, path: KeyPath, label: str, names: set[str],
            junctions: set[str] = frozenset()) -> bool:  # type: ignore[assignment]
    if isinstance(ref, str) and ref in junctions:
        return True
    if not isinstance(ref, str) or ref.count(".") < 1:
        ck.error(path, label, f"a port is written 'component.port', got {ref!r}")
        return False
    comp = ref.split(".", 1)[0]
    if comp not in names:
        ck.error(path, label, f"unknown component {comp!r} in {ref!r}; components: "
                 f"{', '.join(sorted(names)) or '(none)'}")
        return False
    return True


def _connections(ck: Checker, raw: Any, path: KeyPath, label: str, names: set[str],
                 data: dict[str, Any]) -> None:
    junctions: set[str] = set()
    for k, item in enumerate(ck.sequence(raw, path, label) or []):
        jname = None
        cpath, clabel = (*path, k), f"{label}[{k}]"
        if isinstance(item, list):
            kind, ports = "connect", item
            if len(ports) != 2:
                ck.error(cpath, clabel, "a connection [a.p, b.q] joins exactly two ports; "
                         "use {junction: '0' or '1', ports: [...]} for more")
                continue
        elif isinstance(item, dict):
            if not ck.keys(item, cpath, clabel, ("junction", "ports", "name"),
                           ("junction", "ports"), "for a junction"):
                continue
            kind = str(item["junction"])
            ports = item["ports"]
            jname = item.get("name")
            if jname is not None and (not isinstance(jname, str) or not jname.isidentifier()
                                      or jname in names or jname in junctions):
                ck.error((*cpath, "name"), clabel, f"the junction name {jname!r} must be an "
                         "identifier not used by a component or another junction")
                continue
            if kind not in ("0", "1", "effort", "flow"):
                ck.error((*cpath, "junction"), clabel,
                         f"junction must be '0' (one effort) or '1' (one flow), got {kind!r}")
                continue
            if not isinstance(ports, list) or len(ports) < 2:
                ck.error((*cpath, "ports"), clabel, "a junction needs a list of two or more "
                         "ports")
                continue
        else:
            ck.error(cpath, clabel, "a connection is [a.p, b.q] or {junction: '0', ports: "
                     "[...]}")
            continue
        if all(_ref_ok(ck, p, cpath, clabel, names, junctions) for p in ports):
            data["connections"].append({"kind": kind, "ports": list(ports), "name": jname,
                                        "line": ck.line(cpath)})
            if jname is not None:
                junctions.add(jname)
