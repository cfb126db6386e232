r"""DC-motor position servo by IDA-PBC.

With Jd = J (the motor's own gyrator and shaft kinematics) and Rd = diag(r1, b, 0), g⊥ picks
the rows of ṗ and θ̇:  ∂Hd/∂p = p/Jm  and  K ∂Hd/∂λ − b ∂Hd/∂p − ∂Hd/∂θ = K λ/L − b p/Jm.
Hence Hd = λ²/(2L) + p²/(2Jm) + F(λ + Kθ) — the angle enters only through λ + Kθ.  With
F(z) = kp (z − Kθ*)²/2, ∇Hd(x*) = 0 at x* = (0, 0, θ*) and the law (first row of
(Jd − Rd)∇Hd − (J − R)∇H) is
u = −r1 (λ/L + kp (λ + K(θ − θ*))) − K p/Jm + Ra λ/L + K p/Jm
  = (Ra − r1) λ/L − r1 kp (λ + K(θ − θ*)).
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from plants import DC_MOTOR, dc_motor

from porthamiltonian import control
from porthamiltonian.simulate import simulate


def test_dc_motor_servo_law_and_convergence_to_the_angle():
    L, Ra, K, Jm, b = (DC_MOTOR[s] for s in ("L", "Ra", "K", "Jm", "b"))
    r1, kp, theta_star = 5.0, 20.0, 1.2
    plant = dc_motor()
    Jd = plant.J
    Ks, bs = sp.symbols("K b", positive=True)  # the plant's own symbols: Rd keeps its b
    Rd = sp.diag(r1, bs, 0)
    sol = control.solve_matching(plant, Jd, Rd)
    (z,) = sol.arguments
    lam, p, th = plant.state_symbols
    assert sp.simplify(sp.diff(z, th) - Ks * sp.diff(z, lam)) == 0  # z ∝ λ + Kθ
    scale = sp.diff(z, lam)  # z = scale·(λ + Kθ)
    d = control.ida_pbc(plant, Jd, Rd, [0.0, 0.0, theta_star],
                        phi=lambda zz: kp * (zz / scale - Ks * theta_star) ** 2 / 2)
    for x in np.random.default_rng(10).normal(size=(10, 3)):
        u = (Ra - r1) * x[0] / L - r1 * kp * (x[0] + K * (x[2] - theta_star))
        assert d.law_numeric(x)[0] == pytest.approx(u, rel=1e-10, abs=1e-10)
        assert np.max(np.abs(d.residual(x))) <= 1e-10
    res = simulate(plant, (0.0, 10.0), [0.0, 0.0, 0.0], u=d.feedback(), method="RK45",
                   dt=0.01, rtol=1e-10, atol=1e-12)
    assert res["theta"][-1] == pytest.approx(theta_star, abs=1e-6)
    Hd = np.array([d.Hd_numeric(x) for x in res.x])
    assert np.all(np.diff(Hd) <= 1e-10)


def test_numbers_for_plant_symbols_are_solved_with_the_values():
    # Rd written with b = 0.02 while the plant keeps the symbol b (value 0.02): the
    # symbolic problem is inconsistent, the numeric one is not
    plant = dc_motor()
    Rd = sp.diag(5.0, DC_MOTOR["b"], 0)
    sol = control.solve_matching(plant, plant.J, Rd)
    assert "parameter values substituted" in sol.notes[0]
    d = control.ida_pbc(plant, plant.J, Rd, [0.0, 0.0, 0.5], phi=3.0)
    for x in np.random.default_rng(11).normal(size=(5, 3)):
        assert np.max(np.abs(d.residual(x))) <= 1e-10
