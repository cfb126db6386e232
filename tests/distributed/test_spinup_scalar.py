"""The spin-up profile for one time (plain math, what a solver's user function calls) is
the array formula: same values to round-off, also across the end of the ramp."""

import numpy as np

from porthamiltonian.distributed.spinup import spinup_angle, spinup_rate


def test_scalar_profile_is_the_array_profile():
    t = np.concatenate([np.linspace(0.0, 30.0, 3001), [15.0 - 1e-12, 15.0, 15.0 + 1e-12]])
    for f, scale in ((spinup_angle, 135.0), (spinup_rate, 6.0)):
        scalar = np.array([f(float(s)) for s in t])
        assert all(isinstance(f(float(s)), float) for s in t[:3])
        assert np.max(np.abs(scalar - f(t))) <= 1e-14 * scale
    # θ(t) = Ωt − ΩT/2 after the ramp, θ̇ = Ω; integer times too
    assert spinup_angle(20) == 6.0 * 20 - 45.0 and spinup_rate(20) == 6.0
