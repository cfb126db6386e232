"""DC motor written as a bond graph, Se–1{R, I}–GY–1{I, R}: model and 12 V step.

    python examples/dc_motor_bondgraph.py [out.png]

L di/dt = V − R i − K ω, J ω' = K i − b ω; the speed settles at K V / (R b + K²).
(``examples/dc_motor.py`` builds the same motor by interconnecting three PHS.)
"""

import sys

from bondgraph_example import load, run, show, value

model, system = load("dc_motor")
show(system)
res = run(model, system)
R, K, J, b = (value(model, k) for k in ("R_a", "K", "J_r", "b"))
w = res["Jr.w"]  # the rotor speed (rad/s): Jr's co-energy, p/J
print(f"final speed {w[-1]:.3f} rad/s; K V/(R b + K²) = {K * 12 / (R * b + K**2):.3f} rad/s")
res.plot(sys.argv[1] if len(sys.argv) > 1 else "dc_motor_bondgraph.png")
