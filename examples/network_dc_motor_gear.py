"""A DC motor on a two-stage gear train driving a load (issue 5, part 5).

Component network: voltage source → DC motor → gear n1 → intermediate shaft inertia →
gear n2 → load inertia with viscous friction to the ground.  The gears join the three
rotors rigidly, so their momenta are dependent: the network is a DescriptorPHS with
two constraints, reduced to an explicit PHS in the armature flux and the load momentum,
whose inertia is the reflected one, J_load + n2² J_mid + (n1 n2)² J_rotor.

    MPLBACKEND=Agg python examples/network_dc_motor_gear.py

Prints the reduction, checks the simulated steady state against the closed form
    ω = n k V / (R (n² b_m + b_f) + (n k)²),  n = n1 n2,
and plots the load speed and the motor current to network_dc_motor_gear.png.  The
result reads in physical variables: ``res["load.w"]`` (rad/s), ``res["motor.i"]`` (A),
and the speeds of the rotors merged away, ``res["motor.w"]`` and ``res["mid.w"]``.
"""

from __future__ import annotations

import sys

import numpy as np
from matplotlib.figure import Figure

from porthamiltonian import simulate
from porthamiltonian.library import electrical as E
from porthamiltonian.library import electromechanical as EM
from porthamiltonian.library import mechanical as M
from porthamiltonian.network import Network
from porthamiltonian.quantities import pretty_unit

R, L, k, Jm, bm = 1.0, 1e-3, 0.05, 1e-4, 1e-5  # motor (Ω, H, N·m/A, kg·m², N·m·s)
n1, n2, Jmid = 4.0, 2.5, 5e-4  # gear train
JL, bf, V = 2e-2, 2e-3, 12.0  # load and friction, supply voltage


def drive() -> Network:
    net = Network("gear_train")
    net.add("V", E.VoltageSource())
    net.add("motor", EM.DCMotor(R=R, L=L, k=k, J=Jm, b=bm))
    net.add("g1", M.Gear(n=n1))
    net.add("mid", M.Inertia(J=Jmid))
    net.add("g2", M.Gear(n=n2))
    net.add("load", M.Inertia(J=JL))
    net.add("friction", M.RotationalDamper(b=bf))
    net.add("ground", M.FixedRotation())
    net.connect("V.p", "motor.electrical")
    net.connect("motor.shaft", "g1.a")
    net.junction("1", "g1.b", "mid.p", "g2.a")  # the intermediate shaft: one speed
    net.junction("1", "g2.b", "load.p", "friction.a")
    net.connect("friction.b", "ground.p")
    return net


def main(out: str | None = None) -> Figure:
    """Run, print, and draw the figure (saved to ``out`` if given); returns it."""
    net = drive()
    desc = net.system(symbolic=False, reduce=False)
    print(f"descriptor system: {len(desc.states)} states, {desc.n_constraints} constraints")
    sys = net.system(symbolic=False)
    print(sys)
    print(sys.reduction)
    n = n1 * n2
    Jeq = JL + n2**2 * Jmid + n**2 * Jm
    tau_m = L / R
    res = simulate(sys, (0.0, 3.0), u=V, method="midpoint", dt=1e-4)
    omega = res["load.w"]  # rad/s: the load's own speed (its co-energy)
    current = res["motor.i"]  # A: the armature current
    w_ss = n * k * V / (R * (n**2 * bm + bf) + (n * k) ** 2)
    x = np.zeros(2)
    x[sys.states.index("load.p")] = JL * 1.0  # the load turning at 1 rad/s
    print(f"reflected inertia J_eq = {Jeq:.6g} kg·m² by hand, {2 * sys.energy(x):.6g} from the "
          f"reduced PHS (2H at ω = 1); electrical time constant {tau_m:.2g} s")
    print(f"steady load speed: simulated {omega[-1]:.6f} {res.unit('load.w')}, closed form "
          f"{w_ss:.6f} rad/s; merged away: motor {res['motor.w'][-1]:.4f} rad/s "
          f"(n ω = {n * omega[-1]:.4f}), intermediate shaft {res['mid.w'][-1]:.4f} rad/s")
    print(f"max |power residual| = {np.max(np.abs(res.power_residual)):.2e} J")
    fig = Figure(figsize=(7, 5), layout="constrained")
    ax = fig.subplots(2, 1, sharex=True)
    ax[0].plot(res.t, omega, label="load.w")
    ax[0].plot(res.t, res["motor.w"] / n, ":", label="motor.w / (n1 n2)")
    ax[0].axhline(w_ss, ls="--", c="k", lw=0.8, label="closed-form steady state")
    ax[0].set_ylabel(f"load speed ({pretty_unit(res.unit('load.w'))})")
    ax[0].legend()
    ax[1].plot(res.t, current, label="motor.i")
    ax[1].set_ylabel(f"motor current ({pretty_unit(res.unit('motor.i'))})")
    ax[1].set_xlabel("time (s)")
    ax[1].legend()
    fig.suptitle(f"DC motor on a two-stage gear train, {V:g} V step (network, reduced PHS)")
    if out is not None:
        fig.savefig(out, dpi=120)
    return fig


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "network_dc_motor_gear.png")
