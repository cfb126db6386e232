"""``SeparablePHS.from_phs``: a symbolic PHS with constant structure and a Hamiltonian
that is a sum of one-state laws, read into the separable form of the compiled sparse
steps.  Facts: the same H, right-hand side and outputs at random states; laws that
differ only in their constants share one compiled law; the compiled AVF run equals the
symbolic model's NumPy AVF run to round-off; what is not separable is refused by name."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from conftest import EXAMPLES
from porthamiltonian import PHS
from porthamiltonian.errors import ModelError
from porthamiltonian.io import load_model
from porthamiltonian.io.build import build_system
from porthamiltonian.simulate import SeparablePHS, simulate


def chain(n: int = 6) -> PHS:
    """n masses (m_i) on hardening springs (k_i q²/2 + β q⁴/4, β a parameter), the last
    damped, the first forced: every spring and every mass has its own constant."""
    q = sp.symbols(f"q0:{n}", real=True)
    p = sp.symbols(f"p0:{n}", real=True)
    beta = sp.Symbol("beta")
    H = sum((1.0 + 0.5 * i) * q[i] ** 2 / 2 + beta * q[i] ** 4 / 4
            + p[i] ** 2 / (2 * (1.0 + 0.1 * i)) for i in range(n))
    D = sp.zeros(n, n)
    for i in range(n):
        D[i, i] = 1
        if i:
            D[i, i - 1] = -1
    J = sp.zeros(2 * n, 2 * n)
    J[:n, n:], J[n:, :n] = D, -D.T
    R = sp.zeros(2 * n, 2 * n)
    R[2 * n - 1, 2 * n - 1] = sp.Rational(1, 10)
    G = sp.zeros(2 * n, 1)
    G[n, 0] = 1
    return PHS(J, R, G, hamiltonian=H, states=[*q, *p], parameters={"beta": 0.5})


def test_the_separable_form_has_the_same_h_rhs_and_outputs_with_one_law_per_form():
    sys = chain()
    sep = SeparablePHS.from_phs(sys)
    # springs c0 x⁴ + c1 x² and masses c0 x²: two compiled laws for twelve states
    assert len(sep.terms) == 2
    assert sep.states == sys.states and sep.inputs == sys.inputs
    a, b = sys.compile(), sep.compile()
    rng = np.random.default_rng(3)
    for _ in range(5):
        x, u = rng.normal(size=12), rng.normal(size=1)
        assert sep.energy(x) == pytest.approx(sys.energy(x), rel=1e-14)
        np.testing.assert_allclose(b.rhs(x, u), a.rhs(x, u), rtol=1e-13, atol=1e-14)
        np.testing.assert_allclose(b.output(x, u), a.output(x, u), rtol=1e-13, atol=1e-14)


def test_the_compiled_run_equals_the_symbolic_models_numpy_run():
    sys = chain()
    x0 = 0.5 * np.random.default_rng(4).normal(size=12)
    ref = simulate(sys, (0.0, 2.0), x0, method="avf", dt=0.01, u=[0.3], engine="numpy")
    res = simulate(SeparablePHS.from_phs(sys), (0.0, 2.0), x0, method="avf", dt=0.01,
                   u=[0.3], engine="compiled")
    assert res.extra["engine_path"] == "separable sparse"
    np.testing.assert_allclose(res.x, ref.x, rtol=0, atol=1e-13)
    np.testing.assert_allclose(res.H, ref.H, rtol=1e-13)


def test_a_model_files_nonlinear_bond_graph_reads_into_the_separable_form():
    model = load_model(EXAMPLES / "models" / "duffing_spring_mass.yaml")
    sys = build_system(model)
    sep = SeparablePHS.from_phs(sys)
    x = np.array([0.7, -0.4])
    u = np.array([0.2])
    np.testing.assert_allclose(sep.compile().rhs(x, u), sys.compile().rhs(x, u), rtol=1e-14)
    assert sep.energy(x) == pytest.approx(4.0 * 0.49 / 2 + 0.5 * 0.7**4 / 4 + 0.16 / 2,
                                          rel=1e-14)


def test_what_is_not_separable_is_refused_by_name():
    q, p = sp.symbols("q p", real=True)
    J = sp.Matrix([[0, 1], [-1, 0]])
    coupled = PHS(J, hamiltonian=q**2 / 2 + p**2 / 2 + q * p / 4, states=[q, p])
    with pytest.raises(ModelError, match=r"couples the states p, q"):
        SeparablePHS.from_phs(coupled)
    moving = PHS(sp.Matrix([[0, q], [-q, 0]]), hamiltonian=q**2 / 2 + p**2 / 2,
                 states=[q, p])
    with pytest.raises(ModelError, match=r"J\[0, 1\] = q depends on the state"):
        SeparablePHS.from_phs(moving)
    k = sp.Symbol("k")
    open_parameter = PHS(J, hamiltonian=k * q**2 / 2 + p**2 / 2, states=[q, p])
    with pytest.raises(ModelError, match="parameters without a value: k"):
        SeparablePHS.from_phs(open_parameter)
    with pytest.raises(ModelError, match="give a symbolic PHS"):
        SeparablePHS.from_phs(open_parameter.with_parameters(k=2.0).numeric())


def test_a_kinked_law_is_read_on_a_real_state():
    # |q|' = sign(q) on a real state (a complex placeholder would leave Derivative(re(x)))
    q, p = sp.symbols("q p", real=True)
    sys = PHS(sp.Matrix([[0, 1], [-1, 0]]), hamiltonian=sp.Abs(q) + p**2 / 2, states=[q, p])
    sep = SeparablePHS.from_phs(sys)
    np.testing.assert_allclose(sep.gradient(np.array([-0.3, 0.2])), [-1.0, 0.2], rtol=1e-15)
    x = sp.Symbol("x")  # a user's law in a plain (complex) symbol gets the same
    direct = SeparablePHS(J=np.array([[0.0, 1.0], [-1.0, 0.0]]),
                          terms=[(sp.Abs(x), [0], {}), (x**2 / 2, [1], {})])
    np.testing.assert_allclose(direct.gradient(np.array([0.4, -0.5])), [1.0, -0.5])
