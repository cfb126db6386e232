"""Energy conservation on lossless systems (docs/design.md)."""

from __future__ import annotations

import numpy as np
import pytest
from sim_systems import lc_chain, pendulum

from porthamiltonian.simulate import simulate


def test_lc_chain_midpoint_1e5_steps_conserves_energy_to_1e12():
    sys = lc_chain(3)
    x0 = np.array([1.0, 0.0, -0.5, 0.2, 0.0, 0.3])
    res = simulate(sys, (0.0, 1000.0), x0, method="midpoint", dt=1e-2, save_every=1000)
    assert res.nsteps == 100_000
    rel = np.max(np.abs(res.H - res.H[0])) / res.H[0]
    assert rel <= 1e-12
    assert res.newton_iterations == res.nsteps  # LTI: one solve with the cached LU per step


@pytest.mark.parametrize("method", ["discrete_gradient", "avf"])
def test_pendulum_discrete_gradient_conserves_energy_where_rk4_drifts(method):
    # 4·10^3 steps (not 10^5: ~0.4 ms per Newton step in Python) with h = 0.05 s and
    # q0 = 2 rad (a large swing); examples/pendulum.py runs the full 10^5 steps
    sys, x0, span, h = pendulum(), [2.0, 0.0], (0.0, 200.0), 0.05
    res = simulate(sys, span, x0, method=method, dt=h, save_every=100)
    assert res.nsteps == 4_000
    err = np.max(np.abs(res.H - res.H[0])) / res.H[0]
    assert err <= 1e-10
    rk4 = simulate(sys, span, x0, method="rk4", dt=h, save_every=100)
    err_rk4 = np.max(np.abs(rk4.H - rk4.H[0])) / rk4.H[0]
    assert err_rk4 > 100 * max(err, 1e-15)
