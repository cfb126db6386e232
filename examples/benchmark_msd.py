"""The mass–spring–damper chain of the pH benchmark collection, out to a .mat file and pyMOR.

The chain of Gugercin, Polyuga, Beattie & van der Schaft (Automatica 48, 2012) as the
collection builds it (50 cells, m = 4, k = 4, c = 1, forces on the first two masses,
velocities out; porthamiltonian.library.benchmarks.msd_chain) is

1. saved in the collection's layout (E, J, R, Q, G, P, S, N) and loaded back — the
   matrices come back bit for bit;
2. handed to pyMOR as a PHLTIModel, whose H2 norm pyMOR computes;
3. compared with the library: pyMOR's transfer function against the library's on the
   imaginary axis, plotted as a Bode magnitude of the channels F1 → v1 and F2 → v1.

The chain has a rigid translation that the ports neither move nor see (Q ⪰ 0, not ≻ 0);
pyMOR's Lyapunov solver warns about the eigenvalue 0, so its H2 norm is checked against
the same chain in elongation coordinates (99 states, Hurwitz; same transfer function).

    python examples/benchmark_msd.py [--out benchmark_msd.png] [--mat chain.mat]
        [--points 40]
"""

from __future__ import annotations

import argparse
import tempfile
import warnings
from pathlib import Path

import numpy as np
import scipy.linalg as sla
from matplotlib.figure import Figure

from porthamiltonian.export import load_matrices, save_matrices, to_pymor
from porthamiltonian.library.benchmarks import msd_chain
from porthamiltonian.linear_ph import NAMES, linear_ph


def h2_norm(A: np.ndarray, B: np.ndarray, C: np.ndarray) -> float:
    """‖G‖_H2 = √trace(C P Cᵀ) with A P + P Aᵀ + B Bᵀ = 0 (A Hurwitz)."""
    P = sla.solve_continuous_lyapunov(A, -B @ B.T)
    return float(np.sqrt(np.trace(C @ P @ C.T)))


def elongation_form(lin):
    """(A, B, C) of the chain in spring elongations and momenta (the rigid mode gone)."""
    n = lin.n_states
    cells = n // 2
    T = np.zeros((n - 1, n))  # z = T x: e_i = q_{i+1} − q_i, then p_i
    for i in range(cells - 1):
        T[i, 2 * i + 2], T[i, 2 * i] = 1.0, -1.0
    T[cells - 1:, 1::2] = np.eye(cells)
    # Q = Tᵀ Q_z T (Q vanishes on ker T, the rigid mode), so Q_z = T⁺ᵀ Q T⁺
    Tp = np.linalg.pinv(T)
    Qz = Tp.T @ lin.Q @ Tp
    J, R, G = T @ lin.J @ T.T, T @ lin.R @ T.T, T @ lin.G
    return (J - R) @ Qz, G, G.T @ Qz


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="benchmark_msd.png")
    ap.add_argument("--mat", default=None, help="where to save the .mat (default: temporary)")
    ap.add_argument("--points", type=int, default=40, help="frequencies for pyMOR's eval_tf")
    args = ap.parse_args()

    chain = msd_chain(n_cells=50, io_dim=2, m=4.0, k=4.0, c=1.0)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(args.mat) if args.mat else Path(tmp) / "msd_chain.mat"
        save_matrices(chain, path)
        back = load_matrices(path)
    lin = linear_ph(chain)
    same = all(np.array_equal(getattr(lin, k), getattr(back, k)) for k in NAMES)
    print(f"saved and loaded {lin.n_states} states, {lin.n_inputs} inputs: matrices "
          f"{'bitwise equal' if same else 'DIFFERENT'}, names "
          f"{'equal' if back.states == lin.states else 'DIFFERENT'}")

    model = to_pymor(back)
    with warnings.catch_warnings():  # the rigid mode: pyMOR's solver perturbs A and says so
        warnings.simplefilter("ignore", RuntimeWarning)
        h2_pymor = float(model.h2_norm())
    h2_ref = h2_norm(*elongation_form(lin))
    print(f"H2 norm: pyMOR {h2_pymor:.10f}, minimal elongation form (SciPy Lyapunov) "
          f"{h2_ref:.10f}, relative difference {abs(h2_pymor - h2_ref) / h2_ref:.1e}")

    w = np.logspace(-3, 1, args.points)
    H_lib = np.array([back.transfer(1j * wi) for wi in w])
    H_mor = np.array([model.transfer_function.eval_tf(1j * wi) for wi in w])
    rel = np.linalg.norm(H_lib - H_mor, axis=(1, 2)) / np.linalg.norm(H_lib, axis=(1, 2))
    print(f"transfer function, library vs pyMOR at {len(w)} frequencies: max relative "
          f"difference {rel.max():.1e}")

    fig = Figure(figsize=(8, 6), layout="constrained")
    ax = fig.subplots(2, 1, sharex=True)
    for (i, j), style in (((0, 0), "-"), ((0, 1), "-")):
        ax[0].loglog(w, np.abs(H_lib[:, i, j]), style, lw=4, alpha=0.35,
                     label=f"library F{j + 1} → v{i + 1}")
        ax[0].loglog(w, np.abs(H_mor[:, i, j]), "k--", lw=1,
                     label=f"pyMOR F{j + 1} → v{i + 1}")
    ax[0].set_ylabel("mobility |v/F| (m·s⁻¹/N)")
    ax[0].legend(fontsize=8, ncols=2)
    ax[0].set_title("benchmark MSD chain, 50 cells: library and pyMOR PHLTIModel")
    zero = rel == 0  # a log axis cannot show 0: mark those points at the bottom
    ax[1].loglog(w[~zero], rel[~zero], "o-", ms=3, label="relative difference")
    ax[1].loglog(w[zero], np.full(zero.sum(), 2e-18), "v", ms=4,
                 label=f"exactly 0 ({zero.sum()} of {len(w)} frequencies)")
    ax[1].axhline(np.finfo(float).eps, color="gray", lw=1, ls=":", label="machine ε")
    ax[1].set_ylim(1e-18, 1e-10)
    ax[1].legend(fontsize=8)
    ax[1].set_ylabel("‖H_lib − H_pyMOR‖/‖H_lib‖ (1)")
    ax[1].set_xlabel("angular frequency ω (rad/s)")
    fig.savefig(args.out, dpi=100)
    print("wrote", args.out)


if __name__ == "__main__":
    main()
