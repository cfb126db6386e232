"""Dependent storages, storages fixed by sources, dependent sources, junction loops.

Every expected model is derived here from the element laws (Kirchhoff / rigid-body
balance), not from the generator.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from porthamiltonian import DescriptorPHS, NoExplicitFormError
from porthamiltonian.bondgraph import BondGraph, to_descriptor, to_phs


def graph(elements, bonds, parameters=None) -> BondGraph:
    bg = BondGraph("g", parameters=parameters or {})
    for e in elements:
        bg.add(*e[:2], **(e[2] if len(e) > 2 else {}))
    for a, b in bonds:
        bg.connect(a, b)
    return bg


def two_capacitors(c1="Ca", c2="Cb", **values):
    """Se – 1{R} – 0{C1, C2}: the capacitors share their voltage."""
    return graph([("u", "Se"), ("j1", "1"), ("r", "R", {"r": "Rr"}), ("j", "0"),
                  ("C1", "C", {"c": c1}), ("C2", "C", {"c": c2})],
                 [("u", "j1"), ("j1", "r"), ("j1", "j"), ("j", "C1"), ("j", "C2")],
                 {"Rr": 2.0, "Ca": 1.0, "Cb": 3.0, **values})


@pytest.mark.parametrize("symbolic", [True, False])
def test_two_capacitors_on_a_zero_junction_merge_into_one(symbolic):
    """q1/C1 = q2/C2 = v, i = (u − v)/R, q̇1 + q̇2 = i  ⇒  with Q = q1 + q2:
    Q̇ = (u − Q/(C1 + C2))/R, y = i."""
    sys = to_phs(two_capacitors(), symbolic=symbolic)
    assert sys.states == ("C1",)
    assert sys.merged == {"C1": "C1 + C2"}
    assert "C2" in sys.reduction and "C1 + C2" in sys.reduction
    Q, u = 0.7, 1.9
    Ctot, Rr = 4.0, 2.0
    np.testing.assert_allclose(sys.rhs([Q], [u]), [(u - Q / Ctot) / Rr], rtol=1e-12)
    np.testing.assert_allclose(sys.output([Q], [u]), [(u - Q / Ctot) / Rr], rtol=1e-12)
    np.testing.assert_allclose(sys.energy([Q]), Q**2 / (2 * Ctot), rtol=1e-12)
    if symbolic:
        Ca, Cb = sp.Symbol("Ca", positive=True), sp.Symbol("Cb", positive=True)
        q = sp.Symbol("C1", real=True)
        assert sp.simplify(sys.hamiltonian - q**2 / (2 * (Ca + Cb))) == 0


@pytest.mark.parametrize("symbolic", [True, False])
def test_inertias_rigidly_coupled_by_a_transformer_merge_into_one(symbolic):
    """τ → 1{I1} → TF(m) → 1{I2, b}: ω2 = m ω1, τ − m(ṗ2 + b ω2) = ṗ1, so
    (I1 + m² I2) ω̇1 = τ − m² b ω1; with ξ = p1 + m p2 = (I1 + m² I2) ω1."""
    bg = graph([("tau", "Se"), ("j1", "1"), ("I1", "I", {"i": "Ja"}), ("tf", "TF", {"ratio": "m"}),
                ("j2", "1"), ("I2", "I", {"i": "Jb"}), ("b", "R", {"r": "d"})],
               [("tau", "j1"), ("j1", "I1"), ("j1", "tf"), ("tf", "j2"), ("j2", "I2"),
                ("j2", "b")],
               {"Ja": 0.5, "Jb": 2.0, "m": 3.0, "d": 0.1})
    sys = to_phs(bg, symbolic=symbolic)
    Ir = 0.5 + 9 * 2.0
    assert sys.states == ("I1",)
    assert sys.merged == {"I1": "I1 + 3*I2"} if not symbolic else sys.merged == {"I1": "I1 + I2*m"}
    xi, tau = 1.3, 0.4
    np.testing.assert_allclose(sys.rhs([xi], [tau]), [tau - 9 * 0.1 * xi / Ir], rtol=1e-12)
    np.testing.assert_allclose(sys.output([xi], [tau]), [xi / Ir], rtol=1e-12)  # ω1


@pytest.mark.parametrize("symbolic", [True, False])
def test_descriptor_model_keeps_every_storage_with_a_workless_constraint(symbolic):
    """ẋ1 = i − λ, ẋ2 = λ, 0 = z2 − z1 (B = [−1, 1]ᵀ), i = (u − z1)/R."""
    d = to_descriptor(two_capacitors(), symbolic=symbolic)
    assert isinstance(d, DescriptorPHS)
    assert list(d.states) == ["C1", "C2"] and list(d.multipliers) == ["C2.rate"]
    np.testing.assert_allclose(np.array(sp.Matrix(d.B).tolist(), dtype=float), [[-1.0], [1.0]])
    # the merged explicit model evolves the sum of the charges the same way
    x = np.array([1.0, 3.0])  # consistent: q1/C1 = q2/C2 = 1
    u = 1.5
    z = x / np.array([1.0, 3.0])
    i = (u - z[0]) / 2.0
    lam = 3.0 / 4.0 * i  # q2 takes C2/(C1+C2) of the current on the constraint set
    rhs = np.array([i - lam, lam])
    res = d.residual(x, rhs, [lam], [u])
    np.testing.assert_allclose(res, 0.0, atol=1e-12)


def test_nonlinear_dependent_storages_are_named_and_point_to_the_descriptor():
    bg = graph([("u", "Se"), ("j1", "1"), ("r", "R", {"r": 1.0}), ("j", "0"),
                ("C1", "C", {"hamiltonian": "C1**4/4"}), ("C2", "C", {"c": 1.0})],
               [("u", "j1"), ("j1", "r"), ("j1", "j"), ("j", "C1"), ("j", "C2")])
    with pytest.raises(NoExplicitFormError, match=r"C2.*nonlinear.*to_descriptor"):
        to_phs(bg)
    d = to_descriptor(bg)
    assert list(d.multipliers) == ["C2.rate"]


def test_merge_names_exactly_the_storages_involved():
    """C10 and C11 share a 0-junction; C1 (a prefix of both names) is independent."""
    bg = graph([("u", "Se"), ("j1", "1"), ("r", "R", {"r": 1.0}), ("j", "0"),
                ("C1", "C", {"c": 1.0}), ("C10", "C", {"c": 2.0}), ("C11", "C", {"c": 2.0}),
                ("j2", "1"), ("r2", "R", {"r": 1.0})],
               [("u", "j1"), ("j1", "r"), ("j1", "j"), ("j", "C10"), ("j", "C11"),
                ("j", "j2"), ("j2", "C1"), ("j2", "r2")])
    sys = to_phs(bg)
    assert sys.merged == {"C10": "C10 + C11"}
    assert set(sys.states) == {"C1", "C10"}


def test_storage_fixed_by_a_source_follows_the_input_through_its_derivative():
    """Se u – 0{C1, r}: q = C u is no state; the source's current is C u̇ + u/r
    (bondgraph/forced.py; tests/bondgraph/test_forced.py has the rest)."""
    bg = graph([("u", "Se"), ("j", "0"), ("C1", "C", {"c": 2.0}), ("r", "R", {"r": 4.0})],
               [("u", "j"), ("j", "C1"), ("j", "r")])
    sys = to_phs(bg)
    assert sys.states == () and sys.inputs == ("u", "u.dot") and sys.fixed == {"C1": "2.0*u"}
    np.testing.assert_allclose(sys.output([], [3.0, 0.5]), [2.0 * 0.5 + 3.0 / 4.0, -2.0 * 3.0])


def test_dependent_sources_are_refused_naming_them():
    bg = graph([("u1", "Se"), ("u2", "Se"), ("j", "0"), ("r", "R", {"r": 1.0})],
               [("u1", "j"), ("u2", "j"), ("j", "r")])
    with pytest.raises(NoExplicitFormError, match=r"dependent sources u2|dependent sources u1"):
        to_phs(bg)


@pytest.mark.parametrize("symbolic", [True, False])
def test_parallel_bonds_between_junctions_leave_an_undetermined_flow(symbolic):
    """Sf → 0a ⇉ 0b → {C, R}: the split of the flow between the two parallel bonds is
    undetermined, the model is not: q̇ = i − q/(RC), y = q/C."""
    bg = graph([("i", "Sf"), ("a", "0"), ("b", "0"), ("C1", "C", {"c": 2.0}),
                ("r", "R", {"r": 4.0})],
               [("i", "a"), ("a", "b"), ("a", "b"), ("b", "C1"), ("b", "r")])
    sys = to_phs(bg, symbolic=symbolic)
    q, i = 1.2, 0.3
    np.testing.assert_allclose(sys.rhs([q], [i]), [i - q / 8.0], rtol=1e-12)
    np.testing.assert_allclose(sys.output([q], [i]), [q / 2.0], rtol=1e-12)


def test_phs_command_says_what_was_merged(tmp_path, capsys):
    from porthamiltonian.cli import main

    path = tmp_path / "two.yaml"
    path.write_text(
        "name: two\nparameters: {R: 2.0, Ca: 1.0e-3, Cb: 3.0e-3}\nbondgraph:\n  elements:\n"
        "    - {name: u, type: Se}\n    - {name: s, type: '1'}\n    - {name: r, type: R, r: R}\n"
        "    - {name: n, type: '0'}\n    - {name: C1, type: C, c: Ca}\n"
        "    - {name: C2, type: C, c: Cb}\n"
        "  bonds: [[u, s], [s, r], [s, n], [n, C1], [n, C2]]\n")
    assert main(["phs", str(path)]) == 0
    out = capsys.readouterr().out
    assert "states  x = ['C1']" in out
    assert "note: merged the dependent storage(s) C2" in out and "C1 + C2" in out
