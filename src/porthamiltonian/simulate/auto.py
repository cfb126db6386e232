r"""``method="auto"`` (the default): the energy-exact method for the model at hand.

The implicit midpoint rule balances energy exactly when :math:`H` is quadratic (its
midpoint gradient is then the discrete gradient); for any other :math:`H` the Gonzalez
discrete gradient does (Gonzalez 1996; McLachlan, Quispel & Robidoux 1999).  So:

- explicit PHS, :math:`H` quadratic (a linear model, or a polynomial of degree ≤ 2 in the
  state) → ``midpoint`` (and the LTI block loop when the model is LTI);
- explicit PHS, any other :math:`H` → ``discrete_gradient``; for a separable :math:`H`
  (:class:`~porthamiltonian.functional.SeparablePHS`) → ``avf``, whose discrete gradient
  is then exact state by state and runs as compiled sparse steps
  (:mod:`.kernels.separable`);
- descriptor PHS: the same choice between the DAE midpoint and discrete-gradient steps
  (a mechanism's energy — kinetic quadratic in the momenta, gravity linear in the
  positions, springs quadratic — takes the midpoint step).

The result's ``method`` names the method that ran and ``extra["method_choice"]`` says why.
"""

from __future__ import annotations

from typing import Any

from .method import Method

__all__ = ["Auto", "choose"]


def _quadratic(problem: Any) -> bool:
    """Whether the problem's Hamiltonian is quadratic in the state (degree ≤ 2)."""
    compiled = problem.compiled
    if getattr(compiled, "linear", False):
        return True
    declared = getattr(compiled, "quadratic_energy", None)
    if declared is not None:
        return bool(declared)
    from .ode.discrete_gradient import hamiltonian_degree

    system = problem.system
    if problem.kind == "dae":
        system = getattr(system, "core", system)  # a DescriptorPHS: H lives on its core
    degree = hamiltonian_degree(system)
    return degree is not None and degree <= 2


def choose(problem: Any) -> tuple[type[Method], str]:
    """The method ``auto`` runs on ``problem`` and why."""
    # the steps are imported here, not with the module: resolving the default method
    # (``validate`` does) must not load the kernels and Numba
    from .ode.discrete_gradient import AVF, DiscreteGradient
    from .ode.midpoint import Midpoint

    kind = "descriptor" if problem.kind == "dae" else "explicit"
    if _quadratic(problem):
        return Midpoint, (f"{kind} system with quadratic H: the midpoint rule balances "
                          "energy exactly")
    from ..functional import SeparablePHS

    if isinstance(problem.system, SeparablePHS) and not problem.system.state_dependent:
        return AVF, ("separable H: the AVF discrete gradient balances energy exactly, state "
                     "by state (compiled sparse steps)")
    return DiscreteGradient, (f"{kind} system with non-quadratic H: the discrete gradient "
                              "balances energy exactly")


class Auto(Method):
    """The energy-exact default (see the module docstring)."""

    name = "auto"
    order = 2
    problems = frozenset({"ode", "dae"})
    energy = "any"
    fixed_step = True

    @classmethod
    def solve(cls, problem: Any, options: Any) -> Any:
        chosen, why = choose(problem)
        res = chosen.solve(problem, options)
        res.extra["method_choice"] = f"auto → {chosen.name}: {why}"
        return res
