"""Permanent-magnet DC motor under a 12 V voltage step at t = 0.1 s.

States (φ, p): armature flux linkage L·i (Wb) and rotor angular momentum J_m·ω (N·m·s);
the motor constant K couples them through a gyrator (J = [[0, −K], [K, 0]]), R_a and
the viscous friction b dissipate (R = diag(R_a, b)), the voltage V is the input and the
current i = φ/L its conjugate output (Duindam et al. 2009, §2.2 example):

    L di/dt = V − R_a i − K ω,   J_m dω/dt = K i − b ω.

The step is a piecewise-constant input, so a simulation step ends exactly at 0.1 s.
Steady state: ω = K V / (R_a b + K²), i = b V / (R_a b + K²).

    python examples/dc_motor_step.py [--out dc_motor_step.png]
"""

from __future__ import annotations

import argparse
from dataclasses import replace

from porthamiltonian import PHS
from porthamiltonian.quantities import DOMAINS, Quantities, storage_info
from porthamiltonian.simulate import PiecewiseConstant, simulate

L, R_A, K, J_M, B = 0.5e-3, 1.0, 0.05, 2e-5, 1e-5  # H, Ω, N·m/A, kg·m², N·m·s
V_STEP, T_STEP = 12.0, 0.1  # V, s


def motor() -> PHS:
    # what the states mean: the armature flux (Wb) whose co-energy is the current
    # ``armature.i`` (A), the rotor momentum (N·m·s) whose co-energy is ``rotor.w`` (rad/s)
    el = DOMAINS["electrical"]
    meaning = Quantities(
        {"phi": replace(storage_info("phi", "armature", "I", el), coenergy_name="armature.i"),
         "p": replace(storage_info("p", "rotor", "I", "rotational"), coenergy_name="rotor.w")},
        ports={"V": el.effort, "i": el.flow})
    return PHS(J=[[0, -K], [K, 0]], R=[[R_A, 0], [0, B]], G=[[1], [0]],
               Q=[[1 / L, 0], [0, 1 / J_M]], states=["phi", "p"], inputs=["V"],
               outputs=["i"], name="DC motor, 12 V step at 0.1 s", quantities=meaning)


def steady_state() -> tuple[float, float]:
    """(current A, speed rad/s) at constant voltage V_STEP."""
    den = R_A * B + K * K
    return B * V_STEP / den, K * V_STEP / den


def run(t_end: float = 0.4, dt: float = 1e-4):
    step = PiecewiseConstant([0.0, T_STEP], [0.0, V_STEP])
    return simulate(motor(), (0.0, t_end), [0.0, 0.0], u={"V": step}, dt=dt,
                    method="gauss2")


def figure(res):
    """The current and the speed (the co-energies, with units), the voltage, the energy."""
    return res.plot(vars=["armature.i", "rotor.w", "V"])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="dc_motor_step.png")
    args = ap.parse_args()
    res = run()
    figure(res).savefig(args.out, dpi=100)
    i_ss, w_ss = steady_state()
    print(f"final current {res['i'][-1]:.5f} A (steady state {i_ss:.5f} A), speed "
          f"{res['p'][-1] / J_M:.3f} rad/s (steady state {w_ss:.3f} rad/s); plot written "
          f"to {args.out}")


if __name__ == "__main__":
    main()
