"""Property models: the identities of a fundamental relation, symbolically."""

import numpy as np
import pytest
import sympy as sp

from porthamiltonian.errors import ModelError
from porthamiltonian.thermo.properties import (
    R_GAS,
    euler_residual,
    gibbs_duhem_residual,
    gibbs_residual,
    hessian_SV,
    ideal_gas,
    ideal_gas_mixture,
    incompressible_liquid,
    is_convex_at,
    legendre,
    maxwell_residuals,
)


def test_ideal_gas_equation_of_state_and_energy():
    g = ideal_gas()
    N, V = g.N[0], g.V
    c, R = sp.Symbol("c", positive=True), sp.Symbol("R", positive=True)
    assert sp.simplify(g.p * V - N * R * g.T) == 0          # pV = NRT
    u = sp.Symbol("u", real=True)
    assert sp.simplify(g.U - N * u - N * c * g.T) == 0      # U = N (u + c_v T)
    S = g.entropy_at(300.0, 0.02, [1.0])
    assert g.numeric("T")(S, 0.02, 1.0) == pytest.approx(300.0, rel=1e-14)
    assert g.numeric("p")(S, 0.02, 1.0) == pytest.approx(R_GAS * 300.0 / 0.02, rel=1e-14)


def test_euler_relation_of_a_mixture():
    assert euler_residual(ideal_gas_mixture(["A", "B"], [12.5, 29.1])) == 0


@pytest.mark.parametrize("model", [ideal_gas(), incompressible_liquid()])
def test_euler_gibbs_duhem_maxwell(model):
    assert euler_residual(model) == 0
    assert gibbs_duhem_residual(model) == sp.zeros(len(model.variables), 1)
    assert all(v == 0 for v in maxwell_residuals(model).values())


def test_convexity_of_the_ideal_gas():
    g = ideal_gas()
    H = hessian_SV(g)
    T, c, R = g.T, sp.Symbol("c", positive=True), sp.Symbol("R", positive=True)
    N, V = g.N[0], g.V
    # U_SS = T/(N c_v) and det = R T² /(c_v V²) > 0: positive definite (Callen §8.1)
    assert sp.simplify(H[0, 0] - T / (N * c)) == 0
    assert sp.simplify(H.det() - R * T**2 / (c * V**2)) == 0
    rng = np.random.default_rng(0)
    for S, V_, n in zip(rng.uniform(-20, 20, 10), rng.uniform(1e-3, 1.0, 10),
                        rng.uniform(0.1, 5, 10), strict=True):
        assert is_convex_at(g, S, V_, [n])


def test_legendre_potentials_of_the_ideal_gas():
    g = ideal_gas()
    vals = {**g.values}
    S, V, n = 3.0, 0.02, 1.0
    pt = {g.S: S, g.V: V, g.N[0]: n}
    U, T, p = (float(e.subs(pt).subs(vals)) for e in (g.U, g.T, g.p))
    F, (Ts, _, _) = legendre(g, "F")
    G, (Tg, pg, _) = legendre(g, "G")
    H, (_, ph, _) = legendre(g, "H")
    assert float(F.subs({Ts: T, g.V: V, g.N[0]: n}).subs(vals)) == pytest.approx(U - T * S)
    assert float(G.subs({Tg: T, pg: p, g.N[0]: n}).subs(vals)) == pytest.approx(
        U - T * S + p * V)
    assert float(H.subs({g.S: S, ph: p, g.N[0]: n}).subs(vals)) == pytest.approx(U + p * V)
    # G = N μ for a pure substance
    mu = float(g.mu[0].subs(pt).subs(vals))
    assert float(G.subs({Tg: T, pg: p, g.N[0]: n}).subs(vals)) == pytest.approx(n * mu)
    with pytest.raises(ModelError):
        legendre(incompressible_liquid(), "G")


def test_gibbs_relation_along_a_trajectory():
    g = ideal_gas_mixture(["A", "B"], [12.5, 29.1])
    t = np.linspace(0.0, 1.0, 201)
    traj = np.column_stack([2.0 + np.sin(3 * t), 0.02 + 0.01 * t, 1.0 + 0.2 * t, 0.5 - 0.1 * t])
    U = g.numeric("U")(*traj.T)
    res = gibbs_residual(g, traj)
    assert np.max(np.abs(res)) < 1e-10 * np.max(np.abs(U))
