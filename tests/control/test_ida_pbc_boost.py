r"""Boost converter regulated by energy shaping (IDA-PBC with the supply as a fixed input).

Averaged model, control μ = 1 − duty, supply E held fixed.  g = [−x2/C; x1/L] and
g⊥ = [x1/L, x2/C] (g⊥ g = 0).  With Jd = 0 and Rd = diag(r1, 1/R) the single matching
equation is the power balance

    −r1 (x1/L) ∂Hd/∂x1 − (x2/(RC)) ∂Hd/∂x2 = E x1/L − x2²/(R C²)     (= E i − v²/R),

a first-order PDE with state-dependent coefficients.  At the equilibrium with output
voltage v* the power balance E i* = v*²/R gives i* = v*²/(R E), and ẋ1 = 0 gives the
steady duty μ* = E/v* (the textbook boost gain v* = E/(1 − D)).
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from plants import BOOST, boost_averaged

from porthamiltonian import ModelError, control
from porthamiltonian.simulate import simulate

E, V_STAR, R1 = 12.0, 24.0, 0.5  # r1 = 2 leaves Hd indefinite along ker ∂z/∂x at x*
L, C, R = BOOST["L"], BOOST["C"], BOOST["R"]
I_STAR = V_STAR**2 / (R * E)
X_STAR = [L * I_STAR, C * V_STAR]
x1, x2 = sp.symbols("x1 x2", real=True)


def test_general_solution_satisfies_the_power_balance_pde():
    Rd = sp.diag(R1, sp.Symbol("R", positive=True) ** -1)
    sol = control.solve_matching(boost_averaged(), sp.zeros(2, 2), Rd, fixed_inputs={"E": E})
    assert sol.method == "pdsolve" and len(sol.arguments) == 1
    Ls, Cs, Rs = sp.symbols("L C R", positive=True)
    Hp, (z,) = sol.particular, sol.arguments
    lhs = -R1 * x1 / Ls * sp.diff(Hp, x1) - x2 / (Rs * Cs) * sp.diff(Hp, x2)
    assert sp.simplify(lhs - (E * x1 / Ls - x2**2 / (Rs * Cs**2))) == 0
    homog = -R1 * x1 / Ls * sp.diff(z, x1) - x2 / (Rs * Cs) * sp.diff(z, x2)
    assert sp.simplify(homog) == 0


def test_boost_regulates_the_output_voltage_with_the_textbook_steady_duty():
    Rd = sp.diag(R1, 1 / R)
    d = control.ida_pbc(boost_averaged(), sp.zeros(2, 2), Rd, X_STAR, fixed_inputs={"E": E})
    assert d.control_inputs == ["mu"]
    assert d.law_numeric(X_STAR)[0] == pytest.approx(E / V_STAR, rel=1e-10)
    rng = np.random.default_rng(12)
    for x in np.array(X_STAR) * rng.uniform(0.5, 1.5, size=(10, 2)):
        assert np.max(np.abs(d.residual(x))) <= 1e-10 * max(1.0, E * x[0] / L)
    plant = boost_averaged()
    # Hd has a local minimum only (Hp = −E x1/r1 + x2²/2C is unbounded below): start near
    # x*, where the duty also stays physical, 0 ≤ μ ≤ 1
    for f1, f2 in ((0.9, 0.95), (1.1, 1.05), (0.95, 1.1), (1.2, 0.9)):
        x0 = [f1 * X_STAR[0], f2 * X_STAR[1]]
        res = simulate(plant, (0.0, 0.02), x0, u=d.feedback(), method="RK45", dt=1e-4,
                       rtol=1e-10, atol=1e-14)
        assert np.all((res["mu"] >= 0) & (res["mu"] <= 1))
        assert res["x2"][-1] / C == pytest.approx(V_STAR, rel=1e-6)
        assert res["x1"][-1] / L == pytest.approx(I_STAR, rel=1e-6)
        assert np.allclose(res["E"], E)
        Hd = np.array([d.Hd_numeric(x) for x in res.x])
        assert np.all(np.diff(Hd) <= 1e-12 * np.max(np.abs(Hd)))


def test_fixed_input_errors():
    with pytest.raises(ModelError, match="V not among the plant's inputs"):
        control.ida_pbc(boost_averaged(), sp.zeros(2, 2), sp.diag(R1, 1 / R), X_STAR,
                        fixed_inputs={"V": E})
    with pytest.raises(ModelError, match="at least one control input"):
        control.ida_pbc(boost_averaged(), sp.zeros(2, 2), sp.diag(R1, 1 / R), X_STAR,
                        fixed_inputs={"E": E, "mu": 0.5})
    # a state off the power balance (i ≠ v²/(R E)) is no equilibrium: E i − v²/R ≠ 0
    with pytest.raises(ModelError, match="not an assignable equilibrium"):
        control.ida_pbc(boost_averaged(), sp.zeros(2, 2), sp.diag(R1, 1 / R),
                        [2 * X_STAR[0], X_STAR[1]], fixed_inputs={"E": E})
