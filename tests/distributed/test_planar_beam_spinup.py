"""Spin-up of a flexible beam driven at its hub: exact energy input, rigid-rotation energy
and the centrifugal stretch after the manoeuvre."""

import numpy as np
import pytest

from porthamiltonian import simulate
from porthamiltonian.distributed import planar_beam
from porthamiltonian.distributed.spinup import SPINUP_BEAM, spinup_angle, spinup_rate

L, EA, EI, RA = (SPINUP_BEAM[k] for k in ("length", "EA", "EI", "rhoA"))
RI = RA * EI / EA            # rotary inertia of a section with I/A = EI/EA
KGA = EA * (5 / 6) / 2.6     # κGA with κ = 5/6, ν = 0.3


def test_profile_is_the_integral_of_the_rate_and_joins_smoothly():
    t = np.linspace(0.0, 20.0, 2001)
    th, w = spinup_angle(t), spinup_rate(t)
    assert spinup_angle(15.0) == pytest.approx(45.0) and spinup_rate(15.0) == pytest.approx(6.0)
    # trapezoidal integral of the rate reproduces the angle (error O(Δt²))
    integral = np.concatenate([[0.0], np.cumsum(0.5 * (w[1:] + w[:-1]) * np.diff(t))])
    assert np.max(np.abs(integral - th)) < 1e-4
    assert np.all(np.diff(w) >= -1e-12) and spinup_rate(0.0) == 0.0


def test_spin_up_energy_input_equals_stored_energy_and_ends_in_a_stretched_rotation():
    beam = planar_beam(L, RA, RI, EA, EI, KGA, elements=6, degree=2, left="hub", right="free")
    assert beam.system.inputs == ("omega_left",) and beam.system.outputs == ("M_left",)
    T = 20.0
    res = simulate(beam.system, (0, T), u={"omega_left": lambda t: float(spinup_rate(t))},
                   dt=0.02)
    # energy put in at the hub, ∫ω M dt (per saved interval), is the stored energy (no
    # dissipation), exactly: the midpoint rule's discrete power balance
    work = np.sum(res.work_supplied)
    assert work > 7000.0 and np.all(res.work_dissipated == 0.0)
    assert abs(res.H[-1] - res.H[0] - work) <= 1e-10 * res.H[-1]
    # after the spin-up nearly all of it is the kinetic energy of the rigid rotation
    Omega = 6.0
    rigid = 0.5 * Omega**2 * (RA * L**3 / 3 + RI * L)
    assert res.H[-1] == pytest.approx(rigid, rel=1e-3)
    # the centrifugal force N(s) = ρAΩ²(L² − s²)/2 stretches the beam by ρAΩ²L³/3EA
    r1, r2, _ = beam.shape(res.x)
    late = res.t > 16.0
    stretch = np.mean(r1[late, -1]) - L
    assert stretch == pytest.approx(RA * Omega**2 * L**3 / (3 * EA), rel=0.03)
    # the tip lags behind the hub during the spin-up (negative deflection in the hub frame)
    assert np.min(r2[:, -1]) < -0.4 and np.max(np.abs(r2[late, -1])) < 0.02
