"""Time to assemble a mass–spring–damper chain as a component network, against the
same chain written as one bond graph (numeric ``to_phs``).

    python benchmarks/network_chain.py 100 1000 3333
    python benchmarks/network_chain.py --ladder 100 1000 3333

``--ladder``: an RLC ladder instead (series R–L branches on 1-junctions between shunt-C
nodes on 0-junctions, the junctions joined by name; the bond graph of
``benchmarks/bondgraph_ladder.py``), 3 components per section.

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

from porthamiltonian.bondgraph import BondGraph
from porthamiltonian.bondgraph.generate import to_phs
from porthamiltonian.library import mechanical as M
from porthamiltonian.network import Network


def network_chain(n: int, m: float = 1.0, k: float = 2.0, b: float = 0.1) -> Network:
    net = Network("chain")
    net.add("F", M.ForceSource())
    for i in range(n):
        net.add(f"m{i}", M.Mass(m=m))
        net.add(f"k{i}", M.Spring(k=k))
        net.add(f"d{i}", M.Damper(b=b))
    net.add("wall", M.Fixed())
    net.junction("1", "F.p", "m0.p", "k0.a", "d0.a")
    for i in range(1, n):
        net.junction("1", f"k{i-1}.b", f"d{i-1}.b", f"m{i}.p", f"k{i}.a", f"d{i}.a")
    net.junction("1", f"k{n-1}.b", f"d{n-1}.b", "wall.p")
    return net


def bondgraph_chain(n: int, m: float = 1.0, k: float = 2.0, b: float = 0.1) -> BondGraph:
    bg = BondGraph("chain", parameters={"m": m, "k": k, "b": b})
    bg.add("F", "Se")
    for i in range(n):
        for name, kind, par in ((f"v{i}", "1", {}), (f"m{i}", "I", {"i": "m"}),
                                (f"n{i}", "0", {}), (f"r{i}", "1", {}),
                                (f"k{i}", "C", {"c": "1/k"}), (f"d{i}", "R", {"r": "b"})):
            bg.add(name, kind, **par)
    bg.add("ground", "Sf")
    bg.add("vw", "0")
    bg.connect("F", "v0")
    for i in range(n):
        for a, c in ((f"v{i}", f"m{i}"), (f"v{i}", f"n{i}"), (f"n{i}", f"r{i}"),
                     (f"r{i}", f"k{i}"), (f"r{i}", f"d{i}")):
            bg.connect(a, c)
        bg.connect(f"n{i}", f"v{i + 1}" if i + 1 < n else "vw")
    bg.connect("ground", "vw")
    return bg


def network_ladder(n: int) -> Network:
    from porthamiltonian.library import electrical as E

    net = Network("ladder")
    net.add("u", E.VoltageSource())
    for k in range(n):
        net.add(f"R{k}", E.Resistor(R=1.0))
        net.add(f"L{k}", E.Inductor(L=1e-3))
        net.add(f"C{k}", E.Capacitor(C=1e-6))
        net.junction("1", "u.p" if k == 0 else f"p{k - 1}", f"R{k}.p", f"L{k}.p", name=f"s{k}")
        net.junction("0", f"s{k}", f"C{k}.p", name=f"p{k}")
    net.add("RL", E.Resistor(R=1.0))
    net.junction("1", f"p{n - 1}", "RL.p")
    return net


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
    if ladder:
        from bondgraph_ladder import ladder as bondgraph_ladder
    if "--bg-max" in args:
        i = args.index("--bg-max")
        bg_max = int(args[i + 1])
        args = args[:i] + args[i + 2:]
    print(f"{'N':>6} {'components':>10} {'network [s]':>12} {'bond graph [s]':>15} "
          f"{'ratio':>7}")
    for n in map(int, args or ["100", "1000", "3333"]):
        net = network_ladder(n) if ladder else network_chain(n)
        t_net, sys_net = best_of(lambda net=net: net.system(symbolic=False))
        t_bg = ratio = float("nan")
        if n <= bg_max:
            make = bondgraph_ladder if ladder else bondgraph_chain
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
