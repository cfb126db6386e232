"""The compiled engine (simulate/kernels) against the NumPy steps: the same method gives
the same trajectory, energy, outputs and power balance to round-off, on models with a
non-quadratic Hamiltonian, dissipation, inputs and a state-dependent structure; and the
energy facts of the methods hold in compiled form."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from porthamiltonian import PHS
from porthamiltonian.errors import ModelError, SimulationError
from porthamiltonian.simulate import simulate

q, p = sp.symbols("q p")
m, ell, g, c = sp.symbols("m l g c", positive=True)


def pendulum(damping: float = 0.0, forced: bool = False, **values: float) -> PHS:
    """Pendulum H = p²/(2mℓ²) + mgℓ(1 − cos q), viscous damping c at the pivot, torque
    input u (collocated output: the angular velocity)."""
    H = p**2 / (2 * m * ell**2) + m * g * ell * (1 - sp.cos(q))
    extra = {"G": sp.Matrix([[0], [1]])} if forced else {}
    params = {"m": 1.0, "l": 1.0, "g": 9.81, "c": damping} | values
    return PHS(J=sp.Matrix([[0, 1], [-1, 0]]), R=sp.Matrix([[0, 0], [0, c]]), hamiltonian=H,
               states=[q, p], parameters=params, **extra)


def modulated_oscillator() -> PHS:
    """A state-dependent structure: J(x) = [[0, 1 + x₁²/4], [−(1 + x₁²/4), 0]],
    R = diag(0, 0.1), quartic spring: every kernel (∂J/∂x in the Jacobian) is used."""
    x1, x2 = sp.symbols("x1 x2")
    a = 1 + x1**2 / 4
    return PHS(J=sp.Matrix([[0, a], [-a, 0]]), R=sp.Matrix([[0, 0], [0, 0.1]]),
               G=sp.Matrix([[0], [1]]), hamiltonian=x1**2 / 2 + x1**4 / 4 + x2**2 / 2,
               states=[x1, x2])


METHODS = ["midpoint", "discrete_gradient", "avf", "gauss1", "gauss2", "gauss3", "gauss4",
           "gauss5", "gauss6"]


def both(system: PHS, **kw):
    a = simulate(system, engine="numpy", **kw)
    b = simulate(system, engine="compiled", **kw)
    assert a.extra["engine"] == "numpy" and b.extra["engine"] == "numba"
    return a, b


def assert_same(a, b, rtol: float = 1e-10) -> None:
    scale = max(1.0, float(np.max(np.abs(a.x))))
    np.testing.assert_allclose(b.t, a.t, rtol=0, atol=rtol * max(1.0, a.t[-1]))
    np.testing.assert_allclose(b.x, a.x, rtol=0, atol=rtol * scale)
    np.testing.assert_allclose(b.H, a.H, rtol=0, atol=rtol * max(1.0, np.max(np.abs(a.H))))
    if a.y is not None and a.y.size:
        np.testing.assert_allclose(b.y, a.y, rtol=0, atol=rtol * scale)
    np.testing.assert_allclose(b.power_residual, a.power_residual, rtol=0, atol=1e-11)


@pytest.mark.parametrize("method", METHODS)
def test_compiled_steps_equal_numpy_steps(method):
    """Damped, forced pendulum, 400 fixed steps: same states, energy, outputs, balance."""
    sys = pendulum(damping=0.3, forced=True)
    a, b = both(sys, t_span=(0.0, 4.0), x0=[2.0, 0.5], u=lambda t: [np.sin(3 * t)],
                method=method, dt=0.01)
    assert_same(a, b)


@pytest.mark.parametrize("method", ["midpoint", "discrete_gradient", "avf", "gauss2"])
def test_state_dependent_structure(method):
    sys = modulated_oscillator()
    a, b = both(sys, t_span=(0.0, 3.0), x0=[1.2, -0.4], u=lambda t: [0.5 * np.cos(t)],
                method=method, dt=0.02)
    assert_same(a, b)


@pytest.mark.parametrize("method", ["discrete_gradient", "gauss2"])
def test_adaptive_steps_take_the_compiled_single_step(method):
    sys = pendulum(damping=0.1, forced=True)
    a, b = both(sys, t_span=(0.0, 3.0), x0=[1.0, 0.0], u=lambda t: [0.2], method=method,
                rtol=1e-8)
    assert a.nsteps == b.nsteps
    assert_same(a, b, rtol=1e-9)


def test_discrete_gradient_conserves_energy_compiled():
    """Lossless pendulum at a large amplitude, 10⁴ steps: |H − H₀|/H₀ ≤ 1e-12 (the
    midpoint rule drifts by ~1e-5 at this step)."""
    sys = pendulum()
    kw = dict(t_span=(0.0, 100.0), x0=[2.5, 0.0], dt=0.01, engine="compiled")
    dg = simulate(sys, method="discrete_gradient", **kw)
    mid = simulate(sys, method="midpoint", **kw)
    H0 = dg.H[0]
    assert np.max(np.abs(dg.H - H0)) / H0 <= 1e-12
    assert np.max(np.abs(mid.H - H0)) / H0 > 1e-7
    # the default (auto) is the discrete gradient for this H
    auto = simulate(sys, **kw)
    assert auto.method == "discrete_gradient"


def test_gauss_order_compiled():
    """Gauss with s stages is of order 2s: halving the step divides the error by ~4^s
    (reference: gauss6 at a tenth of the step)."""
    sys = pendulum()
    kw = dict(t_span=(0.0, 2.0), x0=[1.0, 0.0], engine="compiled")
    ref = simulate(sys, method="gauss6", dt=0.01, **kw).x[-1]
    for s in (1, 2, 3):
        e1 = np.max(np.abs(simulate(sys, method=f"gauss{s}", dt=0.1, **kw).x[-1] - ref))
        e2 = np.max(np.abs(simulate(sys, method=f"gauss{s}", dt=0.05, **kw).x[-1] - ref))
        assert 0.7 * 2 ** (2 * s) < e1 / e2 < 1.4 * 2 ** (2 * s)


def test_parameters_are_arguments_of_one_compiled_module():
    """A model and model.with_parameters(...) share the compiled functions; each run
    uses its own values (a longer pendulum swings slower: period ∝ √ℓ)."""
    from porthamiltonian.simulate.kernels.build import kernels_for

    short, long_ = pendulum(), pendulum().with_parameters(l=4.0)
    k1, k2 = kernels_for(short.compile().source), kernels_for(long_.compile().source)
    assert k1.path == k2.path and k1.fns is k2.fns
    assert list(k2.parameters) != list(k1.parameters)
    a, b = both(long_, t_span=(0.0, 2.0), x0=[0.1, 0.0], dt=0.01)
    assert_same(a, b)
    # small-angle period 2π√(ℓ/g): the first return to q = max is ~2× later for ℓ = 4
    t = a.t

    def first_zero_crossing(res):
        qs = res.x[:, 0]
        i = np.flatnonzero((qs[:-1] > 0) & (qs[1:] <= 0))[0]
        return t[i]

    quarter_short = first_zero_crossing(simulate(short, t_span=(0.0, 2.0), x0=[0.1, 0.0],
                                                 dt=0.01, engine="compiled"))
    assert first_zero_crossing(b) == pytest.approx(2 * quarter_short, rel=0.02)


def test_engine_reports_why_not_compiled():
    sys = pendulum(forced=True)
    res = simulate(sys, (0.0, 0.1), [1.0, 0.0], u=lambda t, x: [-x[1]], dt=0.01)
    assert res.extra["engine"] == "numpy"
    assert "feeds back" in res.extra["engine_reason"]
    with pytest.raises(SimulationError, match="engine='compiled' is not available.*feeds back"):
        simulate(sys, (0.0, 0.1), [1.0, 0.0], u=lambda t, x: [-x[1]], dt=0.01,
                 engine="compiled")
    with pytest.raises(SimulationError, match="'rk4' has no compiled form"):
        simulate(sys, (0.0, 0.1), [1.0, 0.0], method="rk4", dt=0.01, engine="compiled")
    with pytest.raises(ModelError, match="engine must be one of"):
        simulate(sys, (0.0, 0.1), [1.0, 0.0], dt=0.01, engine="fast")


def test_a_function_without_a_compiled_form_is_refused_by_the_generator():
    """The generator names what it cannot compile (the NumPy engine then runs the model,
    or engine='compiled' says why)."""
    from porthamiltonian.simulate.kernels.codegen import KernelUnavailable, model_source

    x, v = sp.symbols("x v")
    sys = PHS(J=sp.Matrix([[0, 1], [-1, 0]]), hamiltonian=v**2 / 2 + sp.besselj(0, x),
              states=[x, v])
    with pytest.raises(KernelUnavailable, match="besselj"):
        model_source(sys.compile().source)


def feedthrough_model() -> PHS:
    """Two ports with a skew feedthrough M and a resistive one S (y = Gᵀ∇H + (M+S)u),
    quartic storage, state-dependent damping R(x)."""
    x1, x2 = sp.symbols("x1 x2")
    return PHS(J=sp.Matrix([[0, 1], [-1, 0]]), R=sp.Matrix([[0.1 + x1**2 / 10, 0], [0, 0.2]]),
               G=sp.Matrix([[1, 0], [0.5, 1]]), M=sp.Matrix([[0, 0.3], [-0.3, 0]]),
               S=sp.Matrix([[0.1, 0], [0, 0.2]]),
               hamiltonian=x1**2 / 2 + x1**4 / 8 + x2**2 / 2, states=[x1, x2])


def test_compiled_point_quantities_equal_the_numeric_model():
    """Outputs, energy and the three powers of saved points, in one compiled call, equal
    NumericPHS.output / energy / power_balance point by point."""
    from porthamiltonian.simulate.kernels import steps
    from porthamiltonian.simulate.kernels.build import kernels_for

    num = feedthrough_model().compile()
    k = kernels_for(num.source)
    rng = np.random.default_rng(3)
    X, U = rng.normal(size=(6, 2)), rng.normal(size=(6, 2))
    Y, H, st, sup, dis = (np.empty((6, 2)), *(np.empty(6) for _ in range(4)))
    steps.points(k.fns, X, U, k.parameters, Y, H, st, sup, dis)
    for i in range(6):
        pb = num.power_balance(X[i], U[i])
        np.testing.assert_allclose(Y[i], num.output(X[i], U[i]), rtol=1e-13, atol=1e-14)
        assert H[i] == pytest.approx(num.energy(X[i]), rel=1e-13)
        assert (st[i], sup[i], dis[i]) == pytest.approx(
            (pb.stored, pb.supplied, pb.dissipated), rel=1e-12, abs=1e-14)


@pytest.mark.parametrize("method", ["discrete_gradient", "gauss2"])
def test_feedthrough_and_state_dependent_damping(method):
    a, b = both(feedthrough_model(), t_span=(0.0, 2.0), x0=[0.8, -0.3],
                u=lambda t: [np.sin(t), 0.5], method=method, dt=0.01)
    assert_same(a, b)
    if method == "discrete_gradient":  # exact discrete power balance for any H
        assert np.max(np.abs(b.power_residual)) < 1e-13


def test_a_failing_compilation_falls_back_to_numpy_with_the_reason(monkeypatch):
    """If Numba cannot compile a model, 'auto' runs the NumPy steps and says why;
    'compiled' raises SimulationError naming the failure (never a raw compiler error)."""
    from porthamiltonian.simulate.kernels import build

    def broken(source):
        raise RuntimeError("typing failed in generated grad\nlong compiler trace")

    monkeypatch.setattr(build, "kernels_for", broken)
    monkeypatch.setenv("PORTHAMILTONIAN_JIT", "always")
    sys = pendulum()
    res = simulate(sys, (0.0, 0.1), [1.0, 0.0], dt=0.01)
    assert res.extra["engine"] == "numpy"
    assert res.extra["engine_reason"] == ("the compilation failed (RuntimeError: typing failed "
                                          "in generated grad)")
    with pytest.raises(SimulationError, match="compilation failed.*RuntimeError"):
        simulate(sys, (0.0, 0.1), [1.0, 0.0], dt=0.01, engine="compiled")
