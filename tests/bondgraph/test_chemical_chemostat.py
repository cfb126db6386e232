"""A chemostat (an Se holding a potential) feeding an Re directly in a chemical bond graph.

Facts checked against closed forms for X (chemostat at μ_X) ⇌ B with V = c° = 1, where
ṅ_B = κe^{μ_X/RT} − κe^{μ°_B/RT} n_B is linear: the flux is mass action at any n_B;
the run reaches n_B = exp((μ_X − μ°_B)/RT); driven by a piecewise-constant μ_X(t)
(the same signal as input and as modulation of ``mu_X``) it follows the piecewise
exponential solution, every step closes ΔH = supplied − dissipated work, and the work
through the port on each piece is μ_X times the amount that entered.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import porthamiltonian as ph
from porthamiltonian.bondgraph import BondGraph, to_phs
from porthamiltonian.simulate.problem.modulation import PiecewiseConstant

RT = 2478.957  # J/mol
MU_B, KAPPA = -1000.0, 2.0


def chemostat_graph(mu_x: float) -> BondGraph:
    """Se X (chemostat) – 0 – Re – 0 – Ce B, with the held potential ``mu_X``."""
    bg = BondGraph("XB", parameters={"RT": RT, "muB": MU_B, "k": KAPPA, "mu_X": mu_x})
    bg.add("X", "Se")
    bg.add("jX", "0")
    bg.add("B", "Ce", mu0="muB", RT="RT")
    bg.add("jB", "0")
    bg.add("r", "Re", kappa="k", RT="RT")
    for a, b in [("X", "jX"), ("jX", "r"), ("r", "jB"), ("jB", "B")]:
        bg.connect(a, b)
    return bg


def closed_form(t: float, n0: float, mu_x: float) -> float:
    """n_B(t) from n0 at a constant μ_X: a/b + (n0 − a/b) e^{−bt}."""
    a, b = KAPPA * math.exp(mu_x / RT), KAPPA * math.exp(MU_B / RT)
    return a / b + (n0 - a / b) * math.exp(-b * t)


def test_a_chemostat_feeds_a_reaction_and_sets_the_equilibrium():
    mu_x = 500.0
    sys = to_phs(chemostat_graph(mu_x))
    assert sys.inputs == ("X",) and sys.outputs == ("X.v",)
    for n in (0.05, 0.7, 3.0):
        v = KAPPA * (math.exp(mu_x / RT) - n * math.exp(MU_B / RT))
        assert sys.rhs(np.array([n]), np.array([mu_x]))[0] == pytest.approx(v, rel=1e-12)
        # the port's output is the molar flow from the reservoir into the network
        assert sys.output(np.array([n]), np.array([mu_x]))[0] == pytest.approx(v, rel=1e-12)
    # fixed steps: the equilibrium is a fixed point of the discrete-gradient map
    res = ph.simulate(sys, (0.0, 30.0), [0.1], u=[mu_x], method="discrete_gradient", dt=0.1)
    assert res.x[-1, 0] == pytest.approx(math.exp((mu_x - MU_B) / RT), rel=1e-10)


def test_a_driven_chemostat_follows_the_closed_form_and_closes_the_balance():
    sig = PiecewiseConstant([0.0, 4.0], [500.0, -800.0])
    sys = to_phs(chemostat_graph(500.0))
    res = ph.simulate(sys, (0.0, 8.0), [0.3], u=lambda t: [sig(t)],
                      modulation={"mu_X": sig}, method="discrete_gradient", dt=0.01)
    k4 = int(np.argmin(np.abs(res.t - 4.0)))
    assert res.t[k4] == pytest.approx(4.0, abs=1e-12)
    n4 = closed_form(4.0, 0.3, 500.0)
    n8 = closed_form(4.0, n4, -800.0)
    # second-order method, h = 0.01: the closed form to 1e-6 (measured 1.3e-7)
    assert res.x[k4, 0] == pytest.approx(n4, rel=1e-6)
    assert res.x[-1, 0] == pytest.approx(n8, rel=1e-6)
    # without the modulation the conductance stays at 500 J/mol and the flux is wrong
    held = ph.simulate(sys, (0.0, 8.0), [0.3], u=lambda t: [sig(t)],
                       method="discrete_gradient", dt=0.01)
    assert abs(held.x[-1, 0] - n8) > 1e-3 * n8
    # the exact discrete balance, step by step (entry k: the step ending at t_k)
    dH = np.diff(res.H)
    sup, dis = res.work_supplied[1:], res.work_dissipated[1:]
    scale = np.max(np.abs(sup)) + np.max(np.abs(dis))
    assert np.max(np.abs(dH - (sup - dis))) < 1e-12 * scale
    # u·y: on each piece the work through the port is μ_X × the amount that entered
    w1, w2 = np.sum(sup[:k4]), np.sum(sup[k4:])
    assert w1 == pytest.approx(500.0 * (res.x[k4, 0] - 0.3), rel=1e-10)
    assert w2 == pytest.approx(-800.0 * (res.x[-1, 0] - res.x[k4, 0]), rel=1e-10)


CHEMOSTAT_FILE = """
name: chemostat
parameters: {RT: 2478.957, muB: -1000.0, k: 2.0, mu_X: 500.0}
bondgraph:
  elements:
    - {name: X, type: Se}
    - {name: jX, type: "0"}
    - {name: B, type: Ce, mu0: muB, RT: RT}
    - {name: jB, type: "0"}
    - {name: r, type: Re, kappa: k, RT: RT}
  bonds: [[X, jX], [jX, r], [r, jB], [jB, B]]
simulate:
  t_end: 30.0
  dt: 0.1
  method: discrete_gradient
  initial: {B: 0.1}
"""


def test_a_model_file_chemostat_runs_at_its_held_potential_unless_told_otherwise(tmp_path):
    from porthamiltonian.io import load_model, simulate_model

    path = tmp_path / "chemostat.yaml"
    path.write_text(CHEMOSTAT_FILE)
    model = load_model(path)
    # no input given: the chemostat holds mu_X, and the run reaches its equilibrium
    res = simulate_model(model)
    assert res.x[-1, 0] == pytest.approx(math.exp((500.0 - MU_B) / RT), rel=1e-10)
    # an input given in the file wins over the held potential
    path.write_text(CHEMOSTAT_FILE.replace("initial:", "inputs: {X: 500.0}\n  initial:"))
    res = simulate_model(load_model(path))
    assert res.x[-1, 0] == pytest.approx(math.exp((500.0 - MU_B) / RT), rel=1e-10)
