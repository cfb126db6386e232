"""A DC motor as a circuit and a rotor joined by a magnetic interaction structure.

Circuit: charge q, inductance L, resistance R, source V.  Rotor: angle θ, inertia J,
viscous friction b.  The ideal motor is the two-form β = K dθ ∧ dq (Jacobs &
Yoshimura 2014, §5): a back-emf −K θ̇ on the circuit and a torque K i on the shaft,
with electrical power K θ̇ i equal to mechanical power K i θ̇.  The speed settles
at ω = K V / (R b + K²).

    python examples/lagrange_dc_motor.py [--out lagrange_dc_motor.png]
"""

from __future__ import annotations

import argparse

import numpy as np
from matplotlib.figure import Figure
from sympy.physics.mechanics import dynamicsymbols

from porthamiltonian import lagrange

t = dynamicsymbols._t
L, R, V = 0.05, 1.2, 6.0       # H, Ω, V
J, b, K = 0.02, 0.01, 0.3      # kg·m², N·m·s/rad, V·s/rad


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="lagrange_dc_motor.png")
    args = ap.parse_args()
    q, th = dynamicsymbols("q theta")
    circuit = lagrange.LagrangeDiracSystem([q], L * q.diff(t)**2 / 2,
                                           forces={q: V - R * q.diff(t)}, name="circuit")
    rotor = lagrange.LagrangeDiracSystem([th], J * th.diff(t)**2 / 2,
                                         forces={th: -b * th.diff(t)}, name="rotor")
    motor = lagrange.interconnect([circuit, rotor], lagrange.dc_motor(q, th, K))
    res = motor.simulate(5.0, q0=[0.0, 0.0], v0=[0.0, 0.0], dt=0.005)
    w_ss = K * V / (R * b + K**2)
    i, w = res["q_dot"], res["theta_dot"]
    print(f"final speed {w[-1]:.6f} rad/s, closed-form steady state {w_ss:.6f} rad/s")
    print(f"energy balance residual {np.abs(res.energy_residual).max():.2e} J "
          f"(stored energy {res.energy[-1]:.3e} J)")
    fig = Figure(figsize=(8, 7), layout="constrained")
    ax0, ax1, ax2 = fig.subplots(3, 1, sharex=True)
    ax0.plot(res.t, i, label="armature current i = q̇")
    ax0.set_ylabel("current (A)")
    ax0.legend()
    ax1.plot(res.t, w, label="rotor speed ω = θ̇", color="tab:orange")
    ax1.axhline(w_ss, color="k", ls=":", label="steady state K V/(R b + K²)")
    ax1.set_ylabel("angular velocity (rad/s)")
    ax1.legend()
    ax2.plot(res.t, K * w * i, label="electrical K ω i")
    ax2.plot(res.t, K * i * w, "k:", label="mechanical K i ω")
    ax2.set_ylabel("converted power (W)")
    ax2.set_xlabel("time (s)")
    ax2.legend()
    fig.suptitle(f"DC motor as two Lagrange–Dirac systems joined by the motor two-form, "
                 f"{V:g} V step")
    fig.savefig(args.out, dpi=100)
    print(f"plot written to {args.out}")


if __name__ == "__main__":
    main()
