r"""When Newton's iteration for a step stops: the tests every Newton loop of the library
uses, the NumPy one (:mod:`.newton`) and the compiled ones (dense, separable sparse,
reaction, beam and mechanism steps), written once.  They are plain Python here, so the
NumPy engine (and ``validate``) never imports Numba;
:mod:`porthamiltonian.simulate.kernels.stopping` compiles them for the kernels.

With ``size`` the largest entry of the last update, ``bound`` the scale of the unknowns
(their size plus the equation's scale) and ``tol`` the relative tolerance:

- simplified Newton converges linearly, so it iterates down to the round-off floor —
  ``size ≤ 16 ε bound``, or below ``tol · bound`` where the update stopped shrinking by
  70 % an iteration (:func:`at_floor`) — and then accepts on the residual,
  ``‖F‖ ≤ tol (0.1 ‖w‖ + 10⁻³ bound)`` (:func:`residual_accepted`): stopping on a small
  update alone leaves a rest of one sign step after step, and H drifts;
- full Newton converges quadratically and stops on the update (:func:`full_converged`),
  also when it stagnates at 10⁻⁸ of the scale.

Hairer & Wanner, *Solving ODEs II*, §IV.8, for the linear-convergence argument.
"""

from __future__ import annotations

__all__ = ["at_floor", "residual_accepted", "full_converged", "EPS"]

EPS = 2.220446049250313e-16


def at_floor(size: float, prev: float, bound: float, tol: float) -> bool:
    """Simplified Newton's update is at the round-off floor: test the residual."""
    return size <= 16 * EPS * bound or (size <= tol * bound and size >= 0.3 * prev)


def residual_accepted(residual: float, update: float, bound: float, tol: float) -> bool:
    """The residual ``residual`` (largest entry) is small for an iterate of size
    ``update``."""
    return residual <= tol * (0.1 * update + 1e-3 * bound)


def full_converged(size: float, prev: float, bound: float, tol: float) -> bool:
    """Full Newton's update is below the tolerance, or stagnates at 10⁻⁸ of the scale."""
    return size <= tol * bound or (size >= prev and size <= 1e-8 * bound)
