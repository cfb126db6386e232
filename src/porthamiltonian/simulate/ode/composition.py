r"""Energy-exact methods of order 4 and 6: symmetric compositions of the AVF step.

The AVF step :math:`\Phi_h` (:mod:`.discrete_gradient`) is symmetric
(:math:`\Phi_{-h}\circ\Phi_h = \mathrm{id}`) and of order 2.  A symmetric composition
:math:`\Phi_{\gamma_s h}\circ\dots\circ\Phi_{\gamma_1 h}` with
:math:`\gamma_{s+1-i} = \gamma_i`, :math:`\sum\gamma_i = 1` and the order conditions
(Hairer, Lubich & Wanner, *Geometric Numerical Integration*, 2nd ed., §II.4 and §V.3)
is of higher order, and every substep keeps the discrete power balance exactly — so on
a lossless, unforced system :math:`H` is conserved to round-off at order 4 or 6:

- ``avf4``: Yoshida's triple jump (H. Yoshida, *Construction of higher order symplectic
  integrators*, Phys. Lett. A 150, 1990; also Suzuki 1990, Creutz & Gocksch 1989),
  :math:`\gamma_1 = \gamma_3 = 1/(2 - 2^{1/3})`, :math:`\gamma_2 = -2^{1/3}/(2 - 2^{1/3})`;
  3 substeps, order 4.
- ``avf6``: Kahan & Li's nine-stage method s9odr6a (W. Kahan, R.-C. Li, *Composition
  constants for raising the orders of unconventional schemes for ordinary differential
  equations*, Math. Comp. 66, 1997), order 6.

**Losses and backward substeps.**  Both take a substep with :math:`\gamma_i < 0`: a step
backwards in time, where a damper *supplies* energy (the recorded dissipated work of that
substep is negative; the step's dissipated work is the sum over its substeps, and the
power balance of each substep, hence of the step, stays exact).  With weak damping this
only costs accuracy in the order constant; with stiff damping the backward substep
amplifies the damped modes by :math:`e^{|\gamma_i| h\lambda}` and the run blows up.
:meth:`AVFComposition.create` therefore warns
(:class:`~porthamiltonian.errors.ModelWarning`) when
:math:`|\gamma_{\min}|\,h\,\|R\|\,\|\nabla^2H(x_0)\| > 1/2` (norms: max row sums); use
``avf`` or a Gauss method for stiff losses.
"""

from __future__ import annotations

import warnings
from typing import Any, ClassVar

import numpy as np
import scipy.sparse as sps

from ...errors import ModelWarning
from ..method import StepInfo
from ..problem.dynamics import Dynamics
from .base import OneStepMethod
from .discrete_gradient import AVF

__all__ = ["AVFComposition", "AVF4", "AVF6", "TRIPLE_JUMP", "KAHAN_LI_6"]

_C = 2.0 ** (1.0 / 3.0)
#: Yoshida (1990) triple jump: order 4
TRIPLE_JUMP = (1.0 / (2.0 - _C), -_C / (2.0 - _C), 1.0 / (2.0 - _C))
_KL = (0.39216144400731413928, 0.33259913678935943860, -0.70624617255763935981,
       0.082213596293550800230, 0.79854399093482996340)
#: Kahan & Li (1997) s9odr6a: order 6
KAHAN_LI_6 = (*_KL, *_KL[-2::-1])
#: backward-substep stiffness |γ_min| h ‖R‖‖∇²H‖ above which a warning is given
STIFF_WARNING = 0.5


class AVFComposition(OneStepMethod):
    """A symmetric composition of AVF steps (the module docstring); subclasses set
    ``gammas``."""

    gammas: ClassVar[tuple[float, ...]] = (1.0,)
    kernel = "avf"
    energy = "any"

    def __init__(self, dyn: Dynamics, base: AVF) -> None:
        super().__init__(dyn, newton_tol=base.newton_tol, max_newton=base.max_newton)
        #: the AVF step composed (a compiled one when the engine replaces it)
        self.inner: Any = base
        offsets = np.concatenate([[0.0], np.cumsum(self.gammas)[:-1]])
        #: start of each substep as a fraction of the step
        self.offsets = offsets

    @classmethod
    def create(cls, problem: Any, options: Any) -> OneStepMethod:
        base = AVF.create(problem, options)
        assert isinstance(base, AVF)
        self = cls(problem.dynamics, base)
        if options.dt is not None:
            self.warn_if_stiff(problem.x0, float(options.dt))
        return self

    def warn_if_stiff(self, x0: np.ndarray, h: float) -> None:
        """:class:`ModelWarning` when the backward substeps may amplify damped modes."""
        num = self.dyn.num
        R = num.constant_matrices.get("R")
        if R is None:
            return
        norm_r = _row_norm(R)
        if norm_r == 0.0:
            return
        stiff = min(self.gammas) * -h * norm_r * _row_norm(num.hessian(np.asarray(x0)))
        if stiff > STIFF_WARNING:
            warnings.warn(
                f"method {self.name!r}: a backward substep of {-min(self.gammas):.3g}·dt "
                f"anti-dissipates, and with this damping (|γ|·dt·‖R‖‖∇²H‖ = {stiff:.3g} > "
                f"{STIFF_WARNING}) it amplifies the damped modes; the power balance stays "
                "exact but the run may blow up — use 'avf' or a Gauss method, or a "
                "smaller dt", ModelWarning, stacklevel=4)

    def step(self, t: float, x: np.ndarray, h: float) -> tuple[np.ndarray, StepInfo]:
        """The substeps :math:`\\gamma_i h` in turn; the bookkeeping is their sum."""
        total = StepInfo(0.0, 0.0, 0.0)
        for g, c in zip(self.gammas, self.offsets, strict=True):
            x, info = self.inner.step(t + c * h, x, g * h)
            total = total + info
        return x, total


def _row_norm(A: Any) -> float:
    if sps.issparse(A):
        return float(abs(A).sum(axis=1).max()) if A.shape[0] else 0.0
    A = np.asarray(A, dtype=float)
    return float(np.abs(A).sum(axis=1).max()) if A.size else 0.0


class AVF4(AVFComposition):
    """AVF composed by Yoshida's triple jump: order 4, exact energy balance for any H."""

    name = "avf4"
    order = 4
    gammas = TRIPLE_JUMP


class AVF6(AVFComposition):
    """AVF composed by Kahan & Li's s9odr6a: order 6, exact energy balance for any H."""

    name = "avf6"
    order = 6
    gammas = KAHAN_LI_6
