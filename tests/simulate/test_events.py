"""State events: zero crossings located at closed-form times."""

from __future__ import annotations

import numpy as np
import pytest
from sim_systems import oscillator

from porthamiltonian import ModelError
from porthamiltonian.simulate import simulate


def _q(t, x):
    return x[0]


@pytest.mark.parametrize(("method", "dt", "tol"), [("gauss3", 0.1, 1e-6), ("RK45", None, 1e-6)])
def test_harmonic_oscillator_crossings_at_pi_over_2_plus_k_pi(method, dt, tol):
    # q = cos t (k = m = 1): q = 0 at t = π/2 + kπ
    res = simulate(oscillator(), (0.0, 10.0), [1.0, 0.0], method=method, dt=dt, events=[_q],
                   rtol=1e-10, atol=1e-12)
    exact = np.pi / 2 + np.pi * np.arange(4)
    assert res.t_events[0].size == 3  # π/2, 3π/2, 5π/2 (7π/2 > 10 s)
    np.testing.assert_allclose(res.t_events[0], exact[: res.t_events[0].size], atol=tol)
    np.testing.assert_allclose(res.x_events[0][:, 0], 0.0, atol=tol)
    np.testing.assert_allclose(np.abs(res.x_events[0][:, 1]), 1.0, atol=tol)  # |p| = 1 there


def test_midpoint_crossings_follow_its_discrete_frequency():
    # the midpoint solution of q̈ = −q is exactly q_k = cos(ω_h t_k), ω_h = (2/h) atan(h/2)
    # (a Cayley rotation by 2 atan(h/2) per step); the located crossings are those of
    # cos(ω_h t) up to the O(h⁴) Hermite interpolation error
    h = 5e-3
    res = simulate(oscillator(), (0.0, 10.0), [1.0, 0.0], dt=h, events=_q)
    w_h = 2.0 / h * np.arctan(h / 2.0)
    exact = (np.pi / 2 + np.pi * np.arange(3)) / w_h
    np.testing.assert_allclose(res.t_events[0], exact, atol=1e-10)
    assert np.max(np.abs(res.t_events[0] - exact)) < 1e-3 * abs(exact[0] * w_h - exact[0])


def test_terminal_event_with_direction_ends_on_a_true_step():
    def rising(t, x):
        return x[0]

    rising.terminal, rising.direction = True, 1
    res = simulate(oscillator(k=1.0, c=0.2), (0.0, 20.0), [1.0, 0.0], method="gauss2", dt=0.05,
                   events=rising)
    # q̈ + 0.2 q̇ + q = 0, q(0) = 1: q = e^{−0.1t}(cos ωt + 0.1/ω sin ωt), ω = √0.99;
    # zeros where tan ωt = −ω/0.1: ωt = π − atan(10ω) (downward), 2π − atan(10ω) (upward)
    w = np.sqrt(0.99)
    t_up = (2 * np.pi - np.arctan(w / 0.1)) / w
    assert res.t_events[0].size == 1
    assert res.t_events[0][0] == pytest.approx(t_up, abs=1e-7)
    assert res.t[-1] == res.t_events[0][0] and res.message == "a terminal event occurred"
    assert abs(res.x[-1, 0]) <= 1e-7 and res.x[-1, 1] > 0
    # the last step is a genuine step: its power balance is exact
    scale = np.max(np.abs(res.dissipated)) * 0.05
    assert np.max(np.abs(res.power_residual)) <= 1e-12 * scale


def test_bad_event_is_refused():
    with pytest.raises(ModelError, match="events\\[0\\]"):
        simulate(oscillator(), (0.0, 1.0), [1.0, 0.0], dt=0.1, events=[3.0])
