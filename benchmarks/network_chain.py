"""Time to assemble a mass–spring–damper chain as a component network, against the
same chain written as one bond graph (numeric ``to_phs``).

    python benchmarks/network_chain.py 100 1000 3333
    python benchmarks/network_chain.py --ladder 100 1000 3333

``--ladder``: an RLC ladder instead (series R–L branches on 1-junctions between shunt-C
nodes on 0-junctions, the junctions joined by name; the bond graph of
``benchmarks/bondgraph_ladder.py``), 3 components per section.  Both systems are built
by ``benchmarks/ladders.py``.

``N`` sections, each a Mass, a Spring and a Damper (three components, so ``N = 3333``
is a network of 10 000 components, plus a force source and a wall), bodies joined by
1-junctions.  The bond graph has per section a 1-junction (mass velocity), a 0–1–0
bridge holding the spring and the damper (Karnopp's construction), 6 elements.  Both
results are checked to have the same ``(J − R) Q``.  The bond graph is timed only up
to ``--bg-max`` sections (default 1000).
"""

from __future__ import annotations

import sys
import time

import numpy as np
from ladders import chain_bondgraph, chain_network, ladder_bondgraph, ladder_network

from porthamiltonian.bondgraph.generate import to_phs


def best_of(f, repeat: int = 3) -> tuple[float, object]:
    best, out = np.inf, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = f()
        best = min(best, time.perf_counter() - t0)
    return best, out


def main(args: list[str]) -> None:
    bg_max = 1000
    ladder = "--ladder" in args
    args = [a for a in args if a != "--ladder"]
    if "--bg-max" in args:
        i = args.index("--bg-max")
        bg_max = int(args[i + 1])
        args = args[:i] + args[i + 2:]
    print(f"{'N':>6} {'components':>10} {'network [s]':>12} {'bond graph [s]':>15} "
          f"{'ratio':>7}")
    for n in map(int, args or ["100", "1000", "3333"]):
        net = ladder_network(n) if ladder else chain_network(n)
        t_net, sys_net = best_of(lambda net=net: net.system(symbolic=False))
        t_bg = ratio = float("nan")
        if n <= bg_max:
            make = ladder_bondgraph if ladder else chain_bondgraph
            t_bg, sys_bg = best_of(lambda n=n, make=make: to_phs(make(n), symbolic=False),
                                   repeat=1)
            order = [sys_bg.states.index(s.split(".")[0]) for s in sys_net.states]
            A_net = sys_net.compile().A
            A_bg = sys_bg.compile().A
            A_bg = A_bg.toarray() if hasattr(A_bg, "toarray") else np.asarray(A_bg)
            A_bg = A_bg[np.ix_(order, order)]
            diff = abs(A_net - A_bg).max()
            assert diff < 1e-9, f"the two models differ by {diff}"
            ratio = t_bg / t_net
        count = sum(not c.startswith("_") for c in net.components)
        print(f"{n:>6} {count:>10} {t_net:>12.3f} {t_bg:>15.3f} {ratio:>7.1f}")


if __name__ == "__main__":
    main(sys.argv[1:])
