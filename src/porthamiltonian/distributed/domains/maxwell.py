r"""Maxwell's equations in a 2-D cavity: transverse magnetic (TM) and transverse electric (TE).

**The pH form.**  In a linear, lossless medium (permittivity ε in F/m, permeability μ
in H/m) Maxwell's equations are a port-Hamiltonian system on the energy variables
:math:`D = \varepsilon E` and :math:`B = \mu H` (Duindam et al., *Modeling and Control
of Complex Physical Systems*, 2009, §4.2.x, the Stokes–Dirac structure of
electromagnetism):

.. math::
    \partial_t \begin{pmatrix} D \\ B\end{pmatrix}
      = \begin{pmatrix} 0 & \nabla\times \\ -\nabla\times & 0\end{pmatrix}
        \begin{pmatrix} E \\ H\end{pmatrix},\qquad
    H_{\mathrm{em}} = \frac12\int_\Omega \big(\varepsilon|E|^2 + \mu|H|^2\big)\,dV,

with co-energies :math:`E = \delta_D H_{\mathrm{em}}`, :math:`H = \delta_B H_{\mathrm{em}}`
and the power balance :math:`\dot H_{\mathrm{em}} = -\int_{\partial\Omega}(E\times H)\cdot
n\,ds`: the Poynting flux *into* the domain, :math:`-(E\times H)\cdot n
= E\cdot(n\times H) = H\cdot(E\times n)`.  Fields independent of z split into two
decoupled systems (energies per unit length in z, J/m; powers W/m):

* **TM** (:math:`E = E_z\hat z`, :math:`H = (H_x, H_y)`):
  :math:`\varepsilon\,\partial_t E_z = \partial_x H_y - \partial_y H_x`,
  :math:`\mu\,\partial_t H = (-\partial_y E_z,\ \partial_x E_z)`; supply
  :math:`E_z\,(n\times H)_z`.
* **TE** (:math:`H = H_z\hat z`, :math:`E = (E_x, E_y)`):
  :math:`\mu\,\partial_t H_z = -(\partial_x E_y - \partial_y E_x)`,
  :math:`\varepsilon\,\partial_t E = (\partial_y H_z,\ -\partial_x H_z)`; supply
  :math:`H_z\,(E\times n)_z`.

With the rotated gradient :math:`\operatorname{rot}\varphi = (\partial_y\varphi,
-\partial_x\varphi)` and the scalar curl :math:`\operatorname{curl}F = \partial_x F_y
- \partial_y F_x`, Green's formula reads :math:`\int_\Omega \varphi\,\operatorname{curl}F
= \int_\Omega F\cdot\operatorname{rot}\varphi + \int_{\partial\Omega}\varphi\,(n\times F)_z`.

**Partitioned FEM** (Payen, Matignon, Haine, "Modelling and structure-preserving
discretization of Maxwell's equations as port-Hamiltonian system", *IFAC-PapersOnLine*
53(2), 2020; the same PFEM as :mod:`.wave`): the z-component goes to :math:`H^1`
(lumped mass), the in-plane field to the discontinuous space holding
:math:`\operatorname{rot}` of it, :math:`D_{ji} = \int\psi_j\cdot\operatorname{rot}
\varphi_i`.  Integrating by parts in the :math:`H^1` equation:

.. math::
    \text{TM:}\quad W_E\dot E_z = D^\top H + B\,u,\quad W_H\dot H = -D\,E_z,
    \qquad u = (n\times H)_z = H\cdot t,

.. math::
    \text{TE:}\quad W_H\dot H_z = -D^\top E + B\,u,\quad W_E\dot E = D\,H_z,
    \qquad u = (E\times n)_z = -E\cdot t,

:math:`t = \hat z\times n` the counter-clockwise tangent, :math:`B_i = \int_\Gamma
\varphi_i\,ds`; the output :math:`y = B^\top e` is :math:`\int_\Gamma E_z\,ds` (TM) or
:math:`\int_\Gamma H_z\,ds` (TE), so :math:`u\,y` is the Poynting power into the
cavity.  Since :math:`D^\top W^{-1} D` is the Galerkin stiffness
:math:`\int\varepsilon^{-1}\nabla\varphi_i\cdot\nabla\varphi_j` (TE) or
:math:`\int\mu^{-1}\nabla\varphi_i\cdot\nabla\varphi_j` (TM), there are no spurious
modes: the non-zero frequencies converge at order :math:`2k` (degree k) to those of
the square cavity of side a, :math:`\omega = c\pi\sqrt{m^2+n^2}/a`,
:math:`c = 1/\sqrt{\varepsilon\mu}`, with m, n ≥ 1 (TM) or m, n ≥ 0 not both 0 (TE);
the discrete in-plane field also has a kernel (static, curl-free fields) at ω = 0.

**Boundary conditions** per part:

============ ============================== ==============================================
condition    TM                             TE
============ ============================== ==============================================
``pec``      :math:`E_z = 0` (essential)    :math:`(n\times E) = 0` (natural)
``pmc``      :math:`(n\times H)_z = 0`      :math:`H_z = 0` (essential)
             (natural)
``port``     input ``H_<part>`` =           input ``E_<part>`` = :math:`(E\times n)_z`
             :math:`(n\times H)_z` (A/m) →  (V/m) → ``H_<part>`` = :math:`\int H_z ds` (A)
             ``E_<part>`` =
             :math:`\int E_z ds` (V)
``driven``   input ``E_<part>`` = E_z (V/m) input ``H_<part>`` = H_z (A/m) →
             → ``H_<part>`` = reaction      ``E_<part>`` = reaction
             :math:`\int (n\times H)_z ds`  :math:`\int (E\times n)_z ds` (V)
             (A)
============ ============================== ==============================================
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...errors import ModelError
from .boundary import conditions_by_part, field_ports
from .domain import Domain, require_skfem
from .model import DomainModel, EnergyTerm, FieldView
from .pfem import FieldBlock, assemble_system
from .spaces import Coefficient, coefficient, h1_bases, l2_vector_basis, mass

__all__ = ["maxwell_te", "maxwell_tm", "MAXWELL_CONDITIONS"]

MAXWELL_CONDITIONS = ("pec", "pmc", "port", "driven")


def maxwell_tm(domain: Domain, epsilon: Coefficient = 1.0, mu: Coefficient = 1.0, *,
               degree: int = 1, boundary: Mapping[str, str] | str = "pec",
               name: str = "maxwell_tm") -> DomainModel:
    r"""Transverse-magnetic fields :math:`(E_z; H_x, H_y)` in a 2-D cavity (module docstring).

    Parameters
    ----------
    domain : Domain
        A 2-D domain (:func:`~.domain.rectangle`, :func:`~.domain.disk`, a mesh file).
    epsilon, mu : float or callable
        Permittivity ε (F/m) and permeability μ (H/m), or functions ``f(x, y)``.
    degree : int
        1 or 2: the polynomial degree of :math:`E_z` (frequencies converge at order
        ``2·degree``; degree 2 on triangles gives a DescriptorPHS).
    boundary : str or mapping
        One condition for every part or ``{part: condition}`` (parts not named are
        ``"pec"``): ``"pec"``, ``"pmc"``, ``"port"``, ``"driven"``.

    Returns
    -------
    DomainModel
        ``.system`` with states ``D[i]`` (:math:`\int\varepsilon E_z\varphi_i`, C) and
        ``B[j]`` (integrated flux density, Wb), or co-energies ``E``/``H`` in the
        descriptor form; fields ``"Ez"``, ``"H"``, ``"Hx"``, ``"Hy"``, ``"energy"``
        (J/m³: energy per unit length in z over the area).
    """
    return _maxwell(domain, epsilon, mu, degree, boundary, name, "tm")


def maxwell_te(domain: Domain, epsilon: Coefficient = 1.0, mu: Coefficient = 1.0, *,
               degree: int = 1, boundary: Mapping[str, str] | str = "pec",
               name: str = "maxwell_te") -> DomainModel:
    r"""Transverse-electric fields :math:`(H_z; E_x, E_y)` in a 2-D cavity (module docstring).

    Parameters as :func:`maxwell_tm`; here :math:`H_z` is the continuous field.

    Returns
    -------
    DomainModel
        ``.system`` with states ``B[i]`` (:math:`\int\mu H_z\varphi_i`, Wb) and ``D[j]``
        (C), fields ``"Hz"``, ``"E"``, ``"Ex"``, ``"Ey"``, ``"energy"`` (J/m³).
    """
    return _maxwell(domain, epsilon, mu, degree, boundary, name, "te")


def _maxwell(domain: Domain, epsilon: Coefficient, mu: Coefficient, degree: int,
             boundary: Mapping[str, str] | str, name: str, mode: str) -> DomainModel:
    sk = require_skfem()

    if domain.dim != 2:
        raise ModelError(f"{name}: TE/TM fields live on 2-D domains; this one is "
                         f"{domain.dim}-D")
    conditions = _conditions(domain, boundary, name, mode)
    eps = coefficient(epsilon, "epsilon", "F/m")
    mu_ = coefficient(mu, "mu", "H/m")
    V, Vm = h1_bases(domain, degree)
    S = l2_vector_basis(domain, degree)

    @sk.BilinearForm
    def rot(u: Any, s: Any, w: Any) -> Any:
        g = u.grad
        return s[0] * g[1] - s[1] * g[0]  # ψ · (∂y φ, −∂x φ)

    D = sk.asm(rot, V, S).tocsr()  # rows: in-plane dofs, columns: z-component dofs
    if mode == "tm":
        z, zs, zc, zu = "E", "D", eps, ("V/m", "C")
        p, ps, pc, pu = "H", "B", mu_, ("A/m", "Wb")
        J = {("H", "E"): -D}
        effort, flow = "H", "E"  # natural input (n×H)_z, imposed E_z
        descr = ("electric field E_z", "magnetic field (H_x, H_y)")
    else:
        z, zs, zc, zu = "H", "B", mu_, ("A/m", "Wb")
        p, ps, pc, pu = "E", "D", eps, ("V/m", "C")
        J = {("E", "H"): D}
        effort, flow = "E", "H"  # natural input (E×n)_z, imposed H_z
        descr = ("magnetic field H_z", "electric field (E_x, E_y)")
    fields = [FieldBlock(z, zs, mass(Vm, zc), zu[0], zu[1], V, descr[0], True),
              FieldBlock(p, ps, mass(S, pc), pu[0], pu[1], S, descr[1])]
    units = (f"{'A' if mode == 'tm' else 'V'}/m", "V" if mode == "tm" else "A",
             "A" if mode == "tm" else "V", zu[0])
    ports, fixed = field_ports(domain, V, z, conditions, effort=effort, flow=flow,
                               units=units, model=name)
    system, layout = assemble_system(fields, J, None, ports, {z: fixed}, name=name)
    views = {f"{z}z": FieldView(z, None, zu[0], descr[0]),
             p: FieldView(p, None, pu[0], descr[1]),
             f"{p}x": FieldView(p, 0, pu[0], f"{p}_x"),
             f"{p}y": FieldView(p, 1, pu[0], f"{p}_y")}
    variables = {
        "energy": "D = εE (C/m²), B = μH (T), per unit length in z",
        "coenergy": "E (V/m), H (A/m)",
        "boundary": ("tangential pair E_z, (n×H)_z" if mode == "tm"
                     else "tangential pair H_z, (E×n)_z") + " on each part; power = "
                    "Poynting flux into the domain (W/m)",
        "hamiltonian": "H = ½∫(ε|E|² + μ|H|²) dA (J/m)",
    }
    energy = [EnergyTerm(z, Vm, zc), EnergyTerm(p, S, pc)]
    model = DomainModel(system, layout, domain, name, views, variables, degree, energy)
    model.energy_unit = "J/m³"  # energy per unit length in z, per area
    return model


def _conditions(domain: Domain, boundary: Mapping[str, str] | str, model: str, mode: str
                ) -> dict[str, str]:
    """Each part's condition of the z-field: PEC holds E_z (TM) or leaves H_z free (TE);
    parts not named are PEC."""
    table = {"tm": {"pec": "fixed", "pmc": "free", "port": "force", "driven": "velocity"},
             "te": {"pec": "free", "pmc": "fixed", "port": "force", "driven": "velocity"}}
    if not isinstance(boundary, str) and isinstance(boundary, Mapping):
        boundary = {**{p: "pec" for p in domain.parts}, **boundary}
    return conditions_by_part(domain, boundary, table[mode], model)
