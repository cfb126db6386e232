"""Plants of the control tests, written from the textbook equations (cached: PHS are
not mutated)."""

from __future__ import annotations

from functools import cache

import sympy as sp

from porthamiltonian import PHS

MAGLEV = {"k": 2.0, "m": 0.5, "g": 9.81, "R": 2.0}


@cache
def maglev() -> PHS:
    r"""Magnetic levitation (Ortega, van der Schaft, Maschke, Escobar, Automatica 2002, §5).

    x1 = flux λ (Wb), x2 = ball position θ (m, upward), x3 = momentum (kg·m/s);
    inductance k/(1 − θ), so H = (1 − x2) x1²/(2k) + x3²/(2m) + m g x2; voltage input.
    """
    x1, x2, x3 = sp.symbols("x1 x2 x3", real=True)
    k, m, g, R = sp.symbols("k m g R", positive=True)
    H = (1 - x2) * x1**2 / (2 * k) + x3**2 / (2 * m) + m * g * x2
    return PHS(J=[[0, 0, 0], [0, 0, 1], [0, -1, 0]], R=sp.diag(R, 0, 0), G=[[1], [0], [0]],
               hamiltonian=H, states=["x1", "x2", "x3"], inputs=["V"], outputs=["i"],
               parameters=dict(MAGLEV), name="maglev")


def mass_spring_gravity(m: float = 1.0, k: float = 4.0, c: float = 0.5, g: float = 9.81) -> PHS:
    """Mass on a spring under gravity, viscous damping c, force input F; q upward (m)."""
    q, p = sp.symbols("q p", real=True)
    return PHS(J=[[0, 1], [-1, 0]], R=[[0, 0], [0, c]], G=[[0], [1]],
               hamiltonian=k * q**2 / 2 + p**2 / (2 * m) + m * g * q,
               states=["q", "p"], inputs=["F"], outputs=["v"], name="mass-spring")


PENDULUM = {"m": 0.5, "l": 0.8, "g": 9.81}
IWP = {"I1": 0.1, "I2": 0.02, "m3": 1.0}


@cache
def pendulum() -> PHS:
    """Simple pendulum with a torque at the pivot; q from the hanging position (rad)."""
    q, p = sp.symbols("q p", real=True)
    m, l, g = sp.symbols("m l g", positive=True)
    return PHS(J=[[0, 1], [-1, 0]], G=[[0], [1]],
               hamiltonian=p**2 / (2 * m * l**2) + m * g * l * (1 - sp.cos(q)),
               states=["q", "p"], inputs=["tau"], outputs=["omega"],
               parameters=dict(PENDULUM), name="pendulum")


@cache
def inertia_wheel_pendulum() -> PHS:
    r"""Inertia-wheel pendulum (Ortega, Spong, Gómez-Estern, Blankenstein, IEEE TAC 2002, §V).

    q1 = pendulum angle from upright, q2 = wheel angle relative to the pendulum (rad);
    M = [[I1, I2], [I2, I2]] (kg·m²), V = m3 (cos q1 − 1) (J), motor torque on q2.
    """
    q1, q2, p1, p2 = sp.symbols("q1 q2 p1 p2", real=True)
    I1, I2, m3 = sp.symbols("I1 I2 m3", positive=True)
    Minv = sp.Matrix([[I1, I2], [I2, I2]]).inv()
    pv = sp.Matrix([p1, p2])
    H = (pv.T * Minv * pv)[0] / 2 + m3 * (sp.cos(q1) - 1)
    J = sp.Matrix([[0, 0, 1, 0], [0, 0, 0, 1], [-1, 0, 0, 0], [0, -1, 0, 0]])
    return PHS(J=J, G=[[0], [0], [0], [1]], hamiltonian=sp.expand(H),
               states=["q1", "q2", "p1", "p2"], inputs=["tau"], outputs=["w2"],
               parameters=dict(IWP), name="inertia wheel pendulum")


DC_MOTOR = {"L": 0.05, "Ra": 1.0, "K": 0.5, "Jm": 0.01, "b": 0.02}


@cache
def dc_motor() -> PHS:
    """DC motor with its shaft angle: flux λ (Wb), momentum p = Jm ω (kg·m²/s), angle θ (rad).

    λ̇ = −Ra i − K ω + V,  ṗ = K i − b ω,  θ̇ = ω;  H = λ²/(2L) + p²/(2Jm) (no θ in H).
    """
    lam, p, th = sp.symbols("lam p theta", real=True)
    L, Ra, K, Jm, b = sp.symbols("L Ra K Jm b", positive=True)
    J = sp.Matrix([[0, -K, 0], [K, 0, -1], [0, 1, 0]])
    return PHS(J=J, R=sp.diag(Ra, b, 0), G=[[1], [0], [0]],
               hamiltonian=lam**2 / (2 * L) + p**2 / (2 * Jm), states=["lam", "p", "theta"],
               inputs=["V"], outputs=["i"], parameters=dict(DC_MOTOR), name="dc motor")


BOOST = {"L": 1e-3, "C": 1e-4, "R": 10.0}


@cache
def boost_averaged() -> PHS:
    r"""Averaged boost converter (Duindam et al. 2009, §3.1; Escobar, van der Schaft, Ortega
    1999) with μ = 1 − duty as an input: x1 = inductor flux (Wb), x2 = capacitor charge (C),

        ẋ = [[0, −μ], [μ, −1/R]] ∇H + [E; 0],   μ J1∇H = [−x2/C; x1/L] μ,

    so inputs (mu, E) with G = [[−x2/C, 1], [x1/L, 0]] (state-dependent).
    """
    x1, x2 = sp.symbols("x1 x2", real=True)
    L, C, R = sp.symbols("L C R", positive=True)
    return PHS(R=sp.diag(0, 1 / R), G=sp.Matrix([[-x2 / C, 1], [x1 / L, 0]]),
               hamiltonian=x1**2 / (2 * L) + x2**2 / (2 * C), states=["x1", "x2"],
               inputs=["mu", "E"], outputs=["y_mu", "i_source"], parameters=dict(BOOST),
               name="boost converter (averaged)")
