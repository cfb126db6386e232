"""Failure behaviour: SimulationError with the time reached and the results up to it."""

from __future__ import annotations

import numpy as np
import pytest

from porthamiltonian import PHS, SimulationError
from porthamiltonian.simulate import simulate


def _integrator() -> PHS:
    """q̇ = u with H = q²/2 (a capacitor fed by a current source)."""
    return PHS(G=[[1.0]], Q=[[1.0]], states=["q"], inputs=["i"])


@pytest.mark.parametrize("method", ["midpoint", "rk4"])
def test_finite_time_blow_up_keeps_partial_results(method):
    # feedback u = q² gives q(t) = 1/(1 − t): it blows up at t = 1 s
    with pytest.raises(SimulationError) as info:
        simulate(_integrator(), (0.0, 2.0), [1.0], u=lambda t, x: x[0] ** 2, method=method,
                 dt=1e-2)
    err = info.value
    assert 0.5 < err.t_reached <= 1.1  # RK4 overshoots the singularity by a few steps
    part = err.partial
    assert not part.success and part.t[-1] == err.t_reached
    assert np.all(np.isfinite(part.x))
    # what was computed before the failure is right: q = 1/(1 − t) to O(h²)
    early = part.t <= 0.5
    np.testing.assert_allclose(part["q"][early], 1.0 / (1.0 - part.t[early]), rtol=1e-3)


def test_inputs_by_name_and_state_feedback_closed_form():
    # q̇ = −a q by feedback u = −a q: exponential decay; midpoint gives ((1 − ah/2)/(1 + ah/2))^k
    a, h = 2.0, 0.05
    res = simulate(_integrator(), (0.0, 1.0), {"q": 1.0}, u={"i": lambda t, x: -a * x[0]},
                   dt=h)
    ratio = (1 - a * h / 2) / (1 + a * h / 2)
    np.testing.assert_allclose(res["q"], ratio ** np.arange(res.t.size), rtol=1e-12)
    np.testing.assert_allclose(res["i"], -a * res["q"], rtol=1e-12)
