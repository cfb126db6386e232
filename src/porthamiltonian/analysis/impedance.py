r"""Driving-point impedance and admittance of a port.

A port carries an effort :math:`e` (voltage, force, torque, pressure) and a flow
:math:`f` (current, velocity, angular velocity, volume flow); its input :math:`u` and
conjugate output :math:`y` are these two, with :math:`uy = ef` the power into the
system (docs/design.md).  Which one is the input decides what the port's transfer
function :math:`y(s)/u(s)` is:

* the input is the flow (a current/velocity source drives the port):
  :math:`y/u = e/f = Z(s)`, the **impedance**;
* the input is the effort (a voltage/force source):
  :math:`y/u = f/e = Y(s)`, the **admittance**.

The other one is its (pointwise matrix) inverse, :math:`Z = Y^{-1}`.  All other
inputs are held at zero: effort sources short-circuited, flow sources open.
A passive port has a positive-real :math:`Z` and :math:`Y` (:mod:`.passivity`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from ..descriptor import DescriptorPHS
from ..errors import ModelError
from ..naming import resolve
from ..phs import PHS
from .linear import linear_system
from .transfer import TransferFunction, transfer_function

_KINDS = ("effort", "flow")


class PortFunction:
    """Impedance or admittance of one port, callable at complex ``s``.

    ``Z(s)`` (or ``Y(s)``) has shape ``s.shape + (k, k)`` for a k-dimensional port,
    ``s.shape`` for a scalar one.  ``kind`` is ``"impedance"`` or ``"admittance"``;
    ``inverted`` says it is the inverse of the port's ``y/u``.
    """

    def __init__(self, system: Any, inputs: list[str], outputs: list[str], kind: str,
                 inverted: bool, x0: Any = None, u0: Any = None) -> None:
        self.system = system
        self.port = tuple(inputs)
        self.outputs = tuple(outputs)
        self.kind = kind
        self.inverted = inverted
        self._op = (x0, u0)
        self._tf: TransferFunction | None = None

    @property
    def transfer(self) -> TransferFunction:
        """The port's own transfer function ``y/u`` (built on first use)."""
        if self._tf is None:
            x0, u0 = self._op
            self._tf = transfer_function(self.system, list(self.port), list(self.outputs),
                                         x0=x0, u0=u0)
        return self._tf

    def __call__(self, s: Any) -> np.ndarray:
        G = self.transfer(s)
        if self.inverted:
            with np.errstate(divide="ignore", invalid="ignore"):
                G = np.linalg.inv(G) if G.shape[-1] > 1 else 1.0 / G
        return G[..., 0, 0] if G.shape[-1] == 1 else G

    def symbolic(self) -> sp.Expr | sp.Matrix:
        """The rational function of ``s`` (a matrix for a multi-dimensional port).

        For a symbolic PHS the parameters stay symbols and need no values.
        """
        x0, u0 = self._op
        G = transfer_function(self.system, list(self.port), list(self.outputs),
                              symbolic=True, x0=x0, u0=u0)
        if self.inverted:
            G = G.inv().applyfunc(lambda e: sp.factor(sp.cancel(e)))
        return G[0, 0] if G.shape == (1, 1) else G

    def __repr__(self) -> str:
        return f"<{self.kind} of port {', '.join(self.port)}>"


def impedance(system: Any, port: str, input_is: str | None = None, *, x0: Any = None,
              u0: Any = None) -> PortFunction:
    """Impedance :math:`Z(s) = e/f` of ``port`` (an input name or a port's base name).

    ``input_is`` says whether the port's input is its ``"effort"`` or its ``"flow"``;
    it defaults to ``system.port_kinds[port]`` when the system records it.
    """
    return _port_function(system, port, input_is, "impedance", x0, u0)


def admittance(system: Any, port: str, input_is: str | None = None, *, x0: Any = None,
               u0: Any = None) -> PortFunction:
    """Admittance :math:`Y(s) = f/e` of ``port``; see :func:`impedance`."""
    return _port_function(system, port, input_is, "admittance", x0, u0)


def _port_function(system: Any, port: str, input_is: str | None, want: str, x0: Any,
                   u0: Any) -> PortFunction:
    kind = input_is if input_is is not None else getattr(system, "port_kinds", {}).get(port)
    if kind is None:
        raise ModelError(
            f"port {port!r}: say whether its input is its effort or its flow — "
            "input_is='effort' (a voltage/force source drives it) or input_is='flow' "
            "(a current/velocity source)"
        )
    if kind not in _KINDS:
        raise ModelError(f"port {port!r}: input_is must be 'effort' or 'flow', not {kind!r}")
    if isinstance(system, (PHS, DescriptorPHS)):
        inputs, outputs = list(system.inputs), list(system.outputs)
    else:
        lin = linear_system(system, x0, u0)
        inputs, outputs = list(lin.inputs), list(lin.outputs)
    # the port's conjugate outputs are those at the same positions as its inputs
    cols = resolve(port, inputs, "input")
    native = "admittance" if kind == "effort" else "impedance"
    return PortFunction(system, [inputs[c] for c in cols], [outputs[c] for c in cols], want,
                        inverted=want != native, x0=x0, u0=u0)
