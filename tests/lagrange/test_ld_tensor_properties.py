"""Properties of the Dirac tensor product used for interconnection, and its link
with the composition of Dirac structures of port-Hamiltonian systems."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from porthamiltonian import DiracStructure, lagrange
from porthamiltonian.lagrange.canonical import induced
from porthamiltonian.lagrange.interaction import standard_structure

PORTS = ["a", "b", "c", "d"]


def _random_structure(rng, kind):
    n = len(PORTS)
    if kind == "subspace":  # Σ × Σ°
        return lagrange.subspace_structure(rng.normal(size=(n, rng.integers(0, n + 1))), PORTS)
    if kind == "two-form":  # graph of a skew map: e = W f
        W = rng.normal(size=(n, n))
        return DiracStructure(-(W - W.T), np.eye(n), PORTS)
    J = rng.normal(size=(n, n))  # f = −J e
    return DiracStructure.from_skew(J - J.T, PORTS)


kinds = st.sampled_from(["subspace", "two-form", "skew"])


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), kinds, kinds, kinds)
def test_tensor_is_dirac_commutative_associative(seed, k1, k2, k3):
    rng = np.random.default_rng(seed)
    d1, d2, d3 = (_random_structure(rng, k) for k in (k1, k2, k3))
    d12 = d1.tensor(d2)
    assert d12.is_dirac()
    assert d12.equals(d2.tensor(d1))
    assert d12.tensor(d3).equals(d1.tensor(d2.tensor(d3)))


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 3), st.integers(0, 3))
def test_tensor_of_subspace_structures_is_the_intersection(seed, m1, m2):
    """(Σ₁ × Σ₁°) ⊠ (Σ₂ × Σ₂°) = (Σ₁ ∩ Σ₂) × (Σ₁ ∩ Σ₂)° (constant, hence clean)."""
    rng = np.random.default_rng(seed)
    C1, C2 = rng.normal(size=(4, m1)), rng.normal(size=(4, m2))
    d = lagrange.subspace_structure(C1, PORTS).tensor(lagrange.subspace_structure(C2, PORTS))
    assert d.equals(lagrange.subspace_structure(np.hstack([C1, C2]), PORTS))


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 2), st.integers(0, 2))
def test_tearing_and_reinterconnecting_recovers_the_structure(seed, m_sys, m_int):
    """D_Δ ⊠ D_Σ = D_{Δ∩Σ} on T*Q, also with two-forms: Ω + β₁ and β₂ add."""
    rng = np.random.default_rng(seed)
    names = ["q0", "q1", "q2", "q3"]
    A1, A2 = rng.normal(size=(4, m_sys)), rng.normal(size=(4, m_int))
    W1, W2 = rng.normal(size=(4, 4)), rng.normal(size=(4, 4))
    B1, B2 = W1 - W1.T, W2 - W2.T
    whole = induced(names, np.hstack([A1, A2]), B1 + B2, at={})
    torn = induced(names, A1, B1, at={}).tensor(standard_structure(names, A2, B2, at={}))
    assert torn.equals(whole)


def test_tensor_interconnection_equals_composition_of_ph_structures():
    """Two linear pH systems joined at ports a (of the first) and b (of the second).

    Composition (shared variables): e_a = e_b, f_a = −f_b, ports a, b eliminated.
    Tensor product: (D₁ ⊕ D₂) ⊠ (Σ × Σ°) with Σ = {f : f_a + f_b = 0}; then the
    interface carries no storage, i.e. its total effort is zero (composition with
    the zero-effort structure on a, b).  Both give the same Dirac structure on the
    storage ports.
    """
    rng = np.random.default_rng(7)
    for _ in range(5):
        J1, J2 = rng.normal(size=(3, 3)), rng.normal(size=(3, 3))
        d1 = DiracStructure.from_skew(J1 - J1.T, ["x1", "x2", "a"])
        d2 = DiracStructure.from_skew(J2 - J2.T, ["x3", "b", "x4"])
        composed = d1.compose(d2, [("a", "b")])
        total = d1.direct_sum(d2)
        ports = list(total.ports)
        C = np.zeros((len(ports), 1))
        C[ports.index("a"), 0] = C[ports.index("b"), 0] = 1.0  # the one-form f_a + f_b
        tensored = total.tensor(lagrange.subspace_structure(C, ports))
        zero_effort = DiracStructure(np.zeros((2, 2)), np.eye(2), ["za", "zb"])
        closed = tensored.compose(zero_effort, [("a", "za"), ("b", "zb")])
        assert closed.equals(composed)
        # without the interaction structure, terminating both ports decouples them
        assert not total.compose(zero_effort, [("a", "za"), ("b", "zb")]).equals(composed)


def test_subspace_structure_checks_its_input():
    import pytest

    from porthamiltonian import ModelError

    with pytest.raises(ModelError, match="one row per port"):
        lagrange.subspace_structure(np.ones((3, 1)), PORTS)
