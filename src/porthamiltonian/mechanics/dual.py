r"""Batched 3-vectors built from the poses of joint ends, with their exact derivatives.

The columns of a mechanism's constraint matrix ``B(x)`` and input matrix ``G(x)`` are
body wrenches built from the two poses ``(p₁, R₁), (p₂, R₂)`` of a joint's parent and
child by a few operations: affine features :math:`X = s_1p_1 + R_1a_1 + s_2p_2 + R_2a_2
+ c` (:class:`~.joints.Feature`), :math:`R_i^\top X` and cross products.  Newton's
method needs their derivatives with respect to the 24 raw pose entries
``y = (p₁, R₁[row-major], p₂, R₂[row-major])`` — *not* on the manifold: the midpoint
:math:`\bar x` of two orthonormal ``R`` is not orthonormal, and the step equations are
posed in the embedding :math:`\mathbb R^{12}` of each pose.

:class:`Vec` carries, for ``k`` rows at once, the value ``v`` (k × 3) and the Jacobian
``d = ∂v/∂y`` (k × 3 × 24) — forward-mode differentiation by hand, all in NumPy
(no SymPy: a chain of 100 bodies is evaluated in a few vectorized operations).  A side
whose body is ``ground`` has a constant pose (0, I) and no derivative (``live = 0``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Ends", "Vec", "feature", "rt", "cross", "cross_rows"]

_I3 = np.arange(3)


@dataclass
class Ends:
    """The poses of the two ends of ``k`` rows: ``p`` (k × 2 × 3), ``R`` (k × 2 × 3 × 3)
    and ``live`` (k × 2; 1.0 where the end is a body, 0.0 for ground)."""

    p: np.ndarray
    R: np.ndarray
    live: np.ndarray


@dataclass
class Vec:
    """Values ``v`` (k × 3) and their Jacobians ``d`` (k × 3 × 24) in ``y`` (``None``:
    values only — the step residual needs no derivatives)."""

    v: np.ndarray
    d: np.ndarray | None

    def __add__(self, other: Vec) -> Vec:
        return Vec(self.v + other.v, None if self.d is None else self.d + other.d)

    def __neg__(self) -> Vec:
        return Vec(-self.v, None if self.d is None else -self.d)

    def scale(self, s: np.ndarray) -> Vec:
        """Row-wise product with constants ``s`` (k,)."""
        return Vec(self.v * s[:, None], None if self.d is None else self.d * s[:, None, None])


def feature(E: Ends, s: np.ndarray, a: np.ndarray, c: np.ndarray, deriv: bool = True
            ) -> Vec:
    """:math:`X = \\sum_i (s_i p_i + R_i a_i) + c` with ``s`` (k × 2), ``a`` (k × 2 × 3),
    ``c`` (k × 3): ``∂X/∂p_i = s_i I``, ``∂X_j/∂(R_i)_{jl} = (a_i)_l``."""
    k = s.shape[0]
    v = c + (s[:, :, None] * E.p).sum(axis=1) + (E.R @ a[..., None])[..., 0].sum(axis=1)
    if not deriv:
        return Vec(v, None)
    d = np.zeros((k, 3, 24))
    for side in (0, 1):
        o = 12 * side
        d[:, _I3, o + _I3] = (s[:, side] * E.live[:, side])[:, None]
        for j in range(3):
            d[:, j, o + 3 + 3 * j:o + 6 + 3 * j] = a[:, side] * E.live[:, side, None]
    return Vec(v, d)


def rt(E: Ends, side: int, X: Vec) -> Vec:
    """:math:`R_i^\\top X` (``i = side``): ``∂/∂(R_i)_{jl} (R_i^\\top X)_l = X_j``."""
    Rt = E.R[:, side].transpose(0, 2, 1)
    v = (Rt @ X.v[..., None])[..., 0]
    if X.d is None:
        return Vec(v, None)
    d = Rt @ X.d
    o = 12 * side + 3
    w = E.live[:, side, None]
    for j in range(3):
        d[:, _I3, o + 3 * j + _I3] += X.v[:, j, None] * w
    return Vec(v, d)


def _hat(a: np.ndarray) -> np.ndarray:
    out = np.zeros(a.shape[:-1] + (3, 3))
    out[..., 0, 1], out[..., 0, 2] = -a[..., 2], a[..., 1]
    out[..., 1, 0], out[..., 1, 2] = a[..., 2], -a[..., 0]
    out[..., 2, 0], out[..., 2, 1] = -a[..., 1], a[..., 0]
    return out


def cross_rows(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise ``a × b`` (k × 3; cheaper than ``numpy.cross`` for small k)."""
    out = np.empty(np.broadcast_shapes(a.shape, b.shape))
    out[..., 0] = a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1]
    out[..., 1] = a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2]
    out[..., 2] = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    return out


def cross(a: np.ndarray | Vec, X: Vec) -> Vec:
    """``a × X`` for constant rows ``a`` (k × 3) or a :class:`Vec` ``a``
    (:math:`d(a\\times X) = \\tilde a\\,dX - \\tilde X\\,da`)."""
    if isinstance(a, Vec):
        return Vec(cross_rows(a.v, X.v),
                   None if X.d is None else _hat(a.v) @ X.d - _hat(X.v) @ a.d)
    return Vec(cross_rows(a, X.v), None if X.d is None else _hat(a) @ X.d)
