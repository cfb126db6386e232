"""A :class:`Mechanism` from a plain mapping — the ``mechanism:`` section of a model file.

.. code-block:: yaml

    parameters: {m1: 1.2, L1: 0.9}
    mechanism:
      gravity: [0, -9.81, 0]
      bodies:
        - {name: upper, mass: m1, inertia: [0.09, 0.005, 0.09], com: [0, "-L1/2", 0]}
      joints:
        - {name: shoulder, kind: revolute, parent: ground, child: upper, axis: [0, 0, 1]}
      actuators:
        - {joint: shoulder, stiffness: 0, damping: 0.1, setpoint: 0}
      flexible_links:
        - name: forearm
          parent: upper
          direction: [0, -1, 0]
          parent_anchor: [0, "-L1", 0]
          beam: {length: 0.5, rhoA: 1.0, rhoI: 1e-4, EA: 1e6, EI: 20, GA: 1e6, GJ: 10,
                 elements: 6, left: velocity, right: free}

Force elements go under ``forces:`` (``kind: spring_damper | bushing | wrench``, the
keys of :meth:`Mechanism.add_spring_damper`, ``add_bushing``, ``add_wrench_port``)
and sphere–plane contacts under ``contacts:`` (the keys of
:meth:`Mechanism.add_contact`):

.. code-block:: yaml

      forces:
        - {name: strut, kind: spring_damper, first: ground, second: upper,
           first_anchor: [0, 0.5, 0], stiffness: 200, damping: 2, rest_length: 0.4}
        - {name: push, kind: wrench, first: ground, second: lower, axes: world}
      contacts:
        - {name: floor, body: lower, anchor: [0, -0.7, 0], radius: 0.05,
           normal: [0, 1, 0], offset: -1.2, stiffness: 1e5, damping: 60, friction: 0.3}

A flexible link's ``beam`` holds the arguments of
:func:`porthamiltonian.distributed.spatial_beam` (a straight beam: no ``curvature``);
the other keys are those of :meth:`Mechanism.add_flexible_link`.

Every number may be an expression in the (numeric) parameters, read with the safe
parser :func:`porthamiltonian.expr.parse_expression`.  Errors name the entry at fault
(``mechanism.bodies[0] (upper).mass``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError
from ..expr import parse_expression
from .mechanism import Mechanism

__all__ = ["mechanism_from_spec"]

_BODY = {"name", "mass", "inertia", "com"}
_JOINT = {"name", "kind", "parent", "child", "axis", "axis2", "parent_anchor", "child_anchor"}
_ACT = {"joint", "stiffness", "damping", "setpoint"}
_FORCE = {"name", "kind", "first", "second", "first_anchor", "second_anchor", "stiffness",
          "damping", "rest_length", "axes"}
#: keys each force kind takes (besides name, kind, first, second and the anchors)
FORCE_KEYS = {"spring_damper": ("stiffness", "damping", "rest_length"),
              "bushing": ("stiffness", "damping"), "wrench": ("axes",)}
_CONTACT = {"name", "body", "anchor", "radius", "normal", "offset", "stiffness", "damping",
            "exponent", "damping_exponent", "friction", "slip_velocity"}
_LINK = {"name", "beam", "parent", "child", "parent_anchor", "child_anchor", "direction", "up"}
_BEAM_NUM = ("length", "rhoA", "rhoI", "EA", "EI", "GA", "GJ", "rhoJ")
_BEAM = {*_BEAM_NUM, "elements", "degree", "left", "right"}


def _number(value: Any, names: Mapping[str, sp.Expr], where: str) -> Any:
    if isinstance(value, (list, tuple)):
        return [_number(v, names, f"{where}[{i}]") for i, v in enumerate(value)]
    expr = parse_expression(value, names, where=where)
    if expr.free_symbols:
        raise ModelError(f"{where}: {value!r} depends on {sorted(map(str, expr.free_symbols))}"
                         " without numeric values; give them under parameters")
    return float(expr)


def _entries(spec: Mapping[str, Any], key: str, allowed: set[str], required: set[str]
             ) -> list[tuple[str, dict]]:
    items = spec.get(key, []) or []
    if not isinstance(items, list):
        raise ModelError(f"mechanism.{key} must be a list of mappings")
    out = []
    for i, item in enumerate(items):
        label = f"mechanism.{key}[{i}]"
        if not isinstance(item, Mapping):
            raise ModelError(f"{label} must be a mapping")
        if "name" in item or "joint" in item:
            label += f" ({item.get('name', item.get('joint'))})"
        unknown = set(item) - allowed
        if unknown:
            raise ModelError(f"{label}: unknown key(s) {sorted(unknown)}; allowed: "
                             f"{sorted(allowed)}")
        missing = required - set(item)
        if missing:
            raise ModelError(f"{label}: missing {sorted(missing)}")
        out.append((label, dict(item)))
    return out


def mechanism_from_spec(spec: Mapping[str, Any],
                        parameters: Mapping[str, float] | None = None) -> Mechanism:
    """Build a :class:`Mechanism` from the mapping of a ``mechanism:`` section."""
    if not isinstance(spec, Mapping):
        raise ModelError("mechanism: expected a mapping with bodies, joints, actuators")
    unknown = set(spec) - {"gravity", "bodies", "joints", "actuators", "flexible_links",
                           "forces", "contacts", "name"}
    if unknown:
        raise ModelError(f"mechanism: unknown key(s) {sorted(unknown)}; allowed: gravity, "
                         "bodies, joints, actuators, flexible_links, forces, contacts, name")
    names = {k: sp.Float(v) for k, v in (parameters or {}).items()}
    num = lambda v, where: _number(v, names, where)  # noqa: E731
    mech = Mechanism(gravity=np.asarray(num(spec.get("gravity", [0, 0, 0]),
                                            "mechanism.gravity")),
                     name=str(spec.get("name", "mechanism")))
    for label, b in _entries(spec, "bodies", _BODY, {"name", "mass", "inertia"}):
        mech.add_body(str(b["name"]), num(b["mass"], f"{label}.mass"),
                      num(b["inertia"], f"{label}.inertia"),
                      num(b.get("com", [0, 0, 0]), f"{label}.com"))
    for label, j in _entries(spec, "joints", _JOINT, {"name", "kind", "parent", "child"}):
        geo = {k: num(j[k], f"{label}.{k}") for k in ("axis", "axis2", "parent_anchor",
                                                      "child_anchor") if k in j}
        mech.add_joint(str(j["name"]), str(j["kind"]), str(j["parent"]), str(j["child"]),
                       **geo)
    for label, a in _entries(spec, "actuators", _ACT, {"joint"}):
        mech.add_actuator(str(a["joint"]), num(a.get("stiffness", 0.0), f"{label}.stiffness"),
                          num(a.get("damping", 0.0), f"{label}.damping"),
                          None if a.get("setpoint") is None
                          else num(a["setpoint"], f"{label}.setpoint"))
    for label, lk in _entries(spec, "flexible_links", _LINK, {"name", "beam", "parent"}):
        geo = {k: num(lk[k], f"{label}.{k}") for k in ("parent_anchor", "child_anchor",
                                                       "direction", "up") if k in lk}
        mech.add_flexible_link(str(lk["name"]), _beam(lk["beam"], num, f"{label}.beam"),
                               str(lk["parent"]),
                               None if lk.get("child") is None else str(lk["child"]), **geo)
    for label, f in _entries(spec, "forces", _FORCE, {"name", "kind", "first", "second"}):
        kind = str(f["kind"])
        if kind not in FORCE_KEYS:
            raise ModelError(f"{label}.kind: unknown force kind {kind!r}; kinds: "
                             f"{', '.join(FORCE_KEYS)}")
        extra = set(f) - {"name", "kind", "first", "second", "first_anchor",
                          "second_anchor", *FORCE_KEYS[kind]}
        if extra:
            raise ModelError(f"{label}: key(s) {sorted(extra)} do not apply to a {kind}; it "
                             f"takes {', '.join(FORCE_KEYS[kind])}")
        args = {k: num(f[k], f"{label}.{k}") for k in ("first_anchor", "second_anchor",
                                                       "stiffness", "damping",
                                                       "rest_length") if k in f}
        if "axes" in f:
            args["axes"] = str(f["axes"])
        add = {"spring_damper": mech.add_spring_damper, "bushing": mech.add_bushing,
               "wrench": mech.add_wrench_port}[kind]
        add(str(f["name"]), str(f["first"]), str(f["second"]), **args)
    for label, c in _entries(spec, "contacts", _CONTACT, {"name", "body", "stiffness"}):
        law = {k: num(v, f"{label}.{k}") for k, v in c.items()
               if k not in ("name", "body", "anchor")}
        mech.add_contact(str(c["name"]), str(c["body"]),
                         num(c.get("anchor", [0, 0, 0]), f"{label}.anchor"), **law)
    return mech


def _beam(spec: Any, num: Any, where: str) -> Any:
    """A straight :func:`~porthamiltonian.distributed.spatial_beam` from a mapping."""
    from ..distributed import spatial_beam

    if not isinstance(spec, Mapping):
        raise ModelError(f"{where} must be a mapping of spatial_beam arguments")
    unknown = set(spec) - _BEAM
    if unknown:
        raise ModelError(f"{where}: unknown key(s) {sorted(unknown)}; allowed: {sorted(_BEAM)}")
    missing = {"length", "rhoA", "rhoI", "EA", "EI", "GA", "GJ"} - set(spec)
    if missing:
        raise ModelError(f"{where}: missing {sorted(missing)}")
    args = {k: num(spec[k], f"{where}.{k}") for k in _BEAM_NUM if k in spec}
    for k in ("elements", "degree"):
        if k in spec:
            v = num(spec[k], f"{where}.{k}")
            if v != int(v):
                raise ModelError(f"{where}.{k} must be an integer, got {v}")
            args[k] = int(v)
    for k in ("left", "right"):
        if k in spec:
            args[k] = str(spec[k])
    length = args.pop("length")
    return spatial_beam(length, **args)
