r"""Python source of a model's numeric functions, for Numba to compile.

From a symbolic PHS — Hamiltonian :math:`H(x;p)` and structure matrices
:math:`J, R, G, P, M, S` that may depend on the state :math:`x` and the parameters
:math:`p` — this writes the functions whose contract :mod:`.template` states: ``ham``,
``grad`` (:math:`\nabla H`), ``hess`` (:math:`\nabla^2 H`), ``jr`` (:math:`J-R`), ``gmp``
(:math:`G-P`), ``ports`` (:math:`G+P, M+S, R, P, S`) and ``jacf``
(:math:`\partial_x[(J-R)\nabla H + (G-P)u]`).  Derivatives are taken by SymPy, common
subexpressions are shared within each function (:func:`sympy.cse`), and each expression
is printed by SymPy's Python code printer (``math.sin`` …), so no string handling of
formulas happens here.  Parameters stay symbols read from the vector ``p``: a model and
``model.with_parameters(...)`` share one compiled module.
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy as sp
from sympy.printing.codeprinter import PrintMethodNotImplementedError
from sympy.printing.pycode import PythonCodePrinter

from ...compiled import SymbolicSource
from ...compiled.numeric import without_impulses

__all__ = ["model_source", "KernelUnavailable"]

_NAMES = ("J", "R", "G", "P", "M", "S")


class KernelUnavailable(Exception):
    """The model cannot be compiled (a function the printer does not know, …): the
    NumPy engine runs it; the message says why."""


def model_source(form: SymbolicSource) -> str:
    """The source of the model functions (see the module docstring)."""
    n, m = len(form.states), form.m
    xs = [sp.Symbol(f"xs{i}") for i in range(n)]
    ps = [sp.Symbol(f"ps{j}") for j in range(len(form.parameters))]
    us = [sp.Symbol(f"us{k}") for k in range(m)]
    rename = dict(zip(form.states, xs, strict=True))
    rename.update(zip(form.parameters, ps, strict=True))
    H = sp.sympify(form.hamiltonian).xreplace(rename)
    mats = {k: sp.Matrix(form.matrices[k]).xreplace(rename) for k in _NAMES}
    stray = (H.free_symbols.union(*(A.free_symbols for A in mats.values()))
             - set(xs) - set(ps))
    if stray:
        raise KernelUnavailable(f"symbols without a value: {sorted(map(str, stray))}")
    grad = sp.Matrix([sp.diff(H, xi) for xi in xs])
    hess = without_impulses(grad.jacobian(xs)) if n else sp.zeros(0, 0)
    u = sp.Matrix(m, 1, us)
    f = (mats["J"] - mats["R"]) * grad + (mats["G"] - mats["P"]) * u
    jac = f.jacobian(xs) if n else sp.zeros(0, 0)
    header = _unpack(n, len(ps))
    parts = [
        _function("ham", "x, p", header, [("return", H)]),
        _function("grad", "x, p, out", header, _vector("out", grad)),
        # ∇H at the points x + s_q d of a line (the quadrature nodes of the discrete
        # gradients): one call instead of one per node
        _function("grad_line", "x, d, s, p, out", _unpack(0, len(ps)),
                  [(f"out[q, {i}] =", g) for i, g in enumerate(grad)],
                  loop=["    for q in range(s.size):"]
                  + [f"        xs{i} = x[{i}] + s[q] * d[{i}]" for i in range(n)]),
        _function("hess", "x, p, out", header, _matrix("out", hess)),
        _function("jr", "x, p, out", header, _matrix("out", mats["J"] - mats["R"])),
        _function("gmp", "x, p, out", header, _matrix("out", mats["G"] - mats["P"])),
        _function("ports", "x, p, gpp, ms, rr, pp, ss", header,
                  _matrix("gpp", mats["G"] + mats["P"]) + _matrix("ms", mats["M"] + mats["S"])
                  + _matrix("rr", mats["R"]) + _matrix("pp", mats["P"])
                  + _matrix("ss", mats["S"])),
        _function("jacf", "x, u, p, out",
                  header + [f"    us{k} = u[{k}]" for k in range(m)], _matrix("out", jac)),
    ]
    return "\n\n".join(parts) + "\n"


def _unpack(n: int, n_params: int) -> list[str]:
    return ([f"    xs{i} = x[{i}]" for i in range(n)]
            + [f"    ps{j} = p[{j}]" for j in range(n_params)])


def _vector(name: str, v: sp.MatrixBase) -> list[tuple[str, sp.Expr]]:
    return [(f"{name}[{i}] =", v[i]) for i in range(v.rows)]


def _matrix(name: str, A: sp.MatrixBase) -> list[tuple[str, sp.Expr]]:
    """A zero fill, then one assignment per nonzero entry."""
    out: list[tuple[str, sp.Expr]] = [(f"{name}[:, :] = 0.0 #", sp.S.Zero)]
    out += [(f"{name}[{i}, {j}] =", A[i, j]) for i in range(A.rows) for j in range(A.cols)
            if A[i, j] != 0]
    return out


def _function(name: str, args: str, header: Sequence[str],
              targets: list[tuple[str, sp.Expr]], loop: Sequence[str] = ()) -> str:
    """``def name(args):`` with the unpacked inputs, the shared subexpressions and one
    line per target (``lhs expr``); with ``loop`` (its header lines, indented by 4) the
    subexpressions and targets form the body of that loop."""
    exprs = [sp.sympify(e) for _, e in targets]
    subs, reduced = sp.cse(exprs, symbols=sp.numbered_symbols("cs"), optimizations="basic")
    printer = PythonCodePrinter({"fully_qualified_modules": True, "strict": True})
    pad = "        " if loop else "    "
    lines = [f"def {name}({args}):", *header, *loop]
    lines += [f"{pad}{sym} = {_print(printer, e, name)}" for sym, e in subs]
    for (lhs, _), e in zip(targets, reduced, strict=True):
        if lhs.endswith("#"):  # a statement without an expression (the zero fill)
            lines.append(f"{pad}{lhs[:-1].rstrip()}")
        else:
            lines.append(f"{pad}{lhs} {_print(printer, e, name)}")
    if len(lines) == 1 + len(header):
        lines.append("    pass")
    return "\n".join(lines)


def _print(printer: PythonCodePrinter, expr: sp.Expr, where: str) -> str:
    try:
        text = printer.doprint(sp.sympify(expr))
    except PrintMethodNotImplementedError as e:
        raise KernelUnavailable(f"no compiled form of a function in {where}: {e}") from None
    return f"float({text})" if expr.is_number else text
