r"""The IDA-PBC matching equations and their symbolic solution.

For the plant :math:`\dot x = (J - R)\nabla H + g\,u` (``g = G − P``) and the target
:math:`\dot x = (J_d - R_d)\nabla H_d`, a law :math:`u = \beta(x)` exists iff

.. math::  g^\perp(x)\,\bigl[(J - R)\nabla H - (J_d - R_d)\nabla H_d\bigr] = 0

(Ortega, van der Schaft, Maschke, Escobar, *Automatica* 38, 2002, Prop. 1), with
:math:`g^\perp` a full-rank left annihilator (:math:`g^\perp g = 0`).  For the unknown
:math:`H_d` this is a system of first-order linear PDEs,

.. math::  A\,\nabla H_d = b,\qquad A = g^\perp (J_d - R_d),\quad b = g^\perp (J - R)\nabla H.

**Constant coefficients** (``A`` independent of the unknowns' arguments, the usual
textbook case) are solved exactly by linear algebra: take the independent rows
:math:`A_r` and :math:`N` spanning :math:`\ker A_r`; in the coordinates :math:`w` (the pivot
variables of :math:`A_r`, so that :math:`A_w = A_r E_w` is invertible) and
:math:`z = N^\top x`, the PDEs read :math:`\partial h/\partial w = A_w^{-1} b_r`
(:math:`\nabla_x h = E_w \partial_w h + N\partial_z h` and :math:`A_r N = 0`).  They are
solvable iff the dependent rows of ``b`` vanish and the right side is curl-free in
:math:`w`; then
:math:`H_d = h_p(x) + \Phi(N^\top x)` with :math:`\Phi` free — the function the designer
chooses to place the minimum (the characteristics of the PDE are the lines along
:math:`\ker A`).

**One equation in two variables with state-dependent coefficients** goes to
:func:`sympy.pdsolve` (method of characteristics); its arbitrary function is
the free function.  Anything else: supply ``Hd`` and the residual is checked.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError

__all__ = ["MatchingSolution", "annihilator", "solve_linear_pdes", "NotSolvable"]

PHI = sp.Function("Phi")


class NotSolvable(ModelError):
    """The matching PDEs have no solution (or none this solver can find)."""


@dataclass
class MatchingSolution:
    r"""General solution :math:`H_d = H_{\rm known} + h_p(x) + \Phi(z(x))` of the matching PDEs.

    Attributes
    ----------
    particular : SymPy expression
        :math:`H_{\rm known} + h_p`: one solution.
    arguments : list of SymPy expressions
        :math:`z(x)`, the arguments of the free function (empty: ``Hd`` is unique up to
        a constant).
    free_function : SymPy function class
        :math:`\Phi`, the arbitrary function of ``arguments``.
    states : list of SymPy symbols
    method : str
        ``"linear algebra"`` (constant coefficients), ``"pdsolve"`` or ``"unique"``.
    """

    particular: sp.Expr
    arguments: list[sp.Expr]
    states: list[sp.Symbol]
    method: str
    free_function: Any = PHI
    notes: list[str] = field(default_factory=list)

    @property
    def Hd(self) -> sp.Expr:
        """The general solution, with :math:`\\Phi` left as an undefined function."""
        if not self.arguments:
            return self.particular
        return self.particular + self.free_function(*self.arguments)

    def with_free_function(self, phi: Callable[..., sp.Expr] | sp.Lambda) -> sp.Expr:
        """``Hd`` with :math:`\\Phi` replaced: ``phi(z0, z1, …)`` returns a SymPy expression."""
        if not self.arguments:
            return self.particular
        return self.particular + sp.sympify(phi(*self.arguments))


def annihilator(g: sp.MatrixBase) -> sp.Matrix:
    r"""A full-rank left annihilator :math:`g^\perp` (rows), :math:`g^\perp g = 0`.

    Rows are scaled to clear denominators so that they read like hand derivations.
    """
    rows = [sp.Matrix(v).T for v in sp.Matrix(g).T.nullspace(simplify=True)]
    clean = []
    for r in rows:
        den = sp.lcm([sp.fraction(sp.together(e))[1] for e in r])
        clean.append((r * den).applyfunc(sp.cancel))
    return sp.Matrix.vstack(*clean) if clean else sp.zeros(0, g.rows)


def solve_linear_pdes(
    A: sp.MatrixBase, b: sp.MatrixBase, variables: Sequence[sp.Symbol],
    others: Sequence[sp.Symbol], labels: Sequence[str],
) -> tuple[sp.Expr, list[sp.Expr], str]:
    r"""Solve :math:`A\,\nabla_v \Phi = b` for :math:`\Phi(v)`; ``v = variables``.

    Returns ``(particular, arguments, method)``: every solution is
    ``particular + F(*arguments)``.  ``others`` are the states that ``Φ`` may not depend
    on (the momenta when ``Md`` is given); ``labels`` name the equations in messages.

    Raises :class:`NotSolvable` when an equation cannot hold (naming it) or when the
    system is outside what is solved here.
    """
    v = list(variables)
    A, b = sp.Matrix(A), sp.Matrix(b).applyfunc(sp.simplify)
    labels = list(labels)
    _require_free_of(b, others, labels, "right-hand side")
    # equations 0 = 0 drop out; 0 = f(x) ≠ 0 is a contradiction
    keep = []
    for i in range(A.rows):
        if all(sp.simplify(e) == 0 for e in A.row(i)):
            if b[i] != 0:
                raise NotSolvable(
                    f"matching equation {labels[i]} reads 0 = {b[i]}: with this Jd − Rd the "
                    "unknown Hd does not enter it; change Jd/Rd so that it does"
                )
            continue
        keep.append(i)
    if not keep:
        return sp.S.Zero, list(v), "unique" if not v else "free"
    A, b, labels = A.extract(keep, list(range(A.cols))), b.extract(keep, [0]), [
        labels[i] for i in keep]
    if not (A.free_symbols & set(v)) and not (A.free_symbols & set(others)):
        out = _constant_coefficients(A, b, v, labels)
    elif A.rows == 1 and len(v) == 2:
        out = _pdsolve_two_variables(A, b, v)
    else:
        raise NotSolvable(
        f"the matching PDEs have state-dependent coefficients ({A.rows} equations in "
        f"{len(v)} variables); solved here are constant coefficients and one equation in "
        "two variables. Supply Hd= (its residual is checked)"
        )
    _verify(A, b, v, out[0], out[1], labels)
    return out


def _verify(A: sp.Matrix, b: sp.Matrix, v: list[sp.Symbol], particular: sp.Expr,
            arguments: list[sp.Expr], labels: list[str]) -> None:
    """Check ``A∇h_p = b`` and ``A∇z_j = 0``: symbolically, else at random points."""
    grad = sp.Matrix([sp.diff(particular, x) for x in v])
    checks = list(A * grad - b)
    checks += [e for z in arguments for e in A * sp.Matrix([sp.diff(z, x) for x in v])]
    rng = np.random.default_rng(0)
    for i, e in enumerate(checks):
        if e == 0 or sp.simplify(e) == 0:
            continue
        syms = sorted(e.free_symbols, key=lambda s: s.name)
        f = sp.lambdify(syms, e, modules="numpy")
        pts = rng.uniform(0.2, 2.0, size=(20, len(syms)))
        with np.errstate(all="ignore"):
            vals = np.array([complex(f(*p)) for p in pts])
        finite = np.abs(vals[np.isfinite(vals)])
        # points outside the solution's domain (log of a negative number) do not count
        if finite.size < 5 or np.max(finite) > 1e-9:
            raise NotSolvable(
                f"the solution found does not satisfy the matching equation "
                f"{labels[min(i, len(labels) - 1)]} (residual {sp.simplify(e)}); supply Hd="
            )


def _realify(expr: sp.Expr) -> sp.Expr:
    """SymPy's characteristics may come back as complex logarithms of a real function."""
    if not expr.has(sp.I):
        return expr
    e = sp.expand_complex(expr).replace(sp.arg, lambda z: sp.atan2(sp.im(z), sp.re(z)))
    e = sp.simplify(sp.simplify(e).rewrite(sp.atan))
    if e.has(sp.I):
        raise NotSolvable(f"sympy.pdsolve returned a complex-valued solution {expr}; supply Hd=")
    return e


def _require_free_of(b: sp.Matrix, others: Sequence[sp.Symbol], labels: list[str],
                     what: str) -> None:
    for i, e in enumerate(b):
        bad = sorted(s.name for s in e.free_symbols & set(others))
        if bad:
            raise NotSolvable(
                f"matching equation {labels[i]} depends on {', '.join(bad)} ({what}: {e}); "
                "it must hold for all values of these states. With Md, choose Jd's "
                "p-block J2 (or a different Md) so that the kinetic-energy equation holds "
                "(Ortega, Spong, Gómez-Estern, Blankenstein 2002, eq. (17))"
            )


def _constant_coefficients(
    A: sp.Matrix, b: sp.Matrix, v: list[sp.Symbol], labels: list[str]
) -> tuple[sp.Expr, list[sp.Expr], str]:
    # dependent rows: their combination of the right-hand sides must vanish
    for lam in A.T.nullspace(simplify=True):
        combo = sp.simplify((lam.T * b)[0])
        if combo != 0:
            used = " + ".join(f"({sp.nsimplify(c)})·[{labels[i]}]"
                              for i, c in enumerate(lam) if c != 0)
            raise NotSolvable(
                f"the matching equations are contradictory: {used} has left side 0 but "
                f"right side {combo}; no Hd exists with this Jd − Rd"
            )
    _, rows = A.T.rref()
    Ar, br = A.extract(list(rows), list(range(A.cols))), b.extract(list(rows), [0])
    # coordinates: w = the pivot variables of Ar (A_w := Ar[:, P] invertible) and
    # z = Nᵀv along ker Ar; then ∇_v = E_P ∂/∂w + N ∂/∂z and Ar N = 0 give ∂h/∂w = A_w⁻¹ b.
    _, pivots = Ar.rref()
    P = list(pivots)
    N = Ar.nullspace(simplify=True)
    Nm = sp.Matrix.hstack(*N) if N else sp.zeros(len(v), 0)
    w = [v[i] for i in P]
    zs = [sp.Dummy(f"z{j}") for j in range(Nm.cols)]
    E = sp.Matrix([[1 if c == P[r] else 0 for c in range(len(v))] for r in range(len(P))])
    T = sp.Matrix.vstack(E, Nm.T) if Nm.cols else E
    back = T.inv() * sp.Matrix(w + zs)  # v in terms of (w, z)
    to_wz = dict(zip(v, back, strict=True))
    Aw = Ar.extract(list(range(Ar.rows)), P)
    c = (Aw.inv() * br).xreplace(to_wz).applyfunc(sp.simplify)
    for i in range(len(w)):
        for j in range(i + 1, len(w)):
            curl = sp.simplify(sp.diff(c[i], w[j]) - sp.diff(c[j], w[i]))
            if curl != 0:
                raise NotSolvable(
                    f"the matching equations are not integrable: the mixed derivatives of "
                    f"Hd in {w[i].name} and {w[j].name} would differ by {curl}; no Hd exists "
                    "with this Jd − Rd"
                )
    h = sp.S.Zero
    for i, wi in enumerate(w):
        rest = sp.simplify(c[i] - sp.diff(h, wi))
        term = sp.integrate(rest, wi)
        if term.has(sp.Integral):
            raise NotSolvable(f"SymPy could not integrate {rest} d{wi.name}; supply Hd=")
        h += term
    arguments = [sp.expand(e) for e in Nm.T * sp.Matrix(v)]
    particular = h.xreplace(dict(zip(zs, arguments, strict=True)))
    return sp.simplify(sp.expand(particular)), arguments, "linear algebra"


def _pdsolve_two_variables(
    A: sp.Matrix, b: sp.Matrix, v: list[sp.Symbol]
) -> tuple[sp.Expr, list[sp.Expr], str]:
    x, y = sp.symbols("x_pde y_pde", real=True)
    f = sp.Function("f_pde")
    rep = {v[0]: x, v[1]: y}
    eq = (A[0, 0] * f(x, y).diff(x) + A[0, 1] * f(x, y).diff(y) - b[0]).xreplace(rep)
    try:
        sol = sp.pdsolve(eq, f(x, y))
    except (NotImplementedError, ValueError) as err:
        raise NotSolvable(f"sympy.pdsolve cannot solve the matching PDE {eq} = 0 ({err}); "
                          "supply Hd=") from None
    rhs = sol.rhs
    free = [a for a in rhs.atoms(sp.core.function.AppliedUndef) if a.func != f]
    if len(free) != 1 or len(free[0].args) != 1:
        raise NotSolvable(f"sympy.pdsolve returned {sol}, which is not of the form "
                          "particular + F(ξ); supply Hd=")
    back = {x: v[0], y: v[1]}
    argument = free[0].args[0].xreplace(back)
    particular = _realify(rhs.subs(free[0], 0).xreplace(back))
    return sp.simplify(particular), [_realify(sp.simplify(argument))], "pdsolve"
