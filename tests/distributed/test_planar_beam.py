"""Geometrically exact planar beam: structure, energy, small-deformation limit, elastica."""

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.optimize import brentq

from porthamiltonian import ModelError, simulate
from porthamiltonian.distributed import planar_beam, rod, timoshenko

L, b, h = 1.0, 0.05, 0.05
E, rho, kappa = 2e9, 1000.0, 5 / 6
A, I = b * h, b * h**3 / 12
RA, RI, EA, EI, KGA = rho * A, rho * I, E * A, E * I, kappa * E / 2.6 * A


def test_linearization_is_the_rod_plus_the_timoshenko_beam():
    # Golo et al. 2003, §3: for small deformations the modulated terms vanish and the
    # beam splits into the rod (ε, v₁) and the Timoshenko beam (γ, κ, v₂, ω)
    beam = planar_beam(L, RA, RI, EA, EI, KGA, elements=5, degree=1, symbolic=True)
    lin = beam.system.linearize(np.zeros(beam.system.n_states))
    lam = np.sort(np.abs(np.linalg.eigvals(np.asarray(lin.compile().A)).imag))
    parts = [rod(L, RA, EA, elements=5, right="free"),
             timoshenko(L, RA, RI, EI, KGA, elements=5)]
    ref = np.sort(np.concatenate([np.abs(np.linalg.eigvals(p.system.compile().A.toarray()).imag)
                                  for p in parts]))
    assert np.max(np.abs(lam - ref)) <= 1e-12 * ref.max()
    assert np.allclose(beam.frequencies(3),
                       np.sort(np.concatenate([p.frequencies(3) for p in parts]))[:3])


def test_structure_is_skew_for_every_state_and_energy_is_conserved_in_a_large_swing():
    beam = planar_beam(L, RA, RI, EA, EI, KGA, elements=5, degree=1, symbolic=True)
    sys = beam.system
    rng = np.random.default_rng(0)
    x = rng.normal(size=sys.n_states)
    Jx = sys.compile().matrix("J", x)
    assert np.max(np.abs(Jx + Jx.T)) == 0.0
    assert np.max(np.abs(Jx - sys.linearize(np.zeros(sys.n_states)).J)) > 0.1  # modulated
    # cantilever thrown sideways: v₂(s) = 50 (s/L)² m/s; the tip turns by ~0.9 rad
    x0 = np.zeros(sys.n_states)
    moving = [i for i, s in enumerate(sys.states) if s.startswith("p2[")]
    coords = beam.disc.h1.coords[[int(sys.states[i][3:-1]) for i in moving]]
    x0[moving] = 50 * (coords / L) ** 2 / beam.linear.Q.diagonal()[moving]  # x_p = m_p v
    res = simulate(sys, (0, 0.02), x0, dt=2e-4)
    assert np.max(np.abs(res.H - res.H[0])) <= 1e-10 * res.H[0]
    _, _, theta = beam.shape(res.x[-1])
    assert theta[-1] > 0.8
    # the nonlinear motion really differs from the linearized one
    lin = simulate(sys.linearize(np.zeros(sys.n_states)), (0, 0.02), x0, dt=2e-4)
    diff = np.linalg.norm(res.x[-1] - lin.x[-1]) / np.linalg.norm(lin.x[-1])
    assert diff > 0.05


def elastica(alpha):
    """Tip rotation and position of an inextensible cantilever under a dead tip load.

    EI θ'' = −P cos θ with θ(0) = 0, θ'(L) = 0:  L √(2P/EI) = ∫₀^φ dθ/√(sin φ − sin θ),
    x_tip = √(2 EI sin φ / P), y_tip = √(EI/2P) ∫₀^φ sin θ dθ/√(sin φ − sin θ).
    """
    P = alpha * EI / L**2

    def g(th, phi):
        d = phi - th
        return 1 / np.sqrt(np.cos(phi)) if d < 1e-9 else np.sqrt(d / (np.sin(phi) - np.sin(th)))

    def integral(f, phi):
        return quad(f, 0, phi, weight="alg", wvar=(0, -0.5))[0]

    phi = brentq(lambda p: np.sqrt(EI / (2 * P)) * integral(lambda t: g(t, p), p) - L,
                 1e-6, 1.5)
    y = np.sqrt(EI / (2 * P)) * integral(lambda t: np.sin(t) * g(t, phi), phi)
    return P, phi, np.sqrt(2 * EI * np.sin(phi) / P), y


def test_large_static_deflection_matches_the_elastica():
    # nearly inextensible, shear-rigid beam (EA, κGA × 1000) under a vertical dead load
    # PL²/EI = 3 at the tip: the body-frame tip force (P sin θ_L, P cos θ_L) follows
    # the computed tip rotation θ_L = ∫κ
    P, phi, x_tip, y_tip = elastica(3.0)
    errors = []
    for N in (4, 8):
        beam = planar_beam(L, RA, RI, 1e3 * EA, EI, 1e3 * KGA, elements=N, degree=1,
                           right="port", symbolic=True)
        sys = beam.system
        n, p = sys.n_states, beam.disc.momentum_states
        q = np.setdiff1d(np.arange(n), p)
        kap = np.arange(2 * beam.disc.l2.size, 3 * beam.disc.l2.size)
        G = np.array(sys.G.tolist(), dtype=float)
        x = np.zeros(n)
        for _ in range(30):  # Newton on the momentum rows: 0 = −D(x)ᵀ e_q + G u(x)
            th = x[kap].sum()
            u = np.array([P * np.sin(th), P * np.cos(th), 0.0])
            F = sys.rhs(x, u)[p]
            Jac = np.asarray(sys.jacobian(x, u))[np.ix_(p, q)]
            # ẋ is affine in u with the constant G; u depends on θ_L = Σ x_κ
            dudth = np.array([P * np.cos(th), -P * np.sin(th), 0.0])
            Jac[:, np.searchsorted(q, kap)] += (G @ dudth)[p][:, None]
            dx = np.linalg.solve(Jac, -F)
            x[q] += dx
            if np.max(np.abs(dx)) < 1e-14:
                break
        r1, r2, theta = beam.shape(x)
        errors.append(abs(theta[-1] - phi))
        position_error = np.hypot(r1[-1] - x_tip, r2[-1] - y_tip)
    assert theta[-1] == pytest.approx(0.986, abs=0.01)  # a large rotation: 56°
    assert errors[-1] < 2e-3 and position_error < 3e-3
    assert errors[0] / errors[1] == pytest.approx(4.0, rel=0.2)  # second order


def test_planar_beam_refuses_large_meshes_and_unknown_ends():
    with pytest.raises(ModelError, match="at most"):
        planar_beam(L, RA, RI, EA, EI, KGA, elements=100, symbolic=True)
    with pytest.raises(ModelError, match="sliding"):
        planar_beam(L, RA, RI, EA, EI, KGA, left="sliding")
