r"""Descriptor (implicit) port-Hamiltonian systems with algebraic constraints.

.. math::
    E\,\dot x &= (J - R)\,z + B\,\lambda + (G - P)\,u \\
    0 &= B^\top z \\
    y &= (G + P)^\top z + (M + S)\,u

with the effort vector :math:`z` related to the energy by :math:`E^\top z = \nabla H`
(Beattie, Mehrmann, Xu, Zwart, *MCSS* 30, 2018).  :math:`\lambda` are Lagrange
multipliers (constraint forces, e.g. of kinematic pairs); the constraint
:math:`B^\top z = 0` says that they do no work: :math:`z^\top B\lambda = 0`.  Hence

.. math::  \dot H = z^\top E \dot x = u^\top y - [z; u]^\top W [z; u].

Two ways to give the energy:

* numeric / linear: ``Q`` with :math:`z = Qx` and :math:`H = \tfrac12 x^\top E^\top Q x`
  (:math:`E^\top Q` must be symmetric);
* symbolic: ``hamiltonian`` :math:`H(x)`, with ``z = ∇H`` (then ``E`` must be the
  identity or given together with ``efforts`` satisfying :math:`E^\top z = \nabla H`).

``B`` may depend on the state (symbolic systems), e.g. the direction of a rod.
:meth:`DescriptorPHS.compile` generates once the numeric functions DAE solvers need
(efforts, their Jacobian, ``B(x)``, Jacobians of the structure); simulation is in
:mod:`porthamiltonian.simulate.dae.loop` (docs/simulation-dae.md).

:meth:`DescriptorPHS.to_phs` returns the explicit form when one exists: it inverts an
invertible ``E`` and eliminates constrained states for a quadratic ``H`` and constant
``B``, keeping a subset of the original states (named after their elements).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cached_property
from typing import Any

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sps
import sympy as sp

from . import _matrices as mx
from .errors import ModelError, NoExplicitFormError, StructureError
from .naming import check_names
from .phs import MATRIX_NAMES, PHS, _read_only
from .quantities import (
    GENERIC,
    OBSERVE_UP_TO,
    Observable,
    Quantities,
    StateInfo,
    removed_storage,
)
from .sealed import Sealed
from .structure import check_symmetric

#: What defines a DescriptorPHS: re-assigning one of these after construction raises
#: ModelError (the compiled form and the cached numeric E, B are derived from them).
_DEFINING = frozenset({"core", "E", "B", "efforts", "multipliers", "kind", "states",
                       "inputs", "outputs", "parameters", *MATRIX_NAMES,
                       "_checked", "_check_Q"})


class DescriptorPHS(Sealed):
    """Port-Hamiltonian descriptor system ``E ẋ = (J−R)z + Bλ + (G−P)u, 0 = Bᵀz``.

    Parameters
    ----------
    E : (n, n) matrix, optional
        Descriptor matrix; identity when omitted.  May be singular.
    J, R, G, P, M, S :
        As for :class:`~porthamiltonian.PHS` (structure checked the same way).
    B : (n, k) matrix, optional
        Constraint matrix; its columns are the directions of the multipliers.
    hamiltonian, Q :
        The energy (see the module docstring).
    efforts : SymPy column, optional
        ``z(x)`` for a symbolic system with ``E ≠ I``.
    states, inputs, outputs, multipliers : list of str, optional
        Names; multipliers default to ``lambda0…``.
    parameters : mapping, optional
        Parameter values, as for :class:`~porthamiltonian.PHS`.

    Like a PHS, a descriptor system is immutable (docs/phs.md, "Models are immutable"):
    :attr:`parameters` is read-only, re-assigning ``E``, ``B``, ``core`` … raises
    :class:`~porthamiltonian.errors.ModelError`, and :meth:`with_parameters` returns a
    new system.  What :meth:`compile` caches (and the numeric ``E``, ``B``) is derived
    from the system, so it is never stale.
    """

    #: simulated as a DAE (:mod:`porthamiltonian.compiled.protocol`)
    problem_kind = "dae"
    _DEFINING = _DEFINING
    _ADVICE = ("use .with_parameters(...) for other parameter values, "
               ".replace(name=..., parameters=...), or construct a new system")

    def __init__(
        self,
        E: Any = None,
        J: Any = None,
        R: Any = None,
        G: Any = None,
        P: Any = None,
        M: Any = None,
        S: Any = None,
        *,
        B: Any = None,
        hamiltonian: Any = None,
        Q: Any = None,
        efforts: Any = None,
        states: Sequence[str] | None = None,
        inputs: Sequence[str] | None = None,
        outputs: Sequence[str] | None = None,
        multipliers: Sequence[str] | None = None,
        parameters: Mapping[str, Any] | None = None,
        name: str = "",
        check: bool = True,
        quantities: Quantities | None = None,
    ) -> None:
        # The (J, R, G, P, M, S, H) part is a PHS in the effort variables: reuse its checks.
        self.core = PHS(J, R, G, P, M, S, hamiltonian=hamiltonian, Q=Q, states=states,
                        inputs=inputs, outputs=outputs, parameters=parameters, name=name,
                        check=False)
        if check:  # with E ≠ I, Q need not be symmetric (EᵀQ must be: checked below)
            self.core.check(check_Q=E is None)
        n = self.core.n_states
        kind = self.core.kind
        self.kind = kind
        self.name = name
        #: physical meaning of the variables (an annotation, :mod:`..quantities`)
        self.quantities = quantities
        symbolic = kind == "symbolic"
        if E is None:  # (n × n dense identity built only when needed: never for a given E)
            self.E = sp.ImmutableMatrix(sp.eye(n)) if symbolic else _read_only(np.eye(n))
        else:
            self.E = (sp.ImmutableMatrix(mx.as_symbolic(E, (n, n), "E")) if symbolic
                      else _read_only(mx.as_numeric(E, (n, n), "E", sparse=False)))
        k = 0 if B is None else (mx.shape_of(B) or (n, 0))[1]
        self.B = (sp.ImmutableMatrix(mx.as_symbolic(B, (n, k), "B")) if symbolic
                  else _read_only(mx.as_numeric(B, (n, k), "B", sparse=False)))
        self.multipliers = check_names(
            list(multipliers) if multipliers is not None else [f"lambda{i}" for i in range(k)],
            "multipliers",
        )
        if len(self.multipliers) != k:
            raise ModelError(f"{len(self.multipliers)} multiplier names for {k} constraints")
        self.efforts = None
        if symbolic:
            self.efforts = sp.ImmutableMatrix(efforts if efforts is not None
                                              else self.core.gradient_expr)
            if E is not None and check:
                lhs = sp.simplify(self.E.T * self.efforts - self.core.gradient_expr)
                if not lhs.is_zero_matrix:
                    raise StructureError(
                        "Eᵀ z ≠ ∇H: give efforts= z(x) with Eᵀ z = ∇H for a descriptor "
                        f"system with E ≠ I (mismatch {list(lhs)})"
                    )
        elif check and E is not None:  # a sparse E with a sparse Q stays sparse
            Qc = self.core.Q
            Qc = Qc if sps.issparse(self.E) and sps.issparse(Qc) else mx.to_dense(Qc)
            check_symmetric(self.E.T @ Qc, "EᵀQ", self.core.states)
        self._checked, self._check_Q = check, E is None
        self.seal()

    # ------------------------------------------------------------------ immutability

    @property
    def parameters(self) -> Mapping[str, Any]:
        """Parameter name → value (``None``: symbolic), read-only (those of :attr:`core`)."""
        return self.core.parameters

    def with_parameters(self, values: Mapping[str, Any] | None = None, /,
                        **kw: Any) -> DescriptorPHS:
        """A new system with some parameter values replaced; this one is unchanged.

        As :meth:`PHS.with_parameters <porthamiltonian.PHS.with_parameters>` (a mapping
        and/or keywords; ``None`` makes a parameter symbolic): the symbols stay in ``E``,
        ``B``, the matrices and the Hamiltonian, only the values used numerically change.
        Raises :class:`ModelError` for a name that is not a parameter, listing them.
        """
        return self._with_core(self.core.with_parameters(values, **kw))

    def replace(self, *, name: str | None = None,
                parameters: Mapping[str, Any] | None = None) -> DescriptorPHS:
        """A copy with another ``name`` and/or all ``parameters`` replaced, as
        :meth:`PHS.replace <porthamiltonian.PHS.replace>`."""
        new = self._with_core(self.core.replace(name=name, parameters=parameters))
        if name is not None:
            new.name = str(name)
        return new

    def _with_core(self, core: PHS) -> DescriptorPHS:
        """This system with another core (same structure, other parameter values).

        Public attributes (the name, annotations such as ``port_kinds``) and the defining
        fields are carried over; private ones are caches derived from the old values
        (``_compiled``, the numeric ``E``/``B``, a solver's factorization) and are not.
        """
        new = object.__new__(type(self))
        new.__dict__.update({k: v for k, v in self.__dict__.items()
                             if not k.startswith("_") or k in _DEFINING or k == "_sealed"})
        new.__dict__["core"] = core
        return new

    # ------------------------------------------------------------------ accessors
    states = property(lambda self: self.core.states)
    inputs = property(lambda self: self.core.inputs)
    outputs = property(lambda self: self.core.outputs)

    def __getattr__(self, item: str) -> Any:
        if item in MATRIX_NAMES:
            return getattr(self.core, item)
        raise AttributeError(item)

    @property
    def n_constraints(self) -> int:
        return len(self.multipliers)

    def _num(self, A: Any) -> np.ndarray:
        if isinstance(A, sp.MatrixBase):
            return np.array(A.xreplace(self.core.parameter_values()).tolist(), dtype=float)
        return mx.to_dense(A)

    @cached_property
    def _E_num(self) -> np.ndarray:
        return self._num(self.E)

    @cached_property
    def _B_num(self) -> np.ndarray:
        return self._num(self.B)

    # ------------------------------------------------------------------ evaluation
    def compile(self) -> Any:
        """Generate (once) the numeric functions a DAE solver needs (``z``, ``Dz``, ``B(x)``,
        the Jacobians of the structure): a
        :class:`~porthamiltonian.compiled.descriptor.CompiledDescriptor`."""
        if getattr(self, "_compiled", None) is None:
            from .compiled.descriptor import CompiledDescriptor

            self._compiled = CompiledDescriptor(self)
        return self._compiled

    def residual(self, x: Any, xdot: Any, lam: Any = None, u: Any = None) -> np.ndarray:
        """Residual ``[E ẋ − (J−R)z − B(x)λ − (G−P)u; B(x)ᵀz]`` of the DAE (zero on
        solutions); ``B`` may depend on the state."""
        num = self.compile()
        x = np.asarray(x, dtype=float)
        z = num.z(x)
        u = self.core.compile()._u(u)
        lam = np.zeros(self.n_constraints) if lam is None else np.asarray(lam, dtype=float)
        dyn = num.E @ np.asarray(xdot, dtype=float) - num.f(x, z, lam, u)
        return np.concatenate([dyn, num.c(x, z)])

    def constraint(self, x: Any) -> np.ndarray:
        """``B(x)ᵀ z(x)``, one entry per multiplier (zero on the constraint manifold)."""
        num = self.compile()
        x = np.asarray(x, dtype=float)
        return num.c(x, num.z(x))

    def output(self, x: Any, u: Any = None) -> np.ndarray:
        """``y = (G+P)ᵀz + (M+S)u``."""
        x = np.asarray(x, dtype=float)
        return self.compile().output(x, self.core.compile()._u(u))

    def energy(self, x: Any) -> float:
        """``H(x)``; for ``Q`` given, ``½ xᵀEᵀQx``."""
        x = np.asarray(x, dtype=float)
        if self.kind == "symbolic":
            return self.core.energy(x)
        E = self.E if sps.issparse(self.E) else self._E_num
        return 0.5 * float(x @ (E.T @ (self.core.Q @ x)))

    # ------------------------------------------------------------------ explicit form
    def to_phs(self) -> PHS:
        """The explicit PHS, when one exists.

        * invertible ``E`` (no constraints): :math:`J' = E^{-1} J E^{-\\top}`,
          :math:`G' = E^{-1} G`, … with :math:`Q' = E^\\top Q`;
        * constraints ``Bᵀ Q x = 0`` with constant ``B`` and quadratic ``H``: states
          are eliminated (chosen by a rank-revealing pivoting, the others kept with
          their names) and the reduced system is
          :math:`\\dot\\xi = (J_r - R_r) Q_r \\xi + (G_r - P_r) u` with
          :math:`x = V\\xi`, :math:`Q_r = V^\\top Q V`,
          :math:`J_r = Q_r^{-1} V^\\top Q J Q V Q_r^{-1}`, :math:`G_r = Q_r^{-1} V^\\top Q G`
          (and likewise ``R``, ``P``).  :attr:`reduction` says what was eliminated.

        Raises :class:`NoExplicitFormError` explaining why when neither applies.
        """
        sys, B = self._invert_E()
        if self.quantities is not None:  # an annotation (never compiled): safe on the core
            sys.quantities = self.quantities
        if self.n_constraints == 0:
            self.reduction = "no constraint; E inverted" if not self._is_eye() else "nothing"
            return sys
        return self._eliminate(sys, B)

    def _is_eye(self) -> bool:
        if self.kind == "symbolic":
            return bool(self.E == sp.eye(self.E.rows))
        if sps.issparse(self.E):
            return not (self.E != sps.eye_array(self.E.shape[0])).nnz
        return bool(np.allclose(self._E_num, np.eye(self._E_num.shape[0])))

    def _invert_E(self) -> tuple[PHS, Any]:
        """The system multiplied through by ``E⁻¹``, and the constraint matrix ``E⁻¹B``.

        With ``z' = ∇H' = Eᵀz`` the constraint ``Bᵀz = 0`` reads ``(E⁻¹B)ᵀ z' = 0``.
        """
        core = self.core
        if self._is_eye():
            return core, self.B
        if self.kind == "symbolic":
            if sp.simplify(self.E.det()) == 0:
                raise self._singular_E()
            Ei = self.E.inv()
            mats = {k: (Ei * A * Ei.T if k in ("J", "R") else Ei * A if k in ("G", "P") else A)
                    for k, A in core.matrices().items()}
            return PHS(**mats, hamiltonian=core.hamiltonian, states=core.states,
                       inputs=core.inputs, outputs=core.outputs, parameters=core.parameters,
                       name=core.name), Ei * self.B
        E = self._E_num
        if np.linalg.matrix_rank(E) < E.shape[0]:
            raise self._singular_E()
        Ei = np.linalg.inv(E)
        mats = {k: mx.to_dense(A) for k, A in core.matrices().items()}
        for k in ("J", "R"):
            mats[k] = Ei @ mats[k] @ Ei.T
        for k in ("G", "P"):
            mats[k] = Ei @ mats[k]
        mats["J"] = (mats["J"] - mats["J"].T) / 2
        mats["R"] = (mats["R"] + mats["R"].T) / 2
        Qn = E.T @ mx.to_dense(core.Q)
        return PHS(**mats, Q=(Qn + Qn.T) / 2, states=core.states, inputs=core.inputs,
                   outputs=core.outputs, name=core.name), Ei @ self._B_num

    def _singular_E(self) -> NoExplicitFormError:
        E = self._E_num if self.kind != "symbolic" else None
        rows = ""
        if E is not None:
            zero = [self.states[i] for i in range(E.shape[0]) if not np.any(E[i])]
            rows = f" (algebraic rows at {', '.join(zero)})" if zero else ""
        return NoExplicitFormError(
            f"E is singular{rows}: the system has algebraic equations in its state; an "
            "explicit PHS exists only after eliminating them — state them as constraints "
            "with B (multipliers) and a quadratic H, or simulate the DAE directly"
        )

    def _eliminate(self, sys: PHS, B: Any) -> PHS:
        symbolic = sys.symbolic
        Q = sys.Q
        if Q is None or (symbolic and any(b.has(*sys.state_symbols) for b in B)):
            raise NoExplicitFormError(
                "cannot eliminate the constraints: the Hamiltonian is not quadratic or B "
                "depends on the state; the system stays a DescriptorPHS"
            )
        n, k = sys.n_states, self.n_constraints
        if symbolic:
            C = (B.T * Q).applyfunc(sp.simplify)
            _, piv = C.rref()
            if len(piv) < k:
                raise NoExplicitFormError(self._redundant_msg(len(piv)))
            el = list(piv)
            keep = [i for i in range(n) if i not in el]
            V = sp.zeros(n, n - k)
            for col, i in enumerate(keep):
                V[i, col] = 1
            sol = -C.extract(list(range(k)), el).inv() * C.extract(list(range(k)), keep)
            for r, i in enumerate(el):
                V[i, :] = sol[r, :]
            Qr = (V.T * Q * V).applyfunc(sp.simplify)
            Qri = Qr.inv()
            W = Qri * V.T * Q
            mats = sys.matrices()
            new = {"J": W * mats["J"] * W.T, "R": W * mats["R"] * W.T,
                   "G": W * mats["G"], "P": W * mats["P"], "M": mats["M"], "S": mats["S"]}
            new = {kk: A.applyfunc(sp.simplify) for kk, A in new.items()}
            xs = sp.Matrix([sys.state_symbols[i] for i in keep])
            H = sp.expand(sp.Rational(1, 2) * (xs.T * Qr * xs)[0, 0])
            red = PHS(**new, hamiltonian=H, states=[sys.states[i] for i in keep],
                      inputs=sys.inputs, outputs=sys.outputs, parameters=sys.parameters,
                      name=sys.name)
        else:
            Qd = mx.to_dense(Q)
            C = self._num(B).T @ Qd
            _, _, piv = sla.qr(C, pivoting=True, mode="economic")
            rank = int(np.sum(np.abs(np.diag(sla.qr(C[:, piv], mode="r")[0])) >
                              1e-10 * max(1.0, np.abs(C).max())))
            if rank < k:
                raise NoExplicitFormError(self._redundant_msg(rank))
            el = sorted(int(i) for i in piv[:k])
            keep = [i for i in range(n) if i not in el]
            V = np.zeros((n, n - k))
            V[keep, np.arange(n - k)] = 1.0
            V[el, :] = -np.linalg.solve(C[:, el], C[:, keep])
            Qr = V.T @ Qd @ V
            W = np.linalg.solve(Qr, V.T @ Qd)
            mats = {kk: mx.to_dense(A) for kk, A in sys.matrices().items()}
            new = {"J": W @ mats["J"] @ W.T, "R": W @ mats["R"] @ W.T,
                   "G": W @ mats["G"], "P": W @ mats["P"], "M": mats["M"], "S": mats["S"]}
            new["J"] = (new["J"] - new["J"].T) / 2
            new["R"] = (new["R"] + new["R"].T) / 2
            red = PHS(**new, Q=(Qr + Qr.T) / 2, states=[sys.states[i] for i in keep],
                      inputs=sys.inputs, outputs=sys.outputs, name=sys.name)
        self.reduction = (
            f"eliminated state(s) {', '.join(sys.states[i] for i in el)} using the "
            f"constraint(s) {', '.join(self.multipliers)}; kept "
            f"{', '.join(sys.states[i] for i in keep) or 'no state'}"
        )
        red.reduction = self.reduction  # type: ignore[attr-defined]
        red.quantities = _eliminated_quantities(self.quantities, sys, keep, el, V, Q)
        return red

    def _redundant_msg(self, rank: int) -> str:
        return (
            f"the {self.n_constraints} constraints BᵀQx = 0 have rank {rank}: some are "
            "redundant (e.g. a loop closed twice); remove the dependent columns of B"
        )

    def __repr__(self) -> str:
        return (f"<DescriptorPHS {self.name!r}: {len(self.states)} states, "
                f"{self.n_constraints} constraints, {len(self.inputs)} ports, {self.kind}>")


def _eliminated_quantities(q: Quantities | None, sys: PHS, keep: list[int], el: list[int],
                           V: Any, Q: Any) -> Quantities | None:
    r"""The annotation after eliminating the states ``el``: the kept states' entries and,
    for each eliminated state :math:`x_i = V_{i,:}\xi`, two observables in the kept
    states :math:`\xi` — the state itself and its co-energy
    :math:`e_i = (Q V \xi)_i` (the speed of a merged inertia, the voltage of a
    capacitor in parallel with another)."""
    if len(keep) > OBSERVE_UP_TO:
        return q.restrict([sys.states[i] for i in keep], [*sys.inputs, *sys.outputs]) if q else q
    xi = sp.Matrix([sp.Symbol(sys.states[i], real=True) for i in keep])
    Vm = sp.Matrix(V) if not isinstance(V, sp.MatrixBase) else V
    Qm = sp.Matrix(mx.to_dense(Q)) if not isinstance(Q, sp.MatrixBase) else sp.Matrix(Q)
    x_full = Vm * xi
    e_full = Qm * x_full
    states = dict(q.states) if q else {}
    extra: list[Observable] = []
    kept = {sys.states[i] for i in keep}
    for i, name in enumerate(sys.states):
        info = states.get(name) or StateInfo(name, GENERIC.displacement, GENERIC.effort,
                                             f"dH/d{name}")
        state, coenergy = removed_storage(name, info, x_full[i], sp.expand(e_full[i]),
                                          "eliminated")
        # the kept states' co-energies too: ∂H_r/∂ξ is not the physical effort/flow
        extra += [state, coenergy] if i in el else [coenergy]
    states = {s: v for s, v in states.items() if s in kept}
    base = q if q is not None else Quantities()
    return Quantities(states, dict(base.ports), (*base.observables, *extra), base.shown_only)

