"""Transport as PHS: compartments, 1-D diffusion and an open stirred tank (closed forms)."""

import numpy as np
import pytest
import sympy as sp

from porthamiltonian import ModelError, simulate
from porthamiltonian.thermo.transport import (
    GAS_CONSTANT,
    compartments,
    diffusion_line,
    stirred_tank,
)

RNG = np.random.default_rng(7)


# ------------------------------------------------------------------ compartments
def test_two_compartment_fick_decays_at_k_times_sum_of_inverse_volumes():
    # Fick: ṅ₁ = −k(c₁ − c₂) is linear in n; c₁ − c₂ decays at λ = k(1/V₁ + 1/V₂),
    # and the implicit midpoint step is its Cayley factor (1 − hλ/2)/(1 + hλ/2)
    V, k = np.array([1.0, 3.0]), 0.25
    m = compartments(V, conductance=k)
    lam = k * (1 / V[0] + 1 / V[1])
    x0 = m.state([[2.0], [0.3]])
    dt, steps = 0.25, 300
    r = simulate(m.system, (0, dt * steps), x0, method="midpoint", dt=dt)
    c = m.concentrations(r.x)[:, :, 0]
    gap = c[:, 0] - c[:, 1]
    cayley = (1 - dt * lam / 2) / (1 + dt * lam / 2)
    assert np.allclose(gap, gap[0] * cayley ** np.arange(steps + 1), rtol=1e-9, atol=1e-13)
    # against the exact exp(−λt): the midpoint's phase error λ³h²t/12
    assert np.allclose(gap, gap[0] * np.exp(-lam * r.t), rtol=lam**3 * dt**2 * r.t[-1] / 6,
                       atol=1e-13)
    totals = m.totals(r.x)[:, 0]
    assert np.max(np.abs(totals - totals[0])) < 1e-14 * 10 * totals[0]  # Casimir
    assert np.allclose(c[-1], m.totals(x0)[0] / V.sum(), rtol=1e-10)  # equal concentrations
    assert np.all(np.diff(r.H) <= 1e-12 * np.max(np.abs(r.H)))  # Gibbs energy dissipated


def test_graph_of_membranes_is_ficks_law_with_psd_resistance():
    V = np.array([1.0, 0.5, 2.0, 1.5])
    edges = [(0, 1, [0.2, 0.05]), (1, 2, 0.1), (2, 3, [0.3, 0.01]), (0, 3, 0.07)]
    m = compartments(V, edges, species=("Na", "K"), mu0=[-2.6e5, -2.8e5])
    R_of = sp.lambdify([m.system.state_symbols], m.system.R, modules="numpy")
    for _ in range(5):
        x = RNG.uniform(0.1, 3.0, 8)
        c = m.concentrations(x)
        expected = np.zeros((4, 2))
        for i, j, kv in m.edges:
            J = kv * (c[i] - c[j])
            expected[i] -= J
            expected[j] += J
        assert np.allclose(m.system.rhs(x), expected.ravel(), rtol=1e-12, atol=1e-15)
        R = np.asarray(R_of(x), dtype=float)
        assert np.allclose(R, R.T, atol=1e-15)
        assert np.min(np.linalg.eigvalsh(R)) > -1e-12 * np.max(np.abs(R))
        mu = m.system.gradient(x)
        assert np.allclose(mu.reshape(4, 2),
                           [-2.6e5, -2.8e5] + m.RT * np.log(c), rtol=1e-13)
    # equal concentrations are an equilibrium, whatever the standard potentials
    xe = m.equilibrium(RNG.uniform(0.1, 3.0, 8))
    assert np.max(np.abs(m.system.rhs(xe))) < 1e-13


def test_linear_onsager_law_reaches_equal_potentials():
    V = np.array([0.5, 1.0, 2.0])
    m = compartments(V, conductance=2e-4, law="linear")  # L in mol²/(J·s)
    x0 = m.state([[1.5], [0.2], [0.1]])
    r = simulate(m.system, (0, 400.0), x0, method="discrete_gradient", dt=2.0)
    c_end = m.concentrations(r.x[-1])[:, 0]
    assert np.allclose(c_end, m.totals(x0)[0] / V.sum(), rtol=1e-10)
    assert np.allclose(m.totals(r.x)[:, 0], m.totals(x0)[0], rtol=1e-14)
    assert np.all(np.diff(r.H) < 1e-12 * np.max(np.abs(r.H)))


def test_port_power_is_molar_flow_times_chemical_potential():
    m = compartments([1.0, 2.0], conductance=0.1, species=("A", "B"), ports=[1],
                     mu0=[1e3, -5e2])
    sys = m.system
    assert sys.inputs == ("J_A_1", "J_B_1") and sys.outputs == ("mu_A_1", "mu_B_1")
    x, u = np.array([1.0, 0.4, 0.3, 0.9]), np.array([0.02, -0.01])
    mu = sys.gradient(x)
    y = sys.output(x, u)
    assert np.allclose(y, mu[2:], rtol=1e-14)  # the chemical potentials at compartment 1
    xdot = sys.rhs(x, u)
    dissipated = sum(kv[s] * (m.concentrations(x)[0, s] - m.concentrations(x)[1, s])
                     * (mu[s] - mu[2 + s]) for _, _, kv in m.edges for s in range(2))
    assert mu @ xdot == pytest.approx(u @ y - dissipated, rel=1e-12)
    assert dissipated > 0
    assert m.totals(xdot) == pytest.approx(u, rel=1e-14)  # J in = amount up


def test_compartment_errors_name_the_fault():
    with pytest.raises(ModelError, match="volumes"):
        compartments([1.0, 0.0])
    with pytest.raises(ModelError, match="edge"):
        compartments([1.0, 1.0], [(0, 2, 1.0)])
    with pytest.raises(ModelError, match="law"):
        compartments([1.0, 1.0], law="ohm")


# ------------------------------------------------------------------ 1-D diffusion
LEN, DIFF = 0.02, 1e-9  # 2 cm, 1e-9 m²/s (a small solute in water)


@pytest.mark.parametrize("degree", [1, 2])
def test_decay_rates_converge_to_d_pi2_k2_over_l2(degree):
    exact = DIFF * (np.pi * np.arange(4) / LEN) ** 2
    Ns, errs = [8, 16, 32], []
    for N in Ns:
        rates = diffusion_line(LEN, DIFF, elements=N, degree=degree).decay_rates(4)
        assert abs(rates[0]) <= 1e-9 * exact[-1]  # the total amount does not decay
        errs.append(np.max(np.abs(rates[1:] - exact[1:]) / exact[1:]))
    order = -np.polyfit(np.log(Ns), np.log(errs), 1)[0]
    assert order == pytest.approx(2 * degree, abs=0.25)
    assert errs[-1] < 1e-2


def test_closed_channel_conserves_amount_and_flux_port_adds_it():
    line = diffusion_line(LEN, lambda z: DIFF * (1 + 20 * z), area=1e-4, c_ref=10.0,
                          elements=10, degree=2, right="flux")
    assert line.system.inputs == ("J_right",) and line.system.outputs == ("mu_right",)
    x0 = line.disc.mp * 300.0 * np.cos(np.pi * line.disc.h1.coords / LEN)
    dt = 2000.0
    r = simulate(line.system, (0, 40 * dt), x0, u=lambda t: 1e-9 * np.sin(1e-4 * t) ** 2,
                 method="midpoint", dt=dt)
    t_mid = 0.5 * (r.t[1:] + r.t[:-1])
    added = dt * 1e-9 * np.sin(1e-4 * t_mid) ** 2
    amount = line.amount(r.x)
    assert np.allclose(np.diff(amount), added, rtol=1e-9, atol=1e-12 * np.max(added))
    closed = diffusion_line(LEN, DIFF, elements=10)
    r2 = simulate(closed.system, (0, 40 * dt), closed.disc.mp * np.linspace(-50, 80, 11),
                  method="midpoint", dt=dt)
    a2 = closed.amount(r2.x)
    assert np.max(np.abs(a2 - a2[0])) < 1e-13 * np.max(np.abs(r2.x))


def test_imposed_potentials_give_ficks_steady_flux():
    A, c_ref, T = 1e-4, 10.0, 310.0
    RT = GAS_CONSTANT * T
    line = diffusion_line(LEN, DIFF, area=A, c_ref=c_ref, T=T, elements=6, degree=2,
                          left="potential", right="potential")
    sys = line.system
    assert sys.inputs == ("mu_left", "mu_right") and sys.outputs == ("J_left", "J_right")
    c1, c2 = 12.0, 9.0  # mol/m³ held at the ends
    u = RT * (np.array([c1, c2]) / c_ref - 1)
    num = sys.compile()
    x = np.linalg.solve(num.A.toarray(), -num.B.toarray() @ u)
    flux = DIFF * A * (c1 - c2) / LEN  # mol/s, in at the left, out at the right
    assert np.allclose(sys.output(x, u), [flux, -flux], rtol=1e-10)
    z = np.linspace(0, LEN, 5)
    assert np.allclose(line.concentration(x, z, u), c1 + (c2 - c1) * z / LEN, rtol=1e-12)
    # u·y is the power into the channel: at steady state all of it is dissipated
    assert u @ sys.output(x, u) > 0


# ------------------------------------------------------------------ open tank
CP, Y_IN, T_IN = np.array([75.0, 120.0]), np.array([0.3, 0.7]), 350.0


def _tank():
    return stirred_tank(("water", "glycol"), CP, Y_IN, T_IN, h0=[-2.86e5, -4.55e5],
                        s0=[70.0, 167.0])


def test_steady_inflow_reaches_inlet_composition_and_temperature():
    tank = _tank()
    N, F = 50.0, 2.0  # mol held, mol/s through: residence time N/F = 25 s
    x0 = np.array([N, 0.0, 0.0])
    x0[0], x0[1] = 0.9 * N, 0.1 * N
    x0[2] = x0[:2] @ np.array([-2.86e5, -4.55e5]) + x0[:2] @ CP * (290.0 - 298.15)
    dt, steps = 1.0, 1000
    r = simulate(tank.system, (0, dt * steps), x0, u=np.array([F, F, 0.0]),
                 method="midpoint", dt=dt)
    target = tank.steady_state(N, F)
    decay = np.exp(-F * r.t / N)[:, None]
    closed = target + (x0 - target) * decay
    assert np.allclose(r.x, closed, rtol=0, atol=(F * dt / N) ** 2 * np.abs(x0 - target))
    assert np.allclose(r.x[:, :2].sum(axis=1), N, rtol=1e-14)
    T = tank.temperature(r.x)
    assert T[0] == pytest.approx(290.0, rel=1e-12) and T[-1] == pytest.approx(T_IN, rel=1e-10)
    assert np.allclose(r.x[-1, :2] / N, Y_IN, rtol=1e-10)
    # first law: ΔU per step = (F h_in − F h + Q) at the step's midpoint, to round-off
    assert np.max(np.abs(r.power_residual)) < 1e-12 * np.max(np.abs(np.diff(r.H)))


def test_heated_tank_energy_balance_and_steady_temperature():
    tank = _tank()
    N, F, Q = 20.0, 0.5, 3e3
    x0 = tank.steady_state(N, F)
    u = np.array([F, F, Q])
    r = simulate(tank.system, (0, 1000.0), x0, u=u, method="midpoint", dt=1.0)
    c_in = Y_IN @ CP  # J/(mol·K)
    assert tank.temperature(r.x[-1]) == pytest.approx(T_IN + Q / (F * c_in), rel=1e-10)
    x = r.x[10]
    y = tank.system.output(x, u)
    n = x[:2]
    h = x[2] / n.sum()
    assert np.allclose(y, [tank.h_in, -h, 1.0], rtol=1e-14)
    assert tank.system.rhs(x, u)[2] == pytest.approx(F * tank.h_in - F * h + Q, rel=1e-13)


def test_entropy_balance_and_mixing_production():
    tank = _tank()
    x = np.array([12.0, 3.0, 0.0])
    x[2] = x[:2] @ np.array([-2.86e5, -4.55e5]) + x[:2] @ CP * (320.0 - 298.15)
    u = np.array([0.7, 0.4, -150.0])
    fl = tank.flows(x, u)
    # dS/dt by the chain rule against the balance: in − out + Q/T + σ
    xdot = tank.system.rhs(x, u)
    eps = 1e-6
    dS = (tank.entropy(x + eps * xdot) - tank.entropy(x - eps * xdot)) / (2 * eps)
    balance = fl["entropy_in"] - fl["entropy_out"] + fl["heat_entropy"] + fl["production"]
    assert dS == pytest.approx(balance, rel=1e-7)
    assert fl["production"] > 0
    # outlet: enthalpy = T·entropy + chemical power (Euler), exactly
    T = float(tank.temperature(x))
    assert fl["enthalpy_out"] == pytest.approx(T * fl["entropy_out"] + fl["chemical_out"],
                                               rel=1e-12)
    # no production when the inlet has the tank's temperature and composition
    xs = tank.steady_state(10.0, 1.0)
    assert abs(tank.flows(xs, u)["production"]) < 1e-12 * tank.flows(xs, u)["entropy_in"]


def test_tank_errors():
    with pytest.raises(ModelError, match="sum to 1"):
        stirred_tank(("a", "b"), [1.0, 1.0], [0.5, 0.6], 300.0)


# ------------------------------------------------------------------ library components
@pytest.mark.parametrize("law", ["linear", pytest.param("fick", marks=pytest.mark.slow)])
def test_network_of_compartments_and_membrane_equals_the_model(law):
    # (the Fick membrane's network spends ~4 s in the symbolic R ⪰ 0 check)
    from porthamiltonian.library import thermal as TH
    from porthamiltonian.network import Network

    k = 0.25 if law == "fick" else 2e-5
    net = Network("cells")
    net.add("c0", TH.Compartment(V=1.0, mu0=-1e4, T=310.0))
    net.add("c1", TH.Compartment(V=3.0, mu0=-1e4, T=310.0))
    net.add("m", TH.Membrane(k=k, law=law, mu0=-1e4, T=310.0))
    net.connect("c0.p", "m.a")
    net.connect("m.b", "c1.p")
    sys = net.system()
    assert sys.states == ("c0.n", "c1.n")
    info = sys.quantities.states["c0.n"]
    assert (info.quantity.unit, info.coenergy_name, info.coenergy.unit) == ("mol", "c0.mu",
                                                                           "J/mol")
    ref = compartments([1.0, 3.0], [(0, 1, k)], T=310.0, mu0=[-1e4], law=law)
    for _ in range(3):
        x = RNG.uniform(0.1, 2.0, 2)
        assert np.allclose(sys.rhs(x), ref.system.rhs(x), rtol=1e-12)
        assert sys.energy(x) == pytest.approx(ref.system.energy(x), rel=1e-13)
    with pytest.raises(ModelError, match="law"):
        TH.Membrane(k=1.0, law="ohm")


def test_membrane_two_port_dissipates_and_is_ficks_law():
    from porthamiltonian.library import thermal as TH

    RT = GAS_CONSTANT * 298.15
    mem = TH.Membrane(k=0.4).system()  # ports a, b: potentials in, molar flows out
    ca, cb = 2.0, 0.5
    u = RT * np.log([ca, cb])
    # alone, its conductance keeps the placeholders of its port potentials
    expr = mem.output_expr()
    values = {**mem.parameters, "a.e": u[0], "b.e": u[1], "a": u[0], "b": u[1]}
    syms = sorted(expr.free_symbols, key=str)
    y = np.ravel(sp.lambdify(syms, expr, modules="numpy")(*[values[s.name] for s in syms]))
    assert np.allclose(y, [0.4 * (ca - cb), -0.4 * (ca - cb)], rtol=1e-12)
    assert u @ y > 0  # power into the membrane: dissipated
