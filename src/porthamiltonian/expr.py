"""Safe parser for the expressions written in model files.

Model files contain formulas as text (``"k*K1**2/2"``, ``"sin(2*pi*50*t)"``).
They are never given to ``eval``, ``exec``, ``sympy.sympify`` or
``sympy.parse_expr``.  Instead the text is parsed with :func:`ast.parse` and the
syntax tree is walked with a whitelist: only numbers, known names, the
arithmetic operators ``+ - * / **`` and calls of a fixed set of mathematical
functions are turned into SymPy objects; anything else raises
:class:`~porthamiltonian.errors.ExpressionError` pointing at the offending part.

Conventions
-----------
- ``names`` maps every identifier the caller allows (parameter names, state
  names such as ``C1`` and indexed ones such as ``C1[0]``) to its symbol.
  ``C1[0]`` is written as a subscript in the text and looked up as the name
  ``"C1[0]"``.  A dotted name such as ``sub.C1`` (or ``C1.q[0]``, indexed) is accepted
  only when the whole dotted name is a key of ``names``; any other attribute access is
  rejected.
- ``pi`` is always :data:`sympy.pi`; ``t`` (time, in s) is allowed only with
  ``allow_t=True`` and is the symbol :data:`T`.
- ``log`` is the natural logarithm; ``heaviside`` (alias ``step``) is
  :class:`sympy.Heaviside` (value 1/2 at 0);
  ``reaction_conductance(A_f, A_b, kappa, RT)`` is a chemical Re element's log-mean
  conductance (:class:`porthamiltonian.special.reaction_conductance`), so that a
  ``phs --json`` of a chemical bond graph reads back.
- Arithmetic that could exhaust time or memory is refused before SymPy
  evaluates it: exponents that are numbers larger than :data:`MAX_EXPONENT` in
  magnitude; constant sub-expressions whose value overflows a double
  (``9**9**9**9``, ``exp(exp(100))``, about 1.8e308) or is not real
  (``log(-1)``); exact numbers with more than :data:`MAX_DIGITS` digits;
  integer literals with more than :data:`MAX_LITERAL_DIGITS` digits; texts
  longer than :data:`MAX_LENGTH` characters; nesting deeper than
  :data:`MAX_DEPTH` (a long flat sum or product is not deep).
"""

from __future__ import annotations

import ast
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import NamedTuple

import sympy

from .errors import ExpressionError
from .special import conductance_value, reaction_conductance

__all__ = [
    "T",
    "FUNCTIONS",
    "RESERVED",
    "MAX_LENGTH",
    "MAX_DEPTH",
    "MAX_EXPONENT",
    "MAX_DIGITS",
    "MAX_LITERAL_DIGITS",
    "parse_expression",
    "parameter_symbol",
    "state_symbol",
    "shorten",
]

#: The time symbol ``t`` (in s), available when ``allow_t=True``.
T = sympy.Symbol("t", real=True)

MAX_LENGTH = 2000
MAX_DEPTH = 50
MAX_EXPONENT = 1000
MAX_DIGITS = 1000
MAX_LITERAL_DIGITS = 100


@dataclass(frozen=True)
class _Function:
    """A callable function: its SymPy builder, float twin (for constants) and arity."""

    build: Callable[..., sympy.Expr]
    approx: Callable[..., float]
    min_args: int = 1
    max_args: int | None = 1  # None: no upper bound

    def arity(self) -> str:
        if self.max_args == self.min_args:
            return f"{self.min_args} argument{'s' if self.min_args != 1 else ''}"
        return f"at least {self.min_args} arguments"


def _sign(x: float) -> float:
    return float((x > 0) - (x < 0))


def _step(x: float) -> float:
    return 0.5 if x == 0 else float(x > 0)


#: Functions a model-file expression may call, by the name used in the text.
FUNCTIONS: dict[str, _Function] = {
    "sin": _Function(sympy.sin, math.sin),
    "cos": _Function(sympy.cos, math.cos),
    "tan": _Function(sympy.tan, math.tan),
    "asin": _Function(sympy.asin, math.asin),
    "acos": _Function(sympy.acos, math.acos),
    "atan": _Function(sympy.atan, math.atan),
    "atan2": _Function(sympy.atan2, math.atan2, 2, 2),
    "sinh": _Function(sympy.sinh, math.sinh),
    "cosh": _Function(sympy.cosh, math.cosh),
    "tanh": _Function(sympy.tanh, math.tanh),
    "asinh": _Function(sympy.asinh, math.asinh),
    "acosh": _Function(sympy.acosh, math.acosh),
    "atanh": _Function(sympy.atanh, math.atanh),
    "exp": _Function(sympy.exp, math.exp),
    "log": _Function(sympy.log, math.log),
    "sqrt": _Function(sympy.sqrt, math.sqrt),
    "abs": _Function(sympy.Abs, abs),
    "sign": _Function(sympy.sign, _sign),
    "min": _Function(sympy.Min, min, 2, None),
    "max": _Function(sympy.Max, max, 2, None),
    "heaviside": _Function(sympy.Heaviside, _step),
    "step": _Function(sympy.Heaviside, _step),
    "floor": _Function(sympy.floor, math.floor),
    "ceil": _Function(sympy.ceiling, math.ceil),
    # the Re element's conductance (mol²/(J·s)), as `phs --json` prints it (special.py)
    "reaction_conductance": _Function(reaction_conductance, conductance_value, 4, 4),
}

#: Identifiers with a fixed meaning; a parameter or element may not use them.
RESERVED: frozenset[str] = frozenset(FUNCTIONS) | {"t", "pi"}

_BINOPS: dict[type, str] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}

_BAD_BINOPS: dict[type, str] = {
    ast.BitXor: "'^' is not a power operator; use '**'",
    ast.MatMult: "'@' (matrix multiplication) is not allowed",
    ast.FloorDiv: "'//' is not allowed; use floor(a / b)",
    ast.Mod: "'%' is not allowed",
    ast.BitAnd: "bitwise '&' is not allowed",
    ast.BitOr: "bitwise '|' is not allowed",
    ast.LShift: "bit shift '<<' is not allowed",
    ast.RShift: "bit shift '>>' is not allowed",
}

_BAD_NODES: dict[type, str] = {
    ast.Attribute: "attribute access is not allowed",
    ast.Lambda: "lambda expressions are not allowed",
    ast.ListComp: "comprehensions are not allowed",
    ast.SetComp: "comprehensions are not allowed",
    ast.DictComp: "comprehensions are not allowed",
    ast.GeneratorExp: "generator expressions are not allowed",
    ast.JoinedStr: "f-strings are not allowed",
    ast.FormattedValue: "f-strings are not allowed",
    ast.Compare: "comparisons are not allowed; use heaviside(), min() or max()",
    ast.BoolOp: "boolean operators (and, or) are not allowed",
    ast.IfExp: "conditional expressions are not allowed; use heaviside(), min() or max()",
    ast.NamedExpr: "assignment (':=') is not allowed",
    ast.Yield: "'yield' is not allowed",
    ast.YieldFrom: "'yield' is not allowed",
    ast.Await: "'await' is not allowed",
    ast.List: "lists are not allowed in an expression",
    ast.Tuple: "tuples are not allowed in an expression",
    ast.Set: "sets are not allowed in an expression",
    ast.Dict: "dicts are not allowed in an expression",
    ast.Starred: "'*' unpacking is not allowed",
    ast.Slice: "slices are not allowed",
}


def parameter_symbol(name: str, value: object = None) -> sympy.Symbol:
    """The symbol of a model parameter whose value is ``value`` (``None``: symbolic).

    Physical parameters (masses, stiffnesses, resistances, ...) are positive, so
    the symbol carries ``positive=True``, which lets SymPy simplify ``sqrt(k**2)``
    to ``k``.  A parameter whose value is a number ``≤ 0`` (an offset, an initial
    position) gets a plain real symbol instead, so no simplification assumes a sign
    it does not have.  The whole package makes parameter symbols here, so symbols of
    the same parameter compare equal everywhere.
    """
    v = sympy.sympify(value) if isinstance(value, (int, float, sympy.Basic)) else None
    if isinstance(value, bool) or v is None or not v.is_number or v.is_positive:
        return sympy.Symbol(name, positive=True)
    return sympy.Symbol(name, real=True)


def state_symbol(name: str) -> sympy.Symbol:
    """The symbol of a state, input or output variable (``"C1"``, ``"C1[0]"``): real."""
    return sympy.Symbol(name, real=True)


def parse_expression(
    text: str | int | float,
    names: Mapping[str, sympy.Expr],
    *,
    where: str = "expression",
    allow_t: bool = False,
) -> sympy.Expr:
    """Parse a model-file expression into a SymPy expression, safely.

    Parameters
    ----------
    text:
        The expression (``"k*K1**2/2"``) or a plain number.
    names:
        Every identifier the expression may use, mapped to its symbol.  Indexed
        names are keys like ``"C1[0]"``.
    where:
        What the expression is (``"bondgraph.elements[2] (C1).c"``); every error
        message starts with it.
    allow_t:
        Whether the time ``t`` (the symbol :data:`T`) may appear.

    Returns
    -------
    sympy.Expr
        The expression; integers stay exact (``1/3`` is ``Rational(1, 3)``),
        decimal numbers become :class:`sympy.Float`.

    Raises
    ------
    ExpressionError
        If the text is empty, too long, not valid syntax, or uses anything but
        numbers, allowed names, ``+ - * / **`` and the functions in
        :data:`FUNCTIONS`; or if it would build an unreasonably large number.
    """
    if isinstance(text, bool) or not isinstance(text, (str, int, float)):
        raise ExpressionError(
            f"{where}: expected an expression (text or number), got {type(text).__name__} "
            f"{shorten(repr(text))}"
        )
    if isinstance(text, int):
        if abs(text) >= 10**MAX_LITERAL_DIGITS:
            raise ExpressionError(f"{where}: the integer has more than {MAX_LITERAL_DIGITS} digits")
        return sympy.Integer(text)
    if isinstance(text, float):
        if not math.isfinite(text):
            raise ExpressionError(f"{where}: {text!r} is not a finite number")
        return sympy.Float(text)
    return _Builder(text, names, where, allow_t).run()


def shorten(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters for an error message (a user's input is
    quoted, never echoed whole)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _V(NamedTuple):
    """A built sub-expression and, when it is a constant, its value as a float.

    The float twin is computed with :mod:`math` *before* SymPy sees the numbers,
    so constants that would overflow a double (``exp(exp(100))``, ``9**9**9``)
    are refused instead of being handed to SymPy, which may try to evaluate them
    exactly and never finish.
    """

    expr: sympy.Expr
    num: float | None


class _Builder:
    """Walks the syntax tree of one expression and builds the SymPy object."""

    def __init__(
        self, text: str, names: Mapping[str, sympy.Expr], where: str, allow_t: bool
    ) -> None:
        self.text = text.strip()
        self.names = names
        self.where = where
        self.allow_t = allow_t

    def fail(self, message: str, node: ast.AST | None = None) -> ExpressionError:
        at = ""
        if node is not None and hasattr(node, "col_offset"):
            segment = ast.get_source_segment(self.text, node) or ""
            at = f" (column {node.col_offset + 1}: {shorten(segment, 40)!r})"
        return ExpressionError(f"{self.where}: {message}{at} in {shorten(self.text)!r}")

    def run(self) -> sympy.Expr:
        if not self.text:
            raise ExpressionError(
                f"{self.where}: the expression is empty; write a number or formula"
            )
        if len(self.text) > MAX_LENGTH:
            raise ExpressionError(
                f"{self.where}: the expression is {len(self.text)} characters long; "
                f"at most {MAX_LENGTH} are allowed"
            )
        try:
            tree = ast.parse(self.text, mode="eval")
        except SyntaxError as err:
            col = f" at column {err.offset}" if err.offset else ""
            line = f" line {err.lineno}" if err.lineno and err.lineno > 1 else ""
            raise ExpressionError(
                f"{self.where}: syntax error{line}{col} ({err.msg}) in {shorten(self.text)!r}"
            ) from None
        except (ValueError, MemoryError, RecursionError) as err:
            raise ExpressionError(
                f"{self.where}: cannot parse {shorten(self.text)!r}: {err}"
            ) from None
        return self.build(tree.body, 1).expr

    # -- dispatch -----------------------------------------------------------------------
    def build(self, node: ast.AST, depth: int) -> _V:
        if depth > MAX_DEPTH:
            raise self.fail(f"the expression is nested deeper than {MAX_DEPTH} levels", node)
        if isinstance(node, ast.Constant):
            return self.constant(node)
        if isinstance(node, ast.Name):
            return self.lookup(node.id, node)
        if isinstance(node, ast.BinOp):
            return self.binop(node, depth)
        if isinstance(node, ast.UnaryOp):
            return self.unary(node, depth)
        if isinstance(node, ast.Call):
            return self.call(node, depth)
        if isinstance(node, ast.Subscript):
            return self.subscript(node)
        if isinstance(node, ast.Attribute):
            return self.dotted(node)
        message = _BAD_NODES.get(type(node), f"{type(node).__name__} is not allowed")
        raise self.fail(message, node)

    def number(self, expr: sympy.Expr, num: float | None, node: ast.AST) -> _V:
        """Wrap a result, refusing constants a double cannot hold (or not real)."""
        if num is not None and not math.isfinite(num):
            raise self.fail("the number is too large", node)
        if expr.is_Rational:
            bits = max(int(expr.p).bit_length(), int(expr.q).bit_length())
            if bits > MAX_DIGITS * 3.33:
                raise self.fail(f"the number has more than {MAX_DIGITS} digits", node)
        return _V(expr, num)

    def approx(self, node: ast.AST, f: Callable[..., float], *args: float) -> float:
        """Evaluate ``f(*args)`` in floating point, turning failures into messages."""
        try:
            value = f(*args)
        except OverflowError:
            raise self.fail("the number is too large", node) from None
        except ZeroDivisionError:
            raise self.fail("division by zero", node) from None
        except ValueError:
            raise self.fail(
                "the value is not a real number (outside the function's domain)", node
            ) from None
        if isinstance(value, complex):
            raise self.fail("the value is not a real number", node)
        return float(value)

    # -- leaves -------------------------------------------------------------------------
    def constant(self, node: ast.Constant) -> _V:
        value = node.value
        if isinstance(value, bool) or value is None or value is Ellipsis:
            raise self.fail(f"{value!r} is not a number", node)
        if isinstance(value, (str, bytes)):
            raise self.fail("strings are not allowed in an expression", node)
        if isinstance(value, complex):
            raise self.fail("complex numbers are not allowed", node)
        if isinstance(value, int):
            if abs(value) >= 10**MAX_LITERAL_DIGITS:
                raise self.fail(f"integer literal with more than {MAX_LITERAL_DIGITS} digits", node)
            return _V(sympy.Integer(value), float(value))
        if isinstance(value, float):
            return self.number(sympy.Float(value), value, node)
        raise self.fail(f"constant of type {type(value).__name__} is not allowed", node)

    def lookup(self, name: str, node: ast.AST) -> _V:
        if name.startswith("__"):
            raise self.fail(f"the name {name!r} is not allowed (dunder names are reserved)", node)
        if name in self.names:
            expr = (
                sympy.sympify(self.names[name])
                if isinstance(self.names[name], (int, float))
                else self.names[name]
            )
            num = None
            if expr.is_number:
                num = self.approx(node, float, expr)
            return _V(expr, num)
        if name == "pi":
            return _V(sympy.pi, math.pi)
        if name == "t":
            if self.allow_t:
                return _V(T, None)
            raise self.fail("the time 't' is not allowed here; this value must be constant", node)
        if name in FUNCTIONS:
            raise self.fail(f"function {name!r} must be called, e.g. {name}(x)", node)
        raise self.fail(f"unknown name {name!r}; allowed names: {self.allowed_names()}", node)

    def allowed_names(self) -> str:
        listed = sorted(self.names)
        if len(listed) > 30:
            listed = [*listed[:30], f"... ({len(listed) - 30} more)"]
        return ", ".join([*listed, "pi", *(["t"] if self.allow_t else [])])

    def subscript(self, node: ast.Subscript) -> _V:
        index = node.slice
        if isinstance(index, ast.Slice):
            raise self.fail("slices are not allowed", node)
        base = _dotted_name(node.value)
        if base is None:
            raise self.fail("only a name may be indexed, like C1[0]", node)
        if not (
            isinstance(index, ast.Constant)
            and isinstance(index.value, int)
            and not isinstance(index.value, bool)
            and 0 <= index.value < 10**9
        ):
            raise self.fail("an index must be a non-negative integer, like C1[0]", node)
        full = f"{base}[{index.value}]"
        if "." in base and (full not in self.names or "__" in base):
            raise self.fail(_BAD_NODES[ast.Attribute], node)
        return self.lookup(full, node)

    def dotted(self, node: ast.Attribute) -> _V:
        full = _dotted_name(node)
        if full is not None and full in self.names and "__" not in full:
            return self.lookup(full, node)
        raise self.fail(_BAD_NODES[ast.Attribute], node)

    # -- operators ----------------------------------------------------------------------
    def binop(self, node: ast.BinOp, depth: int) -> _V:
        op = type(node.op)
        if op in _BAD_BINOPS:
            raise self.fail(_BAD_BINOPS[op], node)
        if op is ast.Pow:
            return self.power(
                self.build(node.left, depth + 1), self.build(node.right, depth + 1), node
            )
        # Flatten left-leaning chains (a + b - c + ...) so a long sum does not count as deep.
        family = (ast.Add, ast.Sub) if op in (ast.Add, ast.Sub) else (ast.Mult, ast.Div)
        chain: list[tuple[type, ast.AST]] = []
        current: ast.AST = node
        while isinstance(current, ast.BinOp) and isinstance(current.op, family):
            chain.append((type(current.op), current.right))
            current = current.left
        first = self.build(current, depth + 1)
        terms, num = [first.expr], first.num
        for kind, operand in reversed(chain):
            value = self.build(operand, depth + 1)
            if kind is ast.Div:
                if value.expr == 0:
                    raise self.fail("division by zero", operand)
                value = self.power(value, _V(sympy.Integer(-1), -1.0), operand)
            elif kind is ast.Sub:
                value = _V(-value.expr, None if value.num is None else -value.num)
            terms.append(value.expr)
            if num is not None and value.num is not None:
                num = num + value.num if family[0] is ast.Add else num * value.num
            else:
                num = None
            if num is not None and not math.isfinite(num):
                raise self.fail("the number is too large", node)
        expr = sympy.Add(*terms) if family[0] is ast.Add else sympy.Mul(*terms)
        return self.number(expr, num, node)

    def unary(self, node: ast.UnaryOp, depth: int) -> _V:
        if isinstance(node.op, ast.Not):
            raise self.fail("'not' is not allowed", node)
        if isinstance(node.op, ast.Invert):
            raise self.fail("bitwise '~' is not allowed", node)
        operand = self.build(node.operand, depth + 1)
        if isinstance(node.op, ast.USub):
            return _V(-operand.expr, None if operand.num is None else -operand.num)
        return operand

    def power(self, base: _V, exponent: _V, node: ast.AST) -> _V:
        if exponent.expr.is_Number and abs(exponent.expr) > MAX_EXPONENT:
            raise self.fail(
                f"the exponent {shorten(str(exponent.expr), 20)} is larger than {MAX_EXPONENT} "
                "in magnitude",
                node,
            )
        num = None
        if base.num is not None and exponent.num is not None:
            if base.num == 0 and exponent.num < 0:
                raise self.fail("division by zero", node)
            num = self.approx(node, math.pow, base.num, exponent.num)
            if base.expr.is_Rational and base.expr not in (0, 1, -1):
                p, q = abs(int(base.expr.p)), int(base.expr.q)
                digits = max(_log10(p), _log10(q)) * abs(exponent.num)
                if digits > MAX_DIGITS:
                    raise self.fail(
                        f"the power has about {digits:.0f} digits; at most "
                        f"{MAX_DIGITS} are allowed",
                        node,
                    )
        result = sympy.Pow(base.expr, exponent.expr)
        # SymPy folds (p**999)**999 into p**998001: check the power it built, too
        if result.is_Pow and result.exp.is_Number and abs(result.exp) > MAX_EXPONENT:
            raise self.fail(
                f"the power simplifies to an exponent of {shorten(str(result.exp), 20)}, larger "
                f"than {MAX_EXPONENT} in magnitude",
                node,
            )
        return self.number(result, num, node)

    # -- calls --------------------------------------------------------------------------
    def call(self, node: ast.Call, depth: int) -> _V:
        func = node.func
        if isinstance(func, ast.Attribute):
            raise self.fail(_BAD_NODES[ast.Attribute], func)
        if not isinstance(func, ast.Name):
            raise self.fail("only the allowed functions may be called, by plain name", node)
        spec = FUNCTIONS.get(func.id)
        if spec is None:
            raise self.fail(
                f"function {func.id!r} is not allowed; allowed functions: {', '.join(FUNCTIONS)}",
                func,
            )
        if node.keywords:
            raise self.fail(f"{func.id}() does not take keyword arguments", node)
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise self.fail("'*' unpacking is not allowed", node)
        n = len(node.args)
        if n < spec.min_args or (spec.max_args is not None and n > spec.max_args):
            raise self.fail(f"{func.id}() takes {spec.arity()}, got {n}", node)
        args = [self.build(a, depth + 1) for a in node.args]
        num = None
        if all(a.num is not None for a in args):
            num = self.approx(node, spec.approx, *(a.num for a in args))
        return self.number(spec.build(*(a.expr for a in args)), num, node)


def _dotted_name(node: ast.AST) -> str | None:
    """``a.b.c`` for a chain of attributes on a name (``C1.q``, ``motor.La``), else ``None``."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def _log10(n: int) -> float:
    """log10 of a positive integer of any size (without converting it to float)."""
    bits = n.bit_length()
    if bits < 1000:
        return math.log10(n)
    return math.log10(n >> (bits - 53)) + (bits - 53) * math.log10(2)
