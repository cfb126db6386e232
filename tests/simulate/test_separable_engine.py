"""Separable Hamiltonians (``SeparablePHS``) and their compiled sparse steps: the model is
the FunctionPHS it stands for, the compiled steps are the NumPy steps to round-off, the
AVF family keeps energy and the power balance exact, and avf4/avf6 converge at orders 4
and 6."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sps
import sympy as sp

from porthamiltonian.errors import ModelError, ModelWarning
from porthamiltonian.simulate import FunctionPHS, SeparablePHS, simulate

q, p, k, b = sp.symbols("q p k beta")


def chain(n: int, damping: float = 0.0, forced: bool = False) -> SeparablePHS:
    """n unit masses between springs V = k q²/2 + β q⁴/4 (β varying per spring), the first
    tied to a wall; the last spring a soft log-cosh one (non-polynomial); damping on the
    momenta, a force on the last mass (collocated output: its velocity)."""
    D = sps.eye(n, format="csr") - sps.eye(n, k=-1, format="csr")
    J = sps.bmat([[None, D], [-D.T, None]], format="csr")
    R = sps.diags(np.r_[np.zeros(n), damping * np.ones(n)]).tocsr()
    G = sps.csr_matrix(([1.0], ([2 * n - 1], [0])), shape=(2 * n, 1)) if forced else None
    terms = [(k * q**2 / 2 + b * q**4 / 4, range(n - 1), {k: 1.0, b: np.linspace(0.5, 2, n - 1)}),
             (sp.log(sp.cosh(q)), [n - 1], {}),
             (p**2 / 2, range(n, 2 * n), {})]
    return SeparablePHS(J=J, R=R, G=G, terms=terms)


def start(n: int) -> np.ndarray:
    s = np.arange(n) / n
    return np.r_[0.8 * np.exp(-(((s - 0.4) / 0.15) ** 2)), 0.3 * np.sin(3 * s)]


def force(t: float) -> float:
    return float(np.sin(2.0 * t))


def test_the_separable_model_is_the_function_model_it_stands_for():
    n = 5
    sep = chain(n)
    betas = np.linspace(0.5, 2, n - 1)

    def energy(x):
        qq, pp = x[:n], x[n:]
        return float(np.sum(qq[:-1] ** 2 / 2 + betas * qq[:-1] ** 4 / 4)
                     + np.log(np.cosh(qq[-1])) + pp @ pp / 2)

    def gradient(x):
        qq = x[:n]
        return np.r_[qq[:-1] + betas * qq[:-1] ** 3, np.tanh(qq[-1]), x[n:]]

    def hessian(x):
        qq = x[:n]
        return sps.diags(np.r_[1 + 3 * betas * qq[:-1] ** 2, 1 / np.cosh(qq[-1]) ** 2,
                               np.ones(n)])

    ref = FunctionPHS(J=sep.J, energy=energy, gradient=gradient, hessian=hessian)
    rng = np.random.default_rng(1)
    for x in rng.normal(size=(4, 2 * n)):
        assert sep.energy(x) == pytest.approx(ref.energy(x), rel=1e-14)
        np.testing.assert_allclose(sep.gradient(x), ref.gradient(x), rtol=1e-14)
        np.testing.assert_allclose(sep.hessian(x).toarray(), hessian(x).toarray(), rtol=1e-14)
        sep.check_derivatives(x)
    assert sep.degree is None  # log cosh is no polynomial: 6-node AVF quadrature in NumPy
    assert chain(n).terms[0].degree == 4


@pytest.mark.parametrize(("terms", "message"), [
    ([(q * p, range(4), {})], "term 0.*exactly one state variable"),
    ([(q**2 / 2, range(2), {}), (k * p**2, range(2, 4), {k: [1.0, 2.0, 3.0]})],
     "term 1.*parameter k has 3 values for 2 states"),
    ([(q**2 / 2, range(2), {}), (k * p**2, range(2, 4), {k: [1.0, np.nan]})],
     "term 1.*non-finite"),
    ([(q**2 / 2, range(4), {}), (p**2 / 2, [3], {})], "term 1.*second law"),
    ([(q**2 / 2, range(3), {})], "states \\[3\\] have no law"),
    ([(sp.zoo * q, range(4), {})], "term 0.*non-finite"),
    ([(q**2, [0, 7], {})], "term 0.*indices"),
])
def test_bad_terms_are_model_errors_naming_the_term(terms, message):
    with pytest.raises(ModelError, match=message):
        SeparablePHS(J=np.zeros((4, 4)), terms=terms)


@pytest.mark.parametrize("method", ["avf", "midpoint", "avf4", "avf6"])
def test_compiled_and_numpy_steps_agree_to_round_off(method):
    n = 6
    sys = chain(n, damping=0.05, forced=True)
    runs = {e: simulate(sys, (0.0, 3.0), start(n), u=force, method=method, dt=0.05, engine=e)
            for e in ("compiled", "numpy")}
    fast, ref = runs["compiled"], runs["numpy"]
    assert fast.extra["engine"] == "numba" and fast.extra["engine_path"] == "separable sparse"
    assert ref.extra["engine"] == "numpy"
    scale = np.max(np.abs(ref.x))
    np.testing.assert_allclose(fast.x, ref.x, rtol=0, atol=1e-13 * scale)
    np.testing.assert_allclose(fast.H, ref.H, rtol=0, atol=1e-13 * ref.H[0])
    np.testing.assert_allclose(fast.y, ref.y, rtol=0, atol=1e-13 * np.max(np.abs(ref.y)))
    for name in ("work_supplied", "work_dissipated"):
        a, r = getattr(fast, name), getattr(ref, name)
        np.testing.assert_allclose(a, r, rtol=0, atol=1e-13 * np.max(np.abs(r)))


@pytest.mark.parametrize("method", ["avf", "avf4", "avf6"])
def test_energy_is_exact_over_ten_thousand_lossless_steps(method):
    n = 20
    res = simulate(chain(n), (0.0, 1000.0), start(n), method=method, dt=0.1,
                   engine="compiled", save_every=100)
    assert res.nsteps == 10_000
    assert np.max(np.abs(res.H - res.H[0])) / res.H[0] <= 1e-12


@pytest.mark.parametrize("method", ["avf", "avf4", "avf6"])
@pytest.mark.parametrize("engine", ["compiled", "numpy"])
def test_power_balance_is_exact_with_damping_and_a_forced_input(method, engine):
    n = 6
    res = simulate(chain(n, damping=0.2, forced=True), (0.0, 2.0), start(n), u=force,
                   method=method, dt=0.05, engine=engine)
    scale = (np.max(np.abs(res.work_supplied)) + np.max(np.abs(res.work_dissipated))
             + np.max(np.abs(np.diff(res.H))))
    balance = np.diff(res.H) - (res.work_supplied[1:] - res.work_dissipated[1:])
    assert np.max(np.abs(balance)) <= 1e-12 * scale
    assert np.max(np.abs(res.power_residual)) <= 1e-12 * scale
    # the backward substeps give work back inside a step; over a step the damper takes it
    assert np.all(res.work_dissipated[1:] > 0)


def test_avf_avf4_avf6_converge_at_orders_2_4_6():
    n = 4
    sys = chain(n)
    x0, T = start(n), 2.0
    ref = simulate(sys, (0.0, T), x0, method="DOP853", rtol=1e-13, atol=1e-14,
                   t_eval=[0.0, T]).x[-1]
    for method, order, steps in (("avf", 2, (0.1, 0.05, 0.025)),
                                 ("avf4", 4, (0.2, 0.1, 0.05)),
                                 ("avf6", 6, (0.4, 0.2, 0.1))):
        errors = [np.max(np.abs(simulate(sys, (0.0, T), x0, method=method, dt=dt,
                                         engine="compiled").x[-1] - ref)) for dt in steps]
        fitted = np.polyfit(np.log(steps), np.log(errors), 1)[0]
        assert abs(fitted - order) < 0.35, (method, errors, fitted)


def test_auto_runs_the_compiled_avf_on_a_separable_model():
    res = simulate(chain(4), (0.0, 1.0), start(4), dt=0.05, engine="compiled")
    assert res.method == "avf" and "separable H" in res.extra["method_choice"]
    assert res.extra["engine"] == "numba"


def test_gonzalez_on_a_separable_model_says_why_it_stays_numpy():
    res = simulate(chain(4), (0.0, 0.5), start(4), method="discrete_gradient", dt=0.05)
    assert res.extra["engine"] == "numpy" and res.extra["engine_reason"]


def test_compositions_warn_on_stiff_damping():
    n = 4
    with pytest.warns(ModelWarning, match="anti-dissipates"):
        simulate(chain(n, damping=50.0), (0.0, 0.2), start(n), method="avf4", dt=0.1,
                 engine="numpy")


def test_adaptive_steps_and_output_times_run_the_compiled_steps_exactly():
    n = 5
    sys = chain(n, damping=0.1, forced=True)
    for kw in ({"rtol": 1e-6, "atol": 1e-9}, {"dt": 0.05, "t_eval": [0.0, 0.33, 1.0, 1.7]}):
        fast = simulate(sys, (0.0, 1.7), start(n), u=force, method="avf4", engine="compiled",
                        **kw)
        ref = simulate(sys, (0.0, 1.7), start(n), u=force, method="avf4", engine="numpy",
                       **kw)
        assert fast.extra["engine"] == "numba"
        if "dt" in kw:  # the same steps: the same states
            np.testing.assert_allclose(fast.t, ref.t, rtol=0, atol=1e-14)
            np.testing.assert_allclose(fast.x, ref.x, rtol=0, atol=1e-12)
        else:  # the controller may round a step differently: the same accuracy
            np.testing.assert_allclose(fast.x[-1], ref.x[-1], rtol=0, atol=1e-5)
        balance = np.diff(fast.H) - (fast.work_supplied[1:] - fast.work_dissipated[1:])
        assert np.max(np.abs(balance)) <= 1e-12 * np.max(np.abs(fast.work_dissipated))


def test_compositions_compose_the_compiled_dense_step_of_a_symbolic_model():
    from porthamiltonian import PHS

    H = p**2 / 2 + 9.81 * (1 - sp.cos(q))
    pendulum = PHS(J=sp.Matrix([[0, 1], [-1, 0]]), hamiltonian=H, states=[q, p])
    runs = {e: simulate(pendulum, (0.0, 5.0), [2.5, 0.0], method="avf6", dt=0.05, engine=e)
            for e in ("compiled", "numpy")}
    assert runs["compiled"].extra["engine"] == "numba"
    np.testing.assert_allclose(runs["compiled"].x, runs["numpy"].x, rtol=0, atol=1e-12)
    H0 = runs["compiled"].H[0]
    assert np.max(np.abs(runs["compiled"].H - H0)) <= 1e-13 * H0


@pytest.mark.parametrize(("n", "method"), [(6, "avf"), (6, "avf4"), (120, "avf")])
def test_stiff_substeps_take_the_sparse_lu_and_still_agree(n, method):
    # θ = |γ dt|·‖J‖∞·max h''/2 ≈ 0.3·2·2.4 > 0.25: the factored step matrix, refactored as
    # the springs stiffen; 240 states take the library's symmetric ordering
    sys = chain(n, damping=0.05, forced=True)
    fast, ref = (simulate(sys, (0.0, 6.0), start(n), u=force, method=method, dt=0.3, engine=e)
                 for e in ("compiled", "numpy"))
    assert fast.extra["engine"] == "numba"
    np.testing.assert_allclose(fast.x, ref.x, rtol=0, atol=1e-12 * np.max(np.abs(ref.x)))
    np.testing.assert_allclose(fast.H, ref.H, rtol=0, atol=1e-12 * ref.H[0])
