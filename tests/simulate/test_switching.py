"""Piecewise-constant modulation: the ideal boost converter (Duindam et al. 2009, §3.1)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from porthamiltonian import PHS, ModelError
from porthamiltonian.simulate import PiecewiseConstant, pwm, simulate

phi, q, S = sp.symbols("phi q S", real=True)
L, C, R_LOAD, E = 1e-3, 1e-4, 10.0, 12.0


def boost() -> PHS:
    """States (φ_L, q_C); J(S) = [[0, −(1−S)], [1−S, 0]], R = diag(0, 1/R_load), G = [1, 0]ᵀ."""
    return PHS(J=[[0, -(1 - S)], [1 - S, 0]], R=[[0, 0], [0, 1 / R_LOAD]], G=[[1], [0]],
               hamiltonian=phi**2 / (2 * L) + q**2 / (2 * C), states=["phi", "q"],
               inputs=["E"], outputs=["iL"])


def test_pwm_and_piecewise_constant_values_and_edges():
    s = pwm(1e-3, 0.25)
    assert [s(t) for t in (0.0, 0.2e-3, 0.25e-3, 0.9e-3, 1e-3)] == [1.0, 1.0, 0.0, 0.0, 1.0]
    np.testing.assert_allclose(s.breakpoints(0.0, 2e-3), [0.25e-3, 1e-3, 1.25e-3])
    p = PiecewiseConstant([0.0, 1.0, 2.0], [3.0, -1.0, 0.5])
    assert (p(0.5), p(1.0), p(7.0)) == (3.0, -1.0, 0.5)
    np.testing.assert_array_equal(p.breakpoints(0.0, 2.0), [1.0])
    with pytest.raises(ModelError, match="duty"):
        pwm(1e-3, 1.5)
    with pytest.raises(ModelError, match="increase"):
        PiecewiseConstant([0.0, 0.0], [1.0, 2.0])


@pytest.mark.parametrize("method", ["midpoint", "gauss2", "discrete_gradient"])
def test_power_balance_exact_across_switches_and_steps_on_edges(method):
    period, h = 1e-4, 1.3e-5  # dt does not divide the switching period
    res = simulate(boost(), (0.0, 2e-3), [0.0, 0.0], u=E, method=method, dt=h,
                   modulation={"S": pwm(period, 0.4)})
    edges = pwm(period, 0.4).breakpoints(0.0, 2e-3)
    assert np.all(np.min(np.abs(res.t[:, None] - edges[None, :]), axis=0) == 0.0)
    assert np.max(np.diff(res.t)) <= h * (1 + 1e-12)
    scale = h * max(np.max(np.abs(res.supplied)), np.max(np.abs(res.dissipated)))
    assert np.max(np.abs(res.power_residual)) <= 1e-12 * scale
    net = np.sum(res.work_supplied) - np.sum(res.work_dissipated)
    assert res.H[-1] - res.H[0] == pytest.approx(net, rel=1e-11)


def test_switch_closed_charges_the_inductor_linearly():
    # S = 1: φ̇ = E exactly (the inductor sees the source), q̇ = −q/(R C) (the load
    # discharges the capacitor): check both closed forms on a closed-switch interval
    sig = PiecewiseConstant([0.0, 1e-3], [0.0, 1.0])
    res = simulate(boost(), (0.0, 2e-3), [0.0, 0.0], u=E, dt=1e-6, modulation={"S": sig})
    on = res.t >= 1e-3
    k0 = np.flatnonzero(on)[0]
    t, ph, qq = res.t[on] - 1e-3, res["phi"][on], res["q"][on]
    np.testing.assert_allclose(ph, ph[0] + E * t, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(qq, qq[0] * np.exp(-t / (R_LOAD * C)), rtol=1e-6)
    assert res.t[k0] == 1e-3


def test_averaged_boost_steady_state_matches_circuit_theory():
    # duty D constant: V = E/(1−D), i_L = V/(R(1−D)) (Erickson & Maksimović, ch. 2)
    D = 0.4
    res = simulate(boost(), (0.0, 0.1), [0.0, 0.0], u=E, dt=2e-5, modulation={"S": D},
                   save_every=1000)
    V = E / (1 - D)
    assert res["q"][-1] / C == pytest.approx(V, rel=1e-6)
    assert res["phi"][-1] / L == pytest.approx(V / (R_LOAD * (1 - D)), rel=1e-6)


def test_modulation_errors_name_the_parameter():
    with pytest.raises(ModelError, match="no free parameter 'D'"):
        simulate(boost(), (0.0, 1e-3), [0.0, 0.0], u=E, modulation={"D": 0.5})
    with pytest.raises(ModelError, match="piecewise constant"):
        simulate(boost(), (0.0, 1e-3), [0.0, 0.0], u=E, modulation={"S": lambda t: 0.5})
    with pytest.raises(ModelError, match="S"):  # S left without a value
        simulate(boost(), (0.0, 1e-3), [0.0, 0.0], u=E)
    late = PiecewiseConstant([1.0], [1.0])
    with pytest.raises(ModelError, match="defined from"):
        simulate(boost(), (0.0, 1e-3), [0.0, 0.0], u=E, modulation={"S": late})


def test_a_modulation_value_that_breaks_the_structure_is_refused():
    # R(S) = diag(0, S/R_load) is a resistor for S ≥ 0 only: S = −1 would create energy
    from porthamiltonian import StructureError

    sys = PHS(J=[[0, -(1 - S)], [1 - S, 0]], R=[[0, 0], [0, S / R_LOAD]], G=[[1], [0]],
              hamiltonian=phi**2 / (2 * L) + q**2 / (2 * C), states=["phi", "q"],
              inputs=["E"], check=False)
    sig = PiecewiseConstant([0.0, 1e-4], [1.0, -1.0])
    with pytest.raises(StructureError, match=r"S = -1.*not positive semi-definite|S = -1"):
        simulate(sys, (0.0, 2e-4), [0.0, 0.0], u=E, dt=1e-5, modulation={"S": sig})


def test_nonlinear_storage_with_switching_keeps_the_balance():
    # a saturating inductor, H_L = φ²/(2L) + φ⁴/(4 L Φ²): the discrete gradient keeps the
    # balance exact with the structure switching under it (the compiled functions take S)
    phi_sat = 5e-3
    sys = PHS(J=[[0, -(1 - S)], [1 - S, 0]], R=[[0, 0], [0, 1 / R_LOAD]], G=[[1], [0]],
              hamiltonian=phi**2 / (2 * L) + phi**4 / (4 * L * phi_sat**2) + q**2 / (2 * C),
              states=["phi", "q"], inputs=["E"])
    h = 5e-6
    res = simulate(sys, (0.0, 1e-3), [0.0, 0.0], u=E, method="discrete_gradient", dt=h,
                   modulation={"S": pwm(1e-4, 0.5)})
    scale = h * max(np.max(np.abs(res.supplied)), np.max(np.abs(res.dissipated)))
    assert np.max(np.abs(res.power_residual)) <= 1e-12 * scale
    # with the switch closed the source alone drives the inductor: φ̇ = E exactly
    on = (res.t > 1e-4) & (res.t <= 1.5e-4)
    np.testing.assert_allclose(np.diff(res["phi"][on]), E * h, rtol=1e-9)
