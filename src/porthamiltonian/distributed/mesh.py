"""One-dimensional meshes: the element end points :math:`0 = s_0 < s_1 < … < s_N = L`."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..errors import ModelError

__all__ = ["Mesh", "make_mesh", "check_degree"]


@dataclass(frozen=True)
class Mesh:
    """Element end points ``nodes`` (m), strictly increasing, at least one element."""

    nodes: np.ndarray

    @property
    def elements(self) -> int:
        return self.nodes.size - 1

    @property
    def length(self) -> float:
        return float(self.nodes[-1] - self.nodes[0])

    @property
    def sizes(self) -> np.ndarray:
        """Element lengths ``h_e`` (m)."""
        return np.diff(self.nodes)


def make_mesh(length: float, elements: int | Sequence[float] | np.ndarray) -> Mesh:
    """A mesh of ``[0, length]``: ``elements`` equal elements, or the given end points.

    Raises :class:`ModelError` for a non-positive length, fewer than one element, or
    end points that are not strictly increasing from 0 to ``length``.
    """
    try:
        L = float(length)
    except (TypeError, ValueError):
        raise ModelError(f"length must be a number of metres, got {length!r}") from None
    if not (np.isfinite(L) and L > 0):
        raise ModelError(f"length must be positive and finite, got {length!r}")
    if np.ndim(elements) == 0:
        if isinstance(elements, bool) or int(elements) != elements or int(elements) < 1:
            raise ModelError(f"elements must be a positive integer, got {elements!r}")
        return Mesh(np.linspace(0.0, L, int(elements) + 1))
    nodes = np.asarray(elements, dtype=float)
    if nodes.ndim != 1 or nodes.size < 2:
        raise ModelError("elements given as end points needs at least two values [0, …, L]")
    if not np.all(np.isfinite(nodes)) or np.any(np.diff(nodes) <= 0):
        raise ModelError("the element end points must be finite and strictly increasing")
    if abs(nodes[0]) > 1e-12 * L or abs(nodes[-1] - L) > 1e-12 * L:
        raise ModelError(
            f"the element end points must run from 0 to length = {L:g}; got "
            f"{nodes[0]:g} … {nodes[-1]:g}"
        )
    return Mesh(nodes)


def check_degree(degree: int, model: str) -> None:
    """ModelError unless ``degree`` is an integer from 1 to 10."""
    integer = isinstance(degree, (int, np.integer)) and not isinstance(degree, bool)
    if not integer or not 1 <= degree <= 10:
        raise ModelError(f"{model}: degree must be an integer from 1 to 10, got {degree!r}")
