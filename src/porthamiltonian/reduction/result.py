"""The result of a reduction: the reduced model, its bases, errors and details."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ModelError
from ..phs import PHS

__all__ = ["Reduction", "check_order"]


@dataclass(frozen=True)
class Reduction:
    """A reduced model and how it was obtained.

    Attributes
    ----------
    system:
        The reduced model, a library :class:`PHS` (pH by construction, checked).
    V, W:
        Projection bases where the method has them, in the coordinates of the standard
        form (``E x`` for a descriptor system): :math:`x \\approx Vx_r`,
        :math:`x_r = W^\\top x`; ``None`` otherwise.
    method, order, n_full:
        The method used, the reduced and the full number of states.
    h2_error, hinf_error:
        :math:`\\|G - G_r\\|` in H2 and H∞ (linear methods, unless ``errors=False``).
    error_bound:
        An a-priori H∞ bound where the method has one (PRBT).
    info:
        Method details: iterations and shifts (IRKA), characteristic values (PRBT),
        states removed as invisible at the ports, time taken.
    """

    system: PHS
    V: np.ndarray | None
    W: np.ndarray | None
    method: str
    order: int
    n_full: int
    h2_error: float | None = None
    hinf_error: float | None = None
    error_bound: float | None = None
    info: dict[str, Any] = field(default_factory=dict, compare=False)

    def to_reduced(self, x: Any) -> np.ndarray:
        """:math:`x_r = W^\\top x` (a full state, or states as rows), e.g. an initial state."""
        if self.W is None:
            raise ModelError(f"method {self.method!r} has no projection basis W")
        return np.asarray(x, dtype=float) @ self.W

    def to_full(self, xr: Any) -> np.ndarray:
        """:math:`x \\approx V x_r` (a reduced state, or states as rows)."""
        if self.V is None:
            raise ModelError(f"method {self.method!r} has no projection basis V")
        return np.asarray(xr, dtype=float) @ self.V.T

    def summary(self) -> str:
        """Several lines: method, sizes, errors, and the method's details."""
        lines = [f"{self.method}: {self.n_full} → {self.order} states"]
        if "n_minimal" in self.info:
            lines.append(f"  minimal realization: {self.info['n_minimal']} states")
        for label, val in (("H2 error", self.h2_error), ("H∞ error", self.hinf_error),
                           ("H∞ error bound", self.error_bound)):
            if val is not None:
                lines.append(f"  {label}: {val:.4g}")
        if "iterations" in self.info:
            lines.append(f"  iterations: {self.info['iterations']} (converged: "
                         f"{self.info['converged']})")
        if "errors" in self.info:
            lines.append(f"  errors not computed: {self.info['errors']}")
        return "\n".join(lines)

    def __repr__(self) -> str:
        err = ""
        if self.h2_error is not None:
            err += f", H2 error {self.h2_error:.3g}"
        if self.hinf_error is not None:
            err += f", H∞ error {self.hinf_error:.3g}"
        return f"Reduction({self.method}: {self.n_full} → {self.order} states{err})"


def check_order(order: Any, n: int, what: str = "the system") -> int:
    """``order`` as an int in ``1 … n-1``, or a ModelError saying what to choose."""
    if isinstance(order, bool) or not isinstance(order, (int, np.integer)):
        raise ModelError(f"order must be a whole number of states, got {order!r}")
    order = int(order)
    if order < 1:
        raise ModelError(f"order={order}: a reduced model needs at least 1 state")
    if order >= n:
        raise ModelError(f"order={order} is not below the {n} states of {what}; choose "
                         f"1 ≤ order < {n}")
    return order
