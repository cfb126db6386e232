"""A ball rolling without slipping on a rotating table geared to a second table
(Jacobs & Yoshimura 2014, §7 III): nonholonomic, torn into three subsystems.

Ball: centre (x, y), orientation in ZXZ Euler angles (φ, θ, ψ), mass m, radius r,
moment of inertia 2mr²/5.  Table 1 (angle α1) and table 2 (angle α2) are rigid
rotors.  The interaction distribution is annihilated by the two rolling one-forms
(the ball's contact point moves with the table point below it) and the gear form
r1 dα1 + r2 dα2.  With heavy tables the ball's centre moves on a circle at 2/7 of
the table's rate, the classical result for a uniform sphere on a turntable.

    python examples/lagrange_rotating_table.py [--out lagrange_rotating_table.png]
"""

from __future__ import annotations

import argparse

import numpy as np
import sympy
from matplotlib.figure import Figure
from sympy.physics.mechanics import dynamicsymbols

from porthamiltonian import lagrange

t = dynamicsymbols._t
m, r, J1, J2, r1, r2 = 1.0, 0.1, 1e6, 2e6, 0.2, 0.3  # kg, m, kg·m², kg·m², m, m


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="lagrange_rotating_table.png")
    args = ap.parse_args()
    x, y, ph, th, ps, a1, a2 = dynamicsymbols("x y phi theta psi alpha1 alpha2")
    d = sympy.Derivative
    # spatial angular velocity of the ball (ZXZ Euler angles)
    wx = d(th, t) * sympy.cos(ph) + d(ps, t) * sympy.sin(th) * sympy.sin(ph)
    wy = d(th, t) * sympy.sin(ph) - d(ps, t) * sympy.sin(th) * sympy.cos(ph)
    wz = d(ph, t) + d(ps, t) * sympy.cos(th)
    ball = lagrange.LagrangeDiracSystem(
        [x, y, ph, th, ps], m * (d(x, t)**2 + d(y, t)**2) / 2
        + (2 * m * r**2 / 5) * (wx**2 + wy**2 + wz**2) / 2, name="ball")
    table1 = lagrange.LagrangeDiracSystem([a1], J1 * d(a1, t)**2 / 2, name="table 1")
    table2 = lagrange.LagrangeDiracSystem([a2], J2 * d(a2, t)**2 / 2, name="table 2")
    contact = lagrange.interaction(
        [d(x, t) - r * wy + d(a1, t) * y, d(y, t) + r * wx - d(a1, t) * x,
         r1 * d(a1, t) + r2 * d(a2, t)], name="rolling and gears")
    system = lagrange.interconnect([ball, table1, table2], contact)
    om = 2.0  # rad/s, table 1; the ball starts with no spin at (0.3, 0)
    q0 = [0.3, 0.0, 0.0, np.pi / 2, 0.0, 0.0, 0.0]
    v0 = [0.0, om * 0.3, 0.0, 0.0, 0.0, om, -r1 / r2 * om]
    period = 2 * np.pi / (2 * om / 7)
    res = system.simulate(period, q0=q0, v0=v0, dt=period / 400, rtol=1e-10)
    print(f"ball back at its start after 7π/Ω = {period:.4f} s: distance "
          f"{np.hypot(res['x'][-1] - 0.3, res['y'][-1]):.2e} m")
    print(f"max constraint residual {np.abs(res.constraint_residual).max():.2e}, relative "
          f"energy drift {np.abs(res.energy - res.energy[0]).max() / res.energy[0]:.2e}")
    fig = Figure(figsize=(5, 5), layout="constrained")
    ax = fig.subplots()
    ax.plot(res["x"], res["y"], label="ball centre, one orbit (7π/Ω)")
    ax.plot([0.3], [0.0], "o", color="tab:blue", label="start")
    ax.plot([0], [0], "k+", ms=10, label="table axis")
    ax.set_aspect("equal")
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.legend(fontsize="small", loc="center")  # inside the orbit, clear of it
    ax.set_title(f"ball rolling on a table turning at Ω = {om:g} rad/s")
    fig.savefig(args.out, dpi=100)
    print(f"plot written to {args.out}")


if __name__ == "__main__":
    main()
