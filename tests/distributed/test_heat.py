"""Heat conduction: decay rates, first law (exact), second law (entropy production ≥ 0)."""

import numpy as np
import pytest

from porthamiltonian import ModelError, simulate
from porthamiltonian.distributed import heat

L, CAP, LAM = 0.5, 3.0e3, 20.0        # 0.5 m, c = 3 kJ/(K·m), λ = 20 W·m/K
ALPHA = LAM / CAP                      # diffusivity (m²/s)


@pytest.mark.parametrize("k", [1, 2])
@pytest.mark.parametrize(("ends", "first"), [("insulated", 0), ("zero", 1)])
def test_decay_rates_converge_to_alpha_n_pi_over_L_squared(k, ends, first):
    n = np.arange(first, first + 3)
    exact = ALPHA * (n * np.pi / L) ** 2
    Ns = [8, 16, 32]
    errs = []
    for N in Ns:
        rates = heat(L, CAP, LAM, elements=N, degree=k, left=ends, right=ends).decay_rates(3)
        errs.append(np.max(np.abs(rates - exact)[n > 0] / exact[n > 0]))
        if first == 0:  # a uniform temperature does not decay
            assert abs(rates[0]) <= 1e-9 * exact[-1]
    order = -np.polyfit(np.log(Ns), np.log(errs), 1)[0]
    assert order == pytest.approx(2 * k, abs=0.25)


def test_first_law_exact_in_simulation():
    # heat flow q(t) in at the left, insulated right: U(t) − U(0) = ∫ q dt, step by step
    model = heat(L, CAP, lambda s: LAM * (1 + s), elements=10, degree=2, left="flux")
    sys = model.system
    x0 = model.disc.mp * (300 + 20 * np.cos(np.pi * model.disc.h1.coords / L))
    res = simulate(sys, (0, 50.0), x0, u=lambda t: 40 * np.sin(0.3 * t) ** 2, dt=0.05)
    U = model.internal_energy(res.x)
    # midpoint: the input is sampled at the step midpoints
    t_mid = 0.5 * (res.t[1:] + res.t[:-1])
    supplied = 0.05 * 40 * np.sin(0.3 * t_mid) ** 2
    assert np.allclose(np.diff(U), supplied, rtol=1e-10, atol=1e-9 * U[0] * 1e-3)


def test_second_law_and_equilibration():
    # insulated rod, absolute temperatures: U constant, S non-decreasing (degree 1: the
    # discrete entropy production Σ_e λ/h (1/T_a − 1/T_b)(T_b − T_a) is ≥ 0), and the
    # rod ends at the mean temperature
    model = heat(L, CAP, LAM, elements=12, degree=1)
    T0 = 300 + 80 * (model.disc.h1.coords > L / 3)
    x0 = model.disc.mp * T0
    res = simulate(model.system, (0, 3000.0), x0, dt=5.0)
    U, S = model.internal_energy(res.x), model.entropy(res.x)
    assert np.max(np.abs(np.diff(U))) <= 1e-14 * U[0] * 10  # round-off per step
    assert np.allclose(U, U[0], rtol=1e-11)
    assert np.all(np.diff(S) >= -1e-12 * abs(S[0]))
    assert S[-1] - S[0] > 1.0  # J/K: a real production
    T_end = model.field("T", res.x[-1], np.linspace(0, L, 5))
    T_mean = U[0] / (CAP * L)
    assert np.allclose(T_end, T_mean, rtol=1e-6)
    with pytest.raises(ModelError, match="T > 0"):
        model.entropy(-x0)


def test_temperature_ports_give_fouriers_law():
    # both ends at imposed temperatures: steady heat flow λ(T1 − T2)/L in at the left
    model = heat(L, CAP, LAM, elements=7, degree=3, left="temperature", right="temperature")
    sys = model.system
    assert sys.inputs == ("T_left", "T_right") and sys.outputs == ("q_left", "q_right")
    num = sys.compile()
    u = np.array([350.0, 290.0])
    x = np.linalg.solve(num.A.toarray(), -num.B.toarray() @ u)
    q = sys.output(x, u)
    assert np.allclose(q, [LAM * 60 / L, -LAM * 60 / L], rtol=1e-10)
    s = np.linspace(0, L, 6)
    assert np.allclose(model.field("T", x, s, u), 350 - 60 * s / L, rtol=1e-12)


def test_heat_has_no_oscillation_modes():
    with pytest.raises(ModelError, match="decay_rates"):
        heat(L, CAP, LAM, elements=3).frequencies(2)
