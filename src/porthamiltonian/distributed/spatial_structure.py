r"""The modulated Dirac structure of the 3-D beam: se(3) brackets at Gauss points and nodes.

The spatial beam (:mod:`.spatial_beam`; Simo 1985, Simo & Vu-Quoc 1986; Macchelli &
Melchiorri 2008, eq. 7) has the balance laws, with the strain twist
:math:`\xi = \xi_0 + \varepsilon`, the velocity twist η, the momentum π and the stress
wrench λ (twists angular part first, as in :mod:`porthamiltonian.lie`),

.. math::
    \partial_t\varepsilon = \partial_s\eta + \mathrm{ad}_{\xi_0}\eta + \mathrm{ad}_\varepsilon\eta,
    \qquad
    \partial_t\pi = \partial_s\lambda - \mathrm{ad}^*_{\xi_0}\lambda
        - \mathrm{ad}^*_\varepsilon\lambda + \mathrm{ad}^*_\eta\pi.

With the se(3) structure constants :math:`c_{ab}{}^{g} = [e_a, e_b]_g` each term is a
sum of products *one state × one co-energy variable*:
:math:`(\mathrm{ad}_\varepsilon\eta)_a = \sum_{b,g} c_{gb}{}^{a}\,\varepsilon_g\eta_b`
(strain rows, flow columns; its negative transpose is the :math:`-\mathrm{ad}^*_\varepsilon
\lambda` of the momentum rows) and :math:`(\mathrm{ad}^*_\eta\pi)_a = \sum_{b,g}
c_{ba}{}^{g}\,\pi_g\eta_b` — the Lie–Poisson matrix on :math:`se(3)^*`, skew in (a, b).
The partitioned FEM puts strains at Gauss points ``g`` (states :math:`x = w_g\varepsilon`)
and velocities and momenta at GLL nodes; with :math:`C_{gj} = \int\psi_g\varphi_j`
the entries are

* :math:`J[\varepsilon_{a,g}, \eta_{b,j}] \mathrel{+}= c_{gb}{}^{a}\,(C_{gj}/w_g)\,
  x_{\varepsilon_g,g}`,
* :math:`J[\varepsilon_{a,g}, \eta_{b,j}] \mathrel{+}= (\mathrm{ad}_{\xi_0(s_g)})_{ab}\,C_{gj}`
  (constant: the unstressed reference, curved when :math:`K_0 \ne 0`),
* :math:`J[\pi_{a,i}, \eta_{b,i}] \mathrel{+}= c_{ba}{}^{g}\,x_{\pi_g,i}` (gyroscopic),

each with its negative transpose, so :math:`J(x)` is affine in the state and skew for
every ``x``.  :func:`skew_entries_to_structure` maps such entries from the index space
of *all* strain and flow degrees of freedom to the state (boundary nodes removed by an
imposed velocity) and the inputs (a removed node's column becomes a column of ``G(x)``)
— the same rule as :mod:`.planar_structure`, written for any field count.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sps

from ..errors import ModelError
from ..lie import ad
from .spaces import value_matrix

__all__ = ["structure_constants", "SkewEntries", "spatial_entries",
           "skew_entries_to_structure", "check_uniform_ends"]


def structure_constants() -> np.ndarray:
    r"""``c[a, b, g] = [e_a, e_b]_g`` of se(3), (ω, v) order as in :mod:`porthamiltonian.lie`."""
    c = np.zeros((6, 6, 6))
    for a in range(6):
        c[a] = ad(np.eye(6)[a]).T  # ad(e_a)[g, b] = [e_a, e_b]_g
    return c


@dataclass
class SkewEntries:
    """Entries of :math:`J(x)` and :math:`G(x)` on the state/input index space.

    ``J``, ``G``: ``(rows, cols, states, coefs)`` for
    :class:`~porthamiltonian.compiled.affine.AffineMatrix`;
    ``J0``, ``G0``: constant parts (sparse) to add to the constant matrices.
    """

    J: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    G: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    J0: sps.csr_array
    G0: sps.csr_array


def spatial_entries(disc: Any, xi0: np.ndarray) -> tuple[np.ndarray, ...]:
    """Full-index entries ``(a, b, k, c)`` of the spatial beam (module docstring).

    ``disc`` is a primal :class:`~.fem.Discretization` with six effort fields (strains
    in the order of the twist) and six flow fields; ``xi0`` the reference strain twist
    at the Gauss points, shape ``(6, Nq)``.  ``k = −1`` marks a constant entry.
    ``J_full[a, b] += c·x_k`` and ``J_full[b, a] −= c·x_k``.
    """
    h1, l2 = disc.h1, disc.l2
    Np, Nq = h1.size, l2.size
    F = 6 * Nq
    cst = structure_constants()
    C = value_matrix(h1, l2).tocoo()
    g, j = C.row.astype(np.int64), C.col.astype(np.int64)
    cw = C.data / l2.weights[g]
    A, B, K, V = [], [], [], []
    for a in range(6):
        for b in range(6):
            for s in range(6):
                if cst[s, b, a]:  # (ad_ε η)_a ∋ c_{sb}^a ε_s η_b
                    A.append(a * Nq + g)
                    B.append(F + b * Np + j)
                    K.append(s * Nq + g)
                    V.append(cst[s, b, a] * cw)
            ref = cst[:, b, a] @ xi0[:, g]  # (ad_{ξ₀(s_g)})_{ab}
            if np.any(ref):
                A.append(a * Nq + g)
                B.append(F + b * Np + j)
                K.append(np.full(g.size, -1, dtype=np.int64))
                V.append(ref * C.data)
    i = np.arange(Np, dtype=np.int64)
    for a in range(6):
        for b in range(a + 1, 6):  # the pair (b, a) is the skew partner
            for s in range(6):
                if cst[b, a, s]:  # (ad*_η π)_a ∋ c_{ba}^s π_s η_b
                    A.append(F + a * Np + i)
                    B.append(F + b * Np + i)
                    K.append(F + s * Np + i)
                    V.append(np.full(Np, cst[b, a, s]))
    return tuple(np.concatenate(v) for v in (A, B, K, V))


def skew_entries_to_structure(disc: Any, a: np.ndarray, b: np.ndarray, k: np.ndarray,
                              c: np.ndarray) -> SkewEntries:
    r"""Map full-index skew entries (``J_full[a, b] += c x_k``, ``J_full[b, a] −= c x_k``;
    ``k = −1``: constant) of a primal discretization to its states and inputs.

    Full index: the ``n_q`` strain states, then every flow dof.  A removed (imposed)
    flow dof drops its row; its column becomes the input column of its port (times the
    port sign).  An entry whose state ``k`` is a removed momentum is dropped: with every
    translation (or rotation) of that node imposed these terms cancel on solutions
    (:func:`check_uniform_ends` enforces this).
    """
    F = disc.n_q
    n_full = F + disc.mp.size
    n, m = disc.system.n_states, disc.system.n_inputs
    state = np.full(n_full, -1, dtype=np.int64)
    state[:F] = np.arange(F)
    state[F + disc.kept] = F + np.arange(disc.kept.size)
    port = np.full(n_full, -1, dtype=np.int64)
    sign = np.ones(n_full)
    Np = disc.h1.size
    for dof, p in disc.imposed.items():
        if p is not None:
            port[F + dof] = p
            sign[F + dof] = disc.port_sign["left" if dof % Np == 0 else "right"]
    const = k < 0
    ks = np.where(const, -1, state[np.maximum(k, 0)])
    keep = const | (ks >= 0)
    a, b, ks, c, const = a[keep], b[keep], ks[keep], c[keep], const[keep]
    sa, sb = state[a], state[b]
    both = (sa >= 0) & (sb >= 0)
    to_b = (sa >= 0) & (sb < 0) & (port[b] >= 0)   # column b imposed: G[a, port b]
    to_a = (sb >= 0) & (sa < 0) & (port[a] >= 0)   # row a imposed: its partner in G[b, ·]
    Jr, Jc = np.concatenate([sa[both], sb[both]]), np.concatenate([sb[both], sa[both]])
    Jk = np.concatenate([ks[both], ks[both]])
    Jv = np.concatenate([c[both], -c[both]])
    Gr = np.concatenate([sa[to_b], sb[to_a]])
    Gc = np.concatenate([port[b][to_b], port[a][to_a]])
    Gk = np.concatenate([ks[to_b], ks[to_a]])
    Gv = np.concatenate([sign[b][to_b] * c[to_b], -sign[a][to_a] * c[to_a]])
    Jconst, Gconst = Jk < 0, Gk < 0
    J0 = sps.csr_array((Jv[Jconst], (Jr[Jconst], Jc[Jconst])), shape=(n, n))
    G0 = sps.csr_array((Gv[Gconst], (Gr[Gconst], Gc[Gconst])), shape=(n, m))
    var_J, var_G = ~Jconst, ~Gconst
    return SkewEntries(J=(Jr[var_J], Jc[var_J], Jk[var_J], Jv[var_J]),
                       G=(Gr[var_G], Gc[var_G], Gk[var_G], Gv[var_G]), J0=J0, G0=G0)


def check_uniform_ends(conditions: dict[str, tuple[Any, ...]], groups: dict[str, slice],
                       model: str) -> None:
    """ModelError unless, at each end, every field of a group is imposed or none is.

    A node with part of its translations (rotations) imposed and the rest free would
    have gyroscopic terms :math:`p\\wedge\\omega` that depend on the input.
    """
    for end, conds in conditions.items():
        for what, sl in groups.items():
            ess = {c.essential for c in conds[sl]}
            if len(ess) > 1:
                raise ModelError(
                    f"{model}: the {end} end imposes some {what} components and leaves the "
                    f"others free; its gyroscopic terms would depend on the input. Impose all "
                    f"three {what} components (fixed/velocity) or none (free/force)")
