"""Mindlin and Kirchhoff plates: frequencies against published tables and closed
forms, energy conservation, power balance, interconnection and damping injection."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl
import scipy.sparse as sps
import scipy.sparse.linalg as spl

pytest.importorskip("skfem")

import porthamiltonian as ph  # noqa: E402
from porthamiltonian.control import damping_injection  # noqa: E402
from porthamiltonian.distributed.domains import disk, kirchhoff, mindlin, rectangle  # noqa: E402
from porthamiltonian.distributed.domains.pfem import block_inverse  # noqa: E402


def frequencies(model, velocity_fields, n):
    """The ``n`` lowest angular frequencies (rad/s) by the second-order reduction
    ``K = Dᵀ W_σ⁻¹ D`` with mass ``W_v`` (the velocity fields' states against the rest)."""
    system, layout = model.system, model.layout
    kept = layout.kept
    is_v = np.zeros(kept.size, dtype=bool)
    for f in velocity_fields:
        o = layout.offset[f]
        is_v |= (kept >= o) & (kept < o + layout.fields[f].size)
    iv, ist = np.flatnonzero(is_v), np.flatnonzero(~is_v)
    J = sps.csr_array(system.J)
    if layout.explicit:
        Q = sps.csr_array(system.Q)
        Wv, Qs = block_inverse(Q[iv][:, iv]), Q[ist][:, ist]
    else:
        E = sps.csr_array(system.E)
        Wv, Qs = E[iv][:, iv], block_inverse(E[ist][:, ist])
    D = J[ist][:, iv]
    K = (D.T @ Qs @ D).tocsc()
    vals = spl.eigsh(K, k=n, M=sps.csc_array(Wv), sigma=-1.0, which="LM",
                     return_eigenvectors=False)
    return np.sqrt(np.sort(vals))


MINDLIN_FIELDS = ["v", "omega_x", "omega_y"]


def test_mindlin_clamped_square_against_published_table():
    r"""Clamped (CCCC) square Mindlin plate, h/a = 0.1, ν = 0.3, κ = 0.8601.

    Reference: the frequency parameters :math:`\hat\omega = \omega a\sqrt{\rho/G} =
    \omega a\sqrt{2(1+\nu)\rho/E}` of the table of the CCCC case in Brugnoli, Alazard,
    Pommier-Budinger, Matignon, Appl. Math. Modelling 75 (2019) 940–960 (Part I),
    taken there from Durán, Hervella-Nieto, Liberman, Rodríguez, Solomin, Math. Comp.
    68 (1999) 1447–1463: 1.5940, 3.0390, 3.0390, 4.2650, 5.0350, 5.0780.
    """
    reference = np.array([1.5940, 3.0390, 3.0390, 4.2650, 5.0350, 5.0780])
    E, nu, rho, a, h = 1.0, 0.3, 1.0, 1.0, 0.1
    G = E / (2 * (1 + nu))
    model = mindlin(rectangle(a, a, 12, cell="quad"), E, nu, rho, h, kappa=0.8601,
                    boundary="clamped")
    assert model.layout.explicit  # lumped Q2 + DG: an explicit sparse PHS
    w_hat = frequencies(model, MINDLIN_FIELDS, 6) * a * np.sqrt(rho / G)
    np.testing.assert_allclose(w_hat, reference, rtol=5e-3)


def mindlin_simply_supported(a, b, E, nu, rho, h, kappa, n):
    r"""Closed form of the hard simply supported rectangular Mindlin plate.

    :math:`w = W\sin\alpha x\sin\beta y`, :math:`\theta_x = X\cos\alpha x\sin\beta y`,
    :math:`\theta_y = Y\sin\alpha x\cos\beta y` (:math:`\alpha = m\pi/a`,
    :math:`\beta = n\pi/b`) satisfy w = 0, θ·t = 0 and M_nn = 0 on every edge; the
    equations of motion reduce to :math:`(K - \omega^2 M)[W, X, Y]^\top = 0` with
    :math:`M = \operatorname{diag}(\rho h, \rho h^3/12, \rho h^3/12)`, whose
    determinant is Mindlin's cubic in ω² (Mindlin, Schacknow, Deresiewicz, J. Appl.
    Mech. 23 (1956) 430–436); the lowest root is the flexural mode (m, n).
    """
    Db = E * h ** 3 / (12 * (1 - nu ** 2))
    S = kappa * E / (2 * (1 + nu)) * h
    out = []
    for m in range(1, 6):
        for k in range(1, 6):
            al, be = m * np.pi / a, k * np.pi / b
            K = Db * np.array([[0, 0, 0],
                               [0, al ** 2 + (1 - nu) / 2 * be ** 2, al * be * (1 + nu) / 2],
                               [0, al * be * (1 + nu) / 2, be ** 2 + (1 - nu) / 2 * al ** 2]])
            K = K + S * np.array([[al ** 2 + be ** 2, -al, -be], [-al, 1, 0], [-be, 0, 1]])
            M = np.diag([rho * h, rho * h ** 3 / 12, rho * h ** 3 / 12])
            out.append(np.sqrt(sl.eigh(K, M, eigvals_only=True)[0]))
    return np.sort(out)[:n]


def test_mindlin_simply_supported_closed_form():
    E, nu, rho, a, b, h = 1.0, 0.3, 1.0, 1.0, 0.8, 0.1
    exact = mindlin_simply_supported(a, b, E, nu, rho, h, 5 / 6, 6)
    model = mindlin(rectangle(a, b, 8, cell="quad"), E, nu, rho, h,
                    boundary="simply_supported")
    np.testing.assert_allclose(frequencies(model, MINDLIN_FIELDS, 6), exact, rtol=5e-3)


def test_mindlin_triangles_descriptor_form():
    """P2 triangles keep a consistent mass: a DescriptorPHS, same physics."""
    E, nu, rho, h = 1.0, 0.3, 1.0, 0.1
    exact = mindlin_simply_supported(1.0, 1.0, E, nu, rho, h, 5 / 6, 3)
    model = mindlin(rectangle(1.0, 1.0, 8), E, nu, rho, h, boundary="simply_supported")
    assert not model.layout.explicit
    np.testing.assert_allclose(frequencies(model, MINDLIN_FIELDS, 3), exact, rtol=1e-2)


def kirchhoff_simply_supported(a, b, E, nu, rho, h, n):
    """ω_mn = π²(m²/a² + n²/b²)√(D/ρh) (Navier; Leissa, NASA SP-160, 1969, §4.1)."""
    D = E * h ** 3 / (12 * (1 - nu ** 2))
    return np.sort([np.pi ** 2 * (m ** 2 / a ** 2 + k ** 2 / b ** 2) * np.sqrt(D / (rho * h))
                    for m in range(1, 7) for k in range(1, 7)])[:n]


def test_kirchhoff_simply_supported_rectangle_argyris():
    E, nu, rho, a, b, h = 2e11, 0.3, 7800.0, 1.0, 0.6, 0.01
    model = kirchhoff(rectangle(a, b, 4), E, nu, rho, h, boundary="simply_supported")
    assert isinstance(model.system, ph.DescriptorPHS)
    exact = kirchhoff_simply_supported(a, b, E, nu, rho, h, 6)
    np.testing.assert_allclose(frequencies(model, ["v"], 6), exact, rtol=5e-3)


def test_kirchhoff_morley_converges_at_order_two():
    E, nu, rho, h = 2e11, 0.3, 7800.0, 0.01
    exact = kirchhoff_simply_supported(1.0, 1.0, E, nu, rho, h, 1)[0]
    err = [abs(frequencies(kirchhoff(rectangle(1.0, 1.0, n), E, nu, rho, h, element="morley",
                                     boundary="simply_supported"), ["v"], 1)[0] / exact - 1)
           for n in (8, 16)]
    assert 1.8 < np.log2(err[0] / err[1]) < 2.2


def test_kirchhoff_clamped_square_leissa():
    """Clamped square: ω a²√(ρh/D) = 35.99, 73.41, 73.41, 108.27 (Leissa, *Vibration of
    Plates*, NASA SP-160, 1969, Table 4.23; Ritz upper bounds to 4 digits)."""
    E, nu, rho, h = 2e11, 0.3, 7800.0, 0.01
    D = E * h ** 3 / (12 * (1 - nu ** 2))
    model = kirchhoff(rectangle(1.0, 1.0, 6), E, nu, rho, h, boundary="clamped")
    lam = frequencies(model, ["v"], 4) * np.sqrt(rho * h / D)
    np.testing.assert_allclose(lam, [35.99, 73.41, 73.41, 108.27], rtol=5e-3)


def _random_state(model, scale, seed=0):
    return np.random.default_rng(seed).standard_normal(len(model.system.states)) * scale


def test_mindlin_energy_conserved_and_fields_give_H():
    model = mindlin(rectangle(1.0, 1.0, 3, cell="quad"), 1.0, 0.3, 1.0, 0.1,
                    boundary={"left": "clamped", "bottom": "simply_supported"})
    x0 = _random_state(model, 1e-2)
    res = ph.simulate(model.system, (0.0, 3.0), x0, method="midpoint", dt=0.01)
    assert len(res.t) > 300
    assert np.ptp(res.H) / res.H[0] < 1e-12
    assert model.energy(res.x[-1]) == pytest.approx(res.H[-1], rel=1e-12)


def test_kirchhoff_energy_conserved_and_fields_give_H():
    model = kirchhoff(rectangle(1.0, 1.0, 2), 2e11, 0.3, 7800.0, 0.01,
                      boundary={"left": "simply_supported", "bottom": "clamped"})
    x0 = _random_state(model, 1e-3)
    res = ph.simulate(model.system, (0.0, 0.03), x0, method="midpoint", dt=1e-4)
    assert len(res.t) > 300
    assert np.ptp(res.H) / res.H[0] < 1e-12
    assert model.energy(res.x[-1]) == pytest.approx(res.H[-1], rel=1e-12)


@pytest.mark.parametrize("kind", ["mindlin", "kirchhoff"])
def test_power_balance_with_boundary_force(kind):
    if kind == "mindlin":
        model = mindlin(rectangle(1.0, 1.0, 3, cell="quad"), 1.0, 0.3, 1.0, 0.1,
                        boundary={"left": "clamped", "right": "force"})
        u = {"F_right": "1e-3*sin(3*t)", "Mx_right": "1e-3*cos(2*t)"}
        span, dt = (0.0, 3.0), 0.01
    else:
        model = kirchhoff(rectangle(1.0, 1.0, 2), 2e11, 0.3, 7800.0, 0.01,
                          boundary={"left": "clamped", "right": "force"})
        u = {"F_right": "sin(300*t)", "T_right": "0.1*cos(200*t)"}
        span, dt = (0.0, 0.03), 1e-4
    res = ph.simulate(model.system, span, None, u=u, method="midpoint", dt=dt)
    supplied = float(np.sum(res.work_supplied))
    assert abs(supplied) > 0 and res.H[-1] > 0
    assert res.H[-1] - res.H[0] == pytest.approx(supplied, rel=1e-10)
    assert np.max(np.abs(res.power_residual)) < 1e-12 * np.max(np.abs(res.H))


def test_mindlin_point_port_joined_to_spring_mass_conserves_energy():
    """Spring–mass hung on the plate by its spring: input the base velocity, output the
    force on the base (−kq), so u·y is the power into it; joined by negative feedback
    (u_plate = −y_spring = kq, u_spring = y_plate = v)."""
    plate = mindlin(rectangle(1.0, 1.0, 3, cell="quad"), 1.0, 0.3, 1.0, 0.1,
                    boundary="clamped", points={"c": (0.5, 0.5)})
    k, m = 0.05, 0.02
    spring = ph.PHS(J=np.array([[0.0, 1.0], [-1.0, 0.0]]), Q=np.diag([k, 1 / m]),
                    G=np.array([[-1.0], [0.0]]), states=["q_s", "p_s"], inputs=["v_base"],
                    outputs=["F_base"], name="spring-mass")
    joined = ph.feedback(plate.system, spring, [("F_c", "v_base")])
    n = len(plate.system.states)
    x0 = np.concatenate([np.zeros(n), [1e-2, 0.0]])  # plate at rest, spring stretched
    res = ph.simulate(joined, (0.0, 3.0), x0, method="midpoint", dt=0.01)
    H1 = [0.5 * x[:n] @ (plate.system.Q @ x[:n]) for x in (res.x[0], res.x[-1])]
    H2 = [0.5 * (k * x[n] ** 2 + x[n + 1] ** 2 / m) for x in (res.x[0], res.x[-1])]
    assert res.H[0] == pytest.approx(H1[0] + H2[0], rel=1e-12)
    assert np.ptp(res.H) / res.H[0] < 1e-12
    assert H1[1] > 1e-2 * res.H[0]  # energy did flow into the plate


def test_boundary_damping_injection_dissipates_exactly():
    model = mindlin(rectangle(1.0, 1.0, 3, cell="quad"), 1.0, 0.3, 1.0, 0.1,
                    boundary={"left": "clamped", "right": "nodal"})
    nodal = [u for u in model.system.inputs if u.startswith("F_right")]
    closed = damping_injection(model.system, 0.05, nodal, keep_ports=False)
    x0 = _random_state(model, 1e-2)
    res = ph.simulate(closed, (0.0, 3.0), x0, method="midpoint", dt=0.01)
    dissipated = float(np.sum(res.work_dissipated))
    assert np.all(np.diff(res.H) <= 1e-12 * res.H[0]) and res.H[-1] < res.H[0]
    assert res.H[0] - res.H[-1] == pytest.approx(dissipated, rel=1e-10)


def test_plate_boundary_errors():
    with pytest.raises(ph.ModelError, match="axis-aligned"):
        mindlin(disk(1.0, 1), 1.0, 0.3, 1.0, 0.1, boundary="simply_supported")
    with pytest.raises(ph.ModelError, match="not one of"):
        mindlin(rectangle(1, 1, 2, cell="quad"), 1.0, 0.3, 1.0, 0.1, boundary="pinned")
    with pytest.raises(ph.ModelError, match="triangle"):
        kirchhoff(rectangle(1, 1, 2, cell="quad"), 1.0, 0.3, 1.0, 0.1)
    with pytest.raises(ph.ModelError, match="axis-aligned"):
        kirchhoff(disk(1.0, 1), 1.0, 0.3, 1.0, 0.1, boundary="clamped")
    # Morley's dofs (values, normal derivatives) clamp any straight-edged boundary
    assert kirchhoff(disk(1.0, 1), 1.0, 0.3, 1.0, 0.1, element="morley",
                     boundary="clamped").system.states


def test_mindlin_driven_edge_power_balance():
    """``velocity`` edge: imposed velocities in, reactions out; u·y is the power in."""
    model = mindlin(rectangle(1.0, 1.0, 3, cell="quad"), 1.0, 0.3, 1.0, 0.1,
                    boundary={"left": "velocity", "right": "clamped"})
    assert {"v_left", "omega_x_left", "omega_y_left"} <= set(model.system.inputs)
    res = ph.simulate(model.system, (0.0, 2.0), None,
                      u={"v_left": "1e-3*sin(2*t)", "omega_y_left": "1e-3*sin(3*t)"},
                      method="midpoint", dt=0.01)
    supplied = float(np.sum(res.work_supplied))
    assert res.H[-1] > 0
    assert res.H[-1] - res.H[0] == pytest.approx(supplied, rel=1e-10)


@pytest.mark.slow
def test_mindlin_clamped_square_fine_mesh():
    """The table of :func:`test_mindlin_clamped_square_against_published_table` on a
    16 × 16 Q2 mesh (14 403 states): the discrete values have converged to 4 digits."""
    reference = np.array([1.5940, 3.0390, 3.0390, 4.2650, 5.0350, 5.0780])
    E, nu, rho, h = 1.0, 0.3, 1.0, 0.1
    model = mindlin(rectangle(1.0, 1.0, 16, cell="quad"), E, nu, rho, h, kappa=0.8601)
    w_hat = frequencies(model, MINDLIN_FIELDS, 6) * np.sqrt(2 * (1 + nu) * rho / E)
    np.testing.assert_allclose(w_hat, reference, rtol=5e-3)


def test_plate_fields_saved_for_paraview(tmp_path):
    import meshio

    model = mindlin(rectangle(1.0, 1.0, 2, cell="quad"), 1.0, 0.3, 1.0, 0.1)
    x = _random_state(model, 1e-2)
    path = model.save(tmp_path / "plate.vtu", x)
    mesh = meshio.read(path)
    assert {"v", "omega_x", "omega_y"} <= set(mesh.point_data)
    assert {"Mxx", "qy", "energy"} <= set(mesh.cell_data)
    area = 0.25  # 2 × 2 cells of the unit square
    assert np.sum(mesh.cell_data["energy"][0]) * area == pytest.approx(
        0.5 * x @ (model.system.Q @ x), rel=1e-12)
