r"""A numeric PHS with a non-quadratic Hamiltonian given by NumPy functions.

For large nonlinear models (an FPU chain with 1000 states, a discretized nonlinear
wave) the symbolic route — a SymPy :math:`H` differentiated and compiled — costs time
quadratic in the number of states.  :class:`FunctionPHS` takes instead constant
(dense or sparse) structure matrices and three functions

.. math::

    H(x)\ (\mathrm J),\qquad \nabla H(x),\qquad \nabla^2 H(x)\ \text{(dense or sparse)},

and compiles to the same :class:`~porthamiltonian.compiled.NumericPHS` interface the
integrators use: :math:`\dot x = (J-R)\nabla H(x) + (G-P)u`,
:math:`y = (G+P)^\top\nabla H(x) + (M+S)u`.  With a sparse Hessian the Newton
iterations of the discrete-gradient methods use sparse LU factorizations.  The
structure (:math:`J = -J^\top`, :math:`W \succeq 0`) is checked as for a
:class:`~porthamiltonian.PHS`; that the three functions agree is the caller's
responsibility (:meth:`FunctionPHS.check_derivatives` compares them with finite
differences).

**State-dependent structure.**  ``J`` and ``G`` may instead be
:class:`~.compiled.affine.AffineMatrix` objects, :math:`J(x) = J_0 + \sum_k x_k J_k` (every
:math:`J_k` skew) and :math:`G(x) = G_0 + \sum_k x_k G_k` — the modulated Dirac
structures of geometrically exact beams and rigid bodies.  The Jacobian of the
right-hand side is then assembled sparse as

.. math::

    \partial_x \dot x = (J(x) - R)\,\nabla^2 H(x)
        + \partial_x\big(J(x)z\big)\big|_{z=\nabla H(x)}
        + \partial_x\big(G(x)u\big),

so the implicit midpoint rule's Newton iterations use sparse LU at any size (``R``,
``P``, ``M``, ``S`` stay constant).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sps

from .compiled import NumericPHS
from .compiled.affine import AffineMatrix
from .errors import ModelError

__all__ = ["FunctionPHS", "SeparablePHS", "SeparableTerm"]


class FunctionPHS:
    """Explicit PHS with constant structure matrices and a Hamiltonian given by functions.

    Parameters
    ----------
    J, R, G, P, M, S:
        Constant matrices (dense or SciPy sparse), as for :class:`~porthamiltonian.PHS`;
        ``J`` and ``G`` may be :class:`~.compiled.affine.AffineMatrix` (state-dependent, affine).
    energy, gradient, hessian:
        :math:`H(x)` (J), :math:`\\nabla H(x)` shape ``(n,)``, :math:`\\nabla^2 H(x)`
        shape ``(n, n)``, dense or sparse.
    degree:
        Polynomial degree of :math:`H` if it is a polynomial (the AVF method then
        integrates exactly with ``⌈degree/2⌉`` Gauss nodes), else ``None``.
    states, inputs, outputs:
        Names, as for :class:`~porthamiltonian.PHS`.
    """

    symbolic = False

    #: simulated as an ODE (:mod:`porthamiltonian.compiled.protocol`)
    problem_kind = "ode"

    def __init__(
        self, J: Any = None, R: Any = None, G: Any = None, P: Any = None, M: Any = None,
        S: Any = None, *, energy: Callable[[np.ndarray], float],
        gradient: Callable[[np.ndarray], np.ndarray], hessian: Callable[[np.ndarray], Any],
        degree: int | None = None, states: Sequence[str] | None = None,
        inputs: Sequence[str] | None = None, outputs: Sequence[str] | None = None,
        check: bool = True,
    ) -> None:
        from .phs import PHS

        for name, f in (("energy", energy), ("gradient", gradient), ("hessian", hessian)):
            if not callable(f):
                raise ModelError(f"FunctionPHS: {name} must be a function of the state x")
        self._affine = {k: A for k, A in (("J", J), ("G", G)) if isinstance(A, AffineMatrix)}
        if "J" in self._affine:
            self._affine["J"].check_skew("J")
            J = self._affine["J"].constant
        if "G" in self._affine:
            G = self._affine["G"].constant
        for k, A in self._affine.items():
            if A.n_states != A.shape[0]:
                raise ModelError(f"FunctionPHS: {k}(x) depends on {A.n_states} states but has "
                                 f"{A.shape[0]} rows; the state has one entry per row")
        given = [J, R, G, P, M, S]
        n = next((np.shape(A)[0] for A in (J, R, G, P) if A is not None), None)
        if n is None:
            raise ModelError("FunctionPHS: give at least J or R (n × n) to fix the state size")
        sparse = any(sps.issparse(A) for A in given if A is not None)
        Q0 = sps.csr_matrix((n, n)) if sparse else np.zeros((n, n))
        # the structure matrices with their names and checks (its Q is a placeholder)
        self._carrier = PHS(J, R, G, P, M, S, Q=Q0, states=states, inputs=inputs,
                            outputs=outputs, check=check)
        self.states, self.inputs = self._carrier.states, self._carrier.inputs
        self.outputs = self._carrier.outputs
        self.n_states, self.n_inputs = len(self.states), len(self.inputs)
        self.energy, self.gradient, self.hessian = energy, gradient, hessian
        self.degree = degree
        self._numeric: NumericPHS | None = None

    def matrices(self) -> dict[str, Any]:
        """``{"J": J, "R": R, "G": G, "P": P, "M": M, "S": S}`` (constant; for a
        state-dependent ``J`` or ``G`` its constant part :math:`J_0`, :math:`G_0`)."""
        return self._carrier.matrices()

    @property
    def state_dependent(self) -> bool:
        """True when ``J`` or ``G`` is an :class:`~.compiled.affine.AffineMatrix`."""
        return bool(self._affine)

    J = property(lambda self: self._affine.get("J", self._carrier.J),
                 doc="Interconnection matrix (skew), constant or an AffineMatrix.")
    R = property(lambda self: self._carrier.R, doc="Dissipation matrix.")
    G = property(lambda self: self._affine.get("G", self._carrier.G),
                 doc="Input matrix, constant or an AffineMatrix.")
    P = property(lambda self: self._carrier.P, doc="Dissipative input matrix.")
    M = property(lambda self: self._carrier.M, doc="Skew feed-through.")
    S = property(lambda self: self._carrier.S, doc="Symmetric feed-through.")

    def compile(self) -> NumericPHS:
        """The numeric evaluation interface (built once)."""
        if self._numeric is not None:
            return self._numeric
        n, m = self.n_states, self.n_inputs
        num = _AffineNumeric(n, m, self._affine) if self._affine else NumericPHS(n, m)
        num._const = dict(self._carrier.matrices())
        energy, gradient, hessian = self.energy, self.gradient, self.hessian
        num._H = lambda x: float(energy(x))
        num._grad = lambda x: np.asarray(gradient(x), dtype=float).reshape(n)
        num._hess = hessian
        if self._affine:
            num.finish()
        else:
            JR = num._const["J"] - num._const["R"]
            num._jac_rhs = lambda x, u: JR @ hessian(x)  # constant J, R, G, P: (J−R)∇²H
        self._numeric = num
        return num

    def check_derivatives(self, x: Any, rtol: float = 1e-6) -> None:
        """Compare ``gradient`` and ``hessian`` with central differences at ``x``;
        raises :class:`ModelError` naming the first state where they disagree."""
        x = np.asarray(x, dtype=float)
        g = np.asarray(self.gradient(x), dtype=float)
        Hm = self.hessian(x)
        Hm = Hm.toarray() if sps.issparse(Hm) else np.asarray(Hm, dtype=float)
        for j in range(x.size):
            e = np.zeros_like(x)
            e[j] = 1e-6 * max(1.0, abs(x[j]))
            fd = (self.energy(x + e) - self.energy(x - e)) / (2 * e[j])
            gd = (np.asarray(self.gradient(x + e)) - np.asarray(self.gradient(x - e))) / (2 * e[j])
            scale = max(1.0, abs(g[j]))
            if abs(fd - g[j]) > rtol * scale:
                raise ModelError(f"FunctionPHS: gradient[{self.states[j]}] = {g[j]:.6g} but the "
                                 f"difference quotient of energy gives {fd:.6g}")
            if np.max(np.abs(gd - Hm[:, j])) > rtol * max(1.0, np.max(np.abs(Hm[:, j]))):
                raise ModelError(f"FunctionPHS: hessian column {self.states[j]} does not match "
                                 "the difference quotient of gradient")


class _AffineNumeric(NumericPHS):
    """Numeric interface of a FunctionPHS with state-dependent (affine) J(x) and/or G(x):
    products are formed term by term (no sparse matrix sums per evaluation)."""

    def __init__(self, n: int, m: int, affine: dict[str, AffineMatrix]) -> None:
        super().__init__(n, m)
        self._affine = affine

    def finish(self) -> None:
        """Move the state-dependent matrices from the constants to the functions."""
        for k, A in self._affine.items():
            del self._const[k]
            self._mats[k] = A
        # constant parts as CSR, dropped when zero (R, P of a lossless model)
        self._lin = {k: sps.csr_array(self._const[k]) for k in ("J", "R", "G", "P")
                     if k in self._const and _nonzero(self._const[k])}

    def _times(self, name: str, x: np.ndarray, v: np.ndarray) -> np.ndarray | None:
        if name in self._mats:
            return self._mats[name](x) @ v
        A = self._lin.get(name)
        return None if A is None else A @ v

    def rhs(self, x: np.ndarray, u: Any = None) -> np.ndarray:
        """``ẋ = (J(x) − R)∇H + (G(x) − P)u``."""
        x = np.asarray(x, dtype=float)
        u = self._u(u)
        z = self.gradient(x)
        out = np.zeros(self.n)
        for name, v, sign in (("J", z, 1.0), ("R", z, -1.0), ("G", u, 1.0), ("P", u, -1.0)):
            if v.size:
                term = self._times(name, x, v)
                if term is not None:
                    out += sign * term
        return out

    def jacobian(self, x: np.ndarray, u: Any = None) -> Any:
        r"""Sparse :math:`(J(x) - R)\nabla^2 H + \partial_x(J(x)z) + \partial_x(G(x)u)`."""
        x = np.asarray(x, dtype=float)
        u = self._u(u)
        Hm = sps.csr_array(self._hess(x))
        J = self._mats["J"](x) if "J" in self._mats else self._lin.get("J")
        out = sps.csr_array((self.n, self.n))
        for A, sign in ((J, 1.0), (self._lin.get("R"), -1.0)):
            if A is not None:
                out = out + sign * (A @ Hm)
        if "J" in self._mats:
            out = out + self._mats["J"].derivative(self.gradient(x))
        if "G" in self._mats and self.m:
            out = out + self._mats["G"].derivative(u)
        return sps.csc_array(out)


def _nonzero(A: Any) -> bool:
    if sps.issparse(A):
        return bool(A.count_nonzero())
    return bool(np.any(np.asarray(A)))


class SeparablePHS(FunctionPHS):
    r"""A :class:`FunctionPHS` whose Hamiltonian is a sum of one-state laws.

    .. math::

        H(x) = \sum_{t}\sum_{k\in I_t} h_t(x_k;\ \theta_{t,k}),\qquad
        \nabla H(x)_k = h_t'(x_k;\theta_{t,k}),\qquad
        \nabla^2 H(x) = \mathrm{diag}\big(h_t''(x_k;\theta_{t,k})\big),

    with constant (sparse) :math:`J, R, G, P, M, S`.  Every one-port storage of a bond
    graph or network (spring, capacitor, inductor, mass) has this form, and so has the
    FPU chain.  Each *term* is ``(law, indices, parameters)``: a SymPy expression (or a
    string) in one state variable and parameter symbols, the states it applies to, and a
    dict ``{parameter: value or array of len(indices)}``.  The variable is the one free
    symbol of the law that is not a parameter.

    H, ∇H and the diagonal ∇²H are derived from the laws (SymPy), evaluated as NumPy
    vector expressions, so every method and analysis of a FunctionPHS runs on it.  The
    simulator also compiles a dedicated sparse step for it
    (:mod:`porthamiltonian.simulate.kernels.separable`): the AVF discrete gradient is
    then exact state by state, :math:`\bar\nabla H_k = (h(x_{1,k}) - h(x_{0,k}))/(x_{1,k}
    - x_{0,k})`.

    Example — the FPU-β chain (n springs, n unit masses)::

        q, p, beta = sp.symbols("q p beta")
        SeparablePHS(J=J, terms=[(q**2/2 + beta*q**4/4, range(n), {beta: 1.0}),
                                 (p**2/2, range(n, 2*n), {})])

    Bad input (a law with two state variables or none, a parameter array of the wrong
    length, non-finite values, a state without a law or with two) raises
    :class:`~porthamiltonian.errors.ModelError` naming the term.
    """

    def __init__(self, J: Any = None, R: Any = None, G: Any = None, P: Any = None,
                 M: Any = None, S: Any = None, *, terms: Sequence[tuple[Any, Any, Any]],
                 states: Sequence[str] | None = None, inputs: Sequence[str] | None = None,
                 outputs: Sequence[str] | None = None, check: bool = True) -> None:
        n = next((np.shape(A)[0] for A in (J, R, G, P) if A is not None), None)
        if n is None:
            raise ModelError("SeparablePHS: give at least J or R (n × n) to fix the state size")
        self.terms = [SeparableTerm.build(i, term, n) for i, term in enumerate(terms)]
        owner = np.full(n, -1)
        for i, t in enumerate(self.terms):
            twice = t.indices[owner[t.indices] >= 0]
            if twice.size:
                raise ModelError(f"SeparablePHS: term {i} ({t.law}) gives state {twice[0]} a "
                                 f"second law (term {owner[twice[0]]} has it already)")
            owner[t.indices] = i
        if np.any(owner < 0):
            missing = np.flatnonzero(owner < 0)
            raise ModelError(f"SeparablePHS: states {missing[:5].tolist()} have no law; give "
                             "every state one term (a zero law `0*x` if it stores nothing)")
        degrees = [t.degree for t in self.terms]
        degree = None if None in degrees else max([2, *degrees])  # type: ignore[type-var]
        super().__init__(J, R, G, P, M, S, energy=self._energy, gradient=self._gradient,
                         hessian=self._hessian, degree=degree, states=states, inputs=inputs,
                         outputs=outputs, check=check)

    @classmethod
    def from_phs(cls, system: Any) -> SeparablePHS:
        r"""A symbolic :class:`~porthamiltonian.PHS` with constant structure matrices and
        :math:`H = \sum_k h_k(x_k)` (each term of ``H`` in one state: the shape of
        bond graphs and networks of one-port storages) as a :class:`SeparablePHS`, so
        that it runs on the compiled sparse steps at any size.

        Same states, inputs, outputs and matrices (parameters substituted). States whose
        laws differ only in their numeric constants share one law: the constants become
        per-state parameters ``c0, c1, …`` (integer exponents stay), so a chain of 10⁴
        springs of different stiffness compiles one law, not 10⁴.

        Raises
        ------
        ModelError
            Not a symbolic PHS; a parameter without a value; a matrix entry that depends
            on the state; a term of ``H`` in two states (named, with the term).
        """
        from .separable_terms import separable_parts

        mats, terms = separable_parts(system)
        return cls(**mats, terms=terms, states=system.states, inputs=system.inputs,
                   outputs=system.outputs)

    def energies(self, x: np.ndarray) -> np.ndarray:
        """The energy of each state, :math:`h_t(x_k)` (J); ``H = energies(x).sum()``."""
        return self._per_state(0, x)

    def curvature(self, x: np.ndarray) -> np.ndarray:
        r"""The diagonal of :math:`\nabla^2 H(x)`."""
        return self._per_state(2, x)

    def _per_state(self, order: int, x: np.ndarray) -> np.ndarray:
        """The ``order``-th derivative of each state's law at its entry of ``x``."""
        x = np.asarray(x, dtype=float)
        out = np.empty(x.size)
        for t in self.terms:
            out[t.indices] = t.evaluate(order, x[t.indices])
        return out

    def _energy(self, x: np.ndarray) -> float:
        return float(self.energies(x).sum())

    def _gradient(self, x: np.ndarray) -> np.ndarray:
        return self._per_state(1, x)

    def _hessian(self, x: np.ndarray) -> Any:
        return sps.diags(self.curvature(x), format="csr")


class SeparableTerm:
    """One term of a :class:`SeparablePHS`: a law :math:`h(x;\\theta)` (SymPy), the
    states it applies to and its parameter values per state."""

    def __init__(self, law: Any, variable: Any, params: tuple[Any, ...],
                 indices: np.ndarray, values: np.ndarray, degree: int | None) -> None:
        import sympy as sp

        self.law, self.variable, self.params = law, variable, params
        self.indices, self.values, self.degree = indices, values, degree
        args = (variable, *params)
        derivs = [law, sp.diff(law, variable), sp.diff(law, variable, 2)]
        self._f = [sp.lambdify(args, e, modules="numpy") for e in derivs]
        self.derivatives = derivs

    @classmethod
    def build(cls, i: int, term: Any, n: int) -> SeparableTerm:
        """Check and normalize ``(law, indices, {parameter: values})`` (term ``i``)."""
        import sympy as sp

        try:
            law, indices, params = term
        except (TypeError, ValueError):
            raise ModelError(f"SeparablePHS: term {i} must be (law, state indices, "
                             "{parameter: values})") from None
        where = f"SeparablePHS: term {i} ({law})"
        try:
            law = sp.sympify(law)
        except (sp.SympifyError, TypeError) as e:
            raise ModelError(f"{where}: the law is not an expression ({e})") from None
        params = dict(params or {})
        syms = tuple(sp.Symbol(p) if isinstance(p, str) else p for p in params)
        free = law.free_symbols - set(syms)
        if len(free) != 1:
            raise ModelError(f"{where}: a law depends on exactly one state variable; its "
                             f"free symbols other than the parameters are "
                             f"{sorted(map(str, free)) or 'none'}; give the others in the "
                             "parameter dict")
        (var,) = free
        if not var.is_real:  # a state is real: |x|' = sign(x), not a derivative of re(x)
            real = sp.Symbol(var.name, real=True)
            law, var = law.xreplace({var: real}), real
        if law.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
            raise ModelError(f"{where}: the law has a non-finite constant")
        idx = np.asarray(list(indices), dtype=np.int64).reshape(-1)
        if idx.size == 0 or idx.min() < 0 or idx.max() >= n:
            raise ModelError(f"{where}: the state indices must be a non-empty list in 0…{n - 1}")
        if np.unique(idx).size != idx.size:
            raise ModelError(f"{where}: a state index appears twice")
        values = np.empty((len(syms), idx.size))
        for j, (s, v) in enumerate(zip(syms, params.values(), strict=True)):
            a = np.asarray(v, dtype=float)
            if a.ndim == 0:
                a = np.full(idx.size, float(a))
            if a.shape != (idx.size,):
                raise ModelError(f"{where}: parameter {s} has {a.size} values for "
                                 f"{idx.size} states; give one value or one per state")
            if not np.all(np.isfinite(a)):
                raise ModelError(f"{where}: parameter {s} has a non-finite value")
            values[j] = a
        order = np.argsort(idx, kind="stable")  # ascending: consecutive states slice
        idx, values = idx[order], values[:, order]
        degree: int | None = None
        if law.is_polynomial(var):
            degree = int(sp.Poly(law, var).degree())
        try:
            return cls(law, var, syms, idx, values, degree)
        except Exception as e:  # noqa: BLE001 (SymPy's NumPy printer refuses e.g. DiracDelta)
            raise ModelError(f"{where}: its derivatives h', h'' cannot be evaluated "
                             f"numerically ({type(e).__name__}: {str(e).splitlines()[0]}); "
                             "write the law with smooth functions") from None

    def evaluate(self, order: int, x: np.ndarray) -> np.ndarray:
        """:math:`h^{(order)}` at the states' values ``x`` (order 0, 1, 2)."""
        out = self._f[order](x, *self.values)
        return np.broadcast_to(np.asarray(out, dtype=float), x.shape)
