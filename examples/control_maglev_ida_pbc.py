"""IDA-PBC of a magnetically levitated ball (Ortega, van der Schaft, Maschke, Escobar 2002).

States x1 = flux (Wb), x2 = ball position (m, upward), x3 = momentum (kg·m/s), input the
coil voltage.  The matching equations are solved symbolically, the free function is
chosen to put a strict minimum of Hd at the target, and the law is simulated on the plant
from three initial states.  Writes ``control_maglev_ida_pbc.png`` (states, input, Hd).

    python examples/control_maglev_ida_pbc.py [--out FILE.png]
"""

from __future__ import annotations

import argparse

import numpy as np
import sympy as sp
from matplotlib.figure import Figure

from porthamiltonian import PHS, control
from porthamiltonian.simulate import simulate


def maglev() -> PHS:
    x1, x2, x3 = sp.symbols("x1 x2 x3", real=True)
    k, m, g, R = sp.symbols("k m g R", positive=True)
    H = (1 - x2) * x1**2 / (2 * k) + x3**2 / (2 * m) + m * g * x2  # inductance k/(1 − x2)
    return PHS(J=[[0, 0, 0], [0, 0, 1], [0, -1, 0]], R=sp.diag(R, 0, 0), G=[[1], [0], [0]],
               hamiltonian=H, states=["x1", "x2", "x3"], inputs=["V"], outputs=["i"],
               parameters={"k": 2.0, "m": 0.5, "g": 9.81, "R": 2.0}, name="maglev")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="control_maglev_ida_pbc.png")
    args = ap.parse_args()
    plant = maglev()
    alpha, R1 = sp.symbols("alpha R1", positive=True)
    Jd = sp.Matrix([[0, 0, -alpha], [0, 0, 1], [alpha, -1, 0]])  # couples flux and momentum
    Rd = sp.diag(R1, 0, 0)
    general = control.solve_matching(plant, Jd, Rd)
    print("general solution  Hd =", general.Hd)
    p = plant.parameters
    x_star = [np.sqrt(2 * p["k"] * p["m"] * p["g"]), 0.3, 0.0]  # the flux that holds the ball
    design = control.ida_pbc(plant, Jd, Rd, x_star, parameters={"alpha": 3.0, "R1": 3.0})
    print("chosen free function Phi(z) =", design.phi)
    print("control law u =", design.law[0])
    print("Hessian eigenvalues of Hd at x*:", design.minimum.eigenvalues)

    fig = Figure(figsize=(9, 7), layout="constrained")
    axes = fig.subplots(3, 2, sharex=True).ravel()
    for x0 in ([4.0, 0.1, 0.0], [5.0, 0.45, 0.3], [3.5, 0.2, -0.4]):
        res = simulate(plant, (0.0, 30.0), x0, u=design.feedback(), method="RK45", dt=0.01,
                       rtol=1e-10, atol=1e-12)
        u = np.array([design.law_numeric(x)[0] for x in res.x])
        Hd = np.array([design.Hd_numeric(x) for x in res.x])
        label = f"x0 = {x0}"
        # what a person reads: the coil current (the output i = ∂H/∂x1), the ball
        # position, its velocity (∂H/∂x3 = x3/m)
        for ax, y in zip(axes[:3], (res["i"], res["x2"], res["dH/dx3"]), strict=True):
            ax.plot(res.t, y, label=label)
        axes[3].plot(res.t, u)
        axes[4].semilogy(res.t, np.maximum(Hd - design.Hd_numeric(x_star), 1e-16))
        axes[5].semilogy(res.t, np.maximum(np.abs(res.x - x_star).max(axis=1), 1e-16))
        print(f"{label}: |x(30 s) − x*| = {np.abs(res.x[-1] - x_star).max():.2e}, "
              f"Hd non-increasing: {bool(np.all(np.diff(Hd) <= 1e-9 * abs(Hd[0])))}")
    labels = ["coil current i (A)", "ball position x2 (m)", "ball velocity (m/s)",
              "control voltage u (V)", "Hd(x) − Hd(x*) (J)",
              "max |x − x*| (Wb, m, kg·m/s)"]
    for ax, label in zip(axes, labels, strict=True):
        ax.set_ylabel(label)
    for ax in axes[-2:]:
        ax.set_xlabel("time (s)")
    axes[0].legend(fontsize=7, title="initial state (x1, x2, x3)", title_fontsize=7)
    fig.suptitle("magnetic levitation under IDA-PBC: from three initial states to "
                 "x* (x2* = 0.3 m)")
    fig.savefig(args.out, dpi=100)
    print(f"plot written to {args.out}")


if __name__ == "__main__":
    main()
