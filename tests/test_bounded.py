"""Bounded symbolic work: a check SymPy cannot finish falls back to a numeric check and
says so; a failing numeric check still names the direction; recursion is caught."""

from __future__ import annotations

import time

import pytest
import sympy as sp

from porthamiltonian import PHS, StructureError
from porthamiltonian.bounded import SymbolicLimit, bounded


def _cycle_dissipation():
    """A closed reaction cycle A → B → C → A written with storages
    H = X (ln(1.0 X) − 1) and resistors conducting g = (X − Y)/(ln X − ln Y) ≥ 0 (the
    log-mean): positive semi-definite (a weighted graph Laplacian), which SymPy cannot
    prove within the budget."""
    A, B, C = sp.symbols("A B C", real=True)
    H = sum(X * (sp.log(1.0 * X) - 1) for X in (A, B, C))

    def g(X, Y):
        return (X - Y) / (sp.log(1.0 * X) - sp.log(1.0 * Y))

    g1, g2, g3 = g(A, B), g(B, C), g(C, A)
    R = sp.Matrix([[g1 + g3, -g1, -g3], [-g1, g1 + g2, -g2], [-g3, -g2, g2 + g3]])
    return R, H


def test_reaction_cycle_is_checked_within_the_budget(monkeypatch):
    monkeypatch.setenv("PORTHAMILTONIAN_SYMBOLIC_SECONDS", "0.5")
    R, H = _cycle_dissipation()
    start = time.monotonic()
    sys = PHS(R=R, hamiltonian=H, states=["A", "B", "C"])
    assert time.monotonic() - start < 20
    (note,) = sys.assumptions  # SymPy gives up, or the budget runs out: either is said
    assert "A, B, C" in note and ("checked numerically" in note or "could not be decided"
                                  in note)


def test_psd_check_falls_back_to_sampling_and_says_so(monkeypatch):
    def give_up(self):  # SymPy "cannot finish": force the fallback
        raise RecursionError

    monkeypatch.setattr(sp.MatrixBase, "is_positive_semidefinite", property(give_up))
    R, H = _cycle_dissipation()
    (note,) = PHS(R=R, hamiltonian=H, states=["A", "B", "C"]).assumptions
    assert "checked numerically at" in note and "A, B, C" in note
    assert "recursion too deep" in note


def test_sampled_check_finds_an_indefinite_matrix(monkeypatch):
    """[[1, x], [x, 1]] is indefinite for |x| > 1: the sampling finds such a point."""
    x, y = sp.symbols("x y", real=True)

    def give_up(self):  # SymPy "cannot finish": force the fallback
        raise RecursionError

    monkeypatch.setattr(sp.MatrixBase, "is_positive_semidefinite", property(give_up))
    with pytest.raises(StructureError, match="not positive semi-definite.*found numerically"):
        PHS(J=[[0, 1], [-1, 0]], R=[[1, x], [x, 1]], hamiltonian=(x**2 + y**2) / 2,
            states=["x", "y"])


def test_budget_expires_and_recursion_is_caught():
    with pytest.raises(SymbolicLimit, match="did not finish within 0.2 s"):
        with bounded("spin", 0.2):
            while True:
                pass

    def deep(n):
        return deep(n + 1)

    with pytest.raises(SymbolicLimit, match="recursion too deep"):
        with bounded("recurse", 5):
            deep(0)


def test_skew_check_falls_back_to_sampling(monkeypatch):
    """When simplification cannot finish, J + Jᵀ = 0 is checked at sampled states: a
    skew J passes with a note, a J that is not skew is refused naming a point."""
    import porthamiltonian.structure as structure

    def give_up(expr, *args, **kwargs):
        raise RecursionError

    monkeypatch.setattr(structure.sp, "simplify", give_up)
    x, y = sp.symbols("x y", real=True)
    H = (x**2 + y**2) / 2
    f = sp.exp(x) * sp.cos(y)
    g = sp.exp(x) * (sp.cos(y / 2) ** 2 - sp.sin(y / 2) ** 2)  # = f, not written as f
    skew = PHS(J=[[0, f], [-g, 0]], hamiltonian=H, states=["x", "y"])
    assert any("J skew-symmetric checked numerically" in a for a in skew.assumptions)
    with pytest.raises(StructureError, match="J is not skew-symmetric.*found numerically"):
        PHS(J=[[0, f], [-f + x * (y - 1), 0]], hamiltonian=H, states=["x", "y"])
