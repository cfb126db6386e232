r"""The compiled stepper the ODE loop drives, and the rule deciding when it is used.

:func:`engine_for` takes the NumPy stepper of a method (:mod:`..ode`) and returns a
:class:`CompiledStepper` doing the same steps in compiled code (:mod:`.steps`) when

- Numba is installed and not switched off (:mod:`porthamiltonian.jit`),
- the method has a compiled form (midpoint, discrete gradient, AVF, Gauss 1–6),
- the model is a symbolic PHS with a non-quadratic Hamiltonian or state-dependent
  structure (a linear model already runs the LTI block stepper, one sparse LU solve per
  step), at most :data:`MAX_DENSE_STATES` states (the kernels use dense LU),
- the input does not feed back the state or output and the structure is not switched
  (modulation): those runs stay on the NumPy steps,
- and, for ``engine="auto"``, the steps have been compiled on this machine before (they
  are then loaded from Numba's cache in milliseconds) or the run is long enough to pay
  that one-time compilation (:data:`AUTO_COMPILE_STEPS`).

Fixed steps run as blocks of compiled steps (the ``block`` contract of
:mod:`..ode.lti_loop`); adaptive steps and events call the compiled single step.  A step
whose Newton iteration fails in the compiled code is retried by the NumPy step, which
halves it as the loop does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ... import jit
from ..linalg.newton import NewtonFailure
from ..method import StepInfo
from ..problem.dynamics import Dynamics
from .choice import call_entry, compiled_or_numpy, fallback_step, run_blocker, stage_inputs

__all__ = ["engine_for", "CompiledStepper", "MAX_DENSE_STATES"]

#: states above which the dense compiled kernels give way to the sparse NumPy steps
MAX_DENSE_STATES = 200
#: fixed steps from which ``engine="auto"`` compiles the steps even the first time
AUTO_COMPILE_STEPS = 100_000


def engine_for(stepper: Any, problem: Any, options: Any) -> tuple[Any, dict[str, Any]]:
    """``stepper`` or its compiled twin, and what to report: ``{"engine": "numba" |
    "numpy", "engine_reason": why not compiled, "compile_time": s}``."""
    if options.engine == "numpy":
        return stepper, {"engine": "numpy", "engine_reason": "engine='numpy' was asked for"}
    from .separable import separable_engine

    separable = separable_engine(stepper, problem, options)
    if separable is not None:  # a SeparablePHS: the sparse compiled steps (.separable)
        return separable
    from .reactions import reaction_engine

    reactions = reaction_engine(stepper, problem, options)
    if reactions is not None:  # a reaction network's numeric form (.reactions)
        return reactions
    if getattr(stepper, "gammas", None) is not None:  # a composition: compile its substep
        stepper.inner, report = engine_for(stepper.inner, problem, options)
        return stepper, report
    reason = _not_compiled(stepper, problem.dynamics)
    if reason is None and options.engine == "auto":
        reason = _not_worth_it(problem, options)
    def build() -> CompiledStepper:
        from .build import kernels_for

        return CompiledStepper(stepper, kernels_for(problem.dynamics.num.source))

    return compiled_or_numpy(stepper, options, reason, build,
                             lambda c: {"engine": "numba",
                                        "compile_time": c.kernels.compile_time})


def _not_compiled(stepper: Any, dyn: Dynamics) -> str | None:
    """Why this run stays on the NumPy steps (``None``: it can be compiled)."""
    blocker = run_blocker(dyn)
    if blocker is not None:
        return blocker
    if getattr(stepper, "kernel", None) is None:
        return f"method {stepper.name!r} has no compiled form"
    num = dyn.num
    if num.linear:
        return "linear model: the LTI block stepper (sparse LU) runs it"
    if getattr(num, "source", None) is None:
        return "only symbolic PHS models are compiled"
    if dyn.n > MAX_DENSE_STATES:
        return f"{dyn.n} states > {MAX_DENSE_STATES} (the compiled kernels are dense)"
    return None


def _not_worth_it(problem: Any, options: Any) -> str | None:
    """``engine="auto"`` does not pay the one-time compilation of the steps (tens of
    seconds, then cached on this machine) for a short run."""
    from .build import steps_marker

    if jit.always() or steps_marker().exists():
        return None
    t0, t1 = problem.t_span
    steps = (t1 - t0) / options.dt if options.dt is not None else 0.0
    if steps >= AUTO_COMPILE_STEPS:
        return None
    return ("the compiled steps are not built on this machine yet and the run is short "
            f"(fewer than {AUTO_COMPILE_STEPS} fixed steps); build them once with "
            "`python -m porthamiltonian.simulate.kernels` or pass engine='compiled'")


class CompiledStepper:
    """The steps of ``base`` (a NumPy one-step method) in compiled code."""

    engine = "numba"

    def __init__(self, base: Any, kernels: Any) -> None:
        from . import steps

        self._steps = steps
        self.base, self.kernels = base, kernels
        self.dyn: Dynamics = base.dyn
        self.name, self.order = base.name, base.order
        self.kind = {"midpoint": steps.MIDPOINT, "gonzalez": steps.GONZALEZ,
                     "avf": steps.AVF, "gauss": steps.GAUSS}[base.kernel]
        n, m = self.dyn.n, self.dyn.m
        if self.kind == steps.GAUSS:
            self.ba, self.bb = np.array(base.A, dtype=float), np.array(base.b, dtype=float)
            self.c = np.asarray(base.c, dtype=float)
        else:
            self.ba, self.bb, self.c = np.zeros((1, 1)), np.ones(1), np.array([0.5])
        s = self.c.size
        # Gauss–Legendre nodes of the discrete gradients (unused by the other methods)
        qs = np.array(getattr(base, "_s", np.zeros(1)), dtype=float)
        qw = np.array(getattr(base, "_w", np.zeros(1)), dtype=float)
        # ∇H is evaluated along the step at the nodes, the midpoint and the end (Gonzalez)
        self.meth = (qs, qw, self.ba, self.bb, np.concatenate([qs, [0.5, 1.0]]))
        N = n * s
        self.lu, self.piv = np.zeros((N, N)), np.zeros(N, dtype=np.int64)
        #: step size of the frozen LU (NaN: none), full-Newton solves to skip, back-off
        self.state = np.array([np.nan, 0.0, 1.0])
        self.counts = np.zeros(2, dtype=np.int64)  # Newton iterations, F evaluations
        self.tol, self.max_iter = float(base.newton_tol), int(base.max_newton)
        self._entries: dict[Any, Any] = {}
        kernels.warm_up(self.kind, n, m, s)
        self.dyn.points = self.points

    def _call(self, kernel: Any, *args: Any) -> Any:
        """A compiled kernel through its machine-code entry point (:func:`.call_entry`)."""
        return call_entry(self._entries, kernel, *args)

    def points(self, X: np.ndarray, U: np.ndarray) -> tuple[np.ndarray, ...]:
        """``(Y, H, stored, supplied, dissipated)`` of saved points ``X`` (K × n) with
        inputs ``U`` (K × m), in one compiled call (the recorder's quantities)."""
        K = X.shape[0]
        Y = np.empty((K, self.dyn.m))
        H, stored, supplied, dissipated = (np.empty(K) for _ in range(4))
        self._call(self._steps.points, self.kernels.fns, np.ascontiguousarray(X, dtype=float),
                   np.ascontiguousarray(U, dtype=float).reshape(K, self.dyn.m),
                   self.kernels.parameters, Y, H, stored, supplied, dissipated)
        return Y, H, stored, supplied, dissipated

    def lti_block(self) -> Any:
        """The block function of the fixed-step loop (for every model it runs)."""
        return self.block

    def _inputs(self, starts: np.ndarray, h: float, x: np.ndarray) -> np.ndarray:
        """Stage inputs ``U[k, i] = u(t_k + c_i h)`` (no feedback: ``x`` is not used)."""
        return stage_inputs(self.dyn.signal, starts, self.c, h, self.dyn.m, x)

    def step(self, t: float, x: np.ndarray, h: float) -> tuple[np.ndarray, StepInfo]:
        """One compiled step (adaptive steps, events); raises :class:`NewtonFailure`."""
        st = self._steps
        x = np.ascontiguousarray(x, dtype=float)
        us = self._inputs(np.array([t]), h, x)[0]
        x_new, out = np.empty_like(x), np.zeros(3)
        before = self.counts.copy()
        status = self._call(st.single_step, self.kernels.fns, self.kind, x, float(h), us,
                            self.kernels.parameters, self.meth, self.lu, self.piv, self.state,
                            self.tol, self.max_iter, x_new, out, self.counts)
        if status != st.OK:
            raise NewtonFailure(f"no convergence of the compiled {self.name} step")
        it, nf = (int(v) for v in self.counts - before)
        return x_new, StepInfo(out[0], out[1], out[2] + out[0] - out[1], it, nf)

    def block(self, dyn: Dynamics, x: np.ndarray, times: np.ndarray,
              h: float) -> tuple[np.ndarray, np.ndarray]:
        """Steps of size ``h`` from ``times[0]``: states ``X`` (one row per time) and per
        step (work supplied, work dissipated, balance residual) in J.  A step that fails
        in compiled code is retried by the NumPy method (halving it as needed); a row of
        NaN marks one that fails there too (the loop reports it)."""

        st, kern = self._steps, self.kernels
        K = times.size - 1
        X = np.empty((K + 1, dyn.n))
        X[0] = x
        W = np.zeros((K, 3))
        U = self._inputs(times[:-1], h, np.asarray(x, dtype=float))
        k = 0
        while k < K:
            done = self._call(st.block, kern.fns, self.kind, X[k:], U[k:], float(h),
                              kern.parameters, self.meth, self.lu, self.piv, self.state,
                              self.tol, self.max_iter, W[k:], self.counts)
            k += int(done)
            if k == K:
                break
            # the NumPy step, halved while Newton fails (as the loop does)
            if fallback_step(self.base, times[k], X, W, k, h) is None:
                break
            k += 1
        return X, W
