"""Coordinates, velocities and differential forms in local coordinates.

A configuration manifold ``Q`` is described by coordinates ``q = (q_1, …, q_n)``
(SymPy symbols, or functions of time such as ``dynamicsymbols('x')`` whose
derivatives are the velocities).  Internally every quantity is written in plain
symbols ``q_i``, ``v_i`` (velocity) and ``p_i`` (momentum, named ``p_<q_i>``) and the
time ``t``.

A one-form ``ω = Σ_i a_i(q) dq_i`` is stored as the column ``(a_1, …, a_n)``; a
family of one-forms as the ``n × m`` matrix ``A(q)`` whose columns they are, so the
distribution they annihilate is ``Δ_Q(q) = ker A(q)ᵀ``.  A two-form
``β = Σ_{i<j} β_ij dq_i ∧ dq_j`` is stored as the skew matrix ``B`` with
``B_ij = β_ij = −B_ji``; its contraction with a velocity is the force
``−i_v β = B v`` (the Lorentz-force convention, see :mod:`.interaction`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sympy
from sympy.core.function import AppliedUndef

from .. import naming
from ..errors import ModelError

#: The time symbol used in forces and in the equations.
T = sympy.Symbol("t")  # the same symbol as dynamicsymbols._t


@dataclass(frozen=True)
class Coordinates:
    """Plain-symbol coordinates ``q``, velocities ``v``, momenta ``p`` and the map
    from the user's symbols (``x(t)``, ``x(t).diff(t)``) to them."""

    q: tuple[sympy.Symbol, ...]
    v: tuple[sympy.Symbol, ...]
    p: tuple[sympy.Symbol, ...]
    names: tuple[str, ...]
    user: dict[Any, sympy.Symbol]  # user symbol/function/derivative -> plain symbol
    owner: str = "system"

    @property
    def n(self) -> int:
        return len(self.q)

    def index(self, key: Any, what: str) -> int:
        """Position of a coordinate given as a symbol, a function of time or a name."""
        if isinstance(key, str):
            if key in self.names:
                return self.names.index(key)
        else:
            sym = self.user.get(key, key)
            if sym in self.q:
                return self.q.index(sym)
        raise ModelError(
            f"{what}: {key!r} is not one of the coordinates ({', '.join(self.names)})"
        )

    def to_plain(self, expr: Any) -> Any:
        """Rewrite ``expr`` in the plain symbols (derivatives first, then functions)."""
        expr = sympy.sympify(expr)
        derivs = {k: v for k, v in self.user.items() if isinstance(k, sympy.Derivative)}
        others = {k: v for k, v in self.user.items() if not isinstance(k, sympy.Derivative)}
        if derivs:
            expr = expr.subs(derivs)
        if others:
            expr = expr.subs(others)
        left = expr.atoms(AppliedUndef, sympy.Derivative)
        if left:
            raise ModelError(
                f"{self.owner}: {expr} contains {', '.join(sorted(map(str, left)))}, which "
                f"is not a coordinate ({', '.join(self.names)}) or its first derivative; "
                "add it to the coordinates or write it in terms of them"
            )
        return expr


def _name(c: Any) -> str:
    if isinstance(c, AppliedUndef):
        return c.func.__name__
    if isinstance(c, sympy.Symbol):
        return c.name
    raise ModelError(
        f"coordinate {c!r} is neither a SymPy symbol nor a function of time; use "
        "sympy.symbols('x') or sympy.physics.mechanics.dynamicsymbols('x')"
    )


def make_coordinates(coordinates: Sequence[Any], velocities: Sequence[Any] | None,
                     owner: str) -> Coordinates:
    """Normalize user coordinates (see the module docstring).

    Velocities are the time derivatives of the coordinates when those are functions
    of time; for plain symbols they must be given (``velocities=[...]``).
    """
    coordinates = list(coordinates)
    if not coordinates:
        raise ModelError(f"{owner}: give at least one coordinate")
    names = tuple(_name(c) for c in coordinates)
    try:
        naming.check_names(list(names) + [f"p_{s}" for s in names], "coordinates")
    except ModelError as exc:
        raise ModelError(f"{owner}: {exc}") from None
    q = tuple(c if isinstance(c, sympy.Symbol) else sympy.Symbol(s)
              for c, s in zip(coordinates, names, strict=True))
    p = tuple(sympy.Symbol(f"p_{s}") for s in names)
    user: dict[Any, sympy.Symbol] = {}
    timed = [isinstance(c, AppliedUndef) for c in coordinates]
    if velocities is None:
        if not all(timed):
            plain = [s for s, td in zip(names, timed, strict=True) if not td]
            raise ModelError(
                f"{owner}: coordinates {', '.join(plain)} are plain symbols, so their "
                "velocities cannot be derived; pass velocities=[...] (one symbol per "
                "coordinate) or use dynamicsymbols"
            )
        v = tuple(sympy.Symbol(f"{s}_dot") for s in names)
        for c, qi, vi in zip(coordinates, q, v, strict=True):
            user[sympy.Derivative(c, c.args[0])] = vi
            user[c] = qi
    else:
        velocities = list(velocities)
        if len(velocities) != len(coordinates):
            raise ModelError(
                f"{owner}: {len(coordinates)} coordinates but {len(velocities)} velocities; "
                "give one velocity per coordinate"
            )
        v = tuple(w if isinstance(w, sympy.Symbol) else sympy.Symbol(_name(w))
                  for w in velocities)
        for c, qi in zip(coordinates, q, strict=True):
            if c != qi:
                user[c] = qi
        for w, vi in zip(velocities, v, strict=True):
            if w != vi:
                user[w] = vi
    clash = {str(s) for s in v} & {str(s) for s in q + p}
    if clash:
        raise ModelError(f"{owner}: velocity names {', '.join(sorted(clash))} clash with "
                         "coordinate or momentum names; rename them")
    return Coordinates(q, v, p, names, user, owner)


def one_forms(forms: Sequence[Any] | Mapping[Any, Any] | Any, c: Coordinates,
              owner: str) -> sympy.Matrix:
    """The ``n × m`` matrix whose columns are the one-forms ``forms``.

    A form is a mapping ``{coordinate: coefficient}`` (``ω = Σ a_i dq_i``) or an
    expression linear and homogeneous in the velocities (``ω(v) = Σ a_i v_i``, e.g.
    ``sin(phi)*x.diff(t) - cos(phi)*y.diff(t)``).  Coefficients may depend on ``q``.
    """
    if isinstance(forms, Mapping | sympy.Basic):  # one form given on its own
        forms = [forms]
    cols = []
    for k, form in enumerate(forms):
        what = f"{owner}: constraint {k}"
        col = [sympy.Integer(0)] * c.n
        if isinstance(form, Mapping):
            for key, coeff in form.items():
                col[c.index(key, what)] += c.to_plain(coeff)
        elif isinstance(form, Sequence) and not isinstance(form, str):
            if len(form) != c.n:
                raise ModelError(f"{what} has {len(form)} coefficients; give {c.n} "
                                 f"(one per coordinate {', '.join(c.names)})")
            col = [c.to_plain(a) for a in form]
        else:
            expr = c.to_plain(form)
            col = [sympy.diff(expr, vi) for vi in c.v]
            rest = sympy.simplify(expr - sum(a * vi for a, vi in zip(col, c.v, strict=True)))
            if rest != 0 or any(a.has(*c.v) for a in col):
                raise ModelError(
                    f"{what} = {form} is not linear and homogeneous in the velocities "
                    f"({', '.join(map(str, c.v))}); write it as Σ a_i(q) v_i = 0"
                )
        bad = [a for a in col if sympy.sympify(a).has(*c.v, *c.p)]
        if bad:
            raise ModelError(f"{what}: coefficients may depend on the coordinates only, "
                             f"not on velocities or momenta ({bad[0]})")
        if all(sympy.sympify(a) == 0 for a in col):
            raise ModelError(f"{what} is the zero form; drop it")
        cols.append(col)
    if not cols:
        return sympy.zeros(c.n, 0)
    return sympy.Matrix(cols).T


def two_form(form: Mapping[Any, Any] | Any | None, c: Coordinates, owner: str) -> sympy.Matrix:
    """Skew matrix ``B`` of a two-form given as ``{(q_i, q_j): β_ij}`` (meaning
    ``β_ij dq_i ∧ dq_j``) or directly as a skew ``n × n`` matrix."""
    n = c.n
    if form is None:
        return sympy.zeros(n, n)
    if isinstance(form, Mapping):
        B = sympy.zeros(n, n)
        for key, coeff in form.items():
            try:
                a, b = key
            except (TypeError, ValueError):
                raise ModelError(f"{owner}: two-form key {key!r} is not a pair of "
                                 "coordinates (q_i, q_j)") from None
            i, j = c.index(a, f"{owner}: two-form"), c.index(b, f"{owner}: two-form")
            if i == j:
                raise ModelError(f"{owner}: two-form term d{c.names[i]} ∧ d{c.names[i]} is "
                                 "zero; a two-form pairs two different coordinates")
            val = c.to_plain(coeff)
            B[i, j] += val
            B[j, i] -= val
        return B
    B = sympy.Matrix(form).applyfunc(c.to_plain)
    if B.shape != (n, n) or any(sympy.simplify(x) != 0 for x in B + B.T):
        raise ModelError(f"{owner}: a two-form matrix must be skew-symmetric {n}×{n}")
    return B


def force_vector(forces: Mapping[Any, Any] | Sequence[Any] | None, c: Coordinates,
                 owner: str) -> sympy.Matrix:
    """External force one-form ``F(q, v, t)`` as an ``n``-vector."""
    F = sympy.zeros(c.n, 1)
    if forces is None:
        return F
    if isinstance(forces, Mapping):
        for key, val in forces.items():
            F[c.index(key, f"{owner}: forces"), 0] += c.to_plain(val)
        return F
    forces = list(forces)
    if len(forces) != c.n:
        raise ModelError(f"{owner}: {len(forces)} forces for {c.n} coordinates; give one "
                         "per coordinate or a mapping {coordinate: force}")
    return sympy.Matrix([c.to_plain(f) for f in forces])
