"""POD of a nonlinear chain: the reduced model is a PHS (J skew, R ⪰ 0), its simulated
power balance closes to round-off, and its trajectory stays near the full one."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from porthamiltonian import PHS, simulate
from porthamiltonian.errors import ModelError
from porthamiltonian.reduction import reduce


def quartic_chain(n: int = 6, m: float = 1.0, k: float = 4.0, k3: float = 4.0,
                  c: float = 0.2) -> PHS:
    """n masses in a row, the first tied to a wall, springs with a hardening quartic term
    H = Σ p²/2m + Σ (k d²/2 + k3 d⁴/4), d the elongation; damping c on every mass; a force
    on the last mass, its velocity the output."""
    q = sp.symbols(f"q1:{n + 1}", real=True)
    p = sp.symbols(f"p1:{n + 1}", real=True)
    d = [q[0]] + [q[i] - q[i - 1] for i in range(1, n)]
    H = sum(pi**2 / (2 * m) for pi in p) + sum(k * di**2 / 2 + k3 * di**4 / 4 for di in d)
    N = 2 * n
    J = np.zeros((N, N))
    J[:n, n:] = np.eye(n)
    J -= J.T
    R = np.zeros((N, N))
    R[n:, n:] = c * np.eye(n)
    G = np.zeros((N, 1))
    G[-1, 0] = 1.0
    return PHS(J=J, R=R, G=G, hamiltonian=H, states=[str(s) for s in (*q, *p)],
               inputs=["F"], outputs=["v"], name="quartic chain")


#: a slow force: the chain answers with few shapes, which POD finds in the snapshots
FORCE = "sin(0.4*t)"


def run(system, x0):
    # the NumPy engine: a reduced model is new each time, Numba would compile it each time
    return simulate(system, (0, 8), x0=x0, u=FORCE, method="discrete_gradient", dt=0.02,
                    engine="numpy")


@pytest.fixture(scope="module")
def runs():
    sys = quartic_chain(5)
    full = run(sys, np.zeros(sys.n_states))
    red = reduce(sys, 6, "pod", snapshots=full)
    rres = run(red.system, red.to_reduced(np.zeros(sys.n_states)))
    return sys, full, red, rres


def test_reduced_structure(runs):
    sys, _, red, _ = runs
    r = red.system
    assert r.n_states == 6 and red.method == "pod" and red.h2_error is None
    J = np.asarray(r.J, dtype=float)
    assert np.abs(J + J.T).max() == 0.0  # skew to the last bit
    assert np.linalg.eigvalsh(np.asarray(r.R, dtype=float)).min() >= -1e-14
    assert np.allclose(red.V.T @ red.V, np.eye(6), atol=1e-12)
    # H_r(x_r) = H(V x_r): the full energy law, not a quadratic fit
    xr = np.linspace(-0.2, 0.3, 6)
    assert r.energy(xr) == pytest.approx(sys.energy(red.to_full(xr)), rel=1e-12)
    assert red.info["captured_energy"] > 0.9999 and red.info["augmented"]


def test_reduced_power_balance_closes(runs):
    _, _, _, rres = runs
    scale = np.abs(rres.supplied).max() * 0.01  # the work of one step at peak power
    assert np.abs(rres.power_residual).max() <= 1e-10 * scale
    assert rres.H.min() >= 0


def test_reduced_trajectory_near_full(runs):
    _, full, red, rres = runs
    err = np.abs(rres["v"] - full["v"]).max() / np.abs(full["v"]).max()
    assert err < 0.05  # measured 0.016
    x_back = red.to_full(rres.x)
    assert np.linalg.norm(x_back - full.x) / np.linalg.norm(full.x) < 0.05
    assert np.abs(rres.H - full.H).max() < 0.05 * full.H.max()


@pytest.mark.slow
def test_error_falls_with_order_when_augmented(runs):
    sys, full, _, _ = runs
    errs = []
    for r in (2, 4):
        red = reduce(sys, r, "pod", snapshots=full)
        rres = run(red.system, np.zeros(r))
        errs.append(np.abs(rres["v"] - full["v"]).max() / np.abs(full["v"]).max())
    assert errs[1] < errs[0] / 2  # measured 0.15 → 0.05 (→ 0.016 at r = 6)


@pytest.mark.slow
def test_plain_pod_can_go_wrong(runs):
    # without the J-augmentation, r = 5 pairs a position with no momentum: J_r is singular
    sys, full, _, _ = runs
    red = reduce(sys, 5, "pod", snapshots=full, augment=False)
    J = np.asarray(red.system.J, dtype=float)
    assert abs(np.linalg.det(J)) < 1e-12  # odd dimension, skew
    rres = run(red.system, np.zeros(5))
    assert np.abs(rres["v"] - full["v"]).max() > 0.2 * np.abs(full["v"]).max()


@pytest.mark.slow
def test_effort_projection_variant(runs):
    sys, full, _, _ = runs
    red = reduce(sys, 4, "pod", snapshots=full, projection="effort")
    r = red.system
    J = np.asarray(r.J, dtype=float)
    assert np.abs(J + J.T).max() == 0.0
    assert np.allclose(red.W.T @ red.V, np.eye(4), atol=1e-10)
    rres = run(r, np.zeros(4))
    assert np.abs(rres.power_residual).max() <= 1e-12 * np.abs(rres.supplied).max()
    assert np.abs(rres["v"] - full["v"]).max() < 0.1 * np.abs(full["v"]).max()


def test_pod_needs_snapshots_and_enough_of_them():
    sys = quartic_chain(3)
    with pytest.raises(ModelError, match="snapshots="):
        reduce(sys, 2, "pod")
    with pytest.raises(ModelError, match="span only 1"):
        reduce(sys, 2, "pod", snapshots=np.ones((6, 5)), augment=False)
    with pytest.raises(ModelError, match="NaN"):
        reduce(sys, 2, "pod", snapshots=np.full((6, 5), np.nan))
    with pytest.raises(ModelError, match="not below the 6 states"):
        reduce(sys, 6, "pod", snapshots=np.eye(6))
    with pytest.raises(ModelError, match="array of numbers"):
        reduce(sys, 2, "pod", snapshots=[["a"] * 5] * 6)


def test_auto_picks_pod_for_nonlinear():
    sys = quartic_chain(3)
    rng = np.random.default_rng(0)
    red = reduce(sys, 3, snapshots=rng.standard_normal((6, 20)))
    assert red.method == "pod" and red.system.n_states == 3
