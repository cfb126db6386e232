"""Canonical and induced Dirac structures on T*Q are Dirac: isotropic and of
dimension 2n (= dim T*Q), checked independently of DiracStructure.is_dirac."""

import numpy as np
import pytest
import sympy
from ld_models import accelerations, rolling_disk

from porthamiltonian import ModelError, lagrange
from porthamiltonian.lagrange.canonical import induced


def _subspace(D):
    """Basis (columns) of {(f, e) : F f + E e = 0} and the pairing ⟨e, f⟩ on it."""
    K = np.hstack([np.asarray(D.F, float), np.asarray(D.E, float)])
    _, s, vt = np.linalg.svd(K)
    r = int(np.sum(s > 1e-10 * s[0]))
    return vt[r:].T


def _assert_dirac(D, dim_pairing_space):
    Z = _subspace(D)
    n = D.n
    assert Z.shape[1] == dim_pairing_space == n  # maximal: dim D = dim T*Q
    f, e = Z[:n], Z[n:]
    # isotropic for the symmetric pairing ⟨(f1,e1),(f2,e2)⟩ = e1ᵀf2 + e2ᵀf1
    G = e.T @ f + f.T @ e
    assert np.abs(G).max() < 1e-12


def test_canonical_is_graph_of_omega_flat():
    D = lagrange.canonical(["x", "y"])
    _assert_dirac(D, 4)
    # w = q̇ and α = −ṗ (i_X Ω with Ω = Σ dq∧dp): check a hand-built element
    qd, pd = np.array([1.0, -2.0]), np.array([0.5, 3.0])
    assert D.contains(np.r_[qd, pd], np.r_[-pd, qd])
    assert not D.contains(np.r_[qd, pd], np.r_[pd, qd])


@pytest.mark.parametrize("seed", range(5))
def test_induced_from_random_configuration_dependent_forms(seed):
    rng = np.random.default_rng(seed)
    n, m = 4, 2
    q = sympy.symbols("q0:4")
    names = [str(s) for s in q]
    coeffs = rng.normal(size=(n, m, 3))
    A = sympy.Matrix(n, m, lambda i, j: coeffs[i, j, 0] + coeffs[i, j, 1] * sympy.sin(q[j])
                     + coeffs[i, j, 2] * q[i] ** 2)
    Bc = rng.normal(size=(n, n))
    B = sympy.Matrix(Bc - Bc.T) * sympy.cos(q[0])
    for _ in range(3):
        pt = dict(zip(q, rng.uniform(-2, 2, size=n), strict=True))
        D = induced(names, A, B, at=pt)
        _assert_dirac(D, 2 * n)
        # the structure encodes q̇ ∈ Δ = ker Aᵀ and w = q̇
        An = np.array(A.xreplace(pt).evalf(), float)
        N = np.linalg.svd(An.T)[2][m:].T
        qd = N @ rng.normal(size=n - m)
        pd = rng.normal(size=n)
        Bn = np.array(B.xreplace(pt).evalf(), float)
        alpha = -pd + Bn @ qd + An @ rng.normal(size=m)
        assert D.contains(np.r_[qd, pd], np.r_[alpha, qd])
        qbad = qd + An[:, 0]
        assert not D.contains(np.r_[qbad, pd], np.r_[alpha, qbad])


def test_symbolic_induced_is_generically_dirac_and_matches_pointwise():
    phi = sympy.Symbol("phi")
    A = sympy.Matrix([[sympy.sin(phi)], [-sympy.cos(phi)], [0]])  # knife edge
    D = induced(["x", "y", "phi"], A)
    assert D.symbolic and D.is_dirac()
    for val in (0.3, 1.2, -2.0):
        assert D.subs({phi: val}).equals(induced(["x", "y", "phi"], A, at={phi: val}))


def test_system_structure_contains_its_solutions():
    """Along a solution, (X, 𝔇L − F) = ((q̇, ṗ), (−∂L/∂q − F, v)) lies in D_Δ."""
    sys = rolling_disk()
    res = sys.simulate(1.0, [0, 0, 0, 0.3], [0.5 * np.cos(0.3), 0.5 * np.sin(0.3), 1.0, 0.7],
                       dt=0.25)
    for k in range(len(res.t)):
        q, v = res.q[k], res.v[k]
        vd = accelerations(sys, q, v)[: sys.n]
        # p = ∂L/∂v is linear here: ṗ = M v̇ with M = diag(m, m, I, J)
        pd = np.array([2.0, 2.0, 0.3, 0.2]) * vd
        D = sys.dirac_structure(at=q)
        assert D.contains(np.r_[v, pd], np.r_[np.zeros(4), v], tol=1e-8)


def test_bad_forms_are_reported():
    x, y = sympy.symbols("x y")
    vx, vy = sympy.symbols("vx vy")
    with pytest.raises(ModelError, match="not linear and homogeneous"):
        lagrange.LagrangeDiracSystem([x, y], vx**2, velocities=[vx, vy],
                                     constraints=[vx * vy])
    with pytest.raises(ModelError, match="zero form"):
        lagrange.LagrangeDiracSystem([x, y], vx**2, velocities=[vx, vy], constraints=[{x: 0}])
    with pytest.raises(ModelError, match="velocities cannot be derived"):
        lagrange.LagrangeDiracSystem([x, y], x**2)
    with pytest.raises(ModelError, match="not one of the coordinates"):
        lagrange.LagrangeDiracSystem([x, y], vx**2, velocities=[vx, vy], forces={"z": 1})


def test_foreign_functions_of_time_are_reported():
    from sympy.physics.mechanics import dynamicsymbols

    x, z = dynamicsymbols("x z")
    t = dynamicsymbols._t
    with pytest.raises(ModelError, match="z.* is not a coordinate"):
        lagrange.LagrangeDiracSystem([x], x.diff(t) ** 2 + z**2, name="s")
    with pytest.raises(ModelError, match="is not a coordinate .x. or its first derivative"):
        lagrange.LagrangeDiracSystem([x], x.diff(t) ** 2, forces={x: x.diff(t, 2)})
