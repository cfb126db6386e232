r"""The two finite-element spaces of the partitioned method and their matrices.

On a mesh with ``N`` elements and a degree ``k ≥ 1``:

* :class:`H1Space` — continuous, piecewise polynomials of degree ``k`` with nodes at
  the Gauss–Lobatto points of each element (``Nk + 1`` degrees of freedom).  It carries
  the fields whose trace is a *flow* at the boundary (velocities, currents,
  temperatures).  Its mass matrix is lumped at the GLL nodes (diagonal).
* :class:`L2Space` — discontinuous, degree ``k − 1`` with nodes at the ``k`` Gauss
  points of each element (``Nk`` degrees of freedom).  It carries the fields that are
  differentiated only weakly (stresses, voltages, heat fluxes).  Its mass matrix is
  diagonal: the Gauss rule is exact for the product of two of its functions.

:func:`derivative_matrix` gives :math:`D_{ij} = \int \psi_i\, \partial_s \varphi_j\, ds`
and :func:`value_matrix` :math:`C_{ij} = \int \psi_i\, \varphi_j\, ds` (ψ in L², φ in
H¹), both exact with the ``k``-point Gauss rule (degrees ``2k − 2`` and ``2k − 1``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sps

from ..errors import ModelError
from .mesh import Mesh
from .quadrature import gauss, gauss_lobatto, lagrange

__all__ = ["H1Space", "L2Space", "derivative_matrix", "value_matrix", "coefficient"]

Coefficient = float | Callable[[np.ndarray], Any]


class H1Space:
    """Continuous Lagrange elements of degree ``k`` on GLL nodes (see module docstring)."""

    def __init__(self, mesh: Mesh, degree: int) -> None:
        self.mesh, self.degree = mesh, degree
        self.ref_nodes, self.ref_weights = gauss_lobatto(degree + 1)
        N, k = mesh.elements, degree
        h = mesh.sizes
        self.size = N * k + 1
        local = np.arange(N)[:, None] * k + np.arange(k + 1)[None, :]  # (N, k+1)
        self.local_to_global = local
        self.coords = np.empty(self.size)
        self.coords[local] = mesh.nodes[:-1, None] + h[:, None] * self.ref_nodes[None, :]
        self.weights = np.zeros(self.size)
        np.add.at(self.weights, local, h[:, None] * self.ref_weights[None, :])

    def lumped_mass(self, coef: np.ndarray) -> np.ndarray:
        r"""Diagonal of :math:`\int c\,\varphi_i\varphi_j\,ds` by GLL quadrature (c at nodes)."""
        return self.weights * coef

    def evaluate(self, values: np.ndarray, s: np.ndarray) -> np.ndarray:
        """The field with nodal ``values`` at the points ``s`` (m)."""
        e, xi = _locate(self.mesh, s)
        out = np.empty(xi.size)
        for el in np.unique(e):
            sel = e == el
            V, _ = lagrange(self.ref_nodes, xi[sel])
            out[sel] = V @ values[self.local_to_global[el]]
        return out


class L2Space:
    """Discontinuous elements of degree ``k − 1`` on the ``k`` Gauss points of each element."""

    def __init__(self, mesh: Mesh, degree: int) -> None:
        self.mesh, self.degree = mesh, degree
        self.ref_nodes, self.ref_weights = gauss(degree)
        N, k = mesh.elements, degree
        h = mesh.sizes
        self.size = N * k
        self.local_to_global = np.arange(N * k).reshape(N, k)
        self.coords = (mesh.nodes[:-1, None] + h[:, None] * self.ref_nodes[None, :]).ravel()
        self.weights = (h[:, None] * self.ref_weights[None, :]).ravel()

    def mass(self, coef: np.ndarray) -> np.ndarray:
        r"""Diagonal of :math:`\int c\,\psi_i\psi_j\,ds` by the Gauss rule (c at the nodes)."""
        return self.weights * coef

    def evaluate(self, values: np.ndarray, s: np.ndarray) -> np.ndarray:
        """The (discontinuous) field with Gauss-point ``values`` at the points ``s`` (m)."""
        e, xi = _locate(self.mesh, s)
        V, _ = lagrange(self.ref_nodes, xi)
        return np.einsum("pi,pi->p", V, values[self.local_to_global[e]])


def _locate(mesh: Mesh, s: Any) -> tuple[np.ndarray, np.ndarray]:
    s = np.atleast_1d(np.asarray(s, dtype=float))
    L = mesh.nodes[-1]
    if np.any(s < mesh.nodes[0] - 1e-12 * L) or np.any(s > L * (1 + 1e-12)):
        raise ModelError(f"points s must lie in [0, {L:g}] m")
    e = np.clip(np.searchsorted(mesh.nodes, s, side="right") - 1, 0, mesh.elements - 1)
    return e, (s - mesh.nodes[e]) / mesh.sizes[e]


def _pairing(h1: H1Space, l2: L2Space, kind: str) -> sps.csr_array:
    V, dV = lagrange(h1.ref_nodes, l2.ref_nodes)  # (k, k+1) at the Gauss points
    N, k = h1.mesh.elements, h1.degree
    wg = l2.ref_weights
    if kind == "derivative":  # w_g h · φ'(g)/h: the element size cancels
        local = np.broadcast_to(wg[:, None] * dV, (N, k, k + 1))
    else:
        local = h1.mesh.sizes[:, None, None] * (wg[:, None] * V)[None, :, :]
    rows = np.broadcast_to(l2.local_to_global[:, :, None], (N, k, k + 1))
    cols = np.broadcast_to(h1.local_to_global[:, None, :], (N, k, k + 1))
    return sps.csr_array(
        (np.ravel(local), (np.ravel(rows), np.ravel(cols))), shape=(l2.size, h1.size)
    )


def derivative_matrix(h1: H1Space, l2: L2Space) -> sps.csr_array:
    r""":math:`D_{ij} = \int_0^L \psi_i\,\partial_s\varphi_j\,ds` (dimensionless)."""
    return _pairing(h1, l2, "derivative")


def value_matrix(h1: H1Space, l2: L2Space) -> sps.csr_array:
    r""":math:`C_{ij} = \int_0^L \psi_i\,\varphi_j\,ds` (m)."""
    return _pairing(h1, l2, "value")


def coefficient(value: Coefficient, s: np.ndarray, name: str, *, allow_zero: bool = False,
                unit: str = "") -> np.ndarray:
    """A physical parameter (a number or a function of s in m) evaluated at the points ``s``.

    Raises :class:`ModelError` naming ``name`` when the value is not finite, not
    positive (or negative, with ``allow_zero``), or a function that fails at ``s``.
    """
    unit_text = f" [{unit}]" if unit else ""
    if callable(value):
        try:
            out = np.asarray(value(s), dtype=float)
            if out.shape != s.shape:
                out = np.broadcast_to(out, s.shape).astype(float) if out.size == 1 else \
                    np.array([float(value(si)) for si in s])
        except Exception as err:  # a user function: report it, with the parameter's name
            raise ModelError(f"parameter {name}{unit_text}: evaluating {name}(s) failed: {err}; "
                             "give a number or a function of s (m) returning numbers") from None
    else:
        try:
            out = np.full(s.shape, float(value))
        except (TypeError, ValueError):
            raise ModelError(f"parameter {name}{unit_text} must be a number or a function of "
                             f"s, got {value!r}") from None
    bad = ~np.isfinite(out) | ((out < 0) if allow_zero else (out <= 0))
    if np.any(bad):
        i = int(np.argmax(bad))
        need = "non-negative" if allow_zero else "positive"
        raise ModelError(f"parameter {name}{unit_text} must be {need} and finite; "
                         f"{name}({s[i]:.6g} m) = {out[i]!r}")
    return out
