"""Nonholonomic systems: the vertical rolling disk (Yoshimura & Marsden 2006, Part I)
and its tearing into a sliding body and a wheel joined by the rolling constraint."""

import numpy as np
from ld_models import (
    DISK_CONSTRAINTS,
    DISK_L,
    DISK_PARAMS,
    PH,
    TH,
    Id,
    Jd,
    Rd,
    X,
    Y,
    accelerations,
    md,
    rolling_disk,
    sympy_accelerations,
    t,
)

from porthamiltonian import lagrange

R = DISK_PARAMS[Rd]


def _consistent(rng):
    q = rng.uniform(-1, 1, size=4)
    th_d, ph_d = rng.normal(size=2)
    v = np.array([R * np.cos(q[3]) * th_d, R * np.sin(q[3]) * th_d, th_d, ph_d])
    return q, v


def test_lagrange_dalembert_equations_match_sympy():
    sys = rolling_disk()
    rng = np.random.default_rng(3)
    for _ in range(4):
        q, v = _consistent(rng)
        ours = accelerations(sys, q, v)
        ref = sympy_accelerations(DISK_L, [X, Y, TH, PH], q, v, DISK_PARAMS,
                                  nonhol=DISK_CONSTRAINTS)
        assert np.allclose(ours[:4], ref, rtol=1e-11, atol=1e-12)


def test_rolling_disk_closed_form_and_invariants():
    sys = rolling_disk()
    w_th, w_ph, ph0 = 1.3, 0.7, 0.4
    v0 = [R * np.cos(ph0) * w_th, R * np.sin(ph0) * w_th, w_th, w_ph]
    res = sys.simulate(8.0, [0.0, 0.0, 0.0, ph0], v0, dt=0.1)
    # θ̇ and φ̇ are constant; the contact point traces a circle of radius R θ̇/φ̇
    ph = ph0 + w_ph * res.t
    x = R * w_th / w_ph * (np.sin(ph) - np.sin(ph0))
    y = -R * w_th / w_ph * (np.cos(ph) - np.cos(ph0))
    assert np.max(np.abs(res["x"] - x)) < 1e-9
    assert np.max(np.abs(res["y"] - y)) < 1e-9
    assert np.max(np.abs(res["theta"] - w_th * res.t)) < 1e-9
    assert np.max(np.abs(res.constraint_residual)) < 1e-9
    assert np.max(np.abs(res.energy - res.energy[0])) < 1e-10 * res.energy[0]
    # constraint forces are workless: λ · (Aᵀ v) = 0 and they keep the disk on the circle
    m = DISK_PARAMS[md]
    centripetal = m * R * w_th * w_ph  # |m a| of the contact point
    assert np.allclose(np.hypot(res.lam[:, 0], res.lam[:, 1]), centripetal, rtol=1e-8)


def test_torn_disk_matches_monolithic():
    """Body (x, y) | wheel (θ, φ), joined by the rolling one-forms as interaction."""
    m, Ii, Jj = DISK_PARAMS[md], DISK_PARAMS[Id], DISK_PARAMS[Jd]
    body = lagrange.LagrangeDiracSystem([X, Y], m * (X.diff(t) ** 2 + Y.diff(t) ** 2) / 2,
                                        name="body")
    wheel = lagrange.LagrangeDiracSystem([TH, PH], Ii * TH.diff(t) ** 2 / 2
                                         + Jj * PH.diff(t) ** 2 / 2, name="wheel")
    rolling = lagrange.interaction(
        [c.subs(Rd, R) for c in DISK_CONSTRAINTS], name="rolling contact")
    torn = lagrange.interconnect([body, wheel], rolling)
    mono = rolling_disk()
    q0, v0 = [0.1, -0.2, 0.3, 0.4], [R * np.cos(0.4) * 2.0, R * np.sin(0.4) * 2.0, 2.0, -0.5]
    rt = torn.simulate(5.0, q0, v0, dt=0.05)
    rm = mono.simulate(5.0, q0, v0, dt=0.05)
    assert np.max(np.abs(rt.q - rm.q)) < 1e-8
    assert np.max(np.abs(rt.lam - rm.lam)) < 1e-8
    assert torn.constraint_owners == ["rolling contact"] * 2
