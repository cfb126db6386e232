"""Discrete (rigid-element, Hencky bar-chain) beams built from joints and joint springs.

References: the chain's own linear statics and dynamics derived here independently (in
joint angles), and the Euler–Bernoulli closed forms P L³/(3EI) and β_n L = 1.8751,
4.6941, 7.8548 (Blevins, *Formulas for natural frequency and mode shape*, table 8-1).
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sl

from porthamiltonian import distributed as D
from porthamiltonian.errors import ModelError
from porthamiltonian.mechanics import Mechanism, RigidBody
from porthamiltonian.mechanics.discrete_beam import (
    discrete_beam,
    hencky_tip_deflection,
    linear_frequencies,
)

L, RHOA, EI = 1.0, 0.5, 2.0
BETA_L = np.array([1.875104068711961, 4.694091132974175, 7.854757438237613])


def _chain_matrices(N: int, rhoA: float, EI: float, rot: float | None = None
                    ) -> tuple[np.ndarray, np.ndarray]:
    """Mass and stiffness of the planar bar-chain in absolute segment angles φ (small):
    centre heights y = A φ, relative angles θ = Dφ, springs k = (2, 1, …, 1)·EI/ℓ.
    ``rot`` replaces the translational mass by a pure rotary one (torsion)."""
    ell, m = L / N, rhoA * L / N
    A = np.tril(np.full((N, N), ell), -1) + np.eye(N) * ell / 2
    M = m * A.T @ A + m * ell**2 / 12 * np.eye(N) if rot is None else rot * ell * np.eye(N)
    Dm = np.eye(N) - np.eye(N, k=-1)
    k = np.full(N, EI / ell)
    k[0] *= 2
    return M, Dm.T @ np.diag(k) @ Dm


def _chain_frequencies(N: int, rhoA: float = RHOA, EI: float = EI,
                       rot: float | None = None) -> np.ndarray:
    M, K = _chain_matrices(N, rhoA, EI, rot)
    return np.sqrt(sl.eigh(K, M, eigvals_only=True))


def _static_tip(N: int, rhoA: float, tip: float, g: float) -> float:
    """Tip deflection of the mechanism at its static equilibrium under gravity: Newton on
    the total energy H(initial_state(q)) of the assembled DAE (finite differences)."""
    mech = discrete_beam(L, N, rhoA=rhoA, EI=EI, tip_mass=tip, gravity=[0, -g, 0])
    dae = mech.assemble()
    names = list(mech.joints)

    def V(q: np.ndarray) -> float:
        return dae.energy(mech.initial_state(dict(zip(names, q, strict=True))))

    h, I = 1e-5, np.eye(N)
    Hm = np.array([[(V(h * (a + b)) - V(h * (a - b)) - V(h * (b - a)) + V(-h * (a + b)))
                    / (4 * h * h) for b in I] for a in I])
    q = np.zeros(N)
    for _ in range(2):
        grad = np.array([(V(q + h * e) - V(q - h * e)) / (2 * h) for e in I])
        q = q - np.linalg.solve(Hm, grad)
    x = mech.initial_state(dict(zip(names, q, strict=True)))
    o = 18 * (N - 1)
    return -(RigidBody.pose(x[o:o + 18]) @ np.array([L / N, 0, 0, 1]))[1]


def _chain_static_tip(N: int, rhoA: float, tip: float, g: float) -> float:
    """The chain's small-deflection tip displacement by virtual work: joint i at
    x_i = iℓ carries the moment M_i of the loads beyond it and turns by M_i/k_i."""
    ell = L / N
    x = np.arange(N) * ell
    w = rhoA * ell * g                                    # segment weights at iℓ + ℓ/2
    M = np.array([tip * g * (L - xi) + sum(w * (xj + ell / 2 - xi) for xj in x if xj >= xi)
                  for xi in x])
    k = np.full(N, EI / ell)
    k[0] *= 2
    return float(np.sum(M / k * (L - x)))


def test_cantilever_static_deflection_converges_second_order() -> None:
    """A heavy tip mass (P = M g) on a light chain: the equilibrium of the assembled
    mechanism equals the chain's virtual-work deflection (self-weight included) to 1e-6,
    and the tip-load part equals P L³/(3EI)(1 + 1/(2N²)): second order in 1/N."""
    g, tip, rhoA = 1e-3, 1.0, 0.05      # δ/L ~ 2e-4: the linear regime
    errors = []
    for N in (2, 4, 8):
        computed = _static_tip(N, rhoA, tip, g)
        chain = _chain_static_tip(N, rhoA, tip, g)
        assert abs(computed / chain - 1) < 1e-6          # measured ≤ 3.3e-8
        tip_part = computed - _chain_static_tip(N, rhoA, 0.0, g)
        assert abs(tip_part / hencky_tip_deflection(tip * g, L, EI, N) - 1) < 1e-6
        errors.append(tip_part / (tip * g * L**3 / (3 * EI)) - 1)
    orders = np.log2(np.array(errors[:-1]) / np.array(errors[1:]))
    assert np.all(np.abs(orders - 2) < 1e-3)             # exactly 1/(2N²)


def test_frequencies_equal_the_chain_and_converge_to_euler_bernoulli() -> None:
    """The linearized assembled DAE has the bar-chain's frequencies (M φ̈ + K φ = 0 in
    segment angles) to 1e-10, and they approach ω_n = (β_n L)² √(EI/(ρA L⁴)) at second
    order in 1/N (measured order 1.99–2.00, errors 0.18 %, 0.62 %, 1.0 % at N = 16)."""
    w_eb = BETA_L**2 * np.sqrt(EI / (RHOA * L**4))
    err = {}
    for N in (8, 16):
        w = linear_frequencies(discrete_beam(L, N, rhoA=RHOA, EI=EI), 3)
        assert np.allclose(w, _chain_frequencies(N)[:3], rtol=1e-10, atol=0)
        err[N] = np.abs(w / w_eb - 1)
    assert np.all(err[16] < [2e-3, 7e-3, 1.1e-2])
    order = np.log2(err[8] / err[16])
    assert np.all(np.abs(order - 2) < 0.1)
    # the library's FEM beam (Timoshenko, shear stiff, no rotary inertia) agrees too
    fem = D.timoshenko(L, RHOA, 1e-8, EI, 1e7, elements=16, degree=2).frequencies(3)
    assert np.all(np.abs(fem / w_eb - 1) < 1e-3)     # measured ≤ 1.8e-4
    assert np.all(np.abs(w / fem - 1) < 1.1e-2)


def test_spatial_chains_bend_in_two_planes_and_twist() -> None:
    """Spherical joints with EI = (EI₂, EI₃) and GJ: the frequencies are the union of
    the two planar chains' and the torsional chain's (springs GJ/ℓ, inertia ρJℓ), which
    tends to the shaft's ω = (2n − 1)π/(2L) √(GJ/ρJ); universal joints drop torsion."""
    N, EI2, EI3, GJ, rhoI = 4, 1.0, 3.0, 0.4, 2e-3
    rhoJ = 2 * rhoI
    sph = linear_frequencies(discrete_beam(L, N, rhoA=RHOA, EI=(EI2, EI3), GJ=GJ,
                                           rhoI=rhoI, kind="spherical"))
    uni = linear_frequencies(discrete_beam(L, N, rhoA=RHOA, EI=(EI2, EI3), rhoI=rhoI,
                                           kind="universal"))

    def bend(E: float) -> np.ndarray:  # with rotary inertia ρIℓ on each segment
        M, K = _chain_matrices(N, RHOA, E)
        return np.sqrt(sl.eigh(K, M + rhoI * L / N * np.eye(N), eigvals_only=True))

    twist = _chain_frequencies(N, EI=GJ, rot=rhoJ)
    assert np.allclose(sph, np.sort(np.concatenate([bend(EI2), bend(EI3), twist])),
                       rtol=1e-9, atol=0)
    assert np.allclose(uni, np.sort(np.concatenate([bend(EI2), bend(EI3)])), rtol=1e-9,
                       atol=0)
    shaft = np.pi / (2 * L) * np.sqrt(GJ / rhoJ)
    errs = [abs(_chain_frequencies(n, EI=GJ, rot=rhoJ)[0] / shaft - 1) for n in (8, 16)]
    assert errs[1] < 1e-3 and abs(np.log2(errs[0] / errs[1]) - 2) < 0.05


def test_free_vibration_keeps_energy_and_has_the_chain_period() -> None:
    """Released in its first mode (joint rates along the chain's mode shape), the chain
    swings with the period 2π/ω₁ (midpoint rule: to its own discrete period
    πh/arctan(ω₁h/2), measured 4e-8) and keeps H to round-off; with η > 0 H never rises."""
    N, dt = 4, 2e-3
    mech = discrete_beam(L, N, rhoA=RHOA, EI=EI)
    M, K = _chain_matrices(N, RHOA, EI)
    w2, V = sl.eigh(K, M)
    w1, phi = np.sqrt(w2[0]), V[:, 0]
    rel = np.diff(np.concatenate([[0.0], phi])) * 1e-2 / np.max(np.abs(phi))
    v0 = {f"beam_j{i}": r for i, r in enumerate(rel)}
    T = 2 * np.pi / w1
    res = mech.simulate(1.2 * T, v0=v0, dt=dt)
    assert np.ptp(res.H) < 1e-12 * res.H[0] + 1e-15
    q = res.joint("beam_j0")[:, 0]
    up = np.flatnonzero((q[:-1] < 0) & (q[1:] >= 0))   # the rising zero crossing
    i = up[0]
    t_cross = res.t[i] - q[i] * dt / (q[i + 1] - q[i])
    discrete = np.pi * dt / np.arctan(w1 * dt / 2)
    assert abs(t_cross / discrete - 1) < 1e-6
    damped = discrete_beam(L, N, rhoA=RHOA, EI=EI, eta=1e-3).simulate(0.3, v0=v0, dt=dt)
    assert np.diff(damped.H).max() < 1e-15 and damped.H[-1] < 0.99 * damped.H[0]


def test_attached_to_a_body_and_errors() -> None:
    """A chain hung from a body of an existing mechanism joins it; bad input is named."""
    mech = Mechanism()
    mech.add_body("hub", 1.0, [0.1, 0.1, 0.1])
    mech.add_joint("pivot", "revolute", "ground", "hub")
    discrete_beam(L, 3, rhoA=RHOA, EI=EI, mechanism=mech, parent="hub", name="arm",
                  direction=[0, -1, 0])
    assert list(mech.joints) == ["pivot", "arm_j0", "arm_j1", "arm_j2"]
    assert np.allclose(mech.actuators["arm_j0"].stiffness, 2 * EI / (L / 3))
    with pytest.raises(ModelError, match="kind"):
        discrete_beam(L, 3, rhoA=RHOA, EI=EI, kind="hinge")
    with pytest.raises(ModelError, match="GJ"):
        discrete_beam(L, 3, rhoA=RHOA, EI=EI, kind="spherical", rhoI=1e-3)
    with pytest.raises(ModelError, match="coordinate axes"):
        discrete_beam(L, 3, rhoA=RHOA, EI=EI, GJ=1.0, rhoI=1e-3, kind="spherical",
                      direction=[1, 1, 0])
    with pytest.raises(ModelError, match="segments"):
        discrete_beam(L, 0, rhoA=RHOA, EI=EI)
    with pytest.raises(ModelError, match="parent"):
        discrete_beam(L, 2, rhoA=RHOA, EI=EI, mechanism=mech, parent="nope", name="b")
    with pytest.raises(ModelError, match="gravity"):
        linear_frequencies(discrete_beam(L, 2, rhoA=RHOA, EI=EI, gravity=[0, -9.81, 0]))
