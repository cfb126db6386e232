"""Symbolic (SymPy) state-space matrices of a linearized PHS, parameters kept as symbols.

At an operating point :math:`(x_0, u_0)` the exact Jacobians of
:math:`f = (J-R)\nabla H + (G-P)u` and :math:`h = (G+P)^\top\nabla H + (M+S)u` give
:math:`A = \\partial f/\\partial x`, :math:`B = \\partial f/\\partial u`,
:math:`C = \\partial h/\\partial x`, :math:`D = \\partial h/\\partial u`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError
from ..phs import PHS
from .selection import Selector, output_tokens, positions


def sym_numbers(M: np.ndarray) -> sp.Matrix:
    """Floats to SymPy numbers, integers kept exact (readable rational functions)."""
    return sp.Matrix(M.shape[0], M.shape[1],
                     [sp.Integer(int(v)) if float(v).is_integer() else sp.Float(v)
                      for v in np.asarray(M, dtype=float).ravel()])


def symbolic_state_space(phs: PHS, x0: Any = None, u0: Any = None, inputs: Selector = None,
                         outputs: Selector = None
                         ) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix, sp.Matrix]:
    """Exact ``(A, B, C, D)`` of a symbolic PHS at ``(x0, u0)``, parameters kept as symbols.

    ``inputs``/``outputs`` select as in :meth:`LinearSystem.select`.  No parameter value
    is needed; ``x0`` (default: the origin) must be an equilibrium for ``u0``.
    """
    cols = positions(inputs, phs.inputs, "input")
    tokens = output_tokens(outputs, phs.outputs, phs.states, has_h=True)
    return symbolic_quadruple(phs, x0, u0, cols, tokens)


def symbolic_quadruple(phs: PHS, x0: Any, u0: Any, cols: Sequence[int],
                        tokens: Sequence[tuple[str, int]]
                        ) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix, sp.Matrix]:
    x = sp.Matrix(phs.state_symbols)
    u = sp.Matrix(phs.input_symbols)
    mats = phs.matrices()
    z = phs.gradient_expr
    f = (mats["J"] - mats["R"]) * z + (mats["G"] - mats["P"]) * u
    h = (mats["G"] + mats["P"]).T * z + (mats["M"] + mats["S"]) * u
    at = {**dict(zip(phs.state_symbols, _exact(x0, phs.n_states), strict=True)),
          **dict(zip(phs.input_symbols, _exact(u0, phs.n_inputs), strict=True))}
    f0 = f.xreplace(at).applyfunc(sp.simplify)
    for name, val in zip(phs.states, f0, strict=True):
        if val != 0:
            raise ModelError(
                f"the operating point is not an equilibrium: d{name}/dt = {val}; give x0 "
                "with ẋ = 0 for u0"
            )

    def jac(expr: sp.Matrix, v: sp.Matrix) -> sp.Matrix:
        if not len(expr) or not len(v):
            return sp.zeros(len(expr), len(v))
        return expr.jacobian(v).xreplace(at).applyfunc(sp.simplify)

    A, B, C, D, Hxx = jac(f, x), jac(f, u), jac(h, x), jac(h, u), jac(z, x)
    n = phs.n_states
    rows_C = [C[i, :] if k == "y" else sp.eye(n)[i, :] if k == "x" else Hxx[i, :]
              for k, i in tokens]
    rows_D = [D[i, :] if k == "y" else sp.zeros(1, D.shape[1]) for k, i in tokens]
    Cs = sp.Matrix.vstack(*rows_C) if rows_C else sp.zeros(0, n)
    Ds = sp.Matrix.vstack(*rows_D) if rows_D else sp.zeros(0, D.shape[1])
    return A, B[:, list(cols)], Cs, Ds[:, list(cols)]


def _exact(v: Any, n: int) -> list[sp.Expr]:
    """Operating-point values as exact SymPy numbers (SymPy entries are kept as given)."""
    if v is None:
        return [sp.Integer(0)] * n
    items = list(np.asarray(v, dtype=object).reshape(n))
    return [a if isinstance(a, sp.Basic) else _exact_number(float(a)) for a in items]


def _exact_number(v: float) -> sp.Expr:
    # a rational multiple of π (θ = π for an inverted pendulum) when that is what v is,
    # so that sin/cos at the operating point simplify exactly; else the decimal rational
    guess = sp.nsimplify(v, [sp.pi], tolerance=1e-12)
    ratio = guess / sp.pi
    if v != 0 and ratio.is_Rational and ratio.q <= 1000:
        return guess
    return sp.nsimplify(v, rational=True)
