"""Compose a chain of N two-port Dirac structures (docs/design.md: timing as ratios).

Three ways to get the Dirac structure between the two ends of a chain of random
two-port Dirac structures D_0, D_1, ..., D_{N-1} (port ``b_i`` of ``D_i`` joined to
port ``a_{i+1}`` of ``D_{i+1}``):

1. ``successive``: ``((D_0 ∘ D_1) ∘ D_2) ∘ ...`` with :meth:`DiracStructure.compose`;
2. ``all at once``: :meth:`DiracStructure.compose_many` (greedy pairwise
   elimination over the interconnection graph);
3. ``baseline``: one dense ``scipy.linalg.null_space`` of the stacked internal
   block (the textbook elimination ``L M_int = 0``, result ``L M_ext``).

The three results are checked to be the same subspace.  Run::

    python benchmarks/dirac_chain.py [N ...]
"""

from __future__ import annotations

import sys
import time

import numpy as np
import scipy.linalg as sla

from porthamiltonian.dirac import DiracStructure


def random_two_port(rng: np.random.Generator, i: int) -> DiracStructure:
    """A random two-port: a transformer or a gyrator with a random ratio, or a
    random skew input-output map with random causality, rows mixed randomly."""
    a, b = f"a{i}", f"b{i}"
    choice = i % 3
    ratio = rng.uniform(0.5, 2.0)
    if choice == 0:
        return DiracStructure.transformer(ratio, (a, b))
    if choice == 1:
        return DiracStructure.gyrator(ratio, (a, b))
    kinds = rng.choice(["effort", "flow"], size=2)
    K = np.array([[0.0, ratio], [-ratio, 0.0]])
    d = DiracStructure.from_input_output(K, {a: kinds[0], b: kinds[1]}, check=False)
    T = rng.normal(size=(2, 2)) + 2 * np.eye(2)
    return DiracStructure(T @ d.F, T @ d.E, d.ports, check=False)


def chain(n: int, seed: int = 1) -> list[DiracStructure]:
    rng = np.random.default_rng(seed)
    return [random_two_port(rng, i) for i in range(n)]


def successive(ds: list[DiracStructure]) -> DiracStructure:
    out = ds[0]
    for i in range(1, len(ds)):
        out = out.compose(ds[i], connect=[(f"b{i - 1}", f"a{i}")])
    return out


def all_at_once(ds: list[DiracStructure]) -> DiracStructure:
    connect = [(f"b{i - 1}", f"a{i}") for i in range(1, len(ds))]
    return DiracStructure.compose_many(ds, connect)


def baseline(ds: list[DiracStructure]) -> DiracStructure:
    """Stack everything and eliminate with one dense null_space."""
    n = 2 * len(ds)
    F = sla.block_diag(*[d.F for d in ds])
    E = sla.block_diag(*[d.E for d in ds])
    P = [2 * i + 1 for i in range(len(ds) - 1)]  # b_i
    Q = [2 * i + 2 for i in range(len(ds) - 1)]  # a_{i+1}
    keep = [0, n - 1]
    M_int = np.hstack([F[:, P] - F[:, Q], E[:, P] + E[:, Q]])
    M_ext = np.hstack([F[:, keep], E[:, keep]])
    L = sla.null_space(M_int.T).T
    R = L @ M_ext
    return DiracStructure(R[:, :2], R[:, 2:], ("a0", f"b{len(ds) - 1}"), check=False)


def best_of(fn, arg, repeat: int) -> tuple[float, DiracStructure]:
    best = np.inf
    out = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn(arg)
        best = min(best, time.perf_counter() - t0)
    return best, out


def main(sizes: list[int]) -> None:
    print(f"{'N':>6} {'successive [s]':>15} {'all at once [s]':>16} {'null_space [s]':>15} "
          f"{'baseline/successive':>20} {'baseline/all-at-once':>21}")
    for n in sizes:
        ds = chain(n)
        t_s, d_s = best_of(successive, ds, 3)
        t_a, d_a = best_of(all_at_once, ds, 3)
        t_b, d_b = best_of(baseline, ds, 1)
        assert d_s.is_dirac() and d_a.is_dirac(), "composition is not Dirac"
        assert d_s == d_a, "successive and all-at-once results differ"
        assert d_s == d_b, "result differs from the null_space baseline"
        print(f"{n:>6} {t_s:>15.4f} {t_a:>16.4f} {t_b:>15.4f} {t_b / t_s:>20.1f} "
              f"{t_b / t_a:>21.1f}")


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [100, 300, 1000])
