"""Brayton–Moser form of a two-section RLC ladder, simulated against its pH model.

Run:  python examples/brayton_moser_rlc.py [out.png]

The ladder u → (R0, L0) → C0 → (R1, L1) → C1 ∥ RL is written as a bond graph.
``brayton_moser`` turns it into the mixed potential P(i, v) and the gradient equations
L di/dt = −∂P/∂i, C dv/dt = ∂P/∂v (docs/brayton-moser.md); the script prints P,
integrates the gradient system with SciPy's DOP853 in (i, v), and compares its currents and
voltages with the port-Hamiltonian model simulated by ``porthamiltonian.simulate``
(midpoint rule in the states φ, q) for a 1 V step.  The bottom panel shows their
difference, which is the midpoint rule's O(h²) error.
"""

import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy.integrate import solve_ivp  # noqa: E402

from porthamiltonian import simulate  # noqa: E402
from porthamiltonian.bondgraph import BondGraph  # noqa: E402
from porthamiltonian.network.brayton_moser import brayton_moser  # noqa: E402

bg = BondGraph("ladder", domain="electrical",
               parameters={"R0": 0.5, "L0": 0.2, "C0": 0.1, "R1": 0.8, "L1": 0.3,
                           "C1": 0.05, "RL": 4.0})
bg.add("u", "Se")
for name, kind, params in [("s0", "1", {}), ("R0", "R", {"r": "R0"}), ("L0", "I", {"i": "L0"}),
                           ("p0", "0", {}), ("C0", "C", {"c": "C0"}), ("s1", "1", {}),
                           ("R1", "R", {"r": "R1"}), ("L1", "I", {"i": "L1"}),
                           ("p1", "0", {}), ("C1", "C", {"c": "C1"}), ("RL", "R", {"r": "RL"})]:
    bg.add(name, kind, **params)
for a, b in [("u", "s0"), ("s0", "R0"), ("s0", "L0"), ("s0", "p0"), ("p0", "C0"),
             ("p0", "s1"), ("s1", "R1"), ("s1", "L1"), ("s1", "p1"), ("p1", "C1"),
             ("p1", "RL")]:
    bg.connect(a, b)

bm = brayton_moser(bg)
print("mixed potential P =", bm.P)
for eq in bm.equations():
    print(eq)

t_end, dt = 4.0, 2e-3
res = simulate(bm.system, (0.0, t_end), np.zeros(4), u=1.0, method="midpoint", dt=dt)
sol = solve_ivp(bm.ode(1.0), (0.0, t_end), np.zeros(4), t_eval=res.t, method="DOP853",
                rtol=1e-10, atol=1e-12)
z_ph = np.column_stack([res[str(s)] for s in bm.coenergies])
diff = np.abs(sol.y.T - z_ph)
print(f"max |BM − pH| over the run: {diff.max():.2e} (midpoint rule, h = {dt} s)")

fig, axes = plt.subplots(3, 1, figsize=(7, 8), sharex=True, layout="constrained")
names = [str(s) for s in bm.coenergies]
for k, name in enumerate(names):
    ax = axes[0] if k < len(bm.currents) else axes[1]
    line, = ax.plot(sol.t, sol.y[k], lw=2.5, alpha=0.5, label=f"{name} Brayton–Moser")
    ax.plot(res.t, z_ph[:, k], "--", color=line.get_color(), label=f"{name} pH (midpoint)")
    axes[2].semilogy(res.t[1:], diff[1:, k], label=name)
axes[0].set_ylabel("inductor current (A)")
axes[1].set_ylabel("capacitor voltage (V)")
axes[2].set_ylabel("|BM − pH| (A or V)")
axes[2].set_xlabel("time (s)")
for ax in axes:
    ax.legend(fontsize=8, ncol=2)
fig.suptitle("two-section RLC ladder, 1 V step: gradient equations of the mixed "
             "potential\nagainst the port-Hamiltonian model")
out = sys.argv[1] if len(sys.argv) > 1 else "brayton_moser_rlc.png"
fig.savefig(out, dpi=100)
print("wrote", out)
