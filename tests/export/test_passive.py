"""A passive state-space model written in pH form through the KYP inequality."""

from __future__ import annotations

import numpy as np
import pytest
from linear_ph_systems import (
    chain_with_feedthrough,
    elongation_chain,
    lin_tf,
    msd50,
    state_space_tf,
    tf_error,
)

from porthamiltonian.errors import ModelError
from porthamiltonian.export.passive import from_control, from_state_space, kyp_solution
from porthamiltonian.linear_ph import linear_ph


def _non_ph_basis(system, seed: int = 1):
    """(A, B, C, D) of ``system`` in the random basis x = T z: T⁻¹AT, T⁻¹B, CT, D."""
    A, B, C, D = linear_ph(system).dense().state_space()
    T = np.random.default_rng(seed).standard_normal(A.shape)
    return np.linalg.solve(T, A @ T), np.linalg.solve(T, B), C @ T, D


def _assert_ph(system) -> None:
    """J skew, W = [[R, P], [Pᵀ, S]] ⪰ 0, Q ≻ 0 (to round-off relative to their size)."""
    lin = linear_ph(system).dense()
    assert np.array_equal(lin.J, -lin.J.T)
    W = np.block([[lin.R, lin.P], [lin.P.T, lin.S]])
    assert np.array_equal(W, W.T)
    assert np.linalg.eigvalsh(W)[0] >= -1e-10 * np.abs(W).max()
    EQ = lin.E.T @ lin.Q
    assert np.allclose(EQ, EQ.T, rtol=0, atol=1e-12 * np.abs(EQ).max())
    assert np.linalg.eigvalsh((EQ + EQ.T) / 2)[0] > 0


@pytest.mark.parametrize("make", [elongation_chain, chain_with_feedthrough],
                         ids=["D=0", "D+Dᵀ≻0"])
@pytest.mark.parametrize("storage", ["geometric", "mid", "min", "max"])
def test_passive_model_in_a_non_ph_basis_gets_its_ph_form_back(make, storage):
    A, B, C, D = _non_ph_basis(make())
    ph = from_state_space(A, B, C, D, storage=storage)
    _assert_ph(ph)
    assert tf_error(lambda w: state_space_tf(A, B, C, D, w), lin_tf(ph)) < 1e-10


@pytest.mark.parametrize("make", [elongation_chain, chain_with_feedthrough])
def test_extremal_storages_bound_the_others(make):
    A, B, C, D = linear_ph(make()).dense().state_space()
    X = {s: kyp_solution(A, B, C, D, storage=s) for s in ("min", "geometric", "mid", "max")}
    for lo, hi in (("min", "geometric"), ("geometric", "max"), ("min", "mid"), ("mid", "max")):
        gap = X[hi] - X[lo]
        assert np.linalg.eigvalsh(gap)[0] >= -1e-9 * np.abs(X["max"]).max(), (lo, hi)
    # the reason for the default: the geometric mean is far better conditioned
    assert np.linalg.cond(X["geometric"]) < 0.5 * min(np.linalg.cond(X["min"]),
                                                       np.linalg.cond(X["max"]))


def test_d_zero_forces_xb_equal_ct():
    A, B, C, D = _non_ph_basis(elongation_chain())
    X = kyp_solution(A, B, C, D)
    assert np.linalg.norm(X @ B - C.T) <= 1e-10 * np.linalg.norm(C)
    assert not linear_ph(from_state_space(A, B, C, D)).P.any() or np.abs(
        linear_ph(from_state_space(A, B, C, D)).P).max() < 1e-10


def test_invertible_e_gives_a_descriptor_ph_system():
    A, B, C, D = _non_ph_basis(chain_with_feedthrough())
    E = np.diag(np.linspace(1.0, 3.0, A.shape[0]))  # E ẋ = (E A) x + (E B) u: same G(s)
    ph = from_state_space(E @ A, E @ B, C, D, E=E)
    assert type(ph).__name__ == "DescriptorPHS"
    _assert_ph(ph)
    assert tf_error(lambda w: state_space_tf(A, B, C, D, w), lin_tf(ph)) < 1e-10


def test_from_control_keeps_the_names():
    control = pytest.importorskip("control")
    A, B, C, D = _non_ph_basis(chain_with_feedthrough())
    sys = control.ss(A, B, C, D, states=[f"z{i}" for i in range(A.shape[0])],
                     inputs=["F1", "F2"], outputs=["v1", "v2"], name="chain")
    ph = from_control(sys)
    assert (ph.states[:2], ph.inputs, ph.outputs, ph.name) == (("z0", "z1"), ("F1", "F2"),
                                                                ("v1", "v2"), "chain")
    _assert_ph(ph)
    assert tf_error(lambda w: sys(1j * w), lin_tf(ph)) < 1e-10


def test_from_control_of_the_library_own_export():
    pytest.importorskip("control")
    from porthamiltonian.analysis.convert import to_control

    chain = elongation_chain()
    ph = from_control(to_control(chain))
    assert ph.states == chain.states
    assert tf_error(lin_tf(chain), lin_tf(ph)) < 1e-10


@pytest.mark.parametrize(("A", "B", "C", "D", "reason"), [
    ([[1.0]], [[1.0]], [[1.0]], [[1.0]], r"not passive: pole 1\+0j in the right half-plane"),
    ([[-2.0]], [[1.0]], [[-3.0]], [[1.0]],  # (s − 1)/(s + 2): Re G(0) = −1/2
     r"not passive: G\(jω\) \+ G\(jω\)ᴴ has the negative eigenvalue -1 at ω = 0 rad/s"),
    ([[-1.0]], [[1.0]], [[1.0]], [[-0.1]], r"D \+ Dᵀ has the negative eigenvalue"),
], ids=["unstable", "popov-negative", "negative-feedthrough"])
def test_non_passive_model_is_refused_with_the_reason(A, B, C, D, reason):
    with pytest.raises(ModelError, match=reason):
        from_state_space(A, B, C, D)


def test_non_minimal_model_is_refused():
    lin = linear_ph(msd50())  # the rigid translation of the chain is unobservable
    with pytest.raises(ModelError, match=r"not minimal: the mode λ = .* is unobservable"):
        from_state_space(*lin.state_space(), states=lin.states)


def test_unsupported_cases_say_what_to_do():
    with pytest.raises(ModelError, match=r"D \+ Dᵀ is singular but not zero"):
        from_state_space(-np.eye(2), np.eye(2), np.eye(2), np.diag([1.0, 0.0]))
    with pytest.raises(ModelError, match="E is singular"):
        from_state_space(-np.eye(2), np.eye(2), np.eye(2), np.eye(2), E=np.diag([1.0, 0.0]))
    with pytest.raises(ModelError, match="2 outputs and 1 inputs"):
        from_state_space(-np.eye(2), np.ones((2, 1)), np.eye(2), np.zeros((2, 1)))
    with pytest.raises(ModelError, match="storage='best'"):
        from_state_space([[-1.0]], [[1.0]], [[1.0]], [[1.0]], storage="best")
