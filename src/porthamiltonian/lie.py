r"""The Lie groups SE(3), SE(2) and their algebras: twists, wrenches, exp/log, Ad, ad.

Conventions (Stramigioli, *Modeling and IPC Control of Interactive Mechanical
Systems*, 2001, ch. 2; Macchelli & Melchiorri, IFAC 2008, §2; Duindam et al. 2009, §3.2):

* a configuration is a homogeneous matrix :math:`H = \begin{bmatrix} R & p\\ 0 & 1\end{bmatrix}`
  (``H_j^i`` maps coordinates in frame j to frame i);
* a **twist** is ``T = (ω, v)`` — angular part first — with matrix form
  :math:`\tilde T = \begin{bmatrix}\tilde\omega & v\\ 0 & 0\end{bmatrix}`; the body twist of
  :math:`H(t)` is :math:`\tilde T = H^{-1}\dot H`, the spatial twist :math:`\dot H H^{-1}`;
* a **wrench** is ``W = (τ, f)`` (torque first), dual to twists: power :math:`\langle W,
  T\rangle = τ·ω + f·v` (W, i.e. N·m·rad/s and N·m/s);
* :math:`\mathrm{Ad}_H = \begin{bmatrix} R & 0\\ \tilde p R & R\end{bmatrix}` changes the frame
  of a twist, :math:`\mathrm{ad}_T = \begin{bmatrix}\tilde\omega & 0\\ \tilde v & \tilde\omega
  \end{bmatrix}` is the Lie bracket :math:`[T_1, T_2] = \mathrm{ad}_{T_1} T_2`;
* the co-adjoint maps act on wrenches as the transposes, :math:`\mathrm{Ad}^*_H =
  \mathrm{Ad}_H^\top` and :math:`\mathrm{ad}^*_T = \mathrm{ad}_T^\top`, so that
  :math:`\langle \mathrm{Ad}^*_H W, T\rangle = \langle W, \mathrm{Ad}_H T\rangle`.  A wrench
  ``W_j`` given in frame j reads :math:`W_i = \mathrm{Ad}^*_{H_i^j} W_j` in frame i.

SE(2) uses ``T = (ω, v_x, v_y)`` and ``W = (τ, f_x, f_y)`` in the same order.

``exp``/``log`` use closed forms with Taylor series of their coefficient functions
below a small angle (no 0/0), and the logarithm of a rotation goes through a unit
quaternion (Shepperd's method), which stays accurate up to and at the angle π.
No Euler angles are used anywhere.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .errors import ModelError

__all__ = [
    "hat", "vee", "exp_so3", "log_so3", "twist_hat", "twist_vee", "exp_se3", "log_se3",
    "homogeneous", "inverse", "Ad", "ad", "Ad_star", "ad_star",
    "rotation_angle", "frame_gap",
    "exp_se2", "log_se2", "Ad_se2", "ad_se2", "homogeneous2", "rotation_angle2",
]

_SMALL = 1e-4  # below this angle (rad) the coefficient functions use their Taylor series


def _vec(x: Any, n: int, what: str) -> np.ndarray:
    a = np.asarray(x, dtype=float)
    if a.shape != (n,):
        raise ModelError(f"{what} must be a vector of length {n}, got shape {a.shape}")
    return a


def _mat(x: Any, shape: tuple[int, int], what: str) -> np.ndarray:
    a = np.asarray(x, dtype=float)
    if a.shape != shape:
        raise ModelError(f"{what} must be a {shape[0]}×{shape[1]} matrix, got shape {a.shape}")
    return a


# ---------------------------------------------------------------------- so(3), SO(3)
def hat(w: Any) -> np.ndarray:
    """The skew matrix ``w̃`` with ``w̃ a = w × a``."""
    w = _vec(w, 3, "w")
    return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])


def vee(W: Any) -> np.ndarray:
    """Inverse of :func:`hat` (takes the skew part of ``W``)."""
    W = _mat(W, (3, 3), "W")
    return 0.5 * np.array([W[2, 1] - W[1, 2], W[0, 2] - W[2, 0], W[1, 0] - W[0, 1]])


def _coefficients(t: float) -> tuple[float, float, float]:
    """``a = sin t/t``, ``b = (1−cos t)/t²``, ``c = (t − sin t)/t³`` (series near 0)."""
    if t < _SMALL:
        t2 = t * t
        return 1 - t2 / 6 + t2 * t2 / 120, 0.5 - t2 / 24 + t2 * t2 / 720, 1 / 6 - t2 / 120
    return np.sin(t) / t, (1 - np.cos(t)) / t**2, (t - np.sin(t)) / t**3


def exp_so3(w: Any) -> np.ndarray:
    r"""Rodrigues: :math:`e^{\tilde w} = I + a\,\tilde w + b\,\tilde w^2`, θ = |w|."""
    w = _vec(w, 3, "w")
    a, b, _ = _coefficients(float(np.linalg.norm(w)))
    W = hat(w)
    return np.eye(3) + a * W + b * (W @ W)


def _quaternion(R: np.ndarray) -> np.ndarray:
    """Unit quaternion ``(q0, q1, q2, q3)``, ``q0 ≥ 0``, of a rotation (Shepperd 1978)."""
    tr = np.trace(R)
    d = np.array([tr, R[0, 0], R[1, 1], R[2, 2]])
    k = int(np.argmax(d))
    if k == 0:
        s = 2.0 * np.sqrt(1.0 + tr)
        q = np.array([s / 4, (R[2, 1] - R[1, 2]) / s, (R[0, 2] - R[2, 0]) / s,
                      (R[1, 0] - R[0, 1]) / s])
    else:
        i, j, m = k - 1, k % 3, (k + 1) % 3
        s = 2.0 * np.sqrt(max(1.0 + 2 * R[i, i] - tr, 0.0))
        q = np.empty(4)
        q[0] = (R[m, j] - R[j, m]) / s
        q[1 + i] = s / 4
        q[1 + j] = (R[j, i] + R[i, j]) / s
        q[1 + m] = (R[m, i] + R[i, m]) / s
    return q if q[0] >= 0 else -q


def log_so3(R: Any) -> np.ndarray:
    r"""The rotation vector ``w`` (|w| ≤ π) with :math:`e^{\tilde w} = R`.

    Via the quaternion: :math:`w = 2\,\mathrm{atan2}(|q_v|, q_0)\, q_v/|q_v|`, with the
    series :math:`2\arctan(s/q_0)/s = (2/q_0)(1 - s^2/3q_0^2 + s^4/5q_0^4)` for small ``s``.
    """
    R = _mat(R, (3, 3), "R")
    if not np.allclose(R.T @ R, np.eye(3), atol=1e-6) or np.linalg.det(R) < 0:
        raise ModelError("log_so3: R is not a rotation matrix (RᵀR ≠ I or det R < 0)")
    q = _quaternion(R)
    qv = q[1:]
    s = float(np.linalg.norm(qv))
    if s < _SMALL * q[0]:
        r2 = (s / q[0]) ** 2
        return (2.0 / q[0]) * (1 - r2 / 3 + r2 * r2 / 5) * qv
    return 2.0 * np.arctan2(s, q[0]) / s * qv


def rotation_angle(R: Any) -> np.ndarray:
    r"""The angle :math:`\theta \in [0, \pi]` of rotation matrices ``R`` (…, 3, 3):
    :math:`\mathrm{atan2}(|\mathrm{vee}(R - R^\top)|/2,\ (\mathrm{tr}\,R - 1)/2)`,
    accurate near 0 and π alike (vectorized; no check that ``R`` is a rotation)."""
    R = np.asarray(R, dtype=float)
    axial = np.stack([R[..., 2, 1] - R[..., 1, 2], R[..., 0, 2] - R[..., 2, 0],
                      R[..., 1, 0] - R[..., 0, 1]], axis=-1)
    return np.arctan2(0.5 * np.linalg.norm(axial, axis=-1),
                      0.5 * (np.trace(R, axis1=-2, axis2=-1) - 1.0))


def frame_gap(A: Any, B: Any) -> np.ndarray:
    """``(…, 2)``: the angle (rad) of the rotation between homogeneous frames ``A`` and
    ``B`` (…, 4, 4) and the distance (m) between their origins (vectorized)."""
    A, B = np.asarray(A, dtype=float), np.asarray(B, dtype=float)
    angle = rotation_angle(np.swapaxes(A[..., :3, :3], -1, -2) @ B[..., :3, :3])
    return np.stack([angle, np.linalg.norm(A[..., :3, 3] - B[..., :3, 3], axis=-1)], axis=-1)


# ---------------------------------------------------------------------- se(3), SE(3)
def twist_hat(T: Any) -> np.ndarray:
    """4×4 matrix form of a twist ``T = (ω, v)``."""
    T = _vec(T, 6, "twist")
    out = np.zeros((4, 4))
    out[:3, :3] = hat(T[:3])
    out[:3, 3] = T[3:]
    return out


def twist_vee(X: Any) -> np.ndarray:
    """Inverse of :func:`twist_hat`."""
    X = _mat(X, (4, 4), "twist matrix")
    return np.concatenate([vee(X[:3, :3]), X[:3, 3]])


def homogeneous(R: Any = None, p: Any = None) -> np.ndarray:
    """``[[R, p], [0, 1]]`` (identity rotation / zero translation when omitted)."""
    H = np.eye(4)
    if R is not None:
        H[:3, :3] = _mat(R, (3, 3), "R")
    if p is not None:
        H[:3, 3] = _vec(p, 3, "p")
    return H


def inverse(H: Any) -> np.ndarray:
    """``H⁻¹ = [[Rᵀ, −Rᵀp], [0, 1]]`` (exact, no matrix inversion); SE(2) or SE(3)."""
    H = np.asarray(H, dtype=float)
    d = H.shape[0] - 1
    out = np.eye(d + 1)
    out[:d, :d] = H[:d, :d].T
    out[:d, d] = -H[:d, :d].T @ H[:d, d]
    return out


def exp_se3(T: Any) -> np.ndarray:
    r""":math:`e^{\tilde T} = \begin{bmatrix} e^{\tilde\omega} & V v\\ 0 & 1\end{bmatrix}`,
    :math:`V = I + b\,\tilde\omega + c\,\tilde\omega^2` (Murray, Li & Sastry 1994, §2.3)."""
    T = _vec(T, 6, "twist")
    w, v = T[:3], T[3:]
    a, b, c = _coefficients(float(np.linalg.norm(w)))
    W = hat(w)
    W2 = W @ W
    return homogeneous(np.eye(3) + a * W + b * W2, (np.eye(3) + b * W + c * W2) @ v)


def log_se3(H: Any) -> np.ndarray:
    r"""The twist ``T`` (|ω| ≤ π) with :math:`e^{\tilde T} = H`:
    :math:`v = V^{-1}p`, :math:`V^{-1} = I - \tilde\omega/2 + d\,\tilde\omega^2`,
    :math:`d = (1 - (θ/2)\cot(θ/2))/θ^2` (series :math:`1/12 + θ^2/720 + θ^4/30240`)."""
    H = _mat(H, (4, 4), "H")
    w = log_so3(H[:3, :3])
    t = float(np.linalg.norm(w))
    if t < _SMALL:
        t2 = t * t
        d = 1 / 12 + t2 / 720 + t2 * t2 / 30240
    else:
        d = (1 - 0.5 * t / np.tan(0.5 * t)) / t**2
    W = hat(w)
    return np.concatenate([w, (np.eye(3) - 0.5 * W + d * (W @ W)) @ H[:3, 3]])


def Ad(H: Any) -> np.ndarray:
    """Adjoint ``Ad_H = [[R, 0], [p̃R, R]]``: ``Ad_H T`` is the twist ``H T̃ H⁻¹``."""
    H = _mat(H, (4, 4), "H")
    R, p = H[:3, :3], H[:3, 3]
    out = np.zeros((6, 6))
    out[:3, :3] = R
    out[3:, 3:] = R
    out[3:, :3] = hat(p) @ R
    return out


def ad(T: Any) -> np.ndarray:
    """``ad_T = [[ω̃, 0], [ṽ, ω̃]]``: ``ad_{T1} T2`` is the bracket ``[T̃1, T̃2]``."""
    T = _vec(T, 6, "twist")
    W, V = hat(T[:3]), hat(T[3:])
    return np.block([[W, np.zeros((3, 3))], [V, W]])


def Ad_star(H: Any) -> np.ndarray:
    """Co-adjoint map on wrenches, ``Ad*_H = Ad_Hᵀ`` (SE(3) or SE(2))."""
    H = np.asarray(H, dtype=float)
    return (Ad(H) if H.shape == (4, 4) else Ad_se2(H)).T


def ad_star(T: Any) -> np.ndarray:
    """``ad*_T = ad_Tᵀ``; the Euler equations of a free body read ``Ṗ = ad*_T P``."""
    T = np.asarray(T, dtype=float)
    return (ad(T) if T.shape == (6,) else ad_se2(T)).T


# ---------------------------------------------------------------------- SE(2)
_J2 = np.array([[0.0, -1.0], [1.0, 0.0]])


def homogeneous2(theta: float = 0.0, p: Any = None) -> np.ndarray:
    """Planar pose ``[[R(θ), p], [0, 1]]``."""
    c, s = np.cos(theta), np.sin(theta)
    H = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])
    if p is not None:
        H[:2, 2] = _vec(p, 2, "p")
    return H


def rotation_angle2(H: Any) -> float:
    """The angle θ ∈ (−π, π] of a planar pose or 2×2 rotation."""
    H = np.asarray(H, dtype=float)
    return float(np.arctan2(H[1, 0], H[0, 0]))


def _v2(t: float) -> np.ndarray:
    """``V(θ) = a I + b θ J`` with ``a = sin θ/θ``, ``b = (1 − cos θ)/θ²``."""
    a, b, _ = _coefficients(abs(t))
    return a * np.eye(2) + b * t * _J2


def exp_se2(T: Any) -> np.ndarray:
    """Exponential of a planar twist ``(ω, v_x, v_y)``: rotation ω, translation ``V(ω) v``."""
    T = _vec(T, 3, "planar twist")
    H = homogeneous2(T[0])
    H[:2, 2] = _v2(T[0]) @ T[1:]
    return H


def log_se2(H: Any) -> np.ndarray:
    """Inverse of :func:`exp_se2` with ω ∈ (−π, π]."""
    H = _mat(H, (3, 3), "H")
    t = rotation_angle2(H)
    return np.concatenate([[t], np.linalg.solve(_v2(t), H[:2, 2])])


def Ad_se2(H: Any) -> np.ndarray:
    """``Ad_H = [[1, 0], [−J p, R]]`` (``J`` the rotation by +π/2)."""
    H = _mat(H, (3, 3), "H")
    out = np.zeros((3, 3))
    out[0, 0] = 1.0
    out[1:, 0] = -_J2 @ H[:2, 2]
    out[1:, 1:] = H[:2, :2]
    return out


def ad_se2(T: Any) -> np.ndarray:
    """``ad_T = [[0, 0], [−J v, ω J]]``."""
    T = _vec(T, 3, "planar twist")
    out = np.zeros((3, 3))
    out[1:, 0] = -_J2 @ T[1:]
    out[1:, 1:] = T[0] * _J2
    return out
