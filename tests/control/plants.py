"""Plants of the control tests, written from the textbook equations."""

from __future__ import annotations

import sympy as sp

from porthamiltonian import PHS

MAGLEV = {"k": 2.0, "m": 0.5, "g": 9.81, "R": 2.0}


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
