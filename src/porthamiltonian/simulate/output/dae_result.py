r"""The result of a descriptor-system (DAE) simulation: a :class:`SimulationResult`
with the multipliers and the constraint residuals.

* ``lam`` (saved points × k): the multipliers :math:`\lambda` (constraint forces, e.g.
  N for a rod, A for a current between parallel capacitors), by name with
  ``res["lambda0"]``.  At ``t0`` and for IDA: consistent values at the saved state.
  For the midpoint/discrete-gradient methods: :math:`\mu/h`, the mean force over the
  step ending at the saved point (the value the discrete power balance uses).
* ``constraint_residual`` (saved points): :math:`\|B^\top z\|_\infty` where the method
  imposes the constraint — for midpoint/discrete gradient the largest
  :math:`|B(\bar x)^\top\bar z|` of the steps in the saved interval; for IDA the value
  at the saved point.
* ``node_constraint`` (saved points): :math:`\|B(x_k)^\top z(x_k)\|_\infty` at the saved
  states (for midpoint with a state-dependent ``B`` this is :math:`O(h^2)`, see
  :mod:`..dae.midpoint`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

import numpy as np

from .result import SimulationResult

__all__ = ["DAEResult"]


@dataclass
class DAEResult(SimulationResult):
    """Simulation result of a :class:`~porthamiltonian.DescriptorPHS` (see module doc)."""

    multipliers: list[str] = field(default_factory=list)
    lam: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    constraint_residual: np.ndarray = field(default_factory=lambda: np.zeros(0))
    node_constraint: np.ndarray = field(default_factory=lambda: np.zeros(0))

    @classmethod
    def from_result(cls, base: SimulationResult, **extra: Any) -> DAEResult:
        """Wrap a :class:`SimulationResult` with the DAE series in ``extra``."""
        return cls(**{f.name: getattr(base, f.name) for f in fields(base)}, **extra)

    def __getitem__(self, name: str) -> np.ndarray:
        """A state, input, output, multiplier or ``"constraint_residual"`` series."""
        if name in self.multipliers:
            return self.lam[:, self.multipliers.index(name)]
        if name in ("constraint_residual", "node_constraint"):
            return getattr(self, name)
        try:
            return super().__getitem__(name)
        except KeyError as err:
            raise KeyError(f"{err.args[0]}; multipliers: "
                           f"{', '.join(self.multipliers) or '(none)'}") from None

    def columns(self) -> dict[str, np.ndarray]:
        """The CSV columns of :class:`SimulationResult` plus ``lambda:<multiplier>`` and
        ``constraint_residual``."""
        cols = super().columns()
        for k, name in enumerate(self.multipliers):
            cols[f"lambda:{name}"] = self.lam[:, k]
        cols["constraint_residual"] = self.constraint_residual
        return cols

    def to_dict(self) -> dict[str, Any]:
        """:meth:`SimulationResult.to_dict` plus ``multipliers`` (by name) and the
        constraint residuals."""
        out = super().to_dict()
        out["multipliers"] = {n: self.lam[:, k].tolist() for k, n in enumerate(self.multipliers)}
        out["constraint_residual"] = self.constraint_residual.tolist()
        out["node_constraint"] = self.node_constraint.tolist()
        return out
