"""Lagrange–Dirac systems compiled to the port-Hamiltonian IR (DescriptorPHS)."""

import numpy as np
import pytest
import sympy
from ld_models import SPRING_PARAMS, k1, k2, m1, m2, motor, rolling_disk, spring_mono, t
from sympy.physics.mechanics import dynamicsymbols

from porthamiltonian import ModelError, NoExplicitFormError, lagrange, simulate
from porthamiltonian.simulate import SimulationOptions


def test_chain_descriptor_reduces_to_phs_with_the_normal_mode_frequencies():
    desc, signals = spring_mono().to_descriptor()
    assert signals == {}
    phs = desc.to_phs()  # E = diag(I, M) invertible here
    A = np.asarray(phs.J, float) @ np.asarray(phs.Q, float)
    p = {s: SPRING_PARAMS[s] for s in (m1, m2, k1, k2)}
    M = np.diag([p[m1], p[m2]])
    K = np.array([[p[k1] + p[k2], -p[k2]], [-p[k2], p[k2]]])
    w2 = np.sort(np.linalg.eigvals(np.linalg.solve(M, K)).real)  # K x = ω² M x
    w = np.sort(np.abs(np.linalg.eigvals(A).imag))[::2]
    assert np.allclose(w, np.sqrt(w2), rtol=1e-10)


@pytest.mark.parametrize("make, x0", [(spring_mono, [0.1, -0.2, 0.3, 0.0]),
                                      (motor, [0.0, 0.0, 0.0, 0.0])])
def test_foundation_dae_simulation_agrees(make, x0):
    sys = make()
    desc, signals = sys.to_descriptor()
    u = {k: float(v) for k, v in signals.items()} or None
    ts = np.linspace(0.0, 2.0, 5)
    ref = simulate(desc, (0.0, 2.0), x0, u=u, method="midpoint", dt=1e-3, t_eval=ts)
    ours = sys.simulate(2.0, x0[: sys.n], x0[sys.n:], t_eval=ts)
    scale = np.abs(ours.v).max()
    # the implicit midpoint rule is second order: error O(h²) with h = 1e-3
    assert np.max(np.abs(ref.x[:, : sys.n] - ours.q)) < 1e-5 * max(scale, 1.0)
    assert np.max(np.abs(ref.x[:, sys.n:] - ours.v)) < 1e-5 * max(scale, 1.0)
    # same energy function: H of the descriptor system = E = ⟨p, v⟩ − L
    assert np.allclose([desc.energy(np.r_[q, v]) for q, v in zip(ours.q, ours.v, strict=True)],
                       ours.energy, rtol=1e-12, atol=1e-14)


def test_nonholonomic_descriptor_has_the_constraint_forms():
    desc, _ = rolling_disk().to_descriptor()
    x = np.array([0.1, 0.2, 0.3, 0.4, 0.5 * np.cos(0.4), 0.5 * np.sin(0.4), 1.0, 0.0])
    assert np.allclose(desc.constraint(x), 0.0, atol=1e-14)
    x[4] += 0.1
    assert not np.allclose(desc.constraint(x), 0.0)


def test_no_descriptor_form_for_configuration_dependent_mass():
    q = dynamicsymbols("q")
    pend = lagrange.LagrangeDiracSystem([q], (2 + sympy.cos(q)) * q.diff(t) ** 2 / 2,
                                        name="pend")
    with pytest.raises(NoExplicitFormError, match="pend: .*mass matrix"):
        pend.to_descriptor()
    pushed = lagrange.LagrangeDiracSystem([q], q.diff(t) ** 2 / 2, forces={q: -q**3},
                                          name="pushed")
    with pytest.raises(NoExplicitFormError, match="depend on the configuration"):
        pushed.to_descriptor()


@pytest.mark.parametrize("method", ["midpoint", "discrete_gradient"])
def test_structure_preserving_route_is_a_call_of_simulate(method):
    """``sys.simulate(..., method="midpoint")`` is ``simulate(sys.to_descriptor(), ...)``
    read back as a LagrangeResult: the same trajectory, E − E(0) = W to round-off, and the
    index-reduced reference within the midpoint rule's O(h²) error."""
    sys = rolling_disk()
    q0, v0 = [0.0, 0.0, 0.0, 0.4], [0.5 * np.cos(0.4), 0.5 * np.sin(0.4), 1.0, 0.7]
    ts = np.linspace(0.0, 2.0, 5)
    ours = sys.simulate((0.0, 2.0), q0, v0, method=method, dt=1e-3, t_eval=ts)
    desc, _ = sys.to_descriptor()
    direct = simulate(desc, (0.0, 2.0), q0 + v0, method=method, dt=1e-3, t_eval=ts)
    np.testing.assert_array_equal(ours.q, direct.x[:, : sys.n])
    np.testing.assert_array_equal(ours.lam, direct.lam)
    np.testing.assert_allclose(ours.energy - ours.energy[0], ours.work, rtol=0, atol=1e-13)
    ref = sys.simulate(2.0, q0, v0, t_eval=ts)  # DOP853, rtol 1e-11
    assert np.max(np.abs(ours.q - ref.q)) < 1e-5
    # the step enforces the constraint at its midpoint (to round-off there); at the grid
    # points the rolling constraint is off by the O(h²) drift of the rule
    assert np.max(np.abs(direct.constraint_residual)) < 1e-12
    assert 0 < np.max(np.abs(ours.constraint_residual)) < 1e-6


def test_lagrange_simulate_takes_the_options_of_simulate():
    sys = spring_mono()
    with pytest.raises(ModelError, match="unknown simulation option"):
        sys.simulate(1.0, [0.1, -0.2], [0.0, 0.0], rtoll=1e-3)
    with pytest.raises(ModelError, match="starts at t = 0"):
        sys.simulate((1.0, 2.0), [0.1, -0.2], [0.0, 0.0])
    a = sys.simulate(1.0, [0.1, -0.2], [0.0, 0.0], dt=0.1)
    b = sys.simulate((0.0, 1.0), [0.1, -0.2], [0.0, 0.0], options=SimulationOptions(dt=0.1))
    np.testing.assert_array_equal(a.q, b.q)
