r"""Casimir functions: conserved quantities fixed by the structure, whatever the energy.

:math:`C(x)` is a Casimir of :math:`\dot x = (J - R)\nabla H + (G - P)u` when

.. math::  \frac{\partial C}{\partial x}^{\!\top}(J - R) = 0,\qquad
           \frac{\partial C}{\partial x}^{\!\top}(G - P) = 0,

so :math:`\dot C = 0` for every Hamiltonian and every input (van der Schaft & Jeltsema
2014, §8.1; Duindam et al. 2009, §5.2.2).  (Since :math:`R \succeq 0`, the first condition
implies :math:`R\nabla C = 0` and :math:`J\nabla C = 0` separately.)  With
``include_inputs=False`` only the first condition is imposed (Casimirs of the unforced
system).

- **Constant matrices**: the Casimirs are :math:`C_i = w_i^\top x` for a basis
  :math:`w_i` of the left kernel of :math:`[J - R,\; G - P]`: exact rational vectors
  (SymPy) for symbolic systems, an orthonormal basis (SVD, :func:`scipy.linalg.null_space`)
  for numeric ones.
- **State-dependent matrices**: each vector :math:`v(x)` of the left kernel (SymPy) is
  turned into a gradient when it, or it times an integrating factor tried here (the
  least common denominator, :math:`1/v_i`), is curl-free; then :math:`C` is its line
  integral.  Two states: :func:`sympy.pdsolve` on :math:`v^\perp\!\cdot\nabla C = 0`.
  Otherwise supply ``candidates`` and they are verified.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.linalg as sla
import sympy as sp

from .. import _matrices as mx
from ..errors import ModelError
from ..phs import PHS
from .matching import _realify
from .symbolic import as_state_expr, plant_matrices, substitute_by_name

__all__ = ["Casimirs", "casimirs"]


@dataclass
class Casimirs:
    """Casimir functions of a system.

    Attributes
    ----------
    functions : list of SymPy expressions
        :math:`C_i(x)` in the state symbols.
    states : list of str
    method : str
        ``"kernel"`` (constant matrices), ``"gradient"`` (integrated kernel vectors),
        ``"pdsolve"`` or ``"verified"`` (user candidates).
    weights : ndarray or sympy.Matrix or None
        Rows :math:`w_i` with :math:`C_i = w_i^\\top x` (constant matrices only).
    notes : list of str
        What could not be found or decided.
    """

    functions: list[sp.Expr]
    states: list[str]
    method: str
    weights: Any = None
    notes: list[str] = field(default_factory=list)
    _structure: sp.Matrix | None = None
    _values: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.functions)

    def __iter__(self):
        return iter(self.functions)

    def __getitem__(self, i: int) -> sp.Expr:
        return self.functions[i]

    @property
    def symbols(self) -> list[sp.Symbol]:
        return [sp.Symbol(s, real=True) for s in self.states]

    def evaluate(self, x: Any) -> np.ndarray:
        """``[C_1(x), …]`` at a state (or along a trajectory: array of shape (N, n))."""
        x = np.asarray(x, dtype=float)
        if isinstance(self.weights, np.ndarray):
            return x @ self.weights.T
        exprs = [substitute_by_name(c, self._values) for c in self.functions]
        f = sp.lambdify([self.symbols], exprs, modules="numpy")
        if x.ndim == 1:
            return np.asarray(f(x), dtype=float)
        return np.array([f(row) for row in x], dtype=float)

    def residual_expr(self) -> sp.Matrix:
        r"""Rows :math:`\partial C_i/\partial x^\top [J - R,\; G - P]`, simplified."""
        grads = sp.Matrix([[sp.diff(c, x) for x in self.symbols] for c in self.functions])
        return (grads * self._structure).applyfunc(sp.simplify)

    def residual(self, x: Any) -> np.ndarray:
        """Largest entry of ``∂C_i/∂xᵀ [J − R, G − P]`` per Casimir at state ``x``."""
        grads = sp.Matrix([[sp.diff(c, s) for s in self.symbols] for c in self.functions])
        expr = substitute_by_name(grads * self._structure, self._values)
        f = sp.lambdify([self.symbols], expr, modules="numpy")
        vals = np.asarray(f(np.asarray(x, dtype=float)), dtype=float)
        return np.max(np.abs(vals.reshape(len(self.functions), -1)), axis=1)


def casimirs(system: PHS, candidates: Sequence[Any] | None = None, *,
             include_inputs: bool = True, check: bool = True, tol: float = 1e-10) -> Casimirs:
    """Casimir functions of ``system`` (see the module docstring for the method).

    Parameters
    ----------
    system : PHS
    candidates : list of SymPy expressions or str, optional
        Functions to verify instead of searching; each must satisfy the Casimir PDEs.
    include_inputs : bool
        Also require ``∂C/∂xᵀ (G − P) = 0`` (conserved for any input), default.
    check : bool
        Raise when a candidate is not a Casimir (default); else return it with its
        residual (``.residual(x)``, ``.residual_expr()``).

    Raises
    ------
    ModelError
        A candidate that fails (naming it and its residual), or state-dependent matrices
        whose Casimirs are not found here (supply ``candidates``).
    """
    if not system.symbolic and candidates is None:
        return _numeric_kernel(system, include_inputs)
    xs, _, J, R, g = plant_matrices(system)
    A = sp.Matrix.hstack(J - R, g) if include_inputs else J - R
    values = {s.name: v for s, v in system.parameter_values().items()}
    states = list(system.states)
    if candidates is not None:
        funcs = [as_state_expr(c, xs, dict(system.parameters), f"candidate {i}")
                 for i, c in enumerate(candidates)]
        out = Casimirs(funcs, states, "verified", _structure=A, _values=values)
        if check:
            _verify(out, system, tol)
        return out
    if not (A.free_symbols & set(xs)):
        W = [w.T for w in A.T.nullspace(simplify=True)]
        Wm = sp.Matrix.vstack(*W) if W else sp.zeros(0, len(xs))
        funcs = [sp.expand((w * sp.Matrix(xs))[0]) for w in W]
        return Casimirs(funcs, states, "kernel", weights=Wm, _structure=A, _values=values)
    funcs, notes = _nonlinear(A, xs)
    if not funcs and notes:
        raise ModelError("could not find the Casimirs of this state-dependent structure: "
                         + "; ".join(notes) + ". Supply candidates=[...] to verify them")
    method = "pdsolve" if any("pdsolve" in n for n in notes) else "gradient"
    return Casimirs(funcs, states, method, notes=notes, _structure=A, _values=values)


def _numeric_kernel(system: PHS, include_inputs: bool) -> Casimirs:
    if system.n_states > 3000:
        raise ModelError(f"{system.n_states} states: the dense kernel computation is limited "
                         "to 3000 states")
    J, R = mx.to_dense(system.J), mx.to_dense(system.R)
    g = mx.to_dense(system.G) - mx.to_dense(system.P)
    A = np.hstack([J - R, g]) if include_inputs else J - R
    W = sla.null_space(A.T, rcond=1e-12).T
    xs = system.state_symbols
    funcs = [sp.Add(*[sp.Float(w[i]) * xs[i] for i in range(len(xs)) if abs(w[i]) > 1e-15])
             for w in W]
    As = sp.Matrix(A.tolist())
    return Casimirs(funcs, list(system.states), "kernel", weights=W, _structure=As)


def _nonlinear(A: sp.Matrix, xs: list[sp.Symbol]) -> tuple[list[sp.Expr], list[str]]:
    funcs, notes = [], []
    for v in A.T.nullspace(simplify=True):
        C = _integrate_covector(v, xs)
        if C is None and len(xs) == 2:
            C = _pdsolve_casimir(v, xs)
            if C is not None:
                notes.append("found with sympy.pdsolve")
        if C is None:
            notes.append(f"the kernel covector {list(v)} has no integrating factor tried here")
            continue
        funcs.append(C)
    return funcs, notes


def _integrate_covector(v: sp.Matrix, xs: list[sp.Symbol]) -> sp.Expr | None:
    den = sp.lcm([sp.fraction(sp.together(e))[1] for e in v])
    factors = [sp.S.One, den] + [1 / e for e in v if e != 0]
    for f in factors:
        w = (v * f).applyfunc(sp.simplify)
        if all(sp.simplify(sp.diff(w[i], xs[j]) - sp.diff(w[j], xs[i])) == 0
               for i in range(len(xs)) for j in range(i + 1, len(xs))):
            C = sp.S.Zero
            for i, x in enumerate(xs):
                rest = sp.simplify(w[i] - sp.diff(C, x))
                term = sp.integrate(rest, x)
                if term.has(sp.Integral):
                    break
                C += term
            else:
                return sp.simplify(C)
    return None


def _pdsolve_casimir(v: sp.Matrix, xs: list[sp.Symbol]) -> sp.Expr | None:
    """∇C ∥ v in 2-D ⇔ v2 ∂C/∂x1 − v1 ∂C/∂x2 = 0: one first-order linear PDE."""
    x, y = sp.symbols("x_pde y_pde", real=True)
    f = sp.Function("f_pde")
    rep = {xs[0]: x, xs[1]: y}
    eq = (v[1] * f(x, y).diff(x) - v[0] * f(x, y).diff(y)).xreplace(rep)
    try:
        sol = sp.pdsolve(eq, f(x, y))
    except (NotImplementedError, ValueError):
        return None
    free = [a for a in sol.rhs.atoms(sp.core.function.AppliedUndef) if a.func != f]
    if len(free) != 1 or len(free[0].args) != 1:
        return None
    arg = sp.simplify(free[0].args[0].xreplace({x: xs[0], y: xs[1]}))
    try:
        return _realify(arg)
    except ModelError:
        return None


def _verify(c: Casimirs, system: PHS, tol: float) -> None:
    res = c.residual_expr()
    for i in range(res.rows):
        row = [e for e in res.row(i) if e != 0]
        if not row:
            continue
        rng = np.random.default_rng(i)
        pts = rng.normal(size=(20, len(c.states)))
        worst = max(float(c.residual(p)[i]) for p in pts)
        if worst > tol:
            name = system.name or "the system"
            raise ModelError(
                f"candidate {i} = {c.functions[i]} is not a Casimir of {name}: "
                f"∂C/∂xᵀ[J − R, G − P] = {list(res.row(i))} (up to {worst:.3g} at "
                "random states); a Casimir's gradient must lie in the left kernel of the "
                "structure matrices"
            )
        c.notes.append(f"candidate {i}: residual zero numerically (≤ {worst:.1e}), SymPy "
                       "could not simplify it to 0")
