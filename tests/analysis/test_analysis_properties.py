"""Properties every linear PHS has, on random systems (Hypothesis)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from porthamiltonian import analysis as an
from strategies import random_phs


@settings(max_examples=40, deadline=None)
@given(random_phs(), st.floats(0.01, 100.0))
def test_frequency_domain_power_balance(sys, omega):
    r"""Averaged over a period of a sinusoidal steady state, Ḣ = 0, so the supplied power
    equals the dissipated one: G + Gᴴ = 2 [QX; I]ᴴ W [QX; I] with X = (jωI − A)⁻¹B."""
    lin = an.linear_system(sys)
    s = 1j * omega
    A = lin.dense_A()
    if np.min(np.abs(np.linalg.eigvals(A) - s)) < 1e-6:
        return  # (almost) at an undamped pole: G(jω) is not finite
    G = an.transfer_function(sys)(s)
    X = np.linalg.solve(s * np.eye(sys.n_states) - A, lin.B)
    Z = np.vstack([sys.Q @ X, np.eye(sys.n_inputs)])
    rhs = 2 * Z.conj().T @ sys.dissipation_matrix() @ Z
    scale = max(1.0, np.abs(G).max(), np.abs(rhs).max())
    np.testing.assert_allclose(G + G.conj().T, rhs, atol=1e-9 * scale)


@settings(max_examples=25, deadline=None)
@given(random_phs())
def test_every_random_phs_is_positive_real(sys):
    cert = an.passivity(sys)
    assert cert.passive and cert.method == "structure"
    rep = an.passivity(sys, method="frequency")
    assert rep.passive, rep.reason
    # the poles of A = (J − R)Q lie in the closed left half-plane (Q ≻ 0)
    assert an.poles(sys).real.max() <= 1e-9 * max(1.0, np.abs(an.poles(sys)).max())


@settings(max_examples=25, deadline=None)
@given(random_phs(feedthrough=False))
def test_negated_lossy_phs_fails_where_its_power_flows_out(sys):
    """−G of a lossy PHS delivers power: the test must fail, at a frequency where an
    eigenvalue of −(G + Gᴴ) is indeed negative (checked here independently)."""
    lin = an.linear_system(sys)
    G = an.transfer_function(sys)
    omega = np.logspace(-2, 2, 200)
    Phi = G.frequency_response(omega)
    Phi = Phi + np.conj(np.swapaxes(Phi, 1, 2))
    if np.linalg.eigvalsh(Phi)[:, -1].max() < 1e-6 * max(1.0, np.abs(Phi).max()):
        return  # (near-)lossless: −G is passive too
    rep = an.passivity((lin.A, lin.B, -lin.C, -lin.D))
    assert not rep.passive
    if rep.frequency is not None and np.isfinite(rep.frequency):
        Gw = -G(1j * rep.frequency)
        lam_min = np.linalg.eigvalsh(Gw + Gw.conj().T)[0]
        assert lam_min < 0
        assert lam_min == pytest.approx(rep.min_eigenvalue, rel=1e-8, abs=1e-12)
