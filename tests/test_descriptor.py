"""Descriptor PHS: constraints with multipliers, invertible E, reduction to explicit form."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from porthamiltonian import NoExplicitFormError, StructureError
from porthamiltonian.descriptor import DescriptorPHS


def test_rigidly_coupled_masses_reduce_to_one_mass():
    """Two masses forced to move together: (m1 + m2) v' = F − (c1 + c2) v (by hand)."""
    m1, m2, c1, c2 = sp.symbols("m1 m2 c1 c2", positive=True)
    p1, p2, F = sp.symbols("p1 p2 F", real=True)
    d = DescriptorPHS(R=sp.diag(c1, c2), G=[[1], [0]], B=[[1], [-1]],
                      hamiltonian=p1**2 / (2 * m1) + p2**2 / (2 * m2),
                      states=["p1", "p2"], inputs=["F"])
    sys = d.to_phs()
    assert sys.states == ("p2",)
    assert "eliminated state(s) p1" in d.reduction
    v = p2 / m2
    expected_vdot = (F - (c1 + c2) * v) / (m1 + m2)
    assert sp.simplify(sys.rhs_expr()[0] / m2 - expected_vdot) == 0
    # total kinetic energy (m1 + m2) v²/2
    assert sp.simplify(sys.hamiltonian - (m1 + m2) * v**2 / 2) == 0


def test_numeric_reduction_agrees_and_satisfies_the_dae():
    rng = np.random.default_rng(4)
    n = 4
    A = rng.normal(size=(n, n))
    L = rng.normal(size=(n, n))
    Q = np.diag([1.0, 2.0, 0.5, 3.0])
    B = np.array([[1.0], [-1.0], [0.0], [0.5]])
    d = DescriptorPHS(J=A - A.T, R=L @ L.T * 0.1, G=rng.normal(size=(n, 1)), B=B, Q=Q)
    red = d.to_phs()
    assert red.n_states == 3
    # lift a reduced state to the full state and check the DAE residual is zero
    keep = [d.states.index(s) for s in red.states]
    xi = rng.normal(size=3)
    u = np.array([0.4])
    el = [i for i in range(n) if i not in keep]
    C = B.T @ Q
    x = np.zeros(n)
    x[keep] = xi
    x[el] = -np.linalg.solve(C[:, el], C[:, keep] @ xi)
    xidot = red.rhs(xi, u)
    xdot = np.zeros(n)
    xdot[keep] = xidot
    xdot[el] = -np.linalg.solve(C[:, el], C[:, keep] @ xidot)
    # multiplier from the dynamic equations (least squares on the B direction)
    r0 = d.residual(x, xdot, [0.0], u)[:n]
    lam = np.linalg.lstsq(B, r0, rcond=None)[0]
    np.testing.assert_allclose(d.residual(x, xdot, lam, u), 0.0, atol=1e-10)
    # energy: same value in both coordinates
    assert red.energy(xi) == pytest.approx(d.energy(x), rel=1e-12)


def test_invertible_E_gives_the_explicit_form():
    E = np.array([[2.0, 0.0], [1.0, 1.0]])
    Q = np.array([[0.5, -0.5], [0.0, 1.0]])  # EᵀQ = [[1, 0], [0, 1]] symmetric
    d = DescriptorPHS(E=E, J=[[0.0, 1.0], [-1.0, 0.0]], G=[[1.0], [0.0]], Q=Q)
    sys = d.to_phs()
    x, u = np.array([0.3, -0.7]), np.array([1.1])
    xdot = sys.rhs(x, u)
    np.testing.assert_allclose(d.residual(x, xdot, None, u), 0.0, atol=1e-14)
    np.testing.assert_allclose(sys.Q, E.T @ Q)


def test_singular_E_and_bad_energy_are_refused():
    d = DescriptorPHS(E=np.diag([1.0, 0.0]), J=[[0.0, 1.0], [-1.0, 0.0]], Q=np.eye(2),
                      states=["a", "b"])
    with pytest.raises(NoExplicitFormError, match="algebraic rows at b"):
        d.to_phs()
    with pytest.raises(StructureError, match="EᵀQ is not symmetric"):
        DescriptorPHS(E=[[1.0, 1.0], [0.0, 1.0]], Q=np.eye(2), J=np.zeros((2, 2)))


def test_redundant_constraints_are_reported():
    d = DescriptorPHS(J=np.zeros((2, 2)), Q=np.eye(2), B=[[1.0, 2.0], [-1.0, -2.0]])
    with pytest.raises(NoExplicitFormError, match="redundant"):
        d.to_phs()


def test_to_phs_with_E_and_constraints_is_repeatable_and_consistent():
    """E ≠ I with constraints: the reduced model satisfies the DAE, and a second call
    gives the same model (the descriptor system is not modified by the reduction)."""
    E = np.array([[2.0, 0.0], [0.0, 1.0]])
    Q = np.diag([0.5, 1.0])
    d = DescriptorPHS(E=E, J=np.zeros((2, 2)), R=np.diag([0.1, 0.2]), G=[[1.0], [0.0]],
                      B=[[1.0], [-1.0]], Q=Q, states=["a", "b"])
    first, second = d.to_phs(), d.to_phs()
    np.testing.assert_allclose(first.Q, second.Q)
    np.testing.assert_allclose(first.R, second.R)
    np.testing.assert_allclose(d.B, [[1.0], [-1.0]])
    # the constraint Bᵀz = 0 with z = Qx: x_a/2 = x_b; lift the kept state and check the DAE
    kept = first.states[0]
    xi, u = np.array([0.7]), np.array([0.3])
    x = np.array([xi[0], xi[0] / 2]) if kept == "a" else np.array([2 * xi[0], xi[0]])
    xidot = first.rhs(xi, u)
    xdot = np.array([xidot[0], xidot[0] / 2]) if kept == "a" else np.array([2 * xidot[0],
                                                                            xidot[0]])
    r0 = d.residual(x, xdot, [0.0], u)[:2]
    lam = np.linalg.lstsq(np.array([[1.0], [-1.0]]), r0, rcond=None)[0]
    np.testing.assert_allclose(d.residual(x, xdot, lam, u), 0.0, atol=1e-12)


def test_state_dependent_constraint_matrix():
    """B(x) = [0, 0, qx, qy]ᵀ (a rod along q): the constraint Bᵀz = q·p/m is evaluated at
    each state, the residual contains the force λ q, and no explicit form is claimed."""
    qx, qy, px, py = sp.symbols("qx qy px py", real=True)
    m = 2.0
    J = sp.Matrix([[0, 0, 1, 0], [0, 0, 0, 1], [-1, 0, 0, 0], [0, -1, 0, 0]])
    d = DescriptorPHS(J=J, B=sp.Matrix([0, 0, qx, qy]), hamiltonian=(px**2 + py**2) / (2 * m),
                      states=["qx", "qy", "px", "py"])
    x = np.array([0.6, -0.8, 0.4, 0.5])
    assert d.constraint(x)[0] == pytest.approx((0.6 * 0.4 - 0.8 * 0.5) / m, rel=1e-15)
    r = d.residual(x, [0.2, 0.25, 0.0, 0.0], [1.5])
    np.testing.assert_allclose(r[:4], [0.0, 0.0, -1.5 * 0.6, 1.5 * 0.8], atol=1e-15)
    with pytest.raises(NoExplicitFormError, match="depends on the state"):
        d.to_phs()
