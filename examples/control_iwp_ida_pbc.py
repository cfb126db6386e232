"""Inertia-wheel pendulum stabilized upright by IDA-PBC with a shaped inertia Md.

Ortega, Spong, Gómez-Estern, Blankenstein, IEEE TAC 47(8), 2002, §V: q1 = pendulum angle
from upright, q2 = wheel angle relative to the pendulum, M = [[I1, I2], [I2, I2]],
V = m3 (cos q1 − 1), motor torque on q2.  With constant Md the matching equations have
constant coefficients; the potential energy Vd(q) is solved for, its free function
chosen quadratic, and damping kv injected on the actuated momentum.  Writes
``control_iwp_ida_pbc.png`` (angles, torque, Hd).

    python examples/control_iwp_ida_pbc.py [--out FILE.png]
"""

from __future__ import annotations

import argparse

import numpy as np
import sympy as sp
from matplotlib.figure import Figure

from porthamiltonian import PHS, control
from porthamiltonian.simulate import simulate


def inertia_wheel_pendulum() -> PHS:
    q1, q2, p1, p2 = sp.symbols("q1 q2 p1 p2", real=True)
    I1, I2, m3 = sp.symbols("I1 I2 m3", positive=True)
    pv = sp.Matrix([p1, p2])
    H = (pv.T * sp.Matrix([[I1, I2], [I2, I2]]).inv() * pv)[0] / 2 + m3 * (sp.cos(q1) - 1)
    J = sp.Matrix([[0, 0, 1, 0], [0, 0, 0, 1], [-1, 0, 0, 0], [0, -1, 0, 0]])
    return PHS(J=J, G=[[0], [0], [0], [1]], hamiltonian=sp.expand(H),
               states=["q1", "q2", "p1", "p2"], inputs=["tau"], outputs=["w2"],
               parameters={"I1": 0.1, "I2": 0.02, "m3": 1.0}, name="inertia wheel pendulum")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="control_iwp_ida_pbc.png")
    args = ap.parse_args()
    plant = inertia_wheel_pendulum()
    Md = [[0.05, 0.15], [0.15, 0.6]]  # a2 > a1: the upright position becomes a minimum
    kp, kv = 0.1, 1.0
    general = control.solve_matching(plant, None, Md=Md)
    print("general solution Hd =", general.Hd)
    design = control.ida_pbc(plant, None, np.diag([0.0, kv]), np.zeros(4), Md=Md, phi=kp)
    print("Hessian eigenvalues of Hd at the upright position:", design.minimum.eigenvalues)
    fig = Figure(figsize=(9, 6), layout="constrained")
    axes = fig.subplots(2, 2, sharex=True).ravel()
    for x0 in ([0.3, 0.0, 0.0, 0.0], [-0.5, 1.0, 0.0, 0.0], [0.8, 0.0, 0.05, 0.0]):
        res = simulate(plant, (0.0, 25.0), x0, u=design.feedback(), method="RK45", dt=0.02,
                       rtol=1e-10, atol=1e-12)
        Hd = np.array([design.Hd_numeric(x) for x in res.x])
        tau = np.array([design.law_numeric(x)[0] for x in res.x])
        axes[0].plot(res.t, res["q1"], label=f"x0 = {x0}")
        axes[1].plot(res.t, res["q2"])
        axes[2].plot(res.t, tau)
        axes[3].semilogy(res.t, np.maximum(Hd - Hd[-1] + 1e-16, 1e-16))
        print(f"x0 = {x0}: |x(25 s)| = {np.abs(res.x[-1]).max():.2e}, Hd non-increasing: "
              f"{bool(np.all(np.diff(Hd) <= 1e-9))}")
    for ax, label in zip(axes, ["pendulum angle q1 (rad)", "wheel angle q2 (rad)",
                                "motor torque τ (N·m)", "Hd − Hd(25 s) (J)"], strict=True):
        ax.set_ylabel(label)
    for ax in axes[2:]:
        ax.set_xlabel("time (s)")
    axes[0].legend(fontsize=7, title="initial state (q1, q2, p1, p2)", title_fontsize=7)
    fig.suptitle("inertia-wheel pendulum under IDA-PBC: brought upright from three "
                 "initial states")
    fig.savefig(args.out, dpi=100)
    print(f"plot written to {args.out}")


if __name__ == "__main__":
    main()
