"""Stiff solvers on a reaction network's PHS: SciPy's BDF through ``simulate`` (numeric
form) and SUNDIALS IDA (the symbolic form written as a descriptor system with E = I).

Fact checked: the cycle A ⇌ B ⇌ C ⇌ A with κ over three decades reaches the
detailed-balance equilibrium of :meth:`ReactionNetwork.equilibrium` (Newton on the dual,
independent of any integrator) on both paths, and IDA refuses the explicit PHS itself.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

import porthamiltonian as ph
from porthamiltonian.descriptor import DescriptorPHS
from porthamiltonian.errors import ModelError
from porthamiltonian.thermo.reactions.network import ReactionNetwork

N0 = [1.0, 0.2, 0.1]  # mol


def stiff_cycle() -> ReactionNetwork:
    return ReactionNetwork(None, ["A <=> B", "B <=> C", "C <=> A"], RT=2.5e3,
                           mu0={"A": 0.0, "B": -2e3, "C": 1.5e3}, kappa=[100.0, 1.0, 0.1])


def test_bdf_on_the_numeric_form_reaches_the_equilibrium() -> None:
    net = stiff_cycle()
    res = ph.simulate(net.to_phs("numeric"), (0.0, 200.0), N0, method="BDF",
                      rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(res.x[-1], net.equilibrium(N0), rtol=1e-8)


def test_ida_on_the_descriptor_form_reaches_the_equilibrium() -> None:
    net = stiff_cycle()
    sys = net.to_phs("symbolic")
    with pytest.raises(ModelError, match="'ida' cannot simulate an explicit PHS"):
        ph.simulate(sys, (0.0, 1.0), N0, method="ida")
    dae = DescriptorPHS(E=sp.eye(3), **sys.matrices(), hamiltonian=sys.hamiltonian,
                        states=list(sys.states))
    res = ph.simulate(dae, (0.0, 200.0), N0, method="ida", rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(res.x[-1], net.equilibrium(N0), rtol=1e-8)
