"""A drum head struck by a stick: modes against Bessel zeros, the strike, the energy.

A circular membrane (radius a = 0.33 m, tension T = 4000 N/m, mass per area
σ = 0.26 kg/m²: c = √(T/σ) = 124 m/s, a timpani-like head) fixed at its rim, as a 2-D
port-Hamiltonian system (P1 triangles, lumped mass: an explicit sparse PHS) with a
point port where the stick hits, half-way out.  Its frequencies against the closed
form f = j·c/(2πa) with the Bessel zeros j₀₁ = 2.4048, j₁₁ = 3.8317 (twice),
j₂₁ = 5.1356 (twice), j₀₂ = 5.5201; then a 1 ms half-sine force of 20 N at the
stick: the figure shows the velocity field 4 ms after the hit and the energy,
``H(t) = W_in(t)`` to round-off (the head is lossless).

    python examples/membrane_drum.py [--out membrane_drum.png] [--refine 4]
"""

from __future__ import annotations

import argparse

import numpy as np
from matplotlib.figure import Figure

from porthamiltonian import simulate
from porthamiltonian.distributed.domains import disk, membrane

RADIUS, TENSION, SIGMA = 0.33, 4000.0, 0.26
BESSEL = np.array([2.404826, 3.831706, 3.831706, 5.135622, 5.135622, 5.520078])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="membrane_drum.png")
    ap.add_argument("--refine", type=int, default=4)
    args = ap.parse_args()
    head = membrane(disk(RADIUS, args.refine), SIGMA, TENSION, boundary="fixed",
                    points={"stick": (RADIUS / 2, 0.0)})
    print(head)
    c = np.sqrt(TENSION / SIGMA)
    f = head.frequencies(6) / (2 * np.pi)
    exact = BESSEL * c / (2 * np.pi * RADIUS)
    for k, (fk, ek) in enumerate(zip(f, exact, strict=True)):
        print(f"mode {k + 1}: {fk:8.2f} Hz   closed form {ek:8.2f} Hz   error "
              f"{(fk / ek - 1) * 100:+.2f} %")

    def stick(t: float) -> list[float]:  # a 1 ms half-sine of 20 N
        return [20.0 * np.sin(np.pi * t / 1e-3) if t < 1e-3 else 0.0]

    dt, t_end = 2e-5, 0.01
    res = simulate(head.system, (0.0, t_end), np.zeros(len(head.system.states)), u=stick,
                   method="midpoint", dt=dt)
    w_in = np.cumsum(res.work_supplied)
    print(f"energy: stored {res.H[-1]:.4e} J, supplied {w_in[-1]:.4e} J, largest step "
          f"residual {np.max(np.abs(res.power_residual)):.1e} J")

    fig = Figure(figsize=(11, 4.5), layout="constrained")
    ax1, ax2 = fig.subplots(1, 2, width_ratios=[1.1, 1])
    k = int(np.searchsorted(res.t, 5e-3))
    head.plot("v", res.x[k], ax=ax1, title=f"velocity at t = {res.t[k] * 1e3:.1f} ms")
    ms = res.t * 1e3
    ax2.plot(ms, res.H * 1e3, label="stored H(t)")
    ax2.plot(ms, w_in * 1e3, "--", label="work of the stick W_in(t)")
    ax2.set_xlabel("time (ms)")
    ax2.set_ylabel("energy (mJ)")
    ax2.legend(fontsize=8)
    fig.suptitle(f"drum head, a = {RADIUS} m, c = {c:.0f} m/s: first mode {f[0]:.1f} Hz "
                 f"(Bessel: {exact[0]:.1f} Hz)")
    fig.savefig(args.out, dpi=120)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
