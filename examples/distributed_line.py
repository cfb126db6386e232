"""Transmission line driven at one end, matched load at the other: energy balance.

A 10 m line (L′ = 250 nH/m, C′ = 100 pF/m: Z₀ = 50 Ω, v = 2·10⁸ m/s) discretized with
the partitioned FEM (120 elements, degree 2).  Its right port is closed by a 50 Ω
resistor (a state-less PHS, joined with ``feedback``); its left port is driven by a
Gaussian voltage pulse.  The pulse travels in τ = 50 ns to the load, where it is
absorbed without reflection.  The plot shows the stored energy, the work supplied at
the source and the work dissipated in the load: ``H(t) − H(0) = W_in − W_load`` to
round-off at every midpoint step.

    python examples/distributed_line.py [--out distributed_line.png]
"""

from __future__ import annotations

import argparse

import numpy as np
from matplotlib.figure import Figure

from porthamiltonian import PHS, feedback, simulate
from porthamiltonian.distributed import transmission_line

LENGTH, LP, CP = 10.0, 250e-9, 100e-12
Z0, TAU = np.sqrt(LP / CP), LENGTH * np.sqrt(LP * CP)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="distributed_line.png")
    args = ap.parse_args()
    line = transmission_line(LENGTH, LP, CP, elements=120, degree=2)
    load = PHS(S=[[Z0]], inputs=["i_load"], outputs=["v_load"])  # v = Z0 i, no state
    # feedback: u_line = −y_load, u_load = y_line, i.e. V_right = −Z0·I_right, with
    # I_right the current into the line: the load draws −I_right at the voltage V_right
    system = feedback(line.system, load, [("V_right", "i_load")])
    t0, width = 15e-9, 3e-9

    def pulse(t):
        return 10.0 * np.exp(-(((t - t0) / width) ** 2))  # volts

    t_end = 3 * TAU
    res = simulate(system, (0, t_end), u={"V_left": pulse}, dt=t_end / 3000)
    residual = np.max(np.abs(res.power_residual))
    w_in, w_load = np.cumsum(res.work_supplied), np.cumsum(res.work_dissipated)
    pulse_energy = 100.0 / Z0 * width * np.sqrt(np.pi / 2)  # ∫ V²/Z0 dt of the pulse
    print(f"line: {line}")
    print(f"work in {w_in[-1]:.4e} J (pulse into Z0: {pulse_energy:.4e} J), dissipated "
          f"{w_load[-1]:.4e} J, stored at the end {res.H[-1]:.2e} J, largest step "
          f"residual {residual:.1e} J")
    # arrival time of the pulse at the middle (peak of the voltage there)
    v_mid = line.field("V", res.x, [LENGTH / 2])[:, 0]
    t_peak = res.t[np.argmax(v_mid)]
    print(f"pulse peak at s = L/2: {t_peak * 1e9:.2f} ns (expected t0 + τ/2 = "
          f"{(t0 + TAU / 2) * 1e9:.2f} ns); its height {v_mid.max():.3f} V (source: 10 V)")

    fig = Figure(figsize=(8, 6), layout="constrained")
    ax1, ax2 = fig.subplots(2, 1, sharex=True)
    ns = res.t * 1e9
    nj = 1e9  # energies in nJ
    ax1.plot(ns, nj * res.H, label="stored H(t)")
    ax1.plot(ns, nj * w_in, label="work supplied at the source")
    ax1.plot(ns, nj * w_load, label="work dissipated in the load")
    ax1.plot(ns, nj * (res.H - res.H[0] - w_in + w_load), "k--",
             label="H − H(0) − W_in + W_load")
    ax1.set_ylabel("energy (nJ)")
    ax1.legend(fontsize=8)
    ax2.plot(ns, [pulse(t) for t in res.t], label="V at s = 0")
    ax2.plot(ns, v_mid, label="V at s = L/2")
    ax2.plot(ns, line.field("V", res.x, [LENGTH])[:, 0], label="V at s = L (load)")
    ax2.set_xlabel("time (ns)")
    ax2.set_ylabel("voltage (V)")
    ax2.legend(fontsize=8)
    fig.suptitle(f"{LENGTH:g} m transmission line, Z0 = {Z0:g} Ω, matched load: a 10 V pulse "
                 "travels and is absorbed")
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
