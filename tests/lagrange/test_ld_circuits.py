"""Circuits written with charges as coordinates (degenerate Lagrangians)."""

import numpy as np
import sympy
from ld_models import Ccap, Lind, series_rlc_monolithic, series_rlc_torn, t
from sympy.physics.mechanics import dynamicsymbols

from porthamiltonian import lagrange


def lc(L=0.5, C=2.0):
    qL, qC = dynamicsymbols("qL qC")
    # L = magnetic co-energy − electric energy; no term in q̇_C: degenerate
    lag = Lind * qL.diff(t) ** 2 / 2 - qC**2 / (2 * Ccap)
    return lagrange.LagrangeDiracSystem(
        [qL, qC], lag, constraints=[qL.diff(t) - qC.diff(t)],  # KCL: one loop current
        parameters={Lind: L, Ccap: C}, name="LC")


def test_lc_equations_are_kirchhoff():
    sys = lc()
    eq = sys.equations()
    qL, qC = eq.q
    # Legendre map: flux linkage p_L = L i_L, and p_C ≡ 0 (degenerate direction)
    assert sympy.simplify(eq.legendre[0] - (eq.p[0] - Lind * eq.v[0])) == 0
    assert sympy.simplify(eq.legendre[1] - eq.p[1]) == 0
    # eliminate p and λ: λ = −q_C/C from the p_C row, then L di/dt = −q_C/C (KVL)
    lam = sympy.solve(eq.dynamic[1].subs(eq.p[1], 0), eq.lam[0])[0]
    assert sympy.simplify(lam + qC / Ccap) == 0
    kvl = eq.dynamic[0].subs(eq.lam[0], lam).subs(eq.p[0], Lind * eq.v[0]).doit()
    assert sympy.simplify(kvl - (Lind * eq.v[0].diff(t) + qC / Ccap)) == 0
    # KCL is the constraint
    assert sympy.simplify(eq.constraints[0] - (eq.v[0] - eq.v[1])) == 0


def test_lc_frequency_is_one_over_sqrt_lc():
    L, C = 0.5, 0.08
    sys = lc(L, C)
    w = 1 / np.sqrt(L * C)
    # linear: the reduced ODE matrix has eigenvalues ±i/√(LC)
    M, r = sys.acceleration_form()
    Mn = np.array(M.subs(sys.parameters), dtype=float)
    state = list(sys.coordinates) + list(sys.velocities)
    Jr = np.array(r.subs(sys.parameters).jacobian(state), dtype=float)
    acc = np.linalg.solve(Mn, Jr)[:2]
    Asys = np.vstack([np.hstack([np.zeros((2, 2)), np.eye(2)]), acc])
    # restricted to the KCL-consistent subspace v_L = v_C: modes ±iω plus the
    # zero modes of the constraint (q_L − q_C constant, and its rate)
    ev = np.linalg.eigvals(Asys)
    assert np.min(np.abs(ev - 1j * w)) < 1e-9 * w
    res = sys.simulate(2 * np.pi / w * 3, [0.0, 1e-3], [0.0, 0.0], dt=0.01)
    assert np.max(np.abs(res["qC"] - 1e-3 * np.cos(w * res.t))) < 1e-8 * 1e-3
    assert np.max(np.abs(res.energy - res.energy[0])) < 1e-10 * res.energy[0]
    assert np.max(np.abs(res.constraint_residual)) < 1e-12


def test_torn_rlc_matches_monolithic_and_closed_form():
    R, L, C = 0.4, 0.5, 0.2
    torn = series_rlc_torn(R, L, C)
    mono = series_rlc_monolithic(R, L, C)
    q0 = 1e-2
    rt = torn.simulate(3.0, [0.0, 0.0, q0], [0, 0, 0], dt=0.01)
    rm = mono.simulate(3.0, [q0], [0.0], dt=0.01)
    # underdamped closed form q(t) = q0 e^{−at}(cos ωd t + a/ωd sin ωd t)
    a = R / (2 * L)
    wd = np.sqrt(1 / (L * C) - a**2)
    exact = q0 * np.exp(-a * rt.t) * (np.cos(wd * rt.t) + a / wd * np.sin(wd * rt.t))
    assert np.max(np.abs(rt["qC"] - exact)) < 1e-10 * q0
    assert np.max(np.abs(rt["qC_dot"] - rm["q_dot"])) < 1e-9 * q0
    # the interaction force on the capacitor branch, −λ (form dq_R − dq_C), is the
    # voltage across the cut and balances the capacitor voltage q_C/C
    assert np.max(np.abs(-rt.lam[:, 1] - rt["qC"] / C)) < 1e-9 * q0 / C
    # energy decreases exactly by the dissipated energy ∫ R i² dt
    assert np.max(np.abs(rt.energy_residual)) < 1e-9 * rt.energy[0]
    assert np.all(np.diff(rt.energy) <= 1e-12 * rt.energy[0])  # dE/dt = −R i² ≤ 0
    assert rt.energy[-1] < np.exp(-2 * a * 3.0) * 1.5 * rt.energy[0]
    i = rt["qR_dot"]
    dissipated = np.concatenate([[0], np.cumsum(0.5 * (R * i[1:] ** 2 + R * i[:-1] ** 2)
                                                * np.diff(rt.t))])
    assert np.max(np.abs(rt.energy[0] - rt.energy - dissipated)) < 1e-4 * rt.energy[0]
