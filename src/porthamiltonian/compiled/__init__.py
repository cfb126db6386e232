"""Compiled numeric forms of the IR: what the back-ends evaluate.

- :mod:`.numeric` — :class:`NumericPHS` (energy, gradient, Hessian, structure matrices,
  ``ẋ``, ``y``, Jacobians of an explicit PHS) and :class:`PowerBalance`;
- :mod:`.descriptor` — :class:`~.descriptor.CompiledDescriptor`, the same for a
  descriptor PHS (efforts, constraint maps and their derivatives);
- :mod:`.affine` — :class:`~.affine.AffineMatrix`, structure matrices affine in the state;
- :mod:`.protocol` — the contracts (:class:`~.protocol.CompiledODE`,
  :class:`~.protocol.CompiledDAE`) every compiled system honours, whichever front-end
  built it; the simulator relies on nothing else.

Nothing here calls SymPy while evaluating; models build these once
(``model.compile()``) and cache them (models are immutable, so the cache is never stale).
"""

from __future__ import annotations

from .numeric import NumericPHS, PowerBalance, SymbolicSource

__all__ = ["NumericPHS", "PowerBalance", "SymbolicSource"]
