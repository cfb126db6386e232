r"""Fast numeric functions of a PHS, generated once from its symbolic or matrix form.

Nothing here calls SymPy at evaluation time: symbolic Hamiltonians and
state-dependent matrices are turned into NumPy functions by
:func:`sympy.lambdify` (with common-subexpression elimination) when the
:class:`NumericPHS` is built, and constant matrices are evaluated once.

For a linear system with quadratic :math:`H = \tfrac12 x^\top Q x` the right-hand
side is precomputed as :math:`\dot x = A x + B u` with :math:`A = (J-R)Q`,
:math:`B = G - P`, and the output as :math:`y = C x + D u` with
:math:`C = (G+P)^\top Q`, :math:`D = M + S` (dense or sparse).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp

_NAMES = ("J", "R", "G", "P", "M", "S")


@dataclass(frozen=True)
class PowerBalance:
    r"""Instantaneous power balance :math:`\dot H = u^\top y - d`.

    Attributes
    ----------
    stored:
        :math:`\dot H = \nabla H^\top \dot x` (W).
    supplied:
        :math:`u^\top y`, the power delivered into the system at its ports (W).
    dissipated:
        :math:`d = [\nabla H; u]^\top W [\nabla H; u] \ge 0` (W).
    """

    stored: float
    supplied: float
    dissipated: float

    @property
    def residual(self) -> float:
        """``stored − supplied + dissipated``: zero up to round-off for a PHS."""
        return self.stored - self.supplied + self.dissipated


@dataclass(frozen=True)
class SymbolicSource:
    """The symbolic model behind a :class:`NumericPHS`, parameters kept as symbols with
    their values beside them: what a code generator needs to compile the model once per
    structure (:mod:`porthamiltonian.simulate.kernels`)."""

    states: tuple[sp.Symbol, ...]
    parameters: tuple[sp.Symbol, ...]
    values: tuple[float, ...]
    hamiltonian: sp.Expr
    matrices: dict[str, sp.MatrixBase]
    m: int


class NumericPHS:
    """Numeric evaluation of a PHS: energy, gradient, matrices, ``ẋ``, ``y``, Jacobians.

    Build it with :meth:`porthamiltonian.PHS.compile`; it is cached on the system.
    All arrays are float64; ``x`` has shape ``(n,)`` and ``u`` shape ``(m,)``.
    """

    def __init__(self, n: int, m: int) -> None:
        self.n, self.m = n, m
        self.linear = False
        self._mats: dict[str, Callable[[np.ndarray], Any]] = {}
        self._const: dict[str, Any] = {}
        self._H: Callable[[np.ndarray], float] = lambda x: 0.0
        self._grad: Callable[[np.ndarray], np.ndarray] = lambda x: np.zeros(n)
        self._hess: Callable[[np.ndarray], np.ndarray] | None = None
        self._jac_rhs: Callable[[np.ndarray, np.ndarray], np.ndarray] | None = None
        self.A = self.B = self.C = self.D = self.Q = None
        #: the symbolic model with its parameters as symbols (set by ``PHS.compile``)
        self.source: SymbolicSource | None = None

    #: a compiled explicit PHS is simulated as an ODE (:mod:`.protocol`)
    problem_kind = "ode"

    @property
    def constant_matrices(self) -> dict[str, Any]:
        """``{name: matrix}`` for those of ``J R G P M S`` that do not depend on the state."""
        return self._const

    # -- construction -------------------------------------------------------------
    @classmethod
    def from_linear(cls, mats: dict[str, Any], Q: Any) -> NumericPHS:
        """Linear system with constant matrices (dense or sparse) and ``H = ½ xᵀQx``."""
        n, m = mats["G"].shape
        self = cls(n, m)
        self.linear = True
        self._const = dict(mats)
        self.Q = Q
        J, R, G, P, M, S = (mats[k] for k in _NAMES)
        self.A = (J - R) @ Q
        self.B = G - P
        self.C = (G + P).T @ Q
        self.D = M + S
        if sps.issparse(self.A):
            mats4 = (self.A, self.B, self.C, self.D)
            self.A, self.B, self.C, self.D = (sps.csr_array(a) for a in mats4)
        self._H = lambda x: 0.5 * float(x @ (Q @ x))
        self._grad = lambda x: np.asarray(Q @ x, dtype=float)
        self._hess = lambda x: Q
        return self

    @classmethod
    def from_symbolic(
        cls,
        xs: list[sp.Symbol],
        H: sp.Expr,
        mats: dict[str, sp.MatrixBase],
        m: int,
    ) -> NumericPHS:
        """General system: symbolic ``H(x)`` and matrices that may depend on ``x``.

        All parameters must already be substituted by numbers.
        """
        n = len(xs)
        self = cls(n, m)
        args = [list(xs)]
        grad = [sp.diff(H, xi) for xi in xs]
        self._H = _scalar_function(args, H)
        self._grad = _vector_function(args, grad, n)
        self._sym = (xs, H, grad, mats)
        for k in _NAMES:
            M = mats[k]
            if M.free_symbols:
                f = sp.lambdify(args, M, modules="numpy", cse=True)
                self._mats[k] = lambda x, f=f: np.asarray(f(x), dtype=float)
            else:
                self._const[k] = np.array(M.tolist(), dtype=float).reshape(M.shape)
        hess_const = all(not g.free_symbols for g in sp.Matrix(grad).jacobian(xs)) if n else True
        if hess_const and not any(mats[k].free_symbols for k in _NAMES):
            Qm = without_impulses(sp.Matrix(grad).jacobian(xs)) if n else sp.zeros(0, 0)
            # constant Hessian and ∇H(0) = 0: H is a quadratic form (up to a constant)
            origin = dict.fromkeys(xs, 0)
            if H.subs(origin) == 0 and all(g.subs(origin) == 0 for g in grad):
                Q = np.array(Qm.tolist(), dtype=float).reshape(n, n)
                return cls.from_linear(self._const, Q)
        return self

    # -- evaluation ---------------------------------------------------------------
    def matrix(self, name: str, x: np.ndarray) -> Any:
        """The value of ``J``, ``R``, ``G``, ``P``, ``M`` or ``S`` at state ``x``."""
        if name in self._const:
            return self._const[name]
        return self._mats[name](x)

    def energy(self, x: np.ndarray) -> float:
        """``H(x)`` (J)."""
        return float(self._H(np.asarray(x, dtype=float)))

    def gradient(self, x: np.ndarray) -> np.ndarray:
        """``∇H(x)`` (the co-energy variables: efforts of C, flows of I)."""
        return np.asarray(self._grad(np.asarray(x, dtype=float)), dtype=float).reshape(self.n)

    def hessian(self, x: np.ndarray) -> Any:
        """``∇²H(x)``."""
        if self._hess is None:
            xs, _, grad, _ = self._sym
            Hm = without_impulses(sp.Matrix(grad).jacobian(xs))
            f = sp.lambdify([list(xs)], Hm, modules="numpy", cse=True)
            self._hess = lambda x, f=f: np.asarray(f(x), dtype=float).reshape(self.n, self.n)
        return self._hess(np.asarray(x, dtype=float))

    def _u(self, u: Any) -> np.ndarray:
        if u is None:
            return np.zeros(self.m)
        u = np.asarray(u, dtype=float).reshape(self.m)
        return u

    def rhs(self, x: np.ndarray, u: Any = None) -> np.ndarray:
        """``ẋ = (J − R)∇H + (G − P)u``."""
        x = np.asarray(x, dtype=float)
        u = self._u(u)
        if self.linear:
            return self.A @ x + self.B @ u
        z = self.gradient(x)
        JR = self.matrix("J", x) - self.matrix("R", x)
        GP = self.matrix("G", x) - self.matrix("P", x)
        return JR @ z + GP @ u

    def output(self, x: np.ndarray, u: Any = None) -> np.ndarray:
        """``y = (G + P)ᵀ∇H + (M + S)u``."""
        x = np.asarray(x, dtype=float)
        u = self._u(u)
        if self.linear:
            return self.C @ x + self.D @ u
        z = self.gradient(x)
        GP = self.matrix("G", x) + self.matrix("P", x)
        MS = self.matrix("M", x) + self.matrix("S", x)
        return GP.T @ z + MS @ u

    def power_balance(self, x: np.ndarray, u: Any = None) -> PowerBalance:
        """Stored, supplied and dissipated power at ``(x, u)``."""
        x = np.asarray(x, dtype=float)
        u = self._u(u)
        z = self.gradient(x)
        xdot = self.rhs(x, u)
        y = self.output(x, u)
        R, P, S = (self.matrix(k, x) for k in ("R", "P", "S"))
        dissipated = float(z @ (R @ z) + 2.0 * z @ (P @ u) + u @ (S @ u))
        return PowerBalance(float(z @ xdot), float(u @ y), dissipated)

    def jacobian(self, x: np.ndarray, u: Any = None) -> Any:
        """``∂ẋ/∂x`` at ``(x, u)`` (exact: symbolic differentiation compiled once)."""
        if self.linear:
            return self.A
        if self._jac_rhs is None:
            xs, _, grad, mats = self._sym
            us = [sp.Dummy(f"u{k}") for k in range(self.m)]
            u_col = sp.Matrix(self.m, 1, us)
            f = (mats["J"] - mats["R"]) * sp.Matrix(grad) + (mats["G"] - mats["P"]) * u_col
            Jac = without_impulses(f.jacobian(xs))
            g = sp.lambdify([list(xs), us], Jac, modules="numpy", cse=True)
            self._jac_rhs = lambda x, u, g=g: np.asarray(g(x, u), dtype=float).reshape(
                self.n, self.n
            )
        return self._jac_rhs(np.asarray(x, dtype=float), self._u(u))


def _scalar_function(args: list, expr: sp.Expr) -> Callable[[np.ndarray], float]:
    f = sp.lambdify(args, expr, modules="numpy", cse=True)
    return lambda x: float(f(x))


def _vector_function(
    args: list, exprs: list[sp.Expr], n: int
) -> Callable[[np.ndarray], np.ndarray]:
    if n == 0:
        return lambda x: np.zeros(0)
    f = sp.lambdify(args, exprs, modules="numpy", cse=True)
    return lambda x: np.asarray(f(x), dtype=float)


def without_impulses(expr: Any) -> Any:
    """``expr`` with Dirac impulses set to 0: the Hessian of ``|x|³`` is ``6|x|`` plus
    ``DiracDelta`` terms multiplied by ``x`` — zero everywhere, and the classical second
    derivative exists — so dropping them gives the a.e. (here: everywhere) value."""
    return expr.replace(lambda e: isinstance(e, sp.DiracDelta), lambda e: sp.S.Zero)

