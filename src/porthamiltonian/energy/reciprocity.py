r"""Maxwell reciprocity: when a constitutive law :math:`e(q)` has an energy.

A storage law given by its efforts :math:`e = \hat e(q)` (a vector of expressions in
the energy variables) stores energy — there is an :math:`E(q)` with
:math:`e = \partial E/\partial q` — exactly when the 1-form :math:`e^\top dq` is closed,
i.e. its Jacobian is symmetric (on a simply connected domain, Poincaré's lemma):

.. math::
    \frac{\partial e_i}{\partial q_j} = \frac{\partial e_j}{\partial q_i}\quad
    \text{for all } i, j,

the *Maxwell reciprocity* relations (Duindam et al., *Modeling and Control of Complex
Physical Systems*, Springer 2009, App. B.2; Breedveld's multiport C).  A law that breaks
them is not a storage: the power :math:`e^\top \dot q` it absorbs around a closed cycle
is not zero.  When they hold, :func:`energy_from_law` returns E by integrating
:math:`e^\top dq` from a base point (default the origin), along the axes one variable at a
time:

.. math::
    E(q) = \sum_k \int_{b_k}^{q_k} e_k(q_1, \dots, q_{k-1}, s, b_{k+1}, \dots, b_n)\,ds,

so :math:`E(b) = 0`.  Units: E in J when e·q is (effort × displacement).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from ..bounded import SymbolicLimit, bounded
from ..errors import ModelError

__all__ = ["Reciprocity", "maxwell_reciprocity", "energy_from_law"]


@dataclass(frozen=True)
class Reciprocity:
    """Whether a law e(q) is reciprocal; ``pairs`` lists each offending
    ``(i, j, ∂e_i/∂q_j, ∂e_j/∂q_i)`` (i < j, indices into q); ``message`` says it in words."""

    holds: bool
    pairs: tuple[tuple[int, int, sp.Expr, sp.Expr], ...]
    message: str

    def __bool__(self) -> bool:
        return self.holds


def _vector(e: Any, q: Any) -> tuple[list[sp.Expr], list[sp.Symbol]]:
    es = [sp.sympify(x) for x in (e if isinstance(e, (list, tuple, sp.MatrixBase)) else [e])]
    qs = list(q) if isinstance(q, (list, tuple, sp.MatrixBase)) else [q]
    if len(es) != len(qs) or not all(isinstance(x, sp.Symbol) for x in qs):
        raise ModelError(f"a constitutive law needs one effort per energy variable (symbols); "
                         f"got {len(es)} effort(s) for {qs}")
    return es, qs


def _differ(a: sp.Expr, b: sp.Expr) -> bool:
    d = a - b
    if d == 0 or sp.expand(d) == 0:
        return False
    try:
        with bounded("comparing the cross derivatives of a constitutive law"):
            return sp.simplify(d) != 0 and d.equals(0) is not True
    except SymbolicLimit:
        return True  # cannot show equal: report it (the message says what to compare)


def maxwell_reciprocity(e: Any, q: Any, *, names: Sequence[str] | None = None,
                where: str = "the constitutive law") -> Reciprocity:
    """Check Maxwell reciprocity of the law ``e`` (efforts in the variables ``q``).

    ``names`` labels the efforts in the message (default ``e[i]``); ``where`` names the
    element or law.
    """
    es, qs = _vector(e, q)
    label = list(names) if names is not None else [f"e[{i}]" for i in range(len(es))]
    bad = []
    for i in range(len(es)):
        for j in range(i + 1, len(es)):
            dij, dji = sp.diff(es[i], qs[j]), sp.diff(es[j], qs[i])
            if _differ(dij, dji):
                bad.append((i, j, dij, dji))
    if not bad:
        return Reciprocity(True, (), f"{where} is reciprocal: its Jacobian is symmetric, "
                                     "so it has an energy (energy_from_law)")
    i, j, dij, dji = bad[0]
    more = f" (and {len(bad) - 1} more pair(s))" if len(bad) > 1 else ""
    msg = (f"{where} is not reciprocal: ∂{label[i]}/∂{qs[j]} = {dij} but "
           f"∂{label[j]}/∂{qs[i]} = {dji}{more}; no energy function gives these efforts "
           "(Maxwell's relations fail), so it is not a storage — make the Jacobian "
           "symmetric, or model the skew part as a gyrator and the rest as a resistor")
    return Reciprocity(False, tuple(bad), msg)


def energy_from_law(e: Any, q: Any, *, base: Sequence[Any] | None = None,
                    where: str = "the constitutive law") -> sp.Expr:
    """The energy E(q) with ∂E/∂q = e and E(base) = 0 (base: the origin by default).

    Raises :class:`~porthamiltonian.errors.ModelError` naming the offending pair when the
    law is not reciprocal, or when an integral has no closed form.
    """
    es, qs = _vector(e, q)
    check = maxwell_reciprocity(es, qs, where=where)
    if not check.holds:
        raise ModelError(check.message)
    b = [sp.S.Zero] * len(qs) if base is None else [sp.sympify(v) for v in base]
    if len(b) != len(qs):
        raise ModelError(f"energy_from_law: base has {len(b)} entries for {len(qs)} variables")
    s = sp.Dummy("s", real=True)
    total = sp.S.Zero
    for k, x in enumerate(qs):
        # along the k-th axis: earlier variables at their values, later ones at the base
        path = {**{qs[m]: b[m] for m in range(k + 1, len(qs))}, x: s}
        integrand = es[k].xreplace(path)
        try:
            with bounded(f"integrating {where} along {x}"):
                piece = sp.integrate(integrand, (s, b[k], x))
        except SymbolicLimit as err:
            raise ModelError(f"{where}: no closed-form energy ({err}); integrate the law "
                             "numerically instead") from None
        if piece.has(sp.Integral):
            raise ModelError(f"{where}: SymPy cannot integrate {es[k]} along {x} in closed "
                             "form; give the energy instead of the law")
        total += piece
    return total
