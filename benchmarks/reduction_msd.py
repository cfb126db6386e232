"""Structure-preserving reduction of the benchmark MSD chain: ours vs pyMOR, r = 2 … 20.

    python benchmarks/reduction_msd.py [--orders 2 4 6 8 10 12 14 16 18 20] [--repeat 3]
                                       [--fixed-end]

The mass–spring–damper chain of Gugercin et al. 2012 (``library.benchmarks.msd_chain``:
50 cells, 100 states, 2 inputs, m = k = 4, c = 1) with the feed-through S = 1e-6·I of the
PortHamiltonianModelReduction.jl README.  Both tools get the same 72-state minimal
realization (``reduction.minimal``: the rigid mode removed exactly, then the numerically
unobservable part at 1e-12), so the numbers compare the methods, not the preprocessing.
For each order r it reports the H2 error ‖G − G_r‖ (our ``h2_error``, against the full
100-state model; pyMOR's own ``h2_norm`` of its error system agrees) and the CPU time of
the reduction alone (``time.process_time``, best of ``--repeat``; no error evaluation;
pyMOR gets a fresh model each time, as it caches Gramians on the model):

* ours: PRBT, pH-IRKA (default deterministic initial shifts), one effort-constraint
  Krylov step at those shifts;
* pyMOR: ``PRBTReductor`` and ``PHIRKAReductor`` on a ``PHLTIModel`` (its defaults).

``--fixed-end`` takes the collection's earlier chain, whose last mass is tied to the
ground (the chain of the Julia README's numbers; 73-state minimal realization).

Single-threaded BLAS is advisable for stable timings (``OMP_NUM_THREADS=1``).
"""

from __future__ import annotations

import argparse
import dataclasses
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from porthamiltonian.library.benchmarks import msd_chain
from porthamiltonian.linear_ph import linear_ph
from porthamiltonian.reduction import h2_error, reduce
from porthamiltonian.reduction.minimal import minimal_realization
from porthamiltonian.reduction.standard import standard_form


def best(fn: Callable[[], Any], repeat: int) -> tuple[Any, float]:
    out, times = None, []
    for _ in range(repeat):
        t0 = time.process_time()
        out = fn()
        times.append(time.process_time() - t0)
    return out, min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--orders", type=int, nargs="+", default=list(range(2, 21, 2)))
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--fixed-end", action="store_true",
                    help="the earlier chain, last mass tied to the ground")
    args = ap.parse_args()
    chain = linear_ph(msd_chain(fixed_end=args.fixed_end)).dense()
    full = dataclasses.replace(chain, S=1e-6 * np.eye(2))
    base = minimal_realization(standard_form(full)).system
    print(f"MSD chain: {full.n_states} states, minimal realization {base.n_states}")

    from pymor.core.logger import set_log_levels
    from pymor.models.iosys import PHLTIModel
    from pymor.reductors.bt import PRBTReductor
    from pymor.reductors.ph.ph_irka import PHIRKAReductor

    set_log_levels({"pymor": "ERROR"})

    def fom() -> Any:  # a fresh model each time: pyMOR caches Gramians on the model
        return PHLTIModel.from_matrices(J=base.J, R=base.R, G=base.G, S=base.S, Q=base.Q)

    def ours(method: str, r: int) -> Callable[[], Any]:
        return lambda: reduce(base, r, method, errors=False, bound=False) \
            if method == "prbt" else reduce(base, r, method, errors=False)

    def pymor_err(rom: Any) -> float:
        A, B, C, D, E = (np.asarray(M) for M in rom.to_abcde_matrices())
        Ei = np.linalg.inv(E)  # pyMOR's ROMs may carry an E_r
        return h2_error(full, (Ei @ A, Ei @ B, C, D))

    head = (f"{'r':>3} | {'PRBT':>9} {'pyMOR':>9} | {'pH-IRKA':>9} {'pyMOR':>9} | "
            f"{'Krylov':>9} | CPU ms: {'PRBT':>6} {'pyMOR':>6} {'IRKA':>6} {'pyMOR':>6} "
            f"{'Kryl.':>6} | IRKA it")
    print(head)
    print("-" * len(head))
    for r in args.orders:
        bt, t_bt = best(ours("prbt", r), args.repeat)
        ir, t_ir = best(ours("irka", r), args.repeat)
        try:
            kr, t_kr = best(ours("krylov", r), args.repeat)
            e_kr = h2_error(full, kr.system)
        except Exception as exc:  # noqa: BLE001 - reported in the table
            e_kr, t_kr = float("nan"), float("nan")
            print(f"  (Krylov at r = {r}: {exc})")
        pbt, t_pbt = best(lambda r=r: PRBTReductor(fom()).reduce(r), args.repeat)
        pir, t_pir = best(lambda r=r: PHIRKAReductor(fom()).reduce(r), args.repeat)
        print(f"{r:>3} | {h2_error(full, bt.system):9.3e} {pymor_err(pbt):9.3e} | "
              f"{h2_error(full, ir.system):9.3e} {pymor_err(pir):9.3e} | {e_kr:9.3e} | "
              f"{' ' * 8}{1e3 * t_bt:6.0f} {1e3 * t_pbt:6.0f} {1e3 * t_ir:6.0f} "
              f"{1e3 * t_pir:6.0f} {1e3 * t_kr:6.0f} | {ir.info['iterations']}")


if __name__ == "__main__":
    main()
