"""Mason's rule on the block diagram of the third-order servo, checked against its PHS.

Run:  python examples/bondgraph_mason.py [out.png]

The servo (examples/models/servo_order3.yaml: Se V → 1{Ra, La} → GY K → 1{Jt, bf, kr})
is turned into its signal-flow graph by its causality (docs/bondgraphs-signal-flow.md);
Mason's gain formula gives the transfer function from the voltage V to the load angle
θ (the state of the return spring kr) and to the current V.i, symbolically.  The script
prints them, the loops of the diagram, the elements' causal gains and the impedance the
motor presents at its terminals, checks each against the transfer function of the
generated port-Hamiltonian model, and draws the signal-flow graph beside the Bode
magnitude of θ/V from Mason's rule and from the PHS.
"""

import pathlib
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import sympy as sp  # noqa: E402

from porthamiltonian.analysis import transfer_function  # noqa: E402
from porthamiltonian.bondgraph import (  # noqa: E402
    BondGraph,
    block_diagram,
    draw_block_diagram,
    element_gains,
    mason,
    port_impedance,
    to_phs,
)
from porthamiltonian.bondgraph.mason_rule import loops  # noqa: E402
from porthamiltonian.bondgraph.signal_flow import S  # noqa: E402
from porthamiltonian.io import load_model  # noqa: E402

MODEL = pathlib.Path(__file__).parent / "models" / "servo_order3.yaml"
bg = BondGraph.from_model(load_model(MODEL))
g = block_diagram(bg)
phs = to_phs(bg)

theta = mason(g, "V", "kr")            # load angle θ (rad) per volt
current = mason(g, "V", "V.i")         # the current the source delivers (A) per volt
print("θ/V (Mason) =", theta)
print("i/V (Mason) =", current)
print(f"signal-flow graph: {g.number_of_nodes()} signals, {g.number_of_edges()} gains, "
      f"{len(loops(g))} loops")
for name, gain in element_gains(bg).items():
    print(f"  {name:4s} {gain.causality:12s} {gain}")
Z = port_impedance(bg, "V")
print("Z(s) at the terminals =", Z)

G = transfer_function(phs, "V", ["kr", "V.i"], symbolic=True)
for what, ours, theirs in [("θ/V", theta, G[0, 0]), ("i/V", current, G[1, 0]),
                           ("1/Z", 1 / Z, G[1, 0])]:
    assert sp.cancel(sp.together(ours - theirs)) == 0, what
    print(f"{what}: Mason / composition = PHS transfer function (difference cancels to 0)")

values = {sp.Symbol(k, positive=True): v for k, v in phs.parameters.items()}
w = np.logspace(0, 4, 200)
mason_w = sp.lambdify(S, theta.subs(values), "numpy")(1j * w)
phs_w = transfer_function(phs, "V", "kr").frequency_response(w)[:, 0, 0]

fig, (ax_g, ax_b) = plt.subplots(1, 2, figsize=(13, 6.5), layout="constrained",
                                 width_ratios=[1.6, 1])
draw_block_diagram(g, ax=ax_g, title="signal-flow graph (edge: gain, unlabelled: 1)")
ax_g.set_xlabel("layout (arbitrary units)")
ax_g.set_ylabel("layout (arbitrary units)")
ax_b.loglog(w, abs(mason_w), lw=2, label="Mason's rule")
ax_b.loglog(w[::8], abs(phs_w[::8]), "o", ms=4, label="PHS transfer function")
ax_b.set_xlabel("angular frequency ω (rad/s)")
ax_b.set_ylabel("|θ/V| (rad/V)")
ax_b.set_title("load angle per volt")
ax_b.legend()
fig.suptitle("third-order servo: block diagram from the causal bond graph, "
             "Mason's rule = PHS")
out = sys.argv[1] if len(sys.argv) > 1 else "bondgraph_mason.png"
fig.savefig(out, dpi=100)
print("wrote", out)
