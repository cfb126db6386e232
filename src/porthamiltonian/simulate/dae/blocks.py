r"""Many fixed DAE steps per call: what a compiled stepper's ``advance`` returns.

A one-step DAE method may offer, besides ``step(t, x, h)``, a block method
``advance(t, h, save, x, acc) → StepBlock`` (the compiled rigid-mechanism step,
:class:`porthamiltonian.mechanics.fused.FusedMidpoint`, does).  It takes the steps
``j = 0, 1, …`` of lengths ``h[j]`` starting at ``t[j]`` from ``x`` in one call, with the
same equations, first guesses and Newton policy as ``step``, and the same per-step
bookkeeping as :func:`.loop.run_dae`: ``acc`` (:data:`ACC` values, updated in place)
sums since the last saved point

==== ===================================================================
0    work supplied :math:`h\,\bar u^\top\bar y` (J)
1    work dissipated (J)
2    :math:`\Delta H` (J)
3    Newton iterations
4    residual evaluations
5    largest constraint residual :math:`|B(\bar x)^\top\bar z|_\infty`
==== ===================================================================

and at every step with ``save[j]`` its state, multipliers :math:`\lambda = \mu/h` and
``acc`` are saved and ``acc`` restarts.  The loop records those points together
(:meth:`~..output.recorder.Recorder.record_block`), so no Python runs per step.

A step the block cannot take stops it: ``done`` steps were taken, step ``done`` was not.
Its Newton failure (``newton_error``) is handled by the loop as a failed ``step``
(halved, down to ``dt·2⁻¹⁰``); a non-finite result (``nonfinite``) ends the run as it
does per step.  Inputs are evaluated at the step midpoints; a block stepper is used
only for inputs without state feedback.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["StepBlock", "ACC"]

#: length of the per-interval accumulator (see the module docstring)
ACC = 6


@dataclass
class StepBlock:
    """The outcome of ``advance`` (module docstring).

    ``x``: the state after the ``done`` steps; ``lam``: the multipliers of the last step
    taken (of the non-finite step when ``nonfinite``; unset when ``done == 0`` otherwise);
    ``X``, ``LAM``, ``OUT``: the saved points' states, multipliers and ``acc`` rows."""

    done: int
    x: np.ndarray
    lam: np.ndarray
    X: np.ndarray
    LAM: np.ndarray
    OUT: np.ndarray
    newton_error: str | None = None
    nonfinite: bool = False
