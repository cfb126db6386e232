r"""Lagrange–Dirac (implicit Lagrangian) systems.

A Lagrange–Dirac system on ``Q`` is a Lagrangian ``L(q, v)`` (possibly degenerate),
a constraint distribution ``Δ_Q = ker A(q)ᵀ``, an external force ``F(q, v, t)`` and
optionally a two-form ``B(q)`` (magnetic/gyroscopic coupling).  Its curves
``(q(t), v(t), p(t))`` satisfy ``(X, 𝔇L − F̃) ∈ D_Δ`` with ``X = (q̇, ṗ)``,
``𝔇L = (−∂L/∂q, v)`` the Dirac differential and ``D_Δ`` the induced Dirac
structure of :mod:`.canonical` (Yoshimura & Marsden, *J. Geom. Phys.* 57 (2006)
133–156; with forces: *Dirac structures in Lagrangian mechanics
Part II*, J. Geom. Phys. 57 (2006) 209–250).  In coordinates these are the
implicit Lagrange–d'Alembert–Pontryagin equations, a DAE with multipliers ``λ``:

.. math::

   \dot q = v,\qquad p = \frac{\partial L}{\partial v},\qquad
   \dot p = \frac{\partial L}{\partial q} + F + B\,v + A(q)\,λ,\qquad
   A(q)^\mathsf{T} v = 0 .

``A λ`` is the constraint force (it does no work on ``Δ``); ``B v = −i_v β`` is the
magnetic force (no work either).  The generalized energy
``E(q, v, p) = ⟨p, v⟩ − L(q, v)`` obeys the power balance ``dE/dt = ⟨F, v⟩``
along solutions (``− ∂L/∂t`` if ``L`` depends on time explicitly): the constraint
and magnetic forces are workless and the remaining terms cancel by the Legendre
relation.

Units follow the coordinates: for a mechanical coordinate in m, ``v`` in m/s, ``p``
in kg·m/s, forces in N and ``E`` in J; for a charge in C, ``v`` is a current (A),
``p`` a flux linkage (Wb), forces are voltages (V).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

import numpy as np
import sympy

from ..dirac import DiracStructure
from ..errors import ModelError
from . import _constraints, _symbols
from ._symbols import T
from .canonical import cotangent_ports, evaluate, induced


@dataclass(frozen=True)
class ImplicitEquations:
    r"""The Lagrange–d'Alembert–Pontryagin DAE, each block ``= 0``.

    Unknowns are functions of ``t``: ``q`` and ``p`` (differential), ``v`` and ``lam``
    (algebraic).  ``kinematic = q̇ − v``, ``legendre = p − ∂L/∂v``,
    ``dynamic = ṗ − ∂L/∂q − F − B v − A λ``, ``constraints = Aᵀ v``.
    """

    t: sympy.Symbol
    q: list[Any]
    v: list[Any]
    p: list[Any]
    lam: list[Any]
    kinematic: sympy.Matrix
    legendre: sympy.Matrix
    dynamic: sympy.Matrix
    constraints: sympy.Matrix

    @property
    def residual(self) -> sympy.Matrix:
        """All equations stacked (``3n + m`` rows)."""
        return sympy.Matrix.vstack(self.kinematic, self.legendre, self.dynamic,
                                   self.constraints)

    @property
    def unknowns(self) -> list[Any]:
        """``q, p, v, λ`` (functions of ``t``), the order of :meth:`residual`'s unknowns."""
        return self.q + self.p + self.v + self.lam


class LagrangeDiracSystem:
    r"""A Lagrange–Dirac system (see the module docstring for the equations).

    Parameters
    ----------
    coordinates:
        ``q_1 … q_n``: SymPy symbols, or functions of time
        (``dynamicsymbols('x')``) whose time derivatives are the velocities.
    lagrangian:
        ``L(q, v)`` as a SymPy expression (degenerate allowed: e.g. a capacitor
        charge enters only through ``−q²/(2C)``).
    velocities:
        Velocity symbols, required when the coordinates are plain symbols.
    constraints:
        Constraint one-forms ``ω_k`` with ``ω_k(v) = 0``: mappings
        ``{coordinate: coefficient}``, coefficient lists, or expressions linear in
        the velocities (``x.diff(t) - r*cos(phi)*theta.diff(t)``).  Holonomic or not.
    forces:
        External force one-form ``F(q, v, t)``: ``{coordinate: expression}`` or a
        list (a resistor on a charge coordinate is ``−R·q̇``; a source ``u(t)``).
    magnetic:
        Two-form ``β`` as ``{(q_i, q_j): β_ij}`` (``β_ij dq_i ∧ dq_j``), giving the
        workless force ``−i_v β``.
    parameters:
        ``{symbol or name: value}`` for symbols in ``L``, forms and forces.
    name:
        Used in messages (and, for an interconnection, to say which subsystem is
        at fault).

    The system is immutable (docs/lagrange.md): :attr:`parameters` is a read-only
    mapping, the other data are read-only properties (assigning one raises
    :class:`~porthamiltonian.errors.ModelError`), and :meth:`with_parameters` returns a
    new system with other values.
    """

    def __init__(
        self,
        coordinates: Sequence[Any],
        lagrangian: Any,
        *,
        velocities: Sequence[Any] | None = None,
        constraints: Sequence[Any] = (),
        forces: Mapping[Any, Any] | Sequence[Any] | None = None,
        magnetic: Mapping[Any, Any] | None = None,
        parameters: Mapping[Any, float] | None = None,
        name: str = "system",
    ) -> None:
        c = _symbols.make_coordinates(coordinates, velocities, name)
        A = _symbols.one_forms(constraints, c, name)
        self._init(c, c.to_plain(lagrangian), A, [name] * A.shape[1],
                   _symbols.force_vector(forces, c, name),
                   _symbols.two_form(magnetic, c, name), parameters or {}, name)

    def _init(self, c: _symbols.Coordinates, L: Any, A: sympy.Matrix, owners: list[str],
              F: sympy.Matrix, B: sympy.Matrix, parameters: Mapping[Any, float],
              name: str) -> None:
        bad = [s for s in sympy.sympify(L).free_symbols if s in c.p]
        if bad:
            raise ModelError(f"{name}: the Lagrangian depends on momenta {bad}; write "
                             "L(q, v) in coordinates and velocities only")
        keep, rank = _constraints.independent_forms(A, owners)
        self._c = c
        self._L = sympy.sympify(L)
        self._A = A[:, keep] if A.shape[1] else A
        self._owners = [owners[j] for j in keep]
        self._rank = rank
        self._F = F
        self._B = B
        self.name = name
        self._parameters = self._resolve_parameters(parameters)

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(getattr(type(self), name, None), property):
            raise ModelError(
                f"{type(self).__name__}.{name} cannot be re-assigned: a Lagrange–Dirac "
                "system is immutable; use .with_parameters(...) for other parameter values "
                "or construct a new system"
            )
        object.__setattr__(self, name, value)

    def with_parameters(self, values: Mapping[Any, float] | None = None, /,
                        **kw: float) -> LagrangeDiracSystem:
        """A new system with some parameter values replaced; this one is unchanged.

        Keys are symbols or their names (``values`` a mapping, and/or keywords); the
        other parameters keep their values.  Raises :class:`ModelError` for a symbol
        that does not appear in the model, listing those that do.  The subsystems of an
        interconnection get the new values of their own symbols, so the parts and the
        whole agree.
        """
        given = {**dict(values or {}), **kw}
        resolved = self._resolve_parameters(given)
        new = copy.copy(self)
        object.__setattr__(new, "_parameters", {**self._parameters, **resolved})
        subsystems = self.__dict__.get("subsystems")
        if subsystems is not None:
            parts = []
            for sub in subsystems:
                own = sub._free_symbols()
                mine = {k: v for k, v in resolved.items() if k in own}
                parts.append(sub.with_parameters(mine) if mine else sub)
            object.__setattr__(new, "subsystems", tuple(parts))
        return new

    def _resolve_parameters(self, parameters: Mapping[Any, float]) -> dict[Any, float]:
        atoms = self._free_symbols()
        by_name = {str(s): s for s in atoms}
        out: dict[Any, float] = {}
        for key, val in parameters.items():
            sym = by_name.get(key) if isinstance(key, str) else key
            if sym not in atoms:
                raise ModelError(f"{self.name}: parameter {key!r} does not appear in the "
                                 f"model (symbols: {', '.join(sorted(by_name)) or '-'})")
            out[sym] = float(val)
        return out

    def _free_symbols(self) -> set[Any]:
        exprs = [self._L, self._A, self._F, self._B]
        atoms: set[Any] = set().union(*(sympy.sympify(e).free_symbols for e in exprs))
        return atoms - set(self._c.q) - set(self._c.v) - {T}

    # ------------------------------------------------------------------ data

    @property
    def coordinates(self) -> tuple[sympy.Symbol, ...]:
        """Coordinate symbols ``q`` (plain symbols)."""
        return self._c.q

    @property
    def velocities(self) -> tuple[sympy.Symbol, ...]:
        """Velocity symbols ``v``."""
        return self._c.v

    @property
    def momenta(self) -> tuple[sympy.Symbol, ...]:
        """Momentum symbols ``p`` (named ``p_<coordinate>``)."""
        return self._c.p

    @property
    def names(self) -> tuple[str, ...]:
        """Coordinate names."""
        return self._c.names

    @property
    def lagrangian(self) -> Any:
        """``L(q, v)``."""
        return self._L

    @property
    def constraint_forms(self) -> sympy.Matrix:
        """``A(q)``: columns are the (independent) constraint one-forms."""
        return self._A

    @property
    def constraint_owners(self) -> list[str]:
        """For each column of :attr:`constraint_forms`, who imposed it."""
        return list(self._owners)

    @property
    def forces(self) -> sympy.Matrix:
        """External force ``F(q, v, t)``."""
        return self._F

    @property
    def two_form(self) -> sympy.Matrix:
        """Skew matrix ``B(q)`` of the magnetic two-form (force ``B v``)."""
        return self._B

    @property
    def parameters(self) -> Mapping[Any, float]:
        """Parameter values substituted for simulation (symbol → value), read-only; see
        :meth:`with_parameters`."""
        return MappingProxyType(self._parameters)

    @property
    def n(self) -> int:
        """Number of coordinates."""
        return self._c.n

    @property
    def m(self) -> int:
        """Number of independent constraint one-forms (multipliers)."""
        return self._A.shape[1]

    def __repr__(self) -> str:
        return (f"LagrangeDiracSystem({self.name!r}, coordinates=({', '.join(self.names)}), "
                f"constraints={self.m})")

    # ------------------------------------------------------------- mechanics

    def legendre(self) -> sympy.Matrix:
        """Legendre map ``p = ∂L/∂v (q, v)``."""
        return sympy.Matrix([sympy.diff(self._L, vi) for vi in self._c.v])

    def energy(self) -> Any:
        r"""Generalized energy on the Legendre image, ``E = ⟨∂L/∂v, v⟩ − L`` (q, v).

        On the Pontryagin bundle ``E(q, v, p) = ⟨p, v⟩ − L``; the two agree where
        ``p = ∂L/∂v``, which every solution satisfies.
        """
        return sympy.expand((self.legendre().T * sympy.Matrix(self._c.v))[0, 0] - self._L)

    def power(self) -> Any:
        """``dE/dt`` along solutions: ``⟨F, v⟩ − ∂L/∂t`` (the power supplied by the
        external forces, minus the explicit time dependence of ``L`` if any)."""
        return (self._F.T * sympy.Matrix(self._c.v))[0, 0] - sympy.diff(self._L, T)

    def equations(self) -> ImplicitEquations:
        """The implicit Lagrange–d'Alembert–Pontryagin DAE (module docstring)."""
        c = self._c
        q = [sympy.Function(s)(T) for s in c.names]
        v = [sympy.Function(str(s))(T) for s in c.v]
        p = [sympy.Function(str(s))(T) for s in c.p]
        lam = [sympy.Function(f"lambda_{k}")(T) for k in range(self.m)]
        back = dict(zip(c.q, q, strict=True)) | dict(zip(c.v, v, strict=True))
        L = self._L
        dLdv = sympy.Matrix([sympy.diff(L, vi) for vi in c.v]).xreplace(back)
        dLdq = sympy.Matrix([sympy.diff(L, qi) for qi in c.q]).xreplace(back)
        A = self._A.xreplace(back)
        Fv = (self._F + self._B * sympy.Matrix(c.v)).xreplace(back)
        qv, vv, pv = sympy.Matrix(q), sympy.Matrix(v), sympy.Matrix(p)
        lv = sympy.Matrix(lam) if lam else sympy.zeros(0, 1)
        return ImplicitEquations(
            t=T, q=q, v=v, p=p, lam=lam,
            kinematic=qv.diff(T) - vv,
            legendre=pv - dLdv,
            dynamic=pv.diff(T) - dLdq - Fv - (A * lv if lam else sympy.zeros(self.n, 1)),
            constraints=(A.T * vv) if lam else sympy.zeros(0, 1),
        )

    def acceleration_form(self) -> tuple[sympy.Matrix, sympy.Matrix]:
        r"""``M(q, v) [v̇; λ] = r(q, v, t)`` after differentiating ``p = ∂L/∂v`` and the
        constraints once:

        .. math::

           \begin{bmatrix} L_{vv} & -A \\ A^\mathsf{T} & 0 \end{bmatrix}
           \begin{bmatrix} \dot v \\ λ \end{bmatrix} =
           \begin{bmatrix} L_q + F + B v − L_{vq} v − L_{vt} \\
           −\partial_q(A^\mathsf{T} v)\, v \end{bmatrix}.

        ``M`` may be invertible although ``L_vv`` is singular (degenerate
        Lagrangians whose degenerate directions the constraints fix, such as
        circuits with charges as coordinates).
        """
        c = self._c
        vv = sympy.Matrix(c.v)
        Lv = self.legendre()
        Lvv = Lv.jacobian(vv)
        Lvq = Lv.jacobian(sympy.Matrix(c.q))
        Lq = sympy.Matrix([sympy.diff(self._L, qi) for qi in c.q])
        A = self._A
        top = sympy.Matrix.hstack(Lvv, -A)
        M = sympy.Matrix.vstack(top, sympy.Matrix.hstack(A.T, sympy.zeros(self.m, self.m)))
        r1 = Lq + self._F + self._B * vv - Lvq * vv - Lv.diff(T)
        r2 = -(A.T * vv).jacobian(sympy.Matrix(c.q)) * vv if self.m else sympy.zeros(0, 1)
        return M, sympy.Matrix.vstack(r1, r2)

    # --------------------------------------------------------------- Dirac

    def point(self, q: Any) -> dict[Any, float]:
        """``{coordinate symbol: value}`` (plus the parameters) for ``q`` given as a
        sequence in coordinate order or a mapping ``{name or symbol: value}``."""
        if isinstance(q, Mapping):
            vals = [0.0] * self.n
            given = set()
            for key, val in q.items():
                i = self._c.index(key, f"{self.name}: point")
                vals[i] = float(val)
                given.add(i)
            if len(given) != self.n:
                missing = [self.names[i] for i in range(self.n) if i not in given]
                raise ModelError(f"{self.name}: no value for coordinates {', '.join(missing)}")
        else:
            vals = [float(x) for x in np.ravel(np.asarray(q, dtype=float))]
            if len(vals) != self.n:
                raise ModelError(f"{self.name}: {len(vals)} values for {self.n} coordinates "
                                 f"({', '.join(self.names)})")
        return dict(zip(self._c.q, vals, strict=True)) | self._parameters

    def dirac_structure(self, at: Any = None) -> DiracStructure:
        """The induced Dirac structure ``D_Δ`` (with the magnetic term) on ``T*Q``.

        ``at``: coordinates of a point (sequence or mapping) for a numeric
        structure; ``None`` for the symbolic (generic) one.  Ports are
        :func:`.canonical.cotangent_ports` of :attr:`names`.
        """
        pt = None if at is None else self.point(at)
        return induced(self.names, self._A, self._B, pt)

    @property
    def ports(self) -> list[str]:
        """Ports of :meth:`dirac_structure`: coordinates, then ``p_<coordinate>``."""
        return cotangent_ports(self.names)

    def check_constant_rank(self, q: Any) -> None:
        """Raise :class:`ModelError` if the constraint forms lose rank at ``q``
        (the distribution, or the intersection of interconnected ones, is not of
        constant rank there); the message names the subsystems involved."""
        pt = self.point(q)
        A = evaluate(self._A, pt) if self.m else np.zeros((self.n, 0))
        where = "at " + ", ".join(f"{s} = {pt[qi]:g}" for s, qi in
                                  zip(self.names, self._c.q, strict=True))
        _constraints.check_clean(A, self._rank, self._owners, where)

    def to_descriptor(self) -> tuple[Any, dict[str, Any]]:
        """The port-Hamiltonian IR: a :class:`~porthamiltonian.DescriptorPHS` with state
        ``(q, v)`` and the input signals ``{name: g(t)}``; see :mod:`.descriptor`
        (constant mass matrix, forces ``−D v + g(t)``)."""
        from .descriptor import to_descriptor

        return to_descriptor(self)

    # --------------------------------------------------------------- simulation

    def simulate(self, t_span: Any, q0: Any, v0: Any, method: Any = "DOP853",
                 dt: float | None = None, *, options: Any = None,
                 **option_values: Any) -> Any:
        """Integrate from ``(q0, v0)`` over ``t_span`` (s; a pair starting at 0, or
        ``t_end``) with the arguments of :func:`porthamiltonian.simulate` (``method``,
        ``dt``, ``options`` and its fields such as ``rtol``, ``atol``, ``t_eval``); see
        :mod:`._integrate`.  SciPy methods and ``"ida"`` integrate the index-reduced
        equations (default DOP853, ``rtol = 1e-11``); ``"midpoint"`` and
        ``"discrete_gradient"`` simulate :meth:`to_descriptor` with
        :func:`porthamiltonian.simulate`.

        Returns a :class:`~porthamiltonian.lagrange.result.LagrangeResult` with
        ``t``, ``q``, ``v``, ``p``, ``lam`` (multipliers), ``energy``, ``work``
        (of the external forces) and the constraint residuals.
        """
        from ._integrate import simulate

        return simulate(self, t_span, q0, v0, method, dt, options=options, **option_values)
