"""Poles, invariant zeros and modes against closed-form roots and vibration theory."""

from __future__ import annotations

import numpy as np
import pytest
from an_systems import series_rlc, sparse_chain, two_mass

from porthamiltonian import PHS, ModelError
from porthamiltonian import analysis as an


def _sorted(z):
    z = np.asarray(z, dtype=complex)
    return z[np.lexsort((z.imag, z.real))]


def test_rlc_poles_are_the_roots_of_lcs2_rcs_1():
    R, L, C = 10.0, 0.1, 1e-3
    disc = np.sqrt(complex(R**2 - 4 * L / C))
    expected = _sorted([(-R + disc) / (2 * L), (-R - disc) / (2 * L)])
    np.testing.assert_allclose(an.poles(series_rlc(R, L, C)), expected, rtol=1e-12)


def test_two_mass_poles_are_the_roots_of_det_of_ms2_cs_k():
    m1, m2, k1, k2, c1, c2 = 1.0, 0.5, 100.0, 40.0, 0.8, 0.3
    a = np.polymul([m1, c1 + c2, k1 + k2], [m2, c2, k2])
    char = np.polysub(a, np.polymul([c2, k2], [c2, k2]))
    np.testing.assert_allclose(an.poles(two_mass(m1, m2, k1, k2, c1, c2)),
                               _sorted(np.roots(char)), rtol=1e-10)


def test_driving_point_zeros_are_the_antiresonance_of_the_second_mass():
    # v1/F1 = s (m2 s² + c2 s + k2) / det(M s² + C s + K): zeros at 0 and the roots of
    # m2 s² + c2 s + k2 (m2 alone on spring k2 with m1 held still)
    m2, k2, c2 = 0.5, 40.0, 0.3
    z = an.zeros(two_mass(m2=m2, k2=k2, c2=c2), "F1", "v1")
    expected = _sorted(np.concatenate([[0.0], np.roots([m2, c2, k2])]))
    np.testing.assert_allclose(z, expected, atol=1e-9)
    # the zeros of the full G = Z⁻¹ are the poles of Z(s) = (M s² + C s + K)/s:
    # s = 0 with multiplicity rank K = 2
    z_full = an.zeros(two_mass())
    np.testing.assert_allclose(z_full, [0.0, 0.0], atol=1e-9)


def test_undamped_two_mass_modes_match_vibration_theory():
    m, k = 2.0, 50.0
    modes = an.modes(two_mass(m1=m, m2=m, k1=k, k2=k, c1=0.0, c2=0.0))
    w2 = np.array([(3 - np.sqrt(5)) / 2, (3 + np.sqrt(5)) / 2]) * k / m
    assert [md.natural_frequency for md in modes] == pytest.approx(np.sqrt(w2), rel=1e-12)
    for md, ratio in zip(modes, [(1 + np.sqrt(5)) / 2, (1 - np.sqrt(5)) / 2], strict=True):
        assert md.damping_ratio == pytest.approx(0.0, abs=1e-12)
        assert md.damped_frequency == pytest.approx(md.natural_frequency, rel=1e-12)
        # equal masses: p2/p1 = X2/X1 = 2 − ω² m/k
        assert md.shape["p2"] / md.shape["p1"] == pytest.approx(ratio, rel=1e-10)
        assert max(abs(v) for v in md.shape.values()) == pytest.approx(1.0)


def test_single_mode_damping_ratio_is_c_over_2_sqrt_km():
    k, m, c = 400.0, 1.5, 3.0
    osc = PHS(J=[[0, 1], [-1, 0]], R=[[0, 0], [0, c]], G=[[0], [1]], Q=np.diag([k, 1 / m]),
              states=["q", "p"])
    (md,) = an.modes(osc)
    assert md.natural_frequency == pytest.approx(np.sqrt(k / m), rel=1e-12)
    assert md.damping_ratio == pytest.approx(c / (2 * np.sqrt(k * m)), rel=1e-12)
    assert "ζ" in str(md)


def test_sparse_poles_nearest_a_shift():
    sys = sparse_chain(200)
    dense = np.linalg.eigvals((sys.J - sys.R).toarray() @ sys.Q.toarray())
    near = an.poles(sys, k=4, sigma=1.0j)
    for lam in near:
        assert np.min(np.abs(dense - lam)) < 1e-8 * max(1.0, abs(lam))


def test_zeros_need_a_square_selection():
    with pytest.raises(ModelError, match="as many outputs as inputs"):
        an.zeros(two_mass(), inputs="F1")
    with pytest.raises(ModelError, match="singular"):
        an.zeros(two_mass(), inputs=["F1", "F2"], outputs=["v1", "v1"])
