r"""Finite-element spaces of the 2-D/3-D models, from scikit-fem.

Each pair of conjugate fields takes one field in :math:`H^1` (continuous Lagrange
elements: velocity, temperature, the electric field :math:`E_z`) and the other in
:math:`L^2` (discontinuous elements: stress, heat flux, magnetic field), chosen so
that the gradient of the first space lies in the second; then the discrete operator
:math:`D^\top W_q^{-1} D` equals the usual Galerkin stiffness and the frequencies
converge at the order of the continuous element (:math:`h^{2k}` for degree ``k``).

========================= ============================ ==============================
cells                     :math:`H^1` field, degree k  :math:`L^2` field
========================= ============================ ==============================
triangles / tetrahedra    :math:`P_k`                  discontinuous :math:`P_{k-1}`
quadrilaterals / hexahedra :math:`Q_k`                 discontinuous :math:`Q_k`
========================= ============================ ==============================

**Mass lumping.**  For :math:`P_1`, :math:`Q_1` and :math:`Q_2` the nodal quadrature
(weights :math:`\int\varphi_i`, positive: the Gauss–Lobatto rule on quadrilaterals,
the spectral-element choice of Cohen, *Higher-Order Numerical Methods for Transient
Wave Equations*, 2002) makes the :math:`H^1` mass matrix diagonal without losing the
order of the frequencies; discontinuous masses are block diagonal.  The model is then
an explicit sparse PHS.  :math:`P_2` on triangles has no positive nodal rule, so its
mass stays consistent and the model is a DescriptorPHS (``pfem``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ...errors import ModelError
from .domain import Domain, require_skfem

__all__ = ["Coefficient", "h1_element", "l2_element", "lumpable", "nodal_basis", "mass",
           "coefficient", "h1_bases", "l2_vector_basis", "quadrature_order"]

#: a material coefficient: a number, or a function of the coordinates x, y(, z) (m)
Coefficient = float | Callable[..., Any]


def _check_degree(domain: Domain, degree: int) -> int:
    top = 2
    if isinstance(degree, bool) or int(degree) != degree or not 1 <= degree <= top:
        raise ModelError(f"degree={degree!r}: choose 1 or 2 for {domain.cell} cells")
    return int(degree)


def h1_element(domain: Domain, degree: int) -> Any:
    """The continuous Lagrange element of ``degree`` on the domain's cells."""
    sk = require_skfem()
    k = _check_degree(domain, degree)
    table = {"triangle": (sk.ElementTriP1, sk.ElementTriP2),
             "quad": (sk.ElementQuad1, sk.ElementQuad2),
             "tetra": (sk.ElementTetP1, sk.ElementTetP2),
             "hexahedron": (sk.ElementHex1, sk.ElementHex2)}
    return table[domain.cell][k - 1]()


def l2_element(domain: Domain, degree: int) -> Any:
    """The discontinuous element holding the gradient of :func:`h1_element`."""
    sk = require_skfem()
    k = _check_degree(domain, degree)
    if domain.cell == "triangle":
        return sk.ElementTriP0() if k == 1 else sk.ElementDG(sk.ElementTriP1())
    if domain.cell == "tetra":
        return sk.ElementTetP0() if k == 1 else sk.ElementDG(sk.ElementTetP1())
    if domain.cell == "quad":
        return sk.ElementDG(sk.ElementQuad1() if k == 1 else sk.ElementQuad2())
    return sk.ElementDG(sk.ElementHex1() if k == 1 else sk.ElementHex2())


def lumpable(domain: Domain, degree: int) -> bool:
    """Whether the :math:`H^1` element has a positive nodal quadrature (module docstring)."""
    return degree == 1 or domain.cell in ("quad", "hexahedron")


def nodal_basis(domain: Domain, element: Any) -> Any:
    """A basis whose quadrature points are the element's nodes, with weights
    :math:`\\int_{\\hat K}\\varphi_i`: its mass matrices are diagonal (lumped)."""
    sk = require_skfem()
    ref = sk.Basis(domain.mesh, element, intorder=4)
    X, w = ref.X, ref.W
    weights = np.array([float(np.sum(element.lbasis(X, i)[0] * w))
                        for i in range(element.doflocs.shape[0])])
    if np.any(weights <= 0):
        raise ModelError(f"{type(element).__name__} has no positive nodal quadrature; "
                         "use a consistent mass")
    return sk.Basis(domain.mesh, element, quadrature=(element.doflocs.T.copy(), weights))


def quadrature_order(degree: int) -> int:
    """Integration order of the models' forms: exact for products of degree-k fields
    with a smooth coefficient up to degree 2 (``2k + 2``)."""
    return 2 * degree + 2


def h1_bases(domain: Domain, degree: int) -> tuple[Any, Any]:
    """``(V, Vm)``: the continuous field's basis (for D, R and ports, integrated to
    :func:`quadrature_order`) and the basis its mass is assembled on — the nodal
    (lumped) one where :func:`lumpable`, else ``V`` itself.  ``V.elem`` is the element."""
    sk = require_skfem()
    element = h1_element(domain, degree)
    V = sk.Basis(domain.mesh, element, intorder=quadrature_order(degree))
    return V, (nodal_basis(domain, element) if lumpable(domain, degree) else V)


def l2_vector_basis(domain: Domain, degree: int) -> Any:
    """The discontinuous vector basis (``dim`` components of :func:`l2_element`) that holds
    the gradient of :func:`h1_bases`' field."""
    sk = require_skfem()
    return sk.Basis(domain.mesh, sk.ElementVector(l2_element(domain, degree)),
                    intorder=quadrature_order(degree))


def coefficient(value: Coefficient, name: str, unit: str) -> Callable[[Any], Any]:
    """A coefficient as a function of skfem's quadrature coordinates ``w.x``.

    Numbers must be positive and finite; functions are called with the coordinates
    (``f(x, y)`` or ``f(x, y, z)``) and checked where they are evaluated."""
    if callable(value):
        def fn(x: Any) -> Any:
            vals = np.asarray(value(*x), dtype=float) * np.ones(x.shape[1:])
            if not np.all(np.isfinite(vals)) or np.any(vals <= 0):
                raise ModelError(f"{name} ({unit}) must be positive and finite everywhere")
            return vals
        return fn
    try:
        v = float(value)
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{name} ({unit}) must be a number or a function of x, y; got "
                         f"{value!r}") from exc
    if not np.isfinite(v) or v <= 0:
        raise ModelError(f"{name} ({unit}) must be positive and finite; got {value!r}")
    return lambda x: v * np.ones(x.shape[1:])


def mass(basis: Any, weight: Callable[[Any], Any] | None = None, *, inverse: bool = False
         ) -> Any:
    """:math:`\\int c\\,\\varphi_i\\cdot\\varphi_j` on ``basis`` (scalar or vector), with
    ``c`` the weight (or ``1/c`` when ``inverse``)."""
    sk = require_skfem()
    from skfem.helpers import dot

    @sk.BilinearForm
    def form(u: Any, v: Any, w: Any) -> Any:
        c = 1.0 if weight is None else weight(w.x)
        if inverse:
            c = 1.0 / c
        vector = np.ndim(u) > np.ndim(w.x) - 1  # a component axis before the points
        return c * (dot(u, v) if vector else u * v)

    return sk.asm(form, basis).tocsr()
