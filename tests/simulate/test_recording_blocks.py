"""Recording per block (:meth:`Recorder.record_block`, :mod:`.output.points`) gives the
outputs, energy and powers of the per-point formulas; the LTI loop allocates the result
once at its final size; a streamed run of a large model holds a few state-sized arrays."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
import scipy.sparse as sps
from sim_systems import oscillator

from porthamiltonian import PHS
from porthamiltonian.simulate import SimulationOptions, simulate
from porthamiltonian.simulate.ode import lti
from porthamiltonian.simulate.ode.lti_loop import integrate_lti, saved_count
from porthamiltonian.simulate.ode.midpoint import Midpoint
from porthamiltonian.simulate.output import rowwise
from porthamiltonian.simulate.output.points import LinearPoints, point_quantities
from porthamiltonian.simulate.output.recorder import Recorder
from porthamiltonian.simulate.output.rowwise import FormSet, RowOperator
from porthamiltonian.simulate.problem.problem import build_problem


def _coupled(n: int = 12, m: int = 2, sparse: bool = True, seed: int = 1) -> PHS:
    """A linear PHS with every coupling present: non-diagonal SPD Q, skew J, PSD R, the
    feedthrough P, skew M, PSD S (W = [[R, P], [Pᵀ, S]] ⪰ 0)."""
    rng = np.random.default_rng(seed)
    L = rng.normal(size=(n, n)) * (rng.random((n, n)) < 0.3)
    Q = L @ L.T + n * np.eye(n)
    Jh = rng.normal(size=(n, n)) * (rng.random((n, n)) < 0.3)
    F = rng.normal(size=(n + m, n + m)) * (rng.random((n + m, n + m)) < 0.4)
    W = F @ F.T
    Mh = rng.normal(size=(m, m))
    mats = {"J": Jh - Jh.T, "R": W[:n, :n], "G": rng.normal(size=(n, m)), "P": W[:n, n:],
            "M": Mh - Mh.T, "S": W[n:, n:], "Q": Q}
    if sparse:
        mats = {k: sps.csr_array(v) for k, v in mats.items()}
    Q = mats.pop("Q")
    return PHS(**mats, Q=Q, check=False)


def _per_point(num, X, U):
    """The quantities point by point, with the compiled system's own functions."""
    Y = np.array([num.output(x, u) for x, u in zip(X, U, strict=True)])
    H = np.array([num.energy(x) for x in X])
    pb = [num.power_balance(x, u) for x, u in zip(X, U, strict=True)]
    return (Y, H, np.array([p.stored for p in pb]), np.array([p.supplied for p in pb]),
            np.array([p.dissipated for p in pb]))


@pytest.mark.parametrize("sparse", [True, False])
@pytest.mark.parametrize("compiled", [True, False])
def test_block_quantities_equal_the_per_point_formulas(sparse, compiled):
    # y = (G+P)ᵀQx + (M+S)u, H = ½xᵀQx, Ḣ = (Qx)ᵀ(Ax + Bu), uᵀy, d = zᵀRz + 2zᵀPu + uᵀSu
    # for 40 random points, on the compiled kernels and on the SciPy/NumPy fallback
    num = _coupled(sparse=sparse).compile()
    lp = LinearPoints(num, compiled)
    assert lp.points.fused == (sparse and compiled)  # one pass for H, Ḣ, d when compiled
    rng = np.random.default_rng(7)
    X, U = rng.normal(size=(40, num.n)), rng.normal(size=(40, num.m))
    for got, want in zip(lp(X, U), _per_point(num, X, U), strict=True):
        scale = np.max(np.abs(want))
        assert scale > 1.0  # every quantity is exercised (no coupling is zero)
        assert np.max(np.abs(got - want)) <= 1e-13 * scale


def test_nonlinear_models_are_recorded_with_their_own_functions():
    import sympy as sp

    q, p = sp.symbols("q p", real=True)
    duffing = PHS(J=[[0, 1], [-1, 0]], R=[[0, 0], [0, 0.3]], G=[[0], [1]],
                  hamiltonian=q**2 / 2 + q**4 / 4 + p**2 / 2, states=["q", "p"], inputs=["F"])
    num = duffing.compile()
    rng = np.random.default_rng(3)
    X, U = rng.normal(size=(9, 2)), rng.normal(size=(9, 1))
    for got, want in zip(point_quantities(num, X, U), _per_point(num, X, U), strict=True):
        np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("kw", [{}, {"save_every": 7}, {"t_eval": [0.3, 1.25, 2.0]}])
def test_recorded_points_of_a_run_equal_the_per_point_formulas(kw):
    # every saved point of an LTI block run (recorded per block) against the compiled
    # system's own per-point functions, with the input evaluated at the saved time
    system = _coupled(n=10, m=2)
    u = {"u0": "sin(3*t) + 0.5", "u1": "cos(t)"}
    res = simulate(system, (0.0, 2.0), np.linspace(-1, 1, 10), u=u, method="midpoint",
                   dt=0.01, **kw)
    num = system.compile()
    np.testing.assert_array_equal(res.u[:, 0], np.sin(3 * res.t) + 0.5)
    np.testing.assert_array_equal(res.u[:, 1], np.cos(res.t))
    for got, want in zip((res.y, res.H, res.stored, res.supplied, res.dissipated),
                         _per_point(num, res.x, res.u), strict=True):
        assert np.max(np.abs(got - want)) <= 1e-13 * np.max(np.abs(want))
    # and the instantaneous balance Ḣ = uᵀy − d of the recorded powers at every point
    assert np.max(np.abs(res.stored - res.supplied + res.dissipated)) <= 1e-12 * np.max(
        np.abs(res.stored))


@pytest.mark.parametrize("kw", [{}, {"save_every": 3}, {"save_every": 7},
                                {"save_every": 10**9}, {"t_eval": [0.5, 1.0, 3.0]},
                                {"t_eval": [0.0, 3.0]}])
def test_the_saved_points_are_counted_before_the_run(kw):
    # the result is allocated once at its final size: the count known from the step grid
    # (stops, steps per segment, save_every / t_eval) is the number of points saved
    res = simulate(oscillator(c=0.3), (0.0, 3.0), [0.1, 0.0], u="sin(2*t)", dt=0.013, **kw)
    opts = SimulationOptions(dt=0.013, **kw)
    from porthamiltonian.simulate.ode.stepping import hard_stops

    stops, saved_stop = hard_stops(0.0, 3.0, opts.t_eval, np.zeros(0))
    t, steps = 0.0, []
    for b in stops:
        steps.append(max(1, int(np.ceil((b - t) / 0.013 - 1e-9))))
        t = b
    assert saved_count(steps, opts.save_every, saved_stop) == len(res) - 1
    assert res.nsteps == sum(steps)


def test_result_arrays_are_handed_over_and_copied_before_a_later_write():
    problem = build_problem(oscillator(), (0.0, 1.0), [1.0, 0.0], None, SimulationOptions())
    rec = Recorder(problem.dynamics, problem.states, problem.inputs, problem.outputs, "x")
    rec.reserve(3)
    for k in range(3):
        rec.record(0.1 * k, np.array([1.0 + k, 0.0]), np.zeros(3))
    first = rec.result()
    assert first.x.shape == (3, 2)
    rec.record(0.3, np.array([9.0, 9.0]), np.zeros(3))  # must not change the first result
    second = rec.result()
    np.testing.assert_array_equal(first.x[:, 0], [1.0, 2.0, 3.0])
    np.testing.assert_array_equal(second.x[:, 0], [1.0, 2.0, 3.0, 9.0])


def _chain(n: int) -> PHS:
    """LC chain with a resistance on every second state, unit storages, sparse."""
    up = np.ones(n - 1)
    J = sps.diags([up, -up], [1, -1], format="csr")
    R = sps.diags([np.tile([0.0, 0.05], n // 2)], [0], format="csr")
    return PHS(J=J, R=R, Q=sps.identity(n, format="csr"), check=False)


def test_a_streamed_run_of_a_large_model_holds_a_few_state_sized_arrays(tmp_path):
    """Peak traced memory (``tracemalloc``: NumPy arrays and Python objects) of a streamed
    midpoint run of a 10⁵-state chain, above what exists before the run: the model, its
    compiled matrices, the LU factors and the row operators of the recording (all of
    model size, built by a warm-up run of the same stepper), and x0.

    What the run itself holds, n = 10⁵ floats each: the block of two states x_k, x_{k+1}
    (streamed runs take one step per block at this size) and the LU solve's output — the
    working set of a step, 3n.  The streamed result's two points (first and last) are
    read back from the file at the end, after the block is released (2n then), so they
    add nothing to the peak; the first point's buffer is written before the first step.
    Measured: 3.02n; the bound allows 3n and 32 kB for what does not grow with n (per-step
    arrays of a few values, the CSV formatting of 256 values at a time).  Before: 5.0n
    (first and last point kept as copies), 250n and more with 4096 buffered rows."""
    n, h, steps = 100_000, 0.0625, 12
    x0 = np.exp(-((np.arange(n) / n - 0.3) / 0.01) ** 2)
    opts = SimulationOptions(dt=h, stream=tmp_path / "run.csv")
    problem = build_problem(_chain(n), (0.0, steps * h), x0, None, opts)
    dyn = problem.dynamics
    stepper = Midpoint.create(problem, opts)
    block = stepper.lti_block()

    def run(path, t1):
        rec = Recorder(dyn, problem.states, problem.inputs, problem.outputs, "midpoint",
                       stream=path)
        rec.record(0.0, x0)
        return integrate_lti(block, dyn, rec, 0.0, t1, x0, opts, np.array([t1]), None, None)

    run(tmp_path / "warm.csv", 2 * h)  # factorization, scaled matrices, kernels
    lti._WORK[stepper]["X"] = np.empty((0, 0))  # the block's states count in the run
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        res = run(tmp_path / "run.csv", steps * h)
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    assert res.nsteps == steps and res.t.tolist() == [0.0, steps * h]
    rows = np.loadtxt(tmp_path / "run.csv", delimiter=",", skiprows=1,
                      usecols=(0, 1, n // 3, n, n + 1))
    assert rows.shape == (steps + 1, 5)  # every step written, t, x:x0 … H
    np.testing.assert_allclose(rows[-1, -1], res.H[-1], rtol=1e-15)
    # the result's states, read back from the file, are the run's own (x0 exactly)
    np.testing.assert_array_equal(res.x[0], x0)
    np.testing.assert_array_equal(res.x[1, [0, n // 3 - 1, n - 1]], rows[-1, 1:4])
    state = 8 * n
    assert peak <= 3 * state + 32 * 1024, f"peak {peak / state:.3f} × the state size"


def _matrices(n: int = 30, seed: int = 5) -> dict[str, sps.csr_array]:
    """A banded (tridiagonal) matrix, diagonal ones and a scattered sparse one."""
    rng = np.random.default_rng(seed)
    band = sps.diags([rng.normal(size=n - 1), rng.normal(size=n), rng.normal(size=n - 1)],
                     [-1, 0, 1], format="csr")
    scattered = sps.random(n, n, density=0.2, random_state=seed, format="csr")
    return {"band": sps.csr_array(band), "scattered": sps.csr_array(scattered),
            "diag1": sps.csr_array(sps.diags(rng.normal(size=n))),
            "diag2": sps.csr_array(sps.diags(rng.random(n)))}


@pytest.mark.parametrize("compiled", [True, False])
def test_the_step_right_hand_side_by_diagonals_or_rows(compiled):
    # out = M x + N u: a tridiagonal M is stored by its three diagonals, a scattered one
    # stays CSR; both equal SciPy's products
    mats = _matrices()
    rng = np.random.default_rng(2)
    N = sps.csr_array(sps.random(30, 3, density=0.3, random_state=3))
    x, u = rng.normal(size=30), rng.normal(size=3)
    for name, want_bands in (("band", True), ("scattered", False)):
        op = RowOperator(mats[name], compiled)
        assert (op.bands is not None) == want_bands
        out = op.affine_into(RowOperator(N, compiled), x, u, np.full(30, np.nan))
        np.testing.assert_allclose(out, mats[name] @ x + N @ u, rtol=1e-14, atol=1e-14)


@pytest.mark.parametrize("compiled", [True, False])
@pytest.mark.parametrize("names", [("diag1", "diag2", "diag1"), ("band", "scattered", "diag2")])
def test_the_forms_of_a_block_in_one_pass(compiled, names):
    # at_points: x_kᵀM_q x_k; over_steps: x̄ᵀM₀δ and x̄ᵀM₁x̄ of consecutive rows — on the
    # diagonals, on the union of the patterns, and product by product without Numba
    mats = _matrices()
    M = [mats[k] for k in names]
    fs = FormSet(M, compiled)
    assert fs.fused == compiled and (fs.diag is not None) == (compiled and names[1] == "diag2")
    X = np.random.default_rng(4).normal(size=(9, 30))
    want = np.column_stack([np.einsum("ki,ij,kj->k", X, Mq.toarray(), X) for Mq in M])
    np.testing.assert_allclose(fs.at_points(X), want, rtol=1e-13)
    xm, d = 0.5 * (X[:-1] + X[1:]), X[1:] - X[:-1]
    want = np.column_stack([np.einsum("ki,ij,kj->k", xm, M[0].toarray(), d),
                            np.einsum("ki,ij,kj->k", xm, M[1].toarray(), xm)])
    np.testing.assert_allclose(FormSet(M[:2], compiled).over_steps(X), want, rtol=1e-13)


def test_engine_numpy_runs_no_row_kernel(monkeypatch):
    # engine="numpy": the LTI block loop and its recording use SciPy/NumPy products only
    # (every compiled row kernel replaced by one that fails), with the same results
    system = _coupled(n=10, m=2)
    u = {"u0": "sin(3*t)", "u1": "cos(t)"}
    x0 = np.linspace(-1, 1, 10)

    def run(engine):
        opts = SimulationOptions(dt=0.01, engine=engine)
        problem = build_problem(system, (0.0, 1.0), x0, u, opts)
        rec = Recorder(problem.dynamics, problem.states, problem.inputs, problem.outputs,
                       "midpoint")
        with rowwise.engine(engine):  # the first point, as the run records it
            rec.record(0.0, x0)
        block = Midpoint.create(problem, opts).lti_block()
        return integrate_lti(block, problem.dynamics, rec, 0.0, 1.0, x0, opts,
                             np.array([1.0]), None, None)

    auto = run("auto")

    def fail(*args):
        raise AssertionError("a compiled row kernel ran")

    for name in ("_csr_forms", "_csr_rows", "_csr_affine", "_band_affine", "_diag_forms",
                 "_diag_points", "_diag_steps", "_csr_points", "_csr_steps"):
        monkeypatch.setattr(rowwise, name, fail)
    plain = run("numpy")
    assert rowwise.use_compiled()  # the engine was the run's only
    for a, b in ((plain.x, auto.x), (plain.H, auto.H), (plain.y, auto.y),
                 (plain.dissipated, auto.dissipated)):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12 * np.max(np.abs(b)))
    # the balance residuals: both round-off of the energy
    assert np.max(np.abs(plain.power_residual)) <= 1e-13 * np.max(auto.H)
    with pytest.raises(AssertionError, match="compiled row kernel"):
        run("auto")


@pytest.mark.parametrize("n", [10, 300])
def test_a_streamed_result_has_the_first_and_last_point_of_the_run(tmp_path, n):
    # rows of 303 values are wider than CHUNK: their states are read back from the file
    # at the end; rows of 13 values are kept; both equal the in-memory run's ends exactly
    system, x0 = _chain(n), np.exp(-((np.arange(n) / n - 0.3) / 0.1) ** 2)
    whole = simulate(system, (0.0, 1.0), x0, dt=0.05)
    streamed = simulate(system, (0.0, 1.0), x0, dt=0.05, stream=tmp_path / "run.csv")
    for name in ("t", "x", "H", "stored", "dissipated"):
        np.testing.assert_array_equal(getattr(streamed, name), getattr(whole, name)[[0, -1]])
    np.testing.assert_allclose(streamed.work_dissipated[1], whole.work_dissipated.sum(),
                               rtol=1e-14)
