"""Ports of a reaction network: chemostats as (time-varying) inputs, and irreversible
reactions, which have no port-Hamiltonian form (docs/thermo-chemistry.md).

Facts checked: A (chemostat at μ_A) ⇌ B reaches n_B = V c° exp((μ_A − μ°_B)/RT), in the
symbolic and the numeric form and from a model file whose run does not give the input;
driven by a piecewise-constant μ_A(t) (input ``mu_A`` and modulation of
``chemostat_A``) B follows the piecewise exponential closed form and every step closes
ΔH = u·y h − dissipated work; ``simulate`` of a network with ``->`` says why and what to
do, and the reversible rewrite with a small backward rate it proposes reproduces the
irreversible closed form n_A = n_A0 e^{−k t}.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import porthamiltonian as ph
from porthamiltonian.errors import ModelError
from porthamiltonian.simulate.problem.modulation import PiecewiseConstant
from porthamiltonian.thermo.reactions.network import ReactionNetwork

RT = 2.5e3  # J/mol
MU_B, KAPPA = -1e3, 2.0


def chemostatted(mu_a: float) -> ReactionNetwork:
    return ReactionNetwork(["A", "B"], ["A <=> B"], RT=RT, mu0={"A": 0.0, "B": MU_B},
                           kappa=KAPPA, chemostats=["A"], chemostat_mu={"A": mu_a})


def closed_form(t: float, n0: float, mu_a: float) -> float:
    """ṅ_B = κe^{μ_A/RT} − κe^{μ°_B/RT} n_B (V = c° = 1) from n0 at constant μ_A."""
    a, b = KAPPA * math.exp(mu_a / RT), KAPPA * math.exp(MU_B / RT)
    return a / b + (n0 - a / b) * math.exp(-b * t)


@pytest.mark.parametrize("form", ["symbolic", "numeric"])
def test_a_chemostat_sets_its_partners_equilibrium(form: str) -> None:
    sys = chemostatted(500.0).to_phs(form)
    # fixed steps: the equilibrium is a fixed point of the discrete-gradient map, reached
    # at the rate (1 − bh/2)/(1 + bh/2) per step (b = κe^{μ°_B/RT} = 1.34/s)
    res = ph.simulate(sys, (0.0, 30.0), [0.1], u=[500.0], method="discrete_gradient",
                      dt=0.1)
    assert res.x[-1][0] == pytest.approx(math.exp((500.0 - MU_B) / RT), rel=1e-10)


def test_a_model_files_chemostat_input_defaults_to_its_potential(tmp_path) -> None:
    from porthamiltonian.io.model import load_model
    from porthamiltonian.io.simulation import simulate_model

    text = """\
name: chemostat
reactions:
  RT: 2.5 kJ/mol
  species: {A: {mu0: 0}, B: {mu0: -1 kJ/mol}}
  reactions: {r1: {equation: "A <=> B", kappa: 2.0}}
  chemostats: {A: 500}
simulate:
  t_end: 30
  method: discrete_gradient
  initial: {B: 0.1}
"""
    res = simulate_model(load_model(text))
    assert np.asarray(res.u)[-1, 0] == 500.0
    assert res.x[-1][0] == pytest.approx(math.exp((500.0 - MU_B) / RT), rel=1e-8)


def test_a_driven_chemostat_follows_the_closed_form_and_closes_the_balance() -> None:
    sig = PiecewiseConstant([0.0, 4.0], [500.0, -800.0])
    sys = chemostatted(500.0).to_phs("symbolic")
    assert sys.parameters == {"chemostat_A": 500.0}
    res = ph.simulate(sys, (0.0, 8.0), [0.3], u=lambda t: [sig(t)],
                      modulation={"chemostat_A": sig}, method="discrete_gradient", dt=0.01)
    k4 = int(np.argmin(np.abs(res.t - 4.0)))
    n4 = closed_form(4.0, 0.3, 500.0)
    assert res.x[k4][0] == pytest.approx(n4, rel=1e-6)  # h = 0.01, order 2: 1.3e-7
    assert res.x[-1][0] == pytest.approx(closed_form(4.0, n4, -800.0), rel=1e-6)
    dH = np.diff(res.H)
    sup, dis = res.work_supplied[1:], res.work_dissipated[1:]
    assert np.max(np.abs(dH - (sup - dis))) < 1e-12 * (np.max(np.abs(sup)) + np.max(dis))
    # u·y h: the work through the port is μ_A × the amount that entered, piece by piece
    assert np.sum(sup[:k4]) == pytest.approx(500.0 * (res.x[k4][0] - 0.3), rel=1e-10)
    assert np.sum(sup[k4:]) == pytest.approx(-800.0 * (res.x[-1][0] - res.x[k4][0]),
                                             rel=1e-10)


def test_irreversible_networks_are_refused_with_the_fix() -> None:
    net = ReactionNetwork(None, ["E + S <=> C", "C -> E + P"])
    for call in (net.to_phs, lambda: ph.simulate(net, (0.0, 1.0), [1.0, 1.0, 0.1, 0.1])):
        with pytest.raises(ModelError, match=r"r2 \('C -> E \+ P'\) are irreversible") as err:
            call()
        text = str(err.value)
        assert "infinite affinity" in text and "k_backward" in text
        assert "method='BDF'" in text and "net.rhs" in text
    # a reversible network passed as such is told to pass its PHS form
    with pytest.raises(ModelError, match=r"simulate\(net.to_phs\(\), \.\.\.\)"):
        ph.simulate(chemostatted(0.0), (0.0, 1.0), [0.1])


def test_the_reversible_rewrite_reproduces_the_irreversible_closed_form() -> None:
    """A → B (k = 1/s) against A ⇌ B with k⁻ = 1e-9/s: n_A = n_A0 e^{−kt} to 2e-7 (the
    backward flux adds about k⁻(n_A0 + n_B0)t = 3e-9 mol, 6e-8 of n_A(3 s))."""
    net = ReactionNetwork(None, ["A <=> B"], RT=RT, k_forward=[1.0], k_backward=[1e-9])
    res = ph.simulate(net.to_phs(), (0.0, 3.0), [1.0, 1e-3], method="discrete_gradient",
                      rtol=1e-10, atol=1e-14)
    assert res.x[-1][0] == pytest.approx(math.exp(-3.0), rel=2e-7)
