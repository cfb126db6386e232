"""Linear analysis of a series RLC circuit written as a port-Hamiltonian system.

Run:  python examples/analysis_rlc_bode.py [out.png]

States q (capacitor charge, C) and φ (inductor flux, Wb), H = q²/(2C) + φ²/(2L);
a voltage source V drives the loop and the conjugate output is the current I.
Prints the symbolic admittance I/V = Cs/(LCs² + RCs + 1), the poles, the modes and the
passivity certificate, and writes the Bode diagram of I/V and of the capacitor voltage
v_C/V (output "dH/dq" = ∂H/∂q = q/C) with their step responses to out.png.
"""

import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import sympy as sp  # noqa: E402

from porthamiltonian import PHS  # noqa: E402
from porthamiltonian import analysis as an  # noqa: E402

q, phi = sp.symbols("q phi", real=True)
R, L, C = sp.symbols("R L C", positive=True)
rlc = PHS(J=[[0, 1], [-1, 0]], R=[[0, 0], [0, R]], G=[[0], [1]],
          hamiltonian=q**2 / (2 * C) + phi**2 / (2 * L),
          states=["q", "phi"], inputs=["V"], outputs=["I"],
          parameters={"R": 10.0, "L": 0.1, "C": 1e-3})

print("I/V   =", an.transfer_function(rlc, symbolic=True)[0, 0])
print("v_C/V =", an.transfer_function(rlc, outputs="dH/dq", symbolic=True)[0, 0])
print("Z(s)  =", an.impedance(rlc, "V", input_is="effort").symbolic())
print("poles:", an.poles(rlc))
for mode in an.modes(rlc):
    print("mode: ", mode)
print("passivity:", an.passivity(rlc).reason)

fig, axes = plt.subplots(3, 1, figsize=(7, 9), layout="constrained")
an.bode(rlc, outputs=["I", "dH/dq"], ax=axes[:2])
an.step_response(rlc, outputs=["I", "dH/dq"]).plot(ax=axes[2])
fig.suptitle("series RLC (R = 10 Ω, L = 0.1 H, C = 1 mF):\n"
             "admittance I/V and capacitor voltage v_C/V")
axes[2].set_ylabel("step response (A/V; V/V)")
names = ["I/V: loop current (A/V)", "v_C/V = ∂H/∂q / V: capacitor voltage (V/V)"]
for ax in axes:  # name the outputs by what they are, not by their PHS names
    for line, name in zip(ax.get_lines(), names, strict=False):
        line.set_label(name)
    ax.legend(fontsize=8)
out = sys.argv[1] if len(sys.argv) > 1 else "analysis_rlc_bode.png"
fig.savefig(out, dpi=100)
print("wrote", out)
