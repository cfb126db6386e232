r"""Domains in two and three dimensions: a scikit-fem mesh and its named boundary parts.

A :class:`Domain` is what every model of :mod:`porthamiltonian.distributed.domains`
is discretized on.  The mesh is a :mod:`skfem` mesh (triangles or quadrilaterals in
2-D, tetrahedra or hexahedra in 3-D); its boundary is split into named *parts*
(``"left"``, ``"top"``, a gmsh physical group …), and each part takes its own
boundary condition or port in a model.  Lengths are in metres.

Meshes come from the generators here (:func:`rectangle`, :func:`box`, :func:`disk`)
or from a file through meshio (:func:`load_mesh`; gmsh ``.msh`` with physical groups
naming the boundary parts).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import ModelError

__all__ = ["Domain", "rectangle", "box", "disk", "load_mesh", "require_skfem"]

#: the cell names of meshio / VTK for each skfem mesh class
_CELLS = {"MeshTri1": "triangle", "MeshQuad1": "quad", "MeshTet1": "tetra",
          "MeshHex1": "hexahedron"}

#: largest number of cells a generator makes (a model of 10⁶ cells is still built)
MAX_CELLS = 4_000_000


def require_skfem() -> Any:
    """Import :mod:`skfem` or say how to install it."""
    try:
        import skfem
    except ImportError as exc:  # pragma: no cover - the test extra installs it
        raise ModelError("2-D and 3-D models need scikit-fem: pip install "
                         "'porthamiltonian[fem]'") from exc
    return skfem


class Domain:
    """A mesh with named boundary parts.

    Parameters
    ----------
    mesh : skfem.Mesh
        Triangles, quadrilaterals, tetrahedra or hexahedra (first-order geometry).
    parts : mapping of str to facet indices, optional
        The named boundary parts.  Defaults to the mesh's own ``boundaries`` (a
        generator's ``"left"``, ``"right"`` …, a gmsh file's physical groups), or one
        part ``"boundary"`` holding every boundary facet.
    """

    def __init__(self, mesh: Any, parts: Mapping[str, Any] | None = None) -> None:
        kind = type(mesh).__name__
        if kind not in _CELLS:
            raise ModelError(f"unsupported mesh type {kind}; use triangles, quadrilaterals, "
                             "tetrahedra or hexahedra of first order")
        self.mesh = mesh
        self.cell = _CELLS[kind]
        self.dim = int(mesh.p.shape[0])
        if parts is None:
            parts = dict(mesh.boundaries or {}) or {"boundary": mesh.boundary_facets()}
        boundary = set(mesh.boundary_facets().tolist())
        self.parts: dict[str, np.ndarray] = {}
        for name, facets in parts.items():
            facets = np.unique(np.asarray(facets, dtype=np.int64))
            if facets.size == 0:
                raise ModelError(f"boundary part {name!r} has no facets")
            outside = [f for f in facets.tolist() if f not in boundary]
            if outside:
                raise ModelError(f"boundary part {name!r}: {len(outside)} facets are not on "
                                 "the boundary of the mesh")
            self.parts[str(name)] = facets

    # ------------------------------------------------------------------ queries
    @property
    def n_cells(self) -> int:
        return int(self.mesh.t.shape[1])

    @property
    def n_vertices(self) -> int:
        return int(self.mesh.p.shape[1])

    def part(self, name: str) -> np.ndarray:
        """Facet indices of a boundary part; a :class:`ModelError` lists the parts."""
        if name not in self.parts:
            raise ModelError(f"the domain has no boundary part {name!r}; its parts: "
                             f"{', '.join(self.parts)}")
        return self.parts[name]

    def measure(self) -> float:
        """Area (2-D) or volume (3-D) of the domain (m² or m³)."""
        skfem = require_skfem()
        basis = skfem.Basis(self.mesh, skfem.ElementTriP0() if self.cell == "triangle"
                            else _p0(skfem, self.cell))
        return float(basis.dx.sum())

    def with_parts(self, **parts: Any) -> Domain:
        """A copy with more boundary parts: facet index arrays, or functions of the
        facet midpoint coordinates ``x`` (shape ``(dim, n)``) returning booleans."""
        new = dict(self.parts)
        mids = self.mesh.p[:, self.mesh.facets].mean(axis=1)
        bnd = self.mesh.boundary_facets()
        for name, spec in parts.items():
            if callable(spec):
                new[name] = bnd[np.asarray(spec(mids[:, bnd]), dtype=bool)]
            else:
                new[name] = np.asarray(spec, dtype=np.int64)
        return Domain(self.mesh, new)

    def __repr__(self) -> str:
        return (f"<Domain: {self.n_cells} {self.cell} cells, {self.n_vertices} vertices, "
                f"parts {list(self.parts)}>")


def _p0(skfem: Any, cell: str) -> Any:
    return {"quad": skfem.ElementQuad0, "tetra": skfem.ElementTetP0,
            "hexahedron": skfem.ElementHex0}[cell]()


def _counts(elements: int | Sequence[int], dim: int, what: str) -> list[int]:
    counts = [elements] * dim if np.isscalar(elements) else list(elements)
    if len(counts) != dim or any(isinstance(c, bool) or int(c) != c or c < 1 for c in counts):
        raise ModelError(f"{what}: elements={elements!r} must be a positive integer or "
                         f"{dim} of them")
    counts = [int(c) for c in counts]
    if float(np.prod(counts)) * (6 if dim == 3 else 2) > MAX_CELLS:
        raise ModelError(f"{what}: {elements!r} elements make more than {MAX_CELLS} cells")
    return counts


def _size(size: Any, dim: int, what: str) -> list[float]:
    sizes = [size] * dim if np.isscalar(size) else list(size)
    if len(sizes) != dim or not all(np.isfinite(float(s)) and float(s) > 0 for s in sizes):
        raise ModelError(f"{what}: size={size!r} must be {dim} positive lengths (m)")
    return [float(s) for s in sizes]


def rectangle(width: float = 1.0, height: float = 1.0, elements: int | Sequence[int] = 16, *,
              cell: str = "triangle", origin: Sequence[float] = (0.0, 0.0)) -> Domain:
    """The rectangle ``[x0, x0+width] × [y0, y0+height]`` (m) with parts
    ``"left"``, ``"right"``, ``"bottom"``, ``"top"``.

    ``elements`` is the number of divisions per side (one number or ``(nx, ny)``);
    ``cell`` is ``"triangle"`` (each square cut in two) or ``"quad"``.
    """
    skfem = require_skfem()
    nx, ny = _counts(elements, 2, "rectangle")
    w, h = _size((width, height), 2, "rectangle")
    xs = origin[0] + np.linspace(0.0, w, nx + 1)
    ys = origin[1] + np.linspace(0.0, h, ny + 1)
    if cell == "triangle":
        mesh = skfem.MeshTri.init_tensor(xs, ys)
    elif cell == "quad":
        mesh = skfem.MeshQuad.init_tensor(xs, ys)
    else:
        raise ModelError(f"rectangle: cell={cell!r}; choose 'triangle' or 'quad'")
    return Domain(mesh.with_defaults())


def box(size: float | Sequence[float] = 1.0, elements: int | Sequence[int] = 8, *,
        cell: str = "tetra", origin: Sequence[float] = (0.0, 0.0, 0.0)) -> Domain:
    """The box ``[0, a] × [0, b] × [0, c]`` (m, shifted by ``origin``) with parts
    ``"left"``, ``"right"``, ``"bottom"``, ``"top"``, ``"front"``, ``"back"``;
    ``cell`` is ``"tetra"`` or ``"hexahedron"``."""
    skfem = require_skfem()
    counts = _counts(elements, 3, "box")
    sizes = _size(size, 3, "box")
    axes = [o + np.linspace(0.0, s, n + 1) for o, s, n in zip(origin, sizes, counts, strict=True)]
    if cell == "tetra":
        mesh = skfem.MeshTet.init_tensor(*axes)
    elif cell == "hexahedron":
        mesh = skfem.MeshHex.init_tensor(*axes)
    else:
        raise ModelError(f"box: cell={cell!r}; choose 'tetra' or 'hexahedron'")
    return Domain(mesh.with_defaults())


def disk(radius: float = 1.0, refine: int = 3) -> Domain:
    """A disk of ``radius`` (m) in triangles (``refine`` uniform refinements of a
    coarse polygon), with one boundary part ``"boundary"``."""
    skfem = require_skfem()
    if isinstance(refine, bool) or int(refine) != refine or not 0 <= refine <= 9:
        raise ModelError(f"disk: refine={refine!r} must be an integer from 0 to 9")
    r = _size(radius, 1, "disk")[0]
    mesh = skfem.MeshTri.init_circle(int(refine)).scaled(r)
    return Domain(mesh, {"boundary": mesh.boundary_facets()})


def load_mesh(path: str | Path, *, root: str | Path | None = None, scale: float = 1.0) -> Domain:
    """A mesh file read by meshio (gmsh ``.msh``, VTK, XDMF …).

    Boundary parts are the file's named facet groups (gmsh physical groups of
    dimension ``dim − 1``); without any, the whole boundary is the part
    ``"boundary"``.  ``root`` (a folder) refuses a file outside it, as model files
    do.  ``scale`` converts the file's length unit to metres (0.001 for mm).
    """
    skfem = require_skfem()
    p = Path(path)
    if root is not None:
        base = Path(root).resolve()
        if not p.is_absolute():
            p = base / p
        if not p.resolve().is_relative_to(base):
            raise ModelError(f"mesh file {str(path)!r} is outside the model's folder; "
                             "copy it next to the model file")
    if not p.is_file():
        raise ModelError(f"mesh file {str(path)!r} does not exist")
    try:
        mesh = skfem.Mesh.load(str(p))
    except (Exception, SystemExit) as exc:  # meshio raises many kinds, and calls
        # sys.exit when no reader recognizes the file: name the file and the cause
        raise ModelError(f"cannot read mesh file {p.name!r}: "
                         f"{exc if not isinstance(exc, SystemExit) else 'unknown format'}"
                         ) from exc
    if type(mesh).__name__ not in _CELLS:
        raise ModelError(f"mesh file {p.name!r} holds {type(mesh).__name__} cells; use "
                         "first-order triangles, quadrilaterals, tetrahedra or hexahedra")
    if scale != 1.0:
        mesh = mesh.scaled(float(scale))
    return Domain(mesh)
