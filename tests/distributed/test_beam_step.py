"""The compiled midpoint step of the beams (beam_step): banded LU with pivoting solves
exactly, and the compiled steps are the NumPy midpoint steps — same states to round-off,
same work at the hub, the energy balance exact — in blocks and one at a time.  Without
Numba the same kernels run as Python functions (``use_fused``), so the facts are checked
either way."""

import numpy as np
import pytest

from porthamiltonian import jit, simulate
from porthamiltonian.distributed import beam_step, planar_beam
from porthamiltonian.distributed.spinup import spinup_rate
from porthamiltonian.simulate.ode.midpoint import Midpoint
from porthamiltonian.simulate.options import SimulationOptions
from porthamiltonian.simulate.problem.problem import build_problem

BEAM = (10.0, 1.2, 6e-4, 2.8e7, 1.4e4, 8.97e6)
SPIN = {"omega_left": lambda t: float(spinup_rate(t))}


@pytest.fixture
def use_fused(monkeypatch):
    """The fused step for every run, even short ones (and as Python without Numba)."""
    monkeypatch.setenv("PORTHAMILTONIAN_JIT", "always")
    monkeypatch.setattr(jit, "enabled", lambda: True)


def test_banded_lu_with_row_interchanges_solves_a_banded_system():
    # a banded matrix with a zero diagonal: no step without pivoting; n = 9, kl = 2, ku = 1
    rng = np.random.default_rng(7)
    n, kl, ku = 9, 2, 1
    A = np.zeros((n, n))
    for i in range(n):
        for j in range(max(0, i - kl), min(n, i + ku + 1)):
            A[i, j] = 0.0 if i == j else rng.normal()
    width = 2 * kl + ku + 1
    ab = np.zeros(n * width)
    for i in range(n):
        for j in range(max(0, i - kl), min(n, i + ku + 1)):
            ab[i * width + j - i + kl] = A[i, j]
    piv = np.zeros(n, dtype=np.int64)
    assert beam_step._band_factor(ab, piv, n, kl, ku)
    assert np.any(piv != np.arange(n))  # rows were interchanged
    perm = rng.permutation(n).astype(np.int64)  # the solve also undoes an ordering
    P = np.eye(n)[perm]
    b = rng.normal(size=n)
    x = b.copy()
    beam_step._band_solve(ab, piv, n, kl, ku, perm, x, np.zeros(n))
    # the factors are those of the permuted matrix PAPᵀ: x solves (PᵀAP) x = b
    assert np.allclose((P.T @ A @ P) @ x, b, rtol=0, atol=1e-12 * np.abs(b).max())
    assert not beam_step._band_factor(np.zeros(n * width), piv, n, kl, ku)  # singular


def test_band_of_the_beam_step_matrix_does_not_grow_with_the_mesh():
    # reverse Cuthill–McKee numbering: the bandwidth is set by the coupling of neighbouring
    # elements, not by their number
    widths = []
    for N in (40, 400):
        num = planar_beam(*BEAM, elements=N, degree=2, left="hub").system.compile()
        _, _, kl, ku = beam_step.band_structure(num._jac_indptr, num._jac_indices, num.n)
        widths.append((kl, ku))
    assert widths[0] == widths[1] and max(widths[0]) <= 20


def test_compiled_spin_up_is_the_numpy_run_with_an_exact_energy_balance(monkeypatch,
                                                                        use_fused):
    blocks = []
    block = beam_step.FusedBeamMidpoint.block
    monkeypatch.setattr(beam_step.FusedBeamMidpoint, "block",
                        lambda self, *a: blocks.append(1) or block(self, *a))
    beam = planar_beam(*BEAM, elements=4, degree=2, left="hub", right="free")
    kw = dict(u=SPIN, dt=0.01, t_eval=np.arange(0.0, 3.0 + 1e-9, 0.05))
    fused = simulate(beam.system, (0, 3.0), **kw)
    assert blocks and fused.extra["engine"] == "numba"  # the compiled blocks ran
    plain = simulate(beam.system, (0, 3.0), engine="numpy", **kw)
    scale = np.max(np.abs(plain.x))
    assert np.max(np.abs(fused.x - plain.x)) <= 1e-11 * scale
    assert np.allclose(fused.work_supplied, plain.work_supplied, rtol=1e-9, atol=0)
    work = np.sum(fused.work_supplied)
    assert work > 10.0 and np.all(fused.work_dissipated == 0.0)
    assert abs(fused.H[-1] - fused.H[0] - work) <= 1e-13 * fused.H[-1]
    assert np.max(np.abs(fused.power_residual)) <= 1e-12 * fused.H[-1]
    # the compiled Newton iterates as the NumPy one (same policy, another first guess)
    assert 0.8 < fused.newton_iterations / plain.newton_iterations < 1.25


def test_single_compiled_step_equals_the_numpy_step(use_fused):
    beam = planar_beam(*BEAM, elements=3, degree=2, left="hub", right="port")
    n, m = beam.system.n_states, beam.system.n_inputs
    rng = np.random.default_rng(1)
    x0 = rng.normal(scale=1e-5, size=n)  # strains 1e-5, momenta 1e-5 kg·m/s
    opts = SimulationOptions.build(None, dt=0.01)
    u = {name: (lambda t, k=k: 0.5 + np.sin(t + k)) for k, name in enumerate(beam.system.inputs)}
    stepper = Midpoint.create(build_problem(beam.system, (0, 1.0), x0, u, opts), opts)
    assert isinstance(stepper, beam_step.FusedBeamMidpoint) and m == 4
    x, t = x0, 0.0
    for _ in range(5):
        xf, info_f = stepper.step(t, x, 0.01)
        xn, info_n = stepper.base.step(t, x, 0.01)
        assert np.max(np.abs(xf - xn)) <= 1e-12 * np.max(np.abs(xn))
        assert info_f.supplied == pytest.approx(info_n.supplied, rel=1e-9)
        # ΔH = h uᵀȳ: the discrete power balance of each step
        assert abs(info_f.delta_H - info_f.supplied) <= 1e-13 * abs(info_f.supplied)
        x, t = xf, t + 0.01


def test_short_runs_stay_on_the_numpy_step_until_the_step_is_built(monkeypatch, tmp_path):
    # engine="auto" does not pay the one-time compilation for a short run: a fresh cache
    # folder (no marker) gives the NumPy stepper, a marker the compiled one
    monkeypatch.setenv(jit.CACHE_ENV, str(tmp_path))
    monkeypatch.setattr(jit, "enabled", lambda: True)
    beam = planar_beam(*BEAM, elements=2, degree=2, left="hub")
    opts = SimulationOptions.build(None, dt=0.01)
    problem = build_problem(beam.system, (0, 1.0), None, SPIN, opts)
    stepper = Midpoint.create(problem, opts)
    assert type(stepper) is Midpoint and "precompile()" in stepper.engine_report["engine_reason"]
    beam_step.marker().write_text("built\n")
    assert isinstance(Midpoint.create(problem, opts), beam_step.FusedBeamMidpoint)
    numpy_opts = SimulationOptions.build(None, dt=0.01, engine="numpy")
    assert type(Midpoint.create(problem, numpy_opts)) is Midpoint
    beam_step.marker().unlink()  # engine="compiled" compiles whether built or not
    compiled_opts = SimulationOptions.build(None, dt=0.01, engine="compiled")
    assert isinstance(Midpoint.create(problem, compiled_opts), beam_step.FusedBeamMidpoint)
