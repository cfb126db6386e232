r"""Fast path of the implicit midpoint rule for linear time-invariant systems.

For :math:`\dot x = Ax + Bu` (quadratic :math:`H = \tfrac12 x^\top Q x`, constant
matrices, no state feedback) a step of size :math:`h` is the linear solve

.. math::

    (I - \tfrac h2 A)\,\delta_k = h\,(A x_k + B u_{k+1/2}),\qquad x_{k+1} = x_k + \delta_k,

with one (sparse) LU factorization per step size and structure, reused.  The loop
over a block of steps does only a matrix-vector product, one LU solve and the input
evaluation per step; the energy bookkeeping of the whole block is then computed at
once with the same formulas as :class:`.midpoint.Midpoint` (:math:`\bar x =
\tfrac12(x_k + x_{k+1})`, :math:`\bar z = Q\bar x`):

.. math::

    \Delta H_k = \bar z^\top \delta_k,\quad
    W^{\mathrm{in}}_k = h\,u^\top\big(C\bar x + Du\big),\quad
    W^{\mathrm{d}}_k = h\,\big(\bar z^\top R\bar z + 2\bar z^\top P u + u^\top S u\big).

The increment form keeps the round-off of :math:`\delta_k` relative to
:math:`|\delta_k|`, not :math:`|x_k|`, so the discrete power balance holds to
round-off at small steps as well.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from .base import Dynamics
from .midpoint import Midpoint

__all__ = ["midpoint_block", "BLOCK_STEPS"]

#: steps per block: bounds the memory of the block's states (BLOCK_STEPS × n floats)
BLOCK_STEPS = 256


def _rows(M: object, X: np.ndarray) -> np.ndarray:
    """``(M @ X.T).T`` for a dense or sparse ``M`` and row vectors ``X``."""
    return np.asarray((M @ X.T).T)


def midpoint_block(
    stepper: Midpoint, dyn: Dynamics, x: np.ndarray, times: np.ndarray, h: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Steps from ``times[0]`` to ``times[-1]`` (``len(times) − 1`` steps of size ``h``).

    Returns the states ``X`` (one row per time) and per step the columns
    (work supplied, work dissipated, power residual) in J.
    """
    num = dyn.num
    hA, hB = stepper.scaled(h)
    solve = stepper._factor(h).solve
    signal: Callable[[float, np.ndarray], np.ndarray] = dyn.signal
    K, m = times.size - 1, dyn.m
    X = np.empty((K + 1, dyn.n))
    U = np.empty((K, m))
    X[0] = x
    for j in range(K):  # the hot loop: one matvec, one LU solve, no other temporaries
        if m:
            u = signal(0.5 * (times[j] + times[j + 1]), x)
            U[j] = u
            d = solve(hA @ x + hB @ u)
        else:
            d = solve(hA @ x)
        x = np.add(x, d, out=X[j + 1])
    Xm = 0.5 * (X[:-1] + X[1:])
    Zm = _rows(num.Q, Xm)
    dH = np.einsum("ij,ij->i", Zm, X[1:] - X[:-1])
    dissipated = h * np.einsum("ij,ij->i", Zm, _rows(num.matrix("R", x), Zm))
    if m:
        supplied = h * np.einsum("ij,ij->i", U, _rows(num.C, Xm) + _rows(num.D, U))
        dissipated += h * (2.0 * np.einsum("ij,ij->i", Zm, _rows(num.matrix("P", x), U))
                           + np.einsum("ij,ij->i", U, _rows(num.matrix("S", x), U)))
    else:
        supplied = np.zeros(K)
    return X, np.column_stack([supplied, dissipated, dH - (supplied - dissipated)])
