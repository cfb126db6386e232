"""The safe expression parser: valid formulas give the right SymPy, hostile text is refused."""

from __future__ import annotations

import pytest
import sympy

from porthamiltonian.errors import ExpressionError
from porthamiltonian.expr import FUNCTIONS, T, parse_expression, state_symbol

k = sympy.Symbol("k", positive=True)
m = sympy.Symbol("m", positive=True)
x = state_symbol("x")
c0 = state_symbol("C1[0]")
c1 = state_symbol("C1[1]")
NAMES = {"k": k, "m": m, "x": x, "C1[0]": c0, "C1[1]": c1}

SENTINEL = "pwned"

# Each of these must raise ExpressionError and have no effect at all.
HOSTILE = [
    f"__import__('os').system('touch {SENTINEL}')",
    f"__import__('os').system('touch {SENTINEL}') or 1",
    "().__class__.__bases__[0].__subclasses__()",
    "().__class__",
    "open('/etc/passwd').read()",
    f"open('{SENTINEL}', 'w').write('x')",
    f"exec(\"open('{SENTINEL}', 'w')\")",
    "eval('1')",
    "compile('1', 'f', 'eval')",
    "globals()",
    "lambda: 1",
    "(lambda: 1)()",
    "[x for x in ()]",
    "{x for x in ()}",
    "(x for x in ())",
    "sin.__globals__",
    "sin.__globals__['__builtins__']",
    "getattr(sin, '__globals__')",
    "x.__class__",
    "__builtins__",
    "__debug__",
    "9**9**9**9",
    "10**10**10",
    "2**100000",
    "x**(10**6)",
    "floor(exp(exp(100)))",
    "1" * 101,
    "f'{x}'",
    "f'{__import__(\"os\")}'",
    "(yield)",
    "x:=1",
    "(x:=1)",
    "'a'*10**9",
    "b'abc'",
    "x if x else k",
    "x < k",
    "x and k",
    "not x",
    "x ^ 2",
    "x @ x",
    "x // 2",
    "x % 2",
    "x << 2",
    "~x",
    "1j",
    "True",
    "None",
    "...",
    "[1, 2]",
    "{'a': 1}",
    "(1, 2)",
    "sin(x=1)",
    "sin(*[x])",
    "max(**{})",
    "sin(x)(1)",
    "C1[0:1]",
    "C1[-1]",
    "C1[x]",
    "sin(x)[0]",
    "foo",
    "t",
    "sin",
    "",
    "   ",
    "1 +",
    "x" + "+x" * 1000,
    "sin(" * 60 + "x" + ")" * 60,
    "-" * 60 + "x",
    "log(0)",
    "1/0",
    "\x00",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_expression_is_rejected_without_effect(text, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ExpressionError) as info:
        parse_expression(text, NAMES, where="params.k")
    assert str(info.value).startswith("params.k: ")
    assert not (tmp_path / SENTINEL).exists()
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "text, fragment",
    [
        ("x^2", "'^' is not a power operator; use '**'"),
        ("sin.__globals__", "attribute access is not allowed"),
        ("foo + 1", "unknown name 'foo'; allowed names: C1[0], C1[1], k, m, x, pi"),
        ("eval('1')", "function 'eval' is not allowed; allowed functions: sin, cos"),
        ("lambda: 1", "lambda expressions are not allowed"),
        ("[x for x in ()]", "comprehensions are not allowed"),
        ("9**9**9**9", "larger than 1000"),
        ("sin(x, 1)", "sin() takes 1 argument, got 2"),
        ("min(x)", "min() takes at least 2 arguments, got 1"),
        ("t + 1", "the time 't' is not allowed here"),
        ("1 + (2", "syntax error"),
        ("k * (x +", "syntax error"),
        ("x" * 2001, "at most 2000"),
        ("sin(" * 60 + "x" + ")" * 60, "nested deeper than 50"),
        ("x if k else 1", "conditional expressions are not allowed"),
        ("sin(x=1)", "keyword arguments"),
    ],
)
def test_messages_name_the_problem(text, fragment):
    with pytest.raises(ExpressionError, match=None) as info:
        parse_expression(text, NAMES)
    assert fragment in str(info.value)


def test_message_points_at_the_offending_part():
    with pytest.raises(ExpressionError) as info:
        parse_expression("k*x + cos(x).real", NAMES, where="bondgraph.elements[2] (C1).c")
    message = str(info.value)
    assert message.startswith("bondgraph.elements[2] (C1).c: attribute access is not allowed")
    assert "column 7" in message and "'cos(x).real'" in message


def test_syntax_error_gives_column():
    with pytest.raises(ExpressionError, match=r"syntax error at column \d+"):
        parse_expression("k * * x", NAMES)


@pytest.mark.parametrize(
    "text, expected",
    [
        ("k*x**2/2", k * x**2 / 2),
        ("k*x**2/2 + m*x**4/4", k * x**2 / 2 + m * x**4 / 4),
        ("1/3", sympy.Rational(1, 3)),
        ("2.5e-3", sympy.Float(2.5e-3)),
        ("-x + +k", -x + k),
        ("x - k - m", x - k - m),
        ("k / m / x", k / (m * x)),
        ("(k + m) * x", (k + m) * x),
        ("2**-1", sympy.Rational(1, 2)),
        ("sin(x) + cos(x) + tan(x)", sympy.sin(x) + sympy.cos(x) + sympy.tan(x)),
        ("asin(x)*acos(x)*atan(x)", sympy.asin(x) * sympy.acos(x) * sympy.atan(x)),
        ("atan2(x, k)", sympy.atan2(x, k)),
        ("sinh(x)+cosh(x)+tanh(x)", sympy.sinh(x) + sympy.cosh(x) + sympy.tanh(x)),
        ("asinh(x)+acosh(x)+atanh(x)", sympy.asinh(x) + sympy.acosh(x) + sympy.atanh(x)),
        ("exp(x) * log(k)", sympy.exp(x) * sympy.log(k)),
        ("sqrt(k*m)", sympy.sqrt(k * m)),
        ("abs(x) * sign(x)", sympy.Abs(x) * sympy.sign(x)),
        ("min(x, k, 1) + max(x, m)", sympy.Min(x, k, 1) + sympy.Max(x, m)),
        ("heaviside(x) + step(x - 1)", sympy.Heaviside(x) + sympy.Heaviside(x - 1)),
        ("floor(x) + ceil(x)", sympy.floor(x) + sympy.ceiling(x)),
        ("C1[0]*C1[1]", c0 * c1),
        ("2*pi", 2 * sympy.pi),
        ("x**1000", x**1000),
        ("x" + "+x" * 999, 1000 * x),
    ],
)
def test_valid_expressions(text, expected):
    assert parse_expression(text, NAMES) == expected


def test_time_allowed_on_request():
    assert parse_expression("sin(2*pi*50*t)", {}, allow_t=True) == sympy.sin(100 * sympy.pi * T)
    assert T == sympy.Symbol("t", real=True)


def test_numbers_pass_through():
    assert parse_expression(3, {}) == sympy.Integer(3)
    assert isinstance(parse_expression(3, {}), sympy.Integer)
    assert isinstance(parse_expression(0.25, {}), sympy.Float)
    assert parse_expression(0.25, {}) == sympy.Float(0.25)


@pytest.mark.parametrize("value", [True, None, [1], {"a": 1}, float("nan"), float("inf"), 10**200])
def test_non_expressions_rejected(value):
    with pytest.raises(ExpressionError):
        parse_expression(value, NAMES)


def test_dotted_names_only_when_listed():
    sub = sympy.Symbol("sub.k", positive=True)
    assert parse_expression("2*sub.k", {"sub.k": sub}) == 2 * sub
    with pytest.raises(ExpressionError, match="attribute access"):
        parse_expression("sub.j", {"sub.k": sub})


def test_names_may_map_to_values():
    assert parse_expression("2*a + 1", {"a": sympy.Integer(3)}) == 7


def test_function_table_is_whitelist():
    assert set(FUNCTIONS) == {
        "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh",
        "asinh", "acosh", "atanh", "exp", "log", "sqrt", "abs", "sign", "min", "max",
        "heaviside", "step", "floor", "ceil", "reaction_conductance",
    }  # fmt: skip
