"""Fields on the mesh: VTK/XDMF through meshio read back, plots and animations, gmsh
mesh files with named boundary parts, the disk membrane."""

from __future__ import annotations

import matplotlib
import numpy as np
import pytest
import scipy.linalg as sla

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import meshio  # noqa: E402

from porthamiltonian import ModelError  # noqa: E402
from porthamiltonian.distributed.domains import (  # noqa: E402
    box,
    disk,
    heat,
    load_mesh,
    rectangle,
    wave,
)

J01 = 2.404825557695773  # first zero of the Bessel function J0


def _lowest_omega(model):
    """Lowest ω (rad/s) of a lossless explicit wave model from its velocity block."""
    s = model.system
    p = np.array([nm.startswith("p[") for nm in s.states])
    J, Q = s.J.tocsr(), s.Q.tocsr()
    K = -(J[p][:, ~p] @ Q[~p][:, ~p] @ J[~p][:, p]).toarray()
    lam = sla.eigh(0.5 * (K + K.T), np.diag(1.0 / Q.diagonal()[p]), eigvals_only=True,
                   subset_by_index=[0, 0])
    return float(np.sqrt(lam[0]))


def _cell_sizes(model):
    return model.energy_terms[0].basis.dx.sum(-1)


@pytest.fixture(params=["triangle", "quad"])
def driven(request):
    model = wave(rectangle(1.0, 1.0, 4, cell=request.param), 2.0, 3.0,
                 boundary={"left": "velocity"})
    rng = np.random.default_rng(0)
    x = rng.standard_normal((3, len(model.system.states)))
    return model, x, np.full((3, 1), 0.5)


def test_vtu_holds_the_fields_and_the_energy(driven, tmp_path):
    model, x, u = driven
    path = model.save(tmp_path / "wave.vtu", x, u)
    back = meshio.read(path)
    assert np.allclose(back.points[:, :2], model.domain.mesh.p.T)
    assert np.allclose(back.point_data["v"], model.field("v", x[-1], u[-1]))
    assert np.allclose(back.cell_data["sigma"][0], model.field("sigma", x[-1], u[-1]).T)
    energy = back.cell_data["energy"][0]
    assert np.isclose(energy @ _cell_sizes(model), model.energy(x[-1], u[-1]), rtol=1e-12)
    # without the driven edge's velocity the cell energies add up to the system's H
    H = 0.5 * x[-1] @ (model.system.Q @ x[-1])
    assert np.isclose(model.energy_density(x[-1]) @ _cell_sizes(model), H, rtol=1e-12)


def test_xdmf_time_series_reads_back_step_by_step(driven, tmp_path):
    model, x, u = driven
    times = [0.0, 0.1, 0.2]
    path = model.save(tmp_path / "wave.xdmf", x, u, times=times)
    with meshio.xdmf.TimeSeriesReader(str(path)) as reader:
        points, _ = reader.read_points_cells()
        assert reader.num_steps == 3
        for k in range(3):
            t, point, cell = reader.read_data(k)
            assert t == times[k]
            assert np.allclose(point["v"], model.field("v", x[k], u[k]))
            assert np.allclose(cell["energy"][0], model.energy_density(x[k], u[k]))
            assert np.allclose(cell["sigma"][0], model.field("sigma", x[k], u[k]).T)


def test_heat_and_3d_models_save_too(tmp_path):
    model = heat(box(1.0, 2, cell="hexahedron"), 2.0, 3.0)
    x = np.random.default_rng(1).standard_normal(len(model.system.states))
    back = meshio.read(model.save(tmp_path / "heat.vtu", x))
    assert np.allclose(back.point_data["T"], model.field("T", x))
    assert np.isclose(back.cell_data["energy"][0] @ _cell_sizes(model),
                      0.5 * x @ (model.system.Q @ x), rtol=1e-12)
    with pytest.raises(ModelError, match=r"\.csv"):
        model.save(tmp_path / "heat.csv", x)


def test_plot_labels_the_colour_bar_with_the_unit(driven):
    model, x, u = driven
    for name, label in (("v", "v (m/s)"), ("sigma", "|sigma| (N/m)"),
                        ("energy", "energy (J/m²)")):
        ax = model.plot(name, x[-1], u[-1])
        assert ax.figure.axes[-1].get_ylabel() == label
        plt.close(ax.figure)
    hot = heat(rectangle(1.0, 1.0, 2), 1.0, 1.0)
    ax = hot.plot("energy", np.ones(len(hot.system.states)))
    assert ax.figure.axes[-1].get_ylabel() == "energy (J·K/m²)"
    plt.close(ax.figure)
    with pytest.raises(ModelError, match="2-D"):
        wave(box(1.0, 1)).plot("v", np.zeros(1))


def test_animate_writes_a_gif(driven, tmp_path):
    model, x, u = driven

    class Result:
        t = np.array([0.0, 0.1, 0.2])

    res = Result()
    res.x, res.u = x, u
    anim = model.animate(res, "v", frames=3, path=tmp_path / "v.gif")
    assert (tmp_path / "v.gif").stat().st_size > 0
    assert anim._fig.axes[-1].get_ylabel() == "v (m/s)"
    plt.close(anim._fig)


def _write_plate_msh(path, width_mm, height_mm, n):
    """A gmsh 2.2 file (meshio) of a width × height rectangle in mm, physical groups
    'clamped' (the short sides), 'edges' (the long sides) and the surface 'plate'."""
    import skfem

    base = skfem.MeshTri.init_tensor(np.linspace(0, width_mm, 2 * n + 1),
                                     np.linspace(0, height_mm, n + 1))
    bnd = base.boundary_facets()
    mid = base.p[:, base.facets[:, bnd]].mean(axis=1)
    short = np.isclose(mid[0], 0.0) | np.isclose(mid[0], width_mm)
    lines = np.concatenate([base.facets[:, bnd[short]].T, base.facets[:, bnd[~short]].T])
    tags = np.concatenate([np.full(short.sum(), 1), np.full((~short).sum(), 2)])
    tri = np.full(base.t.shape[1], 3)
    mesh = meshio.Mesh(np.c_[base.p.T, np.zeros(base.p.shape[1])],
                       [("line", lines), ("triangle", base.t.T)],
                       cell_data={"gmsh:physical": [tags, tri], "gmsh:geometrical": [tags, tri]},
                       field_data={"clamped": np.array([1, 1]), "edges": np.array([2, 1]),
                                   "plate": np.array([3, 2])})
    mesh.write(path, file_format="gmsh22", binary=False)
    return int(short.sum()), int((~short).sum())


def test_gmsh_physical_groups_become_boundary_parts(tmp_path):
    """Clamped short sides (x = 0, a), free long sides: the first mode is
    sin(πx/a), ω = cπ/a, whatever the height."""
    n_short, n_long = _write_plate_msh(tmp_path / "plate.msh", 2000.0, 1000.0, 8)
    domain = load_mesh("plate.msh", root=tmp_path, scale=0.001)
    assert sorted(domain.parts) == ["clamped", "edges"]
    assert (len(domain.parts["clamped"]), len(domain.parts["edges"])) == (n_short, n_long)
    assert np.allclose(domain.mesh.p.max(axis=1), [2.0, 1.0])
    rho, tension = 2.0, 8.0
    model = wave(domain, rho, tension, degree=2, boundary={"clamped": "fixed"})
    exact = np.sqrt(tension / rho) * np.pi / 2.0
    assert np.isclose(_lowest_omega(wave(domain, rho, tension,
                                         boundary={"clamped": "fixed"})), exact, rtol=2e-3)
    assert not model.layout.explicit and len(model.system.states) > 0


def test_load_mesh_refuses_files_outside_the_model_folder(tmp_path):
    inner = tmp_path / "model"
    inner.mkdir()
    _write_plate_msh(tmp_path / "outside.msh", 2.0, 1.0, 1)
    with pytest.raises(ModelError, match="outside the model's folder"):
        load_mesh("../outside.msh", root=inner)
    with pytest.raises(ModelError, match="outside the model's folder"):
        load_mesh(tmp_path / "outside.msh", root=inner)
    with pytest.raises(ModelError, match="does not exist"):
        load_mesh("missing.msh", root=inner)
    (inner / "bad.msh").write_text("not a mesh")
    with pytest.raises(ModelError, match="cannot read mesh file"):
        load_mesh("bad.msh", root=inner)


def test_disk_membrane_first_dirichlet_frequency_is_j01_c():
    rho, tension = 2.0, 8.0
    c = np.sqrt(tension / rho)
    errs = [abs(_lowest_omega(wave(disk(1.0, r), rho, tension)) / (J01 * c) - 1)
            for r in (3, 4)]
    assert errs[1] < 1e-3
    assert errs[1] < errs[0] / 3  # second order in h (polygon and elements)


def test_domain_measures_and_extra_parts():
    for domain, size in ((rectangle(2.0, 1.0, 4), 2.0), (rectangle(2.0, 1.0, 4, cell="quad"), 2.0),
                         (box((1.0, 2.0, 3.0), 2), 6.0),
                         (box((1.0, 2.0, 3.0), 2, cell="hexahedron"), 6.0)):
        assert np.isclose(domain.measure(), size, rtol=1e-12)
    polygon = disk(1.0, 3)
    n = len(polygon.parts["boundary"])  # a regular n-gon inscribed in the unit circle
    assert np.isclose(polygon.measure(), n / 2 * np.sin(2 * np.pi / n), rtol=1e-12)
    d = rectangle(2.0, 1.0, 4).with_parts(hot=lambda x: x[0] < 0.5 + 1e-9)
    assert len(d.parts["hot"]) == 4 + 2  # the left side and one facet of bottom and top
    every_facet = np.arange(d.mesh.facets.shape[1])
    with pytest.raises(ModelError, match="not on the boundary"):
        d.with_parts(inner=every_facet)
    with pytest.raises(ModelError, match="no boundary part"):
        d.part("cold")
