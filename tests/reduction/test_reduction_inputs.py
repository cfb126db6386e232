"""What reduce() accepts and refuses: descriptor systems, constraints, and hostile input
(every refusal a ModelError that says what to do)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
import sympy as sp
from red_systems import msd

from porthamiltonian import PHS, DescriptorPHS
from porthamiltonian.errors import ModelError
from porthamiltonian.linear_ph import linear_ph
from porthamiltonian.reduction import h2_norm, hinf_norm, reduce


def test_order_out_of_range():
    with pytest.raises(ModelError, match="at least 1 state"):
        reduce(msd(5), 0)
    with pytest.raises(ModelError, match="not below the 10 states"):
        reduce(msd(5), 10)
    with pytest.raises(ModelError, match="whole number"):
        reduce(msd(5), 2.5)
    with pytest.raises(ModelError, match="minimal realization"):
        reduce(msd(50), 80, "prbt")  # above the 72 visible states


def test_a_model_too_large_for_dense_solves_is_refused_before_any_dense_copy():
    import scipy.sparse as sps

    from porthamiltonian.reduction.standard import MAX_STATES

    n = MAX_STATES + 2  # dense copies would be 8 × 200 MB
    big = PHS(J=sps.csr_matrix((n, n)), R=sps.eye(n, format="csr"),
              G=sps.csr_matrix(np.eye(n, 1)), Q=sps.eye(n, format="csr"))
    with pytest.raises(ModelError, match=rf"{n} states; reduce works with dense matrices"):
        reduce(big, 10, "irka")


def test_nan_matrices():
    bad = dataclasses.replace(msd(5), R=np.full((10, 10), np.nan))
    with pytest.raises(ModelError, match="NaN"):
        reduce(bad, 2)


def test_unknown_method_and_option():
    with pytest.raises(ModelError, match="unknown reduction method 'bt'.*prbt"):
        reduce(msd(5), 2, "bt")
    with pytest.raises(ModelError, match="unknown option.*shift"):
        reduce(msd(5), 2, "irka", shift=[1.0])


def test_prbt_without_feedthrough_says_what_to_do():
    with pytest.raises(ModelError, match=r"S \+ Sᵀ ≻ 0.*1e-6·I.*irka"):
        reduce(msd(5, S=0.0), 2, "prbt")


def test_nonlinear_system_to_linear_method():
    q, p = sp.symbols("q p", real=True)
    sys = PHS(J=[[0, 1], [-1, 0]], G=[[0], [1]], hamiltonian=q**4 / 4 + p**2 / 2,
              states=["q", "p"], inputs=["F"])
    with pytest.raises(ModelError, match="method='pod'.*snapshots"):
        reduce(sys, 1, "irka")


def test_not_a_system():
    with pytest.raises(ModelError):
        reduce("a string", 2)


def test_lossless_system_gives_no_norm_but_reduces():
    J = np.zeros((4, 4))
    J[0, 1], J[2, 3], J[1, 2] = 1.0, 1.0, 0.5
    J -= J.T
    sys = PHS(J=J, G=np.eye(4)[:, [1]], Q=np.diag([1.0, 2.0, 3.0, 4.0]))
    with pytest.raises(ModelError, match="not asymptotically stable.*damping"):
        h2_norm(sys)
    with pytest.raises(ModelError, match="not asymptotically stable"):
        hinf_norm(sys)
    red = reduce(sys, 2, "krylov", shifts=[0.5 + 1j])
    assert red.h2_error is None and "not asymptotically stable" in red.info["errors"]


def test_descriptor_with_invertible_E():
    lin = msd(6)
    rng = np.random.default_rng(1)
    E = np.eye(12) + 0.1 * np.diag(rng.random(12))
    # E ẋ = (J−R)Q' x + … with EᵀQ' = Q symmetric: Q' = E⁻ᵀ Q
    Qd = np.linalg.solve(E.T, lin.Q)
    desc = DescriptorPHS(E=E, J=lin.J, R=lin.R, G=lin.G, Q=Qd, S=lin.S)
    from porthamiltonian.reduction.standard import standard_form

    full = linear_ph(desc)
    std = standard_form(desc)  # the state E x, with Q E⁻¹: the same transfer function
    for s in (0.2j, 1.3j):
        assert np.allclose(std.transfer(s), full.transfer(s), rtol=1e-10, atol=1e-12)
    red = reduce(desc, 6, "prbt")
    for s in (0.2j, 1.3j):
        assert np.abs(linear_ph(red.system).transfer(s) - full.transfer(s)).max() \
            <= red.hinf_error * (1 + 1e-6)
    assert red.h2_error < 0.5 * h2_norm(desc, proper_part=True)


def test_descriptor_constraints_are_eliminated_exactly():
    # two masses of the chain welded together: the constraint v1 − v3 = 0 (Bᵀ∇H = 0)
    lin = msd(6, S=1e-3)
    B = np.zeros((12, 1))
    B[1, 0], B[5, 0] = 1.0, -1.0
    desc = DescriptorPHS(J=lin.J, R=lin.R, G=lin.G, Q=lin.Q, S=lin.S, B=B)
    from porthamiltonian.reduction.standard import standard_form

    std = standard_form(desc)
    assert std.n_states == 10  # the rigid mode and one velocity direction removed
    full = linear_ph(desc)  # multipliers as states, E singular: the DAE's own transfer
    for s in (0.3j, 2j):
        assert np.allclose(std.transfer(s), full.transfer(s), rtol=1e-9, atol=1e-12)
    red = reduce(desc, 4, "irka")
    assert red.system.n_states == 4 and red.h2_error is not None


def test_singular_E_without_constraints():
    lin = msd(3)
    E = np.eye(6)
    E[5, 5] = 0.0
    desc = DescriptorPHS(E=E, J=lin.J, R=lin.R, G=lin.G, Q=np.eye(6), S=lin.S)
    with pytest.raises(ModelError, match="E is singular"):
        reduce(desc, 2)
