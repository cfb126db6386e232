"""Parallel RLC fed by a current step: bond graph → PHS → simulation.

    python examples/parallel_rlc.py [out.png]

KCL at the node: i = v/R + C dv/dt + i_L, L di_L/dt = v.  After the step all the
current flows through the inductor (i_L → 1 A, v → 0); the ringing has the damped
frequency ω_d = √(1/LC − 1/(2RC)²).
"""

import sys

import numpy as np
from bondgraph_example import load, run, show, value

model, system = load("parallel_rlc")
show(system)
res = run(model, system)
L, C, R = value(model, "L"), value(model, "C"), value(model, "R")
i_L = res["L1.i"]  # the inductor current (A): L1's co-energy, phi/L
print(f"final inductor current {i_L[-1]:.4f} A (circuit theory: 1 A after the 1 A step)")
print(f"damped frequency √(1/LC − 1/(2RC)²) = {np.sqrt(1/(L*C) - 1/(2*R*C)**2):.1f} rad/s")
res.plot(sys.argv[1] if len(sys.argv) > 1 else "parallel_rlc.png")
