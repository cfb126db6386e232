"""Ideal boost converter: switched (PWM) vs averaged model, one PHS with J(S).

States (φ_L, q_C) — inductor flux linkage (Wb) and capacitor charge (C); source E (V).
With the switch position S ∈ {0, 1} (S = 1: switch closed, the inductor is shorted to
the source; Duindam et al., *Modeling and Control of Complex Physical Systems*,
Springer 2009, §3.1; Escobar et al., Automatica 35, 1999):

    J(S) = [[0, −(1−S)], [1−S, 0]],  R = diag(0, 1/R_load),  G = [1, 0]ᵀ,
    H = φ²/(2L) + q²/(2C),           y = φ/L (the source current).

The switched run drives S with a PWM signal; the steps land on every switching instant
and, J(S) being skew for each S, the discrete power balance holds to round-off across
the switches.  The averaged model replaces S by the duty ratio D and settles at the
textbook V = E/(1 − D).  Both runs are plotted.

    python examples/boost_converter.py [--out boost.png]
"""

from __future__ import annotations

import argparse

import numpy as np
import sympy as sp

from porthamiltonian import PHS
from porthamiltonian.simulate import pwm, simulate

E, L, C, R_LOAD = 12.0, 1e-3, 1e-4, 10.0  # V, H, F, Ω
PERIOD, DUTY = 5e-5, 0.5  # 20 kHz switching


def boost() -> PHS:
    """The boost converter with the switch position S as a free parameter."""
    phi, q, S = sp.symbols("phi q S", real=True)
    return PHS(J=[[0, -(1 - S)], [1 - S, 0]], R=[[0, 0], [0, 1 / R_LOAD]], G=[[1], [0]],
               hamiltonian=phi**2 / (2 * L) + q**2 / (2 * C), states=["phi", "q"],
               inputs=["E"], outputs=["i_source"])


def run(t_end: float = 0.03, steps_per_period: int = 20) -> tuple:
    """(switched, averaged) results from rest over ``[0, t_end]`` s."""
    sys, dt = boost(), PERIOD / steps_per_period
    switched = simulate(sys, (0.0, t_end), [0.0, 0.0], u=E, dt=dt,
                        modulation={"S": pwm(PERIOD, DUTY)})
    averaged = simulate(sys, (0.0, t_end), [0.0, 0.0], u=E, dt=dt, modulation={"S": DUTY})
    return switched, averaged


def figure(sw, av):
    """Output voltage and inductor current of both runs, and the switched run's power
    residual per step."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 6.5), layout="constrained")
    ax1, ax2, ax3 = fig.subplots(3, 1, sharex=True)
    for res, label in ((sw, "switched (PWM)"), (av, "averaged (S = D)")):
        ax1.plot(1e3 * res.t, res["q"] / C, label=label)
        ax2.plot(1e3 * res.t, res["phi"] / L, label=label)
    ax1.axhline(E / (1 - DUTY), color="k", ls=":", label="E/(1 − D)")
    ax1.set_ylabel("output voltage v_C (V)")
    ax2.set_ylabel("inductor current i_L (A)")
    ax3.semilogy(1e3 * sw.t[1:], np.maximum(np.abs(sw.power_residual[1:]), 1e-20),
                 label="switched: |ΔH − ∫(uᵀy − d) dt| per step")
    ax3.set_ylabel("|power residual| (J)")
    ax3.set_xlabel("time (ms)")
    for ax in (ax1, ax2, ax3):
        ax.legend(fontsize="small", loc="lower right")
    fig.suptitle(f"boost converter, E = {E:g} V, D = {DUTY:g}, {1e-3 / PERIOD:g} kHz PWM: "
                 "switched vs averaged")
    return fig


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="boost_converter.png")
    args = ap.parse_args()
    sw, av = run()
    figure(sw, av).savefig(args.out, dpi=100)
    print(f"switched: {sw.nsteps} steps, V(end) = {sw['q'][-1] / C:.4f} V, max |power "
          f"residual| = {np.max(np.abs(sw.power_residual)):.2e} J")
    print(f"averaged: V(end) = {av['q'][-1] / C:.4f} V (E/(1 − D) = {E / (1 - DUTY):g} V); "
          f"plot written to {args.out}")


if __name__ == "__main__":
    main()
