"""Michaelis–Menten kinetics as the limit of a mass-action reaction network.

Run:  python examples/enzyme_kinetics.py [out.png]

The mechanism E + S ⇌ C → E + P (docs/thermo-chemistry.md) with rate constants
k₁ = 10 m³/(mol s), k₋₁ = 1 /s, k₂ = 1 /s in V = 1 m³ (amounts in mol equal
concentrations in mol/m³), S₀ = 1 mol/m³, E₀ = 0.05 mol/m³.  The full mass-action ODE
ṅ = N v(n) (:class:`~porthamiltonian.thermo.reactions.network.ReactionNetwork`, solved
with SciPy Radau and the network's analytic Jacobian) is compared with the quasi-steady-
state approximation d[P]/dt = V_max [S]/(K_M + [S]), V_max = k₂E₀, K_M = (k₋₁ + k₂)/k₁.
The conservation laws E + C and S + C + P are printed and checked along the solution.
"""

import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy.integrate import solve_ivp  # noqa: E402

from porthamiltonian.thermo.reactions.network import ReactionNetwork  # noqa: E402

k1, km1, k2, E0, S0 = 10.0, 1.0, 1.0, 0.05, 1.0
net = ReactionNetwork(["E", "S", "C", "P"], {"bind": "E + S <=> C", "cat": "C -> E + P"},
                      k_forward={"bind": k1, "cat": k2}, k_backward={"bind": km1})
vmax, KM = k2 * E0, (km1 + k2) / k1
print("conservation laws (rows over E, S, C, P):", net.conservation_laws.tolist())

t = np.linspace(0.0, 60.0, 601)
full = solve_ivp(lambda t, n: net.rhs(n), (t[0], t[-1]), [E0, S0, 0.0, 0.0], t_eval=t,
                 method="Radau", jac=lambda t, n: net.jacobian(n).toarray(),
                 rtol=1e-10, atol=1e-14)
qssa = solve_ivp(lambda t, s: -vmax * s / (KM + s), (t[0], t[-1]), [S0], t_eval=t,
                 rtol=1e-10, atol=1e-14)
drift = np.abs(net.conservation_laws @ full.y - (net.conservation_laws @ full.y[:, :1]))
print(f"largest drift of the conservation laws: {drift.max():.1e} mol")
S, P = full.y[1], full.y[3]
rate = np.array([net.rhs(n)[3] for n in full.y.T])
k = int(np.argmin(np.abs(S - 0.5 * S0)))
print(f"rate of P at [S] = {S[k]:.3f} mol/m³: mass action {rate[k]:.5f}, "
      f"QSSA {vmax * S[k] / (KM + S[k]):.5f} mol/(m³ s)")

fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
ax1.plot(t, P, label="P, mass action")
ax1.plot(t, S0 - qssa.y[0], "--", label="P, QSSA (Michaelis–Menten)")
ax1.plot(t, S, label="S, mass action")
ax1.set(xlabel="time t (s)", ylabel="concentration (mol/m³)", title="E + S ⇌ C → E + P")
ax1.legend()
s_axis = np.linspace(0.0, S0, 200)
ax2.plot(S, rate, label="mass action")
ax2.plot(s_axis, vmax * s_axis / (KM + s_axis), "--", label="V_max S/(K_M + S)")
ax2.set(xlabel="substrate [S] (mol/m³)", ylabel="product rate d[P]/dt (mol/(m³ s))",
        title=f"E₀/S₀ = {E0 / S0:g}")
ax2.legend()
out = sys.argv[1] if len(sys.argv) > 1 else "enzyme_kinetics.png"
fig.savefig(out, dpi=120)
print("wrote", out)
