"""JSON-able dictionaries and LaTeX for :class:`~porthamiltonian.PHS` (docs/cli.md).

The dictionary is the contract of ``porthamiltonian phs --json``::

    {"name": ..., "states": [...], "inputs": [...], "outputs": [...],
     "J": [[...]], "R": ..., "G": ..., "P": ..., "M": ..., "S": ...,
     "hamiltonian": "...", "Q": [[...]] (when H is quadratic), "parameters": {...}}

Entries are numbers when they contain no symbol, strings otherwise; strings are
read back with the safe parser, never with ``eval``/``sympify``.

This module sits *below* :mod:`porthamiltonian.phs` (docs/design.md): it never imports
it.  The writers take any object with the attributes of a PHS (``states``, ``inputs``,
``outputs``, ``name``, ``kind``, ``n_states``, ``n_inputs``, ``symbolic``,
``matrices()``, ``hamiltonian``, ``Q``, ``parameters``, ``parameter_values()``,
``free_parameters()``, ``state_symbols``, ``input_symbols``), and the reader returns
the constructor's arguments; :meth:`PHS.from_dict` builds the system from them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import sympy as sp

from . import _matrices as mx
from .errors import ModelError, SchemaError
from .printing import entry_to_json, expr_to_str

__all__ = ["MATRIX_NAMES", "phs_to_dict", "phs_arguments", "phs_to_latex"]

#: The structure matrices of a PHS, in the order of ``PHS.matrices()`` and of the format.
MATRIX_NAMES = ("J", "R", "G", "P", "M", "S")

_DENSE_LIMIT = 2000


def _rows(A: Any) -> list[list[Any]]:
    if isinstance(A, sp.MatrixBase):
        return [[entry_to_json(v) for v in row] for row in A.tolist()]
    return [[float(v) for v in row] for row in np.atleast_2d(mx.to_dense(A)).tolist()]


def phs_to_dict(sys: Any) -> dict[str, Any]:
    """The JSON-able dictionary of a PHS ``sys`` (all matrices dense; see module docstring)."""
    if sys.n_states > _DENSE_LIMIT:
        raise SchemaError(
            f"{sys.n_states} states: too large for the dense JSON format; "
            "save the sparse matrices with scipy.sparse.save_npz instead"
        )
    values = sys.parameter_values()
    mats = sys.matrices()
    if sys.symbolic:
        mats = {k: A.xreplace(values) for k, A in mats.items()}
    out: dict[str, Any] = {
        "name": sys.name,
        "states": list(sys.states),
        "inputs": list(sys.inputs),
        "outputs": list(sys.outputs),
    }
    for k in MATRIX_NAMES:
        out[k] = _rows(mats[k]) if mats[k].shape[0] else []
    H = sys.hamiltonian.xreplace(values) if sys.symbolic else sys.hamiltonian
    out["hamiltonian"] = expr_to_str(H)
    Q = sys.Q
    if Q is not None:
        out["Q"] = _rows(Q.xreplace(values) if isinstance(Q, sp.MatrixBase) else Q)
    out["parameters"] = {
        k: (entry_to_json(v) if v is not None else None) for k, v in sys.parameters.items()
    }
    for name in sys.free_parameters():
        out["parameters"].setdefault(name, None)
    return out


def phs_arguments(data: Mapping[str, Any]) -> dict[str, Any]:
    """The keyword arguments of ``PHS(...)`` for a dictionary in the format (module
    docstring): SymPy matrices and Hamiltonian, names, parameters.  Expressions go
    through the safe parser; a problem raises :class:`SchemaError` naming the key."""
    from .expr import parameter_symbol, parse_expression, state_symbol

    if not isinstance(data, Mapping):
        raise SchemaError("a PHS dictionary must be a mapping with keys states, inputs, J, ...")
    allowed = {"name", "states", "inputs", "outputs", "hamiltonian", "Q", "parameters",
               *MATRIX_NAMES}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise SchemaError(
            f"unknown key(s) {', '.join(unknown)}; expected: {', '.join(sorted(allowed))}"
        )
    states = list(data.get("states") or [])
    inputs = list(data.get("inputs") or [])
    params_raw = dict(data.get("parameters") or {})
    names: dict[str, sp.Symbol] = {p: parameter_symbol(p, v) for p, v in params_raw.items()}
    names.update({s: state_symbol(s) for s in states})

    def conv(value: Any, where: str) -> sp.Expr:
        if isinstance(value, bool) or value is None:
            raise SchemaError(f"{where}: expected a number or an expression, got {value!r}")
        if isinstance(value, (int, float, sp.Basic)):
            return sp.sympify(value)
        if isinstance(value, str):
            return parse_expression(value, names, where=where)
        raise SchemaError(f"{where}: expected a number or an expression, got {value!r}")

    params: dict[str, Any] = {}
    for p, v in params_raw.items():
        params[p] = None if v is None or v == "symbolic" else conv(v, f"parameters.{p}")

    def matrix(key: str) -> sp.ImmutableMatrix | None:
        rows = data.get(key)
        if rows is None or rows == []:
            return None
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise SchemaError(f"{key}: expected a list of rows (a list of lists)")
        return sp.ImmutableMatrix(
            [[conv(v, f"{key}[{i}][{j}]") for j, v in enumerate(r)] for i, r in enumerate(rows)]
        )

    mats = {k: matrix(k) for k in MATRIX_NAMES}
    n, m = len(states), len(inputs)
    shapes = {"J": (n, n), "R": (n, n), "G": (n, m), "P": (n, m), "M": (m, m), "S": (m, m)}
    for k, A in mats.items():
        if A is not None and A.shape != shapes[k]:
            raise SchemaError(
                f"{k} has shape {A.shape[0]}×{A.shape[1]}; with {n} states and {m} inputs "
                f"it must be {shapes[k][0]}×{shapes[k][1]}"
            )
    if data.get("hamiltonian") is not None:
        H = conv(data["hamiltonian"], "hamiltonian")
    elif data.get("Q") is not None:
        Q = matrix("Q")
        xs = sp.Matrix([names[s] for s in states])
        H = sp.Rational(1, 2) * (xs.T * Q * xs)[0, 0]
    else:
        raise SchemaError("a PHS needs 'hamiltonian' (an expression) or 'Q' (a matrix)")
    mats = {k: (A if A is not None else sp.ImmutableMatrix.zeros(*shapes[k]))
            for k, A in mats.items()}
    return {**mats, "hamiltonian": H, "states": states, "inputs": inputs,
            "outputs": data.get("outputs") or None, "parameters": params,
            "name": str(data.get("name") or "")}


def phs_to_latex(sys: Any, max_size: int = 12) -> str:
    r"""LaTeX of the model: :math:`\dot x = (J-R)\nabla H + (G-P)u`, ... with the matrices."""
    if sys.n_states > max_size:
        return (
            rf"$\text{{PHS {sys.name}}}: {sys.n_states}\ \text{{states}}, "
            rf"{sys.n_inputs}\ \text{{ports}}\ ({sys.kind})$"
        )
    L = sp.latex
    mats = sys.matrices()
    if not sys.symbolic:
        if sys.n_states > _DENSE_LIMIT:
            raise ModelError("too large for a symbolic view; use the numeric matrices")
        mats = {k: sp.ImmutableMatrix(mx.to_dense(A)) for k, A in mats.items()}
    x = sp.Matrix(sys.state_symbols)
    u = sp.Matrix(sys.input_symbols)
    parts = [
        rf"\dot{{{L(x)}}} &= \left({L(mats['J'])} - {L(mats['R'])}\right) \nabla H"
        + (rf" + \left({L(mats['G'])} - {L(mats['P'])}\right){L(u)}" if sys.n_inputs else ""),
    ]
    if sys.n_inputs:
        parts.append(
            rf"{L(sp.Matrix([sp.Symbol(o) for o in sys.outputs]))} &= "
            rf"\left({L(mats['G'])} + {L(mats['P'])}\right)^\top \nabla H + "
            rf"\left({L(mats['M'])} + {L(mats['S'])}\right){L(u)}"
        )
    parts.append(rf"H &= {L(sys.hamiltonian)}")
    return r"$$\begin{aligned}" + r"\\ ".join(parts) + r"\end{aligned}$$"
