r"""The method contract: what the registry (:mod:`.registry`) holds and
:func:`porthamiltonian.simulate` calls.

A **method** is a class with

``name`` (str)
    the registry key (``method="midpoint"``).
``order`` (int)
    the classical order of accuracy :math:`p` (global error :math:`O(h^p)`); adaptive
    step doubling uses it for its error estimate.
``problems`` (frozenset of ``"ode"``, ``"dae"``)
    the problem kinds it solves: ``"ode"`` an explicit PHS
    (:class:`~porthamiltonian.compiled.protocol.CompiledODE`), ``"dae"`` a descriptor PHS
    (:class:`~porthamiltonian.compiled.protocol.CompiledDAE`).
``energy`` (``"any"``, ``"quadratic"`` or ``"none"``)
    for which Hamiltonians its discrete power balance
    :math:`H(x_{k+1}) - H(x_k) = \int u^\top y - \int d` holds to round-off: for every
    :math:`H` (discrete gradients), for quadratic :math:`H` (midpoint, Gauss–Legendre:
    symplectic collocation conserves quadratic invariants), or not at all (RK4, SciPy).
``fixed_step`` (bool)
    ``dt`` sets the step (halved where Newton fails; ``dt=None`` means adaptive step
    doubling for an ODE) — or, when ``False``, the method chooses its own steps from
    ``rtol``/``atol`` and ``dt`` is only the output grid (SciPy, IDA).
``solve(problem, options)`` (classmethod)
    runs the whole simulation of a :class:`~.problem.problem.Problem` with
    :class:`~.options.SimulationOptions` and returns a
    :class:`~.output.result.SimulationResult` (a
    :class:`~.output.dae_result.DAEResult` for a DAE).  On failure it raises
    :class:`~porthamiltonian.SimulationError` carrying the results up to the failure
    (``.partial``) and the time reached (``.t_reached``).

One-step methods (:class:`~.ode.base.OneStepMethod`) need only a ``step``; the stepping
loops (:mod:`.ode.loop`, :mod:`.dae.loop`) provide ``solve``.  This is the same split as
SciPy's ``OdeSolver`` (Virtanen et al., *Nature Methods* 17, 2020) — and, as there, a
user's own subclass can be passed as ``method=`` or registered by name.

The per-step energy bookkeeping every method reports is a :class:`StepInfo`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

__all__ = ["Method", "StepInfo", "ENERGY_CLASSES"]

#: the values of :attr:`Method.energy`
ENERGY_CLASSES = ("any", "quadratic", "none")


@dataclass
class StepInfo:
    """Energy bookkeeping of one step of length ``h`` (s), as the method computes it.

    Attributes
    ----------
    supplied:
        :math:`\\int u^\\top y\\,dt` over the step (J), by the method's own quadrature.
    dissipated:
        :math:`\\int d\\,dt` over the step (J), ``≥ 0``.
    delta_H:
        :math:`H(x_{k+1}) - H(x_k)` (J); for quadratic :math:`H = \\tfrac12 x^\\top Q x`
        computed as :math:`\\bar x^\\top Q (x_{k+1}-x_k)` (the same number without the
        cancellation of two large energies).
    newton_iterations, nfev:
        Work done (Newton iterations; right-hand-side evaluations).
    """

    supplied: float
    dissipated: float
    delta_H: float
    newton_iterations: int = 0
    nfev: int = 0

    def __add__(self, other: StepInfo) -> StepInfo:
        """The bookkeeping of two consecutive steps taken as one."""
        return StepInfo(self.supplied + other.supplied, self.dissipated + other.dissipated,
                        self.delta_H + other.delta_H,
                        self.newton_iterations + other.newton_iterations,
                        self.nfev + other.nfev)

    @property
    def work(self) -> tuple[float, float, float]:
        """``(supplied, dissipated, residual)`` (J), the residual being
        ΔH − (supplied − dissipated): a block's row of work."""
        return (self.supplied, self.dissipated,
                self.delta_H - (self.supplied - self.dissipated))


class Method:
    """Base class of every simulation method (the contract is the module docstring)."""

    name: ClassVar[str] = ""
    order: ClassVar[int] = 1
    problems: ClassVar[frozenset[str]] = frozenset({"ode"})
    energy: ClassVar[str] = "none"
    fixed_step: ClassVar[bool] = False

    @classmethod
    def solve(cls, problem: Any, options: Any) -> Any:
        """Simulate ``problem`` with ``options``; see the module docstring."""
        raise NotImplementedError(f"{cls.__name__} does not implement solve()")
