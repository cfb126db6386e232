"""Symbolic views of a plant and of the designer's matrices, matched by symbol name.

Users build ``Jd``, ``Hd`` … with their own SymPy symbols (``sp.symbols("x1 alpha")``),
which may differ from the plant's symbols in their assumptions.  Everything here is
matched by *name*: a state symbol becomes the plant's (real) state symbol, and a
parameter gets its value from a ``{name: value}`` map.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sympy as sp

from .. import _matrices as mx
from ..errors import ModelError
from ..phs import PHS, _parse_hamiltonian

__all__ = ["plant_matrices", "as_state_matrix", "as_state_expr", "substitute_by_name"]


def plant_matrices(
    system: PHS,
) -> tuple[list[sp.Symbol], sp.Expr, sp.Matrix, sp.Matrix, sp.Matrix]:
    """``(x, H, J, R, g = G − P)`` of a PHS as SymPy objects (numeric systems converted)."""
    if not isinstance(system, PHS):
        raise ModelError(f"expected a PHS, got {type(system).__name__}")
    if system.n_states > 200:
        raise ModelError(f"{system.n_states} states: the symbolic control design is meant "
                         "for lumped models (≤ 200 states)")
    xs = system.state_symbols
    mats = {k: sp.Matrix(v) if system.symbolic else sp.Matrix(mx.to_dense(v))
            for k, v in system.matrices().items()}
    if not system.symbolic:
        mats = {k: v.applyfunc(lambda e: sp.nsimplify(e, rational=False)) for k, v in
                mats.items()}
    return xs, sp.sympify(system.hamiltonian), mats["J"], mats["R"], mats["G"] - mats["P"]


def _rename(expr: Any, xs: Sequence[sp.Symbol]) -> Any:
    names = {x.name: x for x in xs}
    rep = {s: names[s.name] for s in expr.free_symbols if s.name in names and s != names[s.name]}
    return expr.xreplace(rep) if rep else expr


def as_state_matrix(A: Any, xs: Sequence[sp.Symbol], params: Mapping[str, Any], what: str,
                    shape: tuple[int, int]) -> sp.Matrix:
    """A designer's matrix as SymPy, in the plant's state symbols, of the given shape."""
    try:
        M = sp.Matrix(mx.to_dense(A)) if not mx.is_sympy(A) else sp.Matrix(A)
    except (TypeError, ValueError) as err:
        raise ModelError(f"{what} is not a matrix ({err})") from None
    if M.shape != shape:
        raise ModelError(f"{what} has shape {M.shape}; expected {shape} "
                         f"(states {', '.join(x.name for x in xs)})")
    if not mx.is_sympy(A):
        M = M.applyfunc(lambda e: sp.nsimplify(e, rational=False))
    return _rename(M, xs)


def as_state_expr(H: Any, xs: Sequence[sp.Symbol], params: Mapping[str, Any],
                  what: str) -> sp.Expr:
    """A designer's scalar function of the state: SymPy expression or safe-parsed text."""
    if isinstance(H, str):
        return _parse_hamiltonian(H, [x.name for x in xs], params)
    try:
        return _rename(sp.sympify(H), xs)
    except sp.SympifyError as err:
        raise ModelError(f"{what} is not a SymPy expression ({err})") from None


def substitute_by_name(expr: Any, values: Mapping[Any, Any]) -> Any:
    """Replace every symbol whose name is a key (symbol or str) of ``values`` by its value."""
    by_name = {getattr(k, "name", k): v for k, v in values.items()}
    rep = {s: sp.sympify(by_name[s.name]) for s in expr.free_symbols if s.name in by_name}
    return expr.xreplace(rep) if rep else expr
