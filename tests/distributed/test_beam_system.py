"""The fused numeric system of the beams (BeamPHS) is the plain FunctionPHS of the same
structure: right-hand side, step Jacobian, outputs and port powers agree to round-off,
with Numba and without, and so do driven trajectories and their energy balance."""

import numpy as np
import pytest
import scipy.sparse as sps

from porthamiltonian import jit, simulate
from porthamiltonian.distributed import planar_beam, spatial_beam
from porthamiltonian.distributed.spinup import spinup_rate
from porthamiltonian.functional import FunctionPHS

PLANAR = (10.0, 1.2, 6e-4, 2.8e7, 1.4e4, 8.97e6)


def _plain(system):
    """The same model as a plain FunctionPHS (the generic affine evaluation)."""
    q = system.q
    Q = sps.diags_array(q).tocsr()
    return FunctionPHS(J=system.J, R=system.R, G=system.G, P=system.P, S=system.S,
                       energy=lambda x: 0.5 * float(x @ (q * x)), gradient=lambda x: q * x,
                       hessian=lambda x: Q, degree=2, states=system.states,
                       inputs=system.inputs, outputs=system.outputs)


def _dense(A):
    return A.toarray() if sps.issparse(A) else np.asarray(A)


def _beams():
    yield planar_beam(*PLANAR, elements=5, degree=2, left="hub", right="free")
    yield planar_beam(*PLANAR, elements=4, degree=1, left="clamped", right="port")
    # rhoA, (rhoI2, rhoI3), EA, (EI2, EI3), (GA2, GA3), GJ
    yield spatial_beam(2.0, 7.8, (1e-3, 5e-4), 2e6, (400.0, 300.0), (8e5, 7e5), 600.0,
                       elements=3, degree=2, left="clamped", right="port")


@pytest.mark.parametrize("compiled", [True, False])
def test_fused_evaluations_equal_the_plain_function_phs(compiled, monkeypatch):
    if not compiled:  # the pure-NumPy path (as without Numba)
        monkeypatch.setattr(jit, "enabled", lambda: False)
    rng = np.random.default_rng(3)
    for beam in _beams():
        system = beam.system
        fused, plain = system.compile(), _plain(system).compile()
        system._numeric = None  # built afresh next time, with the engine in force then
        assert fused._compiled is (compiled and jit.enabled())
        n, m = fused.n, fused.m
        for _ in range(3):
            x = rng.normal(scale=0.3, size=n) / np.sqrt(system.q)  # energies of order 0.1 J
            u = rng.normal(size=m)
            f, g = fused.rhs(x, u), plain.rhs(x, u)
            assert np.max(np.abs(f - g)) <= 1e-14 * np.max(np.abs(g))
            Jf, Jg = _dense(fused.jacobian(x, u)), _dense(plain.jacobian(x, u))
            assert np.max(np.abs(Jf - Jg)) <= 1e-14 * np.max(np.abs(Jg))
            assert np.allclose(fused.output(x, u), plain.output(x, u), rtol=1e-14, atol=0)
            pf, pg = fused.power_balance(x, u), plain.power_balance(x, u)
            # the size of the terms that cancel in Ḣ = zᵀẋ and in uᵀy
            z = system.q * x
            scale = np.abs(z) @ np.abs(g) + np.abs(u) @ np.abs(plain.output(x, u))
            assert abs(pf.stored - pg.stored) <= 1e-14 * scale
            assert abs(pf.supplied - pg.supplied) <= 1e-14 * scale
            assert pf.dissipated == pg.dissipated == 0.0  # the beams are lossless
            # the power balance holds: Ḣ = uᵀy (J(x) skew for every x)
            assert abs(pf.residual) <= 1e-14 * scale

def test_spin_up_with_the_fused_system_is_the_plain_trajectory_with_an_exact_balance():
    beam = planar_beam(*PLANAR, elements=4, degree=2, left="hub", right="free")
    u = {"omega_left": lambda t: float(spinup_rate(t))}
    fused = simulate(beam.system, (0, 2.0), u=u, dt=0.01)
    plain = simulate(_plain(beam.system), (0, 2.0), u=u, dt=0.01)
    assert fused.method == plain.method == "midpoint"
    scale = np.max(np.abs(plain.x))
    assert np.max(np.abs(fused.x - plain.x)) <= 1e-11 * scale
    assert np.allclose(fused.work_supplied, plain.work_supplied, rtol=1e-10, atol=0)
    # the hub's work is the stored energy, to round-off (the midpoint rule, quadratic H)
    work = np.sum(fused.work_supplied)
    assert work > 1.0
    assert abs(fused.H[-1] - fused.H[0] - work) <= 1e-13 * fused.H[-1]


def test_midpoint_step_evaluates_an_input_without_feedback_twice_per_step():
    # u(t) of the predictor and u(t + h/2), not once per Newton iteration (~7 per step
    # here before): the saved points add one each
    beam = planar_beam(*PLANAR, elements=4, degree=2, left="hub", right="free")
    calls = []

    def rate(t):
        calls.append(t)
        return float(spinup_rate(t))

    res = simulate(beam.system, (0, 1.0), u={"omega_left": rate}, dt=0.01)
    assert res.nsteps == 100 and res.newton_iterations > 2 * res.nsteps
    assert len(calls) <= 2 * res.nsteps + len(res.t) + 1
