r"""One-step methods: the base class whose ``solve`` is our stepping loop.

A one-step method maps the state at :math:`t` to the state at :math:`t + h`.  Subclasses
implement

``__init__(self, dyn, *, newton_tol, max_newton)``
    bind to the :class:`~..problem.dynamics.Dynamics` of an ODE problem.
``step(self, t, x, h) -> (x_new, info)``
    one step from ``(t, x)`` of length ``h`` (s), with the energy bookkeeping
    :class:`~..method.StepInfo`; raise :class:`~..linalg.newton.NewtonFailure` (or
    :class:`numpy.linalg.LinAlgError`) when the step equations cannot be solved — the loop
    then halves the step.
``lti_block(self)`` (optional)
    a function ``block(dyn, x, times, h) -> (X, W)`` doing many steps of an LTI system at
    once (:mod:`.lti`), or ``None``.

and may set ``dae_step``: a factory ``(compiled_dae, signal, options) -> stepper`` of the
same method for descriptor systems (:mod:`..dae.midpoint`); the method then also solves
``"dae"`` problems.  :meth:`OneStepMethod.solve` hands the problem to the fixed/adaptive
loop of :mod:`.loop` (ODE) or :mod:`..dae.loop` (DAE).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from ..method import Method, StepInfo
from ..problem.dynamics import Dynamics

__all__ = ["OneStepMethod"]


class OneStepMethod(Method):
    """Base of the methods our loops drive (the contract is the module docstring)."""

    fixed_step = True
    #: factory of the DAE form of this method, or ``None`` (ODE only)
    dae_step: ClassVar[Callable[..., Any] | None] = None
    #: the compiled form of the step (:mod:`..kernels.steps`: "midpoint", "gonzalez",
    #: "avf", "gauss"), or ``None``: NumPy only
    kernel: ClassVar[str | None] = None

    def __init__(self, dyn: Dynamics, *, newton_tol: float = 1e-12, max_newton: int = 20
                 ) -> None:
        self.dyn = dyn
        self.newton_tol, self.max_newton = newton_tol, max_newton

    @classmethod
    def create(cls, problem: Any, options: Any) -> OneStepMethod:
        """The stepper for an ODE ``problem`` with the Newton settings of ``options``."""
        return cls(problem.dynamics, newton_tol=options.newton_tol,
                   max_newton=options.max_newton)

    def step(self, t: float, x: np.ndarray, h: float) -> tuple[np.ndarray, StepInfo]:
        raise NotImplementedError(f"{type(self).__name__} does not implement step()")

    def lti_block(self) -> Callable[..., Any] | None:
        """A block stepper for LTI systems (see :mod:`.lti`), or ``None``."""
        return None

    @classmethod
    def solve(cls, problem: Any, options: Any) -> Any:
        """Fixed or adaptive steps of this method over ``problem.t_span``."""
        if problem.kind == "dae":
            from ..dae.loop import run_dae

            assert cls.dae_step is not None  # the registry checked ``problems``
            return run_dae(cls.dae_step(problem.compiled, problem.signal, options), problem,
                           options, cls.name)
        from .loop import run_ode

        return run_ode(cls.create(problem, options), problem, options, cls.name)
