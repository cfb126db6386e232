"""Heat conduction on 2-D/3-D domains: decay rates against the closed form, first law,
ports and the power balance."""

from __future__ import annotations

import numpy as np
import pytest

from porthamiltonian import ModelError
from porthamiltonian.distributed.domains import HeatModel, box, heat, rectangle

CAP, COND = 2.0, 3.0  # J/(K·m²), W/K
NU = COND / CAP


def _dense(a):
    return a.toarray() if hasattr(a, "toarray") else np.asarray(a, dtype=float)


def _exact(count, lo=1):
    vals = sorted(m * m + n * n for m in range(lo, 8) for n in range(lo, 8) if m or n)
    return NU * np.pi ** 2 * np.array(vals[:count], dtype=float)


@pytest.mark.parametrize("cell", ["triangle", "quad"])
@pytest.mark.parametrize("degree", [1, 2])
def test_dirichlet_decay_rates_converge_at_order_2k(degree, cell):
    exact = _exact(4)
    errs = []
    for n in (6, 12):
        model = heat(rectangle(1.0, 1.0, n, cell=cell), CAP, COND, degree=degree,
                     boundary="zero")
        errs.append(np.abs(model.decay_rates(4) / exact - 1).max())
    order = np.log2(errs[0] / errs[1])
    print(f"heat {cell} k={degree}: errors {errs[0]:.2e} -> {errs[1]:.2e}, order {order:.2f}")
    assert errs[1] < (0.1 if degree == 1 else 1e-3)
    assert order > 2 * degree - 0.3


def test_insulated_square_has_a_zero_rate_then_the_neumann_modes():
    model = heat(rectangle(1.0, 1.0, 16, cell="quad"), CAP, COND, degree=2)
    mu = model.decay_rates(4)
    assert mu[0] == 0.0
    assert np.allclose(mu[1:], _exact(4, lo=0)[:3], rtol=1e-4)
    with pytest.raises(ModelError, match="decay_rates"):
        model.frequencies(2)


def test_sparse_shift_invert_path_agrees_with_the_closed_form():
    model = heat(rectangle(1.0, 1.0, 24), CAP, COND, boundary="zero")  # > 400 dofs: eigsh
    assert model.capacity_matrix.shape[0] > 400
    assert np.allclose(model.decay_rates(3), _exact(3), rtol=5e-3)


def test_unit_cube_decay_rate():
    model = heat(box(1.0, 4, cell="hexahedron"), CAP, COND, degree=2, boundary="zero")
    assert np.isclose(model.decay_rates(1)[0], NU * 3 * np.pi ** 2, rtol=2e-3)


def test_ports_first_law_and_power_balance():
    model = heat(rectangle(2.0, 1.0, (8, 4)), CAP, COND,
                 boundary={"left": "temperature", "right": "flux", "top": "insulated",
                           "bottom": "insulated"}, points={"probe": (1.0, 0.5)})
    s = model.system
    assert isinstance(model, HeatModel)
    assert list(s.inputs) == ["T_left", "q_right", "q_probe"]
    assert list(s.outputs) == ["q_left", "T_right", "T_probe"]
    assert s.states[0].startswith("U[")
    Q, J, R, G, P, S = (_dense(getattr(s, k)) if getattr(s, k) is not None
                        else np.zeros((len(s.inputs),) * 2) for k in "QJRGPS")
    assert not J.any()
    rng = np.random.default_rng(1)
    x, u = rng.standard_normal(len(s.states)), rng.standard_normal(3)
    e = Q @ x
    dx = -R @ e + (G - P) @ u
    y = (G + P).T @ e + S @ u
    diss = e @ R @ e + 2 * e @ P @ u + u @ S @ u
    assert abs(e @ dx - (u @ y - diss)) < 1e-12 * (abs(u @ y) + diss)


def test_first_law_sum_of_states_changes_by_the_heat_flowing_in():
    height = 1.0
    model = heat(rectangle(2.0, height, (8, 4)), CAP, COND, boundary={"right": "flux"},
                 points={"probe": (0.7, 0.3)})
    s = model.system
    x, u = np.random.default_rng(2).standard_normal(len(s.states)), np.array([0.4, -1.3])
    dx = -_dense(s.R) @ (_dense(s.Q) @ x) + _dense(s.G) @ u
    assert np.isclose(dx.sum(), u[0] * height + u[1], rtol=1e-12)
    assert np.isclose(model.internal_energy(x), x.sum())


def test_imposed_temperature_output_is_the_heat_flow():
    """Steady state T = 1 − x/L between a driven left edge (T = 1) and a zero right edge,
    insulated top and bottom: the heat flow into the body on the left is k·height/L (W),
    exactly (the linear profile is in the P1 space)."""
    L, height = 2.0, 1.0
    model = heat(rectangle(L, height, (6, 3)), CAP, COND,
                 boundary={"left": "temperature", "right": "zero"})
    s = model.system
    R, G, Q = _dense(s.R), _dense(s.G) - _dense(s.P), _dense(s.Q)
    e = np.linalg.solve(R, G @ [1.0])  # 0 = −R e + (G − P) u
    y = (_dense(s.G) + _dense(s.P)).T @ e + _dense(s.S) @ [1.0]
    assert np.isclose(y[0], COND * height / L, rtol=1e-12)
    T = model.field("T", np.linalg.solve(Q, e), [1.0])
    x = model.domain.mesh.p[0]
    assert np.allclose(T, 1 - x / L, atol=1e-12)
    total = model.internal_energy(np.linalg.solve(Q, e))
    assert total > 0


def test_energy_density_adds_up_to_h_and_has_its_unit():
    model = heat(rectangle(1.0, 1.0, 4), CAP, COND)
    x = np.random.default_rng(0).standard_normal(len(model.system.states))
    assert np.isclose(model.energy(x), 0.5 * x @ (model.system.Q @ x), rtol=1e-12)
    assert model.energy_unit == "J·K/m²"


def test_bad_conditions_and_coefficients():
    d = rectangle(1.0, 1.0, 2)
    with pytest.raises(ModelError, match="not one of"):
        heat(d, boundary={"left": "hot"})
    with pytest.raises(ModelError, match="capacity"):
        heat(d, capacity=0.0)
    with pytest.raises(ModelError, match="no boundary part"):
        heat(d, boundary={"middle": "zero"})
