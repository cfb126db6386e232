"""The ``parameters`` section: names, values, and expressions in other parameters.

Conventions
-----------
- Each parameter is the symbol ``Symbol(name, positive=True)``
  (:func:`porthamiltonian.expr.parameter_symbol`): physical parameters are
  positive, which lets SymPy simplify ``sqrt(k**2)`` to ``k``.  A parameter whose
  value is zero or negative (an offset, an initial value) gets a plain real symbol
  instead, so no simplification assumes a sign it does not have.
- A value is a number, or an expression in other parameters (``"2*k"``); order
  does not matter, cycles are reported.  ``null`` or the text ``symbolic``
  keeps the parameter as a free symbol, and expressions in it stay symbolic.
- A value may carry a unit (``L: 10 mH``, ``w: 3000 rpm``, ``{value: 10, unit: mH}``;
  :mod:`.units`): it is converted to SI on load, and the parameter's dimension is kept
  in ``ck.units`` (also for a parameter given as an expression in such parameters,
  ``L2: "2*L"``) so that the model sections can check how it is used.  Plain numbers
  are SI and carry no dimension.
- Model expressions elsewhere are written in terms of the *symbols*; the values
  are substituted later (``Model.parameter_values()``).
"""

from __future__ import annotations

from typing import Any

import sympy

from ..expr import parameter_symbol
from .schema import Checker, KeyPath
from .units import DimensionMismatch, dimension_of

__all__ = ["check_parameters"]

SYMBOLIC = "symbolic"


def check_parameters(ck: Checker, data: Any, path: KeyPath = ("parameters",)) -> None:
    """Check the parameters and store them in ``ck.symbols`` and ``ck.values``."""
    if data is None:
        return
    label = "parameters"
    mapping = ck.mapping(data, path, label)
    if mapping is None:
        return
    raw: dict[str, Any] = {}
    for key, value in mapping.items():
        name = ck.identifier(key, (*path, key), label, "parameter")
        if name is not None:
            raw[name] = value
            ck.symbols[name] = parameter_symbol(name)
    # First pass: parse against the symbols to learn who depends on whom.
    parsed: dict[str, sympy.Expr] = {}
    for name, value in raw.items():
        if value is None or value == SYMBOLIC:
            continue
        expr = ck.expression(value, (*path, name), f"parameters.{name}", ck.symbols)
        if expr is not None:
            parsed[name] = expr
    order = _order(ck, parsed, path)
    # Second pass, in dependency order: parse against the values already known, so the
    # safe parser sees (and bounds) the numbers instead of SymPy evaluating them later.
    values: dict[str, sympy.Expr] = {n: s for n, s in ck.symbols.items()}
    for name in order:
        expr = ck.expression(raw[name], (*path, name), f"parameters.{name}", values)
        if expr is None:
            continue
        ck.symbols[name] = parameter_symbol(name, expr)
        values[name] = expr
    ck.values = values
    _dimensions(ck, raw, parsed, order, path)


def _dimensions(ck: Checker, raw: dict[str, Any], parsed: dict[str, sympy.Expr],
                order: list[str], path: KeyPath) -> None:
    """``ck.units``: the dimension of each parameter given with a unit, and of each
    expression in such parameters (in dependency order)."""
    for name in raw:
        given = ck.quantities.get((*path, name))
        if given is not None:
            ck.units[name] = (given.dim, given.text)
    if not ck.units:
        return
    for name in order:
        if name in ck.units or name not in parsed:
            continue
        dims = {}
        for other, (dim, _) in ck.units.items():
            dims[parameter_symbol(other)] = dims[ck.symbols[other]] = dim
        try:
            dim = dimension_of(parsed[name], dims)
        except DimensionMismatch as err:
            ck.error((*path, name), f"parameters.{name}", str(err))
            continue
        if dim is not None:
            ck.units[name] = (dim, str(raw[name]))


def _order(ck: Checker, parsed: dict[str, sympy.Expr], path: KeyPath) -> list[str]:
    """Parameters in an order where each comes after those it uses; cycles reported."""
    deps = {
        name: sorted(str(s) for s in expr.free_symbols if str(s) in parsed)
        for name, expr in parsed.items()
    }
    done: list[str] = []
    state: dict[str, int] = {}  # 1 = in progress, 2 = done
    reported: set[str] = set()

    def visit(name: str, stack: list[str]) -> bool:
        if state.get(name) == 2:
            return True
        if state.get(name) == 1:
            cycle = stack[stack.index(name) :] + [name]
            if not reported.intersection(cycle):
                reported.update(cycle)
                ck.error(
                    (*path, cycle[0]),
                    f"parameters.{cycle[0]}",
                    f"parameters refer to each other in a cycle ({' -> '.join(cycle)}); "
                    "give one of them a number",
                )
            return False
        state[name] = 1
        ok = all([visit(d, [*stack, name]) for d in deps[name]])
        state[name] = 2
        if ok and name not in reported:
            done.append(name)
        return ok and name not in reported

    for name in parsed:
        visit(name, [])
    return done
