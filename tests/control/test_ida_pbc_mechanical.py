r"""IDA-PBC of mechanical systems: pendulum energy shaping and the inertia-wheel pendulum.

Pendulum (fully actuated, g⊥ = [1, 0]): with Jd = J, Rd = diag(0, kv) the only matching
equation is ∂Hd/∂p = ∂H/∂p, so Hd = p²/(2ml²) + Φ(q), Φ free.  With Φ = kp (q − q*)²/2
the law is the textbook gravity compensation plus PD:
u = m g l sin q − kp (q − q*) − kv q̇.

Inertia-wheel pendulum (Ortega, Spong, Gómez-Estern, Blankenstein 2002, §V): constant M
and Md = [[a1, a2], [a2, a3]], Jd = [[0, M⁻¹Md], [−MdM⁻¹, 0]].  The kinetic equation holds
identically; the potential one is γ1 ∂Vd/∂q1 + γ2 ∂Vd/∂q2 = ∂V/∂q1 = −m3 sin q1 with
[γ1, γ2] = e1ᵀ Md M⁻¹, so Vd = (m3/γ1) cos q1 + Φ(q2 − (γ2/γ1) q1).  The Hessian of Vd at 0
with Φ = kp z²/2 has determinant −kp m3/γ1: a strict minimum iff γ1 < 0 (a2 > a1).
Law (J2 = 0, Rd = diag(0, 0, 0, kv)): u = e2ᵀ(∇V − Md M⁻¹ ∇Vd) − kv e2ᵀ Md⁻¹ p.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from plants import IWP, PENDULUM, inertia_wheel_pendulum, pendulum

from porthamiltonian import PHS, ModelError, control
from porthamiltonian.simulate import simulate

q, p = sp.symbols("q p", real=True)
q1, q2, p1, p2 = sp.symbols("q1 q2 p1 p2", real=True)


def test_pendulum_energy_shaping_matches_gravity_compensation_plus_pd():
    m, l, g = (PENDULUM[s] for s in ("m", "l", "g"))
    kp, kv, qs = 3.0, 0.8, 2.0  # hold the pendulum at 2 rad (≈ 115° from hanging)
    J = sp.Matrix([[0, 1], [-1, 0]])
    Rd = sp.diag(0, kv)
    sol = control.solve_matching(pendulum(), J, Rd)
    assert sol.arguments == [q]  # the free function is the desired potential energy Φ(q)
    ms, ls = sp.symbols("m l", positive=True)
    assert sp.simplify(sol.particular - p**2 / (2 * ms * ls**2)) == 0
    d = control.ida_pbc(pendulum(), J, Rd, [qs, 0.0], phi=lambda z: kp * (z - qs) ** 2 / 2)
    rng = np.random.default_rng(2)
    for x in rng.normal(size=(10, 2)) * 2:
        qd = x[1] / (m * l**2)
        u = m * g * l * np.sin(x[0]) - kp * (x[0] - qs) - kv * qd
        assert d.law_numeric(x)[0] == pytest.approx(u, rel=1e-12, abs=1e-12)
        assert np.max(np.abs(d.residual(x))) <= 1e-12
    res = simulate(pendulum(), (0.0, 20.0), [0.0, 0.0], u=d.feedback(), method="RK45",
                   dt=0.01, rtol=1e-10, atol=1e-12)
    assert res["q"][-1] == pytest.approx(qs, abs=1e-6)
    Hd = np.array([d.Hd_numeric(x) for x in res.x])
    assert np.all(np.diff(Hd) <= 1e-10)


def test_pendulum_kinetic_energy_shaping_with_md():
    m, l = PENDULUM["m"], PENDULUM["l"]
    md = 2.0 * m * l**2  # feel twice as heavy
    d = control.ida_pbc(pendulum(), None, [[0.5]], [1.0, 0.0], Md=[[md]],
                        phi=lambda z: 4.0 * (z - 1.0) ** 2 / 2)
    assert float(sp.diff(d.Hd, p, 2)) == pytest.approx(1 / md, rel=1e-14)
    rng = np.random.default_rng(3)
    for x in rng.normal(size=(5, 2)):
        assert np.max(np.abs(d.residual(x))) <= 1e-12
        # closed loop: q̇ = ∂H/∂p = p/(ml²) still (the first row of Jd is M⁻¹Md)
        assert d.closed_loop.rhs(x)[0] == pytest.approx(x[1] / (m * l**2), rel=1e-12)


def _iwp_textbook(a: tuple[float, float, float], kp: float):
    I1, I2, m3 = (IWP[s] for s in ("I1", "I2", "m3"))
    M = np.array([[I1, I2], [I2, I2]])
    Md = np.array([[a[0], a[1]], [a[1], a[2]]])
    gam = Md[0] @ np.linalg.inv(M)
    z = q2 - gam[1] / gam[0] * q1
    Vd = m3 / gam[0] * sp.cos(q1) + kp * z**2 / 2
    pv = sp.Matrix([p1, p2])
    Hd = (pv.T * sp.Matrix(np.linalg.inv(Md).tolist()) * pv)[0] / 2 + Vd
    return M, Md, gam, Vd, Hd


def test_inertia_wheel_pendulum_matches_ortega_spong():
    a, kp, kv = (0.05, 0.15, 0.6), 0.1, 1.0
    M, Md, gam, Vd, Hd = _iwp_textbook(a, kp)
    assert gam[0] < 0
    m3 = IWP["m3"]
    Rd = np.diag([0.0, kv])
    d = control.ida_pbc(inertia_wheel_pendulum(), None, Rd, np.zeros(4), Hd=Hd, Md=Md)
    dVd = sp.lambdify([q1, q2], [sp.diff(Vd, q1), sp.diff(Vd, q2)])
    rng = np.random.default_rng(4)
    for x in rng.normal(size=(10, 4)):
        assert np.max(np.abs(d.residual(x))) <= 1e-10
        gradV = np.array([-m3 * np.sin(x[0]), 0.0])
        u = (gradV - Md @ np.linalg.solve(M, dVd(x[0], x[1])))[1] \
            - kv * np.linalg.solve(Md, x[2:])[1]
        assert d.law_numeric(x)[0] == pytest.approx(u, rel=1e-9, abs=1e-12)
    assert np.all(d.minimum.eigenvalues > 0)
    hq = d.minimum.hessian[:2, :2]
    assert np.linalg.det(hq) == pytest.approx(-kp * m3 / gam[0], rel=1e-10)


def test_inertia_wheel_pendulum_solved_design_swings_back_upright():
    # gains from a scan of the linearized closed loop (slowest eigenvalue −1.26 1/s)
    a, kp, kv = (0.05, 0.15, 0.6), 0.1, 1.0
    Md = [[a[0], a[1]], [a[1], a[2]]]
    sol = control.solve_matching(inertia_wheel_pendulum(), None, Md=Md)
    assert len(sol.arguments) == 1
    # the free argument is constant along the characteristic γ1 ∂/∂q1 + γ2 ∂/∂q2
    _, _, gam, _, _ = _iwp_textbook(a, 1.0)
    (z,) = sol.arguments
    z = z.subs({sp.Symbol(k, positive=True): v for k, v in IWP.items()})
    assert float(gam[0] * sp.diff(z, q1) + gam[1] * sp.diff(z, q2)) == pytest.approx(0, abs=1e-12)
    d = control.ida_pbc(inertia_wheel_pendulum(), None, np.diag([0.0, kv]), np.zeros(4),
                        Md=Md, phi=kp)
    for x0 in ([0.3, 0.0, 0.0, 0.0], [-0.5, 1.0, 0.0, 0.0], [0.8, 0.0, 0.05, 0.0]):
        res = simulate(inertia_wheel_pendulum(), (0.0, 25.0), x0, u=d.feedback(),
                       method="RK45", dt=0.05, rtol=1e-9, atol=1e-11)
        assert np.max(np.abs(res.x[-1])) < 1e-4
        Hd = np.array([d.Hd_numeric(x) for x in res.x])
        assert np.all(np.diff(Hd) <= 1e-9)


def test_md_errors():
    with pytest.raises(ModelError, match=r"Md\[q1, q2\]"):
        control.ida_pbc(inertia_wheel_pendulum(), None, None, np.zeros(4),
                        Md=[[1.0, 2.0], [0.0, 5.0]])
    # a2 < a1: γ1 > 0 and the upright position is a maximum of Vd along q1 for any Φ
    with pytest.raises(ModelError, match="strict minimum"):
        control.ida_pbc(inertia_wheel_pendulum(), None, None, np.zeros(4),
                        Md=[[2.0, 1.0], [1.0, 5.0]], phi=0.5)
    with pytest.raises(ModelError, match=r"states \(q, p\)"):
        control.ida_pbc(control_plant_three_states(), None, None, np.zeros(3), Md=[[1.0]])


def control_plant_three_states():
    from plants import maglev

    return maglev()


def test_numeric_linear_plant_gives_the_pd_law():
    k, m, kp, kv, qs = 4.0, 2.0, 6.0, 1.5, 0.3
    plant = PHS(J=[[0, 1], [-1, 0]], G=[[0], [1]], Q=np.diag([k, 1 / m]), states=["q", "p"],
                inputs=["F"])
    d = control.ida_pbc(plant, [[0, 1], [-1, 0]], np.diag([0.0, kv]), [qs, 0.0],
                        phi=lambda z: kp * (z - qs) ** 2 / 2)
    for x in np.random.default_rng(5).normal(size=(5, 2)):
        # u = ∂V/∂q − ∂Vd/∂q − kv q̇ = k q − kp (q − q*) − kv p/m
        assert d.law_numeric(x)[0] == pytest.approx(k * x[0] - kp * (x[0] - qs)
                                                    - kv * x[1] / m, rel=1e-12, abs=1e-12)
    A, *_ = d.closed_loop.state_space([qs, 0.0])
    lam = np.sort_complex(np.linalg.eigvals(A))
    # closed loop m q̈ + kv q̇ + kp (q − q*) = 0
    exact = np.sort_complex(np.roots([m, kv, kp]))
    assert lam == pytest.approx(exact, abs=1e-12)
