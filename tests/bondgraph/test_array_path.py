"""The array path of numeric generation gives the general path's model.

:mod:`porthamiltonian.bondgraph.array_path` assembles the element equations as sparse
matrices and eliminates them level by level; the general path (:mod:`.equations`,
:mod:`.elimination`) carries a dictionary per bond variable.  Both solve the same
square linear system, whose solution is unique when the explicit form exists, so the
two models must agree — states, names, quantities and every matrix to round-off — on a
ladder with resistors, a mass–spring–damper chain, and a graph whose resistors, TF and
GY form an algebraic loop.  Where the array path does not apply (dependent storages,
nonlinear storages, multi-bonds) it declines and ``to_phs`` still gives the general
model.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sps
import sympy as sp

from ladder_builders import chain_bondgraph, ladder_bondgraph
from porthamiltonian.bondgraph import BondGraph, analyze_causality, generate
from porthamiltonian.bondgraph.array_path import numeric_phs


def dense(A) -> np.ndarray:
    return np.asarray(A.toarray() if sps.issparse(A) else A, dtype=float)


def general(bg: BondGraph, monkeypatch: pytest.MonkeyPatch):
    """``to_phs`` with the array path switched off."""
    with monkeypatch.context() as m:
        m.setattr(generate, "numeric_phs", lambda graph: None)
        return generate.to_phs(bg, symbolic=False)


def assert_same(fast, ref) -> None:
    assert fast.states == ref.states
    assert fast.inputs == ref.inputs and fast.outputs == ref.outputs
    assert fast.port_kinds == ref.port_kinds
    assert fast.quantities == ref.quantities
    assert fast.kind == ref.kind  # dense below SPARSE_ABOVE states, sparse above
    mats, refs = fast.matrices(), ref.matrices()
    for k in "JRGPMS":
        a, b = dense(mats[k]), dense(refs[k])
        assert a.shape == b.shape
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12 * max(1.0, np.abs(b).max(
            initial=0.0)), err_msg=k)
    np.testing.assert_allclose(dense(fast.Q), dense(ref.Q), rtol=1e-14)


def loop_graph() -> BondGraph:
    """Se → 1a (I) → TF → 0 (R1) → GY → 1b (R2, C): the 0-junction's effort and the
    1b flow determine each other through R1, the GY and R2 — an algebraic loop."""
    bg = BondGraph("loop", parameters={"L": 0.2, "m": 3.0, "r": 0.5, "R1": 4.0, "C": 1e-2})
    bg.add("u", "Se")
    bg.add("a", "1")
    bg.add("L1", "I", i="L")
    bg.add("t", "TF", ratio="m")
    bg.add("z", "0")
    bg.add("R1", "R", r="R1")
    bg.add("g", "MGY", ratio="r")  # a modulated type with a constant ratio
    bg.add("b", "1")
    bg.add("R2", "R", r="2*R1")  # an expression of the parameters
    bg.add("C1", "C", c="C")
    for tail, head in (("u", "a"), ("a", "L1"), ("a", "t"), ("t", "z"), ("z", "R1"),
                       ("z", "g"), ("g", "b"), ("b", "R2"), ("b", "C1")):
        bg.connect(tail, head)
    return bg


@pytest.mark.parametrize("build", [lambda: ladder_bondgraph(3), lambda: ladder_bondgraph(80),
                                   lambda: chain_bondgraph(12), loop_graph],
                         ids=["ladder-3", "ladder-80", "chain-12", "tf-gy-loop"])
def test_the_array_path_gives_the_general_model(build, monkeypatch) -> None:
    fast = build()
    fast.check()
    assert numeric_phs(fast) is not None  # the array path applies
    assert_same(generate.to_phs(fast, symbolic=False), general(build(), monkeypatch))


def test_the_loop_graph_has_an_algebraic_loop_and_its_model_is_kirchhoffs() -> None:
    bg = loop_graph()
    assert analyze_causality(bg).algebraic_loops
    sys = generate.to_phs(bg, symbolic=False)
    # by hand, with the co-energies i = p/L (I) and v = q/C (C) and w the flow of b: the
    # TF gives the 0-junction the flow m·i and the I the effort m·e0; the GY (bond in
    # from the 0-junction) e0 = r·w and R2·w + v = r·(m·i − e0/R1).  The loop solved:
    # w = (r·m·i − v)/(R2 + r²/R1); then ṗ = u − m·r·w and q̇ = w.
    L, m, r, R1, R2, C = 0.2, 3.0, 0.5, 4.0, 8.0, 1e-2
    den = R2 + r * r / R1
    A = np.array([[-m * r * r * m / den, m * r / den],
                  [r * m / den, -1.0 / den]])
    x = np.array([0.3, -0.7])
    z = np.array([x[0] / L, x[1] / C])
    np.testing.assert_allclose(sys.rhs(x, [0.0]), A @ z, rtol=1e-12)
    np.testing.assert_allclose(sys.rhs(x, [2.0]) - sys.rhs(x, [0.0]), [2.0, 0.0], atol=1e-12)


def test_the_array_path_declines_what_it_does_not_cover() -> None:
    # two capacitors on one 0-junction: a dependent storage, merged by the general path
    bg = BondGraph("parallel", parameters={"C": 1e-3, "R": 5.0})
    bg.add("u", "Se")
    bg.add("s", "1")
    bg.add("R1", "R", r="R")
    bg.add("p", "0")
    bg.add("C1", "C", c="C")
    bg.add("C2", "C", c="C")
    for tail, head in (("u", "s"), ("s", "R1"), ("s", "p"), ("p", "C1"), ("p", "C2")):
        bg.connect(tail, head)
    bg.check()
    assert numeric_phs(bg) is None
    merged = generate.to_phs(bg, symbolic=False)
    assert merged.n_states == 1 and merged.reduction
    # a nonlinear storage and a multi-bond: the general path's business as well
    nonlinear = ladder_bondgraph(2)
    nonlinear.elements["C0"].params = {"hamiltonian": sp.sympify("C0**4")}
    nonlinear.check()
    assert numeric_phs(nonlinear) is None
    multi = BondGraph("multi", parameters={})
    multi.add("F", "Se", dim=2)
    multi.add("j", "1", dim=2)
    multi.add("m", "I", dim=2, i=[[1, 0], [0, 2]])
    multi.add("d", "R", dim=2, r=[[1, 0], [0, 1]])
    for tail, head in (("F", "j"), ("j", "m"), ("j", "d")):
        multi.connect(tail, head)
    multi.check()
    assert numeric_phs(multi) is None
    assert generate.to_phs(multi, symbolic=False).n_states == 2


def test_the_checks_find_one_fault_in_a_large_graph_and_see_later_changes() -> None:
    """The checks judge bonds from arrays, kept from one check to the next, and look at
    single elements only when the arrays flag them: a reversed bond, a missing law and
    a bond-less element, each added after a first check, are named."""
    from porthamiltonian.errors import ModelError

    bg = ladder_bondgraph(300)
    bg.check()
    bg.add("Cx", "C", c="C")
    bg.connect("Cx", "p200")  # out of a C
    with pytest.raises(ModelError, match="points out of C element 'Cx'"):
        bg.check()
    bg = ladder_bondgraph(300)
    bg.check()
    bg.add("R_extra", "R")
    bg.connect("p7", "R_extra")
    with pytest.raises(ModelError, match="'R_extra' \\(R\\) has no resistance"):
        bg.check()
    bg.add("lonely", "C", c="C")
    with pytest.raises(ModelError, match="'lonely' \\(C\\) has 0 bonds"):
        bg.check()


def test_bond_ends_named_by_other_string_objects_are_found() -> None:
    """``connect`` stores the element's own name object and the bond ends are found by
    object identity; a bond appended to ``bonds`` directly, its ends spelled by new
    string objects, is found by its text and gives the same model."""
    from porthamiltonian.bondgraph import Bond

    a, b = ladder_bondgraph(4), ladder_bondgraph(4)
    b.bonds = [Bond("".join(list(x.tail)), "".join(list(x.head)), x.name) for x in b.bonds]
    assert any(x.tail is not y.tail for x, y in zip(a.bonds, b.bonds, strict=True))
    np.testing.assert_array_equal(a.bond_ends(), b.bond_ends())
    assert_same(generate.to_phs(b, symbolic=False), generate.to_phs(a, symbolic=False))


def tf_chain(k: int) -> BondGraph:
    """Se → 1 (I) → k TFs of ratio m → 0 (R, C): one TF of ratio mᵏ in effect."""
    bg = BondGraph("tf-chain", parameters={"m": 1.01, "R": 2.0, "L": 0.1, "C": 0.5})
    bg.add("u", "Se")
    bg.add("a", "1")
    bg.add("L1", "I", i="L")
    bg.connect("u", "a")
    bg.connect("a", "L1")
    prev = "a"
    for i in range(k):
        bg.add(f"t{i}", "TF", ratio="m")
        bg.connect(prev, f"t{i}")
        prev = f"t{i}"
    bg.add("z", "0")
    bg.add("R1", "R", r="R")
    bg.add("C1", "C", c="C")
    for tail, head in ((prev, "z"), ("z", "R1"), ("z", "C1")):
        bg.connect(tail, head)
    return bg


@pytest.mark.parametrize("k", [20, 100])
def test_a_chain_of_transformers_is_one_transformer(k, monkeypatch) -> None:
    """With M = mᵏ: ṗ = u − M v, q̇ = M i − v/R, so J = [[0, −M], [M, 0]] and
    R = diag(0, 1/R).  Twenty TFs make 24 levels (the array path); a hundred make more
    than MAX_LEVELS, and the general path gives the model."""
    bg = tf_chain(k)
    bg.check()
    assert (numeric_phs(bg) is not None) == (k == 20)
    sys = generate.to_phs(bg, symbolic=False)
    M = 1.01 ** k
    np.testing.assert_allclose(dense(sys.matrices()["J"]), [[0, -M], [M, 0]], rtol=1e-12)
    np.testing.assert_allclose(dense(sys.matrices()["R"]), [[0, 0], [0, 0.5]], atol=1e-15)
    assert_same(sys, general(tf_chain(k), monkeypatch))
