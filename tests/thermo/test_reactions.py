"""Chemical reaction networks as port-Hamiltonian systems (docs/thermo-chemistry.md)."""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
from scipy.integrate import solve_ivp

import porthamiltonian as ph
from porthamiltonian.errors import ModelError
from porthamiltonian.thermo.reactions import laws
from porthamiltonian.thermo.reactions.network import ReactionNetwork
from porthamiltonian.thermo.reactions.parse import parse_reaction

RT = 2.5e3  # J/mol


# ----------------------------------------------------------------------------- laws
def test_gibbs_gradient_is_the_chemical_potential_on_both_bases() -> None:
    n, mu0, V = np.array([0.3, 2.0, 0.7]), np.array([1e3, -2e3, 0.0]), 0.5
    eps = 1e-7
    for H, mu in ((lambda n: laws.gibbs_energy(n, mu0, RT, V, 1000.0),
                   laws.chemical_potential(n, mu0, RT, V, 1000.0)),
                  (lambda n: laws.gibbs_energy_x(n, mu0, RT),
                   laws.chemical_potential_x(n, mu0, RT))):
        fd = [(H(n + eps * e) - H(n - eps * e)) / (2 * eps) for e in np.eye(3)]
        assert np.allclose(fd, mu, rtol=1e-7, atol=1e-4)


def test_rate_constant_form_equals_the_affinity_form_and_converts_back() -> None:
    # 2 A + B <=> C at c° = 1000 mol/m³
    nu_f, nu_b = np.array([[2.0], [1.0], [0.0]]), np.array([[0.0], [0.0], [1.0]])
    mu0, kappa, V, c0 = np.array([-1e3, 2e3, 500.0]), np.array([0.7]), 2e-3, 1000.0
    n = np.array([1e-3, 4e-3, 2e-4])
    mu = laws.chemical_potential(n, mu0, RT, V, c0)
    v = laws.mass_action_flux(*laws.affinities(nu_f, nu_b, mu), kappa, RT)
    kp, km = laws.rate_constants(kappa, nu_f, nu_b, mu0, RT, c0)
    c = n / V
    assert v[0] == pytest.approx(kp[0] * c[0] ** 2 * c[1] - km[0] * c[2], rel=1e-12)
    assert laws.kappa_from_rate_constant(kp, nu_f, mu0, RT, c0)[0] == pytest.approx(0.7)
    K = laws.equilibrium_constant(nu_f, nu_b, mu0, RT)[0]
    assert kp[0] / km[0] == pytest.approx(K * c0 ** (1 - 3), rel=1e-12)


def test_dissipation_coefficient_times_affinity_is_the_flux_near_equilibrium() -> None:
    Af = np.array([1e3, 1e3, 1e3, 1e3])
    Ab = Af + np.array([0.0, 1e-9, 1e-3, 2e3])
    g = laws.dissipation_coefficient(Af, Ab, 2.0, RT)
    assert np.all(g > 0)
    assert g[0] == pytest.approx(2.0 * np.exp(Af[0] / RT) / RT, rel=1e-15)
    mpmath.mp.dps = 40  # the flux in 40 digits (the float difference cancels)
    for k in (1, 2, 3):
        a, b = mpmath.mpf(Af[k]) / RT, mpmath.mpf(Ab[k]) / RT
        v = float(2 * (mpmath.exp(a) - mpmath.exp(b)))
        assert g[k] * (Af[k] - Ab[k]) == pytest.approx(v, rel=1e-12)


# ----------------------------------------------------------------------------- parsing
def test_parse_reactions() -> None:
    r = parse_reaction("2 H2 + O2 -> 2 H2O")
    assert (r.reactants, r.products, r.reversible) == ({"H2": 2, "O2": 1}, {"H2O": 2}, False)
    r = parse_reaction("0.5 A + A ⇌ E + E")
    assert r.reversible and r.reactants == {"A": 1.5} and r.products == {"E": 2}


@pytest.mark.parametrize("text, position, words", [
    ("A -> 0", 6, "chemostats"),
    ("A + B", 6, "no arrow"),
    ("A B -> C", 3, "expected '+'"),
    ("A -> B <=> C", 8, "second arrow"),
    ("2A$ -> B", 3, "unexpected character '$'"),
    ("0 A -> B", 1, "not positive"),
    ("A + -> B", 5, "'+' without"),
])
def test_parse_errors_name_reaction_and_position(text: str, position: int, words: str) -> None:
    with pytest.raises(ModelError) as err:
        parse_reaction(text, "r7")
    msg = str(err.value)
    assert f"reaction r7 {text!r}, position {position}:" in msg and words in msg


# ----------------------------------------------------------------------------- structure
def test_moieties_of_the_enzyme_mechanism() -> None:
    net = ReactionNetwork(["E", "S", "C", "P"], ["E + S <=> C", "C -> E + P"])
    assert net.conservation_laws.tolist() == [[1, 0, 1, 0], [0, 1, 1, 1]]
    assert np.all(net.conservation_laws @ net.N == 0)
    assert net.cycles.shape == (0, 2)


def test_wegscheider_violation_is_refused_naming_the_cycle() -> None:
    with pytest.raises(ModelError) as err:
        ReactionNetwork(None, {"a": "A <=> B", "b": "B <=> C", "c": "C <=> A", "d": "C <=> D"},
                        k_forward=[1.0, 2.0, 3.0, 1.0], k_backward=[2.0, 1.0, 1.0, 1.0])
    msg = str(err.value)
    assert "Wegscheider" in msg and "a (A <=> B)" in msg and "c (C <=> A)" in msg
    assert "(C <=> D)" not in msg and "= 3," in msg


def test_consistent_rates_give_their_equilibrium_constants() -> None:
    net = ReactionNetwork(None, ["A <=> B", "B <=> C", "C <=> A"],
                          k_forward=[1.0, 2.0, 3.0], k_backward=[2.0, 1.0, 3.0], RT=RT)
    assert np.allclose(net.equilibrium_constants(), [0.5, 2.0, 1.0], rtol=1e-12)
    n = net.equilibrium([1.0, 1.0, 1.0])
    assert np.max(np.abs(net.flux(n))) < 1e-15


# ----------------------------------------------------------------------------- equilibria
def _final(net: ReactionNetwork, n0: list[float], t1: float) -> tuple[np.ndarray, object]:
    res = ph.simulate(net.to_phs(), (0.0, t1), n0, rtol=1e-8, atol=1e-12)
    return res.x[-1], res


def test_isomerization_reaches_the_equilibrium_constant() -> None:
    dG = -3e3  # J/mol: μ°_B − μ°_A
    net = ReactionNetwork(["A", "B"], ["A <=> B"], RT=RT, mu0={"A": 0.0, "B": dG},
                          kappa=1.0)
    K = np.exp(-dG / RT)
    n_eq = net.equilibrium([1.0, 0.0])
    assert n_eq[1] / n_eq[0] == pytest.approx(K, rel=1e-12)
    assert n_eq.sum() == pytest.approx(1.0, rel=1e-14)
    x, _ = _final(net, [1.0, 1e-6], 60.0)
    assert x[1] / x[0] == pytest.approx(K, rel=1e-10)


def test_three_species_cycle_reaches_all_equilibrium_constants() -> None:
    mu0 = {"A": 0.0, "B": -2e3, "C": 1.5e3}
    net = ReactionNetwork(None, ["A <=> B", "B <=> C", "C <=> A"], RT=RT, mu0=mu0,
                          kappa=[1.0, 0.5, 2.0])
    x, res = _final(net, [1.0, 0.2, 0.1], 60.0)
    K_AB, K_BC = np.exp(2e3 / RT), np.exp(-3.5e3 / RT)
    assert x[1] / x[0] == pytest.approx(K_AB, rel=1e-10)
    assert x[2] / x[1] == pytest.approx(K_BC, rel=1e-10)
    assert np.allclose(x, net.equilibrium([1.0, 0.2, 0.1]), rtol=1e-10)
    # energy: H never increases and its fall is the dissipated work, to round-off
    H = np.asarray(res.H)
    assert np.all(np.diff(H) <= 1e-12 * abs(H[0]))
    assert H[0] - H[-1] == pytest.approx(np.sum(res.work_dissipated), rel=1e-12)
    assert np.max(np.abs(res.power_residual)) < 1e-12 * (H[0] - H[-1])


def test_chemostat_holds_the_potential_and_the_port_closes_the_balance() -> None:
    mu_c = 1e3  # J/mol, the chemostatted B
    net = ReactionNetwork(["A", "B"], ["A <=> B"], RT=RT, mu0={"A": -1e3, "B": 0.0},
                          chemostats=["B"], chemostat_mu={"B": mu_c})
    sys = net.to_phs()
    assert list(sys.inputs) == ["mu_B"] and list(sys.outputs) == ["inflow_B"]
    res = ph.simulate(sys, (0.0, 40.0), [0.1], u=[mu_c], rtol=1e-8, atol=1e-12)
    assert res.x[-1][0] == pytest.approx(np.exp((mu_c + 1e3) / RT), rel=1e-10)
    dH = res.H[-1] - res.H[0]
    assert dH == pytest.approx(np.sum(res.work_supplied) - np.sum(res.work_dissipated),
                               rel=1e-12)
    # all of A came from the reservoir: the inflow integrates to the amount gained
    assert np.all(np.asarray(res.y)[:, 0] >= 0)


def test_moieties_are_casimirs_of_the_simulated_network() -> None:
    net = ReactionNetwork(["E", "S", "C", "P"], ["E + S <=> C", "C <=> E + P"], RT=RT,
                          mu0={"E": 0.0, "S": 0.0, "C": -1e3, "P": -4e3}, kappa=[2.0, 1.0])
    n0 = [0.1, 1.0, 0.01, 0.01]
    res = ph.simulate(net.to_phs(), (0.0, 2.0), n0, rtol=1e-6, atol=1e-10)
    L = net.conservation_laws
    drift = np.asarray(res.x) @ L.T - L @ np.asarray(n0)
    assert np.max(np.abs(drift)) < 1e-14


# ----------------------------------------------------------------------------- kinetics
def _mm_rate_error(e0: float, s0: float = 1.0) -> float:
    """Relative error of the mass-action product rate against the QSSA rate
    V_max S/(K_M + S) when half of the substrate is left."""
    k1, km1, k2 = 10.0, 1.0, 1.0
    net = ReactionNetwork(["E", "S", "C", "P"], {"bind": "E + S <=> C", "cat": "C -> E + P"},
                          k_forward={"bind": k1, "cat": k2}, k_backward={"bind": km1})
    vmax, KM = k2 * e0, (km1 + k2) / k1
    half = lambda t, n: n[1] + n[2] - 0.5 * s0  # noqa: E731
    half.terminal = True
    sol = solve_ivp(lambda t, n: net.rhs(n), (0.0, 1e9), [e0, s0, 0.0, 0.0], method="Radau",
                    jac=lambda t, n: net.jacobian(n).toarray(), rtol=1e-9, atol=1e-16, events=half)
    n = sol.y[:, -1]
    rate = net.rhs(n)[3]
    return abs(rate - vmax * n[1] / (KM + n[1])) / rate


def test_michaelis_menten_is_the_limit_of_mass_action() -> None:
    errors = [_mm_rate_error(e0) for e0 in (1e-1, 1e-2, 1e-3)]
    assert errors[0] < 0.1
    assert errors[1] < errors[0] / 5 and errors[2] < errors[1] / 5


def test_irreversible_reactions_have_no_phs_form() -> None:
    net = ReactionNetwork(None, ["E + S <=> C", "C -> E + P"])
    with pytest.raises(ModelError, match=r"r2 \('C -> E \+ P'\) are irreversible"):
        net.to_phs()


# ----------------------------------------------------------------------------- model files
CYCLE = """\
name: cycle
reactions:
  RT: 2.5 kJ/mol
  species:
    A: {mu0: 0}
    B: {mu0: -2 kJ/mol}
  reactions:
    r1: {equation: "A <=> B", kappa: 1.0}
simulate:
  t_end: 60
  initial: {A: 1.0, B: 0.1}
"""


def test_model_file_section_builds_and_simulates(tmp_path) -> None:
    from porthamiltonian.io.build import build_system
    from porthamiltonian.io.model import load_model
    from porthamiltonian.io.simulation import simulate_model

    model = load_model(CYCLE)
    system = build_system(model)
    assert list(system.states) == ["A", "B"]
    res = simulate_model(model, system)
    assert res.x[-1][1] / res.x[-1][0] == pytest.approx(np.exp(2e3 / RT), rel=1e-8)


@pytest.mark.parametrize("edit, line, words", [
    ('r1: {equation: "A <=> B", kappa: 1.0}', 'r1: {equation: "A <=> B +", kappa: 1.0}',
     (8, "'+' without a term")),
    ("B: {mu0: -2 kJ/mol}", "B: {mu0: -2 kJ/mol, n: 1}", (6, "unknown key 'n'")),
    ('r1: {equation: "A <=> B", kappa: 1.0}', 'r1: {equation: "A <=> Q", kappa: 1.0}',
     (2, "Q, not among the species")),
])
def test_model_file_errors_name_the_line(edit: str, line: str,
                                         words: tuple[int, str]) -> None:
    from porthamiltonian.io.model import load_model

    with pytest.raises(ModelError) as err:
        load_model(CYCLE.replace(edit, line))
    where, what = words
    assert any(p.startswith(f"<string>:{where}: ") and what in p for p in err.value.problems), \
        err.value.problems


def test_model_file_refuses_an_inconsistent_cycle() -> None:
    from porthamiltonian.io.model import load_model

    text = """\
name: bad
reactions:
  species: [A, B, C]
  reactions:
    a: {equation: "A <=> B", k_forward: 1, k_backward: 2}
    b: {equation: "B <=> C", k_forward: 1, k_backward: 1}
    c: {equation: "C <=> A", k_forward: 1, k_backward: 1}
"""
    with pytest.raises(ModelError, match=r"<string>:2: .*Wegscheider.*a \(A <=> B\)"):
        load_model(text)
