"""Boost converter regulated by energy shaping (IDA-PBC, supply voltage held fixed).

Averaged model (Escobar, van der Schaft, Ortega 1999): x1 = inductor flux, x2 = capacitor
charge, control μ = 1 − duty, supply E = 12 V as a fixed input.  With Jd = 0 and
Rd = diag(r1, 1/R) the matching equation is the power balance E i − v²/R, a PDE with
state-dependent coefficients solved by sympy.pdsolve:
Hd = −E x1/r1 + x2²/(2C) + Φ(x2 x1^(−L/(C R r1))).  Target v* = 24 V.  Writes
``control_boost_energy_shaping.png`` (voltage, current, duty, Hd).

    python examples/control_boost_energy_shaping.py [--out FILE.png]
"""

from __future__ import annotations

import argparse

import numpy as np
import sympy as sp
from matplotlib.figure import Figure

from porthamiltonian import PHS, control
from porthamiltonian.simulate import simulate

E, L, C, R, R1, V_STAR = 12.0, 1e-3, 1e-4, 10.0, 0.5, 24.0  # V, H, F, Ω, Ω, V


def boost() -> PHS:
    x1, x2 = sp.symbols("x1 x2", real=True)
    return PHS(R=[[0, 0], [0, 1 / R]], G=sp.Matrix([[-x2 / C, 1], [x1 / L, 0]]),
               hamiltonian=x1**2 / (2 * L) + x2**2 / (2 * C), states=["x1", "x2"],
               inputs=["mu", "E"], outputs=["y_mu", "i_source"], name="boost (averaged)")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="control_boost_energy_shaping.png")
    args = ap.parse_args()
    plant = boost()
    Rd = sp.diag(R1, 1 / R)
    general = control.solve_matching(plant, sp.zeros(2, 2), Rd, fixed_inputs={"E": E})
    print("general solution Hd =", general.Hd)
    i_star = V_STAR**2 / (R * E)  # power balance E i = v²/R
    x_star = [L * i_star, C * V_STAR]
    design = control.ida_pbc(plant, sp.zeros(2, 2), Rd, x_star, fixed_inputs={"E": E})
    print(f"steady duty 1 − μ* = {1 - design.law_numeric(x_star)[0]:.6f} "
          f"(textbook 1 − E/v* = {1 - E / V_STAR:.6f})")
    fig = Figure(figsize=(9, 6), layout="constrained")
    axes = fig.subplots(2, 2, sharex=True).ravel()
    for f1, f2 in ((0.9, 0.95), (1.1, 1.05), (0.95, 1.1), (1.2, 0.9)):
        x0 = [f1 * x_star[0], f2 * x_star[1]]
        res = simulate(plant, (0.0, 0.02), x0, u=design.feedback(), method="RK45", dt=2e-5,
                       rtol=1e-10, atol=1e-14)
        Hd = np.array([design.Hd_numeric(x) for x in res.x])
        axes[0].plot(1e3 * res.t, res["x2"] / C, label=f"x0 = ({f1}, {f2})·x*")
        axes[1].plot(1e3 * res.t, res["x1"] / L)
        axes[2].plot(1e3 * res.t, 1 - res["mu"])
        axes[3].semilogy(1e3 * res.t, np.maximum(Hd - design.Hd_numeric(x_star), 1e-18))
        print(f"x0 = ({f1}, {f2})·x*: v(20 ms) = {res['x2'][-1] / C:.9f} V, "
              f"duty in [{1 - res['mu'].max():.3f}, {1 - res['mu'].min():.3f}]")
    for ax, label in zip(axes, ["output voltage v (V)", "inductor current i (A)",
                                "duty ratio 1 − μ (1)", "Hd − Hd(x*) (J)"], strict=True):
        ax.set_ylabel(label)
    for ax in axes[2:]:
        ax.set_xlabel("time (ms)")
    axes[0].legend(fontsize=7, title="initial state (φ, q)", title_fontsize=7)
    fig.suptitle(f"averaged boost converter under energy shaping: E = {E:g} V to "
                 f"v* = {V_STAR:g} V")
    fig.savefig(args.out, dpi=100)
    print(f"plot written to {args.out}")


if __name__ == "__main__":
    main()
