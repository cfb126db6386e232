r"""Matching equations and Casimirs with state-dependent coefficients (sympy.pdsolve paths).

1. Pendulum, Jd = [[0, a(q)], [−a(q), 0]] with a = 1 + q²: the matching equation
   a ∂Hd/∂p = ∂H/∂p = p/(m l²) gives Hd = p²/(2 m l² a(q)) + Φ(q) (kinetic-energy shaping).
2. H = (x1² + x2²)/2, J = [[0, 1], [−1, 0]], g = [1, 1]: g⊥ = ±[1, −1], so with
   Jd = a(x1)[[0, 1], [−1, 0]] the equation is a(x1)(∂Hd/∂x1 + ∂Hd/∂x2) = x1 + x2,
   characteristics x1 − x2 = const.
3. ẋ = −w wᵀ ∇H with w = (x2, −x1 x2²): ∇C ⟂ w ⇔ ∂C/∂x1 − x1 x2 ∂C/∂x2 = 0, whose
   characteristics dx2/dx1 = −x1 x2 give C = F(x2 exp(x1²/2)).
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from plants import pendulum

from porthamiltonian import PHS, control
from porthamiltonian.simulate import simulate

q, p = sp.symbols("q p", real=True)
x1, x2 = sp.symbols("x1 x2", real=True)


def test_state_dependent_jd_shapes_the_kinetic_energy():
    a = 1 + q**2
    Jd = sp.Matrix([[0, a], [-a, 0]])
    sol = control.solve_matching(pendulum(), Jd, None)
    assert sol.method == "pdsolve"
    m, l = sp.symbols("m l", positive=True)
    assert sp.simplify(sol.particular - p**2 / (2 * m * l**2 * a)) == 0
    assert [sp.simplify(z) for z in sol.arguments] == [q]
    Rd = sp.diag(0, 0.5)
    d = control.ida_pbc(pendulum(), Jd, Rd, [1.0, 0.0], phi=lambda z: 3 * (z - 1) ** 2)
    plant = pendulum()
    for x in np.random.default_rng(8).normal(size=(8, 2)):
        assert np.max(np.abs(d.residual(x))) <= 1e-10
        assert d.closed_loop.rhs(x) == pytest.approx(plant.rhs(x, d.law_numeric(x)), abs=1e-10)


def test_two_variable_variable_coefficient_pde_and_a_conservative_closed_loop():
    plant = PHS(J=[[0, 1], [-1, 0]], G=[[1], [1]], hamiltonian=(x1**2 + x2**2) / 2,
                states=["x1", "x2"])
    a = 1 + x1**2
    Jd = sp.Matrix([[0, a], [-a, 0]])
    sol = control.solve_matching(plant, Jd, None)
    assert sol.method == "pdsolve" and not sol.particular.has(sp.I)
    Hp = sol.particular
    assert sp.simplify(a * (sp.diff(Hp, x1) + sp.diff(Hp, x2)) - (x1 + x2)) == 0
    (z,) = sol.arguments
    assert sp.simplify(sp.diff(z, x1) + sp.diff(z, x2)) == 0
    d = control.ida_pbc(plant, Jd, sp.zeros(2, 2), [0.5, -0.5], phi=2.0)
    assert np.all(d.minimum.eigenvalues > 0)
    for x in np.random.default_rng(9).normal(size=(8, 2)):
        assert np.max(np.abs(d.residual(x))) <= 1e-10
    # Rd = 0: the closed loop is lossless in Hd, so Hd is a first integral of the plant
    res = simulate(plant, (0.0, 5.0), [0.7, -0.2], u=d.feedback(), method="DOP853",
                   dt=0.01, rtol=1e-12, atol=1e-12)
    Hd = np.array([d.Hd_numeric(x) for x in res.x])
    assert np.max(np.abs(Hd - Hd[0])) <= 1e-8


def test_casimir_of_a_state_dependent_dissipation_from_pdsolve():
    w = sp.Matrix([x2, -x1 * x2**2])
    sys = PHS(R=w * w.T, hamiltonian=(x1**2 + x2**2) / 2, states=["x1", "x2"])
    C = control.casimirs(sys)
    assert C.method == "pdsolve" and len(C) == 1
    # functionally dependent on x2·exp(x1²/2): zero Jacobian determinant
    xi = x2 * sp.exp(x1**2 / 2)
    jac = sp.Matrix([[sp.diff(C[0], v) for v in (x1, x2)], [sp.diff(xi, v) for v in (x1, x2)]])
    assert sp.simplify(jac.det()) == 0
    assert all(e == 0 for e in C.residual_expr())
    res = simulate(sys, (0.0, 3.0), [0.8, 0.6], method="DOP853", dt=0.01, rtol=1e-12,
                   atol=1e-12)
    vals = C.evaluate(res.x)[:, 0]
    assert np.max(np.abs(vals - vals[0])) <= 1e-9
    assert res.H[-1] < res.H[0]  # it does dissipate: only the Casimir is kept
