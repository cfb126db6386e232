"""The ``distributed`` section: a 2-D/3-D port-Hamiltonian PDE on a meshed domain.

.. code-block:: yaml

    name: drum
    parameters: {c: 1.0}
    distributed:
      domain: {shape: rectangle, size: [1.0, 1.0], elements: [16, 16], cell: triangle}
      model: {kind: membrane, rho: 0.5 kg/m^2, tension: 100 N/m, degree: 1}
      boundary: {left: fixed, right: fixed, bottom: fixed, top: force}
      points: {hammer: [0.3, 0.4]}
    simulate:
      t_end: 0.05
      dt: 1.0e-4
      initial: {v: "sin(pi*x)*sin(pi*y)"}     # a field: an expression of x, y (z), in m
      inputs: {F_top: "0", F_hammer: "exp(-((t - 0.01)/0.002)**2)"}

``domain`` is one of

* ``{shape: rectangle, size: [a, b], elements: [nx, ny], cell: triangle|quad,
  origin: [x0, y0]}`` (parts ``left``, ``right``, ``bottom``, ``top``);
* ``{shape: box, size: [a, b, c], elements: [nx, ny, nz], cell: tetra|hexahedron}``
  (parts also ``front``, ``back``);
* ``{shape: disk, radius: r, refine: k}`` (part ``boundary``);
* ``{mesh: file.msh, scale: 0.001}``: a mesh file read by meshio (gmsh physical groups
  name the boundary parts), which must lie in the model file's folder; ``scale``
  converts its length unit to metres.

``model`` has ``kind`` and the parameters of the model's function in
:mod:`porthamiltonian.distributed.domains` (SI, or with units; a coefficient may be an
expression of x, y, z for a varying material): ``wave`` (``density``, ``stiffness``,
``damping``), ``membrane`` (``rho``, ``tension``, ``damping``), ``heat``
(``capacity``, ``conductivity``), ``maxwell_te`` / ``maxwell_tm`` (``epsilon``,
``mu``), ``mindlin`` / ``kirchhoff`` (``E``, ``nu``, ``rho``, ``thickness`` and the
plate's keyword options), plus ``degree`` (1 or 2).  ``boundary`` is one condition
for every part or ``{part: condition}`` (the conditions of that model); ``points``
names point ports ``{name: [x, y]}``.

The built system (:func:`.distributed_build.build_domain_model` ``(model).system``, through
:func:`porthamiltonian.io.build.build_system`) is what ``porthamiltonian simulate``,
``validate`` and the analyses use.  ``simulate.initial`` takes the model's fields
(``v``, ``sigma``, ``T``, ``Ez``, ``H`` …) as expressions of the coordinates — one
per component, a list for a vector field — evaluated at the dofs (continuous fields:
interpolated at the nodes; discontinuous ones: the L² projection weighted as in the
energy), or single states by name (``p[3]``); everything else starts at zero.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import sympy

from .schema import Checker, KeyPath, Section, label_of

__all__ = ["check_distributed", "DISTRIBUTED_KEYS", "KINDS"]

DISTRIBUTED_KEYS = ("domain", "model", "boundary", "points")
_SHAPES = {"rectangle": ("shape", "size", "elements", "cell", "origin"),
           "box": ("shape", "size", "elements", "cell", "origin"),
           "disk": ("shape", "radius", "refine")}
_CELLS = {"rectangle": ("triangle", "quad"), "box": ("tetra", "hexahedron")}
_PARTS = {"rectangle": ("left", "right", "bottom", "top"),
          "box": ("left", "right", "bottom", "top", "front", "back"), "disk": ("boundary",)}
_PLATE = ("E", "nu", "rho", "thickness")
#: kind -> (required coefficients, optional coefficients); plates take more keywords
KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "wave": (("density", "stiffness"), ("damping",)),
    "membrane": (("rho", "tension"), ("damping",)),
    "heat": (("capacity", "conductivity"), ()),
    "maxwell_te": (("epsilon", "mu"), ()),
    "maxwell_tm": (("epsilon", "mu"), ()),
    "mindlin": (_PLATE, ()),
    "kirchhoff": (_PLATE, ()),
}
_COORDS = ("x", "y", "z")


def _conditions(kind: str) -> tuple[str, ...] | None:
    """The boundary conditions of a kind (``None``: checked when the model is built)."""
    if kind in ("wave", "membrane"):
        from ..distributed.domains.boundary import CONDITIONS

        return CONDITIONS
    if kind == "heat":
        from ..distributed.domains.heat import HEAT_CONDITIONS

        return tuple(HEAT_CONDITIONS)
    if kind.startswith("maxwell"):
        from ..distributed.domains.maxwell import MAXWELL_CONDITIONS

        return MAXWELL_CONDITIONS
    from ..distributed.domains.mindlin import PLATE_CONDITIONS

    return tuple(PLATE_CONDITIONS)


def check_distributed(ck: Checker, value: Any, path: KeyPath) -> Section:
    """Check a ``distributed`` section (module docstring)."""
    label = label_of(path)
    data: dict[str, Any] = {"domain": None, "model": None, "boundary": None, "points": {}}
    section = ck.mapping(value, path, label)
    if section is None:
        return Section(data)
    ck.keys(section, path, label, DISTRIBUTED_KEYS, ("domain", "model"),
            "in a distributed section")
    if "domain" in section:
        data["domain"] = _domain(ck, section["domain"], (*path, "domain"), f"{label}.domain")
    if "model" in section:
        data["model"] = _model(ck, section["model"], (*path, "model"), f"{label}.model")
    kind = data["model"]["kind"] if data["model"] else None
    shape = data["domain"].get("shape") if data["domain"] else None
    if "boundary" in section:
        data["boundary"] = _boundary(ck, section["boundary"], (*path, "boundary"),
                                     f"{label}.boundary", kind, shape)
    if "points" in section:
        data["points"] = _points(ck, section["points"], (*path, "points"), f"{label}.points",
                                 shape, kind)
    fields = _FIELDS.get(kind or "")
    if fields is not None and data["domain"] is not None and kind in ("wave", "membrane"):
        fields = {**fields, "sigma": _dim(data["domain"])}
    inputs, outputs = _port_names(kind, data["boundary"], data["points"], shape)
    return Section(data, None, inputs, outputs, fields=fields)


#: initial fields of each kind (name -> components); the wave's σ has dim components
_FIELDS: dict[str, dict[str, int]] = {
    "wave": {"v": 1}, "membrane": {"v": 1}, "heat": {"T": 1},
    "maxwell_tm": {"Ez": 1, "H": 2}, "maxwell_te": {"Hz": 1, "E": 2},
    # the plate's velocities are Lagrange fields (a Kirchhoff plate's H² element has
    # derivative dofs: its states are given by name)
    "mindlin": {"v": 1, "omega_x": 1, "omega_y": 1},
}


def _dim(domain: Mapping[str, Any]) -> int:
    return 3 if domain.get("shape") == "box" else 2


def _domain(ck: Checker, value: Any, path: KeyPath, label: str) -> dict[str, Any] | None:
    spec = ck.mapping(value, path, label)
    if spec is None:
        return None
    if "mesh" in spec:
        if not ck.keys(spec, path, label, ("mesh", "scale"), ("mesh",), "for a mesh file"):
            return None
        mesh = spec["mesh"]
        if not isinstance(mesh, str) or not mesh.strip():
            ck.error((*path, "mesh"), f"{label}.mesh", f"expected a file name, got {mesh!r}")
            return None
        scale = ck.number(spec.get("scale", 1.0), (*path, "scale"), f"{label}.scale",
                          positive=True)
        return None if scale is None else {"mesh": mesh, "scale": scale}
    shape = spec.get("shape")
    if shape not in _SHAPES:
        ck.error((*path, "shape") if "shape" in spec else path, label,
                 f"give shape: {', '.join(_SHAPES)}, or mesh: <file> (got shape {shape!r})")
        return None
    required = ("shape", "radius") if shape == "disk" else ("shape", "size")
    if not ck.keys(spec, path, label, _SHAPES[shape], required, f"for a {shape}"):
        return None
    out: dict[str, Any] = {"shape": shape}
    dim = 3 if shape == "box" else 2
    if shape == "disk":
        out["radius"] = ck.number(spec["radius"], (*path, "radius"), f"{label}.radius",
                                  positive=True)
        refine = spec.get("refine", 3)
        if isinstance(refine, bool) or not isinstance(refine, int) or not 0 <= refine <= 9:
            ck.error((*path, "refine"), f"{label}.refine",
                     f"must be an integer from 0 to 9, got {refine!r}")
            refine = None
        out["refine"] = refine
        return None if None in out.values() else out
    size = spec["size"]
    sizes = size if isinstance(size, list) else [size] * dim
    if len(sizes) != dim:
        ck.error((*path, "size"), f"{label}.size", f"give {dim} lengths (m), got {size!r}")
        return None
    out["size"] = [ck.number(s, (*path, "size", k) if isinstance(size, list)
                             else (*path, "size"), f"{label}.size", positive=True)
                   for k, s in enumerate(sizes)]
    elements = spec.get("elements", 16 if dim == 2 else 8)
    counts = elements if isinstance(elements, list) else [elements] * dim
    if len(counts) != dim or any(isinstance(c, bool) or not isinstance(c, int) or c < 1
                                 for c in counts):
        ck.error((*path, "elements"), f"{label}.elements",
                 f"give a positive integer or {dim} of them, got {elements!r}")
        return None
    out["elements"] = counts
    cell = spec.get("cell", _CELLS[shape][0])
    if cell not in _CELLS[shape]:
        ck.error((*path, "cell"), f"{label}.cell",
                 f"a {shape} has cells {' or '.join(_CELLS[shape])}, got {cell!r}")
        return None
    out["cell"] = cell
    origin = spec.get("origin", [0.0] * dim)
    if not isinstance(origin, list) or len(origin) != dim:
        ck.error((*path, "origin"), f"{label}.origin", f"give {dim} coordinates (m)")
        return None
    out["origin"] = [ck.number(o, (*path, "origin", k), f"{label}.origin[{k}]")
                     for k, o in enumerate(origin)]
    if None in out["size"] or None in out["origin"]:
        return None
    return out


def _model(ck: Checker, value: Any, path: KeyPath, label: str) -> dict[str, Any] | None:
    spec = ck.mapping(value, path, label)
    if spec is None:
        return None
    kind = spec.get("kind")
    if kind not in KINDS:
        ck.error((*path, "kind") if "kind" in spec else path, label,
                 f"give kind: one of {', '.join(KINDS)} (got {kind!r})")
        return None
    required, optional = KINDS[kind]
    plate = kind in ("mindlin", "kirchhoff")
    allowed = None if plate else ("kind", "degree", *required, *optional)
    out: dict[str, Any] = {"kind": kind, "degree": None, "parameters": {}}
    ok = True
    for key in required:
        if key not in spec:
            ck.error(path, label, f"missing key {key!r} (a {kind} needs "
                     f"{', '.join(required)})")
            ok = False
    for key, raw in spec.items():
        kpath, klabel = (*path, key), f"{label}.{key}"
        if key == "kind":
            continue
        if key == "degree":
            if isinstance(raw, bool) or raw not in (1, 2):
                ck.error(kpath, klabel, f"the degree is 1 or 2, got {raw!r}")
                ok = False
            else:
                out["degree"] = raw
            continue
        if allowed is not None and key not in allowed:
            ck.error(kpath, label, f"unknown key {key!r}; a {kind} takes: "
                     f"{', '.join(allowed)}")
            ok = False
            continue
        if plate and key not in _PLATE and isinstance(raw, (str, bool)) and \
                not _numeric_text(raw):
            out["parameters"][key] = raw  # a plate option (a name): checked when built
            continue
        coef = _coefficient(ck, raw, kpath, klabel, positive=key not in ("nu",))
        ok = ok and coef is not None
        out["parameters"][key] = coef
    return out if ok else None


def _numeric_text(raw: Any) -> bool:
    if isinstance(raw, bool):
        return False
    try:
        float(raw)
    except ValueError:
        return any(ch.isdigit() for ch in raw)
    return True


def _coefficient(ck: Checker, raw: Any, path: KeyPath, label: str, *, positive: bool
                 ) -> float | sympy.Expr | None:
    """A number (units allowed) or an expression of x, y, z and numeric parameters."""
    names = {**{c: sympy.Symbol(c, real=True) for c in _COORDS}, **ck.values}
    expr = ck.expression(raw, path, label, names)
    if expr is None:
        return None
    coords = {s for s in expr.free_symbols if str(s) in _COORDS and str(s) not in ck.values}
    other = expr.free_symbols - coords
    if other:
        ck.error(path, label, "must be a number or an expression of x, y, z, but depends "
                 f"on symbolic parameter(s) {', '.join(sorted(map(str, other)))}; give "
                 "them values under 'parameters'")
        return None
    if coords:
        return expr
    number = float(expr)
    if positive and not number > 0:
        ck.error(path, label, f"must be positive, got {number:g}")
        return None
    return number


def _boundary(ck: Checker, value: Any, path: KeyPath, label: str, kind: str | None,
              shape: str | None) -> str | dict[str, str] | None:
    allowed = _conditions(kind) if kind else None
    parts = _PARTS.get(shape or "")

    def condition(cond: Any, cpath: KeyPath, clabel: str) -> bool:
        if not isinstance(cond, str):
            ck.error(cpath, clabel, f"a condition is a name, got {cond!r}")
            return False
        if allowed is not None and cond not in allowed:
            ck.error(cpath, clabel, f"unknown condition {cond!r}; a {kind} takes: "
                     f"{', '.join(allowed)}")
            return False
        return True

    if isinstance(value, str):
        return value if condition(value, path, label) else None
    spec = ck.mapping(value, path, label)
    if spec is None:
        return None
    out: dict[str, str] = {}
    for part, cond in spec.items():
        ppath, plabel = (*path, part), f"{label}.{part}"
        if parts is not None and part not in parts:
            ck.error(ppath, plabel, f"a {shape} has no boundary part {part!r}; its parts: "
                     f"{', '.join(parts)}")
            continue
        if condition(cond, ppath, plabel):
            out[str(part)] = cond
    return out


def _points(ck: Checker, value: Any, path: KeyPath, label: str, shape: str | None,
            kind: str | None) -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    if kind is not None and kind.startswith("maxwell"):
        ck.error(path, label, "the Maxwell models have no point ports")
        return out
    dim = 3 if shape == "box" else 2
    for name, xy in (ck.mapping(value, path, label) or {}).items():
        ppath, plabel = (*path, name), f"{label}.{name}"
        if ck.identifier(name, ppath, plabel, "point") is None:
            continue
        if not isinstance(xy, list) or (shape is not None and len(xy) != dim):
            ck.error(ppath, plabel, f"give the point's {dim} coordinates [x, y"
                     f"{', z' if dim == 3 else ''}] (m), got {xy!r}")
            continue
        coords = [ck.number(c, (*ppath, k), f"{plabel}[{k}]") for k, c in enumerate(xy)]
        if None not in coords:
            out[name] = coords  # type: ignore[assignment]
    return out


#: (natural input prefix, its output prefix) and the imposed pair per kind and condition
_PORTS = {"wave": {"force": ("F", "v"), "velocity": ("v", "F")},
          "heat": {"force": ("q", "T"), "velocity": ("T", "q")},
          "maxwell_tm": {"port": ("H", "E"), "driven": ("E", "H")},
          "maxwell_te": {"port": ("E", "H"), "driven": ("H", "E")}}


def _port_names(kind: str | None, boundary: Any, points: Mapping[str, Any],
                shape: str | None) -> tuple[list[str] | None, list[str] | None]:
    """Input and output names known before building (``None`` when a ``nodal`` part,
    a mesh file's parts or a plate make them depend on the mesh)."""
    if kind is None or boundary is None and shape is None:
        return None, None
    base = "wave" if kind == "membrane" else kind
    if base not in _PORTS:
        return None, None
    if isinstance(boundary, str):
        if shape is None:
            return None, None
        boundary = {p: boundary for p in _PARTS[shape]}
    if kind == "heat":
        from ..distributed.domains.heat import HEAT_CONDITIONS

        boundary = {p: HEAT_CONDITIONS.get(c, c) for p, c in (boundary or {}).items()}
    if any(c == "nodal" for c in (boundary or {}).values()):
        return None, None
    ins: list[str] = []
    outs: list[str] = []
    for part, cond in (boundary or {}).items():
        pair = _PORTS[base].get(cond)
        if pair is not None:
            ins.append(f"{pair[0]}_{part}")
            outs.append(f"{pair[1]}_{part}")
    natural = next(v for k, v in _PORTS[base].items() if k in ("force", "port"))
    for name in points:
        ins.append(f"{natural[0]}_{name}")
        outs.append(f"{natural[1]}_{name}")
    return ins, outs


# -- building -------------------------------------------------------------------------
