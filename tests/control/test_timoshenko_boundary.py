r"""Boundary control of a clamped Timoshenko beam (Macchelli & Melchiorri 2004; book ch. 6).

Beam: clamped at s = 0, port at the tip s = L (input: force F and moment M on the beam;
output: tip velocity v and angular velocity ω), discretized by the distributed package.

* Tip damping F = −b v: by the energy method a lightly damped mode x = Re(φ e^{iωt}) loses
  ⟨b v²⟩ = b|cφ|²/2 per unit time from ⟨H⟩ = φᴴQφ/4, so its decay rate is
  σ = b|cφ|²/(φᴴQφ) with c the tip-velocity row (first-order perturbation).
* Energy shaping: an integrator controller ξ̇ = v, F = −(kc ξ + b v) makes C = ξ − w(L) a
  Casimir.  On C = κ the shaped energy H_beam + kc (w(L) + κ)²/2 is minimal at the static
  deflection under the tip load P = −kc ξ*: w(s) = P (s²(3L − s)/(6 EI) + s/kGA), with tip
  compliance c_L = L³/(3 EI) + L/kGA.  For a target tip deflection w*:
  ξ* = −w*/(c_L kc) and, from a beam at rest and undeformed, ξ(0) = ξ* − w*.
"""

from __future__ import annotations

import numpy as np
import pytest

from porthamiltonian import PHS, control, distributed
from porthamiltonian.simulate import simulate

L, RHOA, RHOI, EI, KGA = 1.0, 2.0, 0.01, 10.0, 1000.0
C_L = L**3 / (3 * EI) + L / KGA


def beam(elements: int = 10):
    return distributed.timoshenko(L, RHOA, RHOI, EI, KGA, elements=elements, left="clamped",
                                  right="port")


def _modes(sys: PHS, k: int) -> tuple[np.ndarray, np.ndarray]:
    A = ((sys.J - sys.R) @ sys.Q).toarray()
    lam, vec = np.linalg.eig(A)
    keep = np.flatnonzero(lam.imag > 1e-6)
    order = keep[np.argsort(lam[keep].imag)][:k]
    return lam[order], vec[:, order]


def test_tip_damping_decay_rates_match_the_energy_method_and_beat_the_open_loop():
    open_loop = beam().system
    lam0, phi = _modes(open_loop, 3)
    assert np.max(np.abs(lam0.real)) <= 1e-10 * np.max(np.abs(lam0))  # lossless
    b = 0.2  # N·s/m, light: first-order perturbation applies
    closed = control.damping_injection(open_loop, b, ports=["F_right"])
    lam1, _ = _modes(closed, 3)
    Q = open_loop.Q.toarray()
    c = open_loop.G.toarray()[:, 0] @ Q
    sigma = np.array([b * abs(c @ phi[:, j]) ** 2 / np.real(phi[:, j].conj() @ Q @ phi[:, j])
                      for j in range(3)])
    assert -lam1.real == pytest.approx(sigma, rel=1e-3)
    assert lam1.imag == pytest.approx(lam0.imag, rel=1e-3)
    # a stronger damper: every one of the first modes decays (open loop: not at all)
    strong = control.damping_injection(open_loop, np.diag([10.0, 0.1]))
    lam2, _ = _modes(strong, 3)
    assert np.all(-lam2.real > 0.5)


def _shaped_loop(elements: int, kc: float = 50.0, b: float = 10.0, bm: float = 0.1):
    bm_ = beam(elements)
    ctrl = PHS(J=[[0.0]], G=[[1.0]], S=[[b]], Q=[[kc]], states=["xi"], inputs=["uc"],
               outputs=["yc"], name="tip spring-damper")
    cl = control.interconnect_controller(bm_.system, ctrl, [("F_right", "uc")])
    cl = control.damping_injection(cl, bm, ports=["M_right"])
    return bm_, cl


def test_boundary_controller_shapes_the_equilibrium_to_the_static_deflection():
    kc, w_star = 50.0, 0.05
    xi_star = -w_star / (C_L * kc)
    errors = []
    for elements in (10, 20):
        model, cl = _shaped_loop(elements, kc)
        x0 = np.zeros(cl.n_states)
        x0[cl.states.index("xi")] = xi_star - w_star
        shaped = control.energy_shaping(cl, list(model.system.states), initial=x0)
        full = np.array([shaped.equilibrium[s] for s in cl.states])
        # the minimizer of the shaped energy is an equilibrium of the closed loop
        assert np.max(np.abs(cl.rhs(full))) <= 1e-9
        s, w, _ = model.shape(shaped.x_star)
        P = -kc * shaped.equilibrium["xi"]
        exact = P * (s**2 * (3 * L - s) / (6 * EI) + s / KGA)
        errors.append(np.max(np.abs(w - exact)))
        assert w[-1] == pytest.approx(w_star, rel=5e-3)
    # second-order convergence of the shaped configuration to the continuous one
    assert errors[0] / errors[1] == pytest.approx(4.0, rel=0.1)


def test_closed_loop_reaches_the_shaped_equilibrium_and_keeps_its_casimir():
    kc, w_star = 50.0, 0.05
    model, cl = _shaped_loop(10, kc)
    x0 = np.zeros(cl.n_states)
    x0[cl.states.index("xi")] = -w_star / (C_L * kc) - w_star
    shaped = control.energy_shaping(cl, list(model.system.states), initial=x0)
    res = simulate(cl, (0.0, 25.0), x0, method="midpoint", dt=1e-2)
    tip = model.shape(res.x[-1, :-1])[1][-1]
    assert tip == pytest.approx(model.shape(shaped.x_star)[1][-1], rel=1e-4)
    assert np.all(np.diff(res.H) <= 1e-12 * res.H[0])
    drift = shaped.casimirs.evaluate(res.x) - shaped.casimirs.evaluate(res.x[0])
    assert np.max(np.abs(drift)) <= 1e-12
