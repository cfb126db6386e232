"""Linear pH systems for the tests of export/matrices, export/pymor and export/passive."""

from __future__ import annotations

import numpy as np

from porthamiltonian.descriptor import DescriptorPHS
from porthamiltonian.library.benchmarks import msd_chain
from porthamiltonian.linear_ph import linear_ph
from porthamiltonian.phs import PHS

#: frequencies (rad/s) at which transfer functions are compared
OMEGAS = np.logspace(-3, 3, 61)


def msd50() -> PHS:
    """The benchmark chain of issue 21: 50 cells, m = 4, k = 4, c = 1, two inputs."""
    return msd_chain(n_cells=50, io_dim=2, m=4.0, k=4.0, c=1.0)


def elongation_chain(n_cells: int = 6, io_dim: int = 2, m: float = 4.0, k: float = 4.0,
                     c: float = 1.0, S: np.ndarray | None = None, P: np.ndarray | None = None,
                     N: np.ndarray | None = None) -> PHS:
    """The chain in spring elongations e_i = q_{i+1} − q_i and momenta: the rigid mode of
    msd_chain is gone, so Q ≻ 0 and the model is minimal (2·n_cells − 1 states)."""
    lin = linear_ph(msd_chain(n_cells, io_dim, m, k, c))
    n = 2 * n_cells
    T = np.zeros((n - 1, n))  # z = T x
    for i in range(n_cells - 1):
        T[i, 2 * i + 2], T[i, 2 * i] = 1.0, -1.0
    for i in range(n_cells):
        T[n_cells - 1 + i, 2 * i + 1] = 1.0
    states = [f"e{i + 1}" for i in range(n_cells - 1)] + [f"p{i + 1}" for i in range(n_cells)]
    kw = {key: val for key, val in (("S", S), ("P", P), ("M", None if N is None else -N))
          if val is not None}
    return PHS(J=T @ lin.J @ T.T, R=T @ lin.R @ T.T, G=T @ lin.G,
               Q=np.diag([k] * (n_cells - 1) + [1 / m] * n_cells), states=states,
               inputs=list(lin.inputs), outputs=list(lin.outputs), name="elongation chain",
               **kw)


def chain_with_feedthrough() -> PHS:
    """The elongation chain with P, S, N ≠ 0 (W = [[R, P], [Pᵀ, S]] ⪰ 0)."""
    n_cells, io_dim = 6, 2
    P = np.zeros((2 * n_cells - 1, io_dim))
    P[n_cells - 1, 0] = 0.3  # row of p1, where R = c = 1
    P[n_cells, 1] = -0.2  # row of p2
    S = np.array([[1.0, 0.2], [0.2, 0.8]])
    N = np.array([[0.0, 0.5], [-0.5, 0.0]])
    return elongation_chain(n_cells, io_dim, S=S, P=P, N=N)


def parallel_capacitors() -> DescriptorPHS:
    """examples/parallel_capacitors_dae.py: two capacitors held in parallel by a
    constraint (E singular once the multiplier is a state)."""
    C1, C2, R = 1e-3, 2e-3, 100.0
    return DescriptorPHS(J=np.zeros((2, 2)), R=np.diag([0.0, 1 / R]), G=[[1.0], [0.0]],
                         B=[[1.0], [-1.0]], Q=np.diag([1 / C1, 1 / C2]), states=["q1", "q2"],
                         inputs=["i"], outputs=["v1"], multipliers=["link"])


def state_space_tf(A, B, C, D, w: float, E=None) -> np.ndarray:
    """C (jωE − A)⁻¹ B + D."""
    E = np.eye(A.shape[0]) if E is None else E
    return C @ np.linalg.solve(1j * w * E - A, B) + D


def tf_error(H1, H2, omegas=OMEGAS) -> float:
    """max over ω of ‖H1(jω) − H2(jω)‖ / ‖H1(jω)‖ (spectral norms)."""
    err = 0.0
    for w in omegas:
        a, b = np.atleast_2d(H1(w)), np.atleast_2d(H2(w))
        err = max(err, np.linalg.norm(a - b, 2) / np.linalg.norm(a, 2))
    return err


def lin_tf(system):
    """ω ↦ the transfer function of a linear pH system (or LinearPH) at jω."""
    lin = linear_ph(system).dense()
    A, B, C, D = lin.state_space()
    return lambda w: state_space_tf(A, B, C, D, w, lin.E)


def pymor_tf(model, exact: bool = False):
    """ω ↦ the transfer function of a pyMOR LTIModel at jω: from the matrices pyMOR holds
    (fast), or with ``exact`` by pyMOR's own eval_tf (~0.15 s a point)."""
    if exact:
        return lambda w: model.transfer_function.eval_tf(1j * w)
    A, B, C, D, E = (None if M is None else np.asarray(M.toarray() if hasattr(M, "toarray")
                                                        else M) for M in
                     model.to_abcde_matrices(format="dense"))
    D = np.zeros((C.shape[0], B.shape[1])) if D is None else D
    return lambda w: state_space_tf(A, B, C, D, w, E)
