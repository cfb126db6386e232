"""The method contract, checked for every registered method (SciPy's style: a new method
is covered by adding it to ``METHODS``).

For each method and each problem kind it solves (ODE: explicit PHS; DAE: descriptor PHS):

- **bookkeeping**: the reported power residual is ΔH − (work supplied − work dissipated)
  of the reported series, interval by interval;
- **power balance**: to round-off for the Hamiltonians the method claims (``energy``):
  any H (a quartic spring), quadratic H (a linear oscillator), or none;
- **accuracy**: against the closed form of a damped oscillator (ODE) and of two
  capacitors in parallel discharging through a resistor (DAE) — the observed order of a
  fixed-step method is its ``order``; a tolerance-driven one gets more accurate when the
  tolerance falls;
- **failure**: on a solution that blows up in finite time, a SimulationError whose
  ``.partial`` holds the results up to ``.t_reached``.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from sim_systems import damped_solution, duffing, oscillator
from test_dae_models import parallel_capacitors

from porthamiltonian import PHS, DescriptorPHS, ModelError, SimulationError
from porthamiltonian.simulate import (
    METHODS,
    OneStepMethod,
    SimulationOptions,
    StepInfo,
    register_method,
    simulate,
)
from porthamiltonian.simulate.ode.scipy_ivp import ScipyMethod

CASES = [(name, kind) for name, cls in METHODS.items() for kind in sorted(cls.problems)]
FIXED_STEP = {name for name, cls in METHODS.items() if cls.fixed_step}

C1, C2, R_LOAD = 1e-3, 2e-3, 100.0
TAU = R_LOAD * (C1 + C2)  # s


def _run(kind: str, method: str, quartic: bool, **kw):
    """A forced, damped system of ``kind``; H quartic (``quartic``) or quadratic."""
    if kind == "ode":
        sys = duffing(c=0.3) if quartic else oscillator(k=1.0, c=0.3)
        return simulate(sys, (0.0, 2.0), [0.8, -0.2], u=lambda t: np.sin(3 * t), method=method,
                        **kw)
    k = 1e6 if quartic else 0.0  # V/C³
    q1 = 2e-3
    v = q1 / C1 + k * q1**3  # equal voltages: on the constraint
    sys = parallel_capacitors(C1, C2, R_LOAD, nonlinear=k)
    return simulate(sys, (0.0, 0.3), {"q1": q1, "q2": C2 * v}, u=lambda t: 0.01 * np.sin(20 * t),
                    method=method, **kw)


def _scale(res) -> float:
    return float(np.max(np.abs(res.work_supplied)) + np.max(np.abs(res.work_dissipated))
                 + np.max(np.abs(np.diff(res.H))))


@pytest.mark.parametrize(("name", "kind"), CASES)
def test_reported_residual_is_the_energy_balance_of_the_reported_series(name, kind):
    res = _run(kind, name, quartic=True, dt=0.01)
    ran = res.extra.get("method_choice", f"{name} → {name}").split(" → ")[1].split(":")[0]
    assert res.method == ran and res.success  # auto names the method it ran
    balance = np.diff(res.H) - (res.work_supplied[1:] - res.work_dissipated[1:])
    np.testing.assert_allclose(res.power_residual[1:], balance, rtol=0,
                               atol=1e-12 * _scale(res))
    assert np.all(res.work_dissipated[1:] >= -1e-15 * _scale(res))


@pytest.mark.parametrize(("name", "kind"), CASES)
def test_power_balance_is_exact_for_the_hamiltonians_the_method_claims(name, kind):
    energy = METHODS[name].energy
    for quartic in (False, True):
        exact = energy == "any" or (energy == "quadratic" and not quartic)
        # a coarse step where a method without the guarantee shows its discretization
        # error honestly (not hidden as zero), even at order 12
        dt = 0.01 if exact else (1.0 if kind == "ode" else 0.03)
        res = _run(kind, name, quartic=quartic, dt=dt)
        worst = float(np.max(np.abs(res.power_residual)))
        if exact:
            assert worst <= 1e-12 * _scale(res), (quartic, worst)
        else:
            assert worst > 1e-10 * _scale(res), (quartic, worst)


def _ode_error(name: str, dt: float | None = None, **kw) -> float:
    k, c = 4.0, 0.2
    t = np.array([0.0, 1.5, 3.0])
    res = simulate(oscillator(k=k, c=c), (0.0, 3.0), [1.0, 0.0], method=name, dt=dt, t_eval=t,
                   **kw)
    return float(np.max(np.abs(res.x - damped_solution(t, k, c))))


def _dae_error(name: str, dt: float | None = None, **kw) -> float:
    t = np.linspace(0.0, 2 * TAU, 5)
    v0 = 2.0
    res = simulate(parallel_capacitors(C1, C2, R_LOAD), (0.0, 2 * TAU),
                   {"q1": C1 * v0, "q2": C2 * v0}, method=name, dt=dt, t_eval=t, **kw)
    v = v0 * np.exp(-t / TAU)
    return float(np.max(np.abs(res["q1"] / C1 - v) + np.abs(res["q2"] / C2 - v)))


@pytest.mark.parametrize(("name", "kind"), CASES)
def test_accuracy_against_a_closed_form(name, kind):
    cls = METHODS[name]
    error = _ode_error if kind == "ode" else _dae_error
    span = 3.0 if kind == "ode" else 2 * TAU
    if name in FIXED_STEP:
        # steps large enough that the error stays far above round-off at order 2s ≤ 12
        h = span / (60 if cls.order <= 4 else 12 if cls.order <= 8 else 4)
        e1, e2 = error(name, dt=h), error(name, dt=h / 2)
        observed = np.log2(e1 / e2)
        assert abs(observed - cls.order) < 0.35, (e1, e2, observed)
    else:  # tolerance-driven: 1000× tighter tolerances buy at least 10× accuracy
        loose = error(name, rtol=1e-5, atol=1e-8)
        tight = error(name, rtol=1e-8, atol=1e-11)
        assert tight < 1e-5 and tight < 0.1 * loose, (loose, tight)


def _blow_up(kind: str):
    """ẋ = x², x(0) = 1: x = 1/(1 − t) leaves every bound before t = 1."""
    if kind == "ode":
        return PHS(J=[[0]], G=[[1]], Q=[[1.0]], states=["x"], inputs=["u"])
    return DescriptorPHS(J=np.zeros((2, 2)), G=[[1.0], [0.0]], B=[[0.0], [1.0]],
                         Q=np.eye(2), states=["x", "w"], inputs=["u"])


@pytest.mark.parametrize(("name", "kind"), CASES)
def test_a_failure_keeps_the_results_up_to_it(name, kind):
    x0 = [1.0] if kind == "ode" else [1.0, 0.0]
    with pytest.raises(SimulationError) as info, np.errstate(over="ignore", invalid="ignore"):
        simulate(_blow_up(kind), (0.0, 2.0), x0, u=lambda t, x: x[0] ** 2, method=name,
                 dt=1e-3 if name in FIXED_STEP else 1e-2)  # SciPy/IDA: dt is the output grid
    err = info.value
    partial = err.partial
    assert partial is not None and not partial.success
    assert 0.9 < err.t_reached <= 1.0 + 3e-3  # an explicit step may overshoot the pole
    assert partial.t[-1] == pytest.approx(err.t_reached)
    ok = np.isfinite(partial.x[:, 0])
    t_ok = partial.t[ok]
    assert t_ok.size >= 2
    # where it is finite, the partial solution is the exact one (accuracy of the method)
    np.testing.assert_allclose(partial.x[ok, 0][t_ok < 0.5], 1 / (1 - t_ok[t_ok < 0.5]),
                               rtol=1e-3)


class Heun(OneStepMethod):
    """Explicit trapezoidal rule (Heun's method, order 2): a user's own method."""

    name = "heun"
    order = 2

    def step(self, t, x, h):
        dyn = self.dyn
        u0 = dyn.u(t, x)
        k1 = dyn.f(x, u0)
        xp = x + h * k1
        u1 = dyn.u(t + h, xp)
        k2 = dyn.f(xp, u1)
        x1 = x + 0.5 * h * (k1 + k2)
        p0 = dyn.port_powers(x, dyn.num.gradient(x), u0)
        p1 = dyn.port_powers(xp, dyn.num.gradient(xp), u1)
        return x1, StepInfo(0.5 * h * (p0[0] + p1[0]), 0.5 * h * (p0[1] + p1[1]),
                            dyn.delta_H(x, x1), 0, 2)


def test_a_users_method_class_runs_by_class_and_by_registered_name():
    e1, e2 = _ode_error(Heun, dt=0.05), _ode_error(Heun, dt=0.025)
    assert abs(np.log2(e1 / e2) - 2) < 0.2
    register_method(Heun)
    try:
        assert METHODS["heun"] is Heun
        assert _ode_error("heun", dt=0.05) == e1
        with pytest.raises(ModelError, match="already registered"):
            register_method(type("Heun2", (Heun,), {}))
        with pytest.raises(ModelError, match="cannot simulate a DescriptorPHS"):
            _dae_error("heun", dt=1e-3)
    finally:
        del METHODS["heun"]


def test_a_method_class_without_the_contract_is_refused():
    with pytest.raises(ModelError, match="subclass of porthamiltonian.simulate.Method"):
        simulate(oscillator(), (0.0, 1.0), [1.0, 0.0], method=object)
    bad = type("Nameless", (OneStepMethod,), {"order": 2})
    with pytest.raises(ModelError, match="set name"):
        register_method(bad)


def test_one_set_of_options_for_both_problem_kinds():
    opts = SimulationOptions()
    assert (opts.rtol, opts.atol, opts.newton_tol) == (1e-6, 1e-9, 1e-12)
    with pytest.raises(ModelError, match="unknown simulation option"):
        simulate(oscillator(), (0.0, 1.0), [1.0, 0.0], rtoll=1e-3)
    with pytest.raises(ModelError, match="unknown simulation option"):
        _dae_error("midpoint", dt=1e-3, rtoll=1e-3)
    # the options object and keywords are the same call
    a = simulate(oscillator(c=0.1), (0.0, 1.0), [1.0, 0.0], options=SimulationOptions(dt=0.1))
    b = simulate(oscillator(c=0.1), (0.0, 1.0), [1.0, 0.0], dt=0.1)
    np.testing.assert_array_equal(a.x, b.x)


def test_scipy_methods_are_registered_classes():
    scipy = [n for n, c in METHODS.items() if issubclass(c, ScipyMethod)]
    assert {"RK45", "DOP853", "Radau", "BDF", "LSODA"} <= set(scipy)


def test_a_symbolic_parameter_free_quartic_ode_keeps_its_degree_hint():
    # the discrete gradient's quadrature is exact for a polynomial H of degree 4 with
    # 2 nodes; its power balance stays at round-off with the degree read from H
    q, p = sp.symbols("q p", real=True)
    sys = PHS(J=[[0, 1], [-1, 0]], hamiltonian=q**4 / 4 + p**2 / 2, states=["q", "p"])
    res = simulate(sys, (0.0, 5.0), [1.0, 0.0], method="discrete_gradient", dt=0.05)
    assert abs(res.H[-1] - res.H[0]) <= 1e-13


@pytest.mark.parametrize(("kind", "quartic", "expected"), [
    ("ode", False, "midpoint"), ("ode", True, "discrete_gradient"),
    ("dae", False, "midpoint"), ("dae", True, "discrete_gradient")])
def test_auto_runs_the_energy_exact_method_and_says_why(kind, quartic, expected):
    res = _run(kind, "auto", quartic=quartic, dt=0.01)
    assert res.method == expected
    assert res.extra["method_choice"].startswith(f"auto → {expected}: ")
    assert ("non-quadratic H" in res.extra["method_choice"]) == quartic
    same = _run(kind, expected, quartic=quartic, dt=0.01)
    np.testing.assert_array_equal(res.x, same.x)
    assert np.max(np.abs(res.power_residual)) <= 1e-12 * _scale(res)


def test_auto_is_the_default():
    q, p = sp.symbols("q p", real=True)
    pend = PHS(J=[[0, 1], [-1, 0]], hamiltonian=p**2 / 2 + 1 - sp.cos(q), states=["q", "p"])
    res = simulate(pend, (0.0, 20.0), [2.0, 0.0], dt=0.05)
    assert res.method == "discrete_gradient"
    assert np.max(np.abs(res.H - res.H[0])) <= 1e-13 * res.H[0]


def test_the_registry_knows_each_methods_problems_before_importing_it():
    """``METHODS.problems_of`` (what ``validate`` checks a method against, without
    importing it) is what the class itself declares, for every registered method."""
    from porthamiltonian.simulate.registry import _BUILT_IN, MethodRegistry

    fresh = MethodRegistry(_BUILT_IN)
    for name in METHODS:
        assert fresh.problems_of(name) == frozenset(METHODS[name].problems), name
    assert list(fresh) == list(METHODS)[:len(fresh)]


def test_check_method_refuses_as_resolve_method_does():
    from porthamiltonian.simulate.registry import check_method, resolve_method

    for call in (check_method, resolve_method):
        with pytest.raises(ModelError, match="unknown simulation method 'rk5'.*midpoint"):
            call("rk5", "ode")
        with pytest.raises(ModelError, match="'RK45' cannot simulate a DescriptorPHS.*ida"):
            call("RK45", "dae")
        with pytest.raises(ModelError, match="'ida' cannot simulate an explicit PHS"):
            call("ida", "ode")
