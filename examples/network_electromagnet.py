"""The electromagnet of Duindam et al. (2009), §3.1, fed by its boost converter (issue 5,
part 5).

Network: a 12 V source, the boost converter's inductor and switch pair, its output
capacitor, and across it the coil of an electromagnet (H = φ²/(2 L(q)), L(q) = L1 +
L0/(1 + q/a), a nonlinear storage coupling flux and air gap) whose armature is a ball
under gravity.  The switch runs a 20 kHz PWM; the averaged network (S → D) runs beside
it.  Open loop the levitation is unstable; the coil resistance is chosen so that the
pull nearly balances gravity at the initial gap, and the run is short.

    MPLBACKEND=Agg python examples/network_electromagnet.py
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
from porthamiltonian.simulate import pwm

VIN, D, PERIOD = 12.0, 0.5, 5e-5
L0, L1, A, RC, MASS, G, Q0 = 0.01, 0.02, 0.005, 11.4, 0.05, 9.81, 0.01


def maglev(switch: str) -> Network:
    net = Network("maglev", parameters={"D": D})
    net.add("E", E.VoltageSource())
    net.add("L", E.Inductor(L=1e-3))
    net.add("sw", E.IdealSwitch(S=switch))
    net.add("C", E.Capacitor(C=1e-4))
    net.add("mag", EM.Electromagnet(L0=L0, L1=L1, a=A, R=RC))
    net.add("ball", M.Mass(m=MASS))
    net.add("g", M.ForceSource())
    net.junction("1", "E.p", "L.p", "sw.a")
    net.junction("0", "sw.b", "C.p", "mag.electrical")  # the coil across the capacitor
    net.junction("1", "mag.mechanical", "ball.p", "g.p")  # armature = ball: one velocity
    return net


def main(out: str | None = None) -> Figure:
    """Run, print, and draw the figure (saved to ``out`` if given); returns it."""
    switched = maglev("S").system()
    averaged = maglev("D").system()
    print(switched)
    print("ẋ of the averaged network:")
    for name, f in zip(averaged.states, averaged.rhs_expr(), strict=True):
        print(f"  d{name}/dt = {f}")
    u = {"E.u": VIN, "g.u": -MASS * G}  # gravity pushes the ball away from the magnet
    x0 = {"mag.q": Q0}
    t_end = 0.03
    sw = simulate(switched, (0, t_end), x0, u=u, modulation={"S": pwm(PERIOD, D)},
                  method="discrete_gradient", dt=PERIOD / 10)
    av = simulate(averaged, (0, t_end), x0, u=u, method="discrete_gradient", dt=PERIOD / 10)
    for name, r in (("switched", sw), ("averaged", av)):
        scale = np.max(np.abs(r.work_supplied)) + np.max(np.abs(r.work_dissipated))
        print(f"{name}: gap {r['mag.q'][-1] * 1e3:.3f} mm at t = {t_end} s; capacitor "
              f"{r['C.q'][-1] / 1e-4:.2f} V; max |power residual| / step energy = "
              f"{np.max(np.abs(r.power_residual)) / scale:.1e}")
    fig = Figure(figsize=(7, 7), layout="constrained")
    ax = fig.subplots(3, 1, sharex=True)
    # the switched run's co-energies from its states: a result's named co-energies are
    # not evaluated under a modulation (S has no value there)
    ax[0].plot(sw.t * 1e3, sw["C.q"] / 1e-4, lw=0.6, label="C.v switched")
    ax[0].plot(av.t * 1e3, av["C.v"], lw=1.5, label="C.v averaged")
    ax[0].set_ylabel(f"output capacitor voltage ({sw.unit('C.v')})")
    ax[0].legend()
    ax[1].plot(av.t * 1e3, av["mag.i"], lw=1.5, color="C1", label="mag.i averaged")
    ax[1].set_ylabel(f"coil current ({av.unit('mag.i')})")
    ax[1].legend()
    ax[2].plot(sw.t * 1e3, sw["mag.q"] * 1e3, lw=0.8, label="mag.q switched")
    ax[2].plot(av.t * 1e3, av["mag.q"] * 1e3, lw=1.5, ls="--", label="mag.q averaged")
    ax[2].set_ylabel("air gap (mm)")
    ax[2].set_xlabel("time (ms)")
    ax[2].legend()
    fig.suptitle(f"electromagnet fed by a boost converter (E = {VIN:g} V, D = {D:g})")
    if out is not None:
        fig.savefig(out, dpi=120)
    return fig


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "network_electromagnet.png")
