"""Integrability (Courant closedness) of state-modulated Dirac structures.

Every verdict of the Courant-tensor test is checked against an independent fact: the
Jacobi identity computed from the brackets themselves (skew J), Frobenius' test of the
constraint distribution by Lie brackets (kinematic constraints), or a hand computation.
"""

from __future__ import annotations

import pytest
import sympy as sp

from porthamiltonian.dirac import DiracStructure, is_integrable, jacobi_identity
from porthamiltonian.errors import ModelError

x1, x2, x3 = sp.symbols("x1 x2 x3")


def test_constant_structure_is_integrable():
    J = sp.Matrix([[0, 1, -2], [-1, 0, 3], [2, -3, 0]])
    assert is_integrable(DiracStructure.from_skew(J, ["a", "b", "c"]), [x1, x2, x3])
    assert is_integrable(DiracStructure.from_skew(J.evalf().tolist(), ["a", "b", "c"]),
                         [x1, x2, x3]).integrable
    assert jacobi_identity(J, [x1, x2, x3])


def test_rigid_body_lie_poisson_is_integrable():
    """J(p) = [p]×, the Lie–Poisson structure of so(3)*: {p_i, p_j} = −ε_ijk p_k satisfies
    Jacobi (the Jacobi identity of the cross product)."""
    p = sp.symbols("p1 p2 p3")
    J = sp.Matrix([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])
    res = is_integrable(DiracStructure.from_skew(J, ["w1", "w2", "w3"]), p)
    assert res.integrable and not res.terms
    assert jacobi_identity(J, p).integrable


def test_a_skew_J_that_fails_jacobi():
    """J = [[0, x1, 1], [−x1, 0, 0], [−1, 0, 0]]: by hand, the cyclic sum
    Σ_l (J_1l ∂_l J_23 + J_2l ∂_l J_31 + J_3l ∂_l J_12) = J_31 ∂_1 x1 = −1.  Its image
    span{∂_1, x1 ∂_2 + ∂_3} is not involutive ([∂_1, x1 ∂_2 + ∂_3] = ∂_2)."""
    J = sp.Matrix([[0, x1, 1], [-x1, 0, 0], [-1, 0, 0]])
    jac = jacobi_identity(J, [x1, x2, x3])
    assert not jac.integrable
    assert list(jac.terms.values()) == [-1]
    res = is_integrable(DiracStructure.from_skew(J, ["a", "b", "c"]), [x1, x2, x3])
    assert not res.integrable
    assert len(res.terms) == 1 and abs(list(res.terms.values())[0]) == 1
    assert "not integrable" in str(res) and "s0" in str(res)


def test_the_x3_example_is_poisson_after_all():
    """J = [[0, x3, 0], [−x3, 0, 1], [0, −1, 0]] satisfies Jacobi: the only candidate
    term is J_3l ∂_l J_12 = J_33 = 0 (J_23 and J_31 are constant); its image
    span{∂_2, x3 ∂_1 − ∂_3} is involutive.  Both methods agree."""
    J = sp.Matrix([[0, x3, 0], [-x3, 0, 1], [0, -1, 0]])
    assert jacobi_identity(J, [x1, x2, x3]).integrable
    assert is_integrable(DiracStructure.from_skew(J, ["a", "b", "c"]), [x1, x2, x3])


@pytest.mark.parametrize("seed", [0, 1])
def test_courant_tensor_equals_jacobi_on_random_quadratic_J(seed):
    """For J(x) with random entries quadratic in x the two tests give the same verdict
    and the same value: T on the sections (X_i, α_i) = (−J dx_i, dx_i) of from_skew is
    Σ_l J_kl ∂_l J_ij + cyclic, the Jacobi sum of the brackets."""
    import numpy as np

    rng = np.random.default_rng(seed)
    xs = [x1, x2, x3]
    J = sp.zeros(3, 3)
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        c = rng.integers(-2, 3, size=3)
        J[i, j] = c[0] + c[1] * xs[(i + j) % 3] + c[2] * xs[j] * xs[i]
        J[j, i] = -J[i, j]
    jac = jacobi_identity(J, xs)
    res = is_integrable(DiracStructure.from_skew(J, ["a", "b", "c"]), xs)
    assert jac.integrable == res.integrable
    if not jac.integrable:
        (tj,), (tr,) = jac.terms.values(), res.terms.values()
        assert sp.expand(tj - tr) == 0


def _constrained(q, p, A, N):
    """Kernel form of a mechanical system on canonical (q, p) with constraints
    Aᵀ q̇ = 0 (multiplier eliminated): f_q − e_p = 0, Nᵀ (f_p + e_q) = 0, Aᵀ e_p = 0,
    with the columns of N spanning ker Aᵀ."""
    n, k = len(q), A.shape[1]
    I, Z = sp.eye(n), sp.zeros
    F = sp.Matrix.vstack(sp.Matrix.hstack(I, Z(n, n)), sp.Matrix.hstack(Z(n - k, n), N.T),
                         Z(k, 2 * n))
    E = sp.Matrix.vstack(sp.Matrix.hstack(Z(n, n), -I), sp.Matrix.hstack(N.T, Z(n - k, n)),
                         sp.Matrix.hstack(Z(k, n), A.T))
    return DiracStructure(F, E, [f"q{i}" for i in range(n)] + [f"p{i}" for i in range(n)])


def _involutive(N, q):
    """Frobenius by hand: every Lie bracket of the columns of N lies in their span."""
    cols = [N[:, j] for j in range(N.cols)]
    for a in range(len(cols)):
        for b in range(a + 1, len(cols)):
            br = cols[b].jacobian(q) * cols[a] - cols[a].jacobian(q) * cols[b]
            if N.row_join(br).rank(simplify=True) > N.rank(simplify=True):
                return False
    return True


def test_revolute_joint_in_cartesian_coordinates_is_integrable():
    """A point on a circle (a revolute joint) in (x, y): x ẋ + y ẏ = 0, i.e.
    d(x² + y²)/dt = 0 — holonomic."""
    x, y, px, py = sp.symbols("x y p_x p_y")
    A, N = sp.Matrix([x, y]), sp.Matrix([-y, x])
    D = _constrained([x, y], [px, py], A, N)
    assert D.is_dirac()
    assert _involutive(N, [x, y])
    res = is_integrable(D, [x, y, px, py])
    assert res.integrable, str(res)


def test_knife_edge_is_not_integrable():
    """Knife edge (Chaplygin sleigh) in (x, y, θ): ẋ sin θ − ẏ cos θ = 0 is not holonomic
    ([cos θ ∂x + sin θ ∂y, ∂θ] = sin θ ∂x − cos θ ∂y leaves ker Aᵀ).  By hand, on the
    sections a = (cos θ ∂x + sin θ ∂y; cos θ dp_x + sin θ dp_y), b = (∂θ; dp_θ),
    c = (sin θ ∂p_x − cos θ ∂p_y; 0): only ⟨L_{X_c} α_a, X_b⟩ survives, and
    L_{X_c} α_a = i_{X_c} dα_a = (sin²θ + cos²θ) dθ, so T(a, b, c) = 1."""
    x, y, th = sp.symbols("x y theta")
    ps = sp.symbols("p_x p_y p_theta")
    A = sp.Matrix([sp.sin(th), -sp.cos(th), 0])
    N = sp.Matrix([[sp.cos(th), 0], [sp.sin(th), 0], [0, 1]])
    D = _constrained([x, y, th], list(ps), A, N)
    assert D.is_dirac()
    assert not _involutive(N, [x, y, th])
    res = is_integrable(D, [x, y, th, *ps])
    assert not res.integrable
    assert list(res.terms.values()) == [1]
    assert "sections (X; α)" in str(res)


def test_ports_other_than_storage_ports_are_refused():
    J = sp.Matrix([[0, x3, 0], [-x3, 0, 1], [0, -1, 0]])
    D = DiracStructure.from_skew(J, ["a", "b", "u"])
    with pytest.raises(ModelError, match=r"port\(s\) u besides the storage ports a, b"):
        is_integrable(D, [x1, x2], ports=["a", "b"])
    with pytest.raises(ModelError, match=r"2 state\(s\).*3 storage port"):
        is_integrable(D, [x1, x2])
    with pytest.raises(ModelError, match="not skew-symmetric"):
        jacobi_identity(sp.Matrix([[0, x1], [x1, 0]]), [x1, x2])
