"""Casimir functions: exact kernels, conservation in simulation, nonlinear and candidates."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from porthamiltonian import PHS, ModelError, control
from porthamiltonian.simulate import simulate


def two_masses(c: float = 0.3) -> PHS:
    """Two masses joined by a spring and a damper: states (spring elongation q, p1, p2).

    q̇ = v1 − v2, ṗ1 = −k q − c (v1 − v2), ṗ2 = k q + c (v1 − v2) + F.  Internal forces
    cancel in ṗ1 + ṗ2, so p1 + p2 is conserved when F = 0 (whatever k, c, m1, m2).
    """
    q, p1, p2 = sp.symbols("q p1 p2", real=True)
    J = [[0, 1, -1], [-1, 0, 0], [1, 0, 0]]
    R = sp.Matrix([[0, 0, 0], [0, c, -c], [0, -c, c]])
    return PHS(J=J, R=R, G=[[0], [0], [1]], hamiltonian=3 * q**2 / 2 + p1**2 / 2 + p2**2 / 4,
               states=["q", "p1", "p2"], inputs=["F"])


def test_total_momentum_is_the_casimir_of_the_unforced_two_mass_system():
    q, p1, p2 = sp.symbols("q p1 p2", real=True)
    C = control.casimirs(two_masses(), include_inputs=False)
    assert len(C) == 1
    ratio = sp.simplify(C[0] / (p1 + p2))
    assert ratio.is_number and ratio != 0
    # with the force on mass 2, nothing is conserved for every input
    assert len(control.casimirs(two_masses())) == 0


def test_linear_casimirs_equal_an_independently_built_kernel_and_are_conserved():
    rng = np.random.default_rng(7)
    n, r = 6, 4
    B = rng.normal(size=(n, r))
    S = rng.normal(size=(r, r))
    Rr = rng.normal(size=(r, 2))
    J = B @ (S - S.T) @ B.T          # structure lives in range(B): kernel = null(Bᵀ)
    R = B @ (Rr @ Rr.T) @ B.T
    G = B @ rng.normal(size=(r, 1))
    Q = np.diag(rng.uniform(1.0, 3.0, size=n))
    sys = PHS(J=J, R=R, G=G, Q=Q)
    C = control.casimirs(sys)
    assert len(C) == n - r
    # the projector onto span(w_i) equals the projector onto null(Bᵀ) (from a QR of B)
    Qb, _ = np.linalg.qr(B, mode="complete")
    K = Qb[:, r:]
    W = C.weights
    assert W @ W.T == pytest.approx(np.eye(n - r), abs=1e-12)
    assert W.T @ W == pytest.approx(K @ K.T, abs=1e-10)
    for x in rng.normal(size=(5, n)):
        assert np.all(C.residual(x) <= 1e-12)
    res = simulate(sys, (0.0, 5.0), rng.normal(size=n), u=lambda t: np.sin(3 * t),
                   method="midpoint", dt=1e-2)
    drift = C.evaluate(res.x) - C.evaluate(res.x[0])
    assert np.max(np.abs(drift)) <= 1e-13 * max(1.0, np.max(np.abs(res.x)))


def test_symbolic_linear_casimirs_are_exact_rational_vectors():
    k, m1, m2 = sp.symbols("k m1 m2", positive=True)
    q, p1, p2 = sp.symbols("q p1 p2", real=True)
    sys = PHS(J=[[0, 1, -1], [-1, 0, 0], [1, 0, 0]],
              hamiltonian=k * q**2 / 2 + p1**2 / (2 * m1) + p2**2 / (2 * m2),
              states=["q", "p1", "p2"])
    (C,) = control.casimirs(sys)
    assert sp.simplify(C / (p1 + p2)).is_Rational


def test_rigid_body_casimir_is_the_squared_angular_momentum_and_is_conserved():
    p = sp.symbols("p1 p2 p3", real=True)
    inertia = (1.0, 2.0, 3.0)
    J = sp.Matrix([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])
    H = sum(pi**2 / (2 * Ii) for pi, Ii in zip(p, inertia, strict=True))
    body = PHS(J=J, hamiltonian=H, states=["p1", "p2", "p3"])
    C = control.casimirs(body)
    assert len(C) == 1
    ratio = sp.simplify(C[0] / (p[0] ** 2 + p[1] ** 2 + p[2] ** 2))
    assert ratio.is_number and ratio != 0
    res = simulate(body, (0.0, 20.0), [1.0, 0.2, -0.5], method="midpoint", dt=1e-2)
    vals = C.evaluate(res.x)[:, 0]
    # the implicit midpoint rule conserves quadratic invariants exactly (round-off only)
    assert np.max(np.abs(vals - vals[0])) <= 1e-12 * abs(vals[0])


def test_candidates_are_verified_and_bad_ones_report_their_residual():
    p = sp.symbols("p1 p2 p3", real=True)
    J = sp.Matrix([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])
    body = PHS(J=J, hamiltonian=sum(pi**2 for pi in p) / 2, states=["p1", "p2", "p3"])
    good = control.casimirs(body, ["sqrt(p1**2 + p2**2 + p3**2)"])
    assert good.method == "verified"
    with pytest.raises(ModelError, match="candidate 0 = p1.*not a Casimir"):
        control.casimirs(body, [p[0]])
    loose = control.casimirs(body, [p[0]], check=False)
    x = np.array([0.5, 2.0, -1.0])
    # ∂C/∂xᵀ J = first row of J = [0, −p3, p2]: largest entry max(|p3|, |p2|) = 2
    assert loose.residual(x)[0] == pytest.approx(2.0)
