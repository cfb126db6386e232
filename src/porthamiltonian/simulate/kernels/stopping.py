"""Newton's stopping tests (:mod:`porthamiltonian.simulate.linalg.stopping`) compiled
for the kernels that call them from compiled code: the dense, separable sparse,
reaction, beam and mechanism steps.  Kept apart so that the NumPy Newton loop imports
the plain functions without Numba."""

from __future__ import annotations

from ...jit import njit
from ..linalg import stopping

__all__ = ["at_floor", "residual_accepted", "full_converged"]

at_floor = njit(stopping.at_floor)
residual_accepted = njit(stopping.residual_accepted)
full_converged = njit(stopping.full_converged)
