"""Build a 10^5-state discretized string and find its lowest modes, against scikit-fem.

Three ways to assemble the same P_k wave-equation matrices on ``N`` elements:

* ours — ``porthamiltonian.distributed.string``: the sparse PHS (J, R, G, Q) of the
  partitioned FEM, plus ``system.compile()`` (A = (J − R)Q);
* scikit-fem — ``BilinearForm`` mass and stiffness of ``ElementLineP1``/``P2`` (the
  textbook FEM for ρ ẅ = T w''; what a user of scikit-fem would assemble);
* naive — a Python loop over elements adding 2×2 blocks into a ``lil_matrix`` (P1).

Then the 5 lowest frequencies by shift-invert Lanczos: ours (``model.frequencies``) vs
``eigsh`` on the scikit-fem matrices, both against nπc/L.

    python benchmarks/distributed_build.py [--states 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import scipy.sparse as sps
import scipy.sparse.linalg as spla

from porthamiltonian.distributed import string


def best(fn, repeat):
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


def ours(N, k):
    model = string(1.0, 1.0, 1.0, elements=N, degree=k)
    model.system.compile()
    return model


def skfem_matrices(N, k):
    import skfem
    from skfem.helpers import dot, grad

    mesh = skfem.MeshLine(np.linspace(0.0, 1.0, N + 1))
    elem = skfem.ElementLineP1() if k == 1 else skfem.ElementLineP2()
    basis = skfem.Basis(mesh, elem)

    @skfem.BilinearForm
    def stiffness(u, v, w):
        return dot(grad(u), grad(v))

    @skfem.BilinearForm
    def mass(u, v, w):
        return u * v

    K, M = stiffness.assemble(basis), mass.assemble(basis)
    interior = basis.complement_dofs(basis.get_dofs())
    return K[interior][:, interior], M[interior][:, interior]


def naive(N):
    h = 1.0 / N
    K = sps.lil_matrix((N + 1, N + 1))
    M = sps.lil_matrix((N + 1, N + 1))
    ke = np.array([[1, -1], [-1, 1]]) / h
    me = np.array([[2, 1], [1, 2]]) * h / 6
    for e in range(N):
        for a in range(2):
            for b in range(2):
                K[e + a, e + b] += ke[a, b]
                M[e + a, e + b] += me[a, b]
    return K.tocsr()[1:-1, 1:-1], M.tocsr()[1:-1, 1:-1]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--states", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    exact = np.arange(1, 6) * np.pi
    print(f"{'degree':>6} {'elements':>9} {'states':>8} {'ours [s]':>9} {'skfem [s]':>10} "
          f"{'naive [s]':>10} {'modes ours [s]':>15} {'modes skfem [s]':>16} "
          f"{'err ours':>9} {'err skfem':>10}")
    for k in (1, 2):
        N = args.states // (2 * k)  # 2kN − 1 states for a clamped–clamped string
        t_ours, model = best(lambda N=N, k=k: ours(N, k), args.repeat)
        t_sk, (K, M) = best(lambda N=N, k=k: skfem_matrices(N, k), args.repeat)
        t_naive = best(lambda N=N: naive(N), 1)[0] if k == 1 else float("nan")
        t0 = time.perf_counter()
        w_ours = model.frequencies(5)
        t_mo = time.perf_counter() - t0
        t0 = time.perf_counter()
        lam = spla.eigsh(K.tocsc(), k=5, M=M.tocsc(), sigma=-1.0, which="LM",
                         return_eigenvectors=False)
        t_ms = time.perf_counter() - t0
        w_sk = np.sqrt(np.sort(lam))
        print(f"{k:>6} {N:>9} {model.system.n_states:>8} {t_ours:>9.3f} {t_sk:>10.3f} "
              f"{t_naive:>10.3f} {t_mo:>15.3f} {t_ms:>16.3f} "
              f"{np.max(np.abs(w_ours - exact) / exact):>9.1e} "
              f"{np.max(np.abs(w_sk - exact) / exact):>10.1e}")


if __name__ == "__main__":
    main()
