r"""The compiled stepper of reaction networks' numeric form and when it runs.

A model that gives :meth:`reaction_arrays` and :meth:`step_jacobian` (the
:class:`~porthamiltonian.thermo.reactions.phs_form.ReactionFunctionPHS` of a network in
the concentration basis) is stepped by :mod:`.reaction_steps` for the methods
``discrete_gradient`` (what ``auto`` picks for it) and ``avf``: the same steps as the
NumPy ones (:mod:`..ode.discrete_gradient`, :math:`R(\bar x) = N_s\Gamma(\bar x)N_s^T`
at the midpoint, the same Gauss rule), to the Newton tolerance.

Newton is simplified with the matrix :math:`I - \tfrac h2\,\partial_n(N_s v)(x)`: its
entries computed in compiled code on their fixed pattern, factored the first time by
SuperLU (fill-reducing ordering, :func:`porthamiltonian._matrices.sparse_lu`), later by
a compiled refactorization with those pivots and that pattern (checked against
SuperLU's numbers once), one factor per step size (at most :data:`MAX_FACTORS`; the
adaptive loop rounds its steps to :math:`T2^{-j/4}`, so sizes recur), applied by
compiled triangular solves.  A factor is made again at the current state when a step
with it took :data:`SLOW_AFTER` iterations or more or failed; a step that still fails
gets SuperLU factors at its estimated midpoint, then at its last Newton iterate's
(:data:`REFRESHES` times), before it raises :class:`NewtonFailure` (the loop halves or
rejects it).  Newton's updates keep the amounts positive, so the compiled steps fail
less often than the NumPy ones (whose iterates may leave :math:`n > 0`: a NaN residual,
a rejected step) and may then take fewer, larger steps; where both converge they agree
to the Newton tolerance.  Fixed steps run as compiled blocks; adaptive steps call the
compiled single step.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import scipy.sparse as sps

from ... import jit
from ..linalg.newton import NewtonFailure
from ..method import StepInfo
from ..problem.dynamics import Dynamics
from .choice import call_entry, compiled_or_numpy, fallback_step, run_blocker
from .sparse_steps import split_lu

__all__ = ["ReactionStepper", "reaction_engine", "reaction_marker"]

#: a converged Newton iteration that took this many iterations asks for new factors
SLOW_AFTER = 10
#: iterations with frozen factors before a step counts as failed
FROZEN_ITERATIONS = 20
#: step sizes whose factors are kept
MAX_FACTORS = 8
#: factorizations at the last Newton iterate's midpoint before a step counts as failed
REFRESHES = 3


def reaction_engine(stepper: Any, problem: Any, options: Any) -> tuple[Any, dict] | None:
    """The compiled stepper for a reaction network's numeric form, with what to report;
    ``None`` when this path does not apply."""
    system = problem.system
    arrays = getattr(system, "reaction_arrays", None)
    kind = getattr(stepper, "kernel", None)
    if arrays is None or kind not in ("gonzalez", "avf"):
        return None
    dyn = problem.dynamics
    reason = None
    data = arrays()
    if data is None:
        reason = "the mole-fraction basis (H not separable) has no compiled steps"
    else:
        reason = run_blocker(dyn)
    if reason is None and options.engine == "auto" and not (jit.always()
                                                            or reaction_marker().exists()):
        reason = ("the compiled reaction steps are not built on this machine yet; pass "
                  "engine='compiled' once (≈ 15 s, then cached: later runs with "
                  "engine='auto' use them)")
    return compiled_or_numpy(stepper, options, reason,
                             lambda: ReactionStepper(stepper, system, data),
                             lambda c: c.report)


def reaction_marker() -> Any:
    """A file that exists once the reaction steps have been compiled on this machine."""
    import hashlib
    import sys
    from pathlib import Path

    from . import reaction_steps, sparse_steps

    text = "".join(Path(m.__file__).read_text(encoding="utf-8")
                   for m in (reaction_steps, sparse_steps))
    stamp = f"{text}{jit._numba().__version__}{sys.version_info[:2]}"
    return jit.cache_dir() / f"reactions-{hashlib.sha256(stamp.encode()).hexdigest()[:16]}.ready"


def pack_lu(lu: Any, n: int) -> tuple[np.ndarray, ...]:
    """SuperLU factors as the one-factor arrays :func:`.sparse_steps.lu_solve` takes:
    L and U strictly triangular (CSR) with inverted diagonals, inverse ``perm_r``,
    ``perm_c``."""
    parts, ipr = split_lu(lu, n)
    rows = [a[None, :] for part in parts for a in part]
    return (*rows, ipr[None, :], np.asarray(lu.perm_c, dtype=np.int64)[None, :])


class ReactionStepper:
    """The discrete-gradient (or AVF) steps of ``base`` on a reaction network, compiled
    (module docstring)."""

    engine = "numba"

    def __init__(self, base: Any, system: Any, net: tuple[np.ndarray, ...]) -> None:
        from . import reaction_steps as st

        t0 = time.perf_counter()
        self._st, self.base, self.system, self.net = st, base, system, net
        self.dyn: Dynamics = base.dyn
        self.name, self.order = base.name, base.order
        self.kind = st.AVF if base.kernel == "avf" else st.GONZALEZ
        self.meth = (np.ascontiguousarray(base._s, dtype=float),
                     np.ascontiguousarray(base._w, dtype=float))
        self.tol, self.max_iter = float(base.newton_tol), FROZEN_ITERATIONS
        self.counts = np.zeros(2, dtype=np.int64)
        #: step size → [packed factors, made at the state the next step starts from]
        self.factors: dict[float, list[Any]] = {}
        self.factorizations = 0
        #: the pivots and pattern of the first SuperLU factors (False: SuperLU every time)
        self._lu_pattern: Any = None
        self._last: tuple[float, np.ndarray] | None = None  # (h, increment) of the last step
        self._full: tuple[float, float, np.ndarray] | None = None  # (t, h, end) of a step
        self._entries: dict[Any, Any] = {}
        self._warm_up()
        self.compile_time = time.perf_counter() - t0
        self.dyn.points = self.points
        #: what the run reports (the loop copies it into ``result.extra`` at the end):
        #: fixed steps done as compiled halves (``halved_steps``) or by the NumPy method
        #: (``numpy_steps``) after failing with fresh factors
        self.report: dict[str, Any] = {"engine": "numba", "engine_path": "reaction network",
                                       "compile_time": self.compile_time, "halved_steps": 0,
                                       "numpy_steps": 0}

    def _call(self, kernel: Any, *args: Any) -> Any:
        """A compiled kernel through its machine-code entry point (no per-call typing of
        the arguments; see :mod:`.stepper`)."""
        return call_entry(self._entries, kernel, *args)

    def _warm_up(self) -> None:
        """Compile (or load) the kernels now, outside the run time, on a copy of x = 1."""
        n, m = self.dyn.n, self.dyn.m
        x = np.ones(n)
        fac = self._factor(x, 1e-300)
        self.factors.clear()
        self.factorizations = 0
        self._lu_pattern = None  # the pivots are chosen on the run's first matrix
        X = np.ones((1, n))
        self._call(self._st.block, self.kind, X, np.zeros((0, m)), 1.0, self.net, self.meth,
                   fac, self.tol, self.max_iter, SLOW_AFTER, np.zeros((0, 3)),
                   np.zeros(2, dtype=np.int64), np.zeros(n))
        self._call(self._st.step, self.kind, x, np.zeros(n), 1e-300, np.zeros(m), self.net,
                   self.meth, fac, self.tol, self.max_iter, np.zeros(2, dtype=np.int64),
                   np.empty(n), np.zeros(3))
        self.points(np.ones((1, n)), np.zeros((1, m)))
        marker = reaction_marker()
        if not marker.exists():
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.write_text("compiled\n", encoding="utf-8")

    # -- factors ---------------------------------------------------------------------------
    def _pattern(self) -> None:
        r"""The fixed pattern of :math:`A = I - \tfrac h2\,\partial_n(N_sv)` (CSC) and, per
        contribution :math:`N_{ir}\nu_{jr}` of a reaction, its entry (for
        :func:`.reaction_steps.step_matrix`)."""
        n = self.dyn.n
        tp, ti, tv = self.net[2], self.net[3], self.net[4]
        nuf = sps.csr_matrix((self.net[7], self.net[6], self.net[5]), shape=(tp.size - 1, n))
        nub = sps.csr_matrix((self.net[10], self.net[9], self.net[8]), shape=(tp.size - 1, n))
        rows, cols, coef, react, fs, bs = [], [], [], [], [], []
        for r in range(tp.size - 1):
            species = ti[tp[r]:tp[r + 1]]
            stoich = tv[tp[r]:tp[r + 1]]
            f, b = nuf[[r]].toarray().ravel(), nub[[r]].toarray().ravel()
            js = np.flatnonzero((f != 0) | (b != 0))
            for i, c in zip(species, stoich, strict=True):
                rows += [i] * js.size
                cols += list(js)
                coef += [c] * js.size
                react += [r] * js.size
                fs += list(f[js])
                bs += list(b[js])
        rows_a, cols_a = np.array(rows + list(range(n)), dtype=np.int64), np.array(
            cols + list(range(n)), dtype=np.int64)
        flat, where = np.unique(rows_a * n + cols_a, return_inverse=True)
        # CSC order of the entries: by column, then row
        order = np.lexsort((flat // n, flat % n))
        position = np.empty(flat.size, dtype=np.int64)
        position[order] = np.arange(flat.size)
        where = position[where.ravel()]
        m = len(rows)
        self._trip = (where[:m], np.array(coef, dtype=float), np.array(react, dtype=np.int64),
                      np.array(cols, dtype=np.int64), np.array(fs, dtype=float),
                      np.array(bs, dtype=float), where[m:])
        r_sorted, c_sorted = flat[order] // n, flat[order] % n
        self._A = sps.csc_matrix((np.zeros(flat.size), r_sorted, np.concatenate(
            [[0], np.cumsum(np.bincount(c_sorted, minlength=n))])), shape=(n, n))
        self._entries_rc = (r_sorted, c_sorted)
        self._vals = np.empty(flat.size)

    def _superlu(self, vals: np.ndarray) -> tuple[np.ndarray, ...]:
        """SuperLU factors of the step matrix with entries ``vals``; the first time, their
        pivots and pattern are kept for :func:`.reaction_steps.refactor` (checked against
        SuperLU's own numbers)."""
        import scipy.sparse.linalg as spla

        from ..._matrices import sparse_lu

        n = self.dyn.n
        A = self._A.copy()
        A.data[:] = vals
        try:
            lu = sparse_lu(A)
        except RuntimeError:  # a zero pivot in the library's ordering: partial pivoting
            lu = spla.splu(A)
        fac = pack_lu(lu, n)
        if self._lu_pattern is None:
            rows, cols = self._entries_rc
            a, b = lu.perm_r[rows], lu.perm_c[cols]
            order = np.lexsort((b, a))
            amap = np.empty(a.size, dtype=np.int64)
            amap[order] = np.arange(a.size)
            bptr = np.concatenate([[0], np.cumsum(np.bincount(a, minlength=n))]).astype(
                np.int64)
            pattern = ((bptr, b[order].astype(np.int64)), amap)
            trial = tuple(np.copy(v) for v in fac)
            ok = self._call(self._st.refactor, vals, amap, pattern[0], trial)
            scale = max(1.0, float(np.max(np.abs(vals))))
            same = ok and all(np.allclose(u, v, rtol=1e-8, atol=1e-12 * scale)
                              for u, v in zip(trial[2:4] + trial[6:8], fac[2:4] + fac[6:8],
                                              strict=True))
            self._lu_pattern = pattern if same else False
            if same:
                self._template = fac  # the pattern arrays the refactorizations share
        return fac

    def _factor(self, x: np.ndarray, h: float, pivot: bool = False) -> tuple[np.ndarray, ...]:
        r"""Factors of :math:`I - \tfrac h2\,\partial_n(N_s v)(x)` (kept for step size
        ``h``): the entries in compiled code, the LU by the compiled refactorization with
        the first SuperLU factors' pivots (SuperLU itself the first time, when a pivot
        vanishes, or with ``pivot``: pivots chosen afresh, for a step that failed)."""
        if not hasattr(self, "_trip"):
            self._pattern()
        vals = self._vals
        self._call(self._st.step_matrix, np.ascontiguousarray(x, dtype=float), float(h),
                   self.net, self._trip, vals)
        fac = None
        if self._lu_pattern and not pivot:
            pattern, amap = self._lu_pattern
            fac = self._template
            fac = (*fac[:2], np.empty_like(fac[2]), np.empty_like(fac[3]), *fac[4:6],
                   np.empty_like(fac[6]), np.empty_like(fac[7]), *fac[8:])
            if not self._call(self._st.refactor, vals, amap, pattern, fac):
                fac = None
        if fac is None:
            fac = self._superlu(vals)
        if h not in self.factors and len(self.factors) >= MAX_FACTORS:
            del self.factors[next(iter(self.factors))]
        self.factors[h] = [fac, True]
        self.factorizations += 1
        return fac

    def _factor_ahead(self, x: np.ndarray, h: float, u: np.ndarray) -> None:
        r"""Factors at the estimated midpoint :math:`x + w/2` of the step,
        :math:`w = h(I - \tfrac h2 J(x))^{-1}f(x)` the linearized step (kept positive):
        for a step across a fast transient, where factors at its start do not do."""
        import scipy.sparse.linalg as spla

        A = sps.csc_matrix(sps.identity(x.size) - (0.5 * h) * sps.csc_matrix(
            self.system.step_jacobian(x)))
        w = h * spla.splu(A).solve(self.dyn.f(x, u))
        self._factor(np.maximum(x + 0.5 * w, 1e-3 * x), h, pivot=True)

    def _guess(self, t: float, x: np.ndarray, h: float) -> np.ndarray:
        """Newton's first guess.  The second half of a doubled step (``t`` in the middle
        of the last full step of size ``2h``): the rest of that full step, off by the
        local error only.  Else the last increment scaled to this step (ẋ held), else
        no change."""
        full = self._full
        if full is not None and full[1] == 2.0 * h and abs(t - full[0] - h) <= 1e-12 * h:
            return full[2] - x
        if self._last is None:
            return np.zeros(x.size)
        h0, w = self._last
        return w * (h / h0)

    # -- the loop's interface ----------------------------------------------------------------
    def lti_block(self) -> Any:
        """The block function of the fixed-step loop."""
        return self.block

    def _input(self, t: float, x: np.ndarray) -> np.ndarray:
        m = self.dyn.m
        return np.asarray(self.dyn.signal(t, x), dtype=float).reshape(m) if m else np.zeros(0)

    def step(self, t: float, x: np.ndarray, h: float) -> tuple[np.ndarray, StepInfo]:
        """One compiled step (adaptive steps, events); raises :class:`NewtonFailure`."""
        st = self._st
        x = np.ascontiguousarray(x, dtype=float)
        u = self._input(t + 0.5 * h, x)
        x_new, out = np.empty_like(x), np.zeros(3)
        before = self.counts.copy()
        # the factors kept for this size, else (or when they fail) factors at x, then
        # factors at the estimated midpoint of the step: first of the linearized step, then
        # of the last iterate (Newton with refreshed matrices, from where it got to)
        plans = (["kept"] if h in self.factors else []) + ["here", "ahead"]
        plans += ["iterate"] * REFRESHES
        w = self._guess(t, x, h)
        for plan in plans:
            if plan == "here":  # at the midpoint the guess predicts (kept positive)
                self._factor(np.maximum(x + 0.5 * self._guess(t, x, h), 0.5 * x), h)
            elif plan == "ahead":
                self._factor_ahead(x, h, u)
            elif plan == "iterate":
                if not (np.all(np.isfinite(w)) and np.all(x + w > 0.0)):
                    break
                self._factor(x + 0.5 * w, h, pivot=True)
            if plan in ("kept", "here", "ahead"):
                w = self._guess(t, x, h)
            fac = self.factors[h][0]
            self.factors[h][1] = False
            it = self._call(st.step, self.kind, x, w, float(h), u, self.net, self.meth, fac,
                            self.tol, self.max_iter, self.counts, x_new, out)
            if it >= 0:
                if it >= SLOW_AFTER:  # converged slowly: new factors for the next step
                    self.factors.pop(h, None)
                self._last = (h, w)
                full = self._full  # kept while its two halves are taken
                if not (full is not None and full[1] == 2.0 * h
                        and full[0] - 1e-12 * h <= t <= full[0] + h * (1 + 1e-12)):
                    self._full = (t, h, x_new.copy())
                nit, nf = (int(v) for v in self.counts - before)
                sup, dis, res = out
                return x_new, StepInfo(sup, dis, res + sup - dis, nit, nf)
            self.factors.pop(h, None)
        self._last = None
        raise NewtonFailure(f"no convergence of the compiled {self.name} step")

    def block(self, dyn: Dynamics, x: np.ndarray, times: np.ndarray,
              h: float) -> tuple[np.ndarray, np.ndarray]:
        """Steps of size ``h`` from ``times[0]`` (the contract of :mod:`..ode.lti_loop`)."""

        st = self._st
        K, n, m = times.size - 1, dyn.n, dyn.m
        X = np.empty((K + 1, n))
        X[0] = x
        W = np.zeros((K, 3))
        U = np.zeros((K, m))
        for k in range(K if m else 0):
            U[k] = self._input(float(times[k]) + 0.5 * h, X[0])
        self._full = None
        w = self._guess(float(times[0]), X[0], h)
        k, ahead = 0, -1
        while k < K:
            entry = self.factors.get(h)
            fac = self._factor(X[k], h) if entry is None else entry[0]
            done, status = self._call(st.block, self.kind, X[k:], U[k:], float(h), self.net,
                                      self.meth, fac, self.tol, self.max_iter, SLOW_AFTER,
                                      W[k:], self.counts, w)
            fresh = self.factors[h][1]
            self.factors[h][1] = fresh and done == 0
            k += int(done)
            if status == st.OK:
                break
            if status == st.REFACTOR or not fresh:
                self.factors.pop(h, None)  # new factors at the current state
                continue
            if ahead != k:  # fresh factors at X[k] failed: at the step's estimated midpoint
                ahead = k
                self._factor_ahead(X[k], h, U[k])
                continue
            # fresh factors did not do: compiled halves (as the loop halves a failed step),
            # else the NumPy step (full Newton), halved while it fails
            if fallback_step(self, times[k], X, W, k, h, last=False) is not None:
                self.report["halved_steps"] += 1
            elif fallback_step(self.base, times[k], X, W, k, h) is not None:
                self.report["numpy_steps"] += 1
            else:
                break
            w = X[k + 1] - X[k]
            k += 1
        self._last = (h, w)
        return X, W

    def points(self, X: np.ndarray, U: np.ndarray) -> tuple[np.ndarray, ...]:
        """``(Y, H, stored, supplied, dissipated)`` of saved points ``X`` (K × n) with
        inputs ``U`` (K × m), in one compiled call (the recorder's quantities)."""
        K, m = X.shape[0], self.dyn.m
        Y = np.empty((K, m))
        H, stored, supplied, dissipated = (np.empty(K) for _ in range(4))
        self._call(self._st.points, np.ascontiguousarray(X, dtype=float),
                   np.ascontiguousarray(U, dtype=float).reshape(K, m), self.net, Y, H,
                   stored, supplied, dissipated)
        return Y, H, stored, supplied, dissipated
