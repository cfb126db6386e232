"""Quadrature, Lagrange bases and the pairing matrices: exactness facts of the FEM."""

import numpy as np
import pytest

from porthamiltonian import ModelError
from porthamiltonian.distributed import make_mesh, string
from porthamiltonian.distributed.quadrature import gauss, gauss_lobatto, lagrange
from porthamiltonian.distributed.spaces import (
    H1Space,
    L2Space,
    derivative_matrix,
    value_matrix,
)


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_gauss_exact_to_degree_2n_minus_1(n):
    x, w = gauss(n)
    for j in range(2 * n):
        assert w @ x**j == pytest.approx(1 / (j + 1), rel=1e-13)
    assert abs(w @ x ** (2 * n) - 1 / (2 * n + 1)) > 1e-6  # and no further


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_gauss_lobatto_exact_to_degree_2n_minus_3(n):
    x, w = gauss_lobatto(n)
    assert x[0] == 0.0 and x[-1] == 1.0
    for j in range(2 * n - 2):
        assert w @ x**j == pytest.approx(1 / (j + 1), rel=1e-13)
    assert abs(w @ x ** (2 * n - 2) - 1 / (2 * n - 1)) > 1e-6


def test_lagrange_values_and_derivatives_match_the_interpolating_polynomial():
    nodes, _ = gauss_lobatto(5)
    pts = np.linspace(0, 1, 7)
    V, dV = lagrange(nodes, pts)
    assert np.allclose(lagrange(nodes, nodes)[0], np.eye(5))
    f = np.array([0.3, -1.0, 2.0, 0.5, 1.5])  # nodal values of a quartic
    coef = np.polyfit(nodes, f, 4)
    assert np.allclose(V @ f, np.polyval(coef, pts), atol=1e-12)
    assert np.allclose(dV @ f, np.polyval(np.polyder(coef), pts), atol=1e-10)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_pairing_matrices_integrate_polynomials_exactly(k):
    mesh = make_mesh(2.0, [0.0, 0.3, 1.1, 2.0])  # non-uniform
    h1, l2 = H1Space(mesh, k), L2Space(mesh, k)
    D, C = derivative_matrix(h1, l2), value_matrix(h1, l2)
    f = np.polynomial.Polynomial([0.2, -1.0, 0.7, 0.4][: k + 1])
    # ψ_i are Lagrange functions on the Gauss points with the Gauss weights:
    # ∫ψ_i g = w_i g(s_i) for g of degree ≤ k, hence these identities
    assert np.allclose(D @ f(h1.coords), l2.weights * f.deriv()(l2.coords), atol=1e-13)
    assert np.allclose(C @ f(h1.coords), l2.weights * f(l2.coords), atol=1e-13)
    assert h1.weights.sum() == pytest.approx(2.0) and l2.weights.sum() == pytest.approx(2.0)


def test_field_evaluation_reproduces_polynomials():
    mesh = make_mesh(1.0, 3)
    h1, l2 = H1Space(mesh, 3), L2Space(mesh, 3)
    s = np.linspace(0, 1, 11)
    assert np.allclose(h1.evaluate(h1.coords**3, s), s**3)
    assert np.allclose(l2.evaluate(l2.coords**2, s), s**2)
    with pytest.raises(ModelError, match=r"\[0, 1\]"):
        h1.evaluate(h1.coords, [1.5])


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"rho": -1.0}, "rho"),
        ({"tension": lambda s: 1.0 - 2 * s}, r"tension.*must be positive"),
        ({"rho": "heavy"}, "rho"),
        ({"elements": 0}, "elements"),
        ({"elements": [0.0, 0.6, 0.5, 1.0]}, "increasing"),
        ({"degree": 0}, "degree"),
        ({"left": "glued"}, r"left='glued'.*'clamped'"),
        ({"right": ("free", "free")}, "one per field"),
        ({"structural_damping": -0.1}, "structural_damping"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, match):
    args = {"rho": 1.0, "tension": 1.0, **kwargs}
    rho, tension = args.pop("rho"), args.pop("tension")
    with pytest.raises(ModelError, match=match):
        string(1.0, rho, tension, **args)


def test_bad_length_and_mode_count():
    with pytest.raises(ModelError, match="length"):
        string(-1.0, 1.0, 1.0)
    with pytest.raises(ModelError, match="only"):
        string(1.0, 1.0, 1.0, elements=2).frequencies(10)
    with pytest.raises(ModelError, match="no field 'T'"):
        m = string(1.0, 1.0, 1.0, elements=2)
        m.field("T", np.zeros(m.system.n_states), 0.5)
