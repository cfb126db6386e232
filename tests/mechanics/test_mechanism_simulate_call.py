"""``Mechanism.simulate`` is a thin call of ``porthamiltonian.simulate``: same arguments,
same numbers, and the same checks of the options."""

from __future__ import annotations

import numpy as np
import pytest
from mechanics_models import serial_chain

from porthamiltonian import ModelError, simulate
from porthamiltonian.simulate import SimulationOptions


def test_mechanism_simulate_equals_simulate_of_its_assembly():
    mech = serial_chain(2)
    q0 = {"j0": 0.4, "j1": -0.2}
    res = mech.simulate((0.0, 0.2), q0=q0, dt=5e-3, method="discrete_gradient")
    direct = simulate(mech.assemble(q0), (0.0, 0.2), mech.initial_state(q0, None),
                      method="discrete_gradient", dt=5e-3)
    np.testing.assert_array_equal(res.raw.x, direct.x)
    assert res.raw.method == "discrete_gradient"
    # the options object is the same call as its keywords
    again = mech.simulate(0.2, q0=q0, method="discrete_gradient",
                          options=SimulationOptions(dt=5e-3))
    np.testing.assert_array_equal(again.raw.x, res.raw.x)


def test_mechanism_simulate_refuses_unknown_options_and_methods():
    mech = serial_chain(1)
    with pytest.raises(ModelError, match="unknown simulation option"):
        mech.simulate(0.1, dt=1e-2, q0={"j0": 0.1}, newton_tolerance=1e-9)
    with pytest.raises(ModelError, match="cannot simulate a DescriptorPHS"):
        mech.simulate(0.1, dt=1e-2, method="rk4")


def test_the_old_positional_dt_still_works_with_a_warning():
    mech = serial_chain(1)
    with pytest.warns(DeprecationWarning, match="give dt by name"):
        old = mech.simulate(0.05, 1e-2)
    new = mech.simulate(0.05, dt=1e-2)
    np.testing.assert_array_equal(old.raw.x, new.raw.x)
