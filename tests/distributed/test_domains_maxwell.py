"""2-D Maxwell cavities (TE, TM): closed-form cavity modes at the order of the elements,
Poynting ports, boundary conditions."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sla

from porthamiltonian import ModelError
from porthamiltonian.distributed.domains import maxwell_te, maxwell_tm, rectangle
from porthamiltonian.distributed.domains.pfem import block_inverse

EPS, MU, SIDE = 2.0, 0.5, 1.0
C = 1.0 / np.sqrt(EPS * MU)


def _dense(a):
    return a.toarray() if hasattr(a, "toarray") else np.asarray(a, dtype=float)


def _omegas(model, count):
    """Lowest non-zero ω (rad/s): the lossless system's second-order form on
    its continuous field z, ω² W_z e = K e with K = −J_zp W_p⁻¹ J_pz (W = Q⁻¹ in the
    explicit form, E in the descriptor form; W_p block diagonal)."""
    s = model.system
    z = np.array([nm[0] == s.states[0][0] for nm in s.states])
    J = s.J.tocsr()
    if hasattr(s, "E"):
        Wz = _dense(s.E[z][:, z])
        Wp_inv = block_inverse(s.E[~z][:, ~z])
    else:
        Wz = np.linalg.inv(_dense(s.Q[z][:, z]))
        Wp_inv = s.Q[~z][:, ~z]
    K = -_dense(J[z][:, ~z] @ Wp_inv @ J[~z][:, z])
    lam = sla.eigh(0.5 * (K + K.T), Wz, eigvals_only=True)
    return np.sqrt(lam[lam > 1e-9 * lam.max()])[:count]


def _exact(mode, count):
    lo = 1 if mode == "tm" else 0
    vals = sorted(np.hypot(m, n) for m in range(lo, 6) for n in range(lo, 6) if m or n)
    return C * np.pi / SIDE * np.array(vals[:count])


@pytest.mark.parametrize("cell", ["triangle", "quad"])
@pytest.mark.parametrize("degree", [1, 2])
@pytest.mark.parametrize("build,mode", [(maxwell_tm, "tm"), (maxwell_te, "te")])
def test_square_cavity_modes_converge_at_order_2k(build, mode, degree, cell):
    exact = _exact(mode, 4)
    errs = []
    for n in (6, 12):
        model = build(rectangle(SIDE, SIDE, n, cell=cell), EPS, MU, degree=degree)
        errs.append(np.abs(_omegas(model, 4) / exact - 1).max())
    order = np.log2(errs[0] / errs[1])
    assert errs[1] < (0.05 if degree == 1 else 1e-3)
    print(f"{mode} {cell} k={degree}: errors {errs[0]:.2e} -> {errs[1]:.2e}, order {order:.2f}")
    assert order > 2 * degree - 0.3, (errs, order)


def test_tm_pec_is_essential_and_te_pec_natural():
    d = rectangle(SIDE, SIDE, 4)
    tm, te = maxwell_tm(d, EPS, MU), maxwell_te(d, EPS, MU)
    n_vertices, n_cells = d.n_vertices, d.n_cells
    interior = (4 - 1) ** 2
    assert len(tm.system.states) == interior + 2 * n_cells  # E_z only inside, H everywhere
    assert len(te.system.states) == n_vertices + 2 * n_cells
    assert tm.system.states[0].startswith("D[") and te.system.states[0].startswith("B[")
    te_pmc = maxwell_te(d, EPS, MU, boundary="pmc")  # H_z = 0: the TM spectrum
    assert np.allclose(_omegas(te_pmc, 3), _omegas(tm, 3), rtol=1e-9)


def _power_residual(system, rng):
    """dH/dt − (uᵀy − dissipation) at a random state and input (explicit form)."""
    Q, J, R, G = (_dense(getattr(system, k)) for k in "QJRG")
    n, m = G.shape
    P, S, M = (np.zeros(shape) if getattr(system, k) is None else _dense(getattr(system, k))
               for k, shape in (("P", (n, m)), ("S", (m, m)), ("M", (m, m))))
    x, u = rng.standard_normal(n), rng.standard_normal(m)
    e = Q @ x
    dx = (J - R) @ e + (G - P) @ u
    y = (G + P).T @ e + (M + S) @ u
    diss = e @ R @ e + 2 * e @ P @ u + u @ S @ u
    return e @ dx - (u @ y - diss), abs(u @ y) + abs(diss) + abs(e @ dx)


@pytest.mark.parametrize("build", [maxwell_tm, maxwell_te])
def test_ports_deliver_the_poynting_power(build):
    rng = np.random.default_rng(3)
    model = build(rectangle(SIDE, SIDE, 4), EPS, MU,
                  boundary={"left": "port", "right": "driven", "top": "pmc"})
    s = model.system
    field = "H" if build is maxwell_tm else "E"
    other = "E" if field == "H" else "H"
    assert list(s.inputs) == [f"{other}_right", f"{field}_left"]
    assert list(s.outputs) == [f"{field}_right", f"{other}_left"]
    res, scale = _power_residual(s, rng)
    assert abs(res) < 1e-12 * scale


def test_tm_port_input_is_tangential_h():
    """A uniform H_t = (n×H)_z on the left edge, E_z = 0: W_E Ė_z = B u — the field
    grows where the surface current flows and ∑ (ε E_z)-states grows by u·length."""
    model = maxwell_tm(rectangle(SIDE, SIDE, 4), EPS, MU,
                       boundary={"left": "port", "right": "pmc", "top": "pmc", "bottom": "pmc"})
    s = model.system
    x = np.zeros(len(s.states))
    dx = _dense(s.G) @ np.array([1.0])
    charge = [i for i, nm in enumerate(s.states) if nm.startswith("D[")]
    assert np.isclose(np.sum(np.ravel(dx)[charge]), SIDE)  # ∫_left u ds
    assert np.allclose(np.ravel(dx)[len(charge):], 0.0)
    assert np.allclose(x, 0.0)


def test_energy_fields_add_up_to_h():
    model = maxwell_te(rectangle(SIDE, SIDE, 4, cell="quad"), EPS, MU)
    x = np.random.default_rng(0).standard_normal(len(model.system.states))
    Q = model.system.Q
    assert np.isclose(model.energy(x), 0.5 * x @ (Q @ x), rtol=1e-12)
    assert model.field("Ex", x).shape == (model.domain.n_cells,)
    assert model.field("E", x).shape == (2, model.domain.n_cells)
    assert model.field("Hz", x).shape == (model.domain.n_vertices,)


def test_bad_inputs_raise_model_errors():
    d = rectangle(SIDE, SIDE, 2)
    with pytest.raises(ModelError, match="not one of"):
        maxwell_tm(d, boundary={"left": "fixed"})
    with pytest.raises(ModelError, match="epsilon"):
        maxwell_te(d, epsilon=-1.0)
    from porthamiltonian.distributed.domains import box
    with pytest.raises(ModelError, match="2-D"):
        maxwell_tm(box(1.0, 1))
