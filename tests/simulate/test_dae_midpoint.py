"""Structure-preserving midpoint / discrete-gradient simulation of descriptor pH systems,
against independent references: the pendulum's angle ODE, the merged-capacitor and the
series-RC closed forms, and the discrete power balance recomputed from the states."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.integrate as si
from test_dae_models import (
    cartesian_pendulum,
    parallel_capacitors,
    parallel_capacitors_numeric,
    pendulum_x0,
    rc_with_algebraic_node,
)

from porthamiltonian import ModelError, SimulationError
from porthamiltonian.descriptor import DescriptorPHS
from porthamiltonian.simulate import simulate

G_ACC, LENGTH, MASS = 9.81, 1.0, 1.0


def _angle_reference(theta0: float, t: np.ndarray) -> si.OdeSolution:
    """θ'' = −(g/ℓ) sin θ by DOP853 at tight tolerance (an independent model)."""
    sol = si.solve_ivp(lambda _, y: [y[1], -G_ACC / LENGTH * np.sin(y[0])], (0.0, t[-1]),
                       [theta0, 0.0], method="DOP853", rtol=1e-13, atol=1e-13,
                       dense_output=True)
    return sol.sol


def test_cartesian_pendulum_follows_the_angle_ode_and_keeps_its_constraints():
    theta0, t_end = 1.2, 2.0
    d = cartesian_pendulum(MASS, G_ACC)
    errors = []
    for dt in (4e-3, 2e-3):
        res = simulate(d, (0.0, t_end), pendulum_x0(theta0), dt=dt)
        theta = np.arctan2(res["qx"], -res["qy"])
        ref = _angle_reference(theta0, res.t)
        errors.append(np.max(np.abs(theta - ref(res.t)[0])))
        # the velocity constraint holds where the method imposes it (the midpoints) ...
        assert np.max(res.constraint_residual) <= 1e-9
        # ... |q|² = ℓ² is a quadratic invariant the midpoint rule keeps exactly ...
        assert np.max(np.abs(res["qx"] ** 2 + res["qy"] ** 2 - LENGTH**2)) <= 1e-12
        # ... and energy is conserved (constraint forces do no work)
        assert np.max(np.abs(res.H - res.H[0])) <= 1e-12 * abs(res.H[0])
        # the rod force (μ/h, the mean over each step) is the tension m g cos θ + m ℓ θ̇²,
        # to O(h²) (measured: 1.8e-3 N at dt = 4 ms)
        tm = res.t[1:] - dt / 2
        th, om = ref(tm)
        tension = MASS * G_ACC * np.cos(th) + MASS * LENGTH * om**2
        tol = 2 * MASS * G_ACC * (G_ACC / LENGTH) * dt**2
        np.testing.assert_allclose(-res["rod"][1:] * LENGTH, tension, atol=tol)
    order = np.log2(errors[0] / errors[1])
    assert errors[1] < 2e-4
    assert 1.9 < order < 2.1
    # grid-point drift of the velocity constraint is O(h²), not growing
    assert np.max(res.node_constraint) < 10 * dt**2


def test_parallel_capacitors_equal_the_merged_capacitor():
    """C1 ∥ C2 kept as a DAE behaves as one capacitor C1 + C2 charged by a current I
    and discharged by R: v(t) = I R + (v0 − I R) exp(−t/(R C))."""
    C1, C2, Rl, current, v0 = 1e-3, 2e-3, 100.0, 0.05, 1.0
    C = C1 + C2
    d = parallel_capacitors_numeric(C1, C2, Rl)
    dt = 1e-3
    res = simulate(d, (0.0, 1.0), {"q1": C1 * v0, "q2": C2 * v0}, u=current, dt=dt)
    t = res.t
    v = current * Rl + (v0 - current * Rl) * np.exp(-t / (Rl * C))
    np.testing.assert_allclose(res["q1"] / C1, v, rtol=2e-6)
    np.testing.assert_allclose(res["q2"] / C2, v, rtol=2e-6)
    # the link current is the part of C1's charging current not given by the source:
    # C1 dv/dt − I at the step midpoints (mean over the step)
    tm = t[1:] - dt / 2
    vm = current * Rl + (v0 - current * Rl) * np.exp(-tm / (Rl * C))
    link = C1 * (current - vm / Rl) / C - current
    np.testing.assert_allclose(res["link"][1:], link, rtol=1e-5)
    # a linear constraint holds at the grid points too; LTI: one LU for all steps
    assert np.max(res.node_constraint) <= 1e-12 * v0
    assert res.newton_iterations == res.nsteps
    # discrete power balance recomputed from the states: ΔH = h(ū ȳ − z̄ᵀR z̄)
    x = res.x
    Q = np.diag([1 / C1, 1 / C2])
    H = 0.5 * np.einsum("ki,ij,kj->k", x, Q, x)
    zm = 0.5 * (x[1:] + x[:-1]) @ Q
    balance = np.diff(H) - dt * (current * zm[:, 0] - zm[:, 1] ** 2 / Rl)
    assert np.max(np.abs(balance)) <= 1e-12 * dt * current * v0 * 10
    assert np.max(np.abs(res.power_residual)) <= 1e-12 * dt * current * v0 * 10


def test_sparse_and_symbolic_models_give_the_same_trajectory():
    C1, C2, Rl = 1e-3, 2e-3, 100.0
    x0 = {"q1": 1e-3, "q2": 2e-3}
    runs = [simulate(sys, (0.0, 0.2), x0, u="0.05*sin(20*t)", dt=1e-3)
            for sys in (parallel_capacitors_numeric(C1, C2, Rl),
                        parallel_capacitors_numeric(C1, C2, Rl, sparse=True),
                        parallel_capacitors(C1, C2, Rl))]
    for other in runs[1:]:
        np.testing.assert_allclose(other.x, runs[0].x, rtol=1e-12, atol=1e-18)
        np.testing.assert_allclose(other["link"], runs[0]["link"], rtol=1e-9, atol=1e-15)


def test_discrete_gradient_balances_a_nonlinear_capacitor_exactly_and_midpoint_does_not():
    """H = q1²/2C1 + k q1⁴/4 + q2²/2C2, driven by a sine current: the energy change
    H(x_{k+1}) − H(x_k), computed from the states, equals the method's supplied minus
    dissipated work to round-off for the discrete gradient only."""
    d = parallel_capacitors(1.0, 2.0, 3.0, nonlinear=5.0)
    x0 = {"q1": 0.5, "q2": 2.0 * (0.5 + 5.0 * 0.5**3)}  # equal voltages v = q/C + k q³
    out = {}
    for method in ("discrete_gradient", "midpoint"):
        res = simulate(d, (0.0, 2.0), x0, u="0.8*sin(3*t)", method=method, dt=0.02)
        H = np.array([d.energy(x) for x in res.x])
        net = res.work_supplied[1:] - res.work_dissipated[1:]
        out[method] = np.max(np.abs(np.diff(H) - net)) / np.max(H)
        assert np.max(res.constraint_residual) <= 1e-9
        # exact Jacobian: quadratic convergence, a few iterations per step
        assert res.newton_iterations <= 4 * res.nsteps
    assert out["discrete_gradient"] <= 1e-13  # round-off (measured 1.4e-14)
    assert out["midpoint"] >= 1e-9  # O(h³) per step (measured 4.6e-9)


def test_rc_circuit_with_a_storage_free_node_matches_the_series_rc_closed_form():
    """Singular E: the node voltage v_a is algebraic.  With C charged from 0 by a step
    u through R1 + R2: v_C = u(1 − e^{−t/τ}), τ = (R1 + R2) C, v_a = (R2 u + R1 v_C)/(R1+R2)."""
    R1, R2, C, u = 1.0, 2.0, 0.1, 1.5
    d = rc_with_algebraic_node(R1, R2, C)
    dt = 1e-3
    res = simulate(d, (0.0, 1.0), {"q": 0.0, "va": 99.0}, u=u, dt=dt)  # va is computed
    vC = u * (1 - np.exp(-res.t / ((R1 + R2) * C)))
    np.testing.assert_allclose(res["q"] / C, vC, atol=1e-6 * u)
    np.testing.assert_allclose(res["va"], (R2 * u + R1 * vC) / (R1 + R2), atol=1e-6 * u)
    np.testing.assert_allclose(res["i"], (u - res["va"]) / R1, rtol=1e-12, atol=1e-15)
    # discrete power balance with feed-through (P, S ≠ 0): residual at round-off
    power = u * u / R1
    assert np.max(np.abs(res.power_residual)) <= 1e-12 * power * dt
    assert res.newton_iterations == res.nsteps


def test_x0_off_a_constraint_is_refused_naming_the_constraint():
    d = cartesian_pendulum()
    x0 = pendulum_x0(0.5)
    x0[2:] = [0.3, -0.4]  # momentum with a component along the rod
    with pytest.raises(ModelError, match=r"constraint 'rod'.*involving qx, qy, px, py"):
        simulate(d, (0.0, 1.0), x0, dt=1e-2)
    caps = parallel_capacitors_numeric(1.0, 2.0, 3.0)
    with pytest.raises(ModelError, match=r"x0 violates constraint 'link'.*q1, q2"):
        simulate(caps, (0.0, 1.0), {"q1": 1.0, "q2": 1.0}, dt=1e-2)  # v1 = 1 V, v2 = 0.5 V


def test_bad_options_for_a_descriptor_system_are_refused():
    d = parallel_capacitors_numeric(1.0, 2.0, 3.0)
    with pytest.raises(ModelError, match="cannot simulate a DescriptorPHS.*midpoint"):
        simulate(d, (0.0, 1.0), method="RK45")
    with pytest.raises(ModelError, match="events not available for a DescriptorPHS"):
        simulate(d, (0.0, 1.0), events=lambda t, x: x[0])


def test_result_gives_multipliers_and_constraint_residuals_by_name(tmp_path):
    d = parallel_capacitors_numeric(1.0, 2.0, 3.0)
    res = simulate(d, (0.0, 0.1), {"q1": 1.0, "q2": 2.0}, u=0.5, dt=0.01)
    assert res["link"].shape == (11,)
    assert res["constraint_residual"].shape == (11,)
    data = res.to_dict()
    assert data["multipliers"]["link"] == res["link"].tolist()
    res.to_csv(tmp_path / "r.csv")
    header = (tmp_path / "r.csv").read_text().splitlines()[0].split(",")
    assert "lambda:link" in header and "constraint_residual" in header
    with pytest.raises(KeyError, match="multipliers: link"):
        res["nothing"]


def test_initial_rod_force_and_undetermined_algebraic_state():
    """λ0 from the hidden constraint is the static tension m g cos θ0 of a pendulum
    released at rest; an algebraic state no equation determines is named."""
    theta0 = 0.7
    res = simulate(cartesian_pendulum(MASS, G_ACC), (0.0, 0.01), pendulum_x0(theta0), dt=1e-3)
    assert -res["rod"][0] * LENGTH == pytest.approx(MASS * G_ACC * np.cos(theta0), rel=1e-12)
    floating = DescriptorPHS(E=np.diag([1.0, 0.0]), J=np.zeros((2, 2)), R=np.diag([1.0, 0.0]),
                             Q=np.eye(2), states=["q", "v_floating"])
    with pytest.raises(ModelError, match="v_floating is not determined"):
        simulate(floating, (0.0, 1.0), {"q": 1.0}, dt=0.1)


def test_invertible_E_dae_equals_its_explicit_form():
    """E ẋ = J z + G u with invertible E: the midpoint DAE step and the midpoint step of
    the explicit to_phs() model are the same affine map (midpoint is invariant under
    linear changes of the equations), so the trajectories agree to round-off."""
    E = np.array([[2.0, 0.0], [1.0, 1.0]])
    Q = np.array([[0.5, -0.5], [0.0, 1.0]])  # EᵀQ symmetric positive definite
    d = DescriptorPHS(E=E, J=[[0.0, 1.0], [-1.0, 0.0]], R=[[0.1, 0.0], [0.0, 0.0]],
                      G=[[1.0], [0.0]], Q=Q, states=["a", "b"])
    x0, u = [0.3, -0.7], "cos(2*t)"
    dae = simulate(d, (0.0, 3.0), x0, u=u, dt=0.01)
    ode = simulate(d.to_phs(), (0.0, 3.0), x0, u=u, method="midpoint", dt=0.01)
    np.testing.assert_allclose(dae.x, ode.x, rtol=1e-11, atol=1e-13)
    np.testing.assert_allclose(dae.H, ode.H, rtol=1e-11)
    assert np.max(np.abs(dae.power_residual)) <= 1e-14


def test_state_feedback_acts_as_a_conductance_on_the_merged_capacitor():
    """u = −k v1 (current feedback) on C1 ∥ C2 with load R: v = v0 exp(−t (1/R + k)/C)."""
    C1, C2, Rl, k, v0 = 1.0, 2.0, 4.0, 0.5, 2.0
    d = parallel_capacitors_numeric(C1, C2, Rl)
    res = simulate(d, (0.0, 3.0), {"q1": C1 * v0, "q2": C2 * v0},
                   u=lambda t, x: -k * x[0] / C1, dt=1e-3)
    v = v0 * np.exp(-res.t * (1 / Rl + k) / (C1 + C2))
    np.testing.assert_allclose(res["q2"] / C2, v, rtol=1e-6)
    assert res.newton_iterations <= 3 * res.nsteps  # exact Jacobian incl. ∂u/∂x


def test_newton_failure_keeps_the_results_so_far():
    d = cartesian_pendulum()
    with pytest.raises(SimulationError) as info:
        simulate(d, (0.0, 1.0), pendulum_x0(1.0), dt=0.1, max_newton=1)
    err = info.value
    assert err.t_reached == 0.0 and "Newton did not converge at t = 0 s" in str(err)
    assert err.partial["rod"].size == 1 and not err.partial.success
