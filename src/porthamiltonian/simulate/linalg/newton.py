r"""Newton's method for the implicit step equations, with exact Jacobians.

The step equation of an implicit method is :math:`F(w) = 0` for an unknown
increment :math:`w` (a state increment or the stage derivatives).  Each
iteration solves :math:`F'(w)\,\Delta w = F(w)` with an LU factorization: dense
(LAPACK ``getrf`` via :func:`scipy.linalg.lu_factor`) or sparse
(SuperLU via :func:`scipy.sparse.linalg.splu`) when the Jacobian is a sparse
matrix.  For an affine step equation (linear time-invariant system without state
feedback) the Jacobian does not change, so :class:`Factorization` objects are
cached by the caller and one solve gives the exact solution (no iteration).

Convergence test: :math:`\|\Delta w\|_\infty \le \mathrm{tol}\,
(\|x\|_\infty + \|w\|_\infty + \mathrm{tiny})`.  Because the final update of a
converging Newton iteration overestimates the remaining error quadratically,
the accepted solution is accurate to round-off for ``tol`` ≈ 1e-12.  An iteration
whose updates stop decreasing below :math:`10^{-8}` of the scale has reached the
round-off floor and is accepted as well.  A *simplified* Newton iteration (a
factorization reused from an earlier step for a nonlinear ``F``) converges only
linearly, so its last update says little about the remaining error: it continues
until the updates reach the round-off floor (below :math:`16\epsilon` of the scale, or
no longer shrinking by 0.3 per iteration once below ``tol``) — so that quantities the
exact step conserves (quadratic invariants of the midpoint rule) stay at round-off — and
then accepts only when the residual :math:`\|F(w)\|_\infty` itself is below
:math:`\mathrm{tol}\,(0.1\|w\|_\infty + 10^{-3}\|x\|_\infty)` — the discrete power
balance is off by :math:`\bar z^\top F(w)`, so this bounds its error relative to the
energy exchanged in the step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sps

from ..._matrices import sparse_lu
from .stopping import at_floor, full_converged, residual_accepted

_getrs = sla.lapack.dgetrs

__all__ = ["Factorization", "NewtonFailure", "NewtonResult", "newton", "cached_factorization",
           "SimplifiedNewton"]

#: LU factors kept per method: adaptive steps and switching create a few step sizes and
#: structures each; the bound keeps memory finite when they keep changing
MAX_CACHED_FACTORS = 16


class NewtonFailure(ArithmeticError):
    """The Newton iteration did not converge (the caller reduces the step)."""


class Factorization:
    """LU factors of a square matrix, dense or sparse; ``solve(b)`` solves ``A x = b``."""

    def __init__(self, A: Any) -> None:
        if sps.issparse(A):
            try:
                self._lu = sparse_lu(A)
            except RuntimeError as err:  # SuperLU's "Factor is exactly singular"
                raise NewtonFailure(f"singular step Jacobian ({err})") from None
            self._sparse = True
        else:
            A = np.asarray(A)
            A = A.astype(complex if np.iscomplexobj(A) else float, copy=False)
            self._lu = sla.lu_factor(A, check_finite=False)
            self._sparse = False
            self._getrs = sla.lapack.zgetrs if np.iscomplexobj(A) else _getrs
            if not np.all(np.isfinite(self._lu[0])) or np.any(np.diag(self._lu[0]) == 0):
                raise NewtonFailure("singular step Jacobian")

    def solve(self, b: np.ndarray) -> np.ndarray:
        if self._sparse:
            return self._lu.solve(b)
        x, info = self._getrs(self._lu[0], self._lu[1], b)
        if info != 0:
            raise NewtonFailure("LU solve failed")
        return x


def cached_factorization(
    cache: dict[Any, Factorization], key: Any, build: Callable[[], Any]
) -> Factorization:
    """``cache[key]``, factoring ``build()`` on a miss (oldest entry dropped when full)."""
    lu = cache.get(key)
    if lu is None:
        if len(cache) >= MAX_CACHED_FACTORS:
            del cache[next(iter(cache))]
        lu = cache[key] = Factorization(build())
    return lu


@dataclass
class NewtonResult:
    """Solution ``w`` of ``F(w) = 0`` with the work done (iterations, residual evaluations)."""

    w: np.ndarray
    iterations: int
    nfev: int


def newton(
    residual: Callable[[np.ndarray], np.ndarray],
    jacobian: Callable[[np.ndarray], Any] | None,
    w0: np.ndarray,
    *,
    scale: float,
    tol: float = 1e-12,
    max_iter: int = 20,
    factorization: Factorization | None = None,
    affine: bool = False,
) -> NewtonResult:
    """Solve ``F(w) = 0`` by Newton's method.

    Parameters
    ----------
    residual, jacobian:
        ``F`` and ``F'`` (dense array or sparse matrix).  ``jacobian`` may be
        ``None`` when ``factorization`` is given (constant Jacobian).
    w0:
        Initial guess.
    scale:
        Magnitude of the state (∞-norm) used in the convergence test.
    tol, max_iter:
        Relative tolerance on the update and the iteration limit.
    factorization:
        Factors of a constant Jacobian, reused (LTI systems).
    affine:
        ``F`` is affine: one solve is exact, no convergence test.

    Raises
    ------
    NewtonFailure
        When the iteration diverges, produces NaN/Inf or hits ``max_iter``.
    """
    w = np.array(w0, dtype=float)
    # a factorization reused for a non-affine F (simplified Newton) converges linearly
    frozen = factorization is not None and not affine
    tiny = 1e-300
    prev = np.inf
    nfev = 0
    for k in range(1, max_iter + 1):
        r = residual(w)
        nfev += 1
        if not np.all(np.isfinite(r)):
            raise NewtonFailure("non-finite residual")
        lu = factorization if factorization is not None else Factorization(jacobian(w))
        dw = lu.solve(r)
        w = w - dw
        if affine:
            return NewtonResult(w, k, nfev)
        size = float(np.max(np.abs(dw))) if dw.size else 0.0
        bound = scale + (float(np.max(np.abs(w))) if w.size else 0.0) + tiny
        if not np.isfinite(size):
            raise NewtonFailure("non-finite Newton update")
        if frozen:  # linear convergence: iterate down to the round-off floor, then check F
            if at_floor(size, prev, bound, tol):
                r = residual(w)
                nfev += 1
                wmax = float(np.max(np.abs(w), initial=0.0))
                if residual_accepted(float(np.max(np.abs(r), initial=0.0)), wmax, bound, tol):
                    return NewtonResult(w, k, nfev)
        elif full_converged(size, prev, bound, tol):
            return NewtonResult(w, k, nfev)
        if k > 3 and size > prev:
            raise NewtonFailure(f"Newton diverging (update {size:.3g} after {k} iterations)")
        prev = size
    raise NewtonFailure(f"no convergence in {max_iter} Newton iterations")


class SimplifiedNewton:
    """Newton for a sequence of similar step equations (one per step of a method).

    Tries simplified Newton with the step matrix factored at an earlier step (same
    ``key``, e.g. the step size), then with a freshly factored one, then full Newton
    (Hairer & Wanner, *Solving ODEs II*, §IV.8).  The accepted solution satisfies the
    same equations in every case — only the work changes.  When even the fresh
    factorization fails (a strongly state-dependent step matrix, e.g. a geometrically
    exact beam at large steps), the next solves go straight to full Newton — 1, 2, 4, …
    up to 64 of them, doubling while the failures persist — instead of paying two
    wasted factorizations per step.

    ``refresh_after``: a frozen solve that needed more iterations than this (the factors
    have gone stale as the state moved) keeps its result but drops the factors, so the
    next solve factors afresh instead of running into the iteration limit first
    (``None``: keep them while the iteration converges at all).
    """

    MAX_BACKOFF = 64

    def __init__(self, tol: float, max_iter: int, refresh_after: int | None = None) -> None:
        self.tol, self.max_iter, self.refresh_after = tol, max_iter, refresh_after
        self._frozen: tuple[Any, Factorization] | None = None
        self._skip, self._backoff = 0, 1

    def solve(self, F: Callable[[np.ndarray], np.ndarray], Jac: Callable[[np.ndarray], Any],
              w0: np.ndarray, scale: float, key: Any) -> NewtonResult:
        if self._skip > 0:
            self._skip -= 1
            return newton(F, Jac, w0, scale=scale, tol=self.tol, max_iter=self.max_iter)
        frozen = self._frozen if self._frozen is not None and self._frozen[0] == key else None
        for attempt in range(2):
            if frozen is None:
                frozen = (key, Factorization(Jac(w0)))
            try:
                res = newton(F, None, w0, scale=scale, tol=self.tol, max_iter=8,
                             factorization=frozen[1])
                stale = self.refresh_after is not None and res.iterations > self.refresh_after
                self._frozen = None if stale else frozen
                self._backoff = 1
                res.nfev += attempt  # the Jacobian evaluation of a fresh factorization
                return res
            except NewtonFailure:
                frozen = None
        self._frozen = None
        self._skip, self._backoff = self._backoff, min(2 * self._backoff, self.MAX_BACKOFF)
        return newton(F, Jac, w0, scale=scale, tol=self.tol, max_iter=self.max_iter)
