"""Estimate mass, damping and stiffness of a mass-spring-damper from noisy measurements.

The "measurements" are made here: examples/models/mass_spring_damper.yaml run with
m = 2 kg, c = 0.6 N·s/m, k = 8 N/m (its own values), sampled every 0.1 s for 8 s, with
Gaussian noise of 2 mm on the spring's elongation and 5 mm/s on the speed (recorded in
mm/s, as a sensor might: the header says so and the fit converts it).  They are written
as CSV, then m, c and k are fitted from their bounds alone (the guesses are the middles
of the bounds); the table gives each value with its standard error and 95 % interval,
which should hold the true values.  The plot shows data, fit and residuals.

    python examples/fit_mass_spring_damper.py [--out fit_mass_spring_damper.png]
        [--csv msd_data.csv] [--starts 1] [--seed 0]

The same fit from the shell, on the CSV file this script writes:

    porthamiltonian fit examples/models/mass_spring_damper.yaml --data msd_data.csv \\
        --param m=0.5:5 --param c=0.05:3 --param k=1:30 --plot fit.png --out fit.json
"""

from __future__ import annotations

import argparse
import pathlib

import numpy as np

from porthamiltonian.ensemble.fit import fit
from porthamiltonian.io import load_model, simulate_model

MODEL = pathlib.Path(__file__).resolve().parent / "models" / "mass_spring_damper.yaml"
TRUE = {"m": 2.0, "c": 0.6, "k": 8.0}
NOISE = {"spring": 2e-3, "mass.v": 5e-3}       # m, m/s


def make_data(path: pathlib.Path, seed: int = 0) -> None:
    """Simulate the model at its own (true) values and write noisy samples to ``path``."""
    model = load_model(MODEL)
    t = np.round(np.arange(0.0, 8.0 + 1e-9, 0.1), 10)
    res = simulate_model(model, t_end=8.0, t_eval=t, rtol=1e-10, atol=1e-13)
    rng = np.random.default_rng(seed)
    q = res["spring"] + NOISE["spring"] * rng.standard_normal(t.size)
    v = res["mass.v"] + NOISE["mass.v"] * rng.standard_normal(t.size)
    rows = "".join(f"{a:.1f},{b:.6e},{1e3 * c:.6e}\n" for a, b, c in zip(t, q, v, strict=True))
    path.write_text("# mass-spring-damper, m = 2 kg, c = 0.6 N*s/m, k = 8 N/m, noisy\n"
                    "t [s],spring [m],mass.v [mm/s]\n" + rows)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="fit_mass_spring_damper.png")
    ap.add_argument("--csv", default="msd_data.csv", help="where the data set is written")
    ap.add_argument("--starts", type=int, default=1, help="multi-start (default 1)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the noise")
    args = ap.parse_args()
    data = pathlib.Path(args.csv)
    make_data(data, args.seed)
    print(f"data written to {data}")
    result = fit(MODEL, data, {"m": (0.5, 5.0), "c": (0.05, 3.0), "k": (1.0, 30.0)},
                 starts=args.starts, executor="serial", rtol=1e-9, atol=1e-12)
    print(result.summary())
    inside = all(result.ci95[n][0] < v < result.ci95[n][1] for n, v in TRUE.items())
    print(f"true values {TRUE} inside the 95 % intervals: {inside}")
    result.plot(args.out)
    print(f"plot written to {args.out}")


if __name__ == "__main__":
    main()
