"""Numeric (sparse, affine J(x)) planar beam: agreement with the symbolic model, exact
energy conservation at scale, the small-deformation limit and closed-form statics."""

import numpy as np
import pytest
import scipy.sparse as sps
import scipy.sparse.linalg as spla

from porthamiltonian import ModelError, simulate
from porthamiltonian.distributed import planar_beam

L, b, h = 1.0, 0.05, 0.05
E, rho, kappa = 2e9, 1000.0, 5 / 6
A, I = b * h, b * h**3 / 12
RA, RI, EA, EI, KGA = rho * A, rho * I, E * A, E * I, kappa * E / 2.6 * A
ARGS = (L, RA, RI, EA, EI, KGA)


def _dense(M):
    return M.toarray() if sps.issparse(M) else np.asarray(M, dtype=float)


@pytest.mark.parametrize("ends", [("clamped", "free"), ("hub", "port"),
                                  ("pinned", "velocity"), ("port", "clamped")])
def test_numeric_and_symbolic_models_are_the_same_system(ends):
    kw = dict(elements=3, degree=2, left=ends[0], right=ends[1])
    num = planar_beam(*ARGS, **kw).system
    sym = planar_beam(*ARGS, symbolic=True, **kw).system
    assert num.states == sym.states and num.inputs == sym.inputs
    cn, cs = num.compile(), sym.compile()
    rng = np.random.default_rng(3)
    for _ in range(3):
        x, u = rng.normal(size=num.n_states), rng.normal(size=num.n_inputs)
        Jn = _dense(cn.matrix("J", x))
        assert np.max(np.abs(Jn + Jn.T)) == 0.0  # skew for every state
        assert np.allclose(Jn, cs.matrix("J", x), rtol=0, atol=1e-13)
        assert np.allclose(_dense(cn.matrix("G", x)), cs.matrix("G", x), rtol=0, atol=1e-13)
        assert np.allclose(cn.gradient(x), cs.gradient(x), rtol=1e-14)
        scale = np.max(np.abs(cs.jacobian(x, u)))
        assert np.max(np.abs(_dense(cn.jacobian(x, u)) - cs.jacobian(x, u))) <= 1e-14 * scale


def test_sparse_jacobian_matches_difference_quotients_of_the_right_hand_side():
    beam = planar_beam(*ARGS, elements=3, degree=2, left="hub", right="port")
    num = beam.system.compile()
    rng = np.random.default_rng(4)
    x, u = rng.normal(size=num.n) * 1e-3, rng.normal(size=num.m)
    Jac = _dense(num.jacobian(x, u))
    for j in range(num.n):
        e = np.zeros(num.n)
        e[j] = 1e-7
        fd = (num.rhs(x + e, u) - num.rhs(x - e, u)) / 2e-7
        assert np.allclose(Jac[:, j], fd, rtol=1e-6, atol=1e-6 * np.max(np.abs(Jac)))


def test_driven_trajectories_of_numeric_and_symbolic_models_agree():
    kw = dict(elements=4, degree=1, left="hub", right="free")
    u = {"omega_left": lambda t: 200.0 * np.sin(300.0 * t)}
    runs = [simulate(planar_beam(*ARGS, symbolic=s, **kw).system, (0, 0.01), u=u, dt=5e-4)
            for s in (False, True)]
    scale = np.max(np.abs(runs[1].x))
    assert np.max(np.abs(runs[0].x - runs[1].x)) <= 1e-9 * scale
    assert np.max(np.abs(runs[0].y - runs[1].y)) <= 1e-9 * np.max(np.abs(runs[1].y))


def throw(beam, v_tip=50.0):
    """The cantilever thrown sideways: v₂(s) = v_tip (s/L)²."""
    sys = beam.system
    x0 = np.zeros(sys.n_states)
    moving = [i for i, s in enumerate(sys.states) if s.startswith("p2[")]
    s = beam.disc.h1.coords[[int(sys.states[i][3:-1]) for i in moving]]
    x0[moving] = v_tip * (s / L) ** 2 / beam.Q.diagonal()[moving]  # x_p = m_p v
    return x0


def test_energy_is_conserved_through_a_large_free_swing_of_a_fine_mesh():
    beam = planar_beam(*ARGS, elements=200, degree=1)
    x0 = throw(beam)
    res = simulate(beam.system, (0, 0.02), x0, dt=2e-4)
    assert np.max(np.abs(res.H - res.H[0])) <= 1e-10 * res.H[0]
    _, _, theta = beam.shape(res.x)
    assert np.max(theta[:, -1]) > 0.8  # the tip turns by more than 45°
    lin = simulate(beam.linear, (0, 0.02), x0, dt=2e-4)
    assert np.linalg.norm(res.x[-1] - lin.x[-1]) > 0.05 * np.linalg.norm(lin.x[-1])


def test_linearization_about_the_straight_beam_has_the_rod_and_timoshenko_frequencies():
    # pinned–pinned: rod ω = nπc/L (fixed ends), Timoshenko ω from the dispersion relation
    # ρAρI ω⁴ − (κGA ρI α² + ρA EI α² + ρA κGA) ω² + κGA EI α⁴ = 0, α = nπ/L (lower root)
    beam = planar_beam(*ARGS, elements=500, degree=2, left="pinned", right="pinned")
    A0 = beam.system.compile().jacobian(np.zeros(beam.system.n_states), np.zeros(0))
    lam = spla.eigs(sps.csc_array(A0), k=16, sigma=1.0, v0=np.ones(A0.shape[0]),
                    return_eigenvectors=False)
    w = np.unique(np.round(np.abs(lam.imag), 6))
    w = w[w > 1.0][:5]  # zero: the Casimir of the fixed–fixed rod (a static axial pre-strain)
    rod = [n * np.pi / L * np.sqrt(EA / RA) for n in (1, 2)]
    tim = []
    for n in (1, 2, 3, 4):
        a = n * np.pi / L
        coef = [RA * RI, -(KGA * RI * a**2 + RA * EI * a**2 + RA * KGA), KGA * EI * a**4]
        tim.append(np.sqrt(np.min(np.roots(coef))))
    exact = np.sort(np.concatenate([rod, tim]))[:5]
    assert np.allclose(w, exact, rtol=1e-8)


def test_end_moment_bends_the_beam_into_a_half_circle():
    # pure bending: κ = M/EI (N = Q = 0 in the body frame), θ(L) = ML/EI; with ML/EI = π
    # the tip is at (0, 2EI/M) = (0, 2L/π); the centre-line integration of the shape is
    # second order in the element size
    M = np.pi * EI / L
    errors = []
    for N in (16, 32):
        beam = planar_beam(*ARGS, elements=N, degree=1, right="port")
        x = beam.equilibrium({"M_right": M}, steps=4)
        r1, r2, theta = beam.shape(x)
        assert theta[-1] == pytest.approx(np.pi, rel=1e-12)
        kap = np.arange(2 * N, 3 * N)
        assert np.allclose(x[kap] / beam.mesh.sizes, M / EI, rtol=1e-12)
        errors.append(np.hypot(r1[-1], r2[-1] - 2 * L / np.pi))
    assert errors[1] < 1e-3 * L
    assert errors[0] / errors[1] == pytest.approx(4.0, rel=0.05)


def test_statics_and_ends_refuse_what_they_cannot_do():
    with pytest.raises(ModelError, match="one body-frame translation"):
        planar_beam(*ARGS, left=("fixed", "free", "fixed"))
    with pytest.raises(ModelError, match="sliding"):
        planar_beam(*ARGS, left="sliding")
    with pytest.raises(ModelError, match="right='port'"):
        planar_beam(*ARGS).equilibrium(tip_force=(0, 1.0))
    with pytest.raises(ModelError, match="hold the beam"):
        planar_beam(*ARGS, left="free", right="port").equilibrium({"M_right": 1.0})
    with pytest.raises(ModelError, match="unknown input"):
        planar_beam(*ARGS, right="port").equilibrium({"M_left": 1.0})
