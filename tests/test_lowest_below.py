"""``structure.lowest_below``: the factorization shortcut of the positive-semidefinite
checks decides as the eigenvalues do."""

from __future__ import annotations

import numpy as np

from porthamiltonian.structure import lowest_below


def test_semidefinite_matrices_pass_and_a_negative_direction_is_returned():
    """W = V diag(λ) Vᵀ with a random orthogonal V: λ ≥ 0 (rank-deficient too) gives
    None; λ_min = −10⁻⁶ gives that eigenvalue and ±its eigenvector."""
    rng = np.random.default_rng(7)
    V, _ = np.linalg.qr(rng.standard_normal((40, 40)))
    lam = np.concatenate([np.zeros(10), rng.uniform(0.1, 5.0, 30)])
    floor = 1e-12 * 40 * 5.0
    assert lowest_below(V @ np.diag(lam) @ V.T, floor) is None
    lam[3] = -1e-6
    found = lowest_below(V @ np.diag(lam) @ V.T, floor)
    assert found is not None
    assert abs(found[0] + 1e-6) < 1e-12
    assert abs(abs(found[1] @ V[:, 3]) - 1.0) < 1e-6
    # below the floor's magnitude a negative eigenvalue is round-off: not reported
    lam[3] = -floor / 10
    assert lowest_below(V @ np.diag(lam) @ V.T, floor) is None
