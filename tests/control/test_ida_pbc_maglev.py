r"""IDA-PBC of the magnetic levitation system (Ortega, van der Schaft, Maschke, Escobar 2002).

Hand derivation used here.  With Jd = [[0, 0, −α], [0, 0, 1], [α, −1, 0]] and
Rd = diag(R1, 0, 0), g⊥ = [[0, 1, 0], [0, 0, 1]] and the matching equations are

    ∂Hd/∂x3 = x3/m,      α ∂Hd/∂x1 − ∂Hd/∂x2 = x1²/(2k) − m g,

solved by Hd = x3²/(2m) + x1³/(6kα) − m g x1/α + F(x2 + x1/α) for any F.  With
F(z) = (b/2)(z − z*)², z* = x2* + x1*/α, and x1* = sqrt(2 k m g) (the flux that holds the
ball), ∇Hd(x*) = 0 and det ∇²Hd(x*)|(x1, x2) = b x1*/(k α) > 0.  The law is the first row of
(Jd − Rd)∇Hd − (J − R)∇H:  u = R ∂H/∂x1 − R1 ∂Hd/∂x1 − α ∂Hd/∂x3.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from plants import MAGLEV, maglev

from porthamiltonian import ModelError, StructureError, control
from porthamiltonian.simulate import simulate

x1, x2, x3 = sp.symbols("x1 x2 x3", real=True)
alpha, R1, b = sp.symbols("alpha R1 b", positive=True)
JD = sp.Matrix([[0, 0, -alpha], [0, 0, 1], [alpha, -1, 0]])
RD = sp.diag(R1, 0, 0)
DESIGN = {"alpha": 3.0, "R1": 3.0, "b": 2.0}
K, M, G, R = (MAGLEV[s] for s in ("k", "m", "g", "R"))
XSTAR = np.array([np.sqrt(2 * K * M * G), 0.3, 0.0])


def textbook_Hd(a: float, bb: float) -> sp.Expr:
    zs = XSTAR[1] + XSTAR[0] / a
    return (x3**2 / (2 * M) + x1**3 / (6 * K * a) - M * G * x1 / a
            + bb / 2 * (x2 + x1 / a - zs) ** 2)


def textbook_law(x: np.ndarray, a: float, r1: float, bb: float) -> float:
    zs = XSTAR[1] + XSTAR[0] / a
    dH1 = (1 - x[1]) * x[0] / K
    dHd1 = x[0] ** 2 / (2 * K * a) - M * G / a + bb / a * (x[1] + x[0] / a - zs)
    dHd3 = x[2] / M
    return R * dH1 - r1 * dHd1 - a * dHd3


def random_states(n: int, seed: int = 1) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return XSTAR + rng.normal(scale=[1.0, 0.2, 0.5], size=(n, 3))


def test_general_solution_satisfies_the_hand_derived_pdes_and_exposes_the_free_function():
    sol = control.solve_matching(maglev(), JD, RD)
    assert sol.method == "linear algebra"
    assert len(sol.arguments) == 1
    # the free argument is constant along both characteristic directions of the PDEs
    (z,) = sol.arguments
    assert sp.diff(z, x3) == 0 and sp.simplify(alpha * sp.diff(z, x1) - sp.diff(z, x2)) == 0
    Hd = sol.Hd
    k, m, g = sp.symbols("k m g", positive=True)
    assert sp.simplify(sp.diff(Hd, x3) - x3 / m) == 0
    assert sp.simplify(alpha * sp.diff(Hd, x1) - sp.diff(Hd, x2) - x1**2 / (2 * k) + m * g) == 0


def test_supplied_textbook_design_law_residual_and_minimum():
    a, r1, bb = DESIGN["alpha"], DESIGN["R1"], DESIGN["b"]
    d = control.ida_pbc(maglev(), JD, RD, XSTAR, Hd=textbook_Hd(a, bb), parameters=DESIGN)
    for x in random_states(20):
        assert np.max(np.abs(d.residual(x))) <= 1e-10
        assert d.law_numeric(x)[0] == pytest.approx(textbook_law(x, a, r1, bb), rel=1e-12)
    # strict minimum: the hand determinant condition and all eigenvalues > 0
    assert np.all(d.minimum.eigenvalues > 0)
    hess = d.minimum.hessian
    assert np.linalg.det(hess[:2, :2]) == pytest.approx(bb * XSTAR[0] / (K * a), rel=1e-10)
    assert np.max(np.abs(d.minimum.gradient)) <= 1e-12
    # the same energy as text (safe parser; plant and design parameters by name)
    zs = XSTAR[1] + XSTAR[0] / a
    text = (f"x3**2/(2*m) + x1**3/(6*k*alpha) - m*g*x1/alpha "
            f"+ b/2*(x2 + x1/alpha - {float(zs)!r})**2")
    d2 = control.ida_pbc(maglev(), JD, RD, XSTAR, Hd=text, parameters=DESIGN)
    x = random_states(1, seed=3)[0]
    assert d2.law_numeric(x) == pytest.approx(d.law_numeric(x), rel=1e-12)


def test_solved_design_converges_from_several_initial_states_and_hd_decreases():
    d = control.ida_pbc(maglev(), JD, RD, XSTAR, parameters=DESIGN)
    plant = maglev()
    for x0 in ([4.0, 0.1, 0.0], [5.0, 0.45, 0.3], [3.5, 0.2, -0.4]):
        res = simulate(plant, (0.0, 30.0), x0, u=d.feedback(), method="RK45", dt=0.01,
                       rtol=1e-10, atol=1e-12)
        assert np.max(np.abs(res.x[-1] - XSTAR)) < 1e-5
        Hd = np.array([d.Hd_numeric(x) for x in res.x])
        assert np.all(np.diff(Hd) <= 1e-9 * abs(Hd[0]))
        # the rate equals −∇Hdᵀ Rd ∇Hd = −R1 (∂Hd/∂x1)² (central differences, O(dt²))
        grad1 = np.array([d.closed_loop.gradient(x)[0] for x in res.x])
        rate = np.gradient(Hd, res.t)
        assert rate[1:-1] == pytest.approx(-DESIGN["R1"] * grad1[1:-1] ** 2, abs=2e-3)


def test_closed_loop_phs_reproduces_the_plant_under_the_law():
    d = control.ida_pbc(maglev(), JD, RD, XSTAR, parameters=DESIGN)
    cl, plant = d.closed_loop, maglev()
    assert cl.hamiltonian == d.Hd
    for x in random_states(10, seed=5):
        assert cl.rhs(x) == pytest.approx(plant.rhs(x, d.law_numeric(x)), abs=1e-10)
    # power balance of the closed loop: Ḣd = −R1 (∂Hd/∂x1)² ≤ 0
    x = random_states(1, seed=6)[0]
    pb = cl.power_balance(x)
    assert pb.stored == pytest.approx(-DESIGN["R1"] * cl.gradient(x)[0] ** 2, rel=1e-12)
    # local asymptotic stability: the linearized closed loop is Hurwitz
    A, *_ = cl.state_space(XSTAR)
    assert np.max(np.linalg.eigvals(A).real) < 0


def test_errors_name_the_offending_matrix_entry_or_equation():
    plant = maglev()
    bad_skew = JD.copy()
    bad_skew[0, 2] = alpha
    with pytest.raises(StructureError, match=r"Jd\[x1, x3\]"):
        control.ida_pbc(plant, bad_skew, RD, XSTAR, parameters=DESIGN)
    with pytest.raises(StructureError, match="Rd.*x1"):
        control.ida_pbc(plant, JD, sp.diag(-1, 0, 0), XSTAR, parameters=DESIGN)
    # a moving ball is no equilibrium: d(x2)/dt = x3/m ≠ 0 cannot be cancelled by the voltage
    with pytest.raises(ModelError, match=r"not an assignable equilibrium.*dx2/dt"):
        control.ida_pbc(plant, JD, RD, [XSTAR[0], 0.3, 0.2], parameters=DESIGN)
    # Jd − Rd that leaves the force balance without Hd: 0 = x1²/(2k) − m g
    with pytest.raises(ModelError, match=r"reads 0 = "):
        control.solve_matching(plant, sp.zeros(3, 3), RD)
    with pytest.raises(ModelError, match="not integrable"):
        control.solve_matching(plant, sp.Matrix([[0, 1, 1], [-1, 0, 1], [-1, -1, 0]]), RD)
    wrong = textbook_Hd(DESIGN["alpha"], DESIGN["b"]) + x1 * x3
    with pytest.raises(ModelError, match="does not solve the matching equations"):
        control.ida_pbc(plant, JD, RD, XSTAR, Hd=wrong, parameters=DESIGN)
    # with check=False the design is returned and reports its residual: an extra x3² in Hd
    # breaks the row d(x2)/dt by −2·0.1·x3 (whatever sign convention g⊥ uses, |.| = 0.2|x3|)
    loose = control.ida_pbc(plant, JD, RD, XSTAR, Hd=textbook_Hd(3.0, 2.0) + x3**2 / 10,
                            parameters=DESIGN, check=False)
    x = np.array([4.0, 0.2, 0.7])
    assert np.sort(np.abs(loose.residual(x))) == pytest.approx([0.0, 0.2 * 0.7], abs=1e-12)
    with pytest.raises(ModelError, match="not a strict minimum"):
        control.ida_pbc(plant, JD, RD, XSTAR, Hd=textbook_Hd(3.0, -1.0), parameters=DESIGN)
