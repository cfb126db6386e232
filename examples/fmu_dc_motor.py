"""The DC motor of ``examples/models/dc_motor.yaml`` as an FMU, simulated in FMPy.

The model file's bond graph (armature R–L, gyrator K, rotor J–b) becomes an FMI 3.0
FMU twice: Model Exchange (FMPy's CVode integrates ẋ = (J − R)∇H + (G − P)u) and
Co-Simulation (the FMU steps itself with the implicit midpoint rule, the library's
structure-preserving step, in C).  Both runs are compared with the library's own
simulation of the same model — the same midpoint steps for Co-Simulation (agreement to
round-off), an accurate Gauss–Legendre run for Model Exchange — and the largest
relative difference of the current, the rotor momentum and the energy is printed.  The
plot shows the current and the speed from the FMUs over the library's curves, and the
differences.

    python examples/fmu_dc_motor.py [--out fmu_dc_motor.png] [--fmi 3.0|2.0]

Needs FMPy (``pip install fmpy``) and a C compiler (``cc``/``gcc``/``clang`` or ``$CC``).
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

from porthamiltonian import simulate
from porthamiltonian.export.fmu import export_fmu
from porthamiltonian.io import load_model
from porthamiltonian.io.simulation import simulation_system

MODEL = Path(__file__).resolve().parent / "models" / "dc_motor.yaml"
V, T_END, DT, COMM = 12.0, 0.05, 1e-4, 1e-3  # V, s, s (internal step), s (output grid)


def run(folder: Path, fmi: str = "3.0") -> dict:
    """The FMU runs (ME, CS) and the library's references on the output grid."""
    from fmpy import simulate_fmu

    model = load_model(MODEL)
    system = simulation_system(model)
    x0 = dict(model.simulate["initial"])
    out = {}
    names = ["La", "Jr", "V.i", "H", "energy_residual"]
    for kind in ("me", "cs"):
        done = export_fmu(system, folder / f"dc_motor_{kind}.fmu", kind=kind, fmi=fmi, dt=DT,
                          start=x0)
        out[kind] = simulate_fmu(
            str(done.path), stop_time=T_END, output_interval=COMM, start_values={"V": V},
            relative_tolerance=1e-12,
            output=[n for n in names if kind == "cs" or n != "energy_residual"])
    every = round(COMM / DT)
    refs = {"cs": simulate(system, (0.0, T_END), x0, u={"V": V}, method="midpoint", dt=DT),
            "me": simulate(system, (0.0, T_END), x0, u={"V": V}, method="gauss6", dt=DT)}
    J_r = float(system.parameters["J_r"])
    for kind, ref in refs.items():
        fmu = out[kind]
        lib = {"La": ref.x[::every, 0], "Jr": ref.x[::every, 1], "V.i": ref.y[::every, 0],
               "H": ref.H[::every]}
        out[f"{kind}_diff"] = {n: np.abs(fmu[n] - v) / np.max(np.abs(v)) for n, v in lib.items()}
        out[f"{kind}_ref"] = (ref.t[::every], lib)
    out["J_r"] = J_r
    return out


def figure(out: dict):
    import matplotlib.pyplot as plt

    t, lib = out["me_ref"]
    fig, axes = plt.subplots(3, 1, figsize=(7, 8), sharex=True, constrained_layout=True)
    ms = 1e3  # s → ms on the time axis
    axes[0].plot(t * ms, lib["V.i"], "k-", lw=1, label="porthamiltonian")
    axes[1].plot(t * ms, lib["Jr"] / out["J_r"], "k-", lw=1, label="porthamiltonian")
    for kind, style, label in (("me", "o", "FMU, Model Exchange (CVode)"),
                               ("cs", "x", "FMU, Co-Simulation (midpoint)")):
        fmu = out[kind]
        axes[0].plot(fmu["time"] * ms, fmu["V.i"], style, ms=4, mfc="none", label=label)
        axes[1].plot(fmu["time"] * ms, fmu["Jr"] / out["J_r"], style, ms=4, mfc="none",
                     label=label)
        worst = np.max([out[f"{kind}_diff"][n] for n in ("La", "Jr", "V.i", "H")], axis=0)
        axes[2].semilogy(fmu["time"] * ms, np.maximum(worst, 1e-17), style + "-", ms=3,
                         lw=0.8, label=label)
    axes[0].set_ylabel("armature current (A)")
    axes[1].set_ylabel("rotor speed (rad/s)")
    axes[2].set_ylabel("largest relative difference (1)")
    axes[2].set_xlabel("time (ms)")
    axes[0].legend(fontsize=8)
    axes[2].legend(fontsize=8)
    axes[0].set_title("DC motor, 12 V: the FMU in FMPy against the library")
    return fig


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="fmu_dc_motor.png", help="plot file (PNG/SVG/PDF)")
    ap.add_argument("--fmi", default="3.0", choices=("3.0", "2.0"))
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        out = run(Path(tmp), args.fmi)
    for kind, what in (("me", "Model Exchange vs Gauss-6"), ("cs", "Co-Simulation vs midpoint")):
        worst = max(float(np.max(d)) for d in out[f"{kind}_diff"].values())
        print(f"{what}: largest relative difference {worst:.2e}")
    print(f"energy residual of the co-simulation steps: at most "
          f"{np.max(np.abs(out['cs']['energy_residual'])):.1e} J")
    figure(out).savefig(args.out, dpi=100)
    print(f"plot written to {args.out}")


if __name__ == "__main__":
    main()
