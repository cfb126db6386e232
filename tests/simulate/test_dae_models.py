"""Descriptor (DAE) test systems with independent references, and checks of the
models themselves against equations derived by hand (Newton's and Kirchhoff's laws)."""

from __future__ import annotations

import numpy as np
import sympy as sp

from porthamiltonian.descriptor import DescriptorPHS

qx, qy, px, py = sp.symbols("qx qy px py", real=True)


def cartesian_pendulum(m: float = 1.0, g: float = 9.81, length: float = 1.0) -> DescriptorPHS:
    """Planar pendulum in Cartesian coordinates x = (qx, qy, px, py) (m, kg m/s).

    H = |p|²/(2m) + m g qy; the rod force acts along q: ṗ = −∇_q H + q λ (so the rod
    tension is −λ ℓ).  The constraint Bᵀz = qᵀp/m = 0 is the velocity form of
    |q| = ℓ (index-reduced); ``length`` only enters through x0.
    """
    del length
    J = sp.Matrix([[0, 0, 1, 0], [0, 0, 0, 1], [-1, 0, 0, 0], [0, -1, 0, 0]])
    return DescriptorPHS(J=J, B=sp.Matrix([0, 0, qx, qy]),
                         hamiltonian=(px**2 + py**2) / (2 * m) + m * g * qy,
                         states=["qx", "qy", "px", "py"], multipliers=["rod"])


def pendulum_x0(theta0: float, omega0: float = 0.0, m: float = 1.0,
                length: float = 1.0) -> np.ndarray:
    """Consistent state for angle θ0 from the downward vertical and rate ω0."""
    s, c = np.sin(theta0), np.cos(theta0)
    return np.array([length * s, -length * c, m * length * omega0 * c,
                     m * length * omega0 * s])


def parallel_capacitors(C1: float, C2: float, R_load: float, nonlinear: float = 0.0
                        ) -> DescriptorPHS:
    """Two capacitors kept in parallel by a constraint, a current source u into C1 and a
    load resistor R_load across C2.  x = (q1, q2) (C); z = (v1, v2) (V); the multiplier
    is the current from C2 into C1 (A).  ``nonlinear`` adds k q1⁴/4 to H."""
    q1, q2 = sp.symbols("q1 q2", real=True)
    H = q1**2 / (2 * C1) + q2**2 / (2 * C2) + sp.Float(nonlinear) * q1**4 / 4
    return DescriptorPHS(R=sp.diag(0, 1 / sp.Float(R_load)), G=sp.Matrix([1, 0]),
                         B=sp.Matrix([1, -1]), hamiltonian=H, states=["q1", "q2"],
                         inputs=["i"], outputs=["v"], multipliers=["link"])


def parallel_capacitors_numeric(C1: float, C2: float, R_load: float,
                                sparse: bool = False) -> DescriptorPHS:
    """The same linear system with numeric matrices (dense or SciPy sparse)."""
    import scipy.sparse as sps

    Q = np.diag([1 / C1, 1 / C2])
    R = np.diag([0.0, 1 / R_load])
    J = np.zeros((2, 2))
    if sparse:
        Q, R, J = sps.csr_array(Q), sps.csr_array(R), sps.csr_array(J)
    return DescriptorPHS(J=J, R=R, G=[[1.0], [0.0]], B=[[1.0], [-1.0]], Q=Q,
                         states=["q1", "q2"], inputs=["i"], outputs=["v"],
                         multipliers=["link"])


def rc_with_algebraic_node(R1: float, R2: float, C: float) -> DescriptorPHS:
    """Voltage source u — R1 — node a — R2 — capacitor C to ground.  The node has no
    storage: x = (q, v_a) with E = diag(1, 0), z = (q/C, v_a); the second row is
    Kirchhoff's current law at a, 0 = (u − v_a)/R1 − (v_a − v_C)/R2.  The port output
    is the source current (u − v_a)/R1 (G = 0, P = [0, −1/R1]ᵀ, S = 1/R1)."""
    g1, g2 = 1 / R1, 1 / R2
    R = np.array([[g2, -g2], [-g2, g1 + g2]])
    return DescriptorPHS(E=np.diag([1.0, 0.0]), J=np.zeros((2, 2)), R=R, G=[[0.0], [0.0]],
                         P=[[0.0], [-g1]], S=[[g1]], Q=np.diag([1 / C, 1.0]),
                         states=["q", "va"], inputs=["u"], outputs=["i"])


# --------------------------------------------------------------------------- model checks
def test_pendulum_residual_is_newtons_law_with_a_rod_force():
    """E ẋ − f = 0 with the hand-written m q̈ = −m g e_y + λ q, and Bᵀz = q·v."""
    m, g = 2.0, 9.81
    d = cartesian_pendulum(m, g)
    x = np.array([0.6, -0.8, 0.3, 0.2])
    lam = np.array([-7.0])
    v = x[2:] / m
    pdot = np.array([0.0, -m * g]) + lam[0] * x[:2]
    r = d.residual(x, np.concatenate([v, pdot]), lam)
    np.testing.assert_allclose(r[:4], 0.0, atol=1e-14)
    assert r[4] == np.dot(x[:2], v)


def test_rc_node_row_is_kirchhoffs_current_law_and_output_the_source_current():
    R1, R2, C = 2.0, 3.0, 0.5
    d = rc_with_algebraic_node(R1, R2, C)
    q, va, u = 0.4, 1.3, 5.0
    vC = q / C
    r = d.residual([q, va], [(va - vC) / R2, 123.0], None, [u])  # ẋ_a does not appear
    np.testing.assert_allclose(r[0], 0.0, atol=1e-15)
    np.testing.assert_allclose(r[1], -((u - va) / R1 - (va - vC) / R2), rtol=1e-14)
    np.testing.assert_allclose(d.output([q, va], [u]), [(u - va) / R1], rtol=1e-14)
