"""A cantilever plate with a tuned mass damper at its free corner.

A square aluminium plate (a = 0.3 m, h = 2 mm, E = 70 GPa, ν = 0.3, ρ = 2700 kg/m³)
clamped along one edge, as a Mindlin plate (Q2 quadrilaterals, lumped: an explicit
sparse PHS).  Its first frequencies against Leissa's cantilever-plate table
(ω a²√(ρh/D) = 3.4917, 8.5246, 21.429, 27.331, 31.111; Leissa, *Vibration of
Plates*, NASA SP-160, 1969, Table 4.53; thin-plate values, so the thick-plate theory
sits slightly below them).

A spring–mass–damper (5 % of the first mode's effective mass, tuned by Den Hartog's
rules: f = f₁/(1 + μ), ζ = √(3μ/(8(1 + μ)³))) is a lumped PHS joined to the plate's
point port at the free corner with ``feedback`` — the plate's force input takes the
damper's reaction, the damper's base velocity is the plate's corner velocity.  A 2 ms
hammer blow at the other free corner: the figure shows that corner's velocity with and
without the damper, and the energy: constant in the plate alone, drained by the damper
otherwise, where ``H(t)`` equals the work of the blow minus the work the damper
dissipated to round-off.

    python examples/plate_tuned_mass_damper.py [--out plate_tuned_mass_damper.png]
"""

from __future__ import annotations

import argparse

import numpy as np
from matplotlib.figure import Figure

from porthamiltonian import PHS, feedback, simulate
from porthamiltonian.distributed.domains import mindlin, rectangle

A, H, E, NU, RHO = 0.3, 0.002, 70e9, 0.3, 2700.0
LEISSA = np.array([3.4917, 8.5246, 21.429, 27.331, 31.111])


def damper(mass: float, omega: float, zeta: float) -> PHS:
    """Spring k and damper c from the plate point (base velocity ``vb``) to a mass:
    q̇ = vb − p/m, ṗ = k q + c (vb − p/m); the output is the force the base exerts on
    the damper, k q + c (vb − p/m), so ``vb·F`` is the power it takes from the plate."""
    k, c = mass * omega**2, 2 * zeta * mass * omega
    return PHS(J=[[0.0, -1.0], [1.0, 0.0]], R=[[0.0, 0.0], [0.0, c]], Q=np.diag([k, 1 / mass]),
               G=[[1.0], [0.0]], P=[[0.0], [-c]], S=[[c]], states=["tmd.q", "tmd.p"],
               inputs=["tmd.vb"], outputs=["tmd.F"], name="tuned mass damper")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="plate_tuned_mass_damper.png")
    ap.add_argument("--elements", type=int, default=10)
    ap.add_argument("--t-end", type=float, default=0.4)
    args = ap.parse_args()
    plate = mindlin(rectangle(A, A, args.elements, cell="quad"), E, NU, RHO, H,
                    boundary={"left": "clamped"},
                    points={"corner": (A, A), "hit": (A, 0.0)})
    print(plate)
    D = E * H**3 / (12 * (1 - NU**2))
    omega = plate.frequencies(5)
    for k, (w, ref) in enumerate(zip(omega * A**2 * np.sqrt(RHO * H / D), LEISSA, strict=True)):
        print(f"mode {k + 1}: ω a²√(ρh/D) = {w:7.4f}   Leissa {ref:7.4f}   "
              f"({(w / ref - 1) * 100:+.2f} %)")

    m_modal = 0.25 * RHO * H * A * A  # a cantilever mode's effective mass at its corner
    mu = 0.05
    tmd = damper(mu * m_modal, omega[0] / (1 + mu), np.sqrt(3 * mu / (8 * (1 + mu) ** 3)))
    with_tmd = feedback(plate.system, tmd, [("F_corner", "tmd.vb")])

    def blow(t: float) -> float:  # a 2 ms half-sine of 20 N
        return 20.0 * np.sin(np.pi * t / 2e-3) if t < 2e-3 else 0.0

    dt = 1e-4
    runs = {}
    for label, system in (("plate alone", plate.system), ("with the damper", with_tmd)):
        u = {"F_hit": blow}
        if label == "plate alone":
            u["F_corner"] = lambda t: 0.0
        runs[label] = simulate(system, (0.0, args.t_end), np.zeros(len(system.states)),
                               u=u, method="midpoint", dt=dt)
    alone, damped = runs["plate alone"], runs["with the damper"]
    # the corner port is taken by the damper; the struck corner's velocity is an output
    v_alone, v_damped = alone["v_hit"], damped["v_hit"]
    late = alone.t > args.t_end / 2
    print(f"velocity of the struck corner, rms over the second half: "
          f"{np.sqrt(np.mean(v_alone[late]**2)):.3e} m/s alone, "
          f"{np.sqrt(np.mean(v_damped[late]**2)):.3e} m/s with the damper")
    w_in = np.cumsum(damped.work_supplied)
    w_d = np.cumsum(damped.work_dissipated)
    print(f"energy: blow {w_in[-1]:.4e} J, dissipated by the damper {w_d[-1]:.4e} J, stored "
          f"{damped.H[-1]:.4e} J; largest step residual "
          f"{np.max(np.abs(damped.power_residual)):.1e} J")

    fig = Figure(figsize=(10, 6.5), layout="constrained")
    ax1, ax2 = fig.subplots(2, 1)
    ax1.plot(alone.t, alone.H * 1e3, label="plate alone (lossless)")
    ax1.plot(damped.t, damped.H * 1e3, label="plate + damper: stored H(t)")
    ax1.plot(damped.t, (w_in - w_d) * 1e3, "k--", lw=0.8,
             label="work of the blow − work dissipated in the damper")
    ax1.set_xlabel("time (s)")
    ax1.set_ylabel("energy (mJ)")
    ax1.legend(fontsize=8, loc="lower left")
    first = alone.t <= min(args.t_end, 0.1)
    ax2.plot(alone.t[first], v_alone[first] * 1e3, lw=0.8, label="plate alone")
    ax2.plot(damped.t[first], v_damped[first] * 1e3, lw=0.8, label="with the damper")
    ax2.set_xlabel("time (s)")
    ax2.set_ylabel("velocity at the blow (mm/s)")
    ax2.legend(fontsize=8, loc="upper right")
    fig.suptitle(f"cantilever plate {A} m × {A} m × {H * 1e3:g} mm: first mode "
                 f"{omega[0] / (2 * np.pi):.1f} Hz, damper {mu:.0%} of its modal mass")
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
