r"""Simulate a plant with a port-Hamiltonian controller connected by ports.

The controller is itself a PHS; the two are joined by the power-conserving feedback
interconnection :math:`u_1 = -y_2`, :math:`u_2 = y_1` on the paired ports
(:func:`porthamiltonian.feedback`; van der Schaft & Jeltsema, *Port-Hamiltonian Systems
Theory: An Introductory Overview*, 2014, §4.1 and §15 on control by interconnection),
so the closed loop is again a PHS with :math:`H = H_{\mathrm{plant}} + H_{\mathrm{ctrl}}`
and its power balance is kept by the same integrators.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import ModelError
from .run import simulate

__all__ = ["simulate_feedback"]


def simulate_feedback(
    plant: Any,
    controller: Any,
    pairs: Sequence[tuple[str, str]],
    t_span: Sequence[float],
    x0: Any = None,
    x0_controller: Any = None,
    **kwargs: Any,
) -> Any:
    """Interconnect ``plant`` and ``controller`` by :func:`porthamiltonian.feedback` on
    ``pairs`` and simulate the closed loop (all :func:`simulate` keywords apply).

    ``x0`` is the plant's initial state (array, or dict by state name — a dict may also
    name controller states); ``x0_controller`` the controller's (default zero).  The
    result has the states of both (plant first) and the unpaired ports as inputs and
    outputs.
    """
    from ..interconnection import feedback

    closed = feedback(plant, controller, pairs)
    x_init = _stack(x0, x0_controller, list(plant.states), list(controller.states))
    return simulate(closed, t_span, x_init, **kwargs)


def _stack(x0: Any, xc: Any, plant: list[str], ctrl: list[str]) -> Any:
    if isinstance(x0, Mapping) or x0 is None:
        out = dict(x0 or {})
        if xc is not None:
            if not isinstance(xc, Mapping):
                xc = dict(zip(ctrl, np.asarray(xc, dtype=float).ravel(), strict=False))
            out.update(xc)
        return out
    xp = np.asarray(x0, dtype=float).ravel()
    if xp.size != len(plant):
        raise ModelError(f"x0 has {xp.size} values but the plant has {len(plant)} states "
                         f"({', '.join(plant[:10])})")
    xcv = np.zeros(len(ctrl)) if xc is None else np.asarray(
        [xc.get(s, 0.0) for s in ctrl] if isinstance(xc, Mapping) else xc, dtype=float).ravel()
    if xcv.size != len(ctrl):
        raise ModelError(f"x0_controller has {xcv.size} values but the controller has "
                         f"{len(ctrl)} states ({', '.join(ctrl[:10])})")
    return np.concatenate([xp, xcv])
