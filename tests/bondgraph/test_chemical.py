"""Chemical bond graphs: Ce (ideal species) and Re (mass-action reaction) elements.

Facts checked: the equilibrium constant of A ⇌ B, 2A ⇌ B through a TF of ratio 2, the
closed cycle A → B → C → A (equilibrium, conserved total, no flux at the end), the
exact Gibbs-energy balance of the discrete-gradient run, agreement with the same
network built by :mod:`porthamiltonian.thermo.reactions`, BondGraphTools' ``K``
convention, the errors, and a model file run by ``porthamiltonian simulate``.
"""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

import porthamiltonian as ph
from porthamiltonian import ModelError
from porthamiltonian.bondgraph import BondGraph, to_phs
from porthamiltonian.bondgraph.reactions import reaction_conductance
from porthamiltonian.cli import main
from porthamiltonian.thermo.reactions.laws import (
    dissipation_coefficient,
    mass_action_flux,
)

RT = 2478.957  # J/mol, 298.15 K
DG = "discrete_gradient"
MODEL = Path(__file__).resolve().parents[2] / "examples" / "models" / "chemical" / \
    "reaction_cycle.yaml"


def a_b(mu_a: float = 0.0, mu_b: float = -1500.0, kappa: float = 1.0) -> BondGraph:
    """A ⇌ B: Ce A – 0 – Re – 0 – Ce B."""
    bg = BondGraph("AB", parameters={"RT": RT, "muA": mu_a, "muB": mu_b, "k": kappa})
    bg.add("A", "Ce", mu0="muA", RT="RT")
    bg.add("B", "Ce", mu0="muB", RT="RT")
    bg.add("jA", "0")
    bg.add("jB", "0")
    bg.add("r", "Re", kappa="k", RT="RT")
    for a, b in [("jA", "A"), ("jB", "B"), ("jA", "r"), ("r", "jB")]:
        bg.connect(a, b)
    return bg


def cycle() -> BondGraph:
    bg = BondGraph("cycle", parameters={"RT": RT, "muA": 0.0, "muB": -1000.0,
                                        "muC": 500.0, "k1": 1.0, "k2": 0.5, "k3": 0.2})
    for s in "ABC":
        bg.add(s, "Ce", mu0=f"mu{s}", RT="RT")
        bg.add(f"j{s}", "0")
        bg.connect(f"j{s}", s)
    for k, (x, y) in enumerate(["AB", "BC", "CA"], start=1):
        bg.add(f"r{k}", "Re", kappa=f"k{k}", RT="RT")
        bg.connect(f"j{x}", f"r{k}")
        bg.connect(f"r{k}", f"j{y}")
    return bg


def test_a_b_reaches_its_equilibrium_constant():
    """(Run by the compiled engine: γ's Python form with its series near A_f = A_b.)"""
    sys = to_phs(a_b())
    assert sys.states == ("A", "B")
    assert sys.quantities  # chemical domain: amounts in mol
    res = ph.simulate(sys, (0, 30), [1.0, 0.1], method="discrete_gradient", dt=0.1)
    nA, nB = res.x[-1]
    K = np.exp(-(-1500.0 - 0.0) / RT)
    assert abs(nB / nA - K) < 1e-10 * K
    assert abs(nA + nB - 1.1) < 1e-13  # the moiety A + B


def test_a_b_flux_is_mass_action_and_r_is_the_log_mean():
    sys = to_phs(a_b(mu_a=300.0, mu_b=-200.0, kappa=0.7))
    x = np.array([0.8, 0.3])
    mu = np.array([300.0, -200.0]) + RT * np.log(x)
    v = mass_action_flux(mu[0], mu[1], 0.7, RT)
    np.testing.assert_allclose(sys.rhs(x), [-v, v], rtol=1e-12)
    R = np.array(sys.R.xreplace({**dict(sys.parameter_values()),
                                 **dict(zip(sys.state_symbols, x, strict=True))}).evalf(),
                 dtype=float)
    g = dissipation_coefficient(mu[0], mu[1], 0.7, RT)
    np.testing.assert_allclose(R, g * np.array([[1, -1], [-1, 1]]), rtol=1e-12)
    # at equal affinities the conductance is the limit κ e^{A/RT}/RT, with no 0/0
    f = sp.lambdify([], reaction_conductance(sp.Float(5.0), sp.Float(5.0), 2.0, RT),
                    "numpy")
    assert f() == pytest.approx(2.0 * np.exp(5.0 / RT) / RT, rel=1e-14)


def test_matches_the_thermo_reaction_network():
    from porthamiltonian.thermo.reactions.network import ReactionNetwork
    from porthamiltonian.thermo.reactions.phs_form import symbolic_phs

    net = ReactionNetwork(["A", "B", "C"], ["A <=> B", "B <=> C", "C <=> A"], RT=RT,
                          mu0={"A": 0.0, "B": -1000.0, "C": 500.0},
                          kappa=[1.0, 0.5, 0.2])
    mine = to_phs(cycle())
    rng = np.random.default_rng(3)
    for _ in range(5):
        x = rng.uniform(0.05, 2.0, size=3)
        np.testing.assert_allclose(mine.rhs(x), net.rhs(x), rtol=1e-12, atol=1e-15)
    x0 = [1.0, 0.2, 0.1]
    ours = ph.simulate(mine, (0, 5), x0, method="midpoint", dt=0.1, engine="numpy")
    theirs = ph.simulate(symbolic_phs(net), (0, 5), x0, method="midpoint", dt=0.1, engine="numpy")
    np.testing.assert_allclose(ours.x, theirs.x, rtol=0, atol=1e-8)


def two_a_b(product_side: bool) -> BondGraph:
    """2A ⇌ B.  ``product_side``: written B ⇌ 2A, the TF of ratio 2 between the Re and
    A's 0-junction (bond in from the reaction: e_in = 2 e_out, so A_b = 2 μ_A, and
    f_out = 2 v into A).  Else written 2A ⇌ B with the TF between A's 0-junction and the
    Re (bond in from the species): e_in = m e_out needs m = 1/2 for A_f = 2 μ_A."""
    bg = BondGraph("2A=B", parameters={"RT": RT, "muA": 0.0, "muB": -2000.0, "k": 1.0})
    bg.add("A", "Ce", mu0="muA", RT="RT")
    bg.add("B", "Ce", mu0="muB", RT="RT")
    bg.add("jA", "0")
    bg.add("jB", "0")
    bg.add("r", "Re", kappa="k", RT="RT")
    if product_side:
        bg.add("tf", "TF", ratio=2)
        bonds = [("jB", "r"), ("r", "tf"), ("tf", "jA")]
    else:
        bg.add("tf", "TF", ratio=sp.Rational(1, 2))
        bonds = [("jA", "tf"), ("tf", "r"), ("r", "jB")]
    for a, b in [("jA", "A"), ("jB", "B"), *bonds]:
        bg.connect(a, b)
    return bg


@pytest.mark.parametrize("product_side", [True, False], ids=["B=2A,TF2", "2A=B,TF1/2"])
def test_two_a_to_b_through_a_transformer(product_side):
    sys = to_phs(two_a_b(product_side))
    x = np.array([0.6, 0.4])
    mu = np.array([0.0, -2000.0]) + RT * np.log(x)
    v = mass_action_flux(2 * mu[0], mu[1], 1.0, RT)  # 2A → B
    np.testing.assert_allclose(sys.rhs(x), [-2 * v, v], rtol=1e-12)
    res = ph.simulate(sys, (0, 30), [1.0, 0.2], method=DG, dt=0.1, engine="numpy")
    nA, nB = res.x[-1]
    K = np.exp(-(-2000.0 - 2 * 0.0) / RT)  # c° = 1 mol/m³, V = 1 m³
    assert abs(nB / nA**2 - K) < 1e-10 * K
    assert abs(nA + 2 * nB - 1.4) < 1e-13  # the moiety A + 2B


def test_closed_cycle_reaches_detailed_balance_and_keeps_the_total():
    sys = to_phs(cycle())
    res = ph.simulate(sys, (0, 60), [1.0, 0.2, 0.1], method=DG, dt=0.1, engine="numpy")
    n = res.x[-1]
    mu = np.array([0.0, -1000.0, 500.0]) + RT * np.log(n)
    assert np.ptp(mu) < 1e-10 * RT  # all potentials equal: every flux zero
    np.testing.assert_allclose(res.x.sum(axis=1), 1.3, rtol=0, atol=1e-13)
    np.testing.assert_allclose(n / n.sum(), np.exp(-np.array([0.0, -1000.0, 500.0]) / RT)
                               / np.exp(-np.array([0.0, -1000.0, 500.0]) / RT).sum(),
                               rtol=1e-10)


def test_gibbs_energy_decreases_by_exactly_the_dissipated_work():
    sys = to_phs(cycle())
    res = ph.simulate(sys, (0, 5), [1.0, 0.2, 0.1], method=DG, dt=0.02, engine="numpy")
    dH = np.diff(res.H)
    W = np.asarray(res.work_dissipated)[1:]  # per step; entry 0 belongs to t0
    assert np.all(W >= 0) and np.all(dH <= 0)
    scale = np.abs(W).max()
    np.testing.assert_allclose(dH, -W, rtol=0, atol=1e-12 * scale)
    # the dissipated work is Σ v_k (A_f,k − A_b,k), integrated (trapezoid, O(dt²))
    mu0 = np.array([0.0, -1000.0, 500.0])
    kappa = np.array([1.0, 0.5, 0.2])
    mu = mu0 + RT * np.log(res.x)
    Af, Ab = mu, np.roll(mu, -1, axis=1)  # A → B, B → C, C → A
    power = np.sum(mass_action_flux(Af, Ab, kappa, RT) * (Af - Ab), axis=1)
    trapezoid = np.sum((power[1:] + power[:-1]) / 2 * np.diff(res.t))
    assert W.sum() == pytest.approx(trapezoid, rel=1e-3)


def test_bondgraphtools_k_convention_equals_mu0():
    """μ = RT ln(K n) with K = exp(μ°/RT)/(V c°): the same model."""
    V = 2.0
    bg = BondGraph("K", parameters={"RT": RT})
    for s, mu0 in (("A", 100.0), ("B", -400.0)):
        bg.add(s, "Ce", K=np.exp(mu0 / RT) / V, RT="RT", V=V)
        bg.add(f"j{s}", "0")
        bg.connect(f"j{s}", s)
    bg.add("r", "Re", kappa=1.0, RT="RT")
    bg.connect("jA", "r")
    bg.connect("r", "jB")
    sys = to_phs(bg)
    x = np.array([0.3, 0.9])
    mu = np.array([100.0, -400.0]) + RT * np.log(x / V)
    np.testing.assert_allclose(np.asarray(sys.gradient(x), dtype=float).ravel(), mu,
                               rtol=1e-12)


def test_errors_name_the_element_and_the_fix():
    wrong = BondGraph("w", parameters={"RT": RT})
    wrong.add("A", "Ce", mu0=0, RT="RT")
    wrong.add("B", "Ce", mu0=0, RT="RT")
    wrong.add("r", "Re", kappa=1, RT="RT")
    wrong.connect("r", "A")
    wrong.connect("r", "B")  # both bonds out of the Re
    with pytest.raises(ModelError, match="'r' \\(Re\\) has 0 bond\\(s\\) in and 2 out"):
        to_phs(wrong)
    missing = BondGraph("m")
    missing.add("A", "Ce", RT=1)
    missing.add("B", "Ce", mu0=0, K=1, RT=1)
    missing.add("r", "Re", RT=1)
    missing.connect("A", "r")  # also wrong: into the Ce
    missing.connect("r", "B")
    with pytest.raises(ModelError) as err:
        to_phs(missing)
    text = str(err.value)
    assert "give exactly one of mu0" in text and "has no kappa" in text
    with pytest.raises(ModelError, match="kappa must be positive"):
        to_phs(a_b(kappa=-1.0))
    with pytest.raises(ModelError, match="unknown parameter\\(s\\) c"):
        BondGraph().add("A", "Ce", c=1)
    # a non-positive amount: the chemical potential and the energy are undefined
    with pytest.raises(ModelError, match="initial state has energy H = nan .*A = 0"):
        ph.simulate(to_phs(a_b()), (0, 1), [0.0, 0.5], method=DG, dt=0.1, engine="numpy")


def test_model_file_simulates_from_the_command_line(tmp_path):
    out = tmp_path / "cycle.csv"
    assert main(["simulate", str(MODEL), "--out", str(out)]) == 0
    rows = list(csv.DictReader(out.open()))
    last = rows[-1]
    n = np.array([float(last[f"x:{s}"]) for s in "ABC"])
    assert n.sum() == pytest.approx(1.3, abs=1e-12)
    mu = np.array([0.0, -1000.0, 500.0]) + RT * np.log(n)
    assert np.ptp(mu) < 1e-3 * RT  # 20 s: at equilibrium to this tolerance
    H = np.array([float(r["H"]) for r in rows])
    assert np.all(np.diff(H) <= 1e-9)


def test_library_components_give_the_bond_graph_model():
    """Species, Stoichiometry and Reaction joined in a network: 2A ⇌ B and the cycle
    have the bond graph's dynamics and energy."""
    from porthamiltonian import network
    from porthamiltonian.library import chemical as Ch

    net = network.Network("2A=B")
    net.add("A", Ch.Species(mu0=0.0, RT=RT))
    net.add("B", Ch.Species(K=np.exp(-2000.0 / RT), RT=RT))  # BondGraphTools' K
    net.add("s", Ch.Stoichiometry(nu=2))
    net.add("r", Ch.Reaction(kappa=1.0, RT=RT))
    net.connect("A.p", "s.a")
    net.connect("s.b", "r.f")
    net.connect("r.b", "B.p")
    sys = net.system()
    ref = to_phs(two_a_b(product_side=False))
    rng = np.random.default_rng(5)
    for _ in range(4):
        x = rng.uniform(0.05, 2.0, size=2)
        np.testing.assert_allclose(sys.rhs(x), ref.rhs(x), rtol=1e-12)
        assert sys.energy(x) == pytest.approx(ref.energy(x), rel=1e-12)

    net = network.Network("cycle")
    for s, mu0 in zip("ABC", (0.0, -1000.0, 500.0), strict=True):
        net.add(s, Ch.Species(mu0=mu0, RT=RT))
    for k, kappa in zip((1, 2, 3), (1.0, 0.5, 0.2), strict=True):
        net.add(f"r{k}", Ch.Reaction(kappa=kappa, RT=RT))  # A → B, B → C, C → A
    for ports in (["A.p", "r1.f", "r3.b"], ["B.p", "r1.b", "r2.f"], ["C.p", "r2.b", "r3.f"]):
        net.junction("0", *ports)
    sys = net.system()
    ref = to_phs(cycle())
    x = np.array([0.3, 1.1, 0.7])
    np.testing.assert_allclose(sys.rhs(x), ref.rhs(x), rtol=1e-12)
    with pytest.raises(ModelError, match="exactly one of mu0"):
        Ch.Species(RT=RT)
    with pytest.raises(ModelError, match="kappa must be positive"):
        Ch.Reaction(kappa=0.0, RT=RT)


def test_model_file_errors_are_listed_at_load_time(tmp_path):
    from porthamiltonian.io import load_model

    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "name: bad\nparameters: {RT: 2478.957}\nbondgraph:\n  elements:\n"
        "    - {name: A, type: Ce, RT: RT}\n"
        "    - {name: B, type: Ce, mu0: 0, K: 1, RT: RT}\n"
        "    - {name: r, type: Re, RT: RT}\n"
        "  bonds: [[r, A], [r, B]]\n")
    with pytest.raises(ModelError) as err:
        load_model(bad)
    problems = err.value.problems
    assert len(problems) == 3
    assert "bad.yaml:5" in problems[0] and "neither 'mu0' nor 'K'" in problems[0]
    assert "bad.yaml:6" in problems[1] and "both 'mu0' and 'K'" in problems[1]
    assert "bad.yaml:7" in problems[2] and "missing key 'kappa'" in problems[2]


def test_affinities_must_be_functions_of_the_species():
    """A chemostat (an Se) wired to an Re without its held potential, two Re with no
    species between them."""
    fixed = BondGraph("se", parameters={"RT": RT})
    fixed.add("X", "Se")
    fixed.add("B", "Ce", mu0=0, RT="RT")
    fixed.add("jB", "0")
    fixed.add("r", "Re", kappa=1, RT="RT")
    for a, b in [("X", "r"), ("r", "jB"), ("jB", "B")]:
        fixed.connect(a, b)
    with pytest.raises(ModelError, match="'r' \\(Re\\).*depends on the chemostat 'X' "
                       "\\(an Se\\): declare the potential it holds as the parameter 'mu_X'"):
        to_phs(fixed)
    series = BondGraph("series", parameters={"RT": RT})
    series.add("A", "Ce", mu0=0, RT="RT")
    series.add("B", "Ce", mu0=0, RT="RT")
    series.add("jA", "0")
    series.add("jB", "0")
    series.add("r1", "Re", kappa=1, RT="RT")
    series.add("r2", "Re", kappa=1, RT="RT")
    for a, b in [("jA", "A"), ("jB", "B"), ("jA", "r1"), ("r1", "r2"), ("r2", "jB")]:
        series.connect(a, b)
    with pytest.raises(ModelError, match="depends on a reaction flux; put a species"):
        to_phs(series)


def test_a_reaction_network_as_a_sub_graph():
    outer = BondGraph("cell", parameters={"RT": RT})
    inner = a_b()
    inner.expose("a", "jA")
    outer.include("m", inner)
    outer.add("C", "Ce", mu0=200.0, RT="RT")
    outer.add("jC", "0")
    outer.add("r", "Re", kappa=2.0, RT="RT")
    for a, b in [("jC", "C"), ("jC", "r"), ("r", "m.a")]:
        outer.connect(a, b)
    sys = to_phs(outer)
    assert sys.states == ("m.A", "m.B", "C")
    x = np.array([0.5, 0.7, 0.9])
    mu = np.array([0.0, -1500.0, 200.0]) + RT * np.log(x)
    v_ab = mass_action_flux(mu[0], mu[1], 1.0, RT)
    v_ca = mass_action_flux(mu[2], mu[0], 2.0, RT)
    np.testing.assert_allclose(sys.rhs(x), [v_ca - v_ab, v_ab, -v_ca], rtol=1e-12)
