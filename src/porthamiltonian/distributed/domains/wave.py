r"""The wave equation on a 2-D or 3-D domain: a membrane, an elastic scalar wave.

Energy variables: the strain :math:`\varepsilon = \nabla w` and the momentum density
:math:`p = \rho\,\partial_t w`; Hamiltonian

.. math:: H = \frac12\int_\Omega\Big(\frac{p^2}{\rho} + T\,|\varepsilon|^2\Big)\,dA

(J), with ``T`` the tension (N/m) and ρ the mass per area (kg/m²) of a membrane (in
3-D: a stiffness in Pa and a density in kg/m³).  Co-energies: the velocity
:math:`v = p/\rho` (m/s) and the membrane force per length :math:`\sigma = T\varepsilon`
(N/m).  Balance laws and power balance (Duindam et al., *Modeling and Control of
Complex Physical Systems*, 2009, §4.2; the discretization of Serhani, Haine, Matignon,
*IFAC-PapersOnLine* 52, 2019):

.. math::
    \partial_t p = \operatorname{div}\sigma - d\,v,\qquad \partial_t\varepsilon = \nabla v,
    \qquad \dot H = \int_{\partial\Omega} (\sigma\cdot n)\,v\,ds - \int_\Omega d\,v^2\,dA.

The boundary ports pair the traction :math:`\sigma\cdot n` (force on the body per
length) with the velocity (:mod:`.boundary`).  The velocity is continuous
(:math:`H^1`), the force discontinuous; in weak form

.. math:: W_v\dot v = -D^\top\sigma - R v + B u,\qquad W_\sigma\dot\sigma = D v,

:math:`W_v = \int\rho\,\varphi_i\varphi_j` (lumped), :math:`W_\sigma = \int T^{-1}
\psi_i\cdot\psi_j`, :math:`D_{ji} = \int\psi_j\cdot\nabla\varphi_i`.  Dirichlet
eigenfrequencies of the unit square with :math:`c = \sqrt{T/\rho}`:
:math:`f_{mn} = \tfrac c2\sqrt{m^2+n^2}`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .boundary import CONDITIONS, conditions_by_part, field_ports
from .domain import Domain, require_skfem
from .model import DomainModel, EnergyTerm, FieldView
from .pfem import FieldBlock, assemble_system
from .spaces import Coefficient, coefficient, h1_bases, l2_vector_basis, mass

__all__ = ["wave", "membrane"]


def wave(domain: Domain, density: Coefficient = 1.0, stiffness: Coefficient = 1.0, *,
         degree: int = 1, boundary: Mapping[str, str] | str = "fixed",
         points: Mapping[str, Sequence[float]] | None = None,
         damping: Coefficient | None = None, name: str = "wave") -> DomainModel:
    r"""The wave equation :math:`\rho\,\ddot w = \operatorname{div}(T\nabla w) - d\,\dot w`.

    Parameters
    ----------
    domain : Domain
        From :func:`~.domain.rectangle`, :func:`~.domain.box`, :func:`~.domain.disk`
        or :func:`~.domain.load_mesh`.
    density, stiffness : float or callable
        ρ (kg/m², 3-D: kg/m³) and T (N/m, 3-D: Pa); functions of the coordinates
        ``f(x, y[, z])`` for varying properties.
    degree : int
        1 or 2: the velocity's polynomial degree (frequencies converge at order
        ``2·degree``).  Degree 2 on triangles/tetrahedra keeps a consistent mass and
        gives a DescriptorPHS; every other choice an explicit sparse PHS.
    boundary : str or mapping
        One condition for every part, or ``{part: condition}`` (parts not named are
        ``"free"``): ``"fixed"``, ``"free"``, ``"force"`` (input ``F_<part>``: uniform
        traction, N/m; output ``v_<part>`` = ∫v ds), ``"nodal"`` (a force input per
        node), ``"velocity"`` (input ``v_<part>``, output ``F_<part>``: the reaction,
        N).  See :mod:`.boundary`.
    points : mapping, optional
        Point ports ``{name: (x, y)}``: input ``F_<name>`` (N), output ``v_<name>``.
    damping : float or callable, optional
        Viscous damping d (N·s/m³ in 2-D) ≥ 0.

    Returns
    -------
    DomainModel
        ``.system`` (states ``p[i]`` nodal momenta and ``eps[j]`` integrated strains, or
        co-energies ``v[i]``, ``sigma[j]`` in the descriptor form), fields ``"v"``,
        ``"sigma"`` and ``"energy"``.
    """
    sk = require_skfem()
    from skfem.helpers import dot

    conditions = conditions_by_part(domain, boundary, CONDITIONS, name)
    rho = coefficient(density, "density", "kg/m²")
    T = coefficient(stiffness, "stiffness", "N/m")
    V, Vm = h1_bases(domain, degree)
    S = l2_vector_basis(domain, degree)

    @sk.BilinearForm
    def grad(u: Any, s: Any, w: Any) -> Any:
        return dot(s, u.grad)

    D = sk.asm(grad, V, S).tocsr()  # rows: σ dofs (test), columns: v dofs (trial)
    fields = [FieldBlock("v", "p", mass(Vm, rho), "m/s", "kg·m/s", V, "velocity", True),
              FieldBlock("sigma", "eps", mass(S, T, inverse=True), "N/m",
                         "m²" if domain.dim == 2 else "m³", S, "membrane force per length")]
    R = None
    if damping is not None:
        R = {("v", "v"): mass(Vm, coefficient(damping, "damping", "N·s/m³"))}
    ports, fixed = field_ports(domain, V, "v", conditions, effort="F", flow="v",
                               units=("N/m", "m²/s", "N", "m/s"), points=points, model=name)
    system, layout = assemble_system(fields, {("sigma", "v"): D}, R, ports, {"v": fixed},
                                     name=name)
    views = {"v": FieldView("v", None, "m/s", "velocity"),
             "sigma": FieldView("sigma", None, "N/m", "membrane force per length")}
    variables = {
        "energy": "p: momentum density ρ ∂w/∂t (kg/(m·s)); ε = ∇w (–)",
        "coenergy": "v = p/ρ (m/s); σ = T ε (N/m)",
        "boundary": "traction σ·n (N/m) and velocity v (m/s) on each part",
        "hamiltonian": "H = ½∫(p²/ρ + T|ε|²) dA (J)",
    }
    energy = [EnergyTerm("v", Vm, rho), EnergyTerm("sigma", S, T, inverse=True)]
    return DomainModel(system, layout, domain, name, views, variables, degree, energy)


def membrane(domain: Domain, rho: Coefficient, tension: Coefficient, **kw: Any) -> DomainModel:
    """A membrane: mass per area ``rho`` (kg/m²), ``tension`` (N/m); see :func:`wave`."""
    return wave(domain, rho, tension, name=kw.pop("name", "membrane"), **kw)
