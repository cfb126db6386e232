r"""The Legendre transform of a storage energy: co-energy and co-energy variables.

A storage with energy :math:`E(q)` (J) in its energy variables :math:`q` (charge,
displacement, flux linkage, momentum, entropy, volume …) has the efforts
:math:`e = \partial E/\partial q` (voltage, force, current, speed, temperature,
−pressure …).  When :math:`e(q)` is invertible (E strictly convex) the *co-energy* is
the Legendre transform

.. math::
    E^*(e) = e^\top q - E(q)\,\Big|_{q = q(e)},\qquad
    E(q) + E^*(e) = e^\top q,\qquad \frac{\partial E^*}{\partial e} = q,

so :math:`q(e)` is the co-energy's gradient (Duindam et al., *Modeling and Control of
Complex Physical Systems*, Springer 2009, App. B.2; Callen, *Thermodynamics*, 2nd ed.,
§5.1–5.2).  For a linear storage :math:`E = \tfrac12 q^\top C^{-1} q` it is
:math:`E^* = \tfrac12 e^\top C e`, and :math:`E^*(e(q)) = E(q)`: energy and co-energy
are equal as numbers, different as functions of their own variables.  Units: E* in J,
like E.

A *partial* transform acts on a subset of the variables; the others are passive
parameters of the result.  This is the mathematician's sign (:math:`E^* = e^\top q - E`);
the thermodynamic potentials use the opposite one (Callen's
:math:`U[T] = U - TS = -\,\text{legendre}(U, S, T)`), see :mod:`.thermodynamic`.

The inverse :math:`q(e)` is found by SymPy ``solve`` within a time budget
(:mod:`porthamiltonian.bounded`); no closed form, or several real branches, raise a
:class:`~porthamiltonian.errors.ModelError` saying so (``branch=`` picks one).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy as sp

from ..bounded import SymbolicLimit, bounded
from ..errors import ModelError

__all__ = ["CoEnergy", "legendre", "coenergy", "check_legendre_identity", "effort_symbols"]


def _symbols(q: Any, what: str) -> list[sp.Symbol]:
    qs = list(q) if isinstance(q, (list, tuple, sp.MatrixBase)) else [q]
    bad = [x for x in qs if not isinstance(x, sp.Symbol)]
    if bad or not qs:
        raise ModelError(f"{what}: give the energy variables as SymPy symbols, got {bad or q!r}")
    return qs


def effort_symbols(q: Any) -> list[sp.Symbol]:
    """Default co-energy variables: ``e_<name>`` for each energy variable (real)."""
    return [sp.Symbol(f"e_{x.name}", real=True) for x in _symbols(q, "effort_symbols")]


def _efforts(q: list[sp.Symbol], e: Any) -> list[sp.Expr]:
    es = effort_symbols(q) if e is None else (
        list(e) if isinstance(e, (list, tuple, sp.MatrixBase)) else [e])
    es = [sp.sympify(x) for x in es]
    if len(es) != len(q):
        raise ModelError(f"legendre: {len(q)} energy variable(s) {q} but {len(es)} "
                         "co-energy variable(s); give one effort per variable")
    mixed = [str(x) for x in es if x.free_symbols & set(q)]
    if mixed:
        raise ModelError(f"legendre: the co-energy variables {', '.join(mixed)} contain the "
                         f"energy variables {q}; use new symbols for the efforts")
    return es


def _samples(expr: sp.Expr) -> list[dict[sp.Symbol, sp.Expr]]:
    """Three test points for the free symbols of ``expr``, within their assumptions; a
    small value among them, where a non-convex law has several real inverses."""
    syms = sorted(expr.free_symbols, key=str)
    pos = [sp.Rational(7, 10), sp.Rational(13, 5), sp.Rational(13, 10)]
    real = [sp.Rational(-3, 5), sp.Rational(11, 10), sp.Rational(1, 10)]
    return [{x: (pos if x.is_positive or x.is_nonnegative else real)[(k + i) % 3]
             for i, x in enumerate(syms)} for k in range(3)]


def _real_at(v: sp.Expr, point: dict[sp.Symbol, sp.Expr]) -> bool:
    """``v`` is a real number at ``point`` (Cardano's real roots carry ``I`` in between,
    and ``log(e - sqrt(e**2 + V0**2))`` is complex for every real e: only numbers tell)."""
    w = v.xreplace(point)
    if not w.is_number:
        return True
    z = complex(sp.N(w))
    return abs(z.imag) <= 1e-9 * max(1.0, abs(z.real))


def _vanishes(expr: sp.Expr, point: dict[sp.Symbol, sp.Expr]) -> bool:
    """``expr`` is zero at ``point`` (the roots of ``solve`` are taken unchecked)."""
    w = expr.xreplace(point)
    return not w.is_number or abs(complex(sp.N(w, 30))) <= 1e-9


def _asinh_form(expr: sp.Expr) -> sp.Expr:
    """``log(u)`` written as ``asinh((u - 1/u)/2)`` when that argument is free of roots:
    SymPy's ``solve`` returns ``log((e + sqrt(e**2 + V0**2))/V0)`` for ``asinh(e/V0)``,
    and only the latter simplifies against ``sinh`` (the identity checks stay fast)."""
    def rewrite(u: sp.Expr) -> sp.Expr:
        if not u.has(sp.sqrt(sp.Wild("r"))) and not any(
                a.exp == sp.S.Half for a in u.atoms(sp.Pow)):
            return sp.log(u)
        y = sp.cancel(sp.radsimp((u - 1 / u) / 2))
        roots = any(a.exp.is_Rational and not a.exp.is_integer for a in y.atoms(sp.Pow))
        return sp.log(u) if roots else sp.asinh(y)
    return expr.replace(sp.log, rewrite) if expr.has(sp.log) else expr


def _inverse(E: sp.Expr, q: list[sp.Symbol], e: list[sp.Expr],
             branch: int | None) -> dict[sp.Symbol, sp.Expr]:
    """q(e) from e = ∂E/∂q: the one real solution (or ``branch``)."""
    law = [sp.diff(E, x) for x in q]
    shown = ", ".join(f"{ei} = {g}" for ei, g in zip(e, law, strict=True))
    eqs = [g - ei for g, ei in zip(law, e, strict=True)]
    # floats make SymPy's solve slow (seconds): each becomes a positive symbol for it
    numbers = {f: sp.Dummy(positive=True) for eq in eqs for f in eq.atoms(sp.Float) if f > 0}
    back = {d: f for f, d in numbers.items()}
    try:
        with bounded("solving e = dE/dq for q"):
            # SymPy's own simplification and checking of the roots takes seconds; the
            # roots are checked below, numerically at test points, instead
            held = [eq.xreplace(numbers) for eq in eqs]
            if len(q) == 1:  # the scalar solver is several times faster than the system one
                roots = sp.solve(held[0], q[0], simplify=False, check=False)
                found = [{q[0]: r.xreplace(back)} for r in roots]
            else:
                found = [{k: v.xreplace(back) for k, v in sol.items()} for sol in
                         sp.solve(held, q, dict=True, simplify=False, check=False)]
    except (NotImplementedError, SymbolicLimit) as err:
        raise ModelError(f"legendre: no closed-form inverse of the constitutive law {shown} "
                         f"({err or 'SymPy cannot solve it'}); the co-energy needs q(e) in "
                         "closed form — choose a law with a known inverse") from None
    full = [s for s in found if set(s) >= set(q)
            and not any(v.free_symbols & set(q) for v in s.values())]
    points = _samples(sp.Add(*[v for s in full for v in s.values()], *eqs))
    # a root is real somewhere if it solves the law with real values at some test point;
    # two such roots mean two states with the same efforts: E is not convex
    real_at = [[all(_real_at(v, pt) for v in s.values())
                and all(_vanishes(eq.xreplace(s), pt) for eq in eqs) for pt in points]
               for s in full]
    real = [s for s, ok in zip(full, real_at, strict=True) if any(ok)]
    if not real:
        why = ("its solutions are not real" if full else
               "it has no unique solution (E not strictly convex: a singular Hessian?)")
        raise ModelError(f"legendre: cannot invert the constitutive law {shown} for {q}: {why}; "
                         "the co-energy exists only for a strictly convex energy")
    if branch is not None:
        if not 0 <= branch < len(real):
            raise ModelError(f"legendre: branch={branch} but the law {shown} has "
                             f"{len(real)} real inverse branch(es)")
        return {x: _asinh_form(v) for x, v in real[branch].items()}
    if len(real) > 1:
        listed = "; ".join(f"[{k}] " + ", ".join(f"{x} = {v}" for x, v in s.items())
                           for k, s in enumerate(real))
        raise ModelError(f"legendre: the law {shown} has {len(real)} real inverses ({listed}): "
                         "E is not convex, so one effort belongs to several states; pick "
                         "the branch you mean with branch=k")
    return {x: _asinh_form(v) for x, v in real[0].items()}


def legendre(E: Any, q: Any, e: Any = None, *, branch: int | None = None) -> sp.Expr:
    r"""The Legendre transform :math:`E^*(e) = e^\top q - E` with q solved from
    :math:`e = \partial E/\partial q`.

    ``q`` is one symbol or a sequence (a subset of E's variables: a partial transform;
    the other symbols pass through).  ``e`` defaults to :func:`effort_symbols`; it may
    hold expressions in new symbols (``-p`` for the volume of a gas).
    """
    E = sp.sympify(E)
    qs = _symbols(q, "legendre")
    es = _efforts(qs, e)
    inv = _inverse(E, qs, es, branch)
    dual = sum((ei * x for ei, x in zip(es, qs, strict=True)), sp.S.Zero) - E
    return dual.xreplace(inv)


@dataclass(frozen=True)
class CoEnergy:
    """A storage energy with its co-energy: ``energy`` E(q), ``states`` q, ``efforts``
    e (symbols), ``law`` e(q) = ∂E/∂q, ``inverse`` q(e), ``coenergy`` E*(e)."""

    energy: sp.Expr
    states: tuple[sp.Symbol, ...]
    efforts: tuple[sp.Symbol, ...]
    law: tuple[sp.Expr, ...]
    inverse: tuple[sp.Expr, ...]
    coenergy: sp.Expr

    def residual(self) -> sp.Expr:
        """:math:`E(q) + E^*(e(q)) - e(q)^\\top q` as an expression in q (zero)."""
        at = dict(zip(self.efforts, self.law, strict=True))
        return self.energy + self.coenergy.xreplace(at) - sum(
            (g * x for g, x in zip(self.law, self.states, strict=True)), sp.S.Zero)

    def check(self) -> bool:
        """The Legendre identities hold symbolically (:func:`check_legendre_identity`)."""
        return check_legendre_identity(self.energy, self.coenergy, self.states, self.efforts)


def coenergy(E: Any, q: Any, e: Any = None, *, branch: int | None = None) -> CoEnergy:
    """The co-energy of the storage energy ``E`` in its states ``q`` (:class:`CoEnergy`);
    ``e`` are new symbols for the efforts (default :func:`effort_symbols`)."""
    E = sp.sympify(E)
    qs = _symbols(q, "coenergy")
    es = _efforts(qs, e)
    if not all(isinstance(x, sp.Symbol) for x in es):
        raise ModelError("coenergy: the efforts must be symbols; use legendre() for "
                         "expressions such as -p")
    inv = _inverse(E, qs, es, branch)
    dual = sum((ei * x for ei, x in zip(es, qs, strict=True)), sp.S.Zero) - E
    return CoEnergy(E, tuple(qs), tuple(es), tuple(sp.diff(E, x) for x in qs),
                    tuple(inv[x] for x in qs), dual.xreplace(inv))


def _unwind(expr: sp.Expr) -> sp.Expr:
    """Cancel an inverse function against its function on real arguments —
    ``asinh(sinh(z)) = z``, ``atanh(tanh(z)) = z``, ``sqrt(sinh(z)**2 + 1) = cosh(z)`` —
    which SymPy leaves alone and which every co-energy identity produces."""
    pairs = {sp.asinh: sp.sinh, sp.atanh: sp.tanh}

    def undo(a: sp.Expr) -> sp.Expr:
        inner = a.args[0]
        return inner.args[0] if isinstance(inner, pairs[type(a)]) and inner.args[0].is_real \
            else a

    out = expr.replace(lambda a: type(a) in pairs, undo)
    w = sp.Wild("w", properties=[lambda z: z.is_real])
    return out.replace(sp.sqrt(sp.sinh(w) ** 2 + 1), sp.cosh(w))


def _is_zero(expr: sp.Expr) -> bool:
    """Zero after :func:`_unwind` by expansion or simplification (within the time budget),
    else by SymPy's ``equals``."""
    if expr == 0:
        return True
    for point in _samples(expr):  # a residual that is not zero shows it at a number first
        w = expr.xreplace(point)
        if w.is_number and not _vanishes(w, {}):
            return False
    try:
        with bounded("simplifying a Legendre residual"):
            expr = _unwind(expr)
            if expr == 0 or sp.expand(expr) == 0:
                return True
            if sp.simplify(expr) == 0 or sp.simplify(sp.expand_log(expr, force=True)) == 0:
                return True
            return bool(expr.equals(0))
    except SymbolicLimit:
        return False


def check_legendre_identity(E: Any, E_star: Any, q: Any, e: Any) -> bool:
    r"""Whether :math:`E(q) + E^*(e(q)) = e(q)^\top q` and
    :math:`\partial E^*/\partial e\,(e(q)) = q` hold with :math:`e(q) = \partial E/\partial q`
    (symbolically: simplification, else SymPy's ``equals``)."""
    E, E_star = sp.sympify(E), sp.sympify(E_star)
    qs = _symbols(q, "check_legendre_identity")
    es = _symbols(e, "check_legendre_identity (efforts)")
    if len(es) != len(qs):
        raise ModelError("check_legendre_identity: give one effort symbol per state")
    law = [sp.diff(E, x) for x in qs]
    at = dict(zip(es, law, strict=True))
    sum_rule = E + E_star.xreplace(at) - sum((g * x for g, x in zip(law, qs, strict=True)),
                                             sp.S.Zero)
    gradient = [sp.diff(E_star, ei).xreplace(at) - x for ei, x in zip(es, qs, strict=True)]
    return all(_is_zero(r) for r in (sum_rule, *gradient))

