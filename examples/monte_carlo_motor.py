"""Monte Carlo of a DC motor with tolerances on the armature resistance and the rotor
inertia: the spread of the speed response to a 12 V step.

R_a is normal, 1 Ω ± 5 % at 2σ; J_r uniform within ± 10 % of 1e-4 kg m²
(examples/models/dc_motor.yaml).  Every run's final speed is checked against the
steady state ω = K V / (R_a b + K²) — the closed form of the motor equations.

    python examples/monte_carlo_motor.py --out monte_carlo_motor.png [--runs 200]
"""

from __future__ import annotations

import argparse
import pathlib

import numpy as np
import scipy.stats

from porthamiltonian.ensemble import sweep
from porthamiltonian.ensemble.plot import plot_sweep

MODEL = pathlib.Path(__file__).parent / "models" / "dc_motor.yaml"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="monte_carlo_motor.png")
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--workers", type=int, default=None)
    args = ap.parse_args()
    tolerances = {"R_a": scipy.stats.norm(1.0, 0.025),          # ± 5 % at 2σ
                  "J_r": scipy.stats.uniform(0.9e-4, 0.2e-4)}   # ± 10 %
    ds = sweep(MODEL, tolerances, samples=args.runs, sampling="random", seed=1,
               workers=args.workers)
    K, V, b = 0.05, 12.0, 1e-4
    steady = K * V / (ds["R_a"].values * b + K**2)
    final = ds["Jr.w.final"].values
    error = np.max(np.abs(final - steady) / steady)
    q = ds["Jr.w.stats"].sel(time=0.02, method="nearest")
    print(f"{ds.sizes['run']} runs, {ds.attrs['failed']} failed; final speed "
          f"{final.mean():.2f} ± {final.std(ddof=1):.2f} rad/s, largest deviation from "
          f"the steady state K V / (R_a b + K²): {error:.1e}")
    print(f"speed at t = 20 ms: 5 % … 95 % of the runs = {float(q.sel(statistic='q5')):.1f}"
          f" … {float(q.sel(statistic='q95')):.1f} rad/s")
    assert error < 1e-3  # after 10 mechanical time constants
    plot_sweep(ds, ["Jr.w", "V.i"], path=args.out, color_by="J_r")
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
