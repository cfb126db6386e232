r"""The compiled sparse stepper of separable models (``SeparablePHS``) and when it runs.

A :class:`~porthamiltonian.functional.SeparablePHS` with constant (sparse) structure is
stepped by :mod:`.sparse_steps` — the laws compiled by :mod:`.laws`, the step matrices
factored here by SuperLU and solved in compiled code — for the methods ``avf``,
``midpoint``, ``avf4``, ``avf6`` (and ``auto``, which picks ``avf`` for these models), at
any number of states.  The NumPy steps of the same methods run otherwise
(``engine="numpy"``, Numba off, state or output feedback) and give the same trajectory
to round-off.

How each substep size :math:`\gamma_i h` inverts its step matrix is chosen here, at the
start of every block: with :math:`\theta = |\gamma_i h|\,\|J-R\|_\infty\max|h''|/2
\le` :data:`NEUMANN_UP_TO` (not stiff) by the Neumann series in compiled code, else by
SuperLU factors of :math:`I - \tfrac{\gamma_i h}{2}(J-R)\,\mathrm{diag}(h''(x))` that
Python keeps (one per distinct size), refactored at the current state when the step
size changes or when the compiled block reports a slow or failed Newton iteration for
that size (a size whose Neumann iteration is slow or fails turns to the factors for the
rest of the run).  A step that fails with fresh factors is done by the NumPy step
(halved as the loop does).
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import scipy.sparse as sps

from ... import jit
from ..linalg.newton import NewtonFailure
from ..method import StepInfo
from ..problem.dynamics import Dynamics
from .choice import call_entry, compiled_or_numpy, fallback_step, run_blocker, stage_inputs
from .sparse_steps import split_lu

__all__ = ["SeparableStepper", "separable_engine", "separable_marker"]

#: a converged Newton iteration that took this many iterations asks for new factors
SLOW_AFTER = 6
#: the Neumann series replaces the LU factors up to this θ = |γh|‖J−R‖ max h''/2
NEUMANN_UP_TO = 0.5
#: increments of past steps kept per substep for Newton's first guess (their polynomial)
HISTORY = 7
#: iterations with frozen factors before a step counts as failed
FROZEN_ITERATIONS = 12
_WARMED: set[Any] = set()


def separable_engine(stepper: Any, problem: Any, options: Any) -> tuple[Any, dict] | None:
    """The compiled stepper for a separable model and a method with a sparse compiled
    form, with what to report; ``None`` when this path does not apply (the general rule
    of :mod:`.stepper` decides then).  Raises what :mod:`.stepper` raises for
    ``engine="compiled"`` when it applies but cannot run."""
    from ...functional import SeparablePHS

    system = problem.system
    if not isinstance(system, SeparablePHS) or system.state_dependent:
        return None
    kind = getattr(stepper, "kernel", None)
    if kind not in ("avf", "midpoint"):
        return None
    dyn = problem.dynamics
    reason = run_blocker(dyn)
    if reason is None and options.engine == "auto" and not (jit.always()
                                                            or separable_marker().exists()):
        t0, t1 = problem.t_span
        if options.dt is None or (t1 - t0) / options.dt < 100_000:
            reason = ("the compiled sparse steps are not built on this machine yet and the "
                      "run is short; build them once with `python -m "
                      "porthamiltonian.simulate.kernels` or pass engine='compiled'")
    return compiled_or_numpy(stepper, options, reason,
                             lambda: SeparableStepper(stepper, system),
                             lambda c: {"engine": "numba", "engine_path": "separable sparse",
                                        "compile_time": c.compile_time})


def separable_marker() -> Any:
    """A file that exists once the sparse steps have been compiled on this machine."""
    import hashlib
    import sys
    from pathlib import Path

    from . import sparse_steps

    text = Path(sparse_steps.__file__).read_text(encoding="utf-8")
    stamp = f"{text}{jit._numba().__version__}{sys.version_info[:2]}"
    return jit.cache_dir() / f"sparse-{hashlib.sha256(stamp.encode()).hexdigest()[:16]}.ready"


def _csr(A: Any, shape: tuple[int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    A = sps.csr_matrix(A if A is not None else (shape), shape=shape, dtype=float)
    A.sum_duplicates()
    return (A.indptr.astype(np.int64), A.indices.astype(np.int64),
            np.ascontiguousarray(A.data, dtype=float))


class SeparableStepper:
    """The steps of ``base`` (AVF, midpoint or an AVF composition, NumPy) on a separable
    model, compiled (module docstring)."""

    engine = "numba"

    def __init__(self, base: Any, system: Any) -> None:
        from . import sparse_steps as st
        from .laws import law_kernels

        t0 = time.perf_counter()
        self._st = st
        self.base, self.system = base, system
        self.dyn: Dynamics = base.dyn
        self.name, self.order = base.name, base.order
        self.kind = st.AVF if base.kernel == "avf" else st.MIDPOINT
        self.gam = np.asarray(getattr(base, "gammas", (1.0,)), dtype=float)
        self.offsets = np.concatenate([[0.0], np.cumsum(self.gam)[:-1]])
        sizes, self.which = np.unique(self.gam, return_inverse=True)
        self.sizes, self.which = sizes, self.which.astype(np.int64)
        # the Gauss nodes of the NumPy AVF step (``ode.discrete_gradient.avf_nodes``, not
        # imported: the ODE loop imports this module): exact for h′ of polynomial laws
        nodes = 6 if system.degree is None else max(1, math.ceil(system.degree / 2))
        self.laws = law_kernels(system.terms, nodes)
        self.lay = (self.laws.idx, self.laws.starts, self.laws.par)
        n, m = self.dyn.n, self.dyn.m
        mats = system.matrices()
        JR = sps.csr_matrix(mats["J"]) - sps.csr_matrix(mats["R"])
        GP = sps.csr_matrix(mats["G"]) - sps.csr_matrix(mats["P"])
        self._jr = sps.csc_matrix(JR)
        self.mats = (*_csr(JR, (n, n)), *_csr(GP, (n, m)), *_csr(mats["R"], (n, n)),
                     *_csr(sps.csr_matrix(mats["G"]) + sps.csr_matrix(mats["P"]), (n, m)),
                     *_csr(mats["P"], (n, m)),
                     _dense(sps.csr_matrix(mats["M"]) + sps.csr_matrix(mats["S"]), m),
                     _dense(mats["S"], m), *_diagonals(JR))
        self.tol, self.max_iter = float(base.newton_tol), FROZEN_ITERATIONS
        self.counts = np.zeros(2, dtype=np.int64)
        self.fac: tuple | None = None
        self.fac_h = math.nan  # step size of the factors
        #: per factor: made at the state the next step starts from
        self.fresh = np.zeros(self.sizes.size, dtype=bool)
        self._symmetric = False
        #: per substep: Neumann terms of the step matrix's inverse, 0 = the LU factors
        self.terms = np.zeros(self.gam.size, dtype=np.int64)
        self._lu_only = np.zeros(self.sizes.size, dtype=bool)  # Neumann failed there
        self._jr_norm = float(abs(self._jr).sum(axis=1).max()) if n else 0.0
        self.hist = np.zeros((HISTORY, self.gam.size, n))
        self.hstate = np.zeros(2, dtype=np.int64)  # rows known, newest row
        self._end: tuple[float, np.ndarray] | None = None  # (h, state) the history ends at
        self._entries: dict[Any, Any] = {}
        self.factorizations = 0
        self.compile_time = self.laws.compile_time
        self._warm_up()
        self.compile_time = time.perf_counter() - t0
        self.dyn.points = self.points

    # -- compiled calls -------------------------------------------------------------------
    def _call(self, kernel: Any, *args: Any) -> Any:
        """A compiled kernel through its machine-code entry point (Numba's dispatch would
        type the function-valued arguments at every call; see :mod:`.stepper`)."""
        return call_entry(self._entries, kernel, *args)

    def _warm_up(self) -> None:
        """Compile (or load) the block and points kernels now, outside the run time."""
        n, m, s = self.dyn.n, self.dyn.m, self.gam.size
        key = (self.laws.fns, m > 0, s)
        x = np.zeros(n)
        self._factor(x, 1.0)
        X = np.zeros((1, n))
        self._call(self._st.block, self.laws.fns, self.kind, X, np.zeros((0, s, m)), 1.0,
                   self.gam, self.which, self.terms, self.lay, self.mats, self.fac, self.tol,
                   self.max_iter, SLOW_AFTER, np.zeros((0, 3)), self.counts, self.hist,
                   self.hstate)
        self.points(np.zeros((0, n)), np.zeros((0, m)))
        self.fac, self.fac_h = None, math.nan
        self.factorizations = 0
        if key not in _WARMED:
            _WARMED.add(key)
            marker = separable_marker()
            if not marker.exists():
                marker.parent.mkdir(parents=True, exist_ok=True)
                marker.write_text("compiled\n", encoding="utf-8")

    # -- factors --------------------------------------------------------------------------
    def _pattern(self) -> None:
        r"""The pattern of :math:`I - a(J-R)\,\mathrm{diag}(c)` (CSC, sorted, constant)
        with the identity's and J − R's values and the column of each entry: a step
        matrix is then one vector expression, no sparse product."""
        n = self.dyn.n
        pat = sps.csc_matrix(sps.identity(n) + abs(self._jr))  # |·|: no cancellation
        pat.sort_indices()
        rows = pat.indices
        cols = np.repeat(np.arange(n), np.diff(pat.indptr))
        self._pat, self._pat_cols = pat, cols
        self._pat_eye = (rows == cols).astype(float)
        self._pat_jr = np.asarray(sps.csr_matrix(self._jr)[rows, cols], dtype=float).ravel()

    def _factor(self, x: np.ndarray, h: float, only: int | None = None) -> None:
        r"""Factor :math:`I - \tfrac{\gamma h}{2}(J-R)\,\mathrm{diag}(h''(x))` for each
        distinct substep size (or only the size ``only``) and store the factors in the
        arrays :func:`.sparse_steps.lu_solve` takes."""
        import scipy.sparse.linalg as spla

        from ..._matrices import sparse_lu

        if not hasattr(self, "_pat"):
            self._pattern()
        n = self.dyn.n
        curv = np.asarray(self.system.curvature(x), dtype=float)
        eye, jr = self._pat_eye, self._pat_jr * curv[self._pat_cols]
        A = self._pat.copy()
        sizes = range(self.sizes.size) if only is None or self.fac is None else [only]
        for f in sizes:
            values = eye - (0.5 * self.sizes[f] * h) * jr
            A.data[:] = values
            if self._symmetric:
                try:
                    lu = spla.splu(A, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=0.0,
                                   options={"SymmetricMode": True})
                except RuntimeError:  # a zero pivot on the diagonal: partial pivoting
                    lu = spla.splu(A)
            else:
                # the library's choice, kept when it is the diagonal-pivot ordering
                lu = sparse_lu(A)
                self._symmetric = bool(n >= 200 and np.array_equal(lu.perm_r, lu.perm_c))
            self._store(f, lu)
            self.fresh[f] = True
        self.fac_h = h
        self.factorizations += 1

    def _store(self, f: int, lu: Any) -> None:
        """Split factor ``f``'s L and U into strictly triangular CSR arrays and inverted
        diagonals, into row ``f`` of the packed arrays (grown when needed)."""
        n = self.dyn.n
        parts, iperm = split_lu(lu, n)
        need = max(1, parts[0][1].size, parts[1][1].size)
        if self.fac is None or self.fac[1].shape[1] < need:
            self._allocate(need)
        lp, li, lv, ld, up, ui, uv, ud, ipr, pc = self.fac
        for (ptr, cols, vals, inv), (P, I, V, D) in zip(parts, ((lp, li, lv, ld),
                                                                (up, ui, uv, ud)), strict=True):
            P[f], D[f] = ptr, inv
            I[f, :cols.size], V[f, :cols.size] = cols, vals
        ipr[f], pc[f] = iperm, lu.perm_c

    def _allocate(self, nnz: int) -> None:
        """Packed factor arrays for all sizes with room for ``nnz`` off-diagonal entries
        (the factors made so far are kept)."""
        f, n = self.sizes.size, self.dyn.n
        nnz = int(1.25 * nnz) + 16
        new = (np.zeros((f, n + 1), np.int64), np.zeros((f, nnz), np.int64),
               np.zeros((f, nnz)), np.zeros((f, n)), np.zeros((f, n + 1), np.int64),
               np.zeros((f, nnz), np.int64), np.zeros((f, nnz)), np.zeros((f, n)),
               np.zeros((f, n), np.int64), np.zeros((f, n), np.int64))
        if self.fac is not None:
            for a, b in zip(new, self.fac, strict=True):
                a[:, : b.shape[1]] = b[:, : a.shape[1]]
        self.fac = new

    # -- the loop's interface ---------------------------------------------------------------
    def lti_block(self) -> Any:
        """The block function of the fixed-step loop."""
        return self.block

    def _inputs(self, starts: np.ndarray, h: float, x: np.ndarray) -> np.ndarray:
        """Substep inputs ``U[k, i] = u(t_k + (c_i + γ_i/2) h)`` (no feedback)."""
        return stage_inputs(self.dyn.signal, starts, self.offsets + 0.5 * self.gam, h,
                            self.dyn.m, x)

    def _choose_solvers(self, x: np.ndarray, h: float) -> None:
        r"""Per substep: the Neumann series of the step matrix when
        :math:`\theta = |\gamma_i h|\,\|J-R\|_\infty\max|h''(x)|/2 \le` :data:`NEUMANN_UP_TO`
        (0.5; the series converges for θ < 1), with
        the fewest terms K making :math:`\theta^{K+1} \le 10^{-3}` (the contraction of
        the iteration), else the sparse LU factors (stiff steps)."""
        c = float(np.max(np.abs(self.system.curvature(x)), initial=0.0))
        for i, g in enumerate(self.gam):
            theta = abs(g * h) * self._jr_norm * 0.5 * c
            if self._lu_only[self.which[i]] or not theta <= NEUMANN_UP_TO:
                self.terms[i] = 0
            else:
                self.terms[i] = max(1, int(np.ceil(np.log(1e-3) / np.log(max(theta, 1e-9)))) - 1)

    def _use_lu(self, f: int) -> None:
        """Substeps of size ``f`` use the LU factors from now on."""
        self._lu_only[f] = True
        self.terms[self.which == f] = 0

    def _continue_from(self, x: np.ndarray, h: float) -> None:
        """Keep the Newton history only when the run goes on from its last state with
        the same step; refactor when the step size changed."""
        if self._end is None or self._end[0] != h or not np.array_equal(self._end[1], x):
            self.hstate[0] = 0
        if self.fac is None or self.fac_h != h:
            self._factor(x, h)
        self._choose_solvers(x, h)

    def block(self, dyn: Dynamics, x: np.ndarray, times: np.ndarray,
              h: float) -> tuple[np.ndarray, np.ndarray]:
        """Steps of size ``h`` from ``times[0]`` (the contract of :mod:`..ode.lti_loop`)."""

        st = self._st
        K = times.size - 1
        X = np.empty((K + 1, dyn.n))
        X[0] = x
        W = np.zeros((K, 3))
        U = self._inputs(times[:-1], h, np.asarray(x, dtype=float))
        self._continue_from(X[0], h)
        k, second = 0, -1
        while k < K:
            done, status, sub = self._call(
                st.block, self.laws.fns, self.kind, X[k:], U[k:], float(h), self.gam,
                self.which, self.terms, self.lay, self.mats, self.fac, self.tol,
                self.max_iter, SLOW_AFTER, W[k:], self.counts, self.hist, self.hstate)
            if done:
                self.fresh[:] = False
            k += int(done)
            if status == st.OK:
                break
            f = int(self.which[sub])
            if np.any(self.terms[self.which == f]):  # Neumann was slow or failed: LU
                self._use_lu(f)
                self._factor(X[k], h, only=f)
                continue
            if status == st.REFACTOR or not self.fresh[f]:
                self._factor(X[k], h, only=f)  # the slow substep's factor only
                continue
            if second != k:
                # fresh factors at the step's start did not do (a large step on a stiffening
                # law): once more at the estimated state where the substep's AVF derivative
                # ∫ s h''(x + sδ) ds is taken, x + (c_i + 2γ_i/3) h f(x)
                second = k
                fx = dyn.f(X[k], dyn.u(float(times[k]), X[k]))
                where = self.offsets[sub] + 2.0 * self.gam[sub] / 3.0
                self._factor(X[k] + where * h * fx, h, only=f)
                continue
            # fresh factors did not do: the NumPy step, halved while Newton fails
            if fallback_step(self.base, times[k], X, W, k, h) is None:
                break
            self.hstate[0] = 0
            k += 1
        self._end = (h, X[-1].copy())
        return X, W

    def step(self, t: float, x: np.ndarray, h: float) -> tuple[np.ndarray, StepInfo]:
        """One compiled step (adaptive steps, events); raises :class:`NewtonFailure`."""
        st = self._st
        x = np.ascontiguousarray(x, dtype=float)
        self.hstate[0] = 0
        if self.fac is None or self.fac_h != h:
            self._factor(x, h)
        self._choose_solvers(x, h)
        X = np.empty((2, x.size))
        X[0] = x
        W = np.zeros((1, 3))
        U = self._inputs(np.array([t]), h, x)
        before = self.counts.copy()
        for _ in range(self.sizes.size + 1):
            done, status, sub = self._call(
                st.block, self.laws.fns, self.kind, X, U, float(h), self.gam, self.which,
                self.terms, self.lay, self.mats, self.fac, self.tol, self.max_iter,
                SLOW_AFTER, W, self.counts, self.hist, self.hstate)
            if done:
                break
            f = int(self.which[sub])
            if np.any(self.terms[self.which == f]):
                self._use_lu(f)
            elif self.fresh[f]:
                raise NewtonFailure(f"no convergence of the compiled {self.name} step")
            self._factor(x, h, only=f)
        self.fresh[:] = False
        it, nf = (int(v) for v in self.counts - before)
        sup, dis, res = W[0]
        return X[1].copy(), StepInfo(sup, dis, res + sup - dis, it, nf)

    def points(self, X: np.ndarray, U: np.ndarray) -> tuple[np.ndarray, ...]:
        """``(Y, H, stored, supplied, dissipated)`` of saved points ``X`` (K × n) with
        inputs ``U`` (K × m), in one compiled call (the recorder's quantities)."""
        K, m = X.shape[0], self.dyn.m
        Y = np.empty((K, m))
        H, stored, supplied, dissipated = (np.empty(K) for _ in range(4))
        self._call(self._st.points, self.laws.fns, np.ascontiguousarray(X, dtype=float),
                   np.ascontiguousarray(U, dtype=float).reshape(K, m), self.lay, self.mats,
                   Y, H, stored, supplied, dissipated)
        return Y, H, stored, supplied, dissipated


def _diagonals(A: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(offsets, values)`` of A by diagonals when they hold it compactly (at most 32
    diagonals, 4× its nonzeros: a contiguous loop over a padded diagonal still beats the
    CSR gathers), else empty arrays (the CSR product runs)."""
    A = sps.coo_matrix(A)
    n = A.shape[0]
    offsets = np.unique(A.col - A.row)
    if A.nnz == 0 or offsets.size > 32 or offsets.size * n > 4 * A.nnz:
        return np.zeros(0, np.int64), np.zeros((0, n))
    data = np.zeros((offsets.size, n))
    data[np.searchsorted(offsets, A.col - A.row), A.row] = A.data
    return offsets.astype(np.int64), data


def _dense(A: Any, m: int) -> np.ndarray:
    A = A.toarray() if sps.issparse(A) else np.asarray(A, dtype=float)
    return np.ascontiguousarray(A, dtype=float).reshape(m, m)
