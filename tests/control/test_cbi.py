r"""Control by interconnection: a spring-like controller moves the equilibrium of a mass.

Plant: H = k q²/2 + p²/(2m) + m g q, damping c, force F, output v = p/m (open-loop rest at
q0 = −m g/k).  Controller: an integrator ξ̇ = u_c, y_c = ∂Hc/∂ξ with the spring energy
Hc = kc (ξ − ξ0)²/2.  Closed loop (F = −y_c, u_c = v): ξ̇ = q̇, so C = q − ξ is a Casimir
(∇C = [1, 0, −1] annihilates [[J − R, −g], [gᵀ, 0]]).  On C = κ:
Hs(q, p) = k q²/2 + p²/(2m) + m g q + kc (q − κ − ξ0)²/2, minimal at
q* = (kc (κ + ξ0) − m g)/(k + kc).  To place q*, choose ξ0 = ((k + kc) q* + m g)/kc − κ.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from plants import mass_spring_gravity

from porthamiltonian import PHS, ModelError, control
from porthamiltonian.simulate import simulate

M, K, C, G = 1.0, 4.0, 2.0, 9.81


def spring_controller(kc: float, xi0: float) -> PHS:
    xi = sp.Symbol("xi", real=True)
    return PHS(J=[[0]], G=[[1]], hamiltonian=kc * (xi - xi0) ** 2 / 2, states=["xi"],
               inputs=["uc"], outputs=["yc"], name="spring controller")


def test_casimir_of_the_closed_loop_is_position_minus_controller_state():
    cl = control.interconnect_controller(mass_spring_gravity(M, K, C, G),
                                         spring_controller(10.0, 0.0), [("F", "uc")])
    assert cl.states == ("q", "p", "xi")
    (Cas,) = control.casimirs(cl)
    q, xi = sp.symbols("q xi", real=True)
    ratio = sp.simplify(Cas / (q - xi))
    assert ratio.is_number and ratio != 0


def test_spring_controller_moves_the_equilibrium_to_the_designed_point():
    kc, q_star = 10.0, 0.25
    q_init = -M * G / K  # start at rest at the open-loop equilibrium, ξ(0) = q(0): κ = 0
    xi0 = ((K + kc) * q_star + M * G) / kc
    cl = control.interconnect_controller(mass_spring_gravity(M, K, C, G),
                                         spring_controller(kc, xi0), [("F", "uc")])
    x0 = {"q": q_init, "p": 0.0, "xi": q_init}
    shaped = control.energy_shaping(cl, ["q", "p"], [q_star, 0.0], initial=x0)
    assert shaped.levels == pytest.approx([0.0], abs=1e-15)
    # the shaped energy's minimum is where the hand formula puts it
    hess = shaped.minimum.hessian
    assert hess == pytest.approx(np.diag([K + kc, 1 / M]), rel=1e-12)
    assert shaped.equilibrium["xi"] == pytest.approx(q_star, abs=1e-12)
    res = simulate(cl, (0.0, 20.0), x0, method="midpoint", dt=1e-2)
    assert res["q"][-1] == pytest.approx(q_star, abs=1e-6)
    assert res["p"][-1] == pytest.approx(0.0, abs=1e-6)
    assert np.all(np.diff(res.H) <= 1e-12)
    casimir = res["q"] - res["xi"]
    assert np.max(np.abs(casimir - casimir[0])) <= 1e-12


def test_energy_shaping_errors():
    cl = control.interconnect_controller(mass_spring_gravity(M, K, C, G),
                                         spring_controller(10.0, 0.0), [("F", "uc")])
    with pytest.raises(ModelError, match="not a stationary point"):
        control.energy_shaping(cl, ["q", "p"], [0.25, 0.0])
    # a negative controller stiffness larger than the spring's makes the minimum a saddle
    q_star, kc = 0.25, -6.0
    xi0 = ((K + kc) * q_star + M * G) / kc
    bad = control.interconnect_controller(mass_spring_gravity(M, K, C, G),
                                          spring_controller(kc, xi0), [("F", "uc")])
    with pytest.raises(ModelError, match="not a strict minimum.*along q"):
        control.energy_shaping(bad, ["q", "p"], [q_star, 0.0])
    with pytest.raises(ModelError, match="no port 'x'"):
        control.interconnect_controller(mass_spring_gravity(), spring_controller(1, 0),
                                        [("x", "uc")])
    # a controller with two states but the loop gives one Casimir
    xi, eta = sp.symbols("xi eta", real=True)
    two = PHS(J=[[0, 1], [-1, 0]], G=[[1], [0]], hamiltonian=(xi**2 + eta**2) / 2,
              states=["xi", "eta"], inputs=["uc"], outputs=["yc"])
    cl2 = control.interconnect_controller(mass_spring_gravity(), two, [("F", "uc")])
    with pytest.raises(ModelError, match="Casimir"):
        control.energy_shaping(cl2, ["q", "p"], [0.0, 0.0])
