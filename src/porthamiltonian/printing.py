"""Printing SymPy expressions for model files, JSON and LaTeX.

Strings written by :func:`expr_to_str` are read back by the safe parser
(:mod:`porthamiltonian.expr`), so they use its function names (``abs`` rather
than SymPy's ``Abs``, ``heaviside`` rather than ``Heaviside``).
"""

from __future__ import annotations

from typing import Any

import sympy as sp
from sympy.printing.str import StrPrinter


class _ModelPrinter(StrPrinter):
    """A SymPy printer whose output the safe expression parser accepts."""

    _default_settings = {**StrPrinter._default_settings, "full_prec": False}

    def _print_Abs(self, expr: sp.Abs) -> str:
        return f"abs({self._print(expr.args[0])})"

    def _print_Heaviside(self, expr: Any) -> str:
        return f"heaviside({self._print(expr.args[0])})"

    def _print_Min(self, expr: Any) -> str:
        return "min(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Max(self, expr: Any) -> str:
        return "max(" + ", ".join(self._print(a) for a in expr.args) + ")"

    def _print_Exp1(self, expr: Any) -> str:
        return "exp(1)"

    def _print_ImaginaryUnit(self, expr: Any) -> str:  # pragma: no cover - never in a model
        raise ValueError("complex numbers cannot be written to a model file")


_PRINTER = _ModelPrinter()


def expr_to_str(expr: Any) -> str:
    """Text form of a SymPy expression that :func:`porthamiltonian.expr.parse_expression` reads."""
    return _PRINTER.doprint(sp.sympify(expr))


def entry_to_json(value: Any) -> float | int | str:
    """A number when the entry has no symbols, else its text form."""
    v = sp.sympify(value)
    if not v.free_symbols:
        if v.is_Integer:
            return int(v)
        if v.is_number:
            return float(v)
    return expr_to_str(v)
