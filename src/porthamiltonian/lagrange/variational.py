r"""Variational structure of Lagrange–Dirac systems: the Hamilton–Pontryagin and
Lagrange–d'Alembert–Pontryagin (LDAP) action functionals and their stationarity
conditions.

On the Pontryagin bundle ``TQ ⊕ T*Q`` with curves ``(q(t), v(t), p(t))`` the
**Hamilton–Pontryagin** action is (Yoshimura & Marsden, *Dirac structures in
Lagrangian mechanics Part II: Variational structures*, J. Geom. Phys. 57 (2006)
209–250)

.. math::  S[q, v, p] = \int_{t_0}^{t_1} \big( L(q, v) + ⟨p, \dot q − v⟩ \big)\,dt ,

stationary for variations ``δq`` with fixed end points and free ``δv``, ``δp``.
The **LDAP principle** (loc. cit.) adds an external force and a constraint
distribution ``Δ_Q = ker A(q)ᵀ``:

.. math::  δS + \int ⟨F(q, v, t) + B(q) v,\, δq⟩\,dt = 0,\qquad
           δq ∈ Δ_Q(q),\quad v ∈ Δ_Q(q),

with the magnetic force ``B v = −i_v β`` entering like ``F`` (it is the two-form
term of the non-standard interaction structures, Jacobs & Yoshimura 2014, §5).
Writing ``ℰ_q = ∂ℓ/∂q − d/dt ∂ℓ/∂\dot q`` for the Euler–Lagrange expressions of the
integrand ``ℓ`` (computed by :func:`sympy.calculus.euler.euler_equations`), the
stationarity conditions are

.. math::  δp:\ \dot q − v = 0,\qquad δv:\ \frac{∂L}{∂v} − p = 0,\qquad
           δq ∈ Δ:\ ℰ_q + F + B v ∈ Δ° = \operatorname{im} A,\qquad v ∈ Δ,

and ``ℰ_q = ∂L/∂q − \dot p``; with the multiplier ``λ`` in
``ℰ_q + F + B v = −A λ`` these are the implicit Lagrange–d'Alembert–Pontryagin
equations of :meth:`.system.LagrangeDiracSystem.equations`, with its signs
(``legendre = −∂ℓ/∂v``, ``dynamic = −ℰ_q − F − B v − A λ``).

**Interconnection** (Jacobs & Yoshimura, *Tensor products of Dirac structures and
interconnection in Lagrangian mechanics*, J. Geom. Mech. 6 (2014) 67–98,
Def. 6.4–Thm. 6.6): the LDAP action of ``(⊕ D_{Δ_i}) ⊠ D_Σ`` is the *sum* of the
parts' actions ``S_i`` with the parts' forces, and the variations and velocities
constrained to ``(Δ_1 × ⋯ × Δ_n) ∩ Σ``: :func:`lagrange_dalembert_pontryagin` of an
:class:`.interconnect.InterconnectedSystem` is built that way, from the
subsystems, so comparing its stationarity conditions with the equations of the
tensor-product system (:func:`check_variational`) checks the theorem.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sympy
from sympy.calculus.euler import euler_equations

from ..dirac import _linalg as dla
from ..errors import ModelError
from ._symbols import T
from .system import ImplicitEquations, LagrangeDiracSystem

__all__ = ["ActionFunctional", "VariationalCheck", "hamilton_pontryagin",
           "lagrange_dalembert_pontryagin", "stationarity", "compare_equations",
           "check_variational"]


@dataclass(frozen=True)
class ActionFunctional:
    r"""``S = ∫ ℓ dt`` with the Lagrange–d'Alembert force term and constraints.

    Attributes
    ----------
    q, v, p:
        Curves (functions of ``t``), named as in
        :meth:`.system.LagrangeDiracSystem.equations` (``x``, ``x_dot``, ``p_x``).
    integrand:
        ``ℓ = L(q, v) + ⟨p, \dot q − v⟩`` (J·s⁻¹ = W for mechanical coordinates).
    force:
        ``F + B v`` paired with ``δq`` (zero for Hamilton–Pontryagin).
    constraint_forms:
        ``A(q)`` (``n × m``): ``δq`` and ``v`` lie in ``ker Aᵀ``.
    owners:
        Who imposed each column of ``constraint_forms``.
    parts:
        For the action of an interconnection, the subsystems' actions it sums.
    """

    name: str
    t: sympy.Symbol
    q: tuple[Any, ...]
    v: tuple[Any, ...]
    p: tuple[Any, ...]
    integrand: Any
    force: sympy.Matrix
    constraint_forms: sympy.Matrix
    owners: tuple[str, ...] = ()
    parts: tuple[ActionFunctional, ...] = ()

    @property
    def m(self) -> int:
        """Number of constraint one-forms."""
        return self.constraint_forms.shape[1]


def _curves(sys: LagrangeDiracSystem) -> tuple[tuple, tuple, tuple, dict[Any, Any]]:
    """The curves ``q(t), v(t), p(t)`` of ``sys`` and the map plain symbol → curve."""
    q = tuple(sympy.Function(s)(T) for s in sys.names)
    v = tuple(sympy.Function(str(s))(T) for s in sys.velocities)
    p = tuple(sympy.Function(str(s))(T) for s in sys.momenta)
    back = dict(zip(sys.coordinates, q, strict=True)) | dict(zip(sys.velocities, v, strict=True))
    return q, v, p, back


def _pontryagin(sys: LagrangeDiracSystem) -> tuple[tuple, tuple, tuple, Any, dict]:
    q, v, p, back = _curves(sys)
    pairing = sum((pi * (qi.diff(T) - vi) for qi, vi, pi in zip(q, v, p, strict=True)),
                  sympy.Integer(0))
    return q, v, p, sys.lagrangian.xreplace(back) + pairing, back


def hamilton_pontryagin(system: LagrangeDiracSystem) -> ActionFunctional:
    """The Hamilton–Pontryagin action of ``system``'s Lagrangian alone (module
    docstring): no constraints, no forces.  Its stationarity conditions are the
    system's equations only when it has neither (use
    :func:`lagrange_dalembert_pontryagin` otherwise)."""
    q, v, p, ell, _ = _pontryagin(system)
    return ActionFunctional(f"Hamilton–Pontryagin action of {system.name}", T, q, v, p, ell,
                            sympy.zeros(system.n, 1), sympy.zeros(system.n, 0))


def lagrange_dalembert_pontryagin(system: LagrangeDiracSystem) -> ActionFunctional:
    """The LDAP action functional of ``system`` (module docstring).

    For an :class:`.interconnect.InterconnectedSystem` it is assembled from the
    subsystems (Jacobs & Yoshimura 2014, Def. 6.4): the sum of their LDAP actions,
    their forces and constraint forms placed on the product, and the interaction's
    one-forms (``Σ``) and two-form added.
    """
    subsystems = system.__dict__.get("subsystems")
    if subsystems is None:
        q, v, p, ell, back = _pontryagin(system)
        force = (system.forces + system.two_form * sympy.Matrix(system.velocities)).xreplace(back)
        return ActionFunctional(f"LDAP action of {system.name}", T, q, v, p, ell, force,
                                system.constraint_forms.xreplace(back),
                                tuple(system.constraint_owners))
    parts = tuple(lagrange_dalembert_pontryagin(s) for s in subsystems)
    q, v, p, back = _curves(system)
    n = system.n
    blocks, forces, owners = [], [], []
    offset = 0
    for part in parts:
        k = len(part.q)
        blocks.append(sympy.Matrix.vstack(sympy.zeros(offset, part.m), part.constraint_forms,
                                          sympy.zeros(n - offset - k, part.m)))
        forces.append(part.force)
        owners += part.owners
        offset += k
    A_int, B_int = system._A_int, system._B_int  # the interaction on the product
    A = sympy.Matrix.hstack(*blocks, A_int.xreplace(back))
    owners += [system.interaction.name] * A_int.shape[1]
    force = sympy.Matrix.vstack(*forces) + (B_int * sympy.Matrix(system.velocities)).xreplace(back)
    ell = sum((part.integrand for part in parts), sympy.Integer(0))
    return ActionFunctional(f"LDAP action of {system.name} (sum of the parts' actions)", T,
                            q, v, p, ell, force, A, tuple(owners), parts)


def stationarity(action: ActionFunctional) -> ImplicitEquations:
    r"""The stationarity conditions of ``action`` as an :class:`ImplicitEquations`
    (``kinematic`` from ``δp``, ``legendre`` from ``δv``, ``dynamic`` from ``δq ∈ Δ``
    with one multiplier ``λ_k`` per constraint form, ``constraints = Aᵀ v``); signs
    as in the module docstring.  Derived with SymPy's ``euler_equations``."""
    funcs = list(action.q) + list(action.v) + list(action.p)
    el = [eq.lhs for eq in euler_equations(action.integrand, funcs, action.t)]
    n = len(action.q)
    e_q, e_v, e_p = (sympy.Matrix(el[k * n:(k + 1) * n]) for k in range(3))
    lam = [sympy.Function(f"lambda_{k}")(action.t) for k in range(action.m)]
    A = action.constraint_forms
    reaction = A * sympy.Matrix(lam) if lam else sympy.zeros(n, 1)
    return ImplicitEquations(
        t=action.t, q=list(action.q), v=list(action.v), p=list(action.p), lam=lam,
        kinematic=e_p, legendre=-e_v, dynamic=-e_q - action.force - reaction,
        constraints=(A.T * sympy.Matrix(action.v)) if lam else sympy.zeros(0, 1))


@dataclass(frozen=True)
class VariationalCheck:
    """Whether two sets of implicit equations have the same solutions.

    ``kinematic``, ``legendre``, ``dynamic``: the blocks agree identically
    (``dynamic`` without the reactions, ``λ = 0``); ``constraints``: the constraint
    forms span the same ``Δ°`` (so the reactions and ``v ∈ Δ`` agree);
    ``reactions``: in each set the reaction forces lie along its constraint forms
    (d'Alembert's principle).  ``differences`` names the blocks that differ.
    """

    kinematic: bool
    legendre: bool
    dynamic: bool
    constraints: bool
    reactions: bool

    @property
    def ok(self) -> bool:
        """All blocks agree."""
        return all((self.kinematic, self.legendre, self.dynamic, self.constraints,
                    self.reactions))

    @property
    def differences(self) -> list[str]:
        """Names of the blocks that disagree (empty when :attr:`ok`)."""
        return [k for k in ("kinematic", "legendre", "dynamic", "constraints", "reactions")
                if not getattr(self, k)]


def _plain(eqs: ImplicitEquations) -> dict[Any, sympy.Symbol]:
    """Curves and their first derivatives → plain symbols (derivatives first)."""
    out: dict[Any, sympy.Symbol] = {}
    for f in eqs.q + eqs.p:
        out[f.diff(eqs.t)] = sympy.Symbol(f"d_{f.func.__name__}")
    for f in eqs.q + eqs.v + eqs.p:
        out[f] = sympy.Symbol(f.func.__name__)
    return out


def _same(a: sympy.Matrix, b: sympy.Matrix) -> bool:
    if a.shape != b.shape:
        return False
    return all(dla.sym_is_zero(sympy.expand(x - y)) for x, y in zip(a, b, strict=True))


def _forms(eqs: ImplicitEquations, plain: dict) -> tuple[sympy.Matrix, sympy.Matrix]:
    """``A`` read off the constraint block (``Aᵀ v``), and ``−∂ dynamic/∂λ``."""
    n = len(eqs.q)
    v = sympy.Matrix([plain[f] for f in eqs.v])
    if not eqs.lam:
        return sympy.zeros(n, 0), sympy.zeros(n, 0)
    lam = sympy.Matrix([sympy.Symbol(f"lam_{k}") for k in range(len(eqs.lam))])
    cons = eqs.constraints.xreplace(plain).jacobian(v).T
    dyn = eqs.dynamic.xreplace(plain | dict(zip(eqs.lam, lam, strict=True)))
    return cons, -dyn.jacobian(lam)


def _span_equal(A: sympy.Matrix, B: sympy.Matrix) -> bool:
    if A.shape[1] == 0 or B.shape[1] == 0:
        return A.shape[1] == B.shape[1] or (
            all(x == 0 for x in A) and all(x == 0 for x in B))
    both = sympy.Matrix.hstack(A, B)
    atoms = dla.free_atoms(both)
    for trial in range(2):
        Ab = dla.sym_eval(both, trial, atoms)
        ra = dla.numeric_rank(Ab[:, :A.shape[1]])
        rb = dla.numeric_rank(Ab[:, A.shape[1]:])
        if not ra == rb == dla.numeric_rank(Ab):
            return False
    return True


def compare_equations(a: ImplicitEquations, b: ImplicitEquations) -> VariationalCheck:
    """Compare two implicit Lagrange–d'Alembert–Pontryagin systems on the same curves
    (module docstring); multipliers may differ in number and order, as only the
    spans of the constraint forms matter."""
    names = [[f.func.__name__ for f in eq.q + eq.v + eq.p] for eq in (a, b)]
    if names[0] != names[1]:
        raise ModelError("compare_equations: the two sets of equations are written in "
                         f"different curves ({', '.join(names[0])} vs {', '.join(names[1])}); "
                         "compare equations of the same coordinates in the same order")
    plain = _plain(a)
    zero = {lam: 0 for lam in a.lam + b.lam}
    A_a, R_a = _forms(a, plain)
    A_b, R_b = _forms(b, plain)
    return VariationalCheck(
        kinematic=_same(a.kinematic.xreplace(plain), b.kinematic.xreplace(plain)),
        legendre=_same(a.legendre.xreplace(plain), b.legendre.xreplace(plain)),
        dynamic=_same(a.dynamic.xreplace(zero).xreplace(plain),
                      b.dynamic.xreplace(zero).xreplace(plain)),
        constraints=_span_equal(A_a, A_b),
        reactions=_span_equal(A_a, R_a) and _span_equal(A_b, R_b),
    )


def check_variational(system: LagrangeDiracSystem,
                      action: ActionFunctional | None = None) -> VariationalCheck:
    """Whether the stationarity conditions of ``action`` (default: the LDAP action of
    ``system``, from its parts for an interconnection) are ``system.equations()``
    (Yoshimura & Marsden 2006, Part II; Jacobs & Yoshimura 2014, Thm. 6.6)."""
    action = lagrange_dalembert_pontryagin(system) if action is None else action
    return compare_equations(stationarity(action), system.equations())

