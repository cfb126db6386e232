"""Conversion to the state-space objects of SciPy and python-control.

Both carry the deviation model :math:`(A, B, C, D)` of :func:`.linear_system` (dense).
python-control keeps the state, input and output names; the SciPy object has no names,
so they are attached as ``state_names``, ``input_names`` and ``output_names``.
python-control is an optional extra: ``pip install 'porthamiltonian[control]'``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ModelError
from .linear import linear_system
from .selection import Selector


def to_scipy(system: Any, inputs: Selector = None, outputs: Selector = None, *,
             x0: Any = None, u0: Any = None) -> Any:
    """A continuous-time :class:`scipy.signal.StateSpace` of ``system``."""
    import scipy.signal as ssig  # imported here: it is slow to import and rarely needed

    lin = linear_system(system, x0, u0).select(inputs, outputs)
    ss = ssig.StateSpace(lin.dense_A(), lin.B, lin.C, lin.D)
    ss.state_names = list(lin.states)
    ss.input_names = list(lin.inputs)
    ss.output_names = list(lin.outputs)
    return ss


def to_control(system: Any, inputs: Selector = None, outputs: Selector = None, *,
               x0: Any = None, u0: Any = None) -> Any:
    """A python-control ``StateSpace`` with the state, input and output names.

    Raises :class:`ModelError` when python-control is not installed.
    """
    try:
        import control
    except ImportError as exc:
        raise ModelError(
            "to_control needs python-control, an optional extra: "
            "pip install 'porthamiltonian[control]' (or pip install control)"
        ) from exc
    lin = linear_system(system, x0, u0).select(inputs, outputs)
    name = getattr(system, "name", "") or None
    kw: dict[str, Any] = {"name": name} if name else {}
    return control.ss(lin.dense_A(), np.asarray(lin.B), np.asarray(lin.C), np.asarray(lin.D),
                      states=list(lin.states), inputs=list(lin.inputs),
                      outputs=list(lin.outputs), **kw)
