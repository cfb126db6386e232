"""Small test systems with known solutions (SI units, m = 1 kg unless stated)."""

from __future__ import annotations

import numpy as np
import sympy as sp
from scipy.special import ellipj, ellipk

from porthamiltonian import PHS

q, p = sp.symbols("q p", real=True)


def oscillator(k: float = 1.0, m: float = 1.0, c: float = 0.0) -> PHS:
    """Mass-spring-damper: x = (q, p), H = k q²/2 + p²/(2m), damping c on p, force input F."""
    return PHS(J=[[0, 1], [-1, 0]], R=[[0, 0], [0, c]], G=[[0], [1]],
               Q=[[k, 0], [0, 1.0 / m]], states=["q", "p"], inputs=["F"], outputs=["v"])


def lc_chain(cells: int) -> PHS:
    """Lossless LC ladder, unit L and C: states (q_1, φ_1, ..., q_N, φ_N), no ports."""
    n = 2 * cells
    J = np.zeros((n, n))
    for i in range(n - 1):
        J[i, i + 1], J[i + 1, i] = 1.0, -1.0
    return PHS(J=J, Q=np.eye(n), states=[f"x{i}" for i in range(n)])


def pendulum() -> PHS:
    """Pendulum, ω0 = 1 rad/s: H = p²/2 + 1 − cos q (J)."""
    return PHS(J=[[0, 1], [-1, 0]], hamiltonian=p**2 / 2 + 1 - sp.cos(q), states=["q", "p"])


def duffing(c: float = 0.3) -> PHS:
    """Forced, damped hardening spring: H = q²/2 + q⁴/4 + p²/2, damping c, force F."""
    return PHS(J=[[0, 1], [-1, 0]], R=[[0, 0], [0, c]], G=[[0], [1]],
               hamiltonian=q**2 / 2 + q**4 / 4 + p**2 / 2, states=["q", "p"], inputs=["F"])


def damped_solution(t: np.ndarray, k: float, c: float) -> np.ndarray:
    """Closed form of q̈ + c q̇ + k q = 0 (m = 1), q(0) = 1, q̇(0) = 0: columns (q, p)."""
    g = c / 2.0
    wd = np.sqrt(k - g * g)
    e = np.exp(-g * t)
    qs = e * (np.cos(wd * t) + g / wd * np.sin(wd * t))
    ps = -(k / wd) * e * np.sin(wd * t)
    return np.column_stack([qs, ps])


def pendulum_solution(t: np.ndarray, q0: float) -> np.ndarray:
    """Exact pendulum from rest at q0: sin(q/2) = k sn(K − t | k²), k = sin(q0/2)."""
    kk = np.sin(q0 / 2.0)
    m = kk * kk
    sn, cn, dn, _ = ellipj(ellipk(m) - t, m)
    qs = 2.0 * np.arcsin(kk * sn)
    ps = -2.0 * kk * cn  # q̇ = 2 k cn·dn·(−1) / cos(q/2), and cos(q/2) = dn
    return np.column_stack([qs, ps])
