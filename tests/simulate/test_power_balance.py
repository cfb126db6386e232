"""Discrete power balance ΔH = ∫(uᵀy − d) dt per step, on lossy forced systems (docs/design.md)."""

from __future__ import annotations

import numpy as np
import pytest
from sim_systems import duffing, oscillator

from porthamiltonian.simulate import simulate


def _check_balance(res, h: float) -> None:
    scale = h * max(np.max(np.abs(res.supplied)), np.max(np.abs(res.dissipated)),
                    np.max(np.abs(res.stored)))
    assert np.max(np.abs(res.power_residual)) <= 1e-12 * scale
    assert res.power_residual[0] == 0.0
    # the per-step energies add up: H_N − H_0 = Σ supplied − Σ dissipated
    net = np.sum(res.work_supplied) - np.sum(res.work_dissipated)
    assert res.H[-1] - res.H[0] == pytest.approx(net, rel=1e-10, abs=1e-12 * res.H.max())
    assert np.all(res.work_dissipated >= 0.0)


@pytest.mark.parametrize("method", ["midpoint", "discrete_gradient", "gauss2", "gauss3", "gauss5"])
def test_mass_spring_damper_with_sinusoidal_force(method):
    h = 1e-2
    res = simulate(oscillator(k=4.0, m=0.5, c=0.3), (0.0, 10.0), {"q": 0.1}, u="sin(3*t)",
                   method=method, dt=h)
    _check_balance(res, h)
    assert res.work_dissipated.sum() > 0.01 * res.H.max()  # the damper does take energy


@pytest.mark.parametrize("method", ["discrete_gradient", "avf"])
def test_nonlinear_spring_discrete_gradient_balance(method):
    h = 2e-2
    res = simulate(duffing(c=0.3), (0.0, 10.0), [1.0, 0.0],
                   u={"F": lambda t: 2.0 * np.cos(1.3 * t)}, method=method, dt=h)
    _check_balance(res, h)


def test_midpoint_balance_is_only_approximate_for_non_quadratic_h():
    # ∇H(x̄) is not a discrete gradient for a quartic H: the residual is O(h³), not round-off
    h = 2e-2
    res = simulate(duffing(c=0.3), (0.0, 10.0), [1.0, 0.0], u=1.0, method="midpoint", dt=h)
    assert np.max(np.abs(res.power_residual)) > 1e-9
