"""The numeric assembly (mechanics.assembly) against the symbolic one and against finite
differences; a long chain's first mode against the linearized chain equations."""

import numpy as np
import pytest
import scipy.linalg as sla
from mechanics_models import four_bar, serial_chain, two_joints

from porthamiltonian import ModelError
from porthamiltonian.mechanics import Mechanism
from porthamiltonian.mechanics.assembly import MechanismDAE
from porthamiltonian.mechanics.joints import KINDS


def dense(A):
    return A.toarray() if hasattr(A, "toarray") else np.asarray(A, dtype=float)


def double_pendulum_pd() -> Mechanism:
    mech = Mechanism(gravity=[0.3, -9.81, 0.2])
    mech.add_body("a", 1.2, [0.09, 0.005, 0.09], com=[0.02, -0.4, 0.01])
    mech.add_body("b", 0.7, [0.03, 0.005, 0.03], com=[0, -0.35, 0.05])
    mech.add_joint("j1", "revolute", "ground", "a")
    mech.add_joint("j2", "revolute", "a", "b", parent_anchor=[0, -0.9, 0])
    mech.add_actuator("j1", stiffness=5.0, damping=0.3, setpoint=0.4)
    mech.add_actuator("j2", damping=0.2)
    return mech


@pytest.mark.parametrize("build, q0", [(double_pendulum_pd, None),
                                       (four_bar, {"O": 0.5})])
@pytest.mark.slow
def test_numeric_assembly_equals_symbolic(build, q0):
    """Same states, multipliers (the same redundant rows dropped), and at arbitrary raw
    states (off the rotation manifold too: the step equations are posed there) the same
    efforts, energy, right-hand side f, constraint columns B, Bᵀw and the Jacobians."""
    mech = build()
    sym = mech.system(q0)
    dropped = list(mech.dropped)
    num = mech.assemble(q0)
    assert mech.dropped == dropped
    assert list(sym.states) == num.states and list(sym.multipliers) == num.multipliers
    assert list(sym.inputs) == num.inputs and list(sym.outputs) == num.outputs
    c = sym.compile()
    rng = np.random.default_rng(3)
    states = [rng.normal(size=num.n) for _ in range(3)]
    states.append(mech.initial_state(q0, {"j1": 1.0} if num.m else {"O": 2.0}))
    for x in states:
        w, lam, u = rng.normal(size=num.n), rng.normal(size=num.k), rng.normal(size=num.m)
        np.testing.assert_allclose(num.z(x), c.z(x), atol=1e-12)
        assert num.energy(x) == pytest.approx(c.energy(x), rel=1e-14, abs=1e-12)
        np.testing.assert_allclose(num.f(x, w, lam, u), c.f(x, w, lam, u), atol=1e-12)
        np.testing.assert_allclose(dense(num.B(x)), dense(c.B(x)), atol=1e-12)
        np.testing.assert_allclose(num.c(x, w), c.c(x, w), atol=1e-12)
        np.testing.assert_allclose(dense(num.f_x(x, w, lam, u)), dense(c.f_x(x, w, lam, u)),
                                   atol=1e-12)
        np.testing.assert_allclose(dense(num.c_x(x, w)), dense(c.c_x(x, w)), atol=1e-12)
        for name in "JRG":
            np.testing.assert_allclose(dense(num.matrix(name, x)), dense(c.matrix(name, x)),
                                       atol=1e-12)
        np.testing.assert_allclose(num.output(x, u), c.output(x, u), atol=1e-12)
        np.testing.assert_allclose(dense(num.Dz(x)), dense(c.Dz(x)), atol=1e-12)


@pytest.mark.parametrize("kind", list(KINDS))
def test_derivatives_are_those_of_f_and_c(kind):
    """f_x and c_x equal central differences of f and Bᵀw for every joint kind, with
    actuators (springs and dampers) on both joints — an independent check of the
    hand-written forward-mode derivatives."""
    mech = two_joints(kind)
    if KINDS[kind]:
        mech.add_actuator("j", stiffness=3.0, damping=0.5, setpoint=0.2)
        mech.add_actuator("k", damping=0.7)
    num = mech.assemble()
    rng = np.random.default_rng(len(kind))
    x, w = rng.normal(size=num.n), rng.normal(size=num.n)
    lam, u = rng.normal(size=num.k), rng.normal(size=num.m)
    h = 1e-6
    cols_f, cols_c = [], []
    for i in range(num.n):
        e = np.zeros(num.n)
        e[i] = h
        cols_f.append((num.f(x + e, w, lam, u) - num.f(x - e, w, lam, u)) / (2 * h))
        cols_c.append((num.c(x + e, w) - num.c(x - e, w)) / (2 * h))
    np.testing.assert_allclose(dense(num.f_x(x, w, lam, u)), np.array(cols_f).T, atol=1e-7)
    np.testing.assert_allclose(dense(num.c_x(x, w)), np.array(cols_c).T, atol=1e-7)
    # constraint rows vanish at any joint configuration; the symbolic rows agree there
    q = {"j": rng.uniform(-1, 1, KINDS[kind]), "k": rng.uniform(-1, 1, KINDS[kind])}
    x0 = mech.initial_state(q)
    assert np.abs(num.position_residual(x0)).max(initial=0.0) < 1e-14


def test_dense_and_sparse_evaluation_agree():
    mech = double_pendulum_pd()
    a, b = MechanismDAE(mech, sparse=False), MechanismDAE(mech, sparse=True)
    x = np.random.default_rng(0).normal(size=a.n)
    w, lam, u = x[::-1].copy(), np.ones(a.k), np.ones(a.m)
    assert not a.sparse and b.sparse
    np.testing.assert_array_equal(a.f(x, w, lam, u), b.f(x, w, lam, u))
    np.testing.assert_allclose(a.f_x(x, w, lam, u), dense(b.f_x(x, w, lam, u)), atol=1e-14)
    np.testing.assert_allclose(a.constraint_jacobian(x), dense(b.constraint_jacobian(x)),
                               atol=1e-14)


def test_long_chain_first_mode_and_invariants():
    """A 12-rod chain (216 states, 60 multipliers: the sparse path) swinging in its first
    mode: the period is that of the linearized chain, M θ̈ + K θ = 0 in absolute angles
    with M = m AᵀA + I_c·1 (A_kj = L for j < k, L/2 for j = k) and K_jj = m g L(n − j − ½),
    up to the midpoint rule's own period πh/arctan(ω h/2); energy and joints to round-off."""
    n, L, m, g = 12, 0.1, 0.1, 9.81
    A = np.tril(np.full((n, n), L), -1) + np.diag(np.full(n, L / 2))
    M = m * A.T @ A + m * L**2 / 12 * np.eye(n)
    K = np.diag(m * g * L * (n - np.arange(n) - 0.5))
    w2, V = sla.eigh(K, M)
    w, phi = np.sqrt(w2[0]), V[:, 0] / np.abs(V[:, 0]).max()
    mech = serial_chain(n, L, m, g)
    q0 = {f"j{i}": 1e-3 * (phi[i] - (phi[i - 1] if i else 0.0)) for i in range(n)}
    h = 0.01
    res = mech.simulate(1.3 * 2 * np.pi / w, dt=h, q0=q0)
    assert mech.assemble().sparse
    th = res.joint("j0")[:, 0]
    k = np.flatnonzero(np.sign(th[:-1]) != np.sign(th[1:]))
    tc = res.t[k] + th[k] / (th[k] - th[k + 1]) * (res.t[k + 1] - res.t[k])
    T = 2 * np.diff(tc).mean()
    assert abs(T / (np.pi * h / np.arctan(w * h / 2)) - 1) < 2e-6
    assert abs(T / (2 * np.pi / w) - 1) < 2e-4                  # O((ωh)²) = 1e-4
    assert np.ptp(res.H) < 1e-13 * m * g * L * n**2
    assert res.constraint_residual().max() < 1e-13


def test_errors_are_named():
    with pytest.raises(ModelError, match="no bodies"):
        MechanismDAE(Mechanism())
    with pytest.raises(ModelError, match="unknown matrix 'X'"):
        double_pendulum_pd().assemble().matrix("X", np.zeros(37))
