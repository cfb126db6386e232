"""Undamped natural frequencies against closed forms (mass–spring chains, a gyroscope)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sps

import porthamiltonian as ph
from porthamiltonian.analysis import natural_frequencies
from porthamiltonian.errors import ModelError
from porthamiltonian.linear_ph import linear_ph

M, K = 2.0, 50.0


def incidence(n_masses: int, fixed: bool) -> sps.csr_array:
    """``C`` with ``ṗ = C f`` (spring forces on the masses), ``ė = −Cᵀ v``: a chain with a
    spring to the wall at each end (fixed–fixed) or none (free–free)."""
    ns = n_masses + 1 if fixed else n_masses - 1
    off = 0 if fixed else 1  # spring j joins masses j−1+off and j+off
    rows, cols, vals = [], [], []
    for j in range(ns):
        left, right = j - 1 + off, j + off
        if 0 <= left < n_masses:
            rows.append(left), cols.append(j), vals.append(1.0)
        if 0 <= right < n_masses:
            rows.append(right), cols.append(j), vals.append(-1.0)
    return sps.csr_array((vals, (rows, cols)), shape=(n_masses, ns))


def chain_phs(n: int, fixed: bool = True, sparse: bool = False, damping: float = 0.0):
    """Explicit PHS: momenta then spring elongations, ``H = Σp²/2m + Σke²/2``."""
    C = incidence(n, fixed)
    ns = C.shape[1]
    J = sps.block_array([[None, C], [-C.T, None]], format="csr")
    Q = sps.diags_array(np.r_[np.full(n, 1 / M), np.full(ns, K)]).tocsr()
    R = sps.diags_array(np.r_[np.full(n, damping), np.zeros(ns)]).tocsr()
    if not sparse:
        J, Q, R = J.toarray(), Q.toarray(), R.toarray()
    return ph.PHS(J=J, R=R, Q=Q)


def closed_form(n: int, fixed: bool = True) -> np.ndarray:
    """``ω_k = 2√(k/m) sin(kπ/(2(n+1)))`` (fixed–fixed), ``2√(k/m) sin(kπ/(2n))`` (free)."""
    if fixed:
        k = np.arange(1, n + 1)
        return 2 * np.sqrt(K / M) * np.sin(k * np.pi / (2 * (n + 1)))
    k = np.arange(1, n)
    return 2 * np.sqrt(K / M) * np.sin(k * np.pi / (2 * n))


def test_fixed_chain_dense_matches_closed_form() -> None:
    got = natural_frequencies(chain_phs(12), 12)
    np.testing.assert_allclose(got, closed_form(12), rtol=1e-12)


def test_damping_is_ignored() -> None:
    got = natural_frequencies(chain_phs(8, damping=3.0), 4)
    np.testing.assert_allclose(got, closed_form(8)[:4], rtol=1e-12)


def test_free_chain_excludes_the_rigid_mode() -> None:
    got = natural_frequencies(chain_phs(10, fixed=False), 9)
    np.testing.assert_allclose(got, closed_form(10, fixed=False), rtol=1e-12)
    with pytest.raises(ModelError, match="only 9 non-zero"):
        natural_frequencies(chain_phs(10, fixed=False), 10)


def test_large_sparse_chain_matches_closed_form() -> None:
    n = 3000
    got = natural_frequencies(chain_phs(n, sparse=True), 5)
    np.testing.assert_allclose(got, closed_form(n)[:5], rtol=1e-8)


def test_large_free_chain_sparse_excludes_the_rigid_mode() -> None:
    n = 2500
    got = natural_frequencies(chain_phs(n, fixed=False, sparse=True), 3)
    np.testing.assert_allclose(got, closed_form(n, fixed=False)[:3], rtol=1e-8)


def test_sparse_descriptor_with_a_mass_matrix() -> None:
    """Co-energy states ``v = T w`` (T bidiagonal), ``f``: ``TᵀMT ẇ = TᵀC f``,
    ``K⁻¹ ḟ = −CᵀT w``; ``E`` is SPD and not diagonal, ``Q = I``; same frequencies."""
    n = 3000
    C = incidence(n, True)
    ns = C.shape[1]
    T = sps.diags_array([np.ones(n), 0.5 * np.ones(n - 1)], offsets=[0, 1]).tocsr()
    E = sps.block_array([[T.T @ (M * T), None], [None, sps.eye_array(ns) / K]], format="csr")
    J = sps.block_array([[None, T.T @ C], [-(C.T @ T), None]], format="csr")
    sysd = ph.DescriptorPHS(E=E, J=J, Q=sps.eye_array(n + ns, format="csr"))
    assert sps.issparse(linear_ph(sysd).E)  # never densified
    got = natural_frequencies(sysd, 4)
    np.testing.assert_allclose(got, closed_form(n)[:4], rtol=1e-8)


def test_gyroscopic_triangle_dense() -> None:
    """``ẍ = −k x + ẋ × g`` (m = 1): ω = √k along g, ``(√(|g|²+4k) ± |g|)/2`` across;
    g = (1, 2, 2), k = 4 → 1, 2, 4 rad/s.  J couples the momenta in a triangle."""
    g = np.array([1.0, 2.0, 2.0])
    cross = np.array([[0, -g[2], g[1]], [g[2], 0, -g[0]], [-g[1], g[0], 0]])
    J = np.block([[np.zeros((3, 3)), np.eye(3)], [-np.eye(3), -cross]])
    Q = np.diag([4.0, 4.0, 4.0, 1.0, 1.0, 1.0])
    np.testing.assert_allclose(natural_frequencies(ph.PHS(J=J, Q=Q), 3), [1.0, 2.0, 4.0],
                               rtol=1e-12)


def test_nonlinear_pendulum_is_linearized() -> None:
    """``H = p²/(2 m l²) + m g l (1 − cos θ)`` → ω = √(g/l) at θ = 0."""
    import sympy as sp

    th, p = sp.symbols("theta p")
    m, g, length = 1.5, 9.81, 0.7
    H = p**2 / (2 * m * length**2) + m * g * length * (1 - sp.cos(th))
    pend = ph.PHS(J=[[0, 1], [-1, 0]], hamiltonian=H, states=[th, p])
    np.testing.assert_allclose(natural_frequencies(pend, 1), [np.sqrt(g / length)],
                               rtol=1e-12)


def test_errors() -> None:
    with pytest.raises(ModelError, match="at least 1"):
        natural_frequencies(chain_phs(3), 0)
    ring = 2101  # an odd ring: J has an odd cycle, so no bipartite split
    i = np.arange(ring)
    Jr = sps.coo_array((np.ones(ring), (i, (i + 1) % ring)), shape=(ring, ring)).tocsr()
    with pytest.raises(ModelError, match="not bipartite"):
        natural_frequencies(ph.PHS(J=Jr - Jr.T, Q=sps.eye_array(ring, format="csr")), 2)


def test_large_sparse_ring_excludes_zero_modes() -> None:
    """A ring of N masses and N springs: ``ω_k = 2√(k/m)|sin(kπ/N)|``, each k ≥ 1 twice;
    the rigid translation (masses) and the uniform prestress (springs) are zero modes."""
    N = 1500
    i = np.arange(N)
    C = sps.coo_array((np.r_[np.ones(N), -np.ones(N)], (np.r_[i, (i + 1) % N], np.r_[i, i])),
                      shape=(N, N)).tocsr()
    J = sps.block_array([[None, C], [-C.T, None]], format="csr")
    Q = sps.diags_array(np.r_[np.full(N, 1 / M), np.full(N, K)]).tocsr()
    k = np.array([1, 1, 2, 2, 3])
    np.testing.assert_allclose(natural_frequencies(ph.PHS(J=J, Q=Q), 5),
                               2 * np.sqrt(K / M) * np.sin(k * np.pi / N), rtol=1e-8)
