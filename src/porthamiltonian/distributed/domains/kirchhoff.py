r"""The Kirchhoff (Kirchhoff–Love) plate (thin plates) as a port-Hamiltonian system.

Brugnoli, Alazard, Pommier-Budinger, Matignon, *Port-Hamiltonian formulation and
symplectic discretization of plate models. Part II: Kirchhoff model for thin plates*,
Appl. Math. Modelling 75 (2019) 961–981.  Plate of thickness ``h`` (m), density ρ
(kg/m³), Young's modulus ``E`` (Pa), Poisson ratio ν; bending stiffness
:math:`D_b = Eh^3/(12(1-\nu^2))` (N·m).

Energy variables: linear momentum :math:`\rho h\,\partial_t w` and curvature
:math:`\boldsymbol\kappa = \nabla^2 w` (the Hessian); co-energies: velocity
:math:`v = \partial_t w` (m/s) and bending moments :math:`M = D_b[(1-\nu)\boldsymbol\kappa
+ \nu\operatorname{tr}\boldsymbol\kappa\,I]` (N·m/m, with this sign :math:`M` and
:math:`\boldsymbol\kappa` have the same sign).  Hamiltonian and balance laws

.. math::
    H = \frac12\int_\Omega(\rho h\,v^2 + M:\boldsymbol\kappa)\,dA,\qquad
    \rho h\,\partial_t v = -\operatorname{div}\operatorname{Div} M,\qquad
    \partial_t\boldsymbol\kappa = \nabla^2 v .

**Discretization (PFEM).**  Integrating the first law by parts *twice* onto the test
function, :math:`W_v\dot v = -D^\top M + Bu`, :math:`W_M\dot M = D v` with
:math:`D = \int\varsigma:\nabla^2\varphi`, :math:`W_v = \int\rho h\,\varphi_i\varphi_j`
(consistent: the system is a :class:`~porthamiltonian.DescriptorPHS`) and
:math:`W_M = \int\varsigma:\mathcal C M`.  The velocity needs :math:`H^2`: the Argyris
triangle (:math:`C^1`, quintic, dofs: values, gradients and Hessians at the vertices and
normal derivatives at the edge midpoints; the default) or the nonconforming Morley
triangle (quadratic; values at vertices, normal derivatives at midpoints; Hessians
broken cell-wise).  ``M`` is discontinuous :math:`P_3` (Argyris) or :math:`P_0`
(Morley): the (broken) Hessian of the velocity space, so the discrete energy is the
Galerkin energy and the frequencies are those of the displacement method.

**Boundary** (power :math:`\dot H = \int_{\partial\Omega}(F\,v + T\,\partial_n v)\,ds`
delivered by a transverse force per length ``F`` (the effective Kirchhoff shear force)
and a moment per length ``T`` working on the normal rotation rate, plus corner forces):
``clamped`` (v and ∂ₙv fixed), ``simply_supported`` (v fixed), ``free``, and ``force``
(inputs ``F_<part>`` (N/m), ``T_<part>`` (N·m/m), uniform; outputs ``v_<part>`` = ∫v ds
(m²/s), ``rot_<part>`` = ∫∂ₙv ds (m/s)).  Point ports: ``F_<name>`` (N) ↔ ``v_<name>``
(m/s).  Essential conditions remove dofs: with Morley (vertex values, edge normal
derivatives) on any straight-edged boundary; with Argyris, whose vertex dofs are
Cartesian derivatives, only on edges parallel to x or y (the tangential derivatives
along the edge, and for ``clamped`` the normal ones and the mixed one, vanish).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sps

from ...errors import ModelError
from .domain import Domain, require_skfem
from .mindlin import (
    PlateModel,
    compliance_mass,
    edge_direction,
    moment_density,
    plate_conditions,
    plate_material,
)
from .model import EnergyTerm, FieldView
from .pfem import FieldBlock, PortBlock, assemble_system

__all__ = ["kirchhoff"]

#: vertex dofs of the Argyris element held by an edge along x (0) or y (1)
_ARGYRIS_TANGENTIAL = {0: ("u", "u_x", "u_xx"), 1: ("u", "u_y", "u_yy")}
_ARGYRIS_NORMAL = {0: ("u_y", "u_xy"), 1: ("u_x", "u_xy")}


def kirchhoff(domain: Domain, E: float, nu: float, rho: float, thickness: float, *,
              element: str = "argyris", boundary: Mapping[str, str] | str = "clamped",
              points: Mapping[str, Sequence[float]] | None = None,
              name: str = "kirchhoff") -> PlateModel:
    r"""The Kirchhoff plate (module docstring) on a triangulated 2-D domain.

    Parameters
    ----------
    domain : Domain
        Triangles (:func:`~.domain.rectangle` with ``cell="triangle"``,
        :func:`~.domain.disk`, a mesh file).
    E, nu, rho, thickness : float
        Young's modulus (Pa), Poisson ratio (–), density (kg/m³), thickness h (m).
    element : str
        ``"argyris"`` (C¹, frequencies converge fast; essential conditions on
        axis-aligned edges only) or ``"morley"`` (nonconforming, O(h²); any edges).
    boundary : str or mapping
        One word for every part or ``{part: word}``: ``"clamped"``,
        ``"simply_supported"``, ``"free"``, ``"force"``; parts not named are free.
    points : mapping, optional
        ``{name: (x, y)}``: transverse point force ``F_<name>`` (N) ↔ velocity
        ``v_<name>`` (m/s).

    Returns
    -------
    PlateModel
        ``.system`` a sparse DescriptorPHS (co-energy states ``v`` — the element's dofs —
        and ``M``); fields ``v`` (the vertex values), ``Mxx``, ``Myy``, ``Mxy`` and
        ``energy``.
    """
    sk = require_skfem()
    if domain.cell != "triangle":
        raise ModelError(f"{name}: the Kirchhoff plate needs a triangle mesh (Argyris or "
                         f"Morley elements); got {domain.cell} cells")
    E, nu, rho, h = plate_material(E, nu, rho, thickness, name)
    if element not in ("argyris", "morley"):
        raise ModelError(f"{name}: element={element!r}; choose 'argyris' or 'morley'")
    conditions = plate_conditions(domain, boundary, name)
    bad = [p for p, c in conditions.items() if c in ("velocity", "nodal")]
    if bad:
        raise ModelError(f"{name}: boundary part {bad[0]!r}: the Kirchhoff plate takes "
                         "'clamped', 'simply_supported', 'free' or 'force'")
    Db = E * h ** 3 / (12.0 * (1.0 - nu ** 2))

    if element == "argyris":
        ev, em, order = sk.ElementTriArgyris(), sk.ElementDG(sk.ElementTriP3()), 10
    else:
        ev, em, order = sk.ElementTriMorley(), sk.ElementTriP0(), 4
    V = sk.Basis(domain.mesh, ev, intorder=order)
    SM = sk.Basis(domain.mesh, sk.ElementVector(em, 3), intorder=order)

    @sk.BilinearForm
    def hess(u: Any, s: Any, w: Any) -> Any:
        H = u.hess
        return s[0] * H[0, 0] + s[1] * H[1, 1] + 2.0 * s[2] * H[0, 1]

    @sk.BilinearForm
    def vmass(u: Any, v: Any, w: Any) -> Any:
        return rho * h * u * v

    fields = [FieldBlock("v", "p", sk.asm(vmass, V).tocsr(), "m/s", "kg·m/s", V,
                         "vertical velocity (element dofs)", True),
              FieldBlock("M", "kappa", compliance_mass(SM, Db, nu), "N·m/m", "m", SM,
                         "bending moments (xx, yy, xy)")]
    ports, fixed = _ports(domain, V, ev, conditions, points, element, name)
    system, layout = assemble_system(fields, {("M", "v"): sk.asm(hess, V, SM)}, None, ports,
                                     {"v": fixed}, name=name, explicit=False)
    views = {"v": FieldView("v", None, "m/s", "vertical velocity"),
             "Mxx": FieldView("M", 0, "N·m/m", "bending moment xx"),
             "Myy": FieldView("M", 1, "N·m/m", "bending moment yy"),
             "Mxy": FieldView("M", 2, "N·m/m", "twisting moment xy")}
    variables = {
        "energy": "p = ρh ∂w/∂t (kg/(m·s)); κ = ∇²w (1/m)",
        "coenergy": "v = ∂w/∂t (m/s); M = D_b[(1−ν)κ + ν tr κ I] (N·m/m)",
        "boundary": "F v + T ∂v/∂n on each part (W/m), corner forces",
        "hamiltonian": "H = ½∫(ρh v² + M:κ) dA (J)",
    }
    densities = [("v", V, lambda v: 0.5 * rho * h * v ** 2), ("M", SM, moment_density(Db, nu))]
    return PlateModel(system, layout, domain, name, views, variables,
                      5 if element == "argyris" else 2,
                      [EnergyTerm("v", V, lambda x: rho * h * np.ones(x.shape[1:]))],
                      densities=densities)


def _ports(domain: Domain, V: Any, ev: Any, conditions: Mapping[str, str],
           points: Mapping[str, Sequence[float]] | None, element: str, model: str
           ) -> tuple[list[PortBlock], np.ndarray]:
    sk = require_skfem()
    fixed: list[np.ndarray] = []
    ports: list[PortBlock] = []
    for part, word in conditions.items():
        facets = domain.part(part)
        dofs = V.get_dofs(facets)
        if word in ("clamped", "simply_supported"):
            if element == "morley":
                names = ["u"] + (["u_n"] if word == "clamped" else [])
            else:
                d = edge_direction(domain, part, model, f"{word!r} with Argyris elements")
                names = list(_ARGYRIS_TANGENTIAL[d])
                if word == "clamped":
                    names += [*_ARGYRIS_NORMAL[d], "u_n"]
            for nm in names:
                fixed.append(np.asarray(dofs.nodal.get(nm, dofs.facet.get(nm, [])), np.int64))
        elif word == "force":
            fb = sk.FacetBasis(domain.mesh, ev, facets=facets, intorder=10)

            @sk.LinearForm
            def trace(v: Any, w: Any) -> Any:
                return v

            @sk.LinearForm
            def slope(v: Any, w: Any) -> Any:
                return v.grad[0] * w.n[0] + v.grad[1] * w.n[1]

            ports.append(PortBlock(f"F_{part}", f"v_{part}", "v",
                                   sps.csr_array(sk.asm(trace, fb).reshape(-1, 1)), None,
                                   "N/m", "m²/s", f"uniform transverse force on {part}"))
            ports.append(PortBlock(f"T_{part}", f"rot_{part}", "v",
                                   sps.csr_array(sk.asm(slope, fb).reshape(-1, 1)), None,
                                   "N·m/m", "m/s", f"uniform moment on the normal rotation "
                                   f"of {part}"))
    for pname, xy in (points or {}).items():
        x0 = np.asarray(xy, dtype=float).reshape(2, 1)
        try:
            B = sps.csr_array(V.probes(x0)).T
        except Exception as exc:  # skfem cannot locate the point
            raise ModelError(f"{model}: point {pname!r} at {tuple(x0.ravel())} is not in the "
                             "domain") from exc
        if B.nnz == 0:
            raise ModelError(f"{model}: point {pname!r} at {tuple(x0.ravel())} is not in the "
                             "domain")
        ports.append(PortBlock(f"F_{pname}", f"v_{pname}", "v", B, None, "N", "m/s",
                               f"point force at {pname}"))
    fixed_dofs = np.unique(np.concatenate(fixed)) if fixed else np.zeros(0, np.int64)
    return ports, fixed_dofs
