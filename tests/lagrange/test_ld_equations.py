"""The implicit DAE of equations(), the symbolic power balance dE/dt = ⟨F, v⟩,
and the IDA path of simulate()."""

import numpy as np
import pytest
import sympy
from ld_models import accelerations, motor, rolling_disk, series_rlc_torn, spring_torn


@pytest.mark.parametrize("make", [spring_torn, rolling_disk])
def test_simulated_samples_satisfy_the_implicit_dae(make):
    sys = make()
    q0 = [0.1, 0.1, -0.2] if sys.n == 3 else [0.0, 0.0, 0.0, 0.4]
    v0 = [0.3, 0.3, 0.0] if sys.n == 3 else [0.5 * np.cos(0.4), 0.5 * np.sin(0.4), 1.0, 0.7]
    res = sys.simulate(2.0, q0, v0, dt=0.5)
    eq = sys.equations()
    t = eq.t
    Lvv = sys.legendre().jacobian(sympy.Matrix(sys.velocities)).subs(sys.parameters)
    Lvv = np.array(Lvv, dtype=float)  # constant for these Lagrangians
    for k in range(len(res.t)):
        q, v, p, lam = res.q[k], res.v[k], res.p[k], res.lam[k]
        vdot = accelerations(sys, q, v)[: sys.n]
        sub = {}
        for i in range(sys.n):
            sub[eq.q[i].diff(t)] = v[i]
            sub[eq.p[i].diff(t)] = (Lvv @ vdot)[i]
        for fs, vals in ((eq.q, q), (eq.v, v), (eq.p, p), (eq.lam, lam)):
            sub |= dict(zip(fs, vals, strict=True))
        r = eq.residual.xreplace(sub).subs(sys.parameters)
        assert np.max(np.abs(np.array(r.evalf(), dtype=float))) < 1e-9
    assert len(eq.unknowns) == 3 * sys.n + sys.m == eq.residual.shape[0]


@pytest.mark.parametrize("make", [series_rlc_torn, motor])
def test_power_balance_holds_symbolically(make):
    """dE/dt = ∂E/∂q·v + ∂E/∂v·v̇ equals the power of the external forces ⟨F, v⟩ on
    the constraint set: constraint and magnetic forces are workless."""
    sys = make(0.4, 0.5, 0.2) if make is series_rlc_torn else make()
    M, r = sys.acceleration_form()
    sol = M.LUsolve(r)
    vdot = sol[: sys.n, :]
    E = sys.energy()
    q, v = sympy.Matrix(sys.coordinates), sympy.Matrix(sys.velocities)
    dE = (sympy.Matrix([E]).jacobian(q) * v + sympy.Matrix([E]).jacobian(v) * vdot)[0]
    resid = dE - sys.power()
    if sys.m:  # restrict to A(q)ᵀ v = 0 by solving it for some velocities
        cons = list(sys.constraint_forms.T * v)
        fix = sympy.solve(cons, list(sys.velocities)[: sys.m], dict=True)[0]
        resid = resid.subs(fix)
    assert sympy.simplify(resid.subs(sys.parameters)) == 0


def test_ida_agrees_with_explicit_reduction():
    pytest.importorskip("sksundae")
    sys = rolling_disk()
    v0 = [0.5 * np.cos(0.4) * 1.3, 0.5 * np.sin(0.4) * 1.3, 1.3, 0.7]
    a = sys.simulate(8.0, [0, 0, 0, 0.4], v0, dt=0.1)
    b = sys.simulate(8.0, [0, 0, 0, 0.4], v0, dt=0.1, method="ida", rtol=1e-10)
    assert np.max(np.abs(a.q - b.q)) < 1e-7
    assert np.max(np.abs(b.constraint_residual)) < 1e-8
    assert np.max(np.abs(b.energy_residual)) < 1e-8 * b.energy[0]


def test_time_dependent_lagrangian_power_balance():
    """A pendulum-like spring whose stiffness is pumped, k(t) = k0 (1 + ε sin t):
    dE/dt = −∂L/∂t = ½ k0 ε cos t x², integrated with the state."""
    from ld_models import t as time
    from sympy.physics.mechanics import dynamicsymbols

    from porthamiltonian import lagrange

    x = dynamicsymbols("x")
    k = 4.0 * (1 + 0.3 * sympy.sin(time))
    sys = lagrange.LagrangeDiracSystem([x], x.diff(time) ** 2 / 2 - k * x**2 / 2, name="pumped")
    res = sys.simulate(10.0, [1.0], [0.0], dt=0.1)
    assert np.max(np.abs(res.energy_residual)) < 1e-9 * np.max(res.energy)
    assert np.ptp(res.energy) > 0.1  # the energy really changes


def test_simulation_input_errors():
    from ld_models import t as time
    from sympy.physics.mechanics import dynamicsymbols

    from porthamiltonian import ModelError, lagrange

    q = dynamicsymbols("q")
    C = sympy.Symbol("C")
    cap = lagrange.LagrangeDiracSystem([q], -q**2 / (2 * C), parameters={C: 1.0}, name="cap")
    with pytest.raises(ModelError, match="degenerate in directions the constraints do not fix"):
        cap.simulate(1.0, [1.0], [0.0])
    k = sympy.Symbol("k")
    spring = lagrange.LagrangeDiracSystem([q], q.diff(time) ** 2 / 2 - k * q**2 / 2, name="s")
    with pytest.raises(ModelError, match="still depends on k"):
        spring.simulate(1.0, [1.0], [0.0])
    with pytest.raises(ModelError, match="parameter 'm' does not appear"):
        lagrange.LagrangeDiracSystem([q], q.diff(time) ** 2, parameters={"m": 1.0})
    with pytest.raises(ModelError, match="q0 has 2 entries"):
        spring.simulate(1.0, [1.0, 2.0], [0.0])
