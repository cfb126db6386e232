"""Hydraulic cylinder driving a mass: pressure source, line, oil compliance, piston TF.

    python examples/hydraulic_cylinder.py [out.png]

C_h ṗ = (P_s − p)/R_l − A v, m v' = A p − b v with C_h = V0/β.  At steady state the
piston runs at v = A P_s / (b + R_l A²).
"""

import sys

from bondgraph_example import load, run, show, value

model, system = load("hydraulic_cylinder")
show(system)
res = run(model, system)
A, P, b, R, m = (value(model, k) for k in ("A", "P_s", "b", "R_l", "m"))
print(f"final piston velocity {res['mass.v'][-1]:.4f} m/s; A P_s/(b + R_l A²) = "
      f"{A * P / (b + R * A**2):.4f} m/s")
res.plot(sys.argv[1] if len(sys.argv) > 1 else "hydraulic_cylinder.png")
