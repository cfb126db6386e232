r"""Irreversible port-Hamiltonian systems and their entropy-consistent time step.

Ramirez, Maschke & Sbarbaro (*Irreversible port-Hamiltonian systems: a general
formulation of irreversible processes with application to the CSTR*, Chem. Eng. Sci. 89
(2013) 223–234; Eur. J. Control 19 (2013) 513–520) write a thermodynamic system with the
internal energy :math:`U(x)` as Hamiltonian and the entropy :math:`S(x)` as a function
of the state as

.. math::
    \dot x = J_0\,\nabla U + \sum_k \gamma_k(x)\,\{S, U\}_{J_k}\,J_k\,\nabla U
             - R_\mathrm{port}(x)\,\nabla U + g(x)\,u,
    \qquad \{S, U\}_{J_k} = \nabla S^\top J_k\,\nabla U,

with constant skew :math:`J_0, J_k`, :math:`\gamma_k \ge 0` and :math:`S` a Casimir of
:math:`J_0` (:math:`\nabla S^\top J_0 = 0`).  Here :math:`S = \sum_i \sigma_i x_i` is
linear (the sum of the entropy states).  Then, without ports,

.. math::
    \dot U = \nabla U^\top \tilde J\,\nabla U = 0,\qquad
    \dot S = \sum_k \gamma_k\,\{S, U\}_{J_k}^2 \ge 0 :

the first law holds by skew-symmetry, the second by the square.  The library's IR takes
this as a :class:`~porthamiltonian.PHS` with ``hamiltonian = U`` and the state-dependent
skew matrix :math:`\tilde J(x) = J_0 + \sum_k \gamma_k\{S,U\}_{J_k}J_k`
(:attr:`IrreversiblePHS.phs`); ``R`` and ``G`` carry the ports (a cooling jacket, streams).

Time step.  A discrete gradient :math:`\bar\nabla U` (AVF: Gauss–Legendre mean of
:math:`\nabla U` along the step, 6 nodes) with the bracket evaluated *on the discrete
gradient* as well,

.. math::
    x_{k+1} = x_k + h\Big[J_0\bar\nabla U + \sum_k \gamma_k(\bar x)\,
    (\nabla S^\top J_k\bar\nabla U)\,J_k\bar\nabla U - R(\bar x)\bar\nabla U
    + g(\bar x)\,u_{k+1/2}\Big],

gives :math:`U_{k+1} - U_k = h\,\bar\nabla U^\top(g u - R\bar\nabla U)` (zero when
isolated) and :math:`S_{k+1} - S_k = h\sum_k\gamma_k(\bar x)(\nabla S^\top J_k
\bar\nabla U)^2 + h\nabla S^\top(g u - R\bar\nabla U) `, so the discrete entropy
production is a sum of squares at every step, whatever h.  The generic discrete
gradient of ``simulate`` evaluates :math:`\tilde J(\bar x)`, i.e. the bracket on
:math:`\nabla U(\bar x)`; its entropy increment is
:math:`h\sum\gamma_k\{S,U\}(\nabla U(\bar x))\,\{S,U\}(\bar\nabla U)`, a product of two
numbers that may differ in sign near equilibrium (measured in docs/thermo-irreversible.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError, SimulationError
from ..phs import PHS

__all__ = ["Coupling", "IrreversiblePHS", "IrreversibleRun", "irreversible_phs", "bracket"]


@dataclass(frozen=True)
class Coupling:
    r"""One irreversible process: :math:`\gamma(x) \ge 0` (its unit makes
    :math:`\gamma\{S,U\}^2` an entropy production in W/K) and the constant skew
    :math:`J_k` that says which states it couples."""

    gamma: sp.Expr
    J: sp.Matrix
    name: str = ""


@dataclass(frozen=True)
class IrreversibleRun:
    """Result of :meth:`IrreversiblePHS.simulate`: times ``t`` (s), states ``x``
    (one row per time), energy ``U`` (J) and total entropy ``S`` (J/K) per time."""

    t: np.ndarray
    x: np.ndarray
    U: np.ndarray
    S: np.ndarray
    states: tuple[str, ...]

    def __getitem__(self, name: str) -> np.ndarray:
        return self.x[:, self.states.index(name)]


def bracket(entropy: Sequence[float], Jk: sp.Matrix, gradU: Any) -> Any:
    r"""The pseudo-Poisson bracket :math:`\{S, U\}_{J_k} = \nabla S^\top J_k\nabla U`."""
    return (sp.Matrix([list(entropy)]) * Jk * gradU)[0, 0]


@dataclass(frozen=True)
class IrreversiblePHS:
    """An irreversible pH system; :attr:`phs` is its IR form (see the module docstring)."""

    phs: PHS
    U: sp.Expr
    x: tuple[sp.Symbol, ...]
    entropy: tuple[float, ...]
    J0: sp.Matrix
    couplings: tuple[Coupling, ...]
    R: sp.Matrix
    G: sp.Matrix
    units: Mapping[str, str]
    _fn: dict[str, Callable[..., Any]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def states(self) -> tuple[str, ...]:
        return tuple(self.phs.states)

    def _f(self, key: str) -> Callable[..., Any]:
        if key not in self._fn:
            grad = sp.Matrix([sp.diff(self.U, v) for v in self.x])
            exprs = {"U": self.U, "grad": grad, "gradlist": list(grad), "R": self.R,
                     "G": self.G,
                     "gammas": sp.Matrix([c.gamma for c in self.couplings] or [0])}
            self._fn[key] = sp.lambdify(self.x, exprs[key], "numpy")
        return self._fn[key]

    def energy(self, x: Any) -> np.ndarray:
        """U (J) of each row of ``x``."""
        x = np.atleast_2d(np.asarray(x, dtype=float))
        return np.array([float(self._f("U")(*r)) for r in x])

    def total_entropy(self, x: Any) -> np.ndarray:
        """S (J/K) of each row of ``x``: the sum of the entropy states."""
        return np.atleast_2d(np.asarray(x, dtype=float)) @ np.asarray(self.entropy)

    def grad(self, x: Any) -> np.ndarray:
        """:math:`\\nabla U` at ``x`` (temperatures, pressures, potentials …)."""
        return np.asarray(self._f("grad")(*x), dtype=float).ravel()

    def rhs(self, x: Any, u: Any = None) -> np.ndarray:
        r"""The vector field :math:`\dot x` at ``x`` with input ``u`` (zero if None)."""
        x = np.asarray(x, dtype=float)
        uk = np.zeros(self.G.shape[1]) if u is None else np.atleast_1d(np.asarray(u, float))
        return self._rhs(x, self.grad(x), uk)

    def _dgrad(self, x0: np.ndarray, x1: np.ndarray, s: np.ndarray,
               w: np.ndarray) -> np.ndarray:
        X = x0[None, :] + s[:, None] * (x1 - x0)[None, :]
        cols = self._f("gradlist")(*X.T)
        G = np.array([np.broadcast_to(np.asarray(c, dtype=float), s.shape) for c in cols])
        return G @ w

    def _rhs(self, xm: np.ndarray, g: np.ndarray, u: np.ndarray) -> np.ndarray:
        n = len(xm)
        if "arrays" not in self._fn:
            self._fn["arrays"] = (np.asarray(self.entropy, dtype=float),  # type: ignore[assignment]
                                  np.asarray(self.J0, dtype=float),
                                  [np.asarray(c.J, dtype=float) for c in self.couplings])
        sig, J0, Js = self._fn["arrays"]  # type: ignore[misc]
        out = J0 @ g
        gam = np.asarray(self._f("gammas")(*xm), dtype=float).ravel()
        for gk, Jk in zip(gam, Js, strict=False):
            v = Jk @ g
            out = out + gk * (sig @ v) * v
        out = out - np.asarray(self._f("R")(*xm), dtype=float).reshape(n, n) @ g
        if u.size:
            out = out + np.asarray(self._f("G")(*xm), dtype=float).reshape(n, -1) @ u
        return out

    def simulate(self, t_span: Sequence[float], x0: Any, dt: float, u: Any = None, *,
                 nodes: int = 6, tol: float = 1e-14, max_iter: int = 50) -> IrreversibleRun:
        r"""The entropy-consistent discrete-gradient step (module docstring), constant
        step ``dt`` (s); ``u`` a constant array or a function ``u(t)``; ``x0`` an array
        or a dict by state name."""
        names = self.states
        if isinstance(x0, Mapping):
            x0 = [float(x0[n]) for n in names]
        x = np.asarray(x0, dtype=float).copy()
        m = self.G.shape[1]
        const = np.zeros(m) if u is None else np.atleast_1d(np.asarray(
            0.0 if callable(u) else u, dtype=float))
        s, w = np.polynomial.legendre.leggauss(nodes)
        s, w = 0.5 * (s + 1.0), 0.5 * w
        t0, t1 = float(t_span[0]), float(t_span[1])
        steps = int(np.ceil((t1 - t0) / dt - 1e-9))
        h = (t1 - t0) / steps
        ts, xs = [t0], [x.copy()]
        for k in range(steps):
            tm = t0 + (k + 0.5) * h
            uk = np.atleast_1d(np.asarray(u(tm), dtype=float)) if callable(u) else const
            x = self._substeps(x, h, uk, s, w, tol, max_iter, tm, 0)
            ts.append(t0 + (k + 1) * h)
            xs.append(x.copy())
        X = np.array(xs)
        return IrreversibleRun(np.array(ts), X, self.energy(X), self.total_entropy(X), names)


    def _substeps(self, x: np.ndarray, h: float, uk: np.ndarray, s: np.ndarray,
                  w: np.ndarray, tol: float, max_iter: int, tm: float,
                  depth: int) -> np.ndarray:
        """A step, or two half steps (recursively, up to 2⁶) when Newton fails; every
        sub-step keeps the discrete energy and entropy properties."""
        try:
            return self._step(x, h, uk, s, w, tol, max_iter, tm)
        except SimulationError:
            if depth >= 6:
                raise
            y = self._substeps(x, h / 2, uk, s, w, tol, max_iter, tm, depth + 1)
            return self._substeps(y, h / 2, uk, s, w, tol, max_iter, tm, depth + 1)

    def _step(self, x: np.ndarray, h: float, uk: np.ndarray, s: np.ndarray, w: np.ndarray,
              tol: float, max_iter: int, tm: float) -> np.ndarray:
        """One step: simplified Newton on the step equation, the Jacobian of the
        continuous field at x (finite differences), started from x."""
        y = x.copy()

        def F(z: np.ndarray) -> np.ndarray:
            return z - x - h * self._rhs(0.5 * (x + z), self._dgrad(x, z, s, w), uk)

        A = np.eye(len(x)) - 0.5 * h * _jac(lambda z: self._rhs(z, self.grad(z), uk),
                                            x)
        prev = np.inf
        for _ in range(max_iter):
            dy = np.linalg.solve(A, F(y))
            y = y - dy
            if not np.all(np.isfinite(y)) or not np.all(np.isfinite(F(y))):
                raise SimulationError(f"the state became non-finite at t = {tm:g} s; "
                                      "use a smaller dt")
            err = float(np.max(np.abs(dy) / (np.abs(y) + 1.0)))
            if err < tol or (err < 1e-13 and err > 0.5 * prev):   # converged or at round-off
                return y
            prev = err
        if np.max(np.abs(F(y)) / (np.abs(y) + 1.0)) > 1e-10:
            raise SimulationError(f"Newton did not converge at t = {tm:g} s from x = {x}; "
                                  "use a smaller dt")
        return y


def _jac(f: Callable[[np.ndarray], np.ndarray], x: np.ndarray) -> np.ndarray:
    f0 = f(x)
    out = np.empty((len(f0), len(x)))
    for j in range(len(x)):
        e = np.zeros_like(x)
        e[j] = 1e-7 * (abs(x[j]) + 1.0)
        out[:, j] = (f(x + e) - f0) / e[j]
    return out


def irreversible_phs(U: sp.Expr, x: Sequence[sp.Symbol], entropy: Sequence[float],
                     couplings: Sequence[Coupling], *, J0: Any = None, R: Any = None,
                     G: Any = None, inputs: Sequence[str] | None = None,
                     units: Mapping[str, str] | None = None,
                     name: str = "") -> IrreversiblePHS:
    r"""Build an irreversible pH system and its IR.

    Parameters
    ----------
    U : sympy.Expr
        Internal energy (J) in the state symbols ``x`` (``sp.Symbol(name, real=True)``).
    entropy : sequence of float
        :math:`\nabla S`: 1 for an entropy state, 0 otherwise (S in J/K).
    couplings : sequence of Coupling
        The irreversible processes.
    J0 : (n, n), optional
        Constant skew reversible structure; :math:`\nabla S^\top J_0 = 0` is checked.
    R, G : optional
        Port terms :math:`-R\nabla U + G u` (R ⪰ 0, state-dependent allowed).
    units : mapping, optional
        Unit of each state (and of each input) by name.
    """
    n = len(x)
    J0m = sp.zeros(n, n) if J0 is None else sp.Matrix(J0)
    sig = sp.Matrix([list(entropy)])
    if sig.shape[1] != n or any(v != 0 for v in sig * J0m):
        raise ModelError("the entropy must be a Casimir of J0 (∇Sᵀ J0 = 0) and have one "
                         "entry per state")
    grad = sp.Matrix([sp.diff(U, v) for v in x])
    Jt = J0m
    for c in couplings:
        if c.J.shape != (n, n) or c.J + c.J.T != sp.zeros(n, n):
            raise ModelError(f"coupling {c.name!r}: J must be a skew {n}×{n} matrix")
        Jt = Jt + c.gamma * bracket(entropy, c.J, grad) * c.J
    Rm = sp.zeros(n, n) if R is None else sp.Matrix(R)
    Gm = sp.zeros(n, 0) if G is None else sp.Matrix(G)
    names = [str(v) for v in x]
    inputs = list(inputs or [f"u{i}" for i in range(Gm.shape[1])])
    phs = PHS(J=Jt, R=Rm, G=Gm if Gm.shape[1] else None, hamiltonian=U, states=names,
              inputs=inputs if Gm.shape[1] else None, name=name, check=False)
    return IrreversiblePHS(phs, U, tuple(x), tuple(float(e) for e in entropy), J0m,
                           tuple(couplings), Rm, Gm, dict(units or {}))
