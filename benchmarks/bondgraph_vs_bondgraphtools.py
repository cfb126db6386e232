"""Deriving the equations of an RLC ladder: porthamiltonian vs BondGraphTools, one run.

    pip install BondGraphTools          # in the same environment as porthamiltonian
    python benchmarks/bondgraph_vs_bondgraphtools.py [--bgt-limit 120] [N ...]

For each N (sections of a series-R/L, shunt-C ladder driven by an Se and closed by
an R: 2N states) it times

* ``to_phs(graph, symbolic=False)`` — our numeric (sparse) path,
* ``to_phs(graph, symbolic=True)``  — our symbolic path (N ≤ 1000),
* BondGraphTools' ``model.constitutive_relations`` (SymPy equations ``ẋ − f(x, u)``),
  until one call takes longer than ``--bgt-limit`` seconds,

and checks that the two tools derive the same state matrix: BondGraphTools' relations
are linear, ``ẋ − A x − B u``, and its states are the storages in the order they were
added, as ours are.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from bondgraph_ladder import ladder

from porthamiltonian.bondgraph import to_phs


def bgt_ladder(n: int):  # noqa: ANN201 - a BondGraphTools model
    import BondGraphTools as bgt

    m = bgt.new(name=f"ladder{n}")
    prev = bgt.new("Se", name="u")
    bgt.add(m, prev)
    for k in range(n):
        s, p = bgt.new("1", name=f"s{k}"), bgt.new("0", name=f"p{k}")
        r = bgt.new("R", name=f"R{k}", value=1.0)
        ind = bgt.new("I", name=f"L{k}", value=1e-3)
        c = bgt.new("C", name=f"C{k}", value=1e-6)
        bgt.add(m, s, r, ind, p, c)
        for a, b in ((prev, s), (s, r), (s, ind), (s, p), (p, c)):
            bgt.connect(a, b)
        prev = p
    load = bgt.new("R", name="RL", value=1.0)
    bgt.add(m, load)
    bgt.connect(prev, load)
    return m


def bgt_state_matrix(relations, n_states: int) -> np.ndarray:
    import sympy as sp

    x = sp.symbols(f"x_0:{n_states}")
    A = np.zeros((n_states, n_states))
    for i, rel in enumerate(relations):
        for j, xj in enumerate(x):
            A[i, j] = -float(sp.diff(rel, xj))
    return A


def our_state_matrix(sys) -> np.ndarray:  # noqa: ANN001 - a numeric PHS
    m = {k: (v.toarray() if hasattr(v, "toarray") else np.asarray(v, dtype=float))
         for k, v in sys.matrices().items()}
    Q = sys.Q.toarray() if hasattr(sys.Q, "toarray") else np.asarray(sys.Q, dtype=float)
    return (m["J"] - m["R"]) @ Q


def fmt(t: float | None) -> str:
    return f"{t:.3f} s" if t is not None else "—"


def timed(f):  # noqa: ANN001, ANN201
    """``f()`` and its CPU time (the machine is shared: wall time counts the others)."""
    t0 = time.process_time()
    out = f()
    return out, time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("sizes", nargs="*", type=int, default=[10, 20, 40, 100, 1000, 10000])
    ap.add_argument("--bgt-limit", type=float, default=120.0,
                    help="stop running BondGraphTools once one call exceeds this (s)")
    args = ap.parse_args()
    try:
        import BondGraphTools  # noqa: F401
        have_bgt = True
    except ImportError:
        have_bgt = False
        print("BondGraphTools is not installed: pip install BondGraphTools")
    print(f"{'N':>6} {'states':>7} {'ours numeric':>13} {'ours symbolic':>14} "
          f"{'BondGraphTools':>15} {'ratio':>8}  same A")
    bgt_on = have_bgt
    for n in args.sizes:
        num, t_num = timed(lambda n=n: to_phs(ladder(n), symbolic=False))
        t_sym = timed(lambda n=n: to_phs(ladder(n), symbolic=True))[1] if n <= 1000 else None
        t_bgt = same = None
        if bgt_on:
            model = bgt_ladder(n)
            rel, t_bgt = timed(lambda model=model: model.constitutive_relations)
            same = np.allclose(bgt_state_matrix(rel, 2 * n), our_state_matrix(num),
                               rtol=1e-12, atol=1e-9)
            bgt_on = t_bgt <= args.bgt_limit
        ratio = f"{t_bgt / t_num:.0f}×" if t_bgt is not None else "—"
        print(f"{n:>6} {2 * n:>7} {fmt(t_num):>13} {fmt(t_sym):>14} {fmt(t_bgt):>15} "
              f"{ratio:>8}  {'yes' if same else '—' if same is None else 'NO'}", flush=True)


if __name__ == "__main__":
    main()
