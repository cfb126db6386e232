"""Elevator (after Duindam et al. 2009, App. A.1.2): motor, drum, elastic cable, cabin.

    python examples/elevator.py [out.png]

The cabin is held by the motor (cable stretched by the weight), then 40 V more lift
it.  At constant speed, V − R r M g/K = v ((R b/K + K)/r + R r d/K).
"""

import sys

from bondgraph_example import load, run, show, value

model, system = load("elevator")
show(system)
res = run(model, system)
R, K, b, r, d, M = (value(model, k) for k in ("R_a", "K", "b_d", "r", "d_c", "M_c"))
v = res["cabin.v"]  # the cabin velocity (m/s): its co-energy, p/M
print(f"final cabin speed {v[-1]:.4f} m/s; steady state {40 / ((R*b/K + K)/r + R*r*d/K):.4f} "
      f"m/s; cabin rose {res['t'][1] * (v[:-1] + v[1:]).sum() / 2:.3f} m")
res.plot(sys.argv[1] if len(sys.argv) > 1 else "elevator.png")
