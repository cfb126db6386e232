"""Capacitors joined through Dirac structures: series works, parallel is refused.

Run:  python examples/dirac_series_parallel.py

* In series (a 1-junction: one common current, voltages adding up) two capacitors
  keep both charges as states; fed by a current i into the junction, each gains −i
  and the port voltage is −(v1 + v2) (all bonds point into the junction).
* In parallel (a 0-junction: one common voltage) they cannot both impose their
  voltage — dependent storages — and the library says so, naming the ports.
"""

import numpy as np

from porthamiltonian import PHS, CausalityError, DiracStructure, interconnect

c1 = PHS(G=[[1.0]], Q=[[1 / 2.0e-3]], states=["q1"], inputs=["i1"], outputs=["v1"])
c2 = PHS(G=[[1.0]], Q=[[1 / 3.0e-3]], states=["q2"], inputs=["i2"], outputs=["v2"])

series = interconnect(DiracStructure.junction1(["a", "b", "ext"]), [c1, c2],
                      [("i1", "a"), ("i2", "b")])
print(series)
print("input of the free port:", series.port_kinds)
x, i = np.array([2.0e-3, 3.0e-3]), np.array([0.1])
print("dq/dt =", series.rhs(x, i), " port effort =", series.output(x, i))

try:
    interconnect(DiracStructure.junction0(["a", "b", "ext"]), [c1, c2],
                 [("i1", "a"), ("i2", "b")])
except CausalityError as err:
    print("parallel:", err)

# The same series connection, composed purely at the level of Dirac structures:
# a 1-junction followed by a transformer 1:2 on its free port.
D = DiracStructure.junction1(["a", "b", "c"]).compose(
    DiracStructure.transformer(2.0, ports=("c2", "ext")), connect=[("c", "c2")])
print("composed ports:", D.ports, " Dirac:", D.is_dirac())
