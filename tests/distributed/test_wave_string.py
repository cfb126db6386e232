"""String / rod / wave: natural frequencies against closed forms, at the method's order."""

import numpy as np
import pytest
from scipy.optimize import brentq

from porthamiltonian import feedback, simulate
from porthamiltonian.distributed import rod, string, wave

L, RHO, T = 1.7, 0.8, 5.0
C = np.sqrt(T / RHO)


def fitted_order(errors, elements):
    """Least-squares slope of log(error) against log(1/N)."""
    return -np.polyfit(np.log(elements), np.log(errors), 1)[0]


@pytest.mark.parametrize("k", [1, 2, 3])
def test_clamped_clamped_frequencies_converge_at_order_2k(k):
    Ns = [8, 16, 32] if k < 3 else [4, 8, 16]
    exact = np.arange(1, 4) * np.pi * C / L
    errs = [np.abs(string(L, RHO, T, elements=N, degree=k).frequencies(3)[2] - exact[2])
            / exact[2] for N in Ns]
    assert fitted_order(errs, Ns) == pytest.approx(2 * k, abs=0.25)
    fine = string(L, RHO, T, elements=16, degree=k).frequencies(3)
    assert np.allclose(fine, exact, rtol={1: 2e-2, 2: 1e-4, 3: 1e-6}[k])


@pytest.mark.parametrize(("left", "right", "exact"), [
    ("clamped", "free", (2 * np.arange(1, 5) - 1) * np.pi * C / (2 * L)),
    ("free", "clamped", (2 * np.arange(1, 5) - 1) * np.pi * C / (2 * L)),
    ("free", "free", np.arange(0, 4) * np.pi * C / L),
    ("clamped", "force", (2 * np.arange(1, 5) - 1) * np.pi * C / (2 * L)),  # open port = free
    ("clamped", "velocity", np.arange(1, 5) * np.pi * C / L),              # open port = fixed
    ("velocity", "free", (2 * np.arange(1, 5) - 1) * np.pi * C / (2 * L)),
    ("force", "velocity", (2 * np.arange(1, 5) - 1) * np.pi * C / (2 * L)),
])
def test_boundary_choices_give_their_boundary_conditions(left, right, exact):
    m = string(L, RHO, T, elements=24, degree=3, left=left, right=right)
    assert np.allclose(m.frequencies(4), exact, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("k", [1, 2])
def test_mixed_force_velocity_ends_converge_at_order_2k(k):
    # force port at the left, velocity port at the right: a primal and a dual part joined
    # at the middle; unforced that is free–fixed: (2n − 1)πc/2L
    exact = (2 * np.arange(1, 4) - 1) * np.pi * C / (2 * L)
    Ns = [8, 16, 32]
    errs = []
    for N in Ns:
        m = string(L, RHO, T, elements=N, degree=k, left="force", right="velocity")
        assert m.disc.partition == "split"
        errs.append(np.max(np.abs(m.frequencies(3) - exact) / exact))
    assert fitted_order(errs, Ns) == pytest.approx(2 * k, abs=0.3)


@pytest.mark.parametrize("k", [1, 2])
def test_conical_rod_frequencies_with_varying_section(k):
    # EA = E A0 (1+βs)², ρA = ρ A0 (1+βs)²: u = y/(1+βs) with y'' + (ω/c)² y = 0, so a
    # clamped–free rod has tan(κL) = κ(1+βL)/β, κ = ω/c (a textbook horn solution)
    E, rho, A0, beta = 70e9, 2700.0, 1e-4, 1.5
    c = np.sqrt(E / rho)

    def char(kap):
        return beta * np.sin(kap * L) - kap * (1 + beta * L) * np.cos(kap * L)

    exact = c * np.array([brentq(char, max(n * np.pi, 1e-9) / L, (n + 0.5) * np.pi / L)
                          for n in range(3)])
    Ns = [8, 16, 32]
    errs = []
    for N in Ns:
        m = rod(L, lambda s: rho * A0 * (1 + beta * s) ** 2, lambda s: E * A0 * (1 + beta * s) ** 2,
                elements=N, degree=k, left="clamped", right="free")
        errs.append(np.max(np.abs(m.frequencies(3) - exact) / exact))
    assert errs[-1] < (3e-3 if k == 1 else 1e-6)
    assert fitted_order(errs, Ns) == pytest.approx(2 * k, abs=0.3)
    uniform = rod(L, rho * A0, E * A0, elements=16, degree=k, left="clamped", right="free")
    assert abs(uniform.frequencies(1)[0] - exact[0]) > 0.05 * exact[0]  # the taper matters


def test_damping_rates_match_the_modal_closed_form():
    # ρ ẅ = T w'' + η ẇ'' − d ẇ on a clamped string: per mode κ_n = nπ/L,
    # λ² + (d + η κ_n²)/ρ λ + T κ_n²/ρ = 0
    d, eta = 0.3, 0.002
    m = wave(L, RHO, T, elements=16, degree=3, damping=d, structural_damping=eta)
    A = m.system.compile().A.toarray()
    lam = np.linalg.eigvals(A)
    lam = lam[np.abs(lam) > 1e-8]
    for n in (1, 2, 3):
        kap = n * np.pi / L
        b, c0 = (d + eta * kap**2) / RHO, T * kap**2 / RHO
        exact = -b / 2 + 1j * np.sqrt(c0 - b**2 / 4)
        assert np.min(np.abs(lam - exact)) < 1e-6 * abs(exact)


def test_rigid_translation_with_a_velocity_port_is_stationary():
    # string moving as a rigid body at v0, free at the left, driven at v0 on the right:
    # no strain, constant momentum, and the actuator force is zero
    v0 = 0.7
    for left in ("free", "force"):
        m = string(L, lambda s: 1 + s, T, elements=5, degree=2, left=left, right="velocity")
        sys = m.system
        x = np.zeros(sys.n_states)
        moving = m.disc.momentum_states          # x_p = m_p v with m_p = 1/Q_pp
        x[moving] = v0 / sys.Q.diagonal()[moving]
        u = np.zeros(sys.n_inputs)
        u[sys.inputs.index("v_right")] = v0
        assert np.allclose(sys.rhs(x, u), 0.0, atol=1e-13)
        assert np.allclose(sys.output(x, u), [v0, 0.0][: sys.n_inputs] if left == "force"
                           else [0.0], atol=1e-13)
        assert np.allclose(m.field("v", x, np.linspace(0, L, 5), u), v0)


def test_two_strings_joined_at_a_port_are_one_string():
    # force port of string 1 (right) ↔ velocity port of string 2 (left): u1 = −y2, u2 = y1;
    # the joined system vibrates like one clamped string of length L1 + L2
    L1, L2 = 0.7, 1.0
    s1 = string(L1, RHO, T, elements=8, degree=3, right="force").system.rename(prefix="a.")
    s2 = string(L2, RHO, T, elements=10, degree=3, left="velocity").system.rename(prefix="b.")
    joined = feedback(s1, s2, [("a.F_right", "b.v_left")])
    assert joined.n_inputs == 0
    lam = np.linalg.eigvals(joined.compile().A.toarray())
    omega = np.sort(np.abs(lam.imag[lam.imag > 1e-9]))[:3]
    assert np.allclose(omega, np.arange(1, 4) * np.pi * C / (L1 + L2), rtol=1e-7)


def test_shape_integrates_the_strain_from_the_fixed_end():
    # static string clamped at 0, pulled by a force F at the free end: ε = F/T, w = F s/T
    F = 2.0
    for right, left in (("force", "clamped"), ("clamped", "force")):
        m = string(L, RHO, lambda s: T * (1 + s), elements=6, degree=2, left=left, right=right)
        sys = m.system
        A, B = sys.compile().A.toarray(), sys.compile().B.toarray()
        x = np.linalg.lstsq(A, -B @ np.array([F]), rcond=None)[0]
        assert np.allclose(A @ x + B @ [F], 0, atol=1e-10)
        s, w = m.shape(x)
        # w(s) = ∫ F/(T(1+t)) dt from the clamped end (force on the body at the free end)
        if left == "clamped":
            exact = F / T * np.log1p(s)
        else:
            exact = F / T * (np.log1p(L) - np.log1p(s))  # N = −F: force on the body at 0
        assert np.allclose(w, exact, rtol=2e-4, atol=1e-12)


def test_simulated_string_conserves_energy_and_reconstructs_the_wave():
    # plucked clamped string, exact d'Alembert solution of the first mode
    m = string(L, RHO, T, elements=20, degree=3)
    sys = m.system
    kap = np.pi / L
    # initial velocity v = sin(κ s): the co-energy p = ρ v at nodes, x_p = M_p e_p
    x0 = np.zeros(sys.n_states)
    idx = [i for i, n in enumerate(sys.states) if n.startswith("p[")]
    x0[idx] = m.disc.mp[m.disc.kept] * np.sin(kap * m.disc.h1.coords[m.disc.kept])
    period = 2 * np.pi / (kap * C)
    res = simulate(sys, (0, period / 4), x0, dt=period / 4000)
    assert abs(res.H[-1] - res.H[0]) <= 1e-12 * res.H[0]
    s = np.linspace(0, L, 9)
    v_end = m.field("v", res.x[-1], s)
    assert np.allclose(v_end, 0.0, atol=2e-5)  # a quarter period later: all strain
    F_end = m.field("F", res.x[-1], s)
    # ε = ∂s w with w = sin(κs) sin(ωt)/ω → F = T κ cos(κ s)/ω at t = T/4
    # (the force has degree k − 1 = 2: pointwise error O(h³))
    assert np.allclose(F_end, T * kap * np.cos(kap * s) / (kap * C), atol=2e-4)
