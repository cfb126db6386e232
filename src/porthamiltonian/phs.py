r"""The explicit input-state-output port-Hamiltonian system (docs/design.md).

.. math::
    \dot x &= (J - R)\,\nabla H(x) + (G - P)\,u \\
    y &= (G + P)^\top \nabla H(x) + (M + S)\,u

with :math:`J = -J^\top`, :math:`M = -M^\top`, :math:`R = R^\top`, :math:`S = S^\top`
and :math:`W = \begin{bmatrix} R & P \\ P^\top & S \end{bmatrix} \succeq 0`.  Along
solutions the power balance

.. math::
    \dot H = u^\top y - [\nabla H; u]^\top W\, [\nabla H; u]

holds: the energy stored grows by what is supplied at the ports minus what is
dissipated.  ``uᵀy`` is the power delivered *into* the system.

Equivalently, with :math:`z = \nabla H`,

.. math::
    \begin{bmatrix}\dot x\\ -y\end{bmatrix} = (\mathcal J - \mathcal R)
    \begin{bmatrix} z\\ u\end{bmatrix},\qquad
    \mathcal J = \begin{bmatrix} J & G\\ -G^\top & -M\end{bmatrix},\quad
    \mathcal R = W,

the form used for interconnection (van der Schaft & Jeltsema, *Port-Hamiltonian
Systems Theory: An Introductory Overview*, 2014, §4.1).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp

from . import _matrices as mx
from .compiled import NumericPHS, PowerBalance, SymbolicSource
from .errors import ModelError
from .expr import shorten
from .naming import check_names, parameter_values
from .quantities import Quantities
from .sealed import Sealed
from .serialize import MATRIX_NAMES, phs_arguments, phs_to_dict, phs_to_latex
from .structure import DEFAULT_TOL, check_psd, check_skew, check_symmetric

__all__ = ["PHS", "MATRIX_NAMES"]

#: What defines a PHS: re-assigning one of these after construction raises ModelError
#: (the compiled form cached by ``compile()`` is derived from them).
_DEFINING = frozenset({"states", "inputs", "outputs", "parameters", "kind", "x",
                       *MATRIX_NAMES, "hamiltonian", "Q", "state_symbols",
                       "_mats", "_H", "_Q", "_parameters", "_checked"})


def _overflows(expr: Any) -> bool:
    """A number in ``expr`` beyond double precision (``1e-300**301`` inverted): it would
    be ``inf`` in every numeric evaluation."""
    return any(abs(float(a)) == float("inf") for a in expr.atoms(sp.Float))


class PHS(Sealed):
    r"""Explicit port-Hamiltonian system, symbolic (SymPy) or numeric (NumPy / SciPy sparse).

    Parameters
    ----------
    J, R : (n, n) matrices
        Interconnection (skew) and dissipation (symmetric) matrices.  ``None`` means zero.
    G, P : (n, m) matrices
        Input matrix and its dissipative counterpart (``P`` couples inputs to dissipation).
    M, S : (m, m) matrices
        Skew and symmetric direct feed-through.
    hamiltonian : SymPy expression or str, optional
        :math:`H(x)` in the state symbols (and parameter symbols), in joules.  A string
        is read with the safe parser, in the names of ``states`` and ``parameters``.
    Q : (n, n) matrix, optional
        Quadratic Hamiltonian :math:`H = \tfrac12 x^\top Q x` (dense, sparse or SymPy).
        Give either ``hamiltonian`` or ``Q``.
    states, inputs, outputs : list of str, optional
        Names (``"C1"``, ``"L1"``, ``"m[0]"``…).  Defaults ``x0…``, ``u0…`` and ``y_<input>``.
        State names must match the symbols used in ``hamiltonian`` and in state-dependent
        matrices.
    parameters : mapping, optional
        Values of the parameter symbols (name → number); a name mapped to ``None`` stays
        symbolic.  Values are used for numeric evaluation; the matrices keep the symbols.
    name : str
        A label.
    check : bool
        Check the structure on construction (default).  A violation raises
        :class:`~porthamiltonian.errors.StructureError` naming the block and the entry.
    tol : float
        Relative tolerance of the numeric checks.
    quantities : Quantities, optional
        What the states, ports and derived series mean physically (kinds, SI units,
        co-energy names; :mod:`porthamiltonian.quantities`).  Front-ends set it; results
        use it for names, units and plots.

    A system is *symbolic* when any matrix or the Hamiltonian is a SymPy object; it is
    then evaluated numerically through functions compiled once (:meth:`compile`).  A
    numeric system keeps dense or sparse matrices and a quadratic Hamiltonian; this is
    the path for large discretized models, where SymPy never runs.

    A PHS is immutable (docs/phs.md, "Models are immutable"): :attr:`parameters` is a
    read-only mapping, the matrices are immutable (SymPy) or read-only copies (NumPy,
    SciPy), and re-assigning ``states``, ``parameters``, ``J`` … raises
    :class:`~porthamiltonian.errors.ModelError`.  :meth:`with_parameters` returns a new
    system with other parameter values.  The compiled form cached by :meth:`compile` is
    derived from the system and therefore never stale.

    Examples
    --------
    A mass-spring-damper with the spring displacement ``q`` and momentum ``p`` as states
    and a force input:

    >>> import sympy as sp
    >>> from porthamiltonian import PHS
    >>> q, p, k, m, c = sp.symbols("q p k m c", positive=True)
    >>> sys = PHS(J=[[0, 1], [-1, 0]], R=[[0, 0], [0, c]], G=[[0], [1]],
    ...           hamiltonian=k * q**2 / 2 + p**2 / (2 * m), states=["q", "p"], inputs=["F"])
    >>> sys.rhs_expr()
    Matrix([
    [        p/m],
    [-c*p/m + F - k*q]])
    """

    #: simulated as an ODE (:mod:`porthamiltonian.compiled.protocol`)
    problem_kind = "ode"
    _DEFINING = _DEFINING
    _ADVICE = ("use .with_parameters(...) for other parameter values, .rename(...) for "
               "other names, .replace(name=..., parameters=...), or construct a new "
               "system")

    def __init__(
        self,
        J: Any = None,
        R: Any = None,
        G: Any = None,
        P: Any = None,
        M: Any = None,
        S: Any = None,
        *,
        hamiltonian: Any = None,
        Q: Any = None,
        states: Sequence[str | sp.Symbol] | None = None,
        inputs: Sequence[str] | None = None,
        outputs: Sequence[str] | None = None,
        parameters: Mapping[str, Any] | None = None,
        name: str = "",
        check: bool = True,
        tol: float = DEFAULT_TOL,
        quantities: Quantities | None = None,
    ) -> None:
        given = {"J": J, "R": R, "G": G, "P": P, "M": M, "S": S}
        if hamiltonian is not None and Q is not None:
            raise ModelError("give either hamiltonian= or Q=, not both")
        n, m = _infer_sizes(given, Q, states, inputs)
        self.name = name
        self.tol = tol
        #: physical meaning of the variables (kinds, units, co-energy names, observables);
        #: an annotation: it does not enter the compiled form
        self.quantities = quantities
        default_states = [f"x{i}" for i in range(n)]
        state_names = [str(s) for s in states] if states is not None else default_states
        self.states = check_names(state_names, "states")
        self.inputs = check_names(
            list(inputs) if inputs is not None else [f"u{i}" for i in range(m)], "inputs"
        )
        self.outputs = check_names(
            list(outputs) if outputs is not None else [f"y_{u}" for u in self.inputs], "outputs"
        )
        if len(self.states) != n:
            raise ModelError(f"{len(self.states)} state names given for {n} states")
        if len(self.inputs) != m or len(self.outputs) != m:
            raise ModelError(
                f"{len(self.inputs)} input and {len(self.outputs)} output names given for "
                f"{m} ports; give one name each"
            )
        self._parameters: dict[str, Any] = dict(parameters or {})
        if isinstance(hamiltonian, str):
            hamiltonian = _parse_hamiltonian(hamiltonian, self.states, self._parameters)

        symbolic = hamiltonian is not None or any(mx.is_sympy(v) for v in (*given.values(), Q))
        self.kind: str
        self._numeric: NumericPHS | None = None
        self.assumptions: list[str] = []
        shapes = {"J": (n, n), "R": (n, n), "G": (n, m), "P": (n, m), "M": (m, m), "S": (m, m)}
        if symbolic:
            self.kind = "symbolic"
            mats = {k: mx.as_symbolic(v, shapes[k], k) for k, v in given.items()}
            self.x = tuple(sp.Symbol(name, real=True) for name in self.states)
            if hamiltonian is None:
                Qs = mx.as_symbolic(Q, (n, n), "Q")
                xv = sp.Matrix(self.x)
                hamiltonian = sp.Rational(1, 2) * (xv.T * Qs * xv)[0, 0] if n else sp.S.Zero
            H = sp.sympify(hamiltonian)
            self._H = H.xreplace(_rename_map(H, self.x))
            self._mats = {k: mx.immutable(_renamed(v, self.x)) for k, v in mats.items()}
            self._check_symbols()
            self._check_values()
        else:
            sparse = any(sps.issparse(v) for v in (*given.values(), Q))
            self.kind = "sparse" if sparse else "dense"
            self._mats = {
                k: _read_only(mx.as_numeric(v, shapes[k], k, sparse=sparse))
                for k, v in given.items()
            }
            if Q is None and n == 0:
                Q = np.zeros((0, 0))
            if Q is None:
                raise ModelError(
                    "a numeric PHS needs its Hamiltonian: give Q= (H = ½ xᵀQx) or hamiltonian="
                )
            self._Q = _read_only(mx.as_numeric(Q, (n, n), "Q", sparse=sparse))
            self.x = None
            self._H = None
        self._checked = check
        if check:
            self.check(tol)
        self.seal()

    # ------------------------------------------------------------------ immutability

    @property
    def parameters(self) -> Mapping[str, Any]:
        """Parameter name → value (``None``: symbolic), read-only.

        The values are used for numeric evaluation; the matrices and the Hamiltonian keep
        the symbols.  For other values use :meth:`with_parameters`.
        """
        return MappingProxyType(self._parameters)

    def with_parameters(self, values: Mapping[str, Any] | None = None, /,
                        **kw: Any) -> PHS:
        """A new system with some parameter values replaced; this one is unchanged.

        ``values`` (a mapping) and keywords are merged, keywords last; a value ``None``
        makes the parameter symbolic again.  Unlike :meth:`subs`, the symbols stay in the
        matrices and the Hamiltonian: only the values used for numeric evaluation change.
        The new system is checked as the constructor checks (``W ⪰ 0`` with the new values)
        when this one was.

        >>> sys.with_parameters(k=4.0)             # doctest: +SKIP
        >>> sys.with_parameters({"k": 4.0, "m": 2.0})   # doctest: +SKIP

        Raises :class:`ModelError` for a name that is not a parameter of the system,
        listing the parameters.
        """
        values = parameter_values(values, kw, set(self._parameters) | set(self.free_parameters()),
                                  "the system")
        return self.replace(parameters={**self._parameters, **values})

    def replace(self, *, name: str | None = None,
                parameters: Mapping[str, Any] | None = None) -> PHS:
        """A copy with another ``name`` and/or all ``parameters`` replaced (as given to the
        constructor: names that appear nowhere are kept, as there).  The structure and the
        names stay; the copy is checked as the constructor checks when this one was.
        """
        changes: dict[str, Any] = {}
        if name is not None:
            changes["name"] = str(name)
        if parameters is not None:
            changes["parameters"] = parameters
        new = self._replace(**changes)
        if "parameters" in changes and new.symbolic:
            new._check_values()
        if "parameters" in changes and new._checked:
            new.check(new.tol)
        return new

    # ------------------------------------------------------------------ accessors
    @property
    def n_states(self) -> int:
        return len(self.states)

    @property
    def n_inputs(self) -> int:
        return len(self.inputs)

    @property
    def symbolic(self) -> bool:
        return self.kind == "symbolic"

    J = property(lambda self: self._mats["J"], doc="Interconnection matrix (skew).")
    R = property(lambda self: self._mats["R"], doc="Dissipation matrix (symmetric, ⪰ 0).")
    G = property(lambda self: self._mats["G"], doc="Input matrix.")
    P = property(lambda self: self._mats["P"], doc="Dissipative input matrix.")
    M = property(lambda self: self._mats["M"], doc="Skew feed-through.")
    S = property(lambda self: self._mats["S"], doc="Symmetric (dissipative) feed-through.")

    def matrices(self) -> dict[str, Any]:
        """``{"J": J, "R": R, "G": G, "P": P, "M": M, "S": S}``."""
        return dict(self._mats)

    @property
    def hamiltonian(self) -> sp.Expr:
        """:math:`H(x)` as a SymPy expression (built from ``Q`` for a numeric system)."""
        if self._H is None:
            n = self.n_states
            if n == 0:
                return sp.S.Zero
            if n > 2000:
                raise ModelError(
                    f"{n} states: too large for a symbolic Hamiltonian; use .Q or .energy(x)"
                )
            xs = sp.Matrix(self.state_symbols)
            Q = sp.Matrix(mx.to_dense(self._Q))
            return sp.nsimplify(sp.Rational(1, 2) * (xs.T * Q * xs)[0, 0], rational=False)
        return self._H

    @property
    def state_symbols(self) -> list[sp.Symbol]:
        """The state vector as SymPy symbols (real)."""
        if self.x is not None:
            return list(self.x)
        return [sp.Symbol(s, real=True) for s in self.states]

    @property
    def Q(self) -> Any:
        """Hessian of ``H`` when it is constant (quadratic ``H``), else ``None``."""
        if not self.symbolic:
            return self._Q
        if self.n_states == 0:
            return sp.ImmutableMatrix.zeros(0, 0)
        Hm = sp.hessian(self._H, self.x)
        if any(e.has(*self.x) for e in Hm):
            return None
        return sp.ImmutableMatrix(Hm)

    @property
    def gradient_expr(self) -> sp.Matrix:
        """:math:`\\nabla H(x)` as a SymPy column (symbolic systems)."""
        xs = self.state_symbols
        return sp.Matrix(len(xs), 1, _gradient(self.hamiltonian, xs))

    def free_parameters(self) -> list[str]:
        """Names of the parameter symbols in the system (all symbols that are not states)."""
        if not self.symbolic:
            return []
        states = {x.name for x in self.x}
        return sorted(name for name in _symbols_by_name(self) if name not in states)

    def dissipation_matrix(self) -> Any:
        """:math:`W = [[R, P], [P^\\top, S]]`."""
        return self._dissipation(frozen=True)

    def _dissipation(self, frozen: bool) -> Any:
        P = mx.mutable(self.P) if self.symbolic else self.P
        return mx.block([[self.R, P], [P.T, self.S]], self.kind, frozen=frozen)

    def full_matrices(self) -> tuple[Any, Any]:
        r""":math:`(\mathcal J, \mathcal R)` of ``[ẋ; −y] = (𝒥 − ℛ)[∇H; u]``, size n + m."""
        Jf = mx.block([[self.J, self.G], [-self.G.T, -self.M]], self.kind)
        return Jf, self.dissipation_matrix()

    # ------------------------------------------------------------------ checks
    def check(self, tol: float | None = None, *, check_Q: bool = True) -> None:
        """Check skew-symmetry of J, M, symmetry of R, S and ``W ⪰ 0``.

        Raises :class:`StructureError` naming the block and the entry.  Conditions
        SymPy cannot decide are stored in :attr:`assumptions` (in words).
        """
        tol = self.tol if tol is None else tol
        notes = [*check_skew(self.J, "J", self.states, tol),
                 *check_symmetric(self.R, "R", self.states, tol),
                 *check_skew(self.M, "M", self.inputs, tol),
                 *check_symmetric(self.S, "S", self.inputs, tol)]
        if check_Q and not self.symbolic:
            check_symmetric(self._Q, "Q", self.states, tol)
        labels = list(self.states) + list(self.inputs)
        # W ⪰ 0 must hold for the parameter values given (where some are given), which is
        # at least as decidable as the check in symbols; J skew is exact in the symbols.
        values = self.parameter_values()
        W = self._dissipation(frozen=False)
        name = "[[R, P], [Pᵀ, S]]" + (" with the given parameter values" if values else "")
        self.assumptions = notes + check_psd(W.xreplace(values) if values else W, labels,
                                             tol, name)

    def _check_values(self) -> None:
        """Refuse an H or a matrix that is infinite or undefined with the parameter
        values (a zero capacitance, inertia or ratio in a denominator), naming them."""
        vals = self.parameter_values()
        bad = []
        for label, expr in (("H", self._H), *self._mats.items()):
            if isinstance(expr, sp.MatrixBase):
                expr = mx.mutable(expr)  # substitution in the non-zeros only
            e = expr.xreplace(vals) if vals else expr
            if e.has(sp.zoo, sp.nan, sp.oo, -sp.oo) or _overflows(e):
                bad.append(label)
        if bad:
            zero = [k for k, v in self._parameters.items()
                    if v is not None and sp.sympify(v).is_zero]
            raise ModelError(
                f"{' and '.join(bad)} {'is' if len(bad) == 1 else 'are'} infinite, undefined or "
                "beyond double precision with the parameter values"
                + (f" ({', '.join(f'{k} = 0' for k in zero)})" if zero else "")
                + ": a zero capacitance, inertia, stiffness or ratio in a denominator? give "
                "the parameter a non-zero value")

    def _check_symbols(self) -> None:
        t = [s for s in self._H.free_symbols if s.name == "t"]
        if t:
            raise ModelError(
                "the Hamiltonian depends on time 't'; a PHS has a time-invariant H(x) — model "
                "the time dependence as an input"
            )
        # ∇H must exist in closed form: floor, ceiling, sign … leave unevaluated derivatives
        for xi, d in zip(self.x, self.gradient_expr, strict=True):
            if d.has(sp.Derivative, sp.Subs):
                culprit = next((f for f in self._H.atoms(sp.Function) if f.has(xi)
                                and sp.diff(f, xi).has(sp.Derivative, sp.Subs)), self._H)
                raise ModelError(
                    f"the Hamiltonian is not differentiable in the state {xi}: "
                    f"{shorten(str(culprit))} has no derivative (∂H/∂{xi} is needed for the "
                    "co-energy and the dynamics); write a continuously differentiable "
                    "energy (e.g. a smooth approximation)")

    # ------------------------------------------------------------------ numerics
    def parameter_values(self) -> dict[sp.Symbol, float]:
        """Substitution map symbol → value for every parameter that has one."""
        out: dict[sp.Symbol, float] = {}
        if not self.symbolic:
            return out
        by_name = _symbols_by_name(self)
        for name, value in self.parameters.items():
            if value is None:
                continue
            for s in by_name.get(name, []):
                out[s] = sp.sympify(value)
        return out

    def compile(self) -> NumericPHS:
        """Generate (once) and return the fast numeric functions of this system.

        Raises :class:`ModelError` listing the parameters that still have no value.
        """
        if self._numeric is not None:
            return self._numeric
        if not self.symbolic:
            self._numeric = NumericPHS.from_linear(self._mats, self._Q)
            return self._numeric
        values = self.parameter_values()
        H = self._H.xreplace(values)
        mats = {k: A.xreplace(values) for k, A in self._mats.items()}
        xs = set(self.x)
        missing = sorted(
            {s.name for s in H.free_symbols.union(*(A.free_symbols for A in mats.values()))}
            - {s.name for s in xs}
        )
        if missing:
            raise ModelError(
                f"parameters without a value: {', '.join(missing)}; give them with "
                f"sys.subs({missing[0]}=...) or parameters={{...}} before evaluating numerically"
            )
        self._numeric = NumericPHS.from_symbolic(list(self.x), H, mats, self.n_inputs)
        self._numeric.source = self._symbolic_source(values)
        return self._numeric

    def _symbolic_source(self, values: dict[sp.Symbol, Any]) -> SymbolicSource:
        """The model with its numeric parameters kept as symbols (others substituted)."""
        numeric = {s: float(v) for s, v in values.items() if v.is_number and v.is_real}
        rest = {s: v for s, v in values.items() if s not in numeric}
        return SymbolicSource(
            tuple(self.x), tuple(numeric), tuple(numeric.values()),
            self._H.xreplace(rest), {k: A.xreplace(rest) for k, A in self._mats.items()},
            self.n_inputs)

    def energy(self, x: Any) -> float:
        """``H(x)`` in joules."""
        return self.compile().energy(np.asarray(x, dtype=float))

    def gradient(self, x: Any) -> np.ndarray:
        """``∇H(x)``: efforts of capacitive, flows of inertial storages."""
        return self.compile().gradient(np.asarray(x, dtype=float))

    def rhs(self, x: Any, u: Any = None) -> np.ndarray:
        """``ẋ`` at state ``x`` and input ``u`` (zero when omitted)."""
        return self.compile().rhs(np.asarray(x, dtype=float), u)

    def output(self, x: Any, u: Any = None) -> np.ndarray:
        """``y`` at state ``x`` and input ``u``."""
        return self.compile().output(np.asarray(x, dtype=float), u)

    def power_balance(self, x: Any, u: Any = None) -> PowerBalance:
        """Stored power ``Ḣ``, supplied power ``uᵀy`` and dissipated power at ``(x, u)``."""
        return self.compile().power_balance(np.asarray(x, dtype=float), u)

    def jacobian(self, x: Any, u: Any = None) -> Any:
        """``∂ẋ/∂x`` at ``(x, u)``."""
        return self.compile().jacobian(np.asarray(x, dtype=float), u)

    # ------------------------------------------------------------------ symbolic views
    def rhs_expr(self) -> sp.Matrix:
        """``ẋ`` as a SymPy column in the states and the input names."""
        z, u = self.gradient_expr, sp.Matrix(self.n_inputs, 1, self.input_symbols)
        mats = self._symbolic_matrices()
        return sp.simplify((mats["J"] - mats["R"]) * z + (mats["G"] - mats["P"]) * u)

    def output_expr(self) -> sp.Matrix:
        """``y`` as a SymPy column."""
        z, u = self.gradient_expr, sp.Matrix(self.n_inputs, 1, self.input_symbols)
        mats = self._symbolic_matrices()
        return sp.simplify((mats["G"] + mats["P"]).T * z + (mats["M"] + mats["S"]) * u)

    @property
    def input_symbols(self) -> list[sp.Symbol]:
        return [sp.Symbol(u, real=True) for u in self.inputs]

    def _symbolic_matrices(self) -> dict[str, sp.ImmutableMatrix]:
        if self.symbolic:
            return self._mats
        if self.n_states > 2000:
            raise ModelError("too large for a symbolic view; use the numeric matrices")
        return {k: sp.ImmutableMatrix(mx.to_dense(A)) for k, A in self._mats.items()}

    # ------------------------------------------------------------------ transformations
    def subs(self, values: Mapping[str, Any] | None = None, **kw: Any) -> PHS:
        """Substitute parameter values (by name) into the matrices and the Hamiltonian.

        >>> sys.subs(k=2.0, m=1.0)   # doctest: +SKIP
        """
        if not self.symbolic:
            return self
        values = parameter_values(values, kw, self.free_parameters(), "the system")
        by_name = _symbols_by_name(self)
        rep = {s: sp.sympify(v) for k, v in values.items() for s in by_name.get(k, [])}
        params = {k: v for k, v in self.parameters.items() if k not in values}
        return self._replace(
            mats={k: A.xreplace(rep) for k, A in self._mats.items()},
            H=self._H.xreplace(rep),
            parameters=params,
        )

    def numeric(self, sparse: bool = False) -> PHS:
        """A numeric (dense or sparse) copy, when the matrices are constant and H quadratic.

        All parameters must have values.  Raises :class:`ModelError` otherwise.
        """
        if not self.symbolic:
            return self
        num = self.compile()
        if not num.linear:
            raise ModelError(
                "cannot convert to a numeric PHS: the Hamiltonian is not quadratic or a "
                "matrix depends on the state; use the symbolic system (it evaluates "
                "numerically through .compile())"
            )
        conv = (lambda A: sps.csr_array(A)) if sparse else (lambda A: np.asarray(A))
        return PHS(
            **{k: conv(num.matrix(k, np.zeros(self.n_states))) for k in MATRIX_NAMES},
            Q=conv(num.Q),
            states=self.states,
            inputs=self.inputs,
            outputs=self.outputs,
            name=self.name,
            check=False,
            quantities=(self.quantities.substituted(self.parameter_values())
                        if self.quantities is not None else None),
        )

    def rename(
        self,
        states: Mapping[str, str] | None = None,
        inputs: Mapping[str, str] | None = None,
        outputs: Mapping[str, str] | None = None,
        prefix: str | None = None,
    ) -> PHS:
        """A copy with renamed states/inputs/outputs (``prefix`` prepends to all names)."""

        def ren(names: Sequence[str], mapping: Mapping[str, str] | None) -> list[str]:
            mapping = mapping or {}
            unknown = set(mapping) - set(names)
            if unknown:
                raise ModelError(f"cannot rename unknown name(s): {', '.join(sorted(unknown))}")
            out = [mapping.get(s, s) for s in names]
            return [f"{prefix}{s}" for s in out] if prefix else out

        new_states = ren(self.states, states)
        new = self._replace(
            states=new_states,
            inputs=ren(self.inputs, inputs),
            outputs=ren(self.outputs, outputs),
        )
        if self.quantities is not None:
            table = {**dict(zip(self.states, new_states, strict=True)),
                     **dict(zip(self.inputs, new.inputs, strict=True)),
                     **dict(zip(self.outputs, new.outputs, strict=True))}
            new.__dict__["quantities"] = self.quantities.rename(
                lambda s: table.get(s, f"{prefix}{s}" if prefix else s), table)
        return new

    def _replace(self, **changes: Any) -> PHS:
        """Copy with some fields replaced, without re-running the structure checks.

        Writes the copy's ``__dict__`` directly (the fields are sealed against assignment).
        Public attributes (the name, annotations such as ``port_kinds``) and the defining
        fields are carried over; private ones are caches derived from the old fields (the
        compiled form, anything a solver stored) and are not.
        """
        new = object.__new__(type(self))
        d = new.__dict__
        d.update({k: v for k, v in self.__dict__.items()
                  if not k.startswith("_") or k in _DEFINING or k == "_sealed"})
        d["_numeric"] = None
        if "states" in changes:
            d["states"] = check_names(changes["states"], "states")
            if self.symbolic:
                new_x = tuple(sp.Symbol(s, real=True) for s in d["states"])
                rep = dict(zip(self.x, new_x, strict=True))
                changes.setdefault("mats", self._mats)
                changes["mats"] = {k: A.xreplace(rep) for k, A in changes["mats"].items()}
                changes["H"] = changes.get("H", self._H).xreplace(rep)
                d["x"] = new_x
        if "inputs" in changes:
            d["inputs"] = check_names(changes["inputs"], "inputs")
        if "outputs" in changes:
            d["outputs"] = check_names(changes["outputs"], "outputs")
        if "mats" in changes:
            d["_mats"] = {k: sp.ImmutableMatrix(A) if self.symbolic else _read_only(A)
                          for k, A in changes["mats"].items()}
        if "H" in changes:
            d["_H"] = changes["H"]
        if "parameters" in changes:
            d["_parameters"] = dict(changes["parameters"])
        if "name" in changes:
            d["name"] = changes["name"]
        return new

    def linearize(self, x0: Any, u0: Any = None, *, tol: float = 1e-9) -> PHS:
        r"""Port-Hamiltonian linearization about an equilibrium ``(x0, u0)``.

        Returns the numeric PHS of the deviations :math:`\delta x = x - x_0`,
        :math:`\delta u = u - u_0`: matrices frozen at ``x0`` and
        :math:`Q = \nabla^2 H(x_0)`, so :math:`\delta H = \tfrac12 \delta x^\top Q \delta x`.
        This equals the Jacobian linearization when the derivatives of the matrices
        multiply a vanishing ``∇H(x0)`` / ``u0`` (e.g. an equilibrium at a minimum of H);
        otherwise no port-Hamiltonian linearization with these matrices exists and a
        :class:`ModelError` says so (use :meth:`state_space` for the plain Jacobians).
        """
        num = self.compile()
        x0 = np.asarray(x0, dtype=float).reshape(self.n_states)
        u0 = np.zeros(self.n_inputs) if u0 is None else np.asarray(u0, float).reshape(-1)
        f0 = num.rhs(x0, u0)
        scale = max(1.0, float(np.max(np.abs(num.gradient(x0)), initial=0.0)))
        if np.max(np.abs(f0), initial=0.0) > tol * scale * 1e3:
            worst = int(np.argmax(np.abs(f0)))
            raise ModelError(
                f"(x0, u0) is not an equilibrium: d{self.states[worst]}/dt = {f0[worst]:.4g}; "
                "linearize about a point where ẋ = 0, or use state_space(x0, u0)"
            )
        mats = {k: np.array(mx.to_dense(num.matrix(k, x0)), dtype=float) for k in MATRIX_NAMES}
        Q = np.asarray(mx.to_dense(num.hessian(x0)), dtype=float)
        lin = PHS(**mats, Q=Q, states=self.states, inputs=self.inputs, outputs=self.outputs,
                  name=self.name, check=False)
        A, _, C, _ = self.state_space(x0, u0)
        lnum = lin.compile()
        errA = np.max(np.abs(mx.to_dense(lnum.A) - A), initial=0.0)
        errC = np.max(np.abs(mx.to_dense(lnum.C) - C), initial=0.0)
        if max(errA, errC) > tol * max(1.0, np.max(np.abs(A), initial=0.0)):
            raise ModelError(
                "the port-Hamiltonian linearization differs from the Jacobian at this point "
                f"(max |ΔA| = {errA:.3g}, |ΔC| = {errC:.3g}): state-dependent J, R or G "
                "multiply a non-zero ∇H(x0) or u0; use state_space(x0, u0)"
            )
        return lin

    def state_space(self, x0: Any, u0: Any = None) -> tuple[np.ndarray, ...]:
        """Jacobian linearization ``(A, B, C, D)`` of ``ẋ = f(x, u), y = h(x, u)`` at (x0, u0).

        ``A`` is exact (compiled symbolic derivative); ``B``, ``C``, ``D`` follow from
        the affine dependence on ``u`` and the chain rule through ``∇H``.
        """
        num = self.compile()
        x0 = np.asarray(x0, dtype=float).reshape(self.n_states)
        u0 = np.zeros(self.n_inputs) if u0 is None else np.asarray(u0, float).reshape(-1)
        A = np.asarray(mx.to_dense(num.jacobian(x0, u0)), dtype=float)
        Gx = {k: np.asarray(mx.to_dense(num.matrix(k, x0)), dtype=float) for k in MATRIX_NAMES}
        B = Gx["G"] - Gx["P"]
        D = Gx["M"] + Gx["S"]
        Hx = np.asarray(mx.to_dense(num.hessian(x0)), dtype=float)
        C = (Gx["G"] + Gx["P"]).T @ Hx
        if self.symbolic and any(self._mats[k].has(*self.x) for k in ("G", "P", "M", "S")):
            C = C + _output_state_derivative(self, x0, u0)
        return A, B, C, D

    # ------------------------------------------------------------------ I/O
    def to_dict(self) -> dict[str, Any]:
        """JSON-able dictionary in the ``porthamiltonian phs --json`` format (docs/cli.md)."""
        return phs_to_dict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PHS:
        """Inverse of :meth:`to_dict`; expressions are read with the safe parser.

        Raises :class:`~porthamiltonian.errors.SchemaError` naming the key at fault.
        """
        return cls(**phs_arguments(data))

    def _repr_latex_(self) -> str:
        return phs_to_latex(self)

    def __repr__(self) -> str:
        label = f" {self.name!r}" if self.name else ""
        return (
            f"<PHS{label}: {self.n_states} states, {self.n_inputs} ports, {self.kind}; "
            f"states={list(self.states)[:6]}{'…' if self.n_states > 6 else ''}, "
            f"inputs={list(self.inputs)[:6]}{'…' if self.n_inputs > 6 else ''}>"
        )


# ---------------------------------------------------------------------- helpers
def _infer_sizes(given: dict[str, Any], Q: Any, states: Any, inputs: Any) -> tuple[int, int]:
    n = m = None
    for k in ("J", "R", "Q"):
        sh = mx.shape_of(Q if k == "Q" else given[k])
        if sh is not None:
            n = sh[0]
            break
    for k in ("G", "P"):
        sh = mx.shape_of(given[k])
        if sh is not None:
            n = sh[0] if n is None else n
            m = sh[1]
            break
    if m is None:
        for k in ("M", "S"):
            sh = mx.shape_of(given[k])
            if sh is not None:
                m = sh[0]
                break
    if n is None:
        n = len(states) if states is not None else 0
    if m is None:
        m = len(inputs) if inputs is not None else 0
    if n == 0 and m == 0:
        raise ModelError("an empty system: give at least J, R, G or Q")
    return n, m


def _read_only(A: Any) -> Any:
    """The model's own copy of a numeric matrix: writing into the caller's array later
    must not change the model.  Dense copies are read-only (writing into ``sys.J``
    raises); sparse ones stay writable, since SciPy canonicalizes them in place."""
    if isinstance(A, np.ndarray):
        if not A.flags.writeable and A.base is None:
            return A
        A = np.array(A, dtype=float)
        A.flags.writeable = False
        return A
    if sps.issparse(A):  # a copy, left writable: SciPy sorts indices in place
        return A.copy()
    return A


def _gradient(H: sp.Expr, xs: Sequence[sp.Symbol]) -> list[sp.Expr]:
    """``[∂H/∂x for x in xs]``.  A sum is differentiated term by term in the states each
    term holds: the same result as ``sp.diff(H, x)`` (which differentiates every term for
    every state), in time linear, not quadratic, in the storages of a large network."""
    if not isinstance(H, sp.Add) or len(xs) < 8:
        return [sp.diff(H, x) for x in xs]
    wanted = set(xs)
    parts: dict[sp.Symbol, list[sp.Expr]] = {x: [] for x in xs}
    for term in H.args:
        for x in term.free_symbols & wanted:
            parts[x].append(_monomial_derivative(term, x))
    return [sp.Add(*parts[x]) for x in xs]


def _monomial_derivative(term: sp.Expr, x: sp.Symbol) -> sp.Expr:
    """``∂term/∂x``; ``c·xᵏ`` (``c`` free of ``x``, the energy of a linear storage) by the
    power rule — SymPy's ``diff`` of a product costs milliseconds per term (it takes the
    general n-th derivative route) — anything else by ``sp.diff``."""
    factors = term.args if isinstance(term, sp.Mul) else (term,)
    with_x = [f for f in factors if f.has(x)]
    if len(with_x) == 1:
        f = with_x[0]
        if f == x:
            return sp.Mul(*(g for g in factors if g is not f))
        if isinstance(f, sp.Pow) and f.base == x and f.exp.is_Number:
            rest = (g for g in factors if g is not f)
            return sp.Mul(f.exp, *rest, x ** (f.exp - 1))
    return sp.diff(term, x)


def _renamed(A: sp.MatrixBase, xs: Sequence[sp.Symbol]) -> sp.MatrixBase:
    """``A`` in the state symbols ``xs``; ``A`` itself when nothing is renamed (a
    substitution would rebuild every entry of a large immutable matrix)."""
    rename = _rename_map(A, xs)
    return A.xreplace(rename) if rename else A


def _rename_map(A: Any, xs: Sequence[sp.Symbol]) -> dict[sp.Symbol, sp.Symbol]:
    names = {x.name: x for x in xs}
    return {s: names[s.name] for s in A.free_symbols if s.name in names and s != names[s.name]}


def _symbols_by_name(sys: PHS) -> dict[str, list[sp.Symbol]]:
    out: dict[str, list[sp.Symbol]] = {}
    syms = set(sys._H.free_symbols).union(*(A.free_symbols for A in sys._mats.values()))
    for s in syms:
        out.setdefault(s.name, []).append(s)
    return out


def _parse_hamiltonian(text: str, states: Sequence[str], parameters: Mapping[str, Any]) -> sp.Expr:
    from .expr import parameter_symbol, parse_expression, state_symbol

    names = {s: state_symbol(s) for s in states}
    names.update({p: parameter_symbol(p, v) for p, v in parameters.items()})
    return parse_expression(text, names, where="hamiltonian")


def _output_state_derivative(sys: PHS, x0: np.ndarray, u0: np.ndarray) -> np.ndarray:
    """∂y/∂x contribution of state-dependent G, P, M, S (symbolic, evaluated at x0)."""
    values = sys.parameter_values()
    mats = {k: A.xreplace(values) for k, A in sys._mats.items()}
    z = sys.gradient_expr.xreplace(values)
    us = sp.Matrix(u0.tolist())
    zf = sp.Matrix([sp.Dummy() for _ in range(sys.n_states)])
    y = (mats["G"] + mats["P"]).T * zf + (mats["M"] + mats["S"]) * us
    dy = y.jacobian(sys.x)
    at = dict(zip(sys.x, x0.tolist(), strict=True))
    zval = [float(v.xreplace(at)) for v in z]
    dy = dy.xreplace(dict(zip(zf, zval, strict=True))).xreplace(at)
    return np.array(dy.tolist(), dtype=float).reshape(sys.n_inputs, sys.n_states)

