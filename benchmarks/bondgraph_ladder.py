"""Time to derive the explicit PHS of an RLC ladder with N sections.

    python benchmarks/bondgraph_ladder.py 10n 40n 100n 10s 20s

``Nn`` = numeric path, ``Ns`` = symbolic path.  Each section is a 1-junction with a
series R and L, then a 0-junction with a shunt C; the line is driven by an Se and
terminated by an R (built by ``benchmarks/ladders.py``).
``bondgraph_vs_bondgraphtools.py`` runs the same ladder through BondGraphTools beside ours.
"""

from __future__ import annotations

import sys
import time

from ladders import ladder_bondgraph as ladder  # noqa: F401 - also imported by others

from porthamiltonian.bondgraph.generate import to_phs


def main(args: list[str]) -> None:
    print(f"{'N':>6} {'path':>9} {'time [s]':>9} {'states':>7}")
    for arg in args or ["10n", "40n", "100n", "10s"]:
        n, symbolic = int(arg[:-1]), arg.endswith("s")
        t0 = time.perf_counter()
        sys_ = to_phs(ladder(n), symbolic=symbolic)
        dt = time.perf_counter() - t0
        print(f"{n:>6} {'symbolic' if symbolic else 'numeric':>9} {dt:>9.3f} {sys_.n_states:>7}")


if __name__ == "__main__":
    main(sys.argv[1:])
