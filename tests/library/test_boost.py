"""Boost converter (Duindam et al. 2009, §3.1): the switched PHS under PWM against its
averaged model (switch position S replaced by the duty ratio D)."""

from __future__ import annotations

import numpy as np
import pytest

from porthamiltonian import simulate
from porthamiltonian.library import electrical as E
from porthamiltonian.simulate import pwm

L, C, R, VIN, D, PERIOD = 1e-3, 1e-4, 10.0, 12.0, 0.4, 5e-5


@pytest.fixture(scope="module")
def runs():
    switched = E.BoostConverter(L=L, C=C, R=R).system()
    averaged = E.BoostConverter.averaged(L=L, C=C, R=R).system().subs(D=D).numeric()
    t_end = 0.012
    sw = simulate(switched, (0, t_end), u=VIN, modulation={"S": pwm(PERIOD, D)},
                  method="midpoint", dt=PERIOD / 20)
    av = simulate(averaged, (0, t_end), u=VIN, method="midpoint", dt=PERIOD / 20)
    return sw, av


def test_averaged_model_tracks_the_mean_output_voltage_within_the_ripple(runs):
    sw, av = runs
    vc_sw, vc_av = sw["q_C"] / C, av["q_C"] / C
    for k in range(4):  # four windows of two periods after the start-up transient
        t1 = 0.004 + k * 0.002
        win = (sw.t >= t1) & (sw.t < t1 + 2 * PERIOD)
        mean_sw = np.mean(vc_sw[win])
        ripple = np.ptp(vc_sw[win])
        v_av = np.interp(t1 + PERIOD, av.t, vc_av)
        assert 0 < ripple < 0.05 * mean_sw
        assert abs(mean_sw - v_av) < ripple
    # and both settle at the classic boost ratio E/(1 − D)
    assert np.mean(vc_sw[sw.t > 0.011]) == pytest.approx(VIN / (1 - D), rel=0.01)


def test_switched_converter_keeps_its_power_balance_across_switching(runs):
    sw, _ = runs
    moved = np.max(np.abs(sw.work_supplied)) + np.max(np.abs(sw.work_dissipated))
    assert np.max(np.abs(sw.power_residual)) < 1e-12 * max(moved, np.max(sw.H))
