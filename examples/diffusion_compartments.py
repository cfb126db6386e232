"""Diffusion between three compartments through two membranes (Fick, mass action).

Compartments of 1, 3 and 0.5 L hold a dilute solute at 20, 2 and 8 mol/m³; membranes
of permeance 2·10⁻⁶ and 5·10⁻⁷ m³/s join them in a chain.  The model is the gradient
port-Hamiltonian system of ``porthamiltonian.thermo.transport.compartments``: H is the
Gibbs energy, R(n) the log-mean conductances.  The concentrations settle at the common
value Σn/ΣV, the total amount stays constant to round-off and H falls monotonically.

    python examples/diffusion_compartments.py [--out diffusion_compartments.png]
"""

from __future__ import annotations

import argparse

import numpy as np
from matplotlib.figure import Figure

from porthamiltonian import simulate
from porthamiltonian.thermo.transport import compartments

VOLUMES = np.array([1.0e-3, 3.0e-3, 0.5e-3])  # m³
C0 = np.array([20.0, 2.0, 8.0])               # mol/m³
EDGES = [(0, 1, 2.0e-6), (1, 2, 5.0e-7)]      # permeance P·A (m³/s)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="diffusion_compartments.png")
    args = ap.parse_args()
    model = compartments(VOLUMES, EDGES, T=310.0)
    x0 = model.state((VOLUMES * C0)[:, None])
    res = simulate(model.system, (0, 12000.0), x0, method="midpoint", dt=20.0)
    c = model.concentrations(res.x)[:, :, 0]
    total = model.totals(res.x)[:, 0]
    c_eq = total[0] / VOLUMES.sum()
    H_eq = model.system.energy(model.equilibrium(x0))
    print(f"equilibrium concentration Σn/ΣV = {c_eq:.6f} mol/m³; at t = {res.t[-1]:g} s: "
          f"{', '.join(f'{v:.6f}' for v in c[-1])}")
    print(f"total amount drift {np.max(np.abs(total - total[0])):.1e} mol of {total[0]:.4e}; "
          f"H − H_eq from {res.H[0] - H_eq:.4e} J to {res.H[-1] - H_eq:.2e} J")

    fig = Figure(figsize=(8, 6), layout="constrained")
    ax1, ax2 = fig.subplots(2, 1, sharex=True)
    hours = res.t / 3600
    for i in range(3):
        ax1.plot(hours, c[:, i], label=f"compartment {i} ({VOLUMES[i] * 1e3:g} L)")
    ax1.axhline(c_eq, color="k", ls="--", lw=0.8, label="Σn/ΣV")
    ax1.set_ylabel("concentration (mol/m³)")
    ax1.legend(fontsize=8)
    ax2.semilogy(hours, np.maximum(res.H - H_eq, 1e-16), label="Gibbs energy above equilibrium")
    ax2.set_xlabel("time (h)")
    ax2.set_ylabel("H − H_eq (J)")
    ax2.legend(fontsize=8)
    fig.suptitle("Three compartments joined by Fick membranes:\nequal concentrations, "
                 "Gibbs energy dissipated")
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
