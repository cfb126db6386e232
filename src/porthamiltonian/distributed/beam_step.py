r"""The implicit midpoint step of a beam (:class:`.beam_system.BeamPHS`), compiled whole.

The step equation, its Newton policy and the bookkeeping are those of
:mod:`porthamiltonian.simulate.ode.midpoint` — for the increment :math:`\delta`,

.. math::
    F(\delta) = \delta - h\,K(\bar x)\,(Q\bar x,\ u_{k+1/2}) = 0,\qquad
    \bar x = x_k + \tfrac12\delta,

solved by *simplified* Newton with the step matrix :math:`I - \tfrac h2\,\partial_x\dot
x` factored at an earlier step of the same size (iterating to the round-off floor, then
accepting on the residual), a fresh factorization when that fails, then full Newton with
a growing back-off (:class:`~porthamiltonian.simulate.linalg.newton.SimplifiedNewton`;
Hairer & Wanner, *Solving ODEs II*, §IV.8).  Only the first guess differs: :math:`h\,
\dot x(x_k, u_{k+1/2})`, with the one input value of the step, as the compiled steps of
:mod:`porthamiltonian.simulate.kernels` do; both guesses lead to the same solution to the
Newton tolerance.  What is new is where it runs: a whole block of steps is one Numba call
(:func:`porthamiltonian.jit.njit`), so no Python runs per Newton iteration.

**Banded LU.**  The step matrix of a 1-D finite-element model couples neighbouring
elements only: numbered in reverse Cuthill–McKee order (its pattern is fixed) it is banded
with :math:`k_l = k_u \approx 11` (planar beam, degree 2) whatever the number of elements.
It is factored with partial pivoting in band storage (rows interchanged within the band,
as LAPACK's ``gbtrf``), :math:`O(n k_l(k_l + k_u))` work and :math:`O(n(2k_l + k_u))`
memory; a solve is :math:`O(n(2k_l + k_u))`.

**Energy.**  Each step returns the work supplied at the hub or ports,
:math:`h\,u_{k+1/2}^\top\bar y` with :math:`\bar y = G(\bar x)^\top Q\bar x`, and
:math:`\Delta H = \tfrac12(x_{k+1} + x_k)^\top Q(x_{k+1} - x_k)` without cancellation;
they agree to round-off because :math:`J(\bar x)` is skew (the discrete power balance of
the midpoint rule for a quadratic :math:`H`).  The beams are lossless
(:math:`R = P = S = 0`); a model with dissipation or feed-through gets the NumPy step.
"""

from __future__ import annotations

import hashlib
import math
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import scipy.sparse as sps

from .. import jit
from ..simulate.kernels.stopping import at_floor, full_converged, residual_accepted

__all__ = ["FusedBeamMidpoint", "band_structure", "precompile", "marker"]

_TINY = 1e-300
#: iterations of a solve with frozen factors (as ``SimplifiedNewton``)
FROZEN_ITERATIONS = 8
#: fixed steps from which ``engine="auto"`` compiles the step even the first time
AUTO_COMPILE_STEPS = 100_000
#: most band entries (n × width) the fused step allocates; beyond, the sparse NumPy step
MAX_BAND_ENTRIES = 50_000_000


def band_structure(indptr: np.ndarray, indices: np.ndarray, n: int
                   ) -> tuple[np.ndarray, np.ndarray, int, int]:
    """``(perm, pinv, kl, ku)``: the reverse Cuthill–McKee order of the CSC pattern
    (plus the diagonal) — ``perm[new] = old``, ``pinv[old] = new`` — and its lower and
    upper bandwidths in that order."""
    from scipy.sparse.csgraph import reverse_cuthill_mckee

    A = sps.csc_array((np.ones(indices.size), indices, indptr), shape=(n, n)).tocsr()
    S = (A + A.T + sps.eye_array(n, format="csr")).tocsr()
    perm = np.asarray(reverse_cuthill_mckee(S, symmetric_mode=True), dtype=np.int64)
    pinv = np.empty(n, dtype=np.int64)
    pinv[perm] = np.arange(n)
    c = S.tocoo()
    bi, bj = pinv[c.row], pinv[c.col]
    return perm, pinv, int(max(0, np.max(bi - bj))), int(max(0, np.max(bj - bi)))


def marker() -> Path:
    """A file that exists once the step has been compiled on this machine for this
    version of it, of Numba and of Python (it is then in Numba's cache)."""
    text = Path(__file__).read_text(encoding="utf-8")
    numba = jit._numba()
    stamp = f"{text}{numba.__version__ if numba else None}{sys.version_info[:2]}"
    return jit.cache_dir() / f"beam-step-{hashlib.sha256(stamp.encode()).hexdigest()[:16]}.ready"


def precompile() -> float:
    """Compile the beam step now (once per machine; seconds): a zero-step call with
    arguments of the types every beam passes; returns the seconds it took (0 without
    Numba)."""
    if not jit.enabled():
        return 0.0
    i, f = np.zeros(3, dtype=np.int64), np.zeros(1)
    return _warm_up((i, f, f, (i, i, i, i, i), (f, f), (1, 0, 0, 0), f, i,
                     np.array([np.nan, 0.0, 1.0]), 1e-12, 20, np.zeros(2, dtype=np.int64)), 1, 0)


def _warm_up(args: tuple[Any, ...], n: int, m: int) -> float:
    """Compile (or load from Numba's cache) the block kernel by a zero-step call with
    ``args`` and mark it built on this machine; the seconds it took."""
    start = time.perf_counter()
    _block(*args, np.zeros((1, n)), np.zeros((0, m)), 0.0, np.zeros((0, 3)))
    seconds = time.perf_counter() - start
    path = marker()
    if hasattr(_block, "signatures") and not path.exists():  # compiled by Numba
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"compiled in {seconds:.1f} s\n", encoding="utf-8")
    return seconds


class FusedBeamMidpoint:
    """The midpoint method on a :class:`.beam_system.BeamNumeric`, steps in compiled
    blocks (module docstring).  ``base`` is the NumPy :class:`Midpoint` stepper of the same
    run: a step the compiled Newton cannot take is handed to it (it halves the step as
    the loop does)."""

    name = "midpoint"
    order = 2

    def __init__(self, base: Any, num: Any, band: tuple[Any, ...]) -> None:
        self.base, self.num, self.dyn = base, num, base.dyn
        self.tol, self.max_iter = float(base.newton_tol), int(base.max_newton)
        n, m = num.n, num.m
        perm, pinv, kl, ku = band
        width = 2 * kl + ku + 1
        rows = np.repeat(np.arange(n), np.diff(num._indptr))  # rows of K's pattern
        cols = num._indices
        inner = cols < n

        def flat(i: np.ndarray, j: np.ndarray) -> np.ndarray:  # (i, j) in band storage
            bi, bj = pinv[i], pinv[j]
            return (bi * width + bj - bi + kl).astype(np.int64)

        r, c, k, v = num._K_entries
        # the step matrix: its terms' places in the band (module docstring of beam_system)
        self.maps = (np.flatnonzero(inner).astype(np.int64), flat(rows[inner], cols[inner]),
                     flat(r, k), c.astype(np.int64), perm)
        self.coefs = (num.q[cols[inner]].astype(float), v.astype(float))
        self.shape = (n, m, kl, ku)
        self.ab = np.zeros(n * width)
        self.piv = np.zeros(n, dtype=np.int64)
        #: step size of the frozen factors (NaN: none), full-Newton solves to skip, back-off
        self.state = np.array([np.nan, 0.0, 1.0])
        self.counts = np.zeros(2, dtype=np.int64)  # Newton iterations, F evaluations

    @classmethod
    def create(cls, base: Any, num: Any, problem: Any, options: Any
               ) -> FusedBeamMidpoint | None:
        """The compiled stepper, or ``None`` when it does not apply: Numba off, a model
        with dissipation or feed-through, a band too large for memory — or, for
        ``engine="auto"``, a short run (fewer than :data:`AUTO_COMPILE_STEPS` fixed steps)
        before the step has been compiled on this machine (:func:`precompile`; the
        compilation takes seconds once, then Numba's cache loads it in milliseconds),
        unless ``PORTHAMILTONIAN_JIT=always``."""
        if not jit.enabled() or any(a is not None for a in (num._R, num._P, num._MS)):
            return None
        if options.engine == "auto" and not (jit.always() or marker().exists()):
            t0, t1 = problem.t_span
            if options.dt is None or (t1 - t0) / options.dt < AUTO_COMPILE_STEPS:
                base.engine_report = {"engine": "numpy", "engine_reason": (
                    "the compiled beam step is not built on this machine yet and the run "
                    f"is short (fewer than {AUTO_COMPILE_STEPS} fixed steps); build it once "
                    "with porthamiltonian.distributed.beam_step.precompile() or pass "
                    "engine='compiled'")}
                return None
        band = getattr(num, "_band", None)
        if band is None:  # the pattern is fixed: ordered once per model
            band = num._band = band_structure(num._jac_indptr, num._jac_indices, num.n)
        if num.n * (2 * band[2] + band[3] + 1) > MAX_BAND_ENTRIES:
            return None
        stepper = cls(base, num, band)
        stepper.warm_up()
        return stepper

    def warm_up(self) -> float:
        """Compile (or load from Numba's cache) the block kernel with a zero-step call and
        mark it built on this machine; returns the seconds it took."""
        seconds = _warm_up(self._args(), self.num.n, self.num.m)
        self.compile_time = seconds
        #: what the result reports (``result.extra``)
        self.engine_report = {"engine": "numba", "engine_path": "beam step (banded LU)",
                              "compile_time": seconds}
        return seconds

    def _args(self) -> tuple[Any, ...]:
        num = self.num
        return (num._ints, num._reals, num.q, self.maps, self.coefs, self.shape, self.ab,
                self.piv, self.state, self.tol, self.max_iter, self.counts)

    def lti_block(self) -> Any:
        """The block function of the fixed-step loop (:mod:`..simulate.ode.lti_loop`)."""
        return self.block

    def step(self, t: float, x: np.ndarray, h: float) -> tuple[np.ndarray, Any]:
        """One compiled step (adaptive steps, events); raises ``NewtonFailure``."""
        from ..simulate.linalg.newton import NewtonFailure
        from ..simulate.method import StepInfo

        x = np.ascontiguousarray(x, dtype=float)
        U = self.dyn.u(t + 0.5 * h, x).reshape(1, -1)
        X = np.empty((2, x.size))
        X[0] = x
        W = np.zeros((1, 3))
        before = self.counts.copy()
        if _block(*self._args(), X, U, float(h), W) != 1:
            raise NewtonFailure("no convergence of the compiled beam midpoint step")
        it, nf = (int(c) for c in self.counts - before)
        supplied, dissipated, residual = W[0]
        return X[1], StepInfo(supplied, dissipated, residual + supplied - dissipated, it, nf)

    def block(self, dyn: Any, x: np.ndarray, times: np.ndarray, h: float
              ) -> tuple[np.ndarray, np.ndarray]:
        """Steps of size ``h`` from ``times[0]``: states ``X`` (one row per time) and per
        step (work supplied, work dissipated, balance residual) in J.  A step that fails
        in compiled code is retried by the NumPy step (halving it as needed); a row of
        NaN marks one that fails there too (the loop reports it)."""
        from ..simulate.kernels.choice import fallback_step

        K = times.size - 1
        X = np.empty((K + 1, dyn.n))
        X[0] = x
        W = np.zeros((K, 3))
        U = np.empty((K, dyn.m))
        for k in range(K):  # no feedback: the state argument is not used
            U[k] = dyn.u(float(times[k]) + 0.5 * h, x)
        k, args = 0, self._args()
        while k < K:
            k += int(_block(*args, X[k:], U[k:], float(h), W[k:]))
            if k == K:
                break
            info = fallback_step(self.base, times[k], X, W, k, h)
            if info is None:
                break
            self.counts += (info.newton_iterations, info.nfev)
            k += 1
        return X, W


# -- compiled kernels ----------------------------------------------------------------------
@jit.njit
def _k_data(ints: np.ndarray, reals: np.ndarray, n: int, x: np.ndarray,
            data: np.ndarray) -> None:
    """The entries of K(x) on its pattern (``ints``, ``reals``: BeamNumeric's packing;
    ``n`` states, the first n entries of ``x``)."""
    nnz = data.size
    tptr = 2 * n + 1 + nnz
    tidx = tptr + nnz + 1
    for p in range(nnz):
        s = 0.0
        for e in range(ints[tptr + p], ints[tptr + p + 1]):
            s += reals[nnz + e] * x[ints[tidx + e]]
        data[p] = reals[p] + s


@jit.njit
def _affine_matvec(ints: np.ndarray, reals: np.ndarray, x: np.ndarray, w: np.ndarray,
                   out: np.ndarray) -> None:
    """``out = K(x) w`` with ``K(x)``'s entries ``d0 + T x`` formed on the fly (``ints``,
    ``reals``: the packed pattern of :class:`BeamNumeric`).  The columns before
    ``split[i]`` (J) and from it on (G) are summed apart and then added: the order of the
    two sparse products this replaces, so the result is the same to the last bit."""
    n = out.size
    nnz = ints[n] - ints[0]
    split, cols, tptr = n + 1, 2 * n + 1, 2 * n + 1 + nnz
    tidx = tptr + nnz + 1
    for i in range(n):
        inner = 0.0
        outer = 0.0
        for p in range(ints[i], ints[i + 1]):
            s = 0.0
            for e in range(ints[tptr + p], ints[tptr + p + 1]):
                s += reals[nnz + e] * x[ints[tidx + e]]
            a = reals[p] + s
            if p < ints[split + i]:
                inner += a * w[ints[cols + p]]
            else:
                outer += a * w[ints[cols + p]]
        out[i] = inner + outer


@jit.njit
def _field(ints: np.ndarray, reals: np.ndarray, q: np.ndarray, xm: np.ndarray,
           u: np.ndarray, w: np.ndarray, out: np.ndarray) -> None:
    """out = K(x̄)(Qx̄, u) (w: workspace of n + m; the first n entries of ``xm`` and
    ``out`` are used)."""
    n = q.size
    for i in range(n):
        w[i] = q[i] * xm[i]
    for j in range(u.size):
        w[n + j] = u[j]
    _affine_matvec(ints, reals, xm, w, out[:n])


@jit.njit
def _residual(ints: np.ndarray, reals: np.ndarray, q: np.ndarray, x: np.ndarray,
              d: np.ndarray, h: float, u: np.ndarray, xm: np.ndarray, w: np.ndarray,
              f: np.ndarray, r: np.ndarray) -> None:
    """r = F(δ) = δ − h K(x̄)(Qx̄, u), x̄ = x + δ/2."""
    for i in range(q.size):
        xm[i] = x[i] + 0.5 * d[i]
    _field(ints, reals, q, xm, u, w, f)
    for i in range(q.size):
        r[i] = d[i] - h * f[i]


@jit.njit
def _step_matrix(ints: np.ndarray, reals: np.ndarray, q: np.ndarray, maps: tuple,
                 coefs: tuple, shape: tuple, x: np.ndarray, d: np.ndarray, h: float,
                 u: np.ndarray, ab: np.ndarray, xm: np.ndarray, w: np.ndarray,
                 data: np.ndarray) -> None:
    """ab = I − (h/2) ∂ẋ/∂x at x̄ = x + δ/2, permuted, in band storage: the K(x̄)Q terms
    and the ∂(K(x)w)/∂x terms (module docstring of :mod:`.beam_system`)."""
    inner, pos_a, pos_b, wcol, perm = maps
    qcol, coef = coefs
    n, m, kl, ku = shape
    width = 2 * kl + ku + 1
    for i in range(n):
        xm[i] = x[i] + 0.5 * d[i]
        w[i] = q[i] * xm[i]
    for j in range(m):
        w[n + j] = u[j]
    _k_data(ints, reals, n, xm, data)
    c = 0.5 * h
    ab[:] = 0.0
    for t in range(inner.size):
        ab[pos_a[t]] -= c * data[inner[t]] * qcol[t]
    for e in range(coef.size):
        ab[pos_b[e]] -= c * coef[e] * w[wcol[e]]
    for i in range(n):
        ab[i * width + kl] += 1.0


@jit.njit
def _band_factor(ab: np.ndarray, piv: np.ndarray, n: int, kl: int, ku: int) -> bool:
    """LU with partial pivoting in band storage (row i holds columns i − kl … i + kl + ku
    at ``ab[i·width + j − i + kl]``); L is kept as computed, the interchanges in ``piv``
    (applied in order by :func:`_band_solve`, as LAPACK's gbtrs).  False when a pivot is
    zero or not finite."""
    width = 2 * kl + ku + 1
    for k in range(n):
        last = min(n - 1, k + kl)
        p, best = k, abs(ab[k * width + kl])
        for i in range(k + 1, last + 1):
            v = abs(ab[i * width + k - i + kl])
            if v > best:
                p, best = i, v
        piv[k] = p
        if not (best > 0.0) or not math.isfinite(best):
            return False
        right = min(n - 1, k + kl + ku)
        if p != k:
            for j in range(k, right + 1):
                a, b = k * width + j - k + kl, p * width + j - p + kl
                ab[a], ab[b] = ab[b], ab[a]
        pivot = ab[k * width + kl]
        for i in range(k + 1, last + 1):
            li = i * width + k - i + kl
            lik = ab[li] / pivot
            ab[li] = lik
            if lik != 0.0:
                for j in range(k + 1, right + 1):
                    ab[li + j - k] -= lik * ab[k * width + j - k + kl]
    return True


@jit.njit
def _band_solve(ab: np.ndarray, piv: np.ndarray, n: int, kl: int, ku: int,
                perm: np.ndarray, b: np.ndarray, y: np.ndarray) -> None:
    """b ← A⁻¹ b for the factors of the permuted matrix (y: workspace of n)."""
    width = 2 * kl + ku + 1
    for i in range(n):
        y[i] = b[perm[i]]
    for k in range(n):
        p = piv[k]
        if p != k:
            y[k], y[p] = y[p], y[k]
        yk = y[k]
        if yk != 0.0:
            for i in range(k + 1, min(n - 1, k + kl) + 1):
                y[i] -= ab[i * width + k - i + kl] * yk
    for k in range(n - 1, -1, -1):
        s = y[k]
        row = k * width - k + kl
        for j in range(k + 1, min(n - 1, k + kl + ku) + 1):
            s -= ab[row + j] * y[j]
        y[k] = s / ab[row + k]
    for i in range(n):
        b[perm[i]] = y[i]


@jit.njit
def _max_abs(v: np.ndarray) -> float:
    s = 0.0
    for i in range(v.size):
        a = abs(v[i])
        if a > s or a != a:  # a NaN propagates
            s = a
    return s


@jit.njit
def _newton(ints: np.ndarray, reals: np.ndarray, q: np.ndarray, maps: tuple, coefs: tuple,
            shape: tuple, ab: np.ndarray, piv: np.ndarray, x: np.ndarray, d: np.ndarray,
            h: float, u: np.ndarray, frozen: bool, tol: float, max_iter: int,
            counts: np.ndarray, ws: np.ndarray, data: np.ndarray) -> bool:
    """Newton on F(δ) = 0 in place, with the test of
    :func:`porthamiltonian.simulate.linalg.newton.newton`: frozen factors (to the
    round-off floor, then a residual check) or a fresh step matrix per iteration."""
    n, m, kl, ku = shape
    perm = maps[4]
    xm, w, f, r, y = ws[0], ws[1], ws[2], ws[3], ws[4]
    scale = _max_abs(x)
    prev = np.inf
    for k in range(1, max_iter + 1):
        _residual(ints, reals, q, x, d, h, u, xm, w, f, r[:n])
        counts[1] += 1
        if not math.isfinite(_max_abs(r[:n])):
            return False
        if not frozen:
            _step_matrix(ints, reals, q, maps, coefs, shape, x, d, h, u, ab, xm, w, data)
            if not _band_factor(ab, piv, n, kl, ku):
                return False
        _band_solve(ab, piv, n, kl, ku, perm, r[:n], y[:n])
        for i in range(n):
            d[i] -= r[i]
        counts[0] += 1
        size = _max_abs(r[:n])
        bound = scale + _max_abs(d) + _TINY
        if not math.isfinite(size):
            return False
        if frozen:
            if at_floor(size, prev, bound, tol):
                _residual(ints, reals, q, x, d, h, u, xm, w, f, r[:n])
                counts[1] += 1
                if residual_accepted(_max_abs(r[:n]), _max_abs(d), bound, tol):
                    return True
        elif full_converged(size, prev, bound, tol):
            return True
        if k > 3 and size > prev:
            return False
        prev = size
    return False


@jit.njit
def _solve_step(ints: np.ndarray, reals: np.ndarray, q: np.ndarray, maps: tuple,
                coefs: tuple, shape: tuple, ab: np.ndarray, piv: np.ndarray,
                state: np.ndarray, tol: float, max_iter: int, counts: np.ndarray,
                x: np.ndarray, d: np.ndarray, h: float, u: np.ndarray, ws: np.ndarray,
                data: np.ndarray) -> bool:
    """The step equation from the guess ``d`` by the strategy of ``SimplifiedNewton``;
    ``state`` = (step size of the frozen factors or NaN, full-Newton solves still to
    skip, current back-off)."""
    n = x.size
    d0 = ws[5][:n]
    d0[:] = d
    # attempts 0 and 1: frozen factors (kept, else fresh), at most 8 iterations; 2: full
    # Newton.  One call of _newton with computed flags: Numba then compiles it once.
    attempt = 0
    if state[1] > 0:  # backing off: straight to full Newton
        state[1] -= 1
        state[0] = np.nan  # full Newton overwrites the factors
        attempt = 2
    while True:
        frozen = attempt < 2
        if frozen and state[0] != h:  # factors of another step size, or none
            _step_matrix(ints, reals, q, maps, coefs, shape, x, d0, h, u, ab, ws[0], ws[1],
                         data)
            counts[1] += attempt
            if not _band_factor(ab, piv, n, shape[2], shape[3]):
                state[0] = np.nan
                attempt = 2
                state[1], state[2] = state[2], min(2.0 * state[2], 64.0)
                continue
            state[0] = h
        d[:] = d0
        if _newton(ints, reals, q, maps, coefs, shape, ab, piv, x, d, h, u, frozen, tol,
                   FROZEN_ITERATIONS if frozen else max_iter, counts, ws, data):
            if frozen:
                state[2] = 1.0
            return True
        if not frozen:
            return False
        state[0] = np.nan
        attempt += 1
        if attempt == 2:  # both frozen attempts failed: back off from them
            state[1], state[2] = state[2], min(2.0 * state[2], 64.0)


@jit.njit
def _block(ints: np.ndarray, reals: np.ndarray, q: np.ndarray, maps: tuple, coefs: tuple,
           shape: tuple, ab: np.ndarray, piv: np.ndarray, state: np.ndarray, tol: float,
           max_iter: int, counts: np.ndarray, X: np.ndarray, U: np.ndarray, h: float,
           W: np.ndarray) -> int:
    """Steps of size h from X[0] with the midpoint inputs U[k] of step k, into the rows of
    X and W = (h uᵀȳ, 0, ΔH − h uᵀȳ) in J.  Returns the number of steps done (fewer when
    Newton failed)."""
    n, m, kl, ku = shape
    ws = np.empty((6, n + m))
    data = np.empty(ints[n] - ints[0])
    d = np.empty(n)
    y = np.empty(m)
    for k in range(U.shape[0]):
        x, u = X[k], U[k]
        # first guess h ẋ(x_k, u_{k+1/2}); ws[0] is x̄ = x here (δ = 0)
        d[:] = 0.0
        _residual(ints, reals, q, x, d, h, u, ws[0], ws[1], ws[2], ws[3][:n])
        for i in range(n):
            d[i] = -ws[3][i]
        if not _solve_step(ints, reals, q, maps, coefs, shape, ab, piv, state, tol,
                           max_iter, counts, x, d, h, u, ws, data):
            return k
        # bookkeeping at x̄: y = G(x̄)ᵀQx̄ (K's columns from n on), supplied h uᵀy
        xm, z = ws[0], ws[1]
        for i in range(n):
            xm[i] = x[i] + 0.5 * d[i]
            z[i] = q[i] * xm[i]
        _k_data(ints, reals, n, xm, data)
        y[:] = 0.0
        cols = 2 * n + 1
        for i in range(n):
            for p in range(ints[n + 1 + i], ints[i + 1]):  # from split[i] to the row's end
                y[ints[cols + p] - n] += data[p] * z[i]
        supplied = 0.0
        for j in range(m):
            supplied += u[j] * y[j]
        supplied *= h
        xn = X[k + 1]
        dh = 0.0
        for i in range(n):
            xn[i] = x[i] + d[i]
            dh += 0.5 * (x[i] + xn[i]) * (q[i] * (xn[i] - x[i]))
        W[k, 0], W[k, 1], W[k, 2] = supplied, 0.0, dh - supplied
    return U.shape[0]
