"""Properties of the SE(3)/SE(2) toolkit: group laws, exp/log inverses (also near the
identity and near the angle π), Ad a homomorphism, ad = d/dt Ad, dual pairings."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.linalg import expm, logm

from porthamiltonian import ModelError
from porthamiltonian.mechanics import lie

seeds = st.integers(0, 2**32 - 1)
scales = st.sampled_from([1e-12, 1e-7, 1e-3, 0.3, 1.0, 2.5])


def twist(seed: int, scale: float) -> np.ndarray:
    rng = np.random.default_rng(seed)
    T = rng.normal(size=6)
    T[:3] *= scale / np.linalg.norm(T[:3])  # |ω| = scale < π
    return T


@settings(max_examples=30, deadline=None)
@given(seeds, scales)
def test_exp_matches_matrix_exponential_and_log_inverts(seed, scale):
    T = twist(seed, scale)
    H = lie.exp_se3(T)
    np.testing.assert_allclose(H, expm(lie.twist_hat(T)), atol=1e-14 * np.abs(T).max() + 1e-15,
                               rtol=0)
    np.testing.assert_allclose(lie.log_se3(H), T, atol=1e-13 * max(1.0, np.abs(T).max()),
                               rtol=1e-12)
    R = H[:3, :3]
    np.testing.assert_allclose(R.T @ R, np.eye(3), atol=1e-14)


def test_log_near_pi_and_exactly_pi():
    rng = np.random.default_rng(3)
    for eps in [0.0, 1e-12, 1e-8, 1e-4]:
        n = rng.normal(size=3)
        n /= np.linalg.norm(n)
        w = (np.pi - eps) * n
        w2 = lie.log_so3(lie.exp_so3(w))
        # at exactly π, −w is the same rotation
        assert min(np.abs(w2 - w).max(), np.abs(w2 + w).max()) < 1e-10
        np.testing.assert_allclose(lie.exp_so3(w2), lie.exp_so3(w), atol=1e-14)


def test_log_small_angle_relative_accuracy():
    # scipy's logm loses relative accuracy at 1e-10 rad; the series does not
    w = np.array([3e-11, -1e-11, 2e-11])
    np.testing.assert_allclose(lie.log_so3(lie.exp_so3(w)), w, rtol=1e-12)
    T = np.array([1e-9, 0, 0, 1.0, 2.0, 3.0])
    np.testing.assert_allclose(lie.log_se3(lie.exp_se3(T)), T, rtol=1e-12)
    assert np.allclose(np.real(logm(lie.exp_so3([0.3, 0.1, 0.2]))),
                       lie.hat([0.3, 0.1, 0.2]))


@settings(max_examples=25, deadline=None)
@given(seeds, seeds)
def test_Ad_is_a_homomorphism_and_conjugation(s1, s2):
    H1, H2 = lie.exp_se3(twist(s1, 1.3)), lie.exp_se3(twist(s2, 2.0))
    np.testing.assert_allclose(lie.Ad(H1 @ H2), lie.Ad(H1) @ lie.Ad(H2), atol=1e-12)
    np.testing.assert_allclose(lie.Ad(lie.inverse(H1)), np.linalg.inv(lie.Ad(H1)), atol=1e-12)
    T = twist(s2 + 1, 0.7)
    np.testing.assert_allclose(lie.twist_hat(lie.Ad(H1) @ T),
                               H1 @ lie.twist_hat(T) @ np.linalg.inv(H1), atol=1e-12)


@settings(max_examples=25, deadline=None)
@given(seeds)
def test_ad_is_derivative_of_Ad_and_the_bracket(seed):
    X, Y = twist(seed, 0.8), twist(seed + 1, 1.1)
    h = 1e-6
    dAd = (lie.Ad(lie.exp_se3(h * X)) - lie.Ad(lie.exp_se3(-h * X))) / (2 * h)
    np.testing.assert_allclose(dAd, lie.ad(X), atol=1e-8)
    Xh, Yh = lie.twist_hat(X), lie.twist_hat(Y)
    np.testing.assert_allclose(lie.twist_hat(lie.ad(X) @ Y), Xh @ Yh - Yh @ Xh, atol=1e-13)


@settings(max_examples=25, deadline=None)
@given(seeds)
def test_pairing_invariance(seed):
    rng = np.random.default_rng(seed)
    H, T, W = lie.exp_se3(twist(seed, 2.0)), rng.normal(size=6), rng.normal(size=6)
    assert np.isclose(W @ (lie.Ad(H) @ T), (lie.Ad_star(H) @ W) @ T, rtol=1e-12, atol=1e-12)
    X = twist(seed + 2, 1.0)
    assert np.isclose(W @ (lie.ad(X) @ T), (lie.ad_star(X) @ W) @ T, rtol=1e-12, atol=1e-12)
    # power is frame-independent: a wrench and a twist moved together keep ⟨W, T⟩
    Ts, Ws = lie.Ad(H) @ T, np.linalg.solve(lie.Ad_star(H), W)
    assert np.isclose(Ws @ Ts, W @ T, rtol=1e-12)


@settings(max_examples=25, deadline=None)
@given(seeds, st.sampled_from([1e-12, 1e-6, 0.5, 3.0]))
def test_se2_exp_log_Ad_ad(seed, w):
    rng = np.random.default_rng(seed)
    T = np.array([w, *rng.normal(size=2)])
    H = lie.exp_se2(T)
    Th = np.zeros((3, 3))
    Th[:2, :2] = [[0, -w], [w, 0]]
    Th[:2, 2] = T[1:]
    np.testing.assert_allclose(H, expm(Th), atol=1e-14)
    np.testing.assert_allclose(lie.log_se2(H), T, atol=1e-13)
    H2 = lie.exp_se2(rng.normal(size=3))
    np.testing.assert_allclose(lie.Ad_se2(H @ H2), lie.Ad_se2(H) @ lie.Ad_se2(H2), atol=1e-12)
    Y = rng.normal(size=3)
    Yh = np.zeros((3, 3))
    Yh[:2, :2] = [[0, -Y[0]], [Y[0], 0]]
    Yh[:2, 2] = Y[1:]
    br = Th @ Yh - Yh @ Th
    np.testing.assert_allclose(lie.ad_se2(T) @ Y, [br[1, 0], br[0, 2], br[1, 2]], atol=1e-13)
    np.testing.assert_allclose(lie.Ad_se2(H) @ Y, [0, 0, 0] + np.array(
        [Y[0], *(H[:2, :2] @ Y[1:] - Y[0] * np.array([[0, -1], [1, 0]]) @ H[:2, 2])]),
        atol=1e-13)


def test_bad_input_is_named():
    with pytest.raises(ModelError, match="twist"):
        lie.exp_se3([1, 2, 3])
    with pytest.raises(ModelError, match="rotation"):
        lie.log_so3(2 * np.eye(3))


def test_rotation_angle_and_frame_gap_are_the_exponential_coordinates():
    """The angle of exp(w̃) is |w| (also for 1e-9 and π − 1e-9, vectorized), and the gap
    between two frames is that angle and the distance of their origins."""
    rng = np.random.default_rng(3)
    axes = rng.standard_normal((5, 3))
    axes /= np.linalg.norm(axes, axis=1)[:, None]
    angles = np.array([1e-9, 0.3, 1.7, 3.0, np.pi - 1e-9])
    R = np.array([lie.exp_so3(t * a) for t, a in zip(angles, axes, strict=True)])
    np.testing.assert_allclose(lie.rotation_angle(R), angles, rtol=1e-12, atol=1e-15)
    A = np.array([lie.homogeneous(r, rng.standard_normal(3)) for r in R])
    d = rng.standard_normal((5, 3))
    B = A @ np.array([lie.homogeneous(lie.exp_so3(0.2 * a), v)   # moved in A's frame
                      for a, v in zip(axes, d, strict=True)])
    gap = lie.frame_gap(A, B)
    np.testing.assert_allclose(gap[:, 0], 0.2, rtol=1e-12)
    np.testing.assert_allclose(gap[:, 1], np.linalg.norm(d, axis=1), rtol=1e-12)
