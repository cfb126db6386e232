"""Timoshenko beam: frequencies against the exact characteristic equation, statics, ports.

The exact frequencies come from the general solution written as a transfer matrix:
with y = (w, θ, F, M) the equations of harmonic motion are
w' = θ + F/κGA, θ' = M/EI, F' = −ρA ω² w, M' = −ρI ω² θ − F, so y(L) = e^{A(ω)L} y(0),
and each pair of end conditions gives a 2×2 determinant of that matrix (equivalent to
the 4×4 determinant of the general solution; its exponents λ solve
κGA·EI·λ⁴ + (κGA·ρI + ρA·EI)ω²λ² + ρAω²(ρIω² − κGA) = 0).
"""

import numpy as np
import pytest
from scipy.linalg import expm
from scipy.optimize import brentq

from porthamiltonian import PHS, feedback
from porthamiltonian.distributed import timoshenko

# a stocky steel beam (L/h = 10) so that shear and rotary inertia matter
L, b, h = 1.0, 0.05, 0.1
E, nu, rho, kappa = 210e9, 0.3, 7850.0, 5 / 6
A, I = b * h, b * h**3 / 12
RA, RI, EI, KGA = rho * A, rho * I, E * I, kappa * E / (2 * (1 + nu)) * A

def transfer(omega):
    Amat = np.array([[0, 1, 1 / KGA, 0], [0, 0, 0, 1 / EI],
                     [-RA * omega**2, 0, 0, 0], [0, -RI * omega**2, -1, 0]])
    return expm(Amat * L)


def char(kind, m_tip=0.0):
    def f(omega):
        P = transfer(omega)
        if kind == "clamped-free":      # y(0) = (0, 0, F0, M0); F(L) = M(L) = 0
            return np.linalg.det(P[2:4, 2:4])
        if kind == "clamped-clamped":   # w(L) = θ(L) = 0
            return np.linalg.det(P[0:2, 2:4])
        if kind == "pinned-pinned":     # y(0) = (0, θ0, F0, 0); w(L) = M(L) = 0
            return np.linalg.det(P[np.ix_([0, 3], [1, 2])])
        # clamped with a tip mass: F(L) = m ω² w(L) (the mass's inertia force), M(L) = 0
        rows = np.vstack([P[2] - m_tip * omega**2 * P[0], P[3]])
        return np.linalg.det(rows[:, 2:4])
    return f


def roots(f, n, w_max=3e4):
    grid = np.linspace(1.0, w_max, 6000)
    vals = np.array([f(w) for w in grid])
    brackets = np.nonzero(np.sign(vals[:-1]) != np.sign(vals[1:]))[0]
    out = [brentq(f, grid[i], grid[i + 1]) for i in brackets]
    assert len(out) >= n
    return np.array(out[:n])


def test_pinned_pinned_characteristic_function_matches_the_dispersion_relation():
    # w = sin(αs), α = nπ/L: the polynomial in r = −α² gives ρAρI ω⁴ −
    # (κGA ρI α² + ρA EI α² + ρA κGA) ω² + κGA EI α⁴ = 0; the lower root is mode n
    exact = []
    for n in (1, 2, 3):
        a = n * np.pi / L
        coef = [RA * RI, -(KGA * RI * a**2 + RA * EI * a**2 + RA * KGA), KGA * EI * a**4]
        exact.append(np.sqrt(np.min(np.roots(coef))))
    assert np.allclose(roots(char("pinned-pinned"), 3), exact, rtol=1e-9)


@pytest.mark.parametrize("ends", ["clamped-free", "clamped-clamped", "pinned-pinned"])
@pytest.mark.parametrize("k", [1, 2])
def test_frequencies_converge_at_the_method_order(ends, k):
    exact = roots(char(ends), 3)
    left, right = ends.split("-")
    Ns = [8, 16, 32]
    errs = []
    for N in Ns:
        beam = timoshenko(L, RA, RI, EI, KGA, elements=N, degree=k, left=left, right=right)
        errs.append(np.max(np.abs(beam.frequencies(3) - exact) / exact))
    order = -np.polyfit(np.log(Ns), np.log(errs), 1)[0]
    assert order == pytest.approx(2 * k, abs=0.3)
    assert errs[-1] < (5e-3 if k == 1 else 2e-5)


def test_no_shear_locking_for_a_slender_beam():
    # L/h = 1000 with 10 linear elements: close to Euler–Bernoulli 1.8751² √(EI/ρA)/L²
    hs = L / 1000
    As, Is = b * hs, b * hs**3 / 12
    beam = timoshenko(L, rho * As, rho * Is, E * Is, kappa * E / 2.6 * As, elements=10)
    eb = 1.875104068711961**2 * np.sqrt(E * Is / (rho * As)) / L**2
    assert beam.frequencies(1)[0] == pytest.approx(eb, rel=2e-2)


@pytest.mark.parametrize("k", [1, 2])
def test_static_tip_load(k):
    # cantilever with a tip force P: w(L) = PL³/3EI + PL/κGA, θ(L) = PL²/2EI
    P = 1e4
    errs = []
    for N in (4, 8):
        beam = timoshenko(L, RA, RI, EI, KGA, elements=N, degree=k, right="port")
        num = beam.system.compile()
        u = np.array([P, 0.0])  # F_right, M_right
        x = np.linalg.solve(num.A.toarray(), -num.B.toarray() @ u)
        s, w, theta = beam.shape(x)
        assert s[-1] == L and w[0] == 0 and theta[0] == 0
        exact = P * L**3 / (3 * EI) + P * L / KGA
        errs.append(abs(w[-1] - exact) / exact)
        assert theta[-1] == pytest.approx(P * L**2 / (2 * EI), rel=1e-10)
        assert np.allclose(beam.field("F", x, np.linspace(0, L, 7)), P, rtol=1e-10)
        assert np.allclose(beam.field("M", x, [L]), 0.0, atol=1e-9 * P * L) or k == 1
    if k == 1:  # the moment is piecewise constant: second order in the deflection
        assert errs[1] < errs[0] / 3.5 and errs[1] < 1e-2
    else:       # the moment is linear and exact: so is the deflection
        assert max(errs) < 1e-12


def test_tip_mass_through_a_port_interconnection():
    # clamped beam whose tip drives a rigid mass (PHS: ṗ = F, v = p/m): u_mass = −F_beam,
    # v_right = v_mass; the joined frequencies solve the tip-mass characteristic equation
    m_tip = 2 * RA * L
    exact = roots(char("tip", m_tip), 3)
    beam = timoshenko(L, RA, RI, EI, KGA, elements=24, degree=2, left="clamped",
                      right=("velocity", "free"))
    assert beam.disc.partition == "dual"
    mass = PHS(Q=[[1 / m_tip]], G=[[1.0]], states=["p_tip"], inputs=["F_tip"],
               outputs=["v_tip"])
    joined = feedback(mass, beam.system, [("F_tip", "v_right")])
    lam = np.linalg.eigvals(joined.compile().A.toarray())
    omega = np.sort(lam.imag[lam.imag > 1e-6])[:3]
    assert np.allclose(omega, exact, rtol=2e-5)  # the accuracy of the bare beam
    bare = timoshenko(L, RA, RI, EI, KGA, elements=24, degree=2).frequencies(1)
    assert omega[0] < 0.7 * bare[0]  # the mass lowers the first frequency


def test_hub_torque_with_a_propped_tip_split_partition():
    # torque M0 on a hub (w = 0, rotation driven: a force port) and a tip held by a
    # velocity port at rest (w = 0, M = 0): a primal and a dual part joined at the middle.
    # Statics: F = −M0/L, M(s) = −M0 (1 − s/L); relative to the hub tangent
    # θ(L) = −M0 L/2EI and w(L) = −M0 L²/3EI − M0/κGA (exact for k = 2)
    M0 = 500.0
    beam = timoshenko(L, RA, RI, EI, KGA, elements=6, degree=2, left=("fixed", "force"),
                      right=("velocity", "free"))
    sys = beam.system
    assert beam.disc.partition == "split"
    num = sys.compile()
    u = np.zeros(sys.n_inputs)
    u[sys.inputs.index("M_left")] = M0
    A_, B_ = num.A.toarray(), num.B.toarray()
    x = np.linalg.lstsq(A_, -B_ @ u, rcond=None)[0]
    assert np.allclose(A_ @ x + B_ @ u, 0.0, atol=1e-9 * M0)
    s = np.linspace(0, L, 9)
    assert np.allclose(beam.field("M", x, s), -M0 * (1 - s / L), atol=1e-9 * M0)
    assert np.allclose(beam.field("F", x, s), -M0 / L, rtol=1e-9)
    _, w, theta = beam.shape(x)
    assert theta[-1] == pytest.approx(-M0 * L / (2 * EI), rel=1e-9)
    assert w[-1] == pytest.approx(-M0 * L**2 / (3 * EI) - M0 / KGA, rel=1e-9)
    # the output of the tip's velocity port is the support's force on the beam, F(L)
    y = sys.output(x, u)
    assert y[sys.outputs.index("F_right")] == pytest.approx(-M0 / L, rel=1e-9)
