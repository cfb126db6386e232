r"""Quadrature rules and Lagrange bases on the reference element :math:`[0, 1]`.

* Gauss–Legendre with ``n`` points is exact for polynomials of degree ``2n − 1``;
* Gauss–Lobatto–Legendre (GLL) with ``n`` points (both end points included) is exact
  up to degree ``2n − 3``.

The continuous (:math:`H^1`) space of degree ``k`` uses the ``k + 1`` GLL points as
nodes and as quadrature points: its mass matrix is then diagonal ("spectral element"
mass lumping; Canuto, Hussaini, Quarteroni, Zang, *Spectral Methods*, 2006, §2.3).
The discontinuous (:math:`L^2`) space of degree ``k − 1`` uses the ``k`` Gauss points
as nodes and as quadrature points: its mass matrix is diagonal and exact for constant
coefficients.
"""

from __future__ import annotations

import numpy as np
from numpy.polynomial import legendre as leg

__all__ = ["gauss", "gauss_lobatto", "lagrange"]


def gauss(n: int) -> tuple[np.ndarray, np.ndarray]:
    """``n``-point Gauss–Legendre nodes and weights on ``[0, 1]`` (weights sum to 1)."""
    xi, w = leg.leggauss(n)
    return 0.5 * (xi + 1.0), 0.5 * w


def gauss_lobatto(n: int) -> tuple[np.ndarray, np.ndarray]:
    r"""``n``-point Gauss–Lobatto–Legendre nodes and weights on ``[0, 1]`` (``n ≥ 2``).

    Interior nodes are the roots of :math:`P'_{n-1}`; the weights are
    :math:`2 / (n(n-1) P_{n-1}(\xi_i)^2)` on ``[−1, 1]`` (Abramowitz & Stegun 25.4.32).
    """
    c = np.zeros(n)
    c[-1] = 1.0  # P_{n-1}
    inner = np.sort(leg.legroots(leg.legder(c))) if n > 2 else np.zeros(0)
    xi = np.concatenate([[-1.0], inner, [1.0]])
    w = 2.0 / (n * (n - 1) * leg.legval(xi, c) ** 2)
    return 0.5 * (xi + 1.0), 0.5 * w


def lagrange(nodes: np.ndarray, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r"""Values and derivatives of the Lagrange polynomials on ``nodes`` at points ``x``.

    Returns ``(V, dV)`` of shape ``(len(x), len(nodes))`` with
    :math:`V_{ij} = \ell_j(x_i)` and :math:`dV_{ij} = \ell_j'(x_i)`.
    """
    nodes = np.asarray(nodes, dtype=float)
    x = np.atleast_1d(np.asarray(x, dtype=float))
    n = nodes.size
    V = np.ones((x.size, n))
    dV = np.zeros((x.size, n))
    for j in range(n):
        others = np.delete(nodes, j)
        denom = np.prod(nodes[j] - others)
        factors = x[:, None] - others[None, :]  # (len(x), n − 1)
        V[:, j] = np.prod(factors, axis=1) / denom
        for m in range(n - 1):  # product rule, term by term
            dV[:, j] += np.prod(np.delete(factors, m, axis=1), axis=1) / denom
    return V, dV
