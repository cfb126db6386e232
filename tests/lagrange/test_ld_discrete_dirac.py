"""The discrete Dirac integrator (midpoint discrete Lagrange–d'Alembert–Pontryagin,
Leok & Ohsawa 2011): energy, discrete Dirac structure, momentum maps, symplecticity,
and trajectories against closed forms, the monolithic models and the pH midpoint rule."""

import re
import runpy
import sys as _sys
from functools import cache

import numpy as np
import pytest
import scipy.linalg as sla
import sympy
from ld_models import (
    SPRING_PARAMS,
    k1,
    m1,
    rolling_disk,
    series_rlc_monolithic,
    series_rlc_torn,
    spring_mono,
    spring_torn,
    t,
)
from sympy.physics.mechanics import dynamicsymbols

from conftest import EXAMPLES
from porthamiltonian import ModelError, lagrange

Q0, V0 = [0.1, 0.1, -0.2], [0.3, 0.3, 0.0]  # torn chain: y1 = x1, ẏ1 = ẋ1
LC = dict(R=0.0, L=0.5, C=0.2)  # ω = 1/√(LC) = √10 rad/s
LCQ0 = [1e-3] * 3  # charges (C); currents zero

# ------------------------------------------------------------- models with a symmetry

X, Y, R, TH = dynamicsymbols("x y r theta")
MASS, K, EPS = 1.3, 2.0, 0.5  # kg, N/m, N/m³: V = k r²/2 + ε r⁴/4


def central_cartesian():
    """Planar particle in the central potential V(|q|): SO(2)-invariant Lagrangian."""
    r2 = X**2 + Y**2
    L = MASS * (X.diff(t) ** 2 + Y.diff(t) ** 2) / 2 - K * r2 / 2 - EPS * r2**2 / 4
    return lagrange.LagrangeDiracSystem([X, Y], L, name="central force")


def central_polar():
    """The same particle in polar coordinates: configuration-dependent mass matrix."""
    L = (MASS * (R.diff(t) ** 2 + R**2 * TH.diff(t) ** 2) / 2 - K * R**2 / 2
         - EPS * R**4 / 4)
    return lagrange.LagrangeDiracSystem([R, TH], L, name="central force (polar)")


def free_chain():
    """Two free masses joined by a spring, torn at the spring's left end (no wall):
    translation invariant, so the total momentum is a momentum map."""
    a, b, c = dynamicsymbols("a b c")
    mass = lagrange.LagrangeDiracSystem([a], 1.5 * a.diff(t) ** 2 / 2, name="mass a")
    spring = lagrange.LagrangeDiracSystem([b, c], 0.7 * c.diff(t) ** 2 / 2 - 4 * (c - b) ** 2 / 2,
                                          name="spring+mass c")
    return lagrange.interconnect([mass, spring], lagrange.interaction([{a: 1, b: -1}]))


@cache
def run(name: str, dt: float, t_end: float):
    """Cached runs shared by the tests (each model is integrated once per step)."""
    make, q0, v0 = {
        "torn chain": (spring_torn, Q0, V0),
        "chain": (spring_mono, [Q0[0], Q0[2]], [V0[0], V0[2]]),
        "torn LC": (lambda: series_rlc_torn(**LC), LCQ0, [0, 0, 0]),
        "LC": (lambda: series_rlc_monolithic(**LC), LCQ0[:1], [0]),
        "torn RLC": (lambda: series_rlc_torn(0.4, 0.5, 0.2), LCQ0, [0, 0, 0]),
        "central": (central_cartesian, [1.0, 0.0], [0.2, 1.1]),
        "polar": (central_polar, [1.0, 0.0], [0.2, 1.1]),
        "free chain": (free_chain, [0.0, 0.0, 0.5], [0.3, 0.3, -0.4]),
        "disk": (rolling_disk, [0, 0, 0, 0.4], [0.5 * np.cos(0.4), 0.5 * np.sin(0.4), 1.0, 0.7]),
    }[name]
    system = make()
    return system, lagrange.discrete_dirac(system, t_end, q0, v0, dt)


def chain_exact(times):
    """Closed form of the monolithic chain: exp(t [[0, I], [−M⁻¹K, 0]]) x0."""
    p = {str(k): v for k, v in SPRING_PARAMS.items()}
    M = np.diag([p["m1"], p["m2"]])
    Kmat = np.array([[p["k1"] + p["k2"], -p["k2"]], [-p["k2"], p["k2"]]])
    A = np.block([[np.zeros((2, 2)), np.eye(2)], [-np.linalg.solve(M, Kmat), np.zeros((2, 2))]])
    x0 = np.array([Q0[0], Q0[2], V0[0], V0[2]])
    return np.array([sla.expm(tk * A) @ x0 for tk in times])


# ------------------------------------------------------------------------- (a) energy


@pytest.mark.parametrize("name", ["torn chain", "torn LC"])
def test_energy_is_exact_for_quadratic_lagrangians_over_1e4_steps(name):
    """L = ½vᵀMv − V(q), V quadratic, constant constraint forms: the midpoint L_d gives
    E_{k+1} = E_k exactly (module docstring of lagrange.discrete)."""
    dt = 0.01 if name == "torn chain" else 0.002
    _, res = run(name, dt, 1e4 * dt)
    assert len(res.t) == 10_001
    E0 = res.energy[0]
    assert E0 > 0
    assert np.max(np.abs(res.energy - E0)) < 1e-12 * E0
    assert np.ptp(res.v[:, 0]) > 0.1 * np.max(np.abs(res.v[:, 0]))  # it does oscillate


def test_discrete_power_balance_of_the_torn_rlc_circuit():
    """With a resistor E_k − E_0 = W_k = Σ h⟨F, w⟩ = −Σ h R w_R² exactly, while the
    energy decays by orders of magnitude."""
    _, res = run("torn RLC", 0.005, 10.0)
    assert res.energy[-1] < 1e-2 * res.energy[0]
    assert np.max(np.abs(res.energy_residual)) < 1e-13 * res.energy[0]
    dissipated = np.cumsum(0.005 * 0.4 * res.w[:, 1] ** 2)  # h R i_R² at the midpoints
    assert np.max(np.abs(res.work[1:] + dissipated)) < 1e-13 * res.energy[0]


def test_energy_error_of_a_nonlinear_system_oscillates_without_drift():
    """Anharmonic central force (non-quadratic V), 10⁴ steps: the energy error is a
    bounded O(h²) oscillation — as large at the end as at the start, no trend, and 4×
    smaller when h halves."""
    _, res = run("central", 0.02, 200.0)
    err = res.energy - res.energy[0]
    quarter = len(err) // 4
    first, last = np.max(np.abs(err[:quarter])), np.max(np.abs(err[-quarter:]))
    assert 1e-7 < last < 1.05 * first
    slope = np.polyfit(res.t, err, 1)[0]
    assert abs(slope) * res.t[-1] < 1e-2 * first
    _, coarse = run("central", 0.04, 200.0)
    ratio = np.max(np.abs(coarse.energy - coarse.energy[0])) / np.max(np.abs(err))
    assert 3.8 < ratio < 4.2


# ------------------------------------------------- (b) discrete Dirac structure, momenta


@pytest.mark.parametrize("name,dt", [("torn RLC", 0.005), ("disk", 0.02)])
def test_discrete_lagrange_dalembert_pontryagin_relations_hold_each_step(name, dt):
    """Independently of the integrator: with L_d from lagrange.discrete_lagrangian
    differentiated by SymPy, p_{k+1} − D2 L_d − F_d⁺ = −p_k − D1 L_d − F_d⁻ =
    ½h A(q̄) λ_k ∈ Δ°(q̄) and A(q̄)ᵀ(q_{k+1} − q_k) = 0, at every step."""
    sys, res = run(name, dt, 2.0)
    Ld, qa, qb = lagrange.discrete_lagrangian(sys, dt)
    D1 = sympy.lambdify((qa, qb), [Ld.diff(s) for s in qa])
    D2 = sympy.lambdify((qa, qb), [Ld.diff(s) for s in qb])
    par = {k: sympy.Float(v) for k, v in sys.parameters.items()}
    F = sympy.lambdify((sys.coordinates, sys.velocities), list(sys.forces.xreplace(par)))
    A = sympy.lambdify((sys.coordinates,), sys.constraint_forms.xreplace(par))
    for k in range(len(res.t) - 1):
        q0, q1 = res.q[k], res.q[k + 1]
        qbar, w = (q0 + q1) / 2, (q1 - q0) / dt
        Fd = 0.5 * dt * np.array(F(qbar, w), dtype=float)
        plus = res.p[k + 1] - np.array(D2(q0, q1)) - Fd
        minus = -res.p[k] - np.array(D1(q0, q1)) - Fd
        Ab = np.array(A(qbar), dtype=float)
        react = 0.5 * dt * Ab @ res.lam[k + 1]
        scale = np.max(np.abs(res.p)) + 1e-300
        assert np.max(np.abs(plus - react)) < 1e-12 * scale
        assert np.max(np.abs(minus - react)) < 1e-12 * scale
        assert np.max(np.abs(Ab.T @ (q1 - q0))) < 1e-13 * np.max(np.abs(res.q))


def test_linear_constraints_hold_exactly_at_the_grid_points():
    """Holonomic linear constraints (continuity y1 = x1, Kirchhoff's current law) are
    kept to round-off at every grid point, with velocities in Δ there too."""
    _, chain = run("torn chain", 0.01, 100.0)
    assert np.max(np.abs(chain["y1"] - chain["x1"])) < 1e-14
    _, lc = run("torn LC", 0.002, 20.0)
    assert np.max(np.abs(lc["qL"] - lc["qC"])) < 1e-16
    assert np.max(np.abs(lc.constraint_residual)) < 1e-14 * np.max(np.abs(lc.v))
    # the resistor and capacitor branches carry no flux linkage: p = ∂L/∂v = 0
    assert np.max(np.abs(lc.p[:, 1:])) < 1e-15 * np.max(np.abs(lc.p[:, 0]))


def test_momentum_maps_are_conserved_to_round_off():
    """Discrete Noether: L_d inherits the symmetries that act linearly on Q — rotations
    for the central force (angular momentum x p_y − y p_x), translations for the free
    torn chain (total momentum; the interaction force is internal)."""
    _, res = run("central", 0.02, 200.0)
    J = res.q[:, 0] * res.p[:, 1] - res.q[:, 1] * res.p[:, 0]
    assert np.max(np.abs(J - J[0])) < 1e-12 * abs(J[0])
    _, chain = run("free chain", 0.01, 20.0)
    total = chain.p.sum(axis=1)
    assert np.max(np.abs(total - total[0])) < 1e-14 * np.max(np.abs(chain.p))
    assert np.max(np.abs(chain.lam[1:, 0])) > 0.1  # the interaction force is not zero


# ----------------------------------------------------------------------- (c) symplectic


def _jacobian(f, z, d):
    """Fourth-order central differences."""
    cols = []
    for i in range(len(z)):
        e = np.zeros(len(z))
        e[i] = d
        cols.append((-f(z + 2 * e) + 8 * f(z + e) - 8 * f(z - e) + f(z - 2 * e)) / (12 * d))
    return np.array(cols).T


def _symplectic_defect(M):
    n = M.shape[0] // 2
    Om = np.block([[np.zeros((n, n)), np.eye(n)], [-np.eye(n), np.zeros((n, n))]])
    return np.max(np.abs(M.T @ Om @ M - Om))


@pytest.mark.parametrize("make,z0,tol", [
    (spring_mono, [0.1, -0.2, 0.3, 0.4], 1e-13),   # linear: the map is affine
    (central_cartesian, [1.0, 0.3, 0.2, 1.4], 1e-10),
    (central_polar, [1.0, 0.3, 0.2, 1.4], 1e-10),
])
def test_one_step_map_is_symplectic(make, z0, tol):
    sys = make()
    step = lagrange.DiscreteDiracStep(sys, 0.1)
    n = sys.n

    def phi(z):
        s = step.step(0.0, z[:n], z[n:], np.zeros(n))
        return np.r_[s.q, s.p]

    defect = _symplectic_defect(_jacobian(phi, np.array(z0), 1e-3))
    assert defect < tol


def test_symplecticity_check_detects_a_non_symplectic_method():
    """Control: Heun's method (explicit, order 2) on the same central force, same h."""
    def f(z):
        q, p = z[:2], z[2:]
        return np.r_[p / MASS, -(K + EPS * q @ q) * q]

    def heun(z, h=0.1):
        a = f(z)
        return z + h / 2 * (a + f(z + h * a))

    assert _symplectic_defect(_jacobian(heun, np.array([1.0, 0.3, 0.2, 1.4]), 1e-3)) > 1e-5


# ------------------------------------------------------------------ (d) trajectories


def test_interconnected_and_monolithic_discrete_trajectories_coincide():
    """Discretization commutes with the interconnection for linear interaction forms:
    the torn chain and the torn LC circuit follow their monolithic models to round-off
    over 10⁴ steps."""
    _, torn = run("torn chain", 0.01, 100.0)
    _, mono = run("chain", 0.01, 100.0)
    assert np.max(np.abs(torn.q[:, [0, 2]] - mono.q)) < 1e-13
    assert np.max(np.abs(torn.energy - mono.energy)) < 1e-13
    _, tlc = run("torn LC", 0.002, 20.0)
    _, lc = run("LC", 0.002, 20.0)
    assert np.max(np.abs(tlc["qC"] - lc["q"])) < 1e-15  # charges of 1 mC
    assert np.max(np.abs(tlc.p[:, 0] - lc.p[:, 0])) < 1e-15


@pytest.mark.parametrize("name,make,q0,v0", [
    ("chain", spring_mono, [Q0[0], Q0[2]], [V0[0], V0[2]]),
    ("central", central_cartesian, [1.0, 0.0], [0.2, 1.1]),
])
def test_matches_the_midpoint_ph_integrator(name, make, q0, v0):
    """For a constant mass matrix the midpoint L_d is the implicit midpoint rule on the
    pH (descriptor) form x = (q, v): the same trajectory up to the Newton tolerances,
    far below the discretization error."""
    sys = make()
    dd = lagrange.discrete_dirac(sys, 20.0, q0, v0, 0.02)
    ph = sys.simulate(20.0, q0, v0, method="midpoint", dt=0.02)
    ref = sys.simulate(20.0, q0, v0, dt=0.02)
    assert np.max(np.abs(dd.q - ph.q)) < 1e-10
    assert np.max(np.abs(dd.v - ph.v)) < 1e-10
    assert np.max(np.abs(dd.q - ref.q)) > 1e-5  # the discretization error is much larger


def _order(errors):
    return np.log2(np.asarray(errors[:-1]) / np.asarray(errors[1:]))


def test_second_order_convergence_against_closed_forms():
    """Torn chain against exp(tA) of the monolithic chain; torn LC circuit against
    q_C = q0 cos(t/√(LC))."""
    steps = (0.04, 0.02, 0.01)
    chain_err, lc_err = [], []
    for h in steps:
        _, res = run("torn chain", h, 10.0)
        exact = chain_exact(res.t[-1:])[0]
        chain_err.append(np.max(np.abs(res.q[-1, [0, 2]] - exact[:2])))
        _, lc = run("torn LC", h / 4, 2.0)
        omega = 1 / np.sqrt(LC["L"] * LC["C"])
        lc_err.append(abs(lc["qC"][-1] - 1e-3 * np.cos(omega * lc.t[-1])))
    assert np.all(np.abs(_order(chain_err) - 2) < 0.05), chain_err
    assert np.all(np.abs(_order(lc_err) - 2) < 0.05), lc_err


@pytest.mark.parametrize("name", ["polar", "disk"])
def test_second_order_with_configuration_dependent_mass_or_constraints(name):
    """Polar coordinates (mass matrix depends on r) and the rolling disk (A depends on
    φ) against the DOP853 route at rtol 1e-11."""
    errors = []
    for h in (0.05, 0.025, 0.0125):
        sys, res = run(name, h, 5.0)
        if not errors:
            ref = sys.simulate(5.0, res.q[0], res.v[0], dt=5.0)
        errors.append(np.max(np.abs(res.q[-1] - ref.q[-1])))
    assert np.all(np.abs(_order(errors) - 2) < 0.05), errors


# ---------------------------------------------------------------------- errors, example


def test_input_errors_are_reported():
    with pytest.raises(ModelError, match="violate constraint 0"):
        lagrange.discrete_dirac(spring_torn(), 1.0, Q0, [0.3, 0.0, 0.0], 0.1)
    q = dynamicsymbols("q")
    cap = lagrange.LagrangeDiracSystem([q], -q**2 / 2, name="cap")
    with pytest.raises(ModelError, match="degenerate in directions"):
        lagrange.discrete_dirac(cap, 1.0, [1.0], [0.0], 0.1)
    with pytest.raises(ModelError, match="starts at t = 0"):
        lagrange.discrete_dirac(spring_mono(), (1.0, 2.0), [0, 0], [0, 0], 0.1)
    spring = lagrange.LagrangeDiracSystem([q], m1 * q.diff(t) ** 2 / 2 - k1 * q**2 / 2)
    with pytest.raises(ModelError, match="still depends on"):
        lagrange.discrete_dirac(spring, 1.0, [1.0], [0.0], 0.1)


def test_short_last_step_ends_at_t_end():
    _, res = run("chain", 0.3, 1.0)
    assert res.t[-1] == pytest.approx(1.0, abs=1e-15)
    assert np.diff(res.t)[-1] == pytest.approx(0.1)
    assert abs(res.energy[-1] - res.energy[0]) < 1e-14


def test_example_runs(tmp_path, monkeypatch, capsys):
    out_png = tmp_path / "dd.png"
    monkeypatch.setattr(_sys, "argv", ["x", "--out", str(out_png)])
    runpy.run_path(str(EXAMPLES / "lagrange_discrete_dirac.py"), run_name="__main__")
    text = capsys.readouterr().out
    drift = float(re.search(r"torn chain: max \|E - E0\|/E0 over 10000 steps\s+= (\S+)",
                            text).group(1))
    assert drift < 1e-12
    order = float(re.search(r"convergence order\s+= (\S+)", text).group(1))
    assert abs(order - 2) < 0.05
    assert out_png.stat().st_size > 10_000

