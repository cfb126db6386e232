r"""Interconnection of Lagrange–Dirac systems by the Dirac tensor product.

Subsystems ``(L_i, D_{Δ_i}, F_i)`` on ``Q_i`` and an interaction structure
``D_int`` on ``T*Q``, ``Q = Q_1 × … × Q_n``, give the interconnected system
(Jacobs & Yoshimura, *J. Geom. Mech.* 6 (2014) 67–98)

.. math::  D = (D_{Δ_1} ⊕ ⋯ ⊕ D_{Δ_n}) ⊠ D_{\rm int},\qquad
           L = L_1 + ⋯ + L_n,\qquad F = (F_1, …, F_n),

with ``D_1 ⊠ D_2 = {(X, α_1 + α_2) : (X, α_1) ∈ D_1, (X, α_2) ∈ D_2}``.  For the
standard interaction ``D_Σ`` (with two-form ``β``) the product is the induced
structure of ``Δ ∩ Σ`` (and of ``Ω + π*β``): in coordinates the constraint forms
of all subsystems and of the interaction are stacked,
``A = [diag(A_1, …, A_n) | A_Σ]``, and the two-forms add.  This holds where
``Δ`` and ``Σ`` intersect cleanly, i.e. ``rank A(q)`` is locally constant
(loc. cit.); :meth:`InterconnectedSystem.check_constant_rank` tests it
at a configuration and names the subsystems whose forms become dependent,
and every simulation checks it at each sample.

:meth:`InterconnectedSystem.dirac_structure` computes the product with
:meth:`porthamiltonian.dirac.DiracStructure.tensor` (the structures of the
subsystems and of the interaction, evaluated at the point or symbolic), so the
equations of the result can be checked against the tensor product directly.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import sympy

from ..dirac import DiracStructure
from ..errors import ModelError
from . import _symbols
from .interaction import Interaction, standard_structure
from .system import LagrangeDiracSystem


def _product_coordinates(systems: Sequence[LagrangeDiracSystem],
                         owner: str) -> _symbols.Coordinates:
    seen: dict[str, str] = {}
    for s in systems:
        for name in s.names:
            if name in seen:
                raise ModelError(
                    f"coordinate {name!r} belongs to both {seen[name]!r} and {s.name!r}; "
                    "torn subsystems have their own coordinates (rename one and join them "
                    "with an interaction form such as {x_a: 1, x_b: -1})"
                )
            seen[name] = s.name
    user: dict[Any, sympy.Symbol] = {}
    for s in systems:
        user |= s._c.user
    return _symbols.Coordinates(
        q=tuple(q for s in systems for q in s.coordinates),
        v=tuple(v for s in systems for v in s.velocities),
        p=tuple(p for s in systems for p in s.momenta),
        names=tuple(n for s in systems for n in s.names),
        user=user,
        owner=owner,
    )


class InterconnectedSystem(LagrangeDiracSystem):
    """The Lagrange–Dirac system ``((⊕ D_i) ⊠ D_int, Σ L_i, ⊕ F_i)``; see
    :func:`interconnect`.  Attributes :attr:`subsystems` and :attr:`interaction`."""

    def __init__(self, systems: Sequence[LagrangeDiracSystem], interaction: Interaction,
                 name: str = "interconnection") -> None:
        systems = list(systems)
        if not systems:
            raise ModelError("interconnect: give at least one subsystem")
        for s in systems:
            if not isinstance(s, LagrangeDiracSystem):
                raise ModelError(f"interconnect: {s!r} is not a LagrangeDiracSystem")
        names = [s.name for s in systems]
        dup = sorted({x for x in names if names.count(x) > 1})
        if dup:
            raise ModelError(f"interconnect: subsystem names {', '.join(dup)} repeat; give "
                             "each subsystem its own name= so errors can point at it")
        if not isinstance(interaction, Interaction):
            raise ModelError("interconnect: the interaction must come from "
                             "lagrange.interaction(...) or lagrange.dc_motor(...)")
        c = _product_coordinates(systems, interaction.name)
        A_int, B_int = interaction.resolve(c)
        blocks = []
        owners: list[str] = []
        for k, s in enumerate(systems):
            before = sum(t.n for t in systems[:k])
            after = c.n - before - s.n
            col = sympy.Matrix.vstack(sympy.zeros(before, s.m), s.constraint_forms,
                                      sympy.zeros(after, s.m))
            blocks.append(col)
            owners += s.constraint_owners
        A = sympy.Matrix.hstack(*blocks, A_int)
        owners += [interaction.name] * A_int.shape[1]
        B = sympy.diag(*[s.two_form for s in systems]) + B_int
        F = sympy.Matrix.vstack(*[s.forces for s in systems])
        params: dict[Any, float] = {}
        for s in systems:
            for key, val in s.parameters.items():
                if key in params and params[key] != val:
                    raise ModelError(f"interconnect: parameter {key} = {params[key]} in one "
                                     f"subsystem but {val} in {s.name!r}; use distinct symbols")
                params[key] = val
        self.subsystems = tuple(systems)
        self.interaction = interaction
        self._A_int, self._B_int = A_int, B_int
        self._init(c, sum((s.lagrangian for s in systems), sympy.Integer(0)), A, owners,
                   F, B, {}, name)
        self._parameters = params

    def interaction_structure(self, at: Any = None) -> DiracStructure:
        """``D_int`` on ``T*Q`` (numeric at the point ``at``, else symbolic)."""
        pt = None if at is None else self.point(at)
        return standard_structure(self.names, self._A_int, self._B_int, pt)

    def dirac_structure(self, at: Any = None) -> DiracStructure:
        """``(D_1 ⊕ ⋯ ⊕ D_n) ⊠ D_int`` by :meth:`DiracStructure.tensor`, on the
        ports :attr:`ports`.  Numeric at ``at`` (coordinates of the product),
        symbolic when ``at`` is None."""
        if at is not None:
            self.check_constant_rank(at)
            pt = self.point(at)
        parts = []
        offset = 0
        for s in self.subsystems:
            sub = None if at is None else [pt[q] for q in self.coordinates[offset:offset + s.n]]
            parts.append(s.dirac_structure(sub))
            offset += s.n
        total = parts[0]
        for d in parts[1:]:
            total = total.direct_sum(d)
        return total.reorder(self.ports).tensor(self.interaction_structure(at))


def interconnect(systems: Sequence[LagrangeDiracSystem], interaction: Interaction, *,
                 name: str = "interconnection") -> InterconnectedSystem:
    """Interconnect torn subsystems through an interaction Dirac structure.

    Parameters
    ----------
    systems:
        The subsystems (each with its own coordinates and a distinct ``name``).
    interaction:
        From :func:`.interaction.interaction` (one-forms annihilating the
        interaction distribution ``Σ_Q`` and/or a two-form) or
        :func:`.interaction.dc_motor`; its forms may use the coordinates of any
        subsystem.

    Returns
    -------
    InterconnectedSystem
        A :class:`.system.LagrangeDiracSystem` with ``L = Σ L_i``, the stacked
        constraint forms and forces, and the tensor-product Dirac structure.
    """
    return InterconnectedSystem(systems, interaction, name)
