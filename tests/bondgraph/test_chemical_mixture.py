"""The ideal mixture (mole-fraction basis) as one multiport storage,
:class:`porthamiltonian.library.chemical.Mixture`, joined to reactions like a Ce.

Facts checked against :mod:`porthamiltonian.thermo.reactions.laws`: the efforts are
μ_i = μ°_i + RT ln x_i and the energy Σ n_i μ_i; A ⇌ 2B in the mixture has the
right-hand side of ``ReactionNetwork(..., basis="mole_fraction")`` and reaches
x_B²/x_A = K = exp(−(2μ°_B − μ°_A)/RT), with A + B/2 kept.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import porthamiltonian as ph
from porthamiltonian import ModelError, network
from porthamiltonian.library import chemical as Ch
from porthamiltonian.thermo.reactions import laws
from porthamiltonian.thermo.reactions.network import ReactionNetwork

RT = 2500.0  # J/mol
MU0 = [0.0, -1500.0]  # J/mol, A and B


def a_to_2b() -> network.Network:
    net = network.Network("mixture")
    net.add("m", Ch.Mixture(species=["A", "B"], mu0=MU0, RT=RT))
    net.add("s", Ch.Stoichiometry(nu=2))
    net.add("r", Ch.Reaction(kappa=1.0, RT=RT))
    net.connect("m.p_A", "r.f")
    net.connect("r.b", "s.b")
    net.connect("s.a", "m.p_B")
    return net


def test_the_mixture_has_the_laws_potentials_and_the_networks_dynamics():
    sys = a_to_2b().system()
    assert sys.states == ("m.n_A", "m.n_B")
    num = sys.compile()
    ref = ReactionNetwork(["A", "B"], ["A <=> 2 B"], RT=RT, mu0=dict(zip("AB", MU0, strict=True)),
                          basis="mole_fraction")
    rng = np.random.default_rng(11)
    for x in rng.uniform(0.05, 2.0, size=(4, 2)):
        np.testing.assert_allclose(num.gradient(x), laws.chemical_potential_x(x, MU0, RT),
                                   rtol=1e-12)
        assert num.energy(x) == pytest.approx(laws.gibbs_energy_x(x, MU0, RT), rel=1e-12)
        np.testing.assert_allclose(sys.rhs(x), ref.rhs(x), rtol=1e-12)


def test_the_mixture_reaches_the_mole_fraction_equilibrium():
    sys = a_to_2b().system()
    res = ph.simulate(sys, (0.0, 40.0), [1.0, 0.2], method="discrete_gradient", dt=0.2,
                      engine="numpy")
    nA, nB = res.x[-1]
    xA, xB = nA / (nA + nB), nB / (nA + nB)
    assert xB**2 / xA == pytest.approx(math.exp(-(2 * MU0[1] - MU0[0]) / RT), rel=1e-10)
    assert nA + nB / 2 == pytest.approx(1.1, abs=1e-13)


def test_mixture_errors():
    with pytest.raises(ModelError, match="two or more distinct"):
        Ch.Mixture(species=["A"], mu0=[0.0], RT=RT)
    with pytest.raises(ModelError, match="1 values of mu0 for 2 species"):
        Ch.Mixture(species=["A", "B"], mu0=[0.0], RT=RT)
    with pytest.raises(ModelError, match="mu0 of C, not among"):
        Ch.Mixture(species=["A", "B"], mu0={"C": 1.0}, RT=RT)
