"""Physical variables of networks: the DC motor with gear and load read in rad/s and A.

The model file ``examples/models/dc_motor_gear.yaml`` (voltage source V, DC motor with
armature R_a, L_a, motor constant k, rotor J_m and bearing friction b_m, gear n, load J_L
with friction b_f) is simulated as the command line simulates it
(:func:`porthamiltonian.io.simulate_model`).  The gear joins rotor and load rigidly, so
the assembled network eliminates the rotor momentum; the motor's speed survives as an
observable.  Reference: the closed-form steady state, derived here from the element laws:

    armature:  0 = V − R_a i − k ω_m,          ω_m = n ω_L (gear, ω_a = n ω_b)
    shaft:     0 = n (k i − b_m ω_m) − b_f ω_L  (the gear multiplies the torque by n)

    ⇒ ω_L = n k V / (R_a (n² b_m + b_f) + n² k²),   i = (V − k n ω_L) / R_a.
"""

from __future__ import annotations

import numpy as np
import pytest

from conftest import EXAMPLES
from porthamiltonian.io import load_model, simulate_model
from porthamiltonian.io.simulation import simulation_system

V, RA, K, N, BM, BF = 12.0, 1.0, 0.05, 10.0, 1.0e-5, 2.0e-3
JM, JL, LA = 1.0e-4, 2.0e-2, 1.0e-3
OMEGA_L = N * K * V / (RA * (N**2 * BM + BF) + (N * K) ** 2)
CURRENT = (V - K * N * OMEGA_L) / RA


@pytest.fixture(scope="module")
def run():
    model = load_model(EXAMPLES / "models" / "dc_motor_gear.yaml")
    # slowest time constant ≈ (J_L + n² J_m) R_a / (n k)² = 0.12 s: 6 s is 50 of them
    return simulate_model(model, t_end=6.0)


def test_the_rotor_momentum_is_eliminated_and_the_names_are_physical(run):
    assert run.states == ["motor.phi", "load.p"]
    assert run.inputs == ["V.u"] and run.outputs == ["V.i"]
    names = {v.name: (v.kind, v.unit, v.role) for v in run.variables}
    assert names["motor.phi"] == ("flux linkage", "Wb", "state")
    assert names["load.p"] == ("angular momentum", "N*m*s", "state")
    assert names["motor.i"] == ("current", "A", "coenergy")
    assert names["load.w"] == ("angular velocity", "rad/s", "coenergy")
    assert names["motor.w"] == ("angular velocity", "rad/s", "coenergy")  # merged away
    assert names["V.u"] == ("voltage", "V", "input")
    assert names["V.i"] == ("current", "A", "output")
    assert {"motor.i", "load.w", "motor.w"} <= set(run.shown)


def test_load_speed_in_rad_per_s_is_the_closed_form_steady_state(run):
    assert run.unit("load.w") == "rad/s"
    assert run["load.w"][-1] == pytest.approx(OMEGA_L, rel=1e-6)
    assert run.coenergy("load")[-1] == pytest.approx(OMEGA_L, rel=1e-6)


def test_motor_current_and_merged_motor_speed(run):
    assert run.unit("motor.i") == "A"
    assert run["motor.i"][-1] == pytest.approx(CURRENT, rel=1e-6)
    assert run["V.i"][-1] == pytest.approx(CURRENT, rel=1e-6)  # the source's current
    # the rotor, merged into the load: ω_m = n ω_L at every saved point
    np.testing.assert_allclose(run["motor.w"], N * run["load.w"], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(run["motor.p"], JM * run["motor.w"], rtol=1e-12, atol=1e-15)


def test_energy_of_the_physical_variables_is_the_hamiltonian(run):
    """H = L_a i²/2 + J_m ω_m²/2 + J_L ω_L²/2 along the run: the observables are the
    storages' own co-energies, not ∂H_r/∂ξ of the reduced model."""
    i, wm, wl = run["motor.i"], run["motor.w"], run["load.w"]
    np.testing.assert_allclose(LA * i**2 / 2 + JM * wm**2 / 2 + JL * wl**2 / 2, run.H,
                               rtol=1e-10, atol=1e-14)


def test_the_simulated_system_of_the_command_line_carries_the_quantities():
    sys = simulation_system(load_model(EXAMPLES / "models" / "dc_motor_gear.yaml"))
    q = sys.quantities
    assert q.states["load.p"].coenergy_name == "load.w"
    assert q.states["motor.phi"].coenergy_name == "motor.i"
    assert {o.name for o in q.observables} >= {"motor.p", "motor.w"}
    assert q.ports["V.u"].unit == "V" and q.ports["V.i"].unit == "A"
