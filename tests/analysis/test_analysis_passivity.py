"""Passivity: the pH certificate, and the positive-real test on arbitrary (A, B, C, D)."""

from __future__ import annotations

import numpy as np
import pytest
from an_systems import dc_motor, parallel_rlc, series_rlc, two_mass

from porthamiltonian import PHS, ModelError
from porthamiltonian import analysis as an


@pytest.mark.parametrize("make", [series_rlc, parallel_rlc, dc_motor, two_mass])
def test_phs_are_passive_by_structure_and_by_the_frequency_test(make):
    sys = make()
    cert = an.passivity(sys)
    assert cert.passive and cert.method == "structure"
    pr = an.passivity(sys, method="frequency")
    assert pr.passive and pr.method == "frequency", pr.reason
    # independently: Re G(jω) + G(jω)ᴴ ⪰ 0 on a grid
    G = an.transfer_function(sys).frequency_response(np.logspace(-2, 5, 300))
    Phi = G + np.conj(np.swapaxes(G, 1, 2))
    assert np.linalg.eigvalsh(Phi)[:, 0].min() > -1e-12


def test_a_lossless_lc_is_passive():
    lc = PHS(J=[[0, 1], [-1, 0]], G=[[0], [1]], Q=np.diag([1e3, 10.0]))
    assert an.is_passive(lc)
    # Φ ≡ 0: the pencil is singular and the test says it sampled (not a proof)
    rep = an.passivity(lc, method="frequency")
    assert rep.passive and rep.method == "sweep" and "not a proof" in rep.reason


def test_positive_real_non_ph_quadruple_passes():
    # G(s) = (s + 2)/(s + 1): Re G(jω) = (2 + ω²)/(1 + ω²) > 0
    rep = an.passivity(([[-1.0]], [[1.0]], [[1.0]], [[1.0]]))
    assert rep.passive and rep.method == "frequency"


def test_non_minimum_phase_fails_at_low_frequency():
    # G(s) = (s − 1)/(s + 1): Re G(jω) = (ω² − 1)/(ω² + 1) < 0 for ω < 1
    rep = an.passivity(([[-1.0]], [[1.0]], [[-2.0]], [[1.0]]))
    assert not rep.passive and rep.method == "frequency"
    w = rep.frequency
    assert 0 <= w < 1
    G = (1j * w - 1) / (1j * w + 1)
    assert rep.min_eigenvalue == pytest.approx(2 * G.real, rel=1e-9)
    assert rep.min_eigenvalue < 0


def test_relative_degree_two_fails_above_the_crossing_with_the_worst_frequency():
    # G(s) = 1/(s + 1)²: 2 Re G(jω) = 2(1 − ω²)/(1 + ω²)², most negative (−1/4) at ω = √3
    A = [[-1.0, 0.0], [1.0, -1.0]]
    rep = an.passivity((A, [[1.0], [0.0]], [[0.0, 1.0]], [[0.0]]))
    assert not rep.passive
    assert rep.frequency == pytest.approx(np.sqrt(3), rel=1e-4)
    assert rep.min_eigenvalue == pytest.approx(-0.25, rel=1e-8)
    assert f"{rep.frequency:.4g}" in rep.reason


def test_unstable_and_negative_residue_and_negative_feedthrough_fail():
    rep = an.passivity(([[1.0]], [[1.0]], [[2.0]], [[1.0]]))     # (s + 1)/(s − 1)
    assert not rep.passive and "right half-plane" in rep.reason
    # −s/(s² + 1): residue −½ at s = j
    rep = an.passivity(([[0, 1.0], [-1.0, 0]], [[0], [1.0]], [[0, -1.0]], [[0.0]]))
    assert not rep.passive and rep.frequency == pytest.approx(1.0)
    assert "residue" in rep.reason
    rep = an.passivity(([[-1.0]], [[1.0]], [[1.0]], [[-3.0]]))   # D + Dᵀ = −6
    assert not rep.passive and rep.frequency == np.inf


def test_a_mode_the_ports_neither_excite_nor_see_does_not_decide_passivity():
    """The free mass-spring-damper chain has a pole at 0 (the common translation) with a
    residue at round-off: the frequency test must pass it, as the structure test does;
    a visible pole at the same place with a negative residue must still fail."""
    from porthamiltonian.library.benchmarks import msd_chain

    chain = msd_chain(10)
    assert an.passivity(chain).passive
    assert an.passivity(chain, method="frequency").passive
    # a free mass seen through a negative output: residue −1 at s = 0
    rep = an.passivity(([[0.0]], [[1.0]], [[-1.0]], [[0.0]]))
    assert not rep.passive and "residue" in rep.reason


def test_structure_certificate_names_the_state_with_negative_stiffness():
    # a mass on a negative spring (an inverted pendulum, linearized): Q indefinite
    sys = PHS(J=[[0, 1], [-1, 0]], R=[[0, 0], [0, 0.1]], G=[[0], [1]],
              Q=np.diag([-2.0, 1.0]), states=["q", "p"], check=False)
    rep = an.passivity(sys, method="structure")
    assert not rep.passive and "q" in rep.reason and "storage" in rep.reason
    # auto falls back to the frequency test, which finds the unstable pole √2
    rep = an.passivity(sys)
    assert not rep.passive and "right half-plane" in rep.reason


def test_passivity_errors():
    with pytest.raises(ModelError, match="as many outputs as inputs"):
        an.passivity(([[-1.0]], [[1.0, 0.0]], [[1.0]], [[0.0, 0.0]]))
    with pytest.raises(ModelError, match="method"):
        an.passivity(series_rlc(), method="lmi")
    with pytest.raises(ModelError, match="needs a port-Hamiltonian model"):
        an.passivity(([[-1.0]], [[1.0]], [[1.0]], [[1.0]]), method="structure")
