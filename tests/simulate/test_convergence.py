"""Convergence orders fitted from step refinement against closed-form solutions."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.interpolate import CubicHermiteSpline
from scipy.special import ellipk
from sim_systems import damped_solution, oscillator, pendulum, pendulum_solution

from porthamiltonian.simulate import simulate


def _order(method: str, system, exact, x0, T: float, steps: list[int]) -> float:
    errors, hs = [], []
    for n in steps:
        res = simulate(system, (0.0, T), x0, method=method, dt=T / n, save_every=n)
        errors.append(np.max(np.abs(res.x[-1] - exact(np.array([T]))[0])))
        hs.append(T / n)
    slope, _ = np.polyfit(np.log(hs), np.log(errors), 1)
    return float(slope)


@pytest.mark.parametrize(("method", "order", "steps"), [
    ("midpoint", 2, [20, 40, 80, 160]),
    ("discrete_gradient", 2, [20, 40, 80, 160]),
    ("avf", 2, [20, 40, 80, 160]),
    ("gauss1", 2, [20, 40, 80, 160]),
    ("gauss2", 4, [10, 20, 40, 80]),
    ("gauss3", 6, [5, 10, 20, 40]),
    ("gauss4", 8, [3, 4, 6, 8]),
    ("gauss5", 10, [2, 3, 4, 6]),
    ("gauss6", 12, [2, 3, 4, 5]),
    ("rk4", 4, [20, 40, 80, 160]),
])
def test_order_on_the_damped_oscillator(method, order, steps):
    k, c = 4.0, 0.4
    fitted = _order(method, oscillator(k=k, c=c), lambda t: damped_solution(t, k, c),
                    [1.0, 0.0], 3.0, steps)
    assert fitted == pytest.approx(order, abs=0.3)


@pytest.mark.parametrize("method", ["discrete_gradient", "avf"])
def test_order_two_on_the_pendulum_elliptic_solution(method):
    q0 = 1.5
    fitted = _order(method, pendulum(), lambda t: pendulum_solution(t, q0), [q0, 0.0], 3.0,
                    [20, 40, 80, 160])
    assert fitted == pytest.approx(2.0, abs=0.3)


def test_pendulum_period_matches_the_elliptic_integral():
    q0 = 2.0
    exact = 4.0 * ellipk(np.sin(q0 / 2.0) ** 2)  # ω0 = 1 rad/s; scipy's ellipk takes m = k²
    res = simulate(pendulum(), (0.0, 5.2 * exact), [q0, 0.0], method="gauss3", dt=0.02)
    q, p = res["q"], res["p"]
    spline = CubicHermiteSpline(res.t, q, p)  # q̇ = ∂H/∂p = p
    down = np.flatnonzero((q[:-1] > 0) & (q[1:] <= 0))  # downward zero crossings
    roots = [spline.solve(0.0, extrapolate=False) for _ in down]
    crossings = []
    for i, r in zip(down, roots, strict=True):
        inside = r[(r >= res.t[i]) & (r <= res.t[i + 1])]
        crossings.append(inside[0])
    periods = np.diff(crossings)
    assert len(periods) >= 4
    assert np.max(np.abs(periods - exact)) <= 1e-6
