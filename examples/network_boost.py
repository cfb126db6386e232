"""The boost converter of Duindam et al. (2009), §3.1: switched vs averaged (issue 5,
part 5).

The switched PHS has J(S) = [[0, −(1−S)], [1−S, 0]] on (φ_L, q_C) with the switch
position S ∈ {0, 1} driven by a 20 kHz PWM of duty 0.4; the averaged model replaces S
by the duty ratio D.  The converter is built twice — from the library class and as a
network of source, inductor, switch pair, capacitor and load — and both give the same
structure.  The capacitor voltages are overlaid; both settle at E/(1 − D).

    MPLBACKEND=Agg python examples/network_boost.py
"""

from __future__ import annotations

import sys

import numpy as np
import sympy as sp
from matplotlib.figure import Figure

from porthamiltonian import simulate
from porthamiltonian.library import electrical as E
from porthamiltonian.network import Network
from porthamiltonian.simulate import pwm

L, C, R, VIN, D, PERIOD = 1e-3, 1e-4, 10.0, 12.0, 0.4, 5e-5


def boost_network() -> Network:
    net = Network("boost")
    net.add("E", E.VoltageSource())
    net.add("L", E.Inductor(L=L))
    net.add("sw", E.IdealSwitch())  # the switch pair, ratio 1 − S
    net.add("C", E.Capacitor(C=C))
    net.add("R", E.Resistor(R=R))
    net.junction("1", "E.p", "L.p", "sw.a")  # input loop: one inductor current
    net.junction("0", "sw.b", "C.p", "R.p")  # output node: one capacitor voltage
    return net


def main(out: str | None = None) -> Figure:
    """Run, print, and draw the figure (saved to ``out`` if given); returns it."""
    switched = E.BoostConverter(L=L, C=C, R=R).system()
    from_network = boost_network().system()
    S = sp.Symbol("S", positive=True)
    print("J(S) of the library class:", switched.J.tolist())
    print("J(S) of the network:      ", from_network.J.tolist())
    assert sp.simplify(switched.J - from_network.J.subs(S, S)) == sp.zeros(2, 2)
    averaged = E.BoostConverter.averaged(L=L, C=C, R=R).system().subs(D=D).numeric()
    t_end = 0.012
    sw = simulate(switched, (0, t_end), u=VIN, modulation={"S": pwm(PERIOD, D)},
                  method="midpoint", dt=PERIOD / 20)
    av = simulate(averaged, (0, t_end), u=VIN, method="midpoint", dt=PERIOD / 20)
    net_run = simulate(from_network, (0, t_end), u=VIN, modulation={"S": pwm(PERIOD, D)},
                       method="midpoint", dt=PERIOD / 20)
    # the capacitor (output) voltage q_C/C, from the charge: the PWM run's named
    # co-energies are not evaluated under a modulation (S has no value there), and the
    # averaged system's .subs().numeric() copy has lost the units
    vc_sw, vc_av = sw["q_C"] / C, av["q_C"] / C
    assert np.allclose(net_run["C.q"] / C, vc_sw, rtol=1e-9, atol=1e-9)
    last = sw.t > t_end - 2 * PERIOD
    print(f"mean switched output over the last two periods {np.mean(vc_sw[last]):.4f} V, "
          f"ripple {np.ptp(vc_sw[last]):.4f} V; averaged {vc_av[-1]:.4f} V; "
          f"E/(1 − D) = {VIN / (1 - D):.4f} V")
    print(f"switched run: max |power residual| = {np.max(np.abs(sw.power_residual)):.2e} J "
          f"over {len(sw.t) - 1} steps across {int(t_end / PERIOD) * 2} switching instants")
    fig = Figure(figsize=(7, 4), layout="constrained")
    ax = fig.subplots()
    ax.plot(sw.t * 1e3, vc_sw, lw=0.6, label=f"switched (PWM {1e-3 / PERIOD:g} kHz, D = {D:g})")
    ax.plot(av.t * 1e3, vc_av, lw=1.5, label="averaged (S → D)")
    ax.axhline(VIN / (1 - D), ls="--", c="k", lw=0.8, label="E/(1 − D)")
    ax.set_xlabel("time (ms)")
    ax.set_ylabel("output voltage v_C (V)")
    ax.legend()
    ax.set_title(f"boost converter, E = {VIN:g} V (Duindam et al. 2009, §3.1)")
    if out is not None:
        fig.savefig(out, dpi=120)
    return fig


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "network_boost.png")
