"""The ``mechanism`` section: rigid bodies, kinematic pairs and joint actuators.

.. code-block:: yaml

    parameters: {m: 1.0, l: 1.0, g: 9.81}
    mechanism:
      gravity: [0, "-g", 0]                                   # m/s², inertial frame
      bodies:                                                 # inertia about the com,
        - {name: bob, mass: m, inertia: [1e-4, 1e-4, 1e-4], com: [0, "-l", 0]}  # body axes
      joints:                                                 # kind: revolute, prismatic,
        - {name: pivot, kind: revolute, parent: ground, child: bob, axis: [0, 0, 1]}
      actuators:                                              # optional PD port on a joint
        - {joint: pivot, stiffness: 0, damping: 0.01, setpoint: 0}
    simulate:
      t_end: 4.0
      initial: {pivot: 0.1}          # joint coordinates (rad, m); a list for several dof
      velocities: {pivot: 0.0}       # joint velocities (rad/s, m/s)

The keys and meanings are those of :meth:`porthamiltonian.mechanics.Mechanism.add_body`,
``add_joint`` and ``add_actuator`` (SI units; ``ground`` is the fixed frame).  Numbers
may be expressions in the numeric parameters.  This module checks the section with line
numbers (unknown keys, names, kinds, vector shapes, signs); the checked data — plain
floats — is what :func:`porthamiltonian.mechanics.mechanism_from_spec` reads
(:func:`porthamiltonian.io.build.build_system`).  The ``simulate:`` section of a mechanism
gives joint coordinates under ``initial`` and joint velocities under ``velocities``
(names: the joints; a joint of k > 1 coordinates takes a list), and the actuators'
inputs ``<joint>.tau[i]`` (N·m or N) under ``inputs``.
"""

from __future__ import annotations

from typing import Any

from ..naming import expand
from .schema import Checker, KeyPath, Section, label_of

__all__ = ["check_mechanism", "MECHANISM_KEYS"]

MECHANISM_KEYS = ("gravity", "bodies", "joints", "actuators", "flexible_links", "forces",
                  "contacts")
_BODY = ("name", "mass", "inertia", "com")
_JOINT = ("name", "kind", "parent", "child", "axis", "axis2", "parent_anchor", "child_anchor")
_ACTUATOR = ("joint", "stiffness", "damping", "setpoint")
_FORCE = ("name", "kind", "first", "second", "first_anchor", "second_anchor", "stiffness",
          "damping", "rest_length", "axes")
#: the keys each force kind takes besides name, kind, first, second and the anchors
_FORCE_KINDS = {"spring_damper": ("stiffness", "damping", "rest_length"),
                "bushing": ("stiffness", "damping"), "wrench": ("axes",)}
_CONTACT = ("name", "body", "anchor", "radius", "normal", "offset", "stiffness", "damping",
            "exponent", "damping_exponent", "friction", "slip_velocity")
_LINK = ("name", "parent", "child", "parent_anchor", "child_anchor", "direction", "up", "beam")
#: the arguments of :func:`porthamiltonian.distributed.spatial_beam` a link's beam takes
_BEAM_NUMBERS = ("length", "rhoA", "rhoI", "EA", "EI", "GA", "GJ", "rhoJ")
_BEAM = (*_BEAM_NUMBERS, "elements", "degree", "left", "right")
GROUND = "ground"


def check_mechanism(ck: Checker, value: Any, path: KeyPath) -> Section:
    """Check a ``mechanism`` section (see the module docstring)."""
    from ..mechanics.joints import KINDS  # here: the mechanics package loads NumPy, SciPy

    label = label_of(path)
    data: dict[str, Any] = {"gravity": [0.0, 0.0, 0.0], "bodies": [], "joints": [],
                            "actuators": [], "flexible_links": [], "forces": [],
                            "contacts": []}
    section = ck.mapping(value, path, label)
    if section is None:
        return Section(data)
    ck.keys(section, path, label, MECHANISM_KEYS, ("bodies",), "in a mechanism section")
    if "gravity" in section:
        gravity = _vector(ck, section["gravity"], (*path, "gravity"), f"{label}.gravity")
        data["gravity"] = gravity if gravity is not None else data["gravity"]
    data["bodies"] = [b for b in _entries(ck, section, path, label, "bodies", _BODY)
                      if _body(ck, *b)]
    bodies = {b[2]["name"] for b in data["bodies"]}
    joints = [j for j in _entries(ck, section, path, label, "joints", _JOINT)
              if _joint(ck, *j, bodies)]
    dof = {j[2]["name"]: KINDS[j[2]["kind"]] for j in joints}
    actuators = [a for a in _entries(ck, section, path, label, "actuators", _ACTUATOR)
                 if _actuator(ck, *a, dof)]
    seen: set[str] = set()
    for apath, alabel, a in actuators:
        if a["joint"] in seen:
            ck.error((*apath, "joint"), f"{alabel}.joint",
                     f"joint {a['joint']!r} has two actuators; give one (with both stiffness "
                     "and damping)")
        seen.add(a["joint"])
    data["bodies"] = [b[2] for b in data["bodies"]]
    data["joints"] = [j[2] for j in joints]
    data["actuators"] = [a[2] for a in actuators]
    data["flexible_links"] = [f[2] for f in _entries(ck, section, path, label,
                                                     "flexible_links", _LINK)
                              if _link(ck, *f, bodies)]
    data["forces"] = [f[2] for f in _entries(ck, section, path, label, "forces", _FORCE)
                      if _force(ck, *f, bodies)]
    data["contacts"] = [c[2] for c in _entries(ck, section, path, label, "contacts", _CONTACT)
                        if _contact(ck, *c, bodies)]
    coordinates = [c for name, k in dof.items() if k > 0 for c in expand(name, k)]
    inputs = [f"{a['joint']}.tau[{i}]" for a in data["actuators"] for i in range(dof[a["joint"]])]
    inputs += [f"{f['name']}.W[{i}]" for f in data["forces"] if f["kind"] == "wrench"
               for i in range(6)]
    # outputs (joint velocities) and the states (poses, momenta) are named at assembly
    return Section(data, coordinates, inputs, None, velocities=coordinates)


def _entries(ck: Checker, section: dict[Any, Any], path: KeyPath, label: str, key: str,
             allowed: tuple[str, ...]) -> list[tuple[KeyPath, str, dict[str, Any]]]:
    """``(path, label, entry)`` of each well-formed mapping of ``section[key]``, names unique."""
    out: list[tuple[KeyPath, str, dict[str, Any]]] = []
    names: set[str] = set()
    what = {"bodies": "a body", "joints": "a joint", "actuators": "an actuator",
            "flexible_links": "a flexible link", "forces": "a force element",
            "contacts": "a contact"}[key]
    for i, item in enumerate(ck.sequence(section.get(key, []), (*path, key), f"{label}.{key}")
                             or []):
        ipath, ilabel = (*path, key, i), f"{label}.{key}[{i}]"
        entry = ck.mapping(item, ipath, ilabel)
        if entry is None:
            continue
        head = "joint" if key == "actuators" else "name"
        name = entry.get(head)
        if name is not None:
            ilabel += f" ({name})"
        required = {"bodies": (head, "mass", "inertia"),
                    "joints": (head, "kind", "parent", "child"),
                    "flexible_links": (head, "parent", "beam"),
                    "forces": (head, "kind", "first", "second"),
                    "contacts": (head, "body", "stiffness")}.get(key, (head,))
        if not ck.keys(entry, ipath, ilabel, allowed, required, f"in {what}"):
            continue
        if key != "actuators":
            if ck.identifier(name, (*ipath, head), f"{ilabel}.{head}", what[2:]) is None:
                continue
            if name == GROUND or name in names:
                ck.error((*ipath, head), f"{ilabel}.{head}",
                         f"{'ground is the fixed frame' if name == GROUND else 'the name is taken'}"
                         f"; give {what} its own name")
                continue
            names.add(name)
        out.append((ipath, ilabel, dict(entry)))
    return out


def _body(ck: Checker, path: KeyPath, label: str, b: dict[str, Any]) -> bool:
    mass = ck.number(b["mass"], (*path, "mass"), f"{label}.mass", positive=True)
    inertia = b["inertia"]
    ipath, ilabel = (*path, "inertia"), f"{label}.inertia"
    if isinstance(inertia, list) and len(inertia) == 3 and all(isinstance(r, list)
                                                               for r in inertia):
        rows = [_vector(ck, r, (*ipath, i), f"{ilabel}[{i}]") for i, r in enumerate(inertia)]
        matrix = None if None in rows else rows
    else:
        matrix = _vector(ck, inertia, ipath, ilabel,
                         "the principal moments [Ixx, Iyy, Izz] or a 3×3 matrix (kg·m²)")
        if matrix is not None and min(matrix) < 0:
            ck.error(ipath, ilabel, "principal moments of inertia must be ≥ 0")
            matrix = None
    com = _vector(ck, b.get("com", [0, 0, 0]), (*path, "com"), f"{label}.com")
    if None in (mass, matrix, com):
        return False
    b.update(mass=mass, inertia=matrix, com=com)
    return True


def _listed(bodies: set[str]) -> str:
    return ", ".join(sorted(bodies)) or "(none)"


def _known_ends(ck: Checker, path: KeyPath, label: str, item: dict[str, Any],
                ends: tuple[str, str], bodies: set[str]) -> bool:
    """Whether each of ``ends`` that ``item`` gives is a body or ground; reports the rest."""
    ok = True
    for end in ends:
        if end in item and item[end] != GROUND and item[end] not in bodies:
            ck.error((*path, end), f"{label}.{end}",
                     f"unknown body {item[end]!r}; bodies: {_listed(bodies)}, or {GROUND}")
            ok = False
    return ok


def _joint(ck: Checker, path: KeyPath, label: str, j: dict[str, Any], bodies: set[str]) -> bool:
    from ..mechanics.joints import KINDS

    ok = True
    if j["kind"] not in KINDS:
        ck.error((*path, "kind"), f"{label}.kind",
                 f"unknown joint kind {j['kind']!r}; kinds: {', '.join(KINDS)}")
        ok = False
    ok = _known_ends(ck, path, label, j, ("parent", "child"), bodies) and ok
    if ok and j["parent"] == j["child"]:
        ck.error((*path, "child"), f"{label}.child", "a joint connects two different bodies")
        ok = False
    for key in ("axis", "axis2", "parent_anchor", "child_anchor"):
        if key in j:
            vec = _vector(ck, j[key], (*path, key), f"{label}.{key}")
            if vec is not None and key.startswith("axis") and not any(vec):
                ck.error((*path, key), f"{label}.{key}", "an axis must not be zero")
                vec = None
            ok = ok and vec is not None
            j[key] = vec
    return ok


def _actuator(ck: Checker, path: KeyPath, label: str, a: dict[str, Any],
              dof: dict[str, int]) -> bool:
    joint = a["joint"]
    if joint not in dof:
        ck.error((*path, "joint"), f"{label}.joint",
                 f"unknown joint {joint!r}; joints: {', '.join(dof) or '(none)'}")
        return False
    if dof[joint] == 0:
        ck.error((*path, "joint"), f"{label}.joint",
                 f"joint {joint!r} is fixed: it has no free direction to actuate")
        return False
    ok = True
    for key in ("stiffness", "damping", "setpoint"):
        if key not in a or a[key] is None:
            continue
        kpath, klabel = (*path, key), f"{label}.{key}"
        raw = a[key] if isinstance(a[key], list) else [a[key]]
        if len(raw) not in (1, dof[joint]):
            ck.error(kpath, klabel, f"give one value or {dof[joint]} (one per free direction "
                     f"of the {dof[joint]}-dof joint {joint!r})")
            ok = False
            continue
        values = [ck.number(v, kpath, klabel) for v in raw]
        if None in values:
            ok = False
        elif key != "setpoint" and min(values) < 0:  # type: ignore[type-var]
            ck.error(kpath, klabel, f"the {key} must be ≥ 0 (a passive spring/damper)")
            ok = False
        else:
            a[key] = values if isinstance(a[key], list) else values[0]
    return ok


def _link(ck: Checker, path: KeyPath, label: str, f: dict[str, Any], bodies: set[str]) -> bool:
    """A flexible link: bodies known, vectors and the beam's numbers evaluated (the beam's
    end kinds and the geometry are checked when the mechanism is built)."""
    ok = _known_ends(ck, path, label, f, ("parent", "child"), bodies)
    for key in ("parent_anchor", "child_anchor", "direction", "up"):
        if key in f:
            f[key] = _vector(ck, f[key], (*path, key), f"{label}.{key}")
            ok = ok and f[key] is not None
    bpath, blabel = (*path, "beam"), f"{label}.beam"
    beam = ck.mapping(f["beam"], bpath, blabel)
    if beam is None or not ck.keys(beam, bpath, blabel, _BEAM, _BEAM_NUMBERS[:7],
                                   "in a flexible link's beam"):
        return False
    beam = dict(beam)
    for key in _BEAM_NUMBERS:
        if key not in beam:
            continue
        kpath, klabel = (*bpath, key), f"{blabel}.{key}"
        if isinstance(beam[key], list) and len(beam[key]) == 2:  # section axes 2 and 3
            pair = [ck.number(v, (*kpath, i), f"{klabel}[{i}]", positive=True)
                    for i, v in enumerate(beam[key])]
            beam[key] = None if None in pair else pair
        else:
            beam[key] = ck.number(beam[key], kpath, klabel, positive=True)
        ok = ok and beam[key] is not None
    f["beam"] = beam
    return ok


def _force(ck: Checker, path: KeyPath, label: str, f: dict[str, Any], bodies: set[str]
           ) -> bool:
    """A force element: a known kind and its keys, two different known ends, anchors,
    passive stiffness and damping (one value, or six for a bushing)."""
    kind = f["kind"]
    if kind not in _FORCE_KINDS:
        ck.error((*path, "kind"), f"{label}.kind",
                 f"unknown force kind {kind!r}; kinds: {', '.join(_FORCE_KINDS)}")
        return False
    ok = True
    for key in set(f) - {"name", "kind", "first", "second", "first_anchor", "second_anchor",
                         *_FORCE_KINDS[kind]}:
        ck.error((*path, key), f"{label}.{key}", f"a {kind} has no {key!r}; it takes "
                 f"{', '.join(_FORCE_KINDS[kind])}")
        ok = False
    ok = _known_ends(ck, path, label, f, ("first", "second"), bodies) and ok
    if ok and f["first"] == f["second"]:
        ck.error((*path, "second"), f"{label}.second",
                 "a force element joins two different bodies (or a body and ground)")
        ok = False
    for key in ("first_anchor", "second_anchor"):
        if key in f:
            f[key] = _vector(ck, f[key], (*path, key), f"{label}.{key}")
            ok = ok and f[key] is not None
    sizes = (1, 6) if kind == "bushing" else (1,)
    for key in ("stiffness", "damping", "rest_length"):
        if key not in f:
            continue
        kpath, klabel = (*path, key), f"{label}.{key}"
        raw = f[key] if isinstance(f[key], list) else [f[key]]
        if len(raw) not in sizes:
            ck.error(kpath, klabel, "give one value" + (" or six (rotation x, y, z, then "
                                                        "translation x, y, z)"
                                                        if kind == "bushing" else ""))
            ok = False
            continue
        values = [ck.number(v, kpath, klabel) for v in raw]
        if None in values:
            ok = False
        elif min(values) < 0:  # type: ignore[type-var]
            ck.error(kpath, klabel, f"the {key.replace('_', ' ')} must be ≥ 0 (a passive "
                     "element)")
            ok = False
        else:
            f[key] = values if isinstance(f[key], list) else values[0]
    if "axes" in f and f["axes"] not in ("first", "world"):
        ck.error((*path, "axes"), f"{label}.axes",
                 f"axes must be 'first' (the first end's body axes) or 'world', got "
                 f"{f['axes']!r}")
        ok = False
    return ok


def _contact(ck: Checker, path: KeyPath, label: str, c: dict[str, Any], bodies: set[str]
             ) -> bool:
    """A sphere–plane contact: a known body, vectors, and the signs of its law."""
    ok = True
    if c["body"] not in bodies:
        ck.error((*path, "body"), f"{label}.body",
                 f"unknown body {c['body']!r}; bodies: {_listed(bodies)}"
                 " (the plane is fixed to ground; the sphere sits on a body)")
        ok = False
    for key in ("anchor", "normal"):
        if key in c:
            vec = _vector(ck, c[key], (*path, key), f"{label}.{key}")
            if vec is not None and key == "normal" and not any(vec):
                ck.error((*path, key), f"{label}.{key}", "the plane's normal must not be zero")
                vec = None
            c[key] = vec
            ok = ok and vec is not None
    limits = {"radius": 0.0, "stiffness": 0.0, "damping": 0.0, "damping_exponent": 0.0,
              "friction": 0.0, "exponent": 1.0, "slip_velocity": None, "offset": None}
    for key, low in limits.items():
        if key not in c:
            continue
        kpath, klabel = (*path, key), f"{label}.{key}"
        value = ck.number(c[key], kpath, klabel, positive=key == "slip_velocity")
        if value is not None and low is not None and value < low:
            ck.error(kpath, klabel, f"must be ≥ {low:g}" + (" (a force continuous at "
                                                             "touch-down)" if key == "exponent"
                                                             else " (a passive contact)"))
            value = None
        c[key] = value
        ok = ok and value is not None
    return ok


def _vector(ck: Checker, value: Any, path: KeyPath, label: str,
            what: str = "a 3-vector [x, y, z]") -> list[float] | None:
    if not isinstance(value, list) or len(value) != 3:
        ck.error(path, label, f"expected {what}, got {value!r}")
        return None
    out = [ck.number(v, (*path, i), f"{label}[{i}]") for i, v in enumerate(value)]
    return None if None in out else out  # type: ignore[return-value]
