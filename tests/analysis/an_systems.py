"""Test systems written directly as PHS from their textbook equations (SI units).

Each docstring states the physical law the matrices encode, so that the transfer
functions asserted in the tests follow from circuit/mechanics theory, not from our code.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sps
import sympy as sp

from porthamiltonian import PHS


def series_rlc(R: float = 10.0, L: float = 0.1, C: float = 1e-3) -> PHS:
    """Voltage source V, R, L, C in series; states q (C charge), φ (L flux); output I.

    KVL: φ̇ = V − R i − q/C with i = φ/L; q̇ = i.  So Y(s) = I/V = 1/(Ls + R + 1/(Cs)).
    """
    return PHS(J=[[0, 1], [-1, 0]], R=[[0, 0], [0, R]], G=[[0], [1]],
               Q=np.diag([1 / C, 1 / L]), states=["q", "phi"], inputs=["V"], outputs=["I"])


def series_rlc_symbolic() -> PHS:
    """The series RLC with parameter symbols R, L, C (values 10 Ω, 0.1 H, 1 mF)."""
    q, phi = sp.symbols("q phi", real=True)
    R, L, C = sp.symbols("R L C", positive=True)
    return PHS(J=[[0, 1], [-1, 0]], R=[[0, 0], [0, R]], G=[[0], [1]],
               hamiltonian=q**2 / (2 * C) + phi**2 / (2 * L), states=["q", "phi"],
               inputs=["V"], outputs=["I"], parameters={"R": 10.0, "L": 0.1, "C": 1e-3})


def parallel_rlc(R: float = 50.0, L: float = 0.02, C: float = 2e-4) -> PHS:
    """Current source I into a node with R, L, C in parallel; states q (C), φ (L); output V.

    KCL: q̇ = I − V/R − i_L with V = q/C, i_L = φ/L; Faraday: φ̇ = V.
    So Z(s) = V/I = 1/(1/R + Cs + 1/(Ls)).
    """
    return PHS(J=[[0, -1], [1, 0]], R=[[1 / R, 0], [0, 0]], G=[[1], [0]],
               Q=np.diag([1 / C, 1 / L]), states=["q", "phi"], inputs=["I"], outputs=["V"])


def dc_motor(R: float = 1.2, L: float = 5e-3, k: float = 0.05, J: float = 2e-4,
             b: float = 1e-4) -> PHS:
    """Armature (R, L) and rotor (J, b) coupled by the gyrator k; inputs V and load torque.

    L di/dt = V − R i − k ω,  J dω/dt = k i − b ω + τ_load;  states λ = L i, p = J ω.
    Speed per voltage: ω/V = k / ((Ls + R)(Js + b) + k²).
    """
    return PHS(J=[[0, -k], [k, 0]], R=np.diag([R, b]), G=[[1, 0], [0, 1]],
               Q=np.diag([1 / L, 1 / J]), states=["lam", "p"], inputs=["V", "tau"],
               outputs=["i", "omega"])


def two_mass(m1: float = 1.0, m2: float = 0.5, k1: float = 100.0, k2: float = 40.0,
             c1: float = 0.8, c2: float = 0.3) -> PHS:
    """Wall–k1,c1–m1–k2,c2–m2; forces F1, F2 on the masses; outputs the velocities.

    Newton: m1 ẍ1 = F1 − k1 x1 − c1 ẋ1 − k2(x1 − x2) − c2(ẋ1 − ẋ2),
            m2 ẍ2 = F2 − k2(x2 − x1) − c2(ẋ2 − ẋ1).
    States q1 = x1, p1 = m1 ẋ1, q2 = x2 − x1, p2 = m2 ẋ2.
    """
    J = np.zeros((4, 4))
    J[0, 1], J[1, 2], J[2, 3] = 1.0, 1.0, 1.0
    J = J - J.T
    Rm = np.zeros((4, 4))
    Rm[np.ix_([1, 3], [1, 3])] = [[c1 + c2, -c2], [-c2, c2]]
    G = np.zeros((4, 2))
    G[1, 0] = G[3, 1] = 1.0
    return PHS(J=J, R=Rm, G=G, Q=np.diag([k1, 1 / m1, k2, 1 / m2]),
               states=["q1", "p1", "q2", "p2"], inputs=["F1", "F2"], outputs=["v1", "v2"])


def two_mass_impedance(s: np.ndarray, m1: float = 1.0, m2: float = 0.5, k1: float = 100.0,
                       k2: float = 40.0, c1: float = 0.8, c2: float = 0.3) -> np.ndarray:
    """Mechanical impedance matrix Z(s) with F = Z(s) v, from Newton's equations above."""
    s = np.asarray(s, dtype=complex)
    z12 = -(c2 + k2 / s)
    Z = np.empty(s.shape + (2, 2), dtype=complex)
    Z[..., 0, 0] = m1 * s + c1 + c2 + (k1 + k2) / s
    Z[..., 0, 1] = Z[..., 1, 0] = z12
    Z[..., 1, 1] = m2 * s + c2 + k2 / s
    return Z


def pendulum(m: float = 0.5, ell: float = 0.8, g: float = 9.81, c: float = 0.05) -> PHS:
    """Pendulum with viscous friction c; θ from the downward vertical, p = m ℓ² θ̇, torque τ.

    H = p²/(2mℓ²) + m g ℓ (1 − cos θ).  Linear about θ = 0: mℓ² θ̈ + c θ̇ + m g ℓ θ = τ.
    """
    th, p = sp.symbols("theta p", real=True)
    return PHS(J=[[0, 1], [-1, 0]], R=[[0, 0], [0, c]], G=[[0], [1]],
               hamiltonian=p**2 / (2 * m * ell**2) + m * g * ell * (1 - sp.cos(th)),
               states=["theta", "p"], inputs=["tau"], outputs=["omega"])


def sparse_chain(N: int, k: float = 50.0, m: float = 0.2, c: float = 0.05) -> PHS:
    """N masses joined by N springs (the first to a wall), each mass damped to ground."""
    n = 2 * N
    J = sps.lil_array((n, n))
    for i in range(N):          # states: q_i (spring i), p_i (mass i)
        J[2 * i, 2 * i + 1] = 1.0        # q̇_i = v_i − v_{i−1}
        if i > 0:
            J[2 * i, 2 * i - 1] = -1.0
    J = sps.csr_array(J)
    J = J - J.T
    R = sps.diags_array([0.0, c] * N).tocsr()
    Q = sps.diags_array([k, 1 / m] * N).tocsr()
    G = sps.csr_array(([1.0], ([n - 1], [0])), shape=(n, 1))
    return PHS(J=J, R=R, G=G, Q=Q, inputs=["F"], outputs=["v"])
