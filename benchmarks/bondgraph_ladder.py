"""Time to derive the explicit PHS of an RLC ladder with N sections, and how it grows.

    python benchmarks/bondgraph_ladder.py 10n 40n 100n 10s 20s
    python benchmarks/bondgraph_ladder.py --repeat 3 --bgt 5,10,20 \\
        1000n 3000n 10000n 30000n 100000n 100s 200s 400s 1000s

``Nn`` = numeric path, ``Ns`` = symbolic path.  Each section is a 1-junction with a
series R and L, then a 0-junction with a shunt C; the line is driven by an Se and
terminated by an R (built by ``benchmarks/ladders.py``; 2N states, 5N + 2 elements).

Times are CPU seconds (``time.process_time``) of ``to_phs`` alone — the graph is built
before the clock starts — best of ``--repeat`` runs, since the machine is shared; SymPy's
cache is emptied before each symbolic run.  For
each path with three or more sizes the growth exponent ``p`` of ``t ∝ Nᵖ`` is the
least-squares slope of ``log t`` over ``log N``.  ``--bgt`` runs BondGraphTools'
``constitutive_relations`` on the same ladder (``bondgraph_vs_bondgraphtools.py`` builds
it) for the sizes given, once each, and reports its exponent and the ratio of its time to
ours at the same N.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from ladders import ladder_bondgraph as ladder  # noqa: F401 - also imported by others
from sympy.core.cache import clear_cache

from porthamiltonian.bondgraph.generate import to_phs


def best_cpu(run: Callable[[Any], Any], repeat: int,
             setup: Callable[[], Any] = lambda: None) -> tuple[Any, float]:
    """The result of ``run(setup())`` and its smallest CPU time over ``repeat`` calls
    (``setup`` outside the clock)."""
    best, out = float("inf"), None
    for _ in range(repeat):
        arg = setup()
        t0 = time.process_time()
        out = run(arg)
        best = min(best, time.process_time() - t0)
    return out, best


def exponent(sizes: list[int], times: list[float]) -> float | None:
    """Slope of log t over log N (None for fewer than three sizes)."""
    if len(sizes) < 3:
        return None
    return float(np.polyfit(np.log(sizes), np.log(times), 1)[0])


def ours(n: int, symbolic: bool, repeat: int) -> tuple[Any, float]:
    """A fresh graph for each run (generation parses a new graph's parameters once) and,
    symbolic, an empty SymPy cache: a repeat must not reuse the last run's results."""
    def setup() -> Any:
        if symbolic:
            clear_cache()
        return ladder(n)

    return best_cpu(lambda graph: to_phs(graph, symbolic=symbolic), repeat, setup)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="*", default=["10n", "40n", "100n", "10s"],
                    help="sizes with the path: 1000n (numeric), 100s (symbolic)")
    ap.add_argument("--repeat", type=int, default=1, help="best of this many runs")
    ap.add_argument("--bgt", default="", help="comma-separated N for BondGraphTools")
    args = ap.parse_args()
    to_phs(ladder(2), symbolic=True)  # imports and SymPy's caches outside the clock
    to_phs(ladder(2), symbolic=False)
    results: dict[str, dict[int, float]] = {"numeric": {}, "symbolic": {}}
    print(f"{'N':>7} {'path':>9} {'CPU [s]':>9} {'states':>7}")
    for arg in args.runs:
        n, symbolic = int(arg[:-1]), arg.endswith("s")
        sys_, t = ours(n, symbolic, args.repeat)
        path = "symbolic" if symbolic else "numeric"
        results[path][n] = t
        print(f"{n:>7} {path:>9} {t:>9.3f} {sys_.n_states:>7}", flush=True)
    for path, res in results.items():
        p = exponent(list(res), list(res.values()))
        if p is not None:
            print(f"growth exponent, {path}: {p:.2f} (N = {min(res)} … {max(res)})")
    if args.bgt:
        bgt_sweep([int(s) for s in args.bgt.split(",")], args.repeat)


def bgt_sweep(sizes: list[int], repeat: int) -> None:
    """BondGraphTools beside our numeric and symbolic paths on the same ladders."""
    try:
        from bondgraph_vs_bondgraphtools import bgt_ladder
    except ImportError:
        print("BondGraphTools is not installed: pip install BondGraphTools")
        return
    print(f"\n{'N':>7} {'BondGraphTools [s]':>19} {'ours num [s]':>13} {'ours sym [s]':>13} "
          f"{'BGT/num':>9} {'BGT/sym':>8}")
    times = []
    for n in sizes:
        model = bgt_ladder(n)
        _, t_bgt = best_cpu(lambda _, model=model: model.constitutive_relations, 1)
        times.append(t_bgt)
        t_num = ours(n, False, repeat)[1]
        t_sym = ours(n, True, repeat)[1]
        print(f"{n:>7} {t_bgt:>19.3f} {t_num:>13.4f} {t_sym:>13.3f} {t_bgt / t_num:>8.0f}× "
              f"{t_bgt / t_sym:>7.0f}×", flush=True)
    p = exponent(sizes, times)
    if p is not None:
        print(f"growth exponent, BondGraphTools: {p:.2f} (N = {min(sizes)} … {max(sizes)})")


if __name__ == "__main__":
    main()
