"""Servo (after Duindam et al. 2009, App. A.3) in three versions: order 1, 3 and 5.

    python examples/servo.py [out.png]

1st order: no inertia, no inductance; 3rd: + armature inductance and a rigid inertia;
5th: + shaft torsion between motor and load inertia.  All three hold the load at
θ = K V / (R_a k_r) at rest; the step responses differ in the fast dynamics.
"""

import sys

from bondgraph_example import load, run, show, value
from matplotlib.figure import Figure

fig = Figure(figsize=(8, 6), layout="constrained")
ax, ax2 = fig.subplots(2, 1, sharex=True)
for order in (1, 3, 5):
    model, system = load(f"servo_order{order}")
    show(system)
    res = run(model, system)
    K, R, k = value(model, "K"), value(model, "R_a"), value(model, "k_r")
    theta = res["kr"]
    print(f"order {system.n_states}: final load angle {theta[-1]:.4f} rad "
          f"(at rest K V/(R_a k_r) = {K / (R * k):.4f} rad)\n")
    ax.plot(res.t, theta, "--" if order == 5 else "-", label=f"order {system.n_states}")
    if order == 5:  # the shaft torsion: motor and load angles differ by the twist
        ax2.plot(res.t, 1e3 * res["ks"], color="tab:green", label="order 5: ks (shaft)")
ax.set_ylabel("load angle θ (rad)")
ax.set_title("load angle (orders 3 and 5 nearly coincide)")
ax.legend()
ax2.set_ylabel("shaft twist θ_m − θ_l (mrad)")
ax2.set_xlabel("time (s)")
ax2.legend()
fig.suptitle("servo models of order 1, 3 and 5: 1 V step")
fig.savefig(sys.argv[1] if len(sys.argv) > 1 else "servo.png", dpi=100)
