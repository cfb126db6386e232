r"""One set of simulation options, shared by every problem kind and every method.

:class:`SimulationOptions` is a frozen value: ``simulate(..., rtol=1e-8)`` and
``simulate(..., options=SimulationOptions(rtol=1e-8))`` are the same call, and the ODE
path (explicit PHS), the DAE path (descriptor PHS, mechanisms) and SciPy/SUNDIALS get the
same defaults — a system gets the same tolerances whichever door it came through.

Defaults (documented in ``docs/simulation.md``):

========================  ==========  ==================================================
option                    default     meaning
========================  ==========  ==================================================
``dt``                    ``None``    fixed step (s); ``None``: adaptive steps (ODE) or
                                      ``(t1 − t0)/1000`` (DAE steps, output grid of
                                      SciPy/IDA)
``rtol``, ``atol``        1e-6, 1e-9  local error tolerances of adaptive steps, SciPy and
                                      IDA
``t_eval``                ``None``    times (s) to save at; default every step
``save_every``            1           save every k-th step (and the last)
``newton_tol``            1e-12       relative Newton tolerance on the update
``max_newton``            20          Newton iterations per step before the step is halved
``simplified_newton``     ``None``    reuse an old step matrix while Newton converges
                                      (DAE; ``None``: the compiled model's preference)
``max_step``              ∞           largest adaptive step (s)
``first_step``            ``None``    first adaptive step (s); ``None``: estimated
``modulation``            ``None``    ``{parameter: piecewise-constant signal}``
``events``                ``None``    ``g(t, x)`` or a list of them (zero crossings)
``progress``              ``None``    ``progress(t)`` called after every step; ``True``
                                      or ``"tqdm"``: a tqdm bar (terminal and Jupyter)
``stream``                ``None``    CSV file receiving every saved point
``max_steps``             10⁸         most steps a run may take: a fixed-step run that
                                      needs more is refused before it starts, an
                                      adaptive one stops with a ``SimulationError``
                                      (partial results kept); raise it for longer runs
``engine``                ``"auto"``  ``"compiled"`` (Numba kernels generated from the
                                      model), ``"numpy"``, or ``"auto"``: compiled where
                                      the model and method allow it (docs: "The engine")
========================  ==========  ==================================================
"""

from __future__ import annotations

import dataclasses
import math
import pathlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from ..errors import ModelError

__all__ = ["SimulationOptions", "DEFAULT_RTOL", "DEFAULT_ATOL", "DEFAULT_NEWTON_TOL",
           "MAX_HALVINGS", "ENGINES"]

DEFAULT_RTOL = 1e-6
DEFAULT_ATOL = 1e-9
DEFAULT_NEWTON_TOL = 1e-12
#: a fixed step whose Newton iteration fails is halved at most this many times (down to
#: dt·2⁻¹⁰), by the ODE and the DAE loops alike
MAX_HALVINGS = 10
#: values of the ``engine`` option
ENGINES = ("auto", "compiled", "numpy")
#: default ``max_steps``: 10⁸ steps is minutes to hours of computing and GBs of output
MAX_STEPS = 100_000_000


@dataclass(frozen=True)
class SimulationOptions:
    """How to integrate; every field is described in the module docstring (units: s)."""

    dt: float | None = None
    rtol: float = DEFAULT_RTOL
    atol: float = DEFAULT_ATOL
    t_eval: tuple[float, ...] | None = None
    save_every: int = 1
    newton_tol: float = DEFAULT_NEWTON_TOL
    max_newton: int = 20
    simplified_newton: bool | None = None
    max_step: float = math.inf
    first_step: float | None = None
    modulation: Mapping[str, Any] | None = field(default=None, compare=False)
    events: Any = field(default=None, compare=False)
    progress: Callable[[float], None] | bool | str | None = field(default=None, compare=False)
    stream: str | pathlib.Path | None = None
    engine: str = "auto"
    max_steps: int = MAX_STEPS

    def __post_init__(self) -> None:
        def put(name: str, value: Any) -> None:  # normalize inside a frozen dataclass
            object.__setattr__(self, name, value)

        if self.dt is not None:
            dt = _number("dt", self.dt)
            if not (dt > 0 and math.isfinite(dt)):
                raise ModelError(f"dt must be a positive number of seconds, got {self.dt!r}")
            put("dt", dt)
        rtol, atol = _number("rtol", self.rtol), _number("atol", self.atol)
        if not (0 < rtol < 1 and atol > 0 and math.isfinite(atol)):
            raise ModelError(f"tolerances need 0 < rtol < 1 and atol > 0, got rtol={self.rtol!r}, "
                             f"atol={self.atol!r}")
        put("rtol", rtol)
        put("atol", atol)
        if isinstance(self.save_every, bool) or int(self.save_every) != self.save_every \
                or int(self.save_every) < 1:
            raise ModelError(f"save_every must be a positive integer, got {self.save_every!r}")
        put("save_every", int(self.save_every))
        if self.t_eval is not None:
            te = np.asarray(self.t_eval, dtype=float).ravel()
            if te.size == 0 or not np.all(np.isfinite(te)) or np.any(np.diff(te) <= 0):
                raise ModelError("t_eval must be finite, strictly increasing times (s)")
            put("t_eval", tuple(float(v) for v in te))
        newton_tol = _number("newton_tol", self.newton_tol)
        if not 0 < newton_tol < 1:
            raise ModelError(f"newton_tol must be in (0, 1), got {self.newton_tol!r}")
        put("newton_tol", newton_tol)
        if isinstance(self.max_newton, bool) or int(self.max_newton) != self.max_newton \
                or int(self.max_newton) < 1:
            raise ModelError(f"max_newton must be a positive integer, got {self.max_newton!r}")
        put("max_newton", int(self.max_newton))
        for name in ("max_step", "first_step"):
            value = getattr(self, name)
            if value is not None and not _number(name, value) > 0:
                raise ModelError(f"{name} must be a positive number of seconds, got {value!r}")
        if isinstance(self.max_steps, bool) or not isinstance(self.max_steps, (int, float)) \
                or self.max_steps != int(self.max_steps) or int(self.max_steps) < 1:
            raise ModelError(f"max_steps must be a positive integer, got {self.max_steps!r}")
        put("max_steps", int(self.max_steps))
        if self.engine not in ENGINES:
            raise ModelError(f"engine must be one of {', '.join(map(repr, ENGINES))}, got "
                             f"{self.engine!r}")
        if self.progress is False:
            put("progress", None)
        elif not (self.progress is None or self.progress is True or callable(self.progress)
                  or (isinstance(self.progress, str) and self.progress == "tqdm")):
            raise ModelError(f"progress must be True or \"tqdm\" (a progress bar) or a "
                             f"callable progress(t), got {self.progress!r}")

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The option names, in order."""
        return tuple(f.name for f in fields(cls))

    @classmethod
    def build(cls, options: SimulationOptions | None = None, **values: Any) -> SimulationOptions:
        """``options`` with ``values`` replacing its fields (unknown names raise
        :class:`ModelError` listing the valid ones)."""
        unknown = sorted(set(values) - set(cls.names()))
        if unknown:
            raise ModelError(f"unknown simulation option(s) {', '.join(unknown)}; the options "
                             f"are: {', '.join(cls.names())}")
        if options is not None and not isinstance(options, SimulationOptions):
            raise ModelError(f"options must be a SimulationOptions, got {type(options).__name__}")
        base = options if options is not None else cls()
        return dataclasses.replace(base, **values) if values else base

    def replace(self, **values: Any) -> SimulationOptions:
        """A copy with ``values`` replaced (checked like the constructor)."""
        return SimulationOptions.build(self, **values)

    def check_span(self, t_span: Sequence[float]) -> tuple[float, float]:
        """``(t0, t1)`` for a finite span with ``t1 > t0`` (and ``t_eval`` inside it)."""
        try:
            t0, t1 = (float(v) for v in t_span)
        except (TypeError, ValueError):
            raise ModelError(f"t_span must be a pair (t0, t1) of times in s, got {t_span!r}"
                             ) from None
        if not (math.isfinite(t0) and math.isfinite(t1) and t1 > t0):
            raise ModelError(f"t_span must be (t0, t1) with t1 > t0, got ({t0:g}, {t1:g})")
        if self.t_eval is not None and (self.t_eval[0] < t0 or self.t_eval[-1] > t1):
            raise ModelError("t_eval must be increasing times within t_span")
        if self.dt is not None:
            scale = max(abs(t0), abs(t1))
            if t1 + self.dt == t1 or t0 + self.dt == t0 or self.dt < 1e-15 * scale:
                raise ModelError(
                    f"dt = {self.dt:g} s is below the resolution of the times around "
                    f"t = {scale:g} s (double precision: t + dt == t); give a dt of at least "
                    f"{max(1e-15 * scale, 1e-300):.3g} s")
            steps = (t1 - t0) / self.dt
            if steps > self.max_steps:
                raise ModelError(
                    f"the run needs {steps:.3g} steps (t_end − t_start = {t1 - t0:g} s at "
                    f"dt = {self.dt:g} s), more than max_steps = {self.max_steps:.3g}; use a "
                    "larger dt or a shorter span, or raise max_steps (CLI: --max-steps) if "
                    "you mean it")
        return t0, t1


def _number(name: str, value: Any) -> float:
    if isinstance(value, bool):
        raise ModelError(f"{name} must be a number, got {value!r}")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ModelError(f"{name} must be a number, got {value!r}") from None
