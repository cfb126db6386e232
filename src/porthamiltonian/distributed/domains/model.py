r"""What every 2-D/3-D model returns: its pH system, modes and fields on the mesh.

A :class:`DomainModel` holds the discrete system (``.system``: an explicit sparse PHS
or a sparse DescriptorPHS, see :mod:`.pfem`) together with what turns states back into
fields on the mesh: nodal values of the continuous fields, cell averages of the
discontinuous ones and the energy density per cell (J/m² in 2-D, J/m³ in 3-D), for
ParaView (VTK ``.vtu``, XDMF time series, through meshio) or a quick Matplotlib look.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ...errors import ModelError
from .domain import Domain
from .pfem import Layout

__all__ = ["DomainModel", "FieldView", "EnergyTerm"]


@dataclass(frozen=True)
class FieldView:
    """A field users read: a discrete field of the layout (one ``component`` of a
    vector field, or the whole), its unit and a description."""

    field: str
    component: int | None
    unit: str
    description: str = ""


@dataclass(frozen=True)
class EnergyTerm:
    r"""One term :math:`\tfrac12\int c\,|e|^2` of the energy in co-energy variables:
    the discrete ``field``, the ``basis`` its mass was assembled on (the nodal one
    for a lumped mass, so the cell energies add up to H exactly) and the weight
    ``c`` (a function of the coordinates), inverted when ``inverse``."""

    field: str
    basis: Any
    weight: Callable[[Any], Any]
    inverse: bool = False


class DomainModel:
    """A discretized port-Hamiltonian model on a 2-D or 3-D :class:`~.domain.Domain`.

    Attributes
    ----------
    system : PHS or DescriptorPHS
        The sparse pH system; its ports are the boundary and point ports left open.
    domain : Domain
        The mesh and its boundary parts.
    layout : Layout
        Where each discrete field sits in the state.
    views : dict
        The fields by name (``model.field(name, x)``) with their units.
    variables : dict
        The continuous model in words: ``energy``, ``coenergy``, ``boundary``,
        ``hamiltonian``.
    """

    def __init__(self, system: Any, layout: Layout, domain: Domain, kind: str,
                 views: Mapping[str, FieldView], variables: Mapping[str, str], degree: int,
                 energy: Sequence[EnergyTerm] = ()) -> None:
        self.system = system
        self.layout = layout
        self.domain = domain
        self.kind = kind
        self.views = dict(views)
        self.variables = dict(variables)
        self.degree = degree
        self.energy_terms = tuple(energy)
        #: unit of the ``"energy"`` field (H per area or volume); a model whose H is
        #: not in joules (heat: J·K) sets its own
        self.energy_unit = "J/m²" if domain.dim == 2 else "J/m³"

    # ------------------------------------------------------------------ modes
    def frequencies(self, n: int) -> np.ndarray:
        """The ``n`` lowest non-zero undamped natural frequencies (rad/s), through
        :func:`porthamiltonian.analysis.natural_frequencies` (rigid-body and static
        modes excluded; damping ignored)."""
        from ...analysis.natural import natural_frequencies

        return natural_frequencies(self.system, n)

    def modes(self, n: int) -> tuple[np.ndarray, np.ndarray]:
        """The ``n`` lowest undamped modes: ``(omega, X)``, frequencies (rad/s) and the
        mode shapes as states (columns; :func:`porthamiltonian.analysis.natural_modes`),
        so ``model.field("v", X[:, k])`` or ``model.plot("v", X[:, k])`` shows mode
        ``k`` and ``model.save("modes.xdmf", X.T, times=omega / (2π))`` writes them
        all for ParaView."""
        from ...analysis.natural import natural_modes

        return natural_modes(self.system, n)

    # ------------------------------------------------------------------ states
    def state(self, **fields: Any) -> np.ndarray:
        """The state vector whose co-energy fields are the given ones, the others zero.

        Each keyword names a field of :attr:`views` (``v=lambda x, y: …``) and gives a
        function of the coordinates, evaluated at the field's dofs (nodes for a
        continuous field, the element's points for a discontinuous one), or the dof
        values themselves.  Dofs removed by a boundary condition are dropped (a
        velocity field should vanish on a fixed part)."""
        e = np.zeros(self.layout.size)
        for name, value in fields.items():
            if name not in self.views:
                raise ModelError(f"the {self.kind} has no field {name!r}; its fields: "
                                 f"{', '.join(self.views)}")
            block = self.layout.fields[self.views[name].field]
            o = self.layout.offset[block.name]
            if callable(value):
                locs = block.basis.doflocs
                vals = np.asarray(value(*locs), dtype=float) * np.ones(locs.shape[1])
            else:
                vals = np.asarray(value, dtype=float).ravel()
                if vals.size != block.size:
                    raise ModelError(f"{name}: {vals.size} values for {block.size} dofs")
            if not np.all(np.isfinite(vals)):
                raise ModelError(f"{name}: the initial field is not finite everywhere")
            e[o:o + block.size] = vals
        if self.layout.explicit:
            masses = [self.layout.fields[f].mass for f in self.layout.fields]
            import scipy.sparse as sps

            e = sps.block_diag(masses, format="csr") @ e
        return e[self.layout.kept]

    # ------------------------------------------------------------------ fields
    def coenergy(self, x: Any, u: Any = None) -> np.ndarray:
        """The full co-energy dof vector(s) from state(s) ``x`` and input(s) ``u``."""
        x = np.asarray(x, dtype=float)
        if x.shape[-1] != len(self.system.states):
            raise ModelError(f"x has {x.shape[-1]} values per state; the {self.kind} has "
                             f"{len(self.system.states)} states")
        return self.layout.coenergy(x, u)

    def field(self, name: str, x: Any, u: Any = None) -> np.ndarray:
        """Field ``name`` on the mesh: at the vertices for a continuous field, per
        cell (its average) for a discontinuous one; rows for rows of states.

        ``"energy"`` is the energy per cell divided by the cell's size (J/m² or
        J/m³).  Inputs ``u`` give the values of imposed (driven) dofs; missing ones
        count as zero."""
        x = np.asarray(x, dtype=float)
        if x.ndim == 2:
            us = [None] * x.shape[0] if u is None else np.asarray(u, dtype=float)
            return np.array([self.field(name, xi, ui) for xi, ui in zip(x, us, strict=True)])
        if name == "energy":
            return self.energy_density(x, u)
        if name not in self.views:
            raise ModelError(f"the {self.kind} has no field {name!r}; its fields: "
                             f"{', '.join([*self.views, 'energy'])}")
        view = self.views[name]
        e = self.coenergy(x, u)
        block = self.layout.fields[view.field]
        dofs = self.layout.field_values(view.field, e)
        basis = block.basis
        if block.continuous:
            nodal = basis.nodal_dofs
            comp = 0 if view.component is None else view.component
            return dofs[nodal[comp]] if nodal.shape[0] > comp else dofs[nodal[0]]
        values = np.asarray(basis.interpolate(dofs))  # (comps…, cells, points)
        dx = basis.dx
        mean = (values * dx).sum(-1) / dx.sum(-1)
        if mean.ndim == 1:
            return mean
        return mean if view.component is None else mean[view.component]

    def energy_density(self, x: Any, u: Any = None) -> np.ndarray:
        """Energy per cell over the cell's area (volume): J/m² (J/m³)."""
        if not self.energy_terms:
            raise ModelError(f"the {self.kind} does not give its energy density")
        e = self.coenergy(np.asarray(x, dtype=float), u)
        total = np.zeros(self.domain.n_cells)
        size = None
        for term in self.energy_terms:
            dofs = self.layout.field_values(term.field, e)
            val = np.asarray(term.basis.interpolate(dofs))
            c = term.weight(np.asarray(term.basis.global_coordinates()))
            if term.inverse:
                c = 1.0 / c
            sq = val ** 2 if val.ndim == 2 else (val ** 2).sum(0)
            total += 0.5 * (c * sq * term.basis.dx).sum(-1)
            size = term.basis.dx.sum(-1)
        return total / size

    def energy(self, x: Any, u: Any = None) -> float:
        """H (J) from the cell energies; equals ``system``'s H (a check of the fields)
        when ``u`` is omitted.  With inputs, the driven (imposed) dofs take their values
        and their energy is counted too, which the system's H leaves to what drives
        them (:mod:`.pfem`)."""
        dens = self.energy_density(x, u)
        sizes = self.energy_terms[0].basis.dx.sum(-1)
        return float(np.sum(dens * sizes))

    # ------------------------------------------------------------------ output
    def save(self, path: str | Path, x: Any, u: Any = None, *, times: Any = None,
             fields: Sequence[str] | None = None) -> Path:
        """Write fields on the mesh for ParaView, through meshio.

        ``x`` is one state, rows of states, or a simulation result (its ``t``, ``x``
        and ``u`` are used).  A ``.xdmf`` path writes a time series (one step per row;
        ``times`` default to the row numbers or the result's times); ``.vtu``/``.vtk``
        one state (the last row).  Continuous fields are point data, discontinuous
        ones and ``"energy"`` cell data.  An ``.xdmf`` file has its data in
        ``<stem>.h5`` next to it (written from that folder: the working directory
        changes for the duration of the call)."""
        import meshio
        from skfem.io.meshio import to_meshio

        x, u, times = _rows(x, u, times)
        names = list(fields) if fields is not None else [*self.views, "energy"]
        path = Path(path)
        mesh = to_meshio(self.domain.mesh)

        def data(xi: np.ndarray, ui: Any) -> tuple[dict, dict]:
            point, cell = {}, {}
            for nm in names:
                if nm == "energy" and not self.energy_terms:
                    continue
                vals = self.field(nm, xi, ui)
                if nm != "energy" and self.layout.fields[self.views[nm].field].continuous:
                    point[nm] = vals
                else:
                    cell[nm] = [vals.T if vals.ndim > 1 else vals]
            return point, cell

        if path.suffix == ".xdmf":
            # meshio's writer puts the heavy-data file <stem>.h5 in the *working*
            # directory while the .xdmf refers to it next to itself: write from there
            import os

            here = Path.cwd()
            folder = path.resolve().parent
            os.chdir(folder)
            try:
                with meshio.xdmf.TimeSeriesWriter(path.name) as writer:
                    writer.write_points_cells(mesh.points, mesh.cells)
                    for k in range(x.shape[0]):
                        point, cell = data(x[k], None if u is None else u[k])
                        writer.write_data(float(times[k]), point_data=point, cell_data=cell)
            finally:
                os.chdir(here)
            return path
        if path.suffix not in (".vtu", ".vtk"):
            raise ModelError(f"save: {path.suffix!r} files are not written; use .vtu, .vtk "
                             "or .xdmf (a time series)")
        point, cell = data(x[-1], None if u is None else u[-1])
        mesh.point_data.update(point)
        mesh.cell_data.update(cell)
        mesh.write(str(path))
        return path

    def plot(self, name: str, x: Any, u: Any = None, *, ax: Any = None,
             title: str | None = None) -> Any:
        """A Matplotlib ``tripcolor`` of field ``name`` (2-D domains) with a labelled
        colour bar; returns the axes."""
        import matplotlib.pyplot as plt
        from matplotlib.tri import Triangulation

        if self.domain.dim != 2:
            raise ModelError("plot draws 2-D domains; save(...) a 3-D one for ParaView")
        vals = self._scalar(name, x, u)
        tri = self._triangulation(Triangulation)
        if ax is None:
            _, ax = plt.subplots(figsize=(5.5, 4.5))
        if vals.size == self.domain.n_vertices:
            art = ax.tripcolor(tri, vals, shading="gouraud", cmap="viridis")
        else:
            art = ax.tripcolor(tri, facecolors=np.repeat(vals, self._per_cell),
                               cmap="viridis")
        unit = self.energy_unit if name == "energy" else self.views[name].unit
        label = name if self._is_scalar(name) else f"|{name}|"  # a vector: its magnitude
        ax.figure.colorbar(art, ax=ax, label=f"{label} ({unit})")
        ax.set_aspect("equal")
        ax.set_xlabel("x (m)")
        ax.set_ylabel("y (m)")
        ax.set_title(title or f"{self.kind}: {name}")
        return ax

    def animate(self, result: Any, name: str, *, frames: int = 60, interval: int = 50,
                path: str | Path | None = None) -> Any:
        """A Matplotlib animation of field ``name`` over a simulation result (at most
        ``frames`` frames, colour scale fixed over the run); saved to ``path``
        (``.gif`` with Pillow, ``.mp4`` with ffmpeg) when given."""
        import matplotlib.pyplot as plt
        from matplotlib.animation import FuncAnimation

        t, x = np.asarray(result.t), np.asarray(result.x)
        u = getattr(result, "u", None)
        idx = np.unique(np.linspace(0, len(t) - 1, min(frames, len(t))).astype(int))
        vals = [self._scalar(name, x[i], None if u is None else u[i]) for i in idx]
        lo = min(float(v.min()) for v in vals)
        hi = max(float(v.max()) for v in vals)
        fig, ax = plt.subplots(figsize=(5.5, 4.5))
        self.plot(name, x[idx[0]], None if u is None else u[idx[0]], ax=ax)
        art = ax.collections[0]
        art.set_clim(lo, hi if hi > lo else lo + 1.0)

        def frame(k: int) -> tuple:
            v = vals[k]
            art.set_array(v if v.size == self.domain.n_vertices else np.repeat(v, self._per_cell))
            ax.set_title(f"{self.kind}: {name}, t = {t[idx[k]]:.4g} s")
            return (art,)

        anim = FuncAnimation(fig, frame, frames=len(idx), interval=interval, blit=False)
        if path is not None:
            anim.save(str(path))
        return anim

    def _is_scalar(self, name: str) -> bool:
        if name == "energy" or name not in self.views:
            return True
        view = self.views[name]
        block = self.layout.fields[view.field]
        vector = type(block.basis.elem).__name__ == "ElementVector"
        return view.component is not None or block.continuous or not vector

    def _scalar(self, name: str, x: Any, u: Any) -> np.ndarray:
        """Field ``name`` for drawing: the values, or the magnitude of a vector field."""
        vals = self.field(name, x, u)
        return np.sqrt((vals ** 2).sum(0)) if vals.ndim == 2 else vals

    @property
    def _per_cell(self) -> int:
        return 1 if self.domain.cell == "triangle" else 2

    def _triangulation(self, Triangulation: Any) -> Any:
        p, t = self.domain.mesh.p, self.domain.mesh.t
        if self.domain.cell == "quad":  # each quad drawn as two triangles
            t = np.hstack([t[[0, 1, 2]], t[[0, 2, 3]]]).reshape(3, 2, -1).transpose(
                0, 2, 1).reshape(3, -1)
        return Triangulation(p[0], p[1], t.T)

    def __repr__(self) -> str:
        form = "explicit PHS" if self.layout.explicit else "DescriptorPHS"
        return (f"<{self.kind} on {self.domain.n_cells} {self.domain.cell} cells, degree "
                f"{self.degree}: {form} with {len(self.system.states)} states, ports "
                f"{list(self.system.inputs)}>")


def _rows(x: Any, u: Any, times: Any) -> tuple[np.ndarray, Any, np.ndarray]:
    if hasattr(x, "x") and hasattr(x, "t"):
        res = x
        x, times = np.asarray(res.x), np.asarray(res.t) if times is None else times
        u = getattr(res, "u", None) if u is None else u
    x = np.atleast_2d(np.asarray(x, dtype=float))
    if u is not None:
        u = np.asarray(u, dtype=float).reshape(x.shape[0], -1)
    times = np.arange(x.shape[0], dtype=float) if times is None else np.asarray(times, float)
    return x, u, times
