"""Adaptive steps (step doubling): local error within tolerance, exact power balance."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.linalg import expm
from sim_systems import damped_solution, duffing, oscillator

from porthamiltonian.simulate import simulate

K, C = 4.0, 0.4
A = np.array([[0.0, 1.0], [-K, -C]])  # ẋ = A x for x = (q, p), m = 1


@pytest.mark.parametrize(("method", "rtol"), [("midpoint", 1e-6), ("midpoint", 1e-8),
                                              ("gauss2", 1e-9), ("discrete_gradient", 1e-7)])
def test_every_step_meets_the_requested_local_tolerance(method, rtol):
    atol = 1e-3 * rtol
    res = simulate(oscillator(k=K, c=C), (0.0, 5.0), [1.0, 0.0], method=method, rtol=rtol,
                   atol=atol)
    # local error of each step against the exact flow e^{Ah} from the step's start
    h = np.diff(res.t)
    local = np.array([expm(A * hk) @ xk for hk, xk in zip(h, res.x[:-1], strict=True)])
    err = np.abs(res.x[1:] - local)
    tol = atol + rtol * np.maximum(np.abs(res.x[:-1]), np.abs(res.x[1:]))
    # measured ≤ 1.0: the step-doubling estimate is sharp
    assert np.max(np.sqrt(np.mean((err / tol) ** 2, axis=1))) <= 1.2
    # the global error against the closed form is bounded by the sum of local errors
    glob = np.max(np.abs(res.x - damped_solution(res.t, K, C)))
    assert glob <= res.nsteps * rtol * np.max(np.abs(res.x))
    # and the steps really adapt: the error control did not just take tiny fixed steps
    assert h.max() > 3 * h.min()


def test_tolerance_proportionality_of_the_midpoint_rule():
    # local error ∝ h³ and h ∝ tol^{1/3}: global error ∝ tol^{2/3}
    tols = [1e-5, 1e-6, 1e-7, 1e-8]
    errs = []
    for rtol in tols:
        res = simulate(oscillator(k=K, c=C), (0.0, 5.0), [1.0, 0.0], rtol=rtol,
                       atol=1e-3 * rtol, t_eval=[5.0])
        errs.append(np.max(np.abs(res.x[-1] - damped_solution(np.array([5.0]), K, C)[0])))
    slope = np.polyfit(np.log(tols), np.log(errs), 1)[0]
    assert slope == pytest.approx(2.0 / 3.0, abs=0.15)


def test_adaptive_discrete_gradient_keeps_the_power_balance_exact():
    res = simulate(duffing(c=0.3), (0.0, 5.0), [1.0, 0.0], u="2*cos(1.3*t)",
                   method="discrete_gradient", rtol=1e-5)
    h = np.diff(res.t)
    scale = np.max(h) * max(np.max(np.abs(res.supplied)), np.max(np.abs(res.dissipated)))
    assert np.max(np.abs(res.power_residual)) <= 1e-12 * scale
    assert h.max() > 3 * h.min()


@pytest.mark.parametrize("bad", [{"max_step": 0.0}, {"first_step": -1.0}, {"rtol": 0.0}])
def test_bad_step_controls_are_refused(bad):
    from porthamiltonian import ModelError

    with pytest.raises(ModelError, match=next(iter(bad))):
        simulate(oscillator(), (0.0, 1.0), [1.0, 0.0], **bad)


def test_max_step_caps_adaptive_steps():
    res = simulate(oscillator(), (0.0, 2.0), [1.0, 0.0], rtol=1e-3, max_step=0.01)
    assert np.max(np.diff(res.t)) <= 0.01 * (1 + 1e-3)  # a step may stretch 0.1 % to a stop
