"""What the compiled steppers share: whether a run gets compiled steps (the reasons common
to every compiled path — dense kernels, separable sparse steps, reaction steps — and the
one way of trying a build and reporting ``{"engine": "numba" | "numpy",
"engine_reason": …}``), the step a compiled block falls back to, the calls of
compiled kernels through their entry points, and the inputs of a block's stages."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ... import jit
from ...errors import SimulationError
from ..linalg.newton import NewtonFailure
from ..options import MAX_HALVINGS

__all__ = ["run_blocker", "compiled_or_numpy", "fallback_step", "call_entry", "stage_inputs"]


def run_blocker(dyn: Any) -> str | None:
    """Why no compiled step can take this run, whatever the model (``None``: none): Numba
    off or missing, a switched structure, an input that feeds back the state."""
    if not jit.enabled():
        return ("Numba is switched off (PORTHAMILTONIAN_JIT)" if jit._switched_off()
                else "Numba is not installed")
    if dyn.modulation is not None:
        return "the structure is switched (modulation)"
    if dyn.signal.feedback:
        return "the input feeds back the state or output"
    return None


def compiled_or_numpy(stepper: Any, options: Any, reason: str | None,
                      build: Callable[[], Any],
                      report: Callable[[Any], dict[str, Any]]) -> tuple[Any, dict[str, Any]]:
    """``(build(), report(compiled))`` when ``reason`` is ``None`` and the build works,
    else ``stepper`` with the reason it runs on NumPy; ``engine="compiled"`` makes a
    missing compiled step a :class:`SimulationError` instead."""
    compiled = None
    if reason is None:
        from .codegen import KernelUnavailable

        try:
            compiled = build()
        except KernelUnavailable as e:
            reason = str(e)
        except Exception as e:  # noqa: BLE001 (Numba's compiler errors: the NumPy steps run)
            reason = f"the compilation failed ({type(e).__name__}: {str(e).splitlines()[0]})"
    if compiled is None:
        if options.engine == "compiled":
            raise SimulationError(f"engine='compiled' is not available for this run: {reason}; "
                                  "use engine='auto' or 'numpy'")
        return stepper, {"engine": "numpy", "engine_reason": reason}
    return compiled, report(compiled)


def fallback_step(stepper: Any, t: float, X: np.ndarray, W: np.ndarray, k: int, h: float,
                  *, last: bool = True) -> Any | None:
    """Step ``k`` of a block taken by ``stepper``'s own step from ``(t, X[k])``, halved
    while Newton fails (as the loop halves a failed step): what a compiled block falls
    back to.  Writes ``X[k + 1]`` and the step's work row ``W[k]`` and returns its
    :class:`~..method.StepInfo`; ``None`` when even the smallest step fails — then, if
    this is the ``last`` resort, ``X[k + 1:]`` is NaN (the run ends there)."""
    from ..ode.stepping import advance

    try:
        x_new, info = advance(stepper, float(t), X[k], h, h * 2.0**-MAX_HALVINGS)
    except (NewtonFailure, np.linalg.LinAlgError):
        if last:
            X[k + 1:] = np.nan
        return None
    X[k + 1] = x_new
    W[k] = info.work
    return info


def call_entry(entries: dict[Any, Any], kernel: Any, *args: Any) -> Any:
    """``kernel(*args)`` through its machine-code entry point for these argument types,
    looked up (compiled or loaded) once and kept in ``entries``: Numba's dispatcher types
    every argument on every call, which for function-valued arguments costs ~0.2 ms, the
    time of dozens of small steps.  The callers pass arrays of the same types
    (contiguous float64/int64 of the same dimensions) every time, by construction."""
    entry = entries.get(kernel)
    if entry is None:
        sig = tuple(kernel.typeof_pyval(a) for a in args)
        kernel.compile(sig)
        entry = entries[kernel] = kernel.overloads[sig].entry_point
    return entry(*args)


def stage_inputs(signal: Any, starts: np.ndarray, nodes: np.ndarray, h: float, m: int,
                 x: np.ndarray) -> np.ndarray:
    """``U[k, i] = u(t_k + c_i h)`` (K × s × m) for steps from ``starts`` with stage or
    substep times ``nodes`` = c_i (no feedback: ``x`` is passed, not used)."""
    U = np.zeros((starts.size, nodes.size, m))
    if m:
        for k in range(starts.size):
            for i in range(nodes.size):
                U[k, i] = signal(float(starts[k] + nodes[i] * h), x)
    return U
