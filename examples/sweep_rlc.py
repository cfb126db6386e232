"""Sweep the resistance of a series RLC circuit and plot every run's current.

The circuit (examples/models/series_rlc.yaml) is driven at 50 Hz; R runs over 12 values
from 2 Ω to 40 Ω.  Each run's steady amplitude is checked against the phasor formula
|I| = U / |R + j(ωL − 1/(ωC))| — the sweep's numbers against a closed form.

    python examples/sweep_rlc.py --out sweep_rlc.png [--workers 2]
"""

from __future__ import annotations

import argparse
import pathlib

import numpy as np

from porthamiltonian.ensemble import sweep
from porthamiltonian.ensemble.plot import plot_sweep

MODEL = pathlib.Path(__file__).parent / "models" / "series_rlc.yaml"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", default="sweep_rlc.png")
    ap.add_argument("--workers", type=int, default=None)
    ap.add_argument("--values", type=int, default=12, help="how many values of R")
    args = ap.parse_args()
    R = np.linspace(2.0, 40.0, args.values)
    ds = sweep(MODEL, {"R": R}, t_end=1.0, dt=5e-5, n_times=4001, workers=args.workers)
    L, C, w = 0.1, 1e-3, 2 * np.pi * 50
    late = ds["time"] > 0.8  # the transient (decay rate R/2L ≥ 10 /s) has died out
    for r, amplitude in zip(R, np.abs(ds["L1.i"].where(late)).max("time").values,
                            strict=True):
        exact = 1.0 / abs(r + 1j * (w * L - 1 / (w * C)))
        print(f"R = {r:5.2f} Ω: current amplitude {amplitude:.5f} A, phasor {exact:.5f} A")
        assert abs(amplitude - exact) < 2e-3 * exact  # sampled every 0.25 ms
    plot_sweep(ds, ["L1.i", "C1.v"], path=args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
