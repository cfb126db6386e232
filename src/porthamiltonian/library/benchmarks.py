r"""Systems of the port-Hamiltonian benchmark collection, built as library models.

:func:`msd_chain` is the mass–spring–damper chain of Gugercin, Polyuga, Beattie and van
der Schaft, *Structure-preserving tangential interpolation for model reduction of
port-Hamiltonian systems*, Automatica 48 (2012), Sec. 5, in the layout of the collection
(PortHamiltonianBenchmarkSystems, ``SingleMSDConfig``): ``n_cells`` masses :math:`m`
in a row, neighbours joined by springs :math:`k`, each mass damped to the ground by
:math:`c`, the first ``io_dim`` masses driven by forces.  The state alternates
positions and momenta, :math:`x = (q_1, p_1, q_2, p_2, \dots)`, with

.. math::
    H = \sum_{i=1}^{n-1} \tfrac{k}{2}(q_{i+1} - q_i)^2 + \sum_{i=1}^{n} \frac{p_i^2}{2m},
    \quad J = \mathrm{blkdiag}\begin{bmatrix}0 & 1\\ -1 & 0\end{bmatrix},
    \quad R = \mathrm{diag}(0, c, 0, c, \dots),

:math:`G` the unit columns of :math:`p_1, \dots, p_{io}` and outputs the velocities
:math:`y_i = p_i/m` (m/s).  No mass is tied to the ground by a spring, so :math:`Q` is
only positive semi-definite: the common translation is a rigid mode that the ports
neither excite nor see.

``fixed_end=True`` ties the last mass to the ground by one more spring :math:`k`
(:math:`Q` positive definite): the chain of the collection's earlier releases, with
which the published numbers of PortHamiltonianModelReduction.jl were computed (its
README: minimal realization of 73 states, H2 errors 0.0832 for pH-IRKA and 0.00318 for
positive-real balanced truncation at r = 10, with a feed-through S = 10⁻⁶ I).
docs/reduction.md compares both chains.
"""

from __future__ import annotations

import numpy as np

from ..phs import PHS

__all__ = ["msd_chain"]


def msd_chain(n_cells: int = 50, io_dim: int = 2, m: float = 4.0, k: float = 4.0,
              c: float = 1.0, *, fixed_end: bool = False) -> PHS:
    """The benchmark mass–spring–damper chain (module docstring) as a numeric PHS.

    Parameters: ``n_cells`` masses (2·n_cells states), ``io_dim`` force inputs on the first
    masses, mass ``m`` (kg), stiffness ``k`` (N/m), damping ``c`` (N·s/m); ``fixed_end``
    ties the last mass to the ground by a spring ``k``.
    """
    from ..errors import ModelError

    if n_cells < 1 or not 1 <= io_dim <= n_cells:
        raise ModelError(f"msd_chain needs n_cells ≥ 1 and 1 ≤ io_dim ≤ n_cells (got "
                         f"n_cells={n_cells}, io_dim={io_dim})")
    if min(m, k, c) < 0 or m == 0:
        raise ModelError(f"msd_chain needs m > 0, k ≥ 0, c ≥ 0 (got m={m}, k={k}, c={c})")
    n = 2 * n_cells
    J = np.zeros((n, n))
    J[0::2, 1::2] = np.eye(n_cells)
    J -= J.T
    R = np.zeros((n, n))
    R[1::2, 1::2] = c * np.eye(n_cells)
    Q = np.zeros((n, n))
    for i in range(0, n - 3, 2):  # the spring between q_i and q_{i+1}
        Q[np.ix_([i, i + 2], [i, i + 2])] += k * np.array([[1.0, -1.0], [-1.0, 1.0]])
    if fixed_end:
        Q[n - 2, n - 2] += k
    Q[1::2, 1::2] = np.eye(n_cells) / m
    G = np.zeros((n, io_dim))
    G[2 * np.arange(io_dim) + 1, np.arange(io_dim)] = 1.0
    states = [f"{s}{i + 1}" for i in range(n_cells) for s in ("q", "p")]
    return PHS(J=J, R=R, G=G, Q=Q, states=states,
               inputs=[f"F{i + 1}" for i in range(io_dim)],
               outputs=[f"v{i + 1}" for i in range(io_dim)],
               name=f"mass-spring-damper chain ({n_cells} cells"
               + (", last mass tied to the ground)" if fixed_end else ")"))
