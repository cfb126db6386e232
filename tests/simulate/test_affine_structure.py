"""FunctionPHS with a state-dependent (affine) structure J(x), G(x): the free rigid body."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sps
import sympy as sp
from scipy.integrate import solve_ivp

from porthamiltonian import PHS, ModelError
from porthamiltonian.compiled.affine import AffineMatrix
from porthamiltonian.simulate import FunctionPHS, simulate

INERTIA = np.array([1.0, 2.0, 3.0])  # kg·m²


def cross_entries(sign: float = 1.0):
    """J(π) = [π×] (J z = π × z): entries (i, j, k, c) with J_ij += c π_k."""
    rows, cols, ks, cs = [], [], [], []
    for i, j, k in ((0, 1, 2), (1, 2, 0), (2, 0, 1)):  # J_ij = −π_k, J_ji = +π_k
        rows += [i, j]
        cols += [j, i]
        ks += [k, k]
        cs += [-1.0, sign * 1.0]
    return rows, cols, ks, cs


def euler_body(torque: bool = False) -> FunctionPHS:
    J = AffineMatrix(sps.csr_array((3, 3)), *cross_entries(), n_states=3)
    G = AffineMatrix(np.eye(3)[:, :1], [1, 2], [0, 0], [2, 1], [1.0, -1.0], n_states=3) \
        if torque else None
    q = 1.0 / INERTIA
    return FunctionPHS(J=J, G=G if torque else np.zeros((3, 0)),
                       energy=lambda x: 0.5 * float(x @ (q * x)), gradient=lambda x: q * x,
                       hessian=lambda x: sps.diags_array(q), degree=2,
                       states=["pi1", "pi2", "pi3"], inputs=["tau"] if torque else None)


def test_free_rigid_body_keeps_energy_and_casimir_and_follows_euler():
    # π̇ = π × I⁻¹π (Euler's equations in the body frame); the implicit midpoint rule
    # conserves both quadratic invariants, H and |π|², to round-off
    sys = euler_body()
    x0 = np.array([0.1, 2.0, 0.1])  # near the unstable intermediate axis: it flips
    res = simulate(sys, (0, 20), x0, dt=1e-2)
    assert np.max(np.abs(res.H - res.H[0])) <= 1e-13 * res.H[0]
    norm = np.sum(res.x**2, axis=1)
    assert np.max(np.abs(norm - norm[0])) <= 1e-13 * norm[0]
    assert res.x[:, 1].min() < -1.5  # the Dzhanibekov flip

    def euler(t, p):
        return np.cross(p, p / INERTIA)

    ref = solve_ivp(euler, (0, 20), x0, t_eval=res.t, rtol=1e-11, atol=1e-12)
    assert np.max(np.abs(res.x - ref.y.T)) < 5e-5  # second order: 1.5e-5 measured, 3.7e-6 at h/2


def test_affine_model_matches_the_symbolic_one_with_a_state_dependent_input():
    # G(π) u with G = (1, π₃, −π₂)ᵀ: a torque about the body axis 1 plus a
    # state-dependent coupling; the same PHS written in SymPy gives the same trajectory
    p = sp.symbols("pi1 pi2 pi3", real=True)
    Jsym = sp.Matrix([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])
    H = sum(pi**2 / (2 * float(i)) for pi, i in zip(p, INERTIA, strict=True))
    sym = PHS(J=Jsym, G=sp.Matrix([1, p[2], -p[1]]), hamiltonian=H, states=list(p),
              inputs=["tau"])
    u = {"tau": lambda t: np.sin(3 * t)}
    a = simulate(euler_body(torque=True), (0, 3), [0.3, -0.2, 0.5], u=u, dt=1e-2)
    b = simulate(sym, (0, 3), [0.3, -0.2, 0.5], u=u, dt=1e-2)
    assert np.max(np.abs(a.x - b.x)) < 1e-12
    assert np.max(np.abs(a.y - b.y)) < 1e-12
    # exact discrete power balance: ΔH = ∫ u y dt
    assert np.max(np.abs(a.power_residual)) < 1e-14


def test_structure_that_is_not_skew_is_refused():
    with pytest.raises(ModelError, match="not skew-symmetric"):
        FunctionPHS(J=AffineMatrix(sps.csr_array((3, 3)), *cross_entries(sign=0.5), n_states=3),
                    energy=lambda x: 0.0, gradient=lambda x: x, hessian=lambda x: np.eye(3))
    with pytest.raises(ModelError, match="outside"):
        AffineMatrix(np.zeros((3, 3)), [0], [3], [0], [1.0], n_states=3)
