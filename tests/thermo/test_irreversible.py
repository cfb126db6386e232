"""Irreversible pH systems: first law to round-off, second law at every step, equilibria."""

import numpy as np
import pytest

from porthamiltonian import simulate
from porthamiltonian.thermo.irreversible_models import (
    gas_piston,
    gas_piston_equilibrium,
    gas_piston_state,
    two_bodies,
    two_bodies_equilibrium,
)
from porthamiltonian.thermo.properties import gibbs_residual, ideal_gas

CV = 1.5 * 8.314462618


def _check_isolated(run):
    assert np.max(np.abs(run.U - run.U[0])) <= 1e-12 * abs(run.U[0])
    dS = np.diff(run.S)
    assert np.all(dS >= -1e-14 * np.max(np.abs(run.S)))
    assert run.S[-1] > run.S[0]


def test_two_bodies_reach_the_mixing_temperature():
    m = two_bodies(C1=1000.0, C2=2000.0, conductance=5.0, T_ref=300.0)
    x0 = [1000.0 * np.log(350 / 300), 2000.0 * np.log(280 / 300)]
    run = m.simulate((0.0, 6000.0), x0, dt=20.0)
    _check_isolated(run)
    T_f = two_bodies_equilibrium(1000.0, 2000.0, 350.0, 280.0)
    assert m.grad(run.x[-1]) == pytest.approx([T_f, T_f], rel=1e-9)
    # entropy produced = closed form C1 ln(Tf/T1) + C2 ln(Tf/T2)
    dS = 1000.0 * np.log(T_f / 350) + 2000.0 * np.log(T_f / 280)
    assert run.S[-1] - run.S[0] == pytest.approx(dS, rel=1e-8)


def test_gas_piston_reaches_equal_pressures_and_temperatures():
    g = ideal_gas(CV)
    geo = {"N1": 0.04, "N2": 0.02, "c_v": CV, "area": 0.01, "length": 0.2}
    m = gas_piston(0.04, 0.02, c_v=CV, area=0.01, length=0.2)
    x0 = [g.entropy_at(400.0, 0.01 * 0.08, [0.04]), g.entropy_at(300.0, 0.01 * 0.12, [0.02]),
          0.08, 0.0]
    run = m.simulate((0.0, 3.0), x0, dt=0.005)
    _check_isolated(run)
    eq = gas_piston_equilibrium(run.U[0], 0.04, 0.02, CV, 0.01, 0.2)
    st = gas_piston_state(m, run.x[-1], **geo)
    for key in ("T1", "T2"):
        assert st[key][0] == pytest.approx(eq["T"], rel=1e-6)
    for key in ("p1", "p2"):
        assert st[key][0] == pytest.approx(eq["p"], rel=1e-6)
    assert run["q"][-1] == pytest.approx(eq["q"], rel=1e-6)
    # the Gibbs relation of gas 1 along the run (S1, V1, N1)
    traj = np.column_stack([run["S1"], 0.01 * run["q"], np.full(len(run.t), 0.04)])
    U1 = g.numeric("U")(*traj.T)
    assert np.max(np.abs(gibbs_residual(g, traj))) < 5e-5 * np.max(U1)  # Simpson, 5 ms


def test_generic_discrete_gradient_on_the_ir_conserves_energy():
    """The IR (PHS with J̃(x)) run by simulate's discrete gradient: U to round-off;
    the entropy increments are measured (docs/thermo-irreversible.md)."""
    m = two_bodies()
    x0 = [1000.0 * np.log(350 / 300), 2000.0 * np.log(280 / 300)]
    res = simulate(m.phs, (0.0, 2000.0), x0, method="discrete_gradient", dt=50.0)
    U = m.energy(res.x)
    assert np.max(np.abs(U - U[0])) <= 1e-12 * U[0]
    assert m.total_entropy(res.x)[-1] > m.total_entropy(res.x)[0]


def test_cstr_steady_states_are_the_roots_of_the_balances_and_there_are_three():
    from scipy.optimize import fsolve

    from porthamiltonian.thermo.cstr import SEBORG, cstr, cstr_balances, cstr_state

    p = SEBORG
    roots: list[tuple[float, float]] = []
    for T0 in np.linspace(300.0, 420.0, 25):
        z, _, ier, _ = fsolve(lambda z: cstr_balances(z[0], z[1], p) / [1.0, 100.0],
                              [500.0, T0], full_output=True, xtol=1e-13)
        if ier == 1 and not any(abs(z[1] - r[1]) < 1e-4 for r in roots):
            roots.append((float(z[0]), float(z[1])))
    roots.sort(key=lambda r: r[1])
    assert len(roots) == 3                                   # multiplicity
    assert roots[1][0] == pytest.approx(500.0, rel=1e-3)     # the unstable 0.5 mol/L, 350 K
    assert roots[1][1] == pytest.approx(350.0, abs=0.01)
    m = cstr(**p)
    u = np.array([p["q"], p["T_c"]])
    W = p["c_in"]["W"]
    for cA, T in roots:                      # each root is a steady state of the pH model
        x = cstr_state(m, {"A": cA, "B": 1000.0 - cA, "W": W}, T, p["V"], p["species"])
        scale = np.abs(x) + 1.0
        z = fsolve(lambda y, s=scale: m.rhs(y * s, u) / s, x / scale,
                   xtol=1e-13) * scale
        assert m.grad(z)[-1] == pytest.approx(T, rel=1e-9)
        assert z[0] / p["V"] == pytest.approx(cA, rel=1e-7)
        # linearization: the textbook's two eigenvalues plus −q/V twice (total amount, B+W)
        f = lambda y: cstr_balances(y[0], y[1], p) / [p["V"], p["rho_cp"] * p["V"]]  # noqa: E731
        e = np.diag([1e-3, 1e-4])
        Jt = np.array([(f(np.array([cA, T]) + d) - f(np.array([cA, T]) - d)) / (2 * d.max())
                       for d in e]).T
        Jm = np.array([(m.rhs(z + d, u) - m.rhs(z - d, u)) / (2 * d.max())
                       for d in np.diag(1e-6 * (np.abs(z) + 1.0))]).T
        expected = np.sort_complex(np.r_[np.linalg.eigvals(Jt), -p["q"] / p["V"] * np.ones(2)])
        assert np.sort_complex(np.linalg.eigvals(Jm)) == pytest.approx(expected, abs=1e-6)
    # started cold, the reactor settles at the low stable state
    x0 = cstr_state(m, {"A": 999.0, "B": 1.0, "W": W}, 300.0, p["V"], p["species"])
    run = m.simulate((0.0, 2000.0), x0, dt=4.0, u=u)
    assert m.grad(run.x[-1])[-1] == pytest.approx(roots[0][1], rel=1e-6)
    assert run.x[-1, 0] / p["V"] == pytest.approx(roots[0][0], rel=1e-5)


def test_entropy_heat_equation_insulated_rod_and_entropy_port():
    from porthamiltonian.thermo.heat_entropy import heat_entropy

    n, c, lam, L = 10, 1000.0, 5.0, 1.0
    m = heat_entropy(L, c, lam, cells=n)
    C = c * L / n
    z = (np.arange(n) + 0.5) / n
    T0 = 300.0 + 20.0 * np.cos(np.pi * z)
    run = m.simulate((0.0, 2000.0), C * np.log(T0 / 300.0), dt=20.0)
    _check_isolated(run)
    T_end = m.grad(run.x[-1])
    assert T_end == pytest.approx(np.full(n, T0.mean()), rel=1e-10)   # energy Σ C T kept
    # the slowest mode of the finite-volume Laplacian: rate (λ/(c Δz²))·2(1 − cos(π/n))
    rate = lam / (c * (L / n) ** 2) * 2.0 * (1.0 - np.cos(np.pi / n))
    fine = m.simulate((0.0, 40.0), C * np.log(T0 / 300.0), dt=2.0)
    d = np.array([m.grad(x)[0] - m.grad(x)[-1] for x in fine.x])
    measured = -np.polyfit(fine.t, np.log(d), 1)[0]
    assert measured == pytest.approx(rate, rel=1e-2)
    # a constant entropy inflow at the left end: S grows by at least the inflow
    fS = 0.5
    run = m.simulate((0.0, 200.0), np.zeros(n), dt=20.0, u=[fS, 0.0])
    assert np.all(np.diff(run.S) >= 20.0 * fS * (1.0 - 1e-12))
    assert np.all(np.diff(run.U) > 0.0)


def test_cstr_with_two_reactions_first_law_and_entropy_production():
    """A → B → C: dU/dt is the enthalpy carried in minus out plus the jacket's heat, and
    the entropy produced inside is Σ r_j A_j / T ≥ 0, at random states."""
    from porthamiltonian.thermo.cstr import Reaction, cstr, cstr_state

    R = 8.314462618
    sp_ = ["A", "B", "C", "W"]
    rx = [Reaction({"A": -1, "B": 1}, 1.0e6, 6.0e4), Reaction({"B": -1, "C": 1}, 5.0e5, 6.5e4)]
    par = {"V": 0.1, "v_m": 1.8e-5, "rho_cp": 2.39e5, "u": {"A": 4e4, "B": 1e4, "C": 0.0},
           "s": {"B": 50.0, "C": 100.0}, "c_in": {"A": 1000.0, "W": 1 / 1.8e-5 - 1000.0},
           "T_in": 340.0, "UA": 800.0}
    m = cstr(sp_, rx, **par)
    c = par["rho_cp"] * par["v_m"]
    rng = np.random.default_rng(1)
    for _ in range(5):
        conc = {"A": rng.uniform(50, 900), "B": rng.uniform(10, 500), "C": rng.uniform(10, 500),
                "W": par["c_in"]["W"]}
        T = rng.uniform(300, 380)
        x = cstr_state(m, conc, T, par["V"], sp_)
        q, Tc = rng.uniform(1e-4, 3e-3), rng.uniform(280, 320)
        grad = m.grad(x)
        assert grad[-1] == pytest.approx(T, rel=1e-12)
        h = np.array([par["u"].get(n, 0.0) + c * T for n in sp_])
        h_in = np.array([par["u"].get(n, 0.0) + c * par["T_in"] for n in sp_])
        cin = np.array([par["c_in"].get(n, 0.0) for n in sp_])
        cv = x[:-1] / par["V"]
        dU = grad @ m.rhs(x, [q, Tc])
        expected = q * (cin @ h_in - cv @ h) + par["UA"] * (Tc - T)
        assert dU == pytest.approx(expected, rel=1e-10, abs=1e-9 * abs(q * cin @ h_in))
        # internal production: closed system (q = 0) with the jacket at T (no exchange)
        dS = m.rhs(x, [0.0, T])[-1]
        mu = grad[:-1]
        prod = 0.0
        for r in rx:
            nu = np.array([r.nu.get(n, 0) for n in sp_])
            A = -nu @ mu
            reac = np.prod([cv[i] ** -nu[i] for i in range(4) if nu[i] < 0])
            rate = par["V"] * r.k0 * np.exp(-r.Ea / (R * T)) * reac * (1 - np.exp(-A / (R * T)))
            prod += rate * A / T
        assert dS == pytest.approx(prod, rel=1e-9)
        assert prod >= 0.0
