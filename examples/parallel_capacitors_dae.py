"""Two capacitors kept in parallel as a descriptor pH system, versus one merged capacitor.

States q1, q2 (C); efforts v1 = q1/C1, v2 = q2/C2 (V).  A current source i(t) feeds C1,
a load resistor R discharges C2, and the constraint 0 = Bᵀz = v1 − v2 (B = [1, −1]ᵀ)
keeps them in parallel; its multiplier λ is the current from C2 into C1 (A):

    q1' = i + λ,   q2' = −v2/R − λ,   0 = v1 − v2.

The merged circuit is one capacitor C = C1 + C2: C v' = i − v/R, whose closed form for a
constant current I is v(t) = I R + (v0 − I R) e^{−t/(RC)} and λ = C1 v' − I.  The
midpoint DAE method keeps the discrete power balance ΔH = h(ū v̄1 − v̄2²/R) to round-off.

    python examples/parallel_capacitors_dae.py [--dt 1e-3] [--out parallel_capacitors.png]
"""

from __future__ import annotations

import argparse

import numpy as np
from matplotlib.figure import Figure

from porthamiltonian.descriptor import DescriptorPHS
from porthamiltonian.simulate import simulate

C1, C2, R, I0, V0 = 1e-3, 2e-3, 100.0, 0.05, 1.0  # F, F, Ω, A, V


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--dt", type=float, default=1e-3)
    ap.add_argument("--out", default="parallel_capacitors.png")
    args = ap.parse_args()
    sys = DescriptorPHS(J=np.zeros((2, 2)), R=np.diag([0.0, 1 / R]), G=[[1.0], [0.0]],
                        B=[[1.0], [-1.0]], Q=np.diag([1 / C1, 1 / C2]), states=["q1", "q2"],
                        inputs=["i"], outputs=["v1"], multipliers=["link"])
    res = simulate(sys, (0.0, 1.5), {"q1": C1 * V0, "q2": C2 * V0}, u=I0, dt=args.dt)
    C, t = C1 + C2, res.t
    v = I0 * R + (V0 - I0 * R) * np.exp(-t / (R * C))
    tm = t[1:] - args.dt / 2  # λ of a step is its mean over the step: compare at midpoints
    link = C1 * (I0 - (I0 * R + (V0 - I0 * R) * np.exp(-tm / (R * C))) / R) / C - I0
    err_v = max(np.max(np.abs(res["q1"] / C1 - v)), np.max(np.abs(res["q2"] / C2 - v)))
    print(f"max |v − v_merged| = {err_v:.2e} V (of {v.max():.3f} V)")
    print(f"max |λ − λ_merged| = {np.max(np.abs(res['link'][1:] - link)):.2e} A")
    print(f"max |v1 − v2| at the grid points = {res.node_constraint.max():.2e} V")
    print(f"max power-balance residual = {np.max(np.abs(res.power_residual)):.2e} J "
          f"(per-step supplied work up to {np.max(res.work_supplied):.2e} J); "
          f"{res.newton_iterations} solves with one LU for {res.nsteps} steps")
    fig = Figure(figsize=(8, 6), layout="constrained")
    ax = fig.subplots(3, 1, sharex=True)
    ax[0].plot(t, v, "k", lw=3, alpha=0.3, label="merged capacitor (closed form)")
    ax[0].plot(t, res["q1"] / C1, "--", label="v1")
    ax[0].plot(t, res["q2"] / C2, ":", label="v2")
    ax[0].set_ylabel("capacitor voltage (V)")
    ax[1].plot(tm, link, "k", lw=3, alpha=0.3, label="C1 v' − I (closed form)")
    ax[1].plot(t[1:], res["link"][1:], "--", label="λ (link current)")
    ax[1].set_ylabel("link current (A)")
    ax[2].plot(t, res.power_residual, label="ΔH − ∫(u y − d) dt per step")
    ax[2].set_ylabel("power residual (J)")
    ax[2].set_xlabel("time (s)")
    for a in ax:
        a.legend(fontsize=8)
    fig.suptitle("C1 ∥ C2 kept equal by a constraint (pH-DAE), fed by a current source "
                 "through R")
    fig.savefig(args.out, dpi=100)
    print(f"plot written to {args.out}")


if __name__ == "__main__":
    main()
