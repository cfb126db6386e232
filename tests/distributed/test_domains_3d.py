"""The wave equation on the unit cube (tetrahedra, hexahedra): Dirichlet frequencies
ω = c π √(l² + m² + n²) at the order of the elements, on coarse meshes."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sla

from porthamiltonian.distributed.domains import box, wave

RHO, STIFF = 2.0, 8.0  # kg/m³, Pa
C = np.sqrt(STIFF / RHO)


def _dense(a):
    return a.toarray() if hasattr(a, "toarray") else np.asarray(a, dtype=float)


def _omegas(model, count):
    """Lowest ω (rad/s) of the explicit system from its velocity block:
    ω² W_p v = K v with K = −J_pe Q_ee J_ep, W_p = Q_pp⁻¹ (lumped, diagonal)."""
    s = model.system
    p = np.array([nm.startswith("p[") for nm in s.states])
    J, Q = s.J.tocsr(), s.Q.tocsr()
    K = -_dense(J[p][:, ~p] @ Q[~p][:, ~p] @ J[~p][:, p])
    lam = sla.eigh(0.5 * (K + K.T), np.diag(1.0 / Q.diagonal()[p]), eigvals_only=True,
                   subset_by_index=[0, count - 1])
    return np.sqrt(lam)


def _exact(count):
    vals = sorted(l * l + m * m + n * n for l in range(1, 5) for m in range(1, 5)
                  for n in range(1, 5))
    return C * np.pi * np.sqrt(np.array(vals[:count], dtype=float))


@pytest.mark.parametrize("cell,degree,meshes", [("tetra", 1, (4, 8)),
                                                ("hexahedron", 1, (4, 8)),
                                                ("hexahedron", 2, (2, 4))])
def test_unit_cube_dirichlet_frequencies(cell, degree, meshes):
    exact = _exact(4)  # (1,1,1) and the triple (2,1,1)
    errs = []
    for n in meshes:
        model = wave(box(1.0, n, cell=cell), RHO, STIFF, degree=degree)
        assert model.layout.explicit and model.domain.dim == 3
        errs.append(np.abs(_omegas(model, 4) / exact - 1).max())
    order = np.log2(errs[0] / errs[1])
    print(f"cube {cell} k={degree}: errors {errs[0]:.2e} -> {errs[1]:.2e}, order {order:.2f}")
    assert errs[1] < (0.08 if degree == 1 else 0.01)
    assert order > 2 * degree - 0.3


def test_cube_energy_density_adds_up_to_h():
    model = wave(box(1.0, 2, cell="tetra"), RHO, STIFF, boundary="free")
    x = np.random.default_rng(0).standard_normal(len(model.system.states))
    assert np.isclose(model.energy(x), 0.5 * x @ (model.system.Q @ x), rtol=1e-12)
    assert model.energy_unit == "J/m³"
    assert model.field("sigma", x).shape == (3, model.domain.n_cells)
