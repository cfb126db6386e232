"""Physical variables of results: co-energies after an elimination are the physical
efforts (not ∂H_r/∂ξ of the reduced state), renaming carries units, a modulated run has
its co-energies, and unknown names are refused with the list of variables."""

from __future__ import annotations

import numpy as np
import pytest

from porthamiltonian import DescriptorPHS, simulate
from porthamiltonian.quantities import DOMAINS, Quantities, storage_info


def _two_capacitors():
    """C1 = 1 F and C2 = 0.5 F in parallel (H = q1²/2 + q2²): the constraint v1 = v2
    eliminates one charge."""
    meaning = Quantities({s: storage_info(s, s, "C", "electrical") for s in ("C1", "C2")},
                         ports={"i": DOMAINS["electrical"].flow})
    return DescriptorPHS(J=np.zeros((2, 2)), G=[[1], [0]], Q=np.diag([1.0, 2.0]),
                         B=[[1], [-1]], states=["C1", "C2"], inputs=["i"],
                         name="two capacitors", quantities=meaning)


def test_eliminated_storage_gives_the_common_voltage():
    reduced = _two_capacitors().to_phs()
    res = simulate(reduced, (0, 1), [1.0], u=0.5, dt=0.1)  # 0.5 A into C1 for 1 s
    # total charge q1 + q2 = 1.5·q1 at t0, then +0.5 C; the voltage is Q/(C1 + C2)
    total = 1.5 * 1.0 + 0.5 * res.t
    np.testing.assert_allclose(res["C1.v"], total / 1.5, rtol=1e-12)
    np.testing.assert_allclose(res["C2.v"], res["C1.v"], rtol=1e-12)
    np.testing.assert_allclose(res["C2"], 0.5 * res["C1"], rtol=1e-12)  # q2 = C2·v
    assert res.unit("C2.v") == "V" and res.unit("C2") == "C"
    assert res.coenergy("C2") is not None and res.shown == ["C1.v", "C2.v"]


def test_renamed_system_keeps_its_units():
    reduced = _two_capacitors().to_phs().rename(prefix="bank.")
    res = simulate(reduced, (0, 0.1), [1.0], u=0.0, dt=0.05)
    assert res.unit("bank.C1.v") == "V"
    np.testing.assert_allclose(res["bank.C2.v"], 1.0, rtol=1e-12)


def test_modulated_run_has_its_coenergies():
    from porthamiltonian.library import electrical
    from porthamiltonian.simulate import pwm

    C = 1e-4
    system = electrical.BoostConverter(L=1e-3, C=C, R=10.0).system()
    res = simulate(system, (0, 2e-3), None, u=5.0, dt=1e-6, modulation={"S": pwm(1e-4, 0.5)})
    np.testing.assert_allclose(res["q_C.v"], res["q_C"] / C, rtol=1e-12)
    assert res.unit("q_C.v") == "V"


def test_unknown_variable_lists_what_there_is():
    res = simulate(_two_capacitors().to_phs(), (0, 0.1), [1.0], u=0.0, dt=0.05)
    with pytest.raises(KeyError, match="shown: C1.v, C2.v"):
        res["C3.v"]
