"""Seed §7 III: a ball rolling without slipping on a rotating table, geared to a
second table; torn into ball | table 1 | table 2 and re-interconnected."""

import numpy as np
from ld_models import (
    A1,
    A2,
    BPH,
    BPS,
    BTH,
    BX,
    BY,
    TABLE,
    accelerations,
    sympy_accelerations,
    table_mono,
    table_parts,
    table_state,
    table_torn,
)


def test_equations_match_sympy_lagrange_dalembert():
    torn = table_torn()
    L_ball, L1, L2, forms = table_parts()
    q = np.array([0.4, -0.3, 0.2, 1.1, -0.5, 0.3, 0.1])
    v = table_state(q, [0.7, -0.4, 1.2, 0.9])
    ours = accelerations(torn, q, v)[:7]
    ref = sympy_accelerations(L_ball + L1 + L2, [BX, BY, BPH, BTH, BPS, A1, A2], q, v, {},
                              nonhol=forms)
    assert np.allclose(ours, ref, rtol=1e-10, atol=1e-12)


def test_ball_orbits_at_two_sevenths_of_the_table_rate():
    """A uniform ball on a table turning at Ω moves on a circle at 2Ω/7 (the tables
    are very heavy here, so Ω stays constant to ~1e-6)."""
    torn = table_torn()
    om = 2.0
    q0 = [0.3, 0.0, 0.0, np.pi / 2, 0.0, 0.0, 0.0]
    v0 = table_state(q0, [0.0, 0.0, 0.0, om])
    period = 2 * np.pi / (2 * om / 7)
    res = torn.simulate(period, q0, v0, t_eval=[0.0, period / 2, period], rtol=1e-10)
    back = np.hypot(res["x"][-1] - 0.3, res["y"][-1])
    half = np.hypot(res["x"][1] - 0.3, res["y"][1])
    assert back < 1e-4 and half > 1.0
    assert np.max(np.abs(res.constraint_residual)) < 1e-9
    assert np.max(np.abs(res.energy - res.energy[0])) < 1e-9 * res.energy[0]
    # the gear constraint is holonomic: r1 α1 + r2 α2 stays 0
    assert abs(TABLE["r1"] * res["alpha1"][-1] + TABLE["r2"] * res["alpha2"][-1]) < 1e-9


def test_torn_matches_monolithic_trajectory():
    q0 = [0.4, -0.3, 0.2, 1.1, -0.5, 0.3, 0.1]
    v0 = table_state(q0, [0.7, -0.4, 1.2, 0.9])
    rt = table_torn().simulate(2.0, q0, v0, dt=0.5, rtol=1e-10)
    rm = table_mono().simulate(2.0, q0, v0, dt=0.5, rtol=1e-10)
    assert np.max(np.abs(rt.q - rm.q)) < 1e-8
    assert np.max(np.abs(rt.v - rm.v)) < 1e-8
