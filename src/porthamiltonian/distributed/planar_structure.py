r"""The strain- and momentum-modulated part of the planar beam's Dirac structure.

Golo, van der Schaft, Stramigioli (2003), eq. 5: besides the constant operator of the
rod and the Timoshenko beam, the balance laws of the geometrically exact planar beam
(body-frame strains ε, γ, κ and momenta p₁, p₂, p_θ; :mod:`.planar_beam`) contain

.. math::
    \partial_t\varepsilon \ni -\kappa v_2 + \gamma\omega,\quad
    \partial_t\gamma \ni \kappa v_1 - \varepsilon\omega,\quad
    \partial_t p_1 \ni p_2\,\omega,\quad \partial_t p_2 \ni -p_1\,\omega,

and their skew partners in the momentum (p₁, p₂, p_θ) rows.  With the partitioned FEM
(Gauss cells ``g`` of weight :math:`w_g` for the strains, GLL nodes ``j`` for the
velocities, :math:`C_{gj} = \int\psi_g\varphi_j` the value matrix, strain states
:math:`x_g = w_g\alpha_g`, nodal momenta :math:`x_{p,i} = m_i p(s_i)`) each term is
linear in one state, e.g. :math:`\dot x_{\varepsilon,g} \ni -(x_{\kappa,g}/w_g)
\sum_j C_{gj} v_{2,j}`: so :math:`J(x)` is affine in the state and skew for every
``x`` (each term enters with its negative transpose).

Boundary nodes removed by an imposed velocity (clamped or driven ends) turn the terms
of their column into a state-dependent input matrix :math:`G(x)`.  The gyroscopic
:math:`p\wedge\omega` terms at a node whose translations are both imposed cancel
(:math:`m(-v_2 v_1 + v_1 v_2) = 0`); an end imposing one translation and leaving the
other free would make them depend on the input, and is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import ModelError
from .spaces import value_matrix

__all__ = ["ModulatedEntries", "modulated_entries"]


@dataclass
class ModulatedEntries:
    """Entries ``(row, col, state, coef)`` of :math:`J(x) - J_0` and :math:`G(x) - G_0`:
    the matrix entry ``(row, col)`` gains ``coef · x[state]``."""

    J: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
    G: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def modulated_entries(disc: Any) -> ModulatedEntries:
    """The modulated entries of a primal-partition planar beam discretization ``disc``."""
    h1, l2 = disc.h1, disc.l2
    Np, Nq = h1.size, l2.size
    F = 3 * Nq  # full index space: the 3Nq strain states, then the 3Np flow dofs
    _check_translations(disc)
    C = value_matrix(h1, l2).tocoo()
    g, j = C.row.astype(np.int64), C.col.astype(np.int64)
    cw = C.data / l2.weights[g]
    eps, gam, kap = g, Nq + g, 2 * Nq + g
    v1, v2, om = F + j, F + Np + j, F + 2 * Np + j
    i = np.arange(Np, dtype=np.int64)
    p1, p2, pt = F + i, F + Np + i, F + 2 * Np + i
    # (a, b, k, c): J_full[a, b] += c x_k and J_full[b, a] -= c x_k
    a = np.concatenate([eps, eps, gam, gam, p1, p2])
    b = np.concatenate([v2, om, v1, om, pt, pt])
    k = np.concatenate([kap, gam, kap, eps, p2, p1])
    c = np.concatenate([-cw, cw, cw, -cw, np.ones(Np), -np.ones(Np)])

    # full index → state index (−1: removed) and input index (−1: none) with its sign
    state = np.full(F + 3 * Np, -1, dtype=np.int64)
    state[:F] = np.arange(F)
    state[F + disc.kept] = F + np.arange(disc.kept.size)
    port = np.full(F + 3 * Np, -1, dtype=np.int64)
    sign = np.ones(F + 3 * Np)
    for dof, m in disc.imposed.items():
        if m is not None:
            port[F + dof] = m
            sign[F + dof] = disc.port_sign["left" if dof % Np == 0 else "right"]
    ks = state[k]
    keep = ks >= 0  # a removed momentum with both translations imposed: the term cancels
    a, b, ks, c = a[keep], b[keep], ks[keep], c[keep]
    sa, sb = state[a], state[b]
    both = (sa >= 0) & (sb >= 0)
    J = (np.concatenate([sa[both], sb[both]]), np.concatenate([sb[both], sa[both]]),
         np.concatenate([ks[both], ks[both]]), np.concatenate([c[both], -c[both]]))
    to_b = (sa >= 0) & (sb < 0) & (port[b] >= 0)   # column b imposed: G[a, port b]
    to_a = (sb >= 0) & (sa < 0) & (port[a] >= 0)   # row a imposed: its partner −c in G[b, ·]
    G = (np.concatenate([sa[to_b], sb[to_a]]), np.concatenate([port[b][to_b], port[a][to_a]]),
         np.concatenate([ks[to_b], ks[to_a]]),
         np.concatenate([sign[b][to_b] * c[to_b], -sign[a][to_a] * c[to_a]]))
    return ModulatedEntries(J, G)


def _check_translations(disc: Any) -> None:
    for end, conds in disc.conditions.items():
        if conds[0].essential != conds[1].essential:
            raise ModelError(
                f"planar beam: the {end} end imposes one body-frame translation and leaves the "
                "other free; its gyroscopic term p∧ω would depend on the input. Impose both "
                "translations (fixed/velocity) or neither (free/force)")
