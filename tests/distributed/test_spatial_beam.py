"""Geometrically exact 3-D beam: skew structure, the straight-beam linearization (rod,
torsion, Timoshenko in both planes), exact energy conservation in a large 3-D motion,
the planar beam as its in-plane special case, the discrete power balance at a driven
end, curved references (helix kinematics, quarter-ring statics by Castigliano), errors."""

import numpy as np
import pytest
import scipy.sparse as sps
import scipy.sparse.linalg as spla

from porthamiltonian import ModelError, simulate
from porthamiltonian.distributed import planar_beam, rod, timoshenko
from porthamiltonian.distributed.spatial_beam import spatial_beam
from porthamiltonian.mechanics.lie import exp_se3

# a soft rectangular section (b along axis 2, c along axis 3) so that large motions are cheap
L, b, c = 1.0, 0.05, 0.03
E, G, rho, k_s = 2e9, 2e9 / 2.6, 1000.0, 5 / 6
A = b * c
I2, I3 = b * c**3 / 12, c * b**3 / 12   # about axis 2 (bends toward 3), about axis 3
RA, RI2, RI3, EA = rho * A, rho * I2, rho * I3, E * A
EI2, EI3, GA2, GA3 = E * I2, E * I3, k_s * G * A, 0.9 * k_s * G * A
GJ, RJ = 0.7 * G * (I2 + I3), rho * (I2 + I3)
ARGS = (L, RA, (RI2, RI3), EA, (EI2, EI3), (GA2, GA3), GJ)


def _dense(M):
    return M.toarray() if sps.issparse(M) else np.asarray(M, dtype=float)


def test_structure_is_skew_and_the_sparse_jacobian_matches_difference_quotients():
    beam = spatial_beam(*ARGS, elements=3, degree=2, left="velocity", right="port",
                        curvature=(0.3, lambda s: 0.5 * s, -0.2))
    num = beam.system.compile()
    rng = np.random.default_rng(4)
    x, u = rng.normal(size=num.n) * 1e-3, rng.normal(size=num.m)
    Jx = _dense(num.matrix("J", x))
    assert np.max(np.abs(Jx + Jx.T)) == 0.0
    Jac = _dense(num.jacobian(x, u))
    h = 1e-7
    quotients = np.column_stack([(num.rhs(x + h * e, u) - num.rhs(x - h * e, u)) / (2 * h)
                                 for e in np.eye(num.n)])
    assert np.allclose(Jac, quotients, rtol=1e-6, atol=1e-6 * np.max(np.abs(Jac)))


def test_straight_clamped_free_linearization_is_rod_torsion_and_two_timoshenko_beams():
    N, k = 12, 2
    beam = spatial_beam(*ARGS, elements=N, degree=k)
    w = beam.frequencies(14)
    kw = dict(elements=N, degree=k, left="clamped", right="free")
    parts = [rod(L, RA, EA, **kw).frequencies(3), rod(L, RJ, GJ, **kw).frequencies(3),
             timoshenko(L, RA, RI3, EI3, GA2, **kw).frequencies(6),   # 1–2 plane
             timoshenko(L, RA, RI2, EI2, GA3, **kw).frequencies(6)]   # 1–3 plane
    expected = np.sort(np.concatenate(parts))[:14]
    assert np.allclose(w, expected, rtol=1e-8)  # dense eigh round-off on ω²
    # the axial and torsion families against their closed form (2n − 1)π/(2L)·c
    fine = spatial_beam(*ARGS, elements=40, degree=3).frequencies(40)
    for stiff, dens in ((EA, RA), (GJ, RJ)):
        exact = (2 * np.arange(1, 3) - 1) * np.pi / (2 * L) * np.sqrt(stiff / dens)
        for wn in exact:
            assert np.min(np.abs(fine - wn)) <= 1e-9 * wn


def test_pinned_pinned_bending_in_both_planes_matches_the_timoshenko_dispersion_relation():
    # translations fixed, rotations free at both ends: w = sin(αs), α = nπ/L; lower root of
    # ρAρI ω⁴ − (κGA ρI α² + ρA EI α² + ρA κGA) ω² + κGA EI α⁴ = 0; axial nπ/L·√(EA/ρA);
    # torsion free–free: 0 (rigid spin about the axis) and nπ/L·√(GJ/ρJ)
    beam = spatial_beam(*ARGS, elements=40, degree=3, left="pinned", right="pinned")
    w = beam.frequencies(12)
    exact = [0.0]
    for n in range(1, 6):
        a = n * np.pi / L
        exact += [a * np.sqrt(EA / RA), a * np.sqrt(GJ / RJ)]
        for rI, EI_, GA_ in ((RI3, EI3, GA2), (RI2, EI2, GA3)):
            coef = [RA * rI, -(GA_ * rI * a**2 + RA * EI_ * a**2 + RA * GA_), GA_ * EI_ * a**4]
            exact.append(np.sqrt(np.min(np.roots(coef))))
    exact = np.sort(exact)[:8]
    # a zero eigenvalue of K comes out as ±eps·λ_max, i.e. ω ≈ √(eps·λ_max)
    assert w[0] == pytest.approx(0.0, abs=1e-4 * exact[1])
    assert np.allclose(w[1:8], exact[1:], rtol=1e-8)


def test_energy_is_conserved_through_a_large_three_dimensional_free_motion():
    beam = spatial_beam(*ARGS, elements=30, degree=1)
    x0 = beam.state(v2=lambda s: 30.0 * (s / L) ** 2, v3=lambda s: 40.0 * (s / L) ** 2,
                    omega1=lambda s: 200.0 * s / L)
    res = simulate(beam.system, (0, 0.02), x0, dt=2e-4)
    assert np.max(np.abs(res.H - res.H[0])) <= 1e-10 * res.H[0]
    g = beam.poses(res.x)
    tip = g[:, -1]
    # large and three-dimensional: the tip section turns by > 60°, moves out of both planes
    turn = np.arccos(np.clip((np.trace(tip[:, :3, :3], axis1=1, axis2=2) - 1) / 2, -1, 1))
    assert np.max(turn) > 1.0
    assert np.max(np.abs(tip[:, 1, 3])) > 0.2 * L and np.max(np.abs(tip[:, 2, 3])) > 0.2 * L
    # and far from linear: the linearized model ends > 5 % away
    lin = simulate(beam.linear, (0, 0.02), x0, dt=2e-4)
    assert np.linalg.norm(res.x[-1] - lin.x[-1]) > 0.05 * np.linalg.norm(lin.x[-1])


_PLANAR = {"eps": "gamma1", "gamma": "gamma2", "kappa": "kappa3", "p1": "p1", "p2": "p2",
           "ptheta": "h3", "N": "n1", "Q": "n2", "M": "m3", "v1": "v1", "v2": "v2",
           "omega": "omega3"}


def _planar_index(names_planar, names_spatial, sep):
    out = []
    for s in names_planar:
        head, tail = s.split(sep, 1)
        out.append(list(names_spatial).index(_PLANAR[head] + sep + tail))
    return np.array(out, dtype=int)


@pytest.mark.parametrize("ends", [("clamped", "free"), ("hub", "free")])
def test_a_motion_in_the_1_2_plane_is_the_planar_beam_trajectory(ends):
    kw = dict(elements=10, degree=2, left=ends[0], right=ends[1])
    sp = spatial_beam(*ARGS, **kw)
    pl = planar_beam(L, RA, RI3, EA, EI3, GA2, **kw)
    idx = _planar_index(pl.system.states, sp.system.states, "[")
    x0p = np.zeros(pl.system.n_states)
    moving = [i for i, s in enumerate(pl.system.states) if s.startswith("p2[")]
    nodes = pl.disc.h1.coords[[int(pl.system.states[i][3:-1]) for i in moving]]
    x0p[moving] = 40.0 * (nodes / L) ** 2 / pl.Q.diagonal()[moving]
    x0 = np.zeros(sp.system.n_states)
    x0[idx] = x0p
    u_p = u_s = None
    if ends[0] == "hub":
        u_p = {"omega_left": lambda t: 300.0 * np.sin(400.0 * t)}
        u_s = {"omega3_left": u_p["omega_left"]}
    rs = simulate(sp.system, (0, 0.01), x0, u=u_s, dt=2e-4)
    rp = simulate(pl.system, (0, 0.01), x0p, u=u_p, dt=2e-4)
    out_of_plane = np.setdiff1d(np.arange(sp.system.n_states), idx)
    assert np.max(np.abs(rs.x[:, out_of_plane])) == 0.0
    scale = np.max(np.abs(rp.x))
    assert np.max(np.abs(rs.x[:, idx] - rp.x)) <= 1e-12 * scale
    # the centre lines agree to their reconstruction error (planar: Gauss rule for r,
    # spatial: Magnus steps on SE(3); both O(h⁴) here)
    r1, r2, _ = pl.shape(rp.x)
    pos = sp.shape(rs.x)
    assert np.max(np.abs(pos[..., 0] - r1)) <= 1e-4 * L
    assert np.max(np.abs(pos[..., 1] - r2)) <= 1e-4 * L
    assert np.max(np.abs(pos[..., 2])) == 0.0
    assert np.max(np.hypot(r1[:, -1] - L, r2[:, -1])) > 0.1 * L  # a large swing


def test_discrete_power_balance_with_a_driven_twist_at_one_end_and_a_wrench_at_the_other():
    beam = spatial_beam(*ARGS, elements=8, degree=2, left="driven", right="port",
                        curvature=(0.0, 0.4, 0.8))
    sys = beam.system
    ins, outs = beam.port_names("left")
    assert ins == ["omega1_left", "omega2_left", "omega3_left", "v1_left", "v2_left", "v3_left"]
    assert outs == ["m1_left", "m2_left", "m3_left", "n1_left", "n2_left", "n3_left"]
    amp = np.array([20.0, -30.0, 10.0, 2.0, 1.0, -3.0, 50.0, -20.0, 10.0, 5e3, -2e3, 1e3])
    freq = np.array([300.0, 250.0, 200.0, 310.0, 180.0, 220.0] * 2)

    def u(t):
        return amp * np.sin(freq * t)

    dt = 2e-4
    res = simulate(sys, (0, 0.01), None, u=u, dt=dt)
    num = sys.compile()
    dH, supplied = np.diff(res.H), []
    for n in range(res.t.size - 1):
        xm = 0.5 * (res.x[n] + res.x[n + 1])
        um = u(res.t[n] + 0.5 * dt)
        supplied.append(dt * um @ num.output(xm, um))
    supplied = np.array(supplied)
    assert res.H[-1] > 1.0 and np.max(np.abs(supplied)) > 0.1
    assert np.max(np.abs(dH - supplied)) <= 1e-12 * np.max(np.abs(supplied))


def test_the_curved_reference_is_reconstructed_exactly_as_a_helix():
    # a helix of radius a and pitch 2πp: K0 = (p, 0, a)/(a² + p²) in the Frenet-type frame
    a, p = 0.2, 0.05
    q = a**2 + p**2
    Lh = 2 * np.pi * np.sqrt(q) * 1.5  # one and a half turns
    beam = spatial_beam(Lh, RA, (RI2, RI3), EA, (EI2, EI3), (GA2, GA3), GJ, elements=16,
                        degree=2, curvature=(p / q, 0.0, a / q))
    r = beam.shape(np.zeros(beam.system.n_states))
    s = beam.mesh.nodes
    t = s / np.sqrt(q)
    # closed form in the frame of the left section (tangent e1, normal e2 toward the axis)
    helix = np.stack([a * np.sin(t), a * (1 - np.cos(t)), p * t], -1)
    tangent = np.array([a, 0.0, p]) / np.sqrt(q)
    R0 = np.stack([tangent, [0.0, 1.0, 0.0], np.cross(tangent, [0.0, 1.0, 0.0])], 1)
    assert np.allclose(r, helix @ R0, atol=1e-12)


def _integrate_poses(beam, x):
    """∂s g = g ξ̃ element by element with DOP853 (rtol 1e-12), ξ the discrete strain field."""
    from scipy.integrate import solve_ivp

    from porthamiltonian.mechanics.lie import twist_hat

    def rhs(s, y):
        return (y.reshape(4, 4) @ twist_hat(beam.strain_twist(x, s)[:, 0])).ravel()

    g = np.eye(4)
    for e in range(beam.mesh.elements):
        sol = solve_ivp(rhs, beam.mesh.nodes[e:e + 2], g.ravel(), method="DOP853",
                        rtol=1e-12, atol=1e-13)
        g = sol.y[:, -1].reshape(4, 4)
    return g


@pytest.mark.slow
def test_pose_reconstruction_is_fourth_order_for_the_discrete_strain_field():
    # twisted, curved, stretched and sheared; reference: a tight ODE solution
    errors = []
    for N in (4, 8):
        beam = spatial_beam(*ARGS, elements=N, degree=2,
                            curvature=(lambda s: 1 + s, 0.5, lambda s: 2 * np.cos(3 * s)))
        x = beam.state(kappa1=lambda s: np.sin(4 * s), kappa2=lambda s: 3 * s**2, kappa3=1.0,
                       gamma1=lambda s: 0.1 * s, gamma2=0.05, gamma3=lambda s: -0.1 * np.cos(s))
        errors.append(np.max(np.abs(beam.poses(x)[-1] - _integrate_poses(beam, x))))
    assert errors[1] < 1e-5
    assert errors[0] / errors[1] == pytest.approx(16.0, rel=0.2)


def _linear_static(beam, u):
    """x with zero momenta and 0 = J₀Qx + G₀u on the momentum rows (linear statics)."""
    lin = beam.linear
    p = beam.disc.momentum_states
    q = np.setdiff1d(np.arange(lin.n_states), p)
    J0 = sps.csr_array(lin.J)
    K = sps.csc_array(J0[p][:, q] @ sps.diags_array(lin.Q.diagonal()[q]))
    x = np.zeros(lin.n_states)
    x[q] = spla.spsolve(K, -(sps.csr_array(lin.G) @ u)[p])
    return x


@pytest.mark.parametrize("direction", ["out of plane", "in plane"])
def test_quarter_ring_cantilever_tip_deflection_matches_castigliano(direction):
    # clamped quarter circle of radius R (K0 = (0, 0, 1/R)); a small tip force P.
    # Out of plane (along e3): δ = PR³[π/(4EI₂) + (3π/4 − 2)/GJ] + πPR/(2GA₃);
    # in plane (along e2 at the tip (R, R)): δ = PR³(3π/4 − 2)/EI₃ + πPR/4·(1/EA + 1/GA₂)
    R, P = 0.5, 1e-3
    beam = spatial_beam(np.pi * R / 2, *ARGS[1:], elements=64, degree=2, right="port",
                        curvature=(0.0, 0.0, 1 / R))
    names = list(beam.system.inputs)
    u = np.zeros(len(names))
    if direction == "out of plane":
        u[names.index("n3_right")] = P  # body axis 3 = e3 at the tip
        exact = P * R**3 * (np.pi / (4 * EI2) + (3 * np.pi / 4 - 2) / GJ) + \
            np.pi * P * R / (2 * GA3)
        axis = 2
    else:
        u[names.index("n1_right")] = P  # the tip tangent is e2 there
        exact = P * R**3 * (3 * np.pi / 4 - 2) / EI3 + np.pi * P * R / 4 * (1 / EA + 1 / GA2)
        axis = 1
    x = _linear_static(beam, u)
    tip = beam.shape(x)[-1]
    ref = beam.shape(np.zeros_like(x))[-1]
    assert ref == pytest.approx([R, R, 0.0], abs=1e-12)
    assert tip[axis] - ref[axis] == pytest.approx(exact, rel=1e-6)


def test_end_moment_rolls_an_isotropic_beam_into_a_full_helical_turn():
    # follower end moment (T, M, 0), GJ = EI₂ = EI₃ = EI and no force: K × m = 0 for the
    # uniform curvature K = (T, M, 0)/EI, so the exact solution is g(s) = exp(s ξ̃) with
    # ξ = (K, e₁); here |K|L = 2π: one full turn of a helix with axis along K
    EI = 10.0
    beam = spatial_beam(L, RA, RI2, EA, EI, GA2, EI, elements=8, degree=1, right="port")
    T, M = 2 * np.pi * EI / L * 0.6, 2 * np.pi * EI / L * 0.8
    x = beam.equilibrium({"m1_right": T, "m2_right": M}, steps=8)
    _, eps = beam.strains(x)
    assert np.allclose(eps[:3], np.array([[T], [M], [0.0]]) / EI, rtol=0, atol=1e-10)
    assert np.allclose(eps[3:], 0.0, atol=1e-12)
    exact = exp_se3(L * np.array([T / EI, M / EI, 0.0, 1.0, 0.0, 0.0]))
    assert np.allclose(beam.poses(x)[-1], exact, atol=1e-12)
    assert beam.shape(x)[-1] == pytest.approx([0.36 * L, 0.48 * L, 0.0], abs=1e-12)


def test_anisotropic_beam_under_an_end_moment_follows_kirchhoffs_kinetic_analogy():
    # no force: n ≡ 0, Γ = e₁; the body moment obeys m' = m × K, K = C⁻¹m (Euler's free
    # rigid body with "inertia" C = diag(GJ, EI₂, EI₃)), m(L) = the follower end moment;
    # R' = R K̃, r' = R e₁.  Reference: DOP853 at rtol 1e-13; the discrete tip pose
    # converges at order 2k = 4
    from scipy.integrate import solve_ivp

    from porthamiltonian.mechanics.lie import hat

    Ck = np.array([8.0, 10.0, 25.0])
    m_tip = np.array([10.0, 12.0, -6.0])
    back = solve_ivp(lambda s, m: np.cross(m, m / Ck), (L, 0), m_tip, rtol=1e-13, atol=1e-14)

    def rhs(s, y):
        m, R = y[:3], y[3:12].reshape(3, 3)
        return np.concatenate([np.cross(m, m / Ck), (R @ hat(m / Ck)).ravel(), R[:, 0]])

    y0 = np.concatenate([back.y[:, -1], np.eye(3).ravel(), np.zeros(3)])
    ref = solve_ivp(rhs, (0, L), y0, method="DOP853", rtol=1e-13, atol=1e-14).y[:, -1]
    errors = []
    for N in (8, 16):
        beam = spatial_beam(L, RA, RI2, 1e5, (Ck[1], Ck[2]), 1e5, Ck[0], elements=N,
                            degree=2, right="port")
        x = beam.equilibrium(dict(zip(("m1_right", "m2_right", "m3_right"), m_tip,
                                      strict=True)), steps=5)
        g = beam.poses(x)[-1]
        errors.append(max(np.max(np.abs(g[:3, 3] - ref[12:])),
                          np.max(np.abs(g[:3, :3] - ref[3:12].reshape(3, 3)))))
    assert errors[1] < 1e-7
    assert errors[0] / errors[1] == pytest.approx(16.0, rel=0.1)


def test_errors_name_the_parameter_or_end():
    with pytest.raises(ModelError, match="rhoA"):
        spatial_beam(L, -1.0, RI2, EA, EI2, GA2, GJ)
    with pytest.raises(ModelError, match=r"EI\[1\]"):
        spatial_beam(L, RA, RI2, EA, (EI2, 0.0), GA2, GJ)
    with pytest.raises(ModelError, match="GJ"):
        spatial_beam(L, RA, RI2, EA, EI2, GA2, lambda s: s - 0.5)
    with pytest.raises(ModelError, match="GA must be one value or a pair"):
        spatial_beam(L, RA, RI2, EA, EI2, (1.0, 2.0, 3.0), GJ)
    with pytest.raises(ModelError, match="rhoJ"):
        spatial_beam(L, RA, RI2, EA, EI2, GA2, GJ, rhoJ=0.0)
    with pytest.raises(ModelError, match="left='welded'"):
        spatial_beam(*ARGS, left="welded")
    with pytest.raises(ModelError, match="some translation components"):
        spatial_beam(*ARGS, right=("free",) * 3 + ("fixed", "free", "free"))
    with pytest.raises(ModelError, match="curvature"):
        spatial_beam(*ARGS, curvature=(1.0, 2.0))
    with pytest.raises(ModelError, match="curvature"):
        spatial_beam(*ARGS, curvature=lambda s: np.inf)
    with pytest.raises(ModelError, match="degree"):
        spatial_beam(*ARGS, degree=0)
    beam = spatial_beam(*ARGS, elements=2)
    with pytest.raises(ModelError, match="unknown field 'v4'"):
        beam.state(v4=1.0)
    with pytest.raises(ModelError, match="states"):
        beam.poses(np.zeros(3))
    with pytest.raises(ModelError, match="hold the beam"):
        spatial_beam(*ARGS, left="free", right="port").equilibrium({"m1_right": 1.0})
