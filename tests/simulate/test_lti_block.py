"""The block path of LTI systems (:mod:`porthamiltonian.simulate.ode.lti`) takes the same
steps as the general step-by-step loop: same states, same per-step work and dissipation
(the general loop is forced by an event function that never fires)."""

from __future__ import annotations

import numpy as np
import pytest
from sim_systems import oscillator

from porthamiltonian.simulate import simulate


def _never(t, x):
    return 1.0


@pytest.mark.parametrize("method", ["midpoint", "gauss2", "gauss3", "gauss5"])
def test_block_path_equals_the_step_loop(method):
    system = oscillator(k=4.0, m=0.5, c=0.3)
    kw = dict(u="sin(3*t) + 0.5", method=method, dt=0.05)
    block = simulate(system, (0.0, 4.0), {"q": 0.1}, **kw)
    loop = simulate(system, (0.0, 4.0), {"q": 0.1}, events=_never, **kw)
    assert block.t == pytest.approx(loop.t, abs=0.0)
    scale = np.max(np.abs(loop.x))
    assert np.max(np.abs(block.x - loop.x)) <= 1e-13 * scale
    for name in ("work_supplied", "work_dissipated"):
        a, b = getattr(block, name), getattr(loop, name)
        assert np.max(np.abs(a - b)) <= 1e-12 * np.max(np.abs(b))


@pytest.mark.parametrize("method", ["gauss3", "gauss4", "gauss5", "gauss6"])
def test_high_order_gauss_keeps_the_energy_of_a_lossless_oscillator(method):
    # quadratic H: exact conservation in exact arithmetic; in floating point the rounding of
    # the method's irrational coefficients may add a few ulps of relative energy per step
    steps = 2000
    res = simulate(oscillator(k=4.0), (0.0, 0.25 * steps), [1.0, 0.0], method=method,
                   dt=0.25, save_every=100)
    assert np.max(np.abs(res.H - res.H[0])) <= steps * 4 * np.finfo(float).eps * res.H[0]
