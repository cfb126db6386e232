"""The simulation examples: boost converter (switched vs averaged), DC motor step,
lossless oscillator — each against circuit/mechanics facts derived independently."""

from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from conftest import EXAMPLES


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_boost_switched_mean_tracks_the_averaged_model_within_the_ripple():
    bc = _load("boost_converter")
    sw, av = bc.run(t_end=0.02, steps_per_period=10)
    np.testing.assert_allclose(sw.t, av.t, rtol=0, atol=1e-15)  # the same grid, and
    edges = bc.pwm(bc.PERIOD, bc.DUTY).breakpoints(0.0, 0.02)  # every switch is a step end
    assert np.all(np.min(np.abs(sw.t[:, None] - edges[None, :]), axis=0) == 0.0)
    v_sw, v_av = sw["q"] / bc.C, av["q"] / bc.C
    periods = np.arange(0.0, 0.02 + 1e-12, bc.PERIOD)
    worst = 0.0
    for a, b in zip(periods[:-1], periods[1:], strict=True):
        k = (sw.t >= a - 1e-12) & (sw.t <= b + 1e-12)
        mean = np.trapezoid(v_sw[k], sw.t[k]) / (b - a)
        ripple = np.ptp(v_sw[k])
        avg = np.trapezoid(v_av[k], av.t[k]) / (b - a)
        assert abs(mean - avg) <= max(ripple, 1e-9)
        worst = max(worst, abs(mean - avg) / max(ripple, 1e-12))
    assert worst < 0.05  # measured 0.0075: the average tracks the switched mean closely
    # the averaged model settles at V = E/(1 − D); the switched mean does too, to its ripple
    assert v_av[-1] == pytest.approx(bc.E / (1 - bc.DUTY), rel=1e-3)
    last = sw.t >= 0.02 - bc.PERIOD - 1e-12
    assert abs(np.mean(v_sw[last]) - bc.E / (1 - bc.DUTY)) <= np.ptp(v_sw[last]) + 0.05
    # the power balance holds to round-off at every step, across the switches
    h = bc.PERIOD / 10
    scale = h * max(np.max(np.abs(sw.supplied)), np.max(np.abs(sw.dissipated)))
    assert np.max(np.abs(sw.power_residual)) <= 1e-12 * scale
    net = np.sum(sw.work_supplied) - np.sum(sw.work_dissipated)
    assert sw.H[-1] - sw.H[0] == pytest.approx(net, rel=1e-10)


def test_dc_motor_step_response_matches_the_textbook_motor():
    dm = _load("dc_motor_step")
    res = dm.run(t_end=0.3, dt=2e-4)
    assert dm.T_STEP in res.t  # the voltage step is a step boundary
    before = res.t <= dm.T_STEP
    assert np.all(res.x[before] == 0.0)  # nothing moves before the step
    i_ss, w_ss = dm.steady_state()
    assert res["i"][-1] == pytest.approx(i_ss, rel=1e-6)
    assert res["p"][-1] / dm.J_M == pytest.approx(w_ss, rel=1e-6)
    # electrical time constant L/R_a = 0.5 ms ≪ mechanical: the current first rises as
    # V/R_a (1 − e^{−t/τ_e}) before the back-EMF builds up (ω ≈ 0 there)
    k = np.flatnonzero((res.t > dm.T_STEP) & (res.t <= dm.T_STEP + 2e-4))
    tau = dm.L / dm.R_A
    expected = dm.V_STEP / dm.R_A * (1 - np.exp(-(res.t[k] - dm.T_STEP) / tau))
    np.testing.assert_allclose(res["i"][k], expected, rtol=2e-2)


def test_oscillator_midpoint_keeps_energy_where_rk45_drifts():
    osc = _load("oscillator")
    errors = osc.energy_errors(t_end=100.0, dt=0.01)
    assert errors["midpoint"][1] <= 1e-13 and errors["gauss2"][1] <= 1e-13
    assert errors["RK45"][1] > 1e-6  # RK45 at rtol 1e-6 drifts by orders of magnitude more
    assert errors["rk4"][1] > 100 * errors["midpoint"][1]


def test_fpu_chain_keeps_h_and_the_linear_chain_keeps_every_mode_energy():
    fpu = _load("fpu_recurrence")
    # nonlinear chain: the modes exchange energy while H stays to round-off
    res, E = fpu.run(masses=8, alpha=0.25, t_end=300.0, dt=0.5, amplitude=2.0)
    H0 = res.H[0]
    assert np.max(np.abs(res.H - H0)) <= 1e-12 * H0
    assert E[0, 0] == pytest.approx(H0, rel=1e-12)  # all of it in mode 1 at the start
    assert np.max(E[:, 1:].sum(axis=1)) > 1e-3 * H0  # … and some leaves it
    # the mode energies add up to the quadratic part of H, the rest is Σ α r³/3
    r = res.x[:, :9]
    np.testing.assert_allclose(E.sum(axis=1) + 0.25 * np.sum(r**3, axis=1) / 3, res.H,
                               rtol=1e-12)
    # linear chain: each mode energy is a quadratic invariant, kept by AVF compositions
    res, E = fpu.run(masses=8, alpha=0.0, t_end=300.0, dt=0.5, amplitude=2.0)
    assert np.max(np.abs(E[:, 0] - E[0, 0])) <= 1e-12 * E[0, 0]
    assert np.max(E[:, 1:]) <= 1e-12 * E[0, 0]
