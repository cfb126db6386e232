"""The residual path of the numeric assembly (``B(x)λ`` and ``B(x)ᵀw`` through the
constant feature maps, mechanics.assembly._FeatureMap) against the per-row wrench
columns ``B(x)``, and the simplified-Newton midpoint step of a mechanism against full
Newton: same trajectory, energy and joint constraints."""

import numpy as np
import pytest
from mechanics_models import four_bar, serial_chain, two_joints

from porthamiltonian.mechanics.assembly import MechanismDAE
from porthamiltonian.mechanics.joints import KINDS


def dense(A):
    return A.toarray() if hasattr(A, "toarray") else np.asarray(A, dtype=float)




@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("sparse", [False, True])
def test_constraint_forces_and_rates_equal_the_wrench_columns(kind, sparse):
    """At raw states off the rotation manifold: f(x, w, λ) − f(x, w, 0) = B(x)λ and
    c(x, w) = B(x)ᵀw with B(x) built row by row from the joint-end wrenches
    D_i(X)ᵀY + D_i(Y)ᵀX, to 1e-12; and the kept rows' g = X·Y from the same maps."""
    num = MechanismDAE(two_joints(kind), sparse=sparse)
    rng = np.random.default_rng(7)
    for _ in range(3):
        x, w, lam = rng.normal(size=num.n), rng.normal(size=num.n), rng.normal(size=num.k)
        u = np.zeros(num.m)
        B = dense(num.B(x))
        np.testing.assert_allclose(num.f(x, w, lam, u) - num.f(x, w, 0 * lam, u), B @ lam,
                                   atol=1e-12)
        np.testing.assert_allclose(num.c(x, w), B.T @ w, atol=1e-12)
        XY = num._feat.values(num._bodies(x))
        np.testing.assert_allclose(np.sum(XY[0] * XY[1], axis=1),
                                   num.position_residual(x)[num.rows], atol=1e-12)


def test_closed_chain_dense_and_sparse_maps_agree():
    """The four-bar (a chord joint, a redundant row dropped) in both storage modes."""
    mech = four_bar()
    a, b = MechanismDAE(mech, sparse=False), MechanismDAE(mech, sparse=True)
    rng = np.random.default_rng(1)
    x, w, lam = rng.normal(size=a.n), rng.normal(size=a.n), rng.normal(size=a.k)
    np.testing.assert_allclose(a.f(x, w, lam, np.zeros(0)), b.f(x, w, lam, np.zeros(0)),
                               atol=1e-13)
    np.testing.assert_allclose(a.c(x, w), b.c(x, w), atol=1e-13)
    np.testing.assert_allclose(a.c(x, w), dense(a.B(x)).T @ w, atol=1e-12)


@pytest.mark.parametrize("build, q0", [(lambda: serial_chain(6), {"j0": 0.4, "j3": -0.3}),
                                       (four_bar, {"O": 0.5})])
def test_simplified_newton_gives_the_full_newton_trajectory(build, q0):
    """The midpoint step's equations are the same; only the Newton iteration differs, so
    both runs agree to round-off, conserve energy and keep the joints closed."""
    runs = [build().simulate(0.3, dt=2e-3, q0=q0, simplified_newton=s) for s in (False, True)]
    full, simple = runs
    np.testing.assert_allclose(simple.raw.x, full.raw.x, atol=1e-12)
    scale = np.abs(full.H).max()
    for r in runs:
        assert np.ptp(r.H) <= 1e-12 * scale
        assert np.abs(r.power_residual).max() <= 1e-12 * scale
        assert r.raw.constraint_residual.max() <= 1e-12
        assert r.constraint_residual().max() <= 1e-9
