"""Generation at scale: the fast paths give the models of the hand derivation.

The RLC ladder of the benchmarks (``benchmarks/ladders.py``) has a closed-form model —
Kirchhoff's laws section by section — checked here on the dense, sparse and symbolic
paths; the helpers that keep large symbolic models sparse (term-wise gradient, entry
dictionaries, checks over the non-zeros) are checked against SymPy's own dense
operations, and the structure checks still find a violation hidden in a large matrix.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sps
import sympy as sp

from ladder_builders import chain_bondgraph, ladder_bondgraph
from porthamiltonian import PHS
from porthamiltonian import _matrices as mx
from porthamiltonian.bondgraph.elements import storage_energy
from porthamiltonian.bondgraph.elimination import _topological, solve_sorted
from porthamiltonian.bondgraph.generate import to_phs
from porthamiltonian.errors import ModelError, StructureError
from porthamiltonian.phs import _gradient


def dense(A) -> np.ndarray:
    return np.asarray(A.toarray() if sps.issparse(A) else A, dtype=float)


def ladder_by_hand(n: int, R, L, C, zeros, one):
    """The ladder's J, R, G and Q from Kirchhoff's laws; states L0, C0, L1, C1, …

    ``φ̇_k = v_{k−1} − R i_k − v_k`` (``v_{−1} = u``), ``q̇_k = i_k − i_{k+1}`` with the load
    current ``i_n = v_{n−1}/R``; ``i_k = φ_k/L``, ``v_k = q_k/C``; the source sees ``i_0``.
    """
    N = 2 * n
    J, Rm, G, Q = zeros(N, N), zeros(N, N), zeros(N, 1), zeros(N, N)
    for k in range(n):
        lk, ck = 2 * k, 2 * k + 1
        J[lk, ck], J[ck, lk] = -one, one  # the inductor charges its capacitor
        if k:
            J[lk, ck - 2], J[ck - 2, lk] = one, -one  # … and discharges the previous one
        Rm[lk, lk] = R
        Q[lk, lk], Q[ck, ck] = 1 / L, 1 / C
    Rm[N - 1, N - 1] = 1 / R  # the load resistor across the last capacitor
    G[0, 0] = one
    return J, Rm, G, Q


@pytest.mark.parametrize("n", [3, 60])  # 6 states: dense; 120 states: SciPy sparse
def test_numeric_ladder_is_kirchhoffs(n):
    sys = to_phs(ladder_bondgraph(n, R=2.0, L=1e-3, C=1e-6), symbolic=False)
    assert sys.kind == ("dense" if n == 3 else "sparse")
    assert list(sys.states[:4]) == ["L0", "C0", "L1", "C1"]
    J, Rm, G, Q = ladder_by_hand(n, 2.0, 1e-3, 1e-6, lambda r, c: np.zeros((r, c)), 1.0)
    np.testing.assert_allclose(dense(sys.J), J, rtol=1e-15, atol=0)
    np.testing.assert_allclose(dense(sys.R), Rm, rtol=1e-15, atol=0)
    np.testing.assert_allclose(dense(sys.G), G, rtol=1e-15, atol=0)
    np.testing.assert_allclose(dense(sys.Q), Q, rtol=1e-15, atol=0)
    for k in ("P", "M", "S"):
        assert not np.any(dense(getattr(sys, k)))


@pytest.mark.parametrize("n", [2, 12])
def test_symbolic_ladder_is_kirchhoffs(n):
    sys = to_phs(ladder_bondgraph(n), symbolic=True)
    R, L, C = (sp.Symbol(s, positive=True) for s in "RLC")
    J, Rm, G, Q = ladder_by_hand(n, R, L, C, sp.zeros, sp.S.One)
    assert isinstance(sys.J, sp.ImmutableMatrix) and isinstance(sys.R, sp.ImmutableMatrix)
    assert sys.J == J and sys.R == Rm and sys.G == G
    assert sys.P.is_zero_matrix and sys.M.is_zero_matrix and sys.S.is_zero_matrix
    x = sp.Matrix(sys.state_symbols)
    assert sp.expand(sys.hamiltonian - (x.T * Q * x)[0, 0] / 2) == 0
    assert list(sys.gradient_expr) == list(Q * x)  # ∇H by the term-wise gradient


def test_symbolic_and_numeric_chains_agree():
    """Mass–spring–damper chain (0–1–0 bridges, a flow source as the wall): the two paths
    give the same numbers, and the symbolic one's W ⪰ 0 check passes on the sparse path."""
    num = to_phs(chain_bondgraph(8), symbolic=False)
    sym = to_phs(chain_bondgraph(8), symbolic=True)
    values = sym.parameter_values()
    for k in ("J", "R", "G", "P", "M", "S"):
        expected = np.array(getattr(sym, k).xreplace(values).tolist(), dtype=float)
        np.testing.assert_allclose(dense(getattr(num, k)), expected, rtol=1e-14, atol=1e-14)
    np.testing.assert_allclose(dense(num.Q), np.array(sym.Q.xreplace(values).tolist(),
                                                      dtype=float), rtol=1e-14)


def test_termwise_gradient_equals_sympys():
    xs = sp.symbols("x0:10", real=True)
    k, c = sp.symbols("k c", positive=True)
    H = (sum(x**2 / (2 * c) for x in xs[:6]) + k * xs[6]**4 / 4 + sp.cos(xs[7]) * xs[8]
         + xs[8] * xs[9] + sp.Float(0.5) * xs[9]**2)
    assert _gradient(H, xs) == [sp.diff(H, x) for x in xs]


def test_immutable_copy_is_the_dense_immutable_matrix_and_independent():
    M = sp.zeros(50, 40)
    M[3, 7], M[49, 0] = sp.Symbol("a") / 3, 2
    frozen = mx.immutable(M)
    assert isinstance(frozen, sp.ImmutableMatrix) and frozen == sp.ImmutableMatrix(M)
    M[0, 0] = 5  # the model's copy does not follow its source
    assert frozen[0, 0] == 0
    assert [ij for ij, _ in mx.nonzero_entries(frozen)] == [(3, 7), (49, 0)]


def test_large_symbolic_checks_still_find_the_bad_entry():
    n, a = 150, sp.Symbol("a", positive=True)
    J = sp.zeros(n, n)
    J[3, 7], J[7, 3] = a, a  # symmetric, not skew
    with pytest.raises(StructureError, match=r"J\[x3, x7\]"):
        PHS(J=J, Q=sp.eye(n))
    R = sp.zeros(n, n)
    R[5, 5] = -a  # a negative resistance, a value given: the sparse numeric check
    with pytest.raises(StructureError, match="diagonal entry at x5"):
        PHS(R=R, Q=sp.eye(n), parameters={"a": 2.0})
    R = sp.zeros(n, n)
    R[10, 10], R[10, 11], R[11, 10], R[11, 11] = a, 2 * a, 2 * a, a  # eigenvalue −a
    with pytest.raises(StructureError, match="eigenvalue"):
        PHS(R=R, Q=sp.eye(n), parameters={"a": 1.0})
    R[10, 11] = R[11, 10] = a / 2  # now ⪰ 0
    assert PHS(R=R, Q=sp.eye(n), parameters={"a": 1.0}).n_states == n


def test_blocks_are_solved_after_what_they_need():
    # needer → needed: 0 needs 2, 2 needs 1, 3 needs 0
    order = _topological(4, np.array([0, 2, 3]), np.array([2, 1, 0]))
    assert order.index(1) < order.index(2) < order.index(0) < order.index(3)
    # x0 = w0; x1 = x0 + w1; x2 = 2 x1 (a chain whose equations are listed backwards)
    value = solve_sorted([{2: 1.0, 1: -2.0}, {1: 1.0, 0: -1.0}, {0: 1.0}],
                         [{}, {1: 1.0}, {0: 1.0}], 3, exact=False)
    assert value == [{0: 1.0}, {0: 1.0, 1: 1.0}, {0: 2.0, 1: 2.0}]


def test_scalar_storages_energy_and_zero_compliance():
    bg = ladder_bondgraph(2, L=4.0, C=0.5)
    Q = storage_energy(bg.with_values(), exact=False).Q
    np.testing.assert_array_equal(Q.toarray(), np.diag([0.25, 2.0, 0.25, 2.0]))
    with pytest.raises(ModelError, match="element 'C0'.*singular"):
        to_phs(ladder_bondgraph(2, C=0.0), symbolic=False)
    with pytest.raises(ModelError, match="C = 0"):  # symbolic: C stays a symbol in H
        to_phs(ladder_bondgraph(2, C=0.0), symbolic=True)
