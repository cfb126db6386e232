"""Step and impulse responses against the closed-form solutions of the RLC circuit."""

from __future__ import annotations

import numpy as np
import pytest
from an_systems import dc_motor, series_rlc, sparse_chain

from porthamiltonian import PHS, ModelError, simulate
from porthamiltonian import analysis as an

R, L, C = 10.0, 0.1, 1e-3
ALPHA = R / (2 * L)                      # 50 1/s
W0 = 1 / np.sqrt(L * C)                  # 100 rad/s
WD = np.sqrt(W0**2 - ALPHA**2)           # underdamped


def test_capacitor_voltage_step_response_is_the_second_order_closed_form():
    res = an.step_response(series_rlc(R, L, C), outputs="dH/dq")
    t = res.t
    expected = 1 - np.exp(-ALPHA * t) * (np.cos(WD * t) + ALPHA / WD * np.sin(WD * t))
    np.testing.assert_allclose(res.y[:, 0, 0], expected, atol=1e-12)
    # default horizon: 7 time constants 1/α of the slowest pole
    assert t[-1] == pytest.approx(7 / ALPHA)


def test_impulse_response_is_the_derivative_of_the_step_response():
    t = np.linspace(0, 0.1, 201)
    res = an.impulse_response(series_rlc(R, L, C), t, outputs="dH/dq")
    expected = W0**2 / WD * np.exp(-ALPHA * t) * np.sin(WD * t)
    np.testing.assert_allclose(res.y[:, 0, 0], expected, atol=1e-9 * W0**2 / WD)
    np.testing.assert_allclose(res.direct, [[0.0]])


def test_step_response_agrees_with_a_structure_preserving_simulation():
    motor = dc_motor()
    res = an.step_response(motor, inputs="V", outputs=["i", "omega"])
    sim = simulate(motor, (0.0, float(res.t[-1])), [0.0, 0.0], u=[1.0, 0.0],
                   method="gauss2", t_eval=res.t)
    assert np.allclose(sim.t, res.t)
    scale = np.abs(res.y).max(axis=0)[:, 0]
    np.testing.assert_allclose(res.y[:, :, 0] / scale, sim.y / scale, atol=1e-6)
    # steady state: ω = k/(R b + k²) per volt
    k, Rm, b = 0.05, 1.2, 1e-4
    assert res.y[-1, 1, 0] == pytest.approx(k / (Rm * b + k**2), rel=1e-3)


def test_sparse_step_response_equals_dense():
    sys = sparse_chain(60)
    dense = PHS(**{k: v.toarray() for k, v in sys.matrices().items()}, Q=sys.Q.toarray(),
                inputs=["F"], outputs=["v"])
    t = np.linspace(0, 2.0, 41)
    np.testing.assert_allclose(an.step_response(sys, t).y, an.step_response(dense, t).y,
                               atol=1e-10)


def test_non_uniform_times_and_bad_times():
    t = np.array([0.0, 0.001, 0.01, 0.05])
    res = an.step_response(series_rlc(R, L, C), t, outputs="dH/dq")
    expected = 1 - np.exp(-ALPHA * t) * (np.cos(WD * t) + ALPHA / WD * np.sin(WD * t))
    np.testing.assert_allclose(res.y[:, 0, 0], expected, atol=1e-12)
    with pytest.raises(ModelError, match="increasing"):
        an.step_response(series_rlc(), [0.0, 0.2, 0.1])


def test_a_very_stiff_sparse_request_is_refused_with_advice():
    with pytest.raises(ModelError, match="too stiff.*shorter t="):
        an.step_response(sparse_chain(60), [0.0, 1e5])
