r"""The Reissner–Mindlin plate (thick plates) as a port-Hamiltonian system.

Brugnoli, Alazard, Pommier-Budinger, Matignon, *Port-Hamiltonian formulation and
symplectic discretization of plate models. Part I: Mindlin model for thick plates*,
Appl. Math. Modelling 75 (2019) 940–960.  Plate of thickness ``h`` (m), density ρ
(kg/m³), Young's modulus ``E`` (Pa), Poisson ratio ν, shear correction factor κ;
bending stiffness :math:`D_b = Eh^3/(12(1-\nu^2))` (N·m) and shear stiffness
:math:`\kappa G h` with :math:`G = E/(2(1+\nu))` (N/m).

Energy variables: linear momentum :math:`\rho h\,\partial_t w`, angular momenta
:math:`\tfrac{\rho h^3}{12}\partial_t\theta`, curvature :math:`\boldsymbol\kappa =
\operatorname{Grad}\theta` (symmetric gradient) and shear strain :math:`\gamma = \nabla w
- \theta` (θ is the rotation of the normal fibre, :math:`\theta\approx\nabla w` for a
thin plate).  Co-energies: vertical velocity :math:`v = \partial_t w` (m/s), angular
velocities :math:`\omega = \partial_t\theta` (rad/s), bending moments
:math:`M = D_b[(1-\nu)\boldsymbol\kappa + \nu\operatorname{tr}\boldsymbol\kappa\,I]`
(N·m/m) and shear forces :math:`q = \kappa G h\,\gamma` (N/m).  Hamiltonian

.. math::
    H = \frac12\int_\Omega \Big(\rho h\,v^2 + \frac{\rho h^3}{12}|\omega|^2
    + M:\boldsymbol\kappa + q\cdot\gamma\Big)\,dA \quad(\mathrm J),

balance laws :math:`\rho h\,\partial_t v = \operatorname{div} q`,
:math:`\tfrac{\rho h^3}{12}\partial_t\omega = \operatorname{Div} M + q`,
:math:`\partial_t\boldsymbol\kappa = \operatorname{Grad}\omega`,
:math:`\partial_t\gamma = \nabla v - \omega`, and power balance
:math:`\dot H = \int_{\partial\Omega} (v\,q\cdot n + \omega\cdot Mn)\,ds`.

**Discretization (PFEM).**  ``v``, :math:`\omega_x`, :math:`\omega_y` are three scalar
:math:`H^1` fields (Lagrange, lumped mass), ``M`` (components xx, yy, xy) and ``q`` are
discontinuous; integrating the first two balance laws by parts,

.. math::
    W_v\dot v = -D_{qv}^\top q,\quad W_\omega\dot\omega = -D_{M\omega}^\top M
    - D_{q\omega}^\top q,\quad W_M\dot M = D_{M\omega}\,\omega,\quad
    W_q\dot q = D_{qv}\,v + D_{q\omega}\,\omega,

:math:`D_{M\omega} = \int\varsigma:\operatorname{Grad}\psi`, :math:`D_{qv} =
\int\chi\cdot\nabla\varphi`, :math:`D_{q\omega} = -\int\chi\cdot\psi`, :math:`W_M =
\int\varsigma:\mathcal C M` (compliance :math:`\mathcal C = D_b^{-1}`) and :math:`W_q =
\int\chi\cdot q/(\kappa Gh)`.  The discontinuous spaces hold *everything* the operators
map into — :math:`\operatorname{Grad}\omega` and :math:`\nabla v - \omega` (on quads:
discontinuous :math:`Q_k`; on triangles :math:`P_{k-1}` for ``M`` and :math:`P_k` for
``q``, one degree more than :func:`.spaces.l2_element`) — so the discrete energy is the
Galerkin energy of the displacement formulation and the frequencies are its
frequencies.  The default, :math:`Q_2` quadrilaterals with Gauss–Lobatto lumping, has
little shear locking at :math:`h/a \ge 0.01`; :math:`Q_1`/:math:`P_1` lock and are
for tests of the structure only.

**Boundary conditions** per part: ``clamped`` (v, ω fixed), ``simply_supported``
(hard: v and the tangential rotation fixed — axis-aligned parts only), ``free``;
ports ``force`` (inputs ``F_<part>`` shear force q·n (N/m), ``Mx_<part>``,
``My_<part>`` the moment per length (M n)ₓ, (M n)ᵧ (N·m/m); outputs ``v_<part>`` =
∫v ds (m²/s), ``omega_x_<part>``, ``omega_y_<part>`` = ∫ω ds (m/s)), ``velocity``
(the three velocities imposed uniformly: inputs ``v_``, ``omega_x_``, ``omega_y_<part>``,
outputs the reactions, N and N·m) and ``nodal`` (a transverse force on every node of
the part, rotations free).  Point ports: a transverse force ``F_<name>`` (N) ↔ the
vertical velocity ``v_<name>`` (m/s).  In every case u·y is the power into the plate.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ...errors import ModelError
from .boundary import conditions_by_part, field_ports
from .domain import Domain, require_skfem
from .model import DomainModel, EnergyTerm, FieldView
from .pfem import FieldBlock, PortBlock, assemble_system
from .spaces import coefficient, h1_bases, l2_element, mass, quadrature_order

__all__ = ["mindlin", "PLATE_CONDITIONS", "PlateModel"]

#: boundary words of the plate models
PLATE_CONDITIONS = ("clamped", "simply_supported", "free", "force", "velocity", "nodal")


class PlateModel(DomainModel):
    """A :class:`DomainModel` whose energy has a tensor term (the bending moments:
    :math:`\\tfrac12\\int M:\\mathcal C M`), so each term is a pointwise density
    function of the interpolated field values instead of a scalar weight:
    ``densities`` holds ``(field, basis, density)`` for every term and gives
    :meth:`energy_density`; ``energy_terms`` (the base class's) lists the scalar
    terms only."""

    def __init__(self, *args: Any, densities: Sequence[tuple[str, Any, Callable]] = (),
                 **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.densities = tuple(densities)

    def energy_density(self, x: Any, u: Any = None) -> np.ndarray:
        e = self.coenergy(np.asarray(x, dtype=float), u)
        total = np.zeros(self.domain.n_cells)
        for fname, basis, density in self.densities:
            val = np.asarray(basis.interpolate(self.layout.field_values(fname, e)))
            total += (density(val) * basis.dx).sum(-1)
        return total / self.densities[0][1].dx.sum(-1)

    def energy(self, x: Any, u: Any = None) -> float:
        sizes = self.densities[0][1].dx.sum(-1)
        return float(np.sum(self.energy_density(x, u) * sizes))


def plate_conditions(domain: Domain, boundary: Mapping[str, str] | str, model: str
                     ) -> dict[str, str]:
    """``{part: word}`` from one word or a mapping, checked against
    :data:`PLATE_CONDITIONS`."""
    return conditions_by_part(domain, boundary, PLATE_CONDITIONS, model)


def edge_direction(domain: Domain, part: str, model: str, what: str) -> int:
    """0 when every facet of ``part`` runs along x, 1 along y; a :class:`ModelError`
    otherwise (the condition ``what`` needs an axis-aligned straight part)."""
    mesh = domain.mesh
    facets = mesh.facets[:, domain.part(part)]
    d = np.abs(mesh.p[:, facets[1]] - mesh.p[:, facets[0]])
    tol = 1e-10 * max(float(np.ptp(mesh.p[0])), float(np.ptp(mesh.p[1])))
    if np.all(d[1] <= tol):
        return 0
    if np.all(d[0] <= tol):
        return 1
    raise ModelError(f"{model}: boundary part {part!r} is not an axis-aligned straight edge; "
                     f"{what} is only available on edges parallel to x or y (use 'clamped' "
                     "or split the part)")


def _positive(value: Any, name: str, unit: str) -> float:
    try:
        v = float(value)
    except (TypeError, ValueError) as exc:
        raise ModelError(f"{name} ({unit}) must be a number; got {value!r}") from exc
    if not np.isfinite(v) or v <= 0:
        raise ModelError(f"{name} ({unit}) must be positive and finite; got {value!r}")
    return v


def plate_material(E: Any, nu: Any, rho: Any, thickness: Any, model: str
                   ) -> tuple[float, float, float, float]:
    """``(E, nu, rho, h)`` as floats: E (Pa), ρ (kg/m³) and h (m) positive and finite, the
    Poisson ratio in (−1, ½); a :class:`ModelError` names the value at fault."""
    E, rho = _positive(E, "E", "Pa"), _positive(rho, "rho", "kg/m³")
    h = _positive(thickness, "thickness", "m")
    nu = float(nu)
    if not -1.0 < nu < 0.5:
        raise ModelError(f"{model}: Poisson ratio nu={nu!r} must lie in (-1, 0.5)")
    return E, nu, rho, h


def compliance_mass(basis: Any, Db: float, nu: float) -> Any:
    r""":math:`\int\varsigma:\mathcal C M` for moments stored as (xx, yy, xy):
    :math:`\mathcal C M = [(1+\nu)M - \nu\operatorname{tr}M\,I]/(D_b(1-\nu^2))`, the
    xy entry counted twice in the contraction."""
    sk = require_skfem()
    a = 1.0 / (Db * (1.0 - nu ** 2))

    @sk.BilinearForm
    def form(m: Any, s: Any, w: Any) -> Any:
        return (a * (s[0] * (m[0] - nu * m[1]) + s[1] * (m[1] - nu * m[0]))
                + 2.0 * s[2] * m[2] / (Db * (1.0 - nu)))

    return sk.asm(form, basis).tocsr()


def moment_density(Db: float, nu: float) -> Callable[[Any], Any]:
    """Pointwise :math:`\\tfrac12 M:\\mathcal C M` (J/m²) of moments (xx, yy, xy)."""
    a = 1.0 / (Db * (1.0 - nu ** 2))

    def density(m: Any) -> Any:
        return 0.5 * (a * (m[0] ** 2 + m[1] ** 2 - 2 * nu * m[0] * m[1])
                      + 2.0 * m[2] ** 2 / (Db * (1.0 - nu)))
    return density


def mindlin(domain: Domain, E: float, nu: float, rho: float, thickness: float, *,
            kappa: float = 5.0 / 6.0, degree: int = 2,
            boundary: Mapping[str, str] | str = "clamped",
            points: Mapping[str, Sequence[float]] | None = None,
            damping: float | None = None, name: str = "mindlin") -> PlateModel:
    r"""The Reissner–Mindlin plate (module docstring) on a 2-D domain.

    Parameters
    ----------
    domain : Domain
        A 2-D domain; quadrilaterals (:func:`~.domain.rectangle` with
        ``cell="quad"``) give the explicit form with degree 2.
    E, nu, rho, thickness : float
        Young's modulus (Pa), Poisson ratio (–), density (kg/m³), thickness h (m).
    kappa : float
        Shear correction factor (5/6; the clamped-plate tables use 0.8601).
    degree : int
        1 or 2: degree of the continuous fields (2 recommended: 1 locks).
    boundary : str or mapping
        One word for every part or ``{part: word}``; words in
        :data:`PLATE_CONDITIONS` (module docstring).  Parts not named are free.
    points : mapping, optional
        ``{name: (x, y)}``: transverse point force ``F_<name>`` (N) in, velocity
        ``v_<name>`` (m/s) out.
    damping : float, optional
        Viscous damping per area c (N·s/m³) on the vertical velocity, ≥ 0.

    Returns
    -------
    PlateModel
        ``.system``: an explicit sparse PHS (states ``p`` linear momenta, ``Lx``/``Ly``
        angular momenta, ``kappa`` curvatures, ``gamma`` shear strains, integrated) or a
        DescriptorPHS (degree 2 on triangles); fields ``v``, ``omega_x``, ``omega_y``,
        ``Mxx``, ``Myy``, ``Mxy``, ``qx``, ``qy`` and ``energy``.
    """
    sk = require_skfem()
    if domain.dim != 2:
        raise ModelError(f"{name}: a plate needs a 2-D domain")
    E, nu, rho, h = plate_material(E, nu, rho, thickness, name)
    kappa = _positive(kappa, "kappa", "–")
    conditions = plate_conditions(domain, boundary, name)
    Db = E * h ** 3 / (12.0 * (1.0 - nu ** 2))
    kGh = kappa * E / (2.0 * (1.0 + nu)) * h

    V, Vm = h1_bases(domain, degree)
    order = quadrature_order(degree)
    # q must hold ∇v − ω (degree k); M holds Grad ω (l2_element: degree k−1 on triangles)
    eq = l2_element(domain, degree) if domain.cell == "quad" else sk.ElementDG(V.elem)
    SM = sk.Basis(domain.mesh, sk.ElementVector(l2_element(domain, degree), 3), intorder=order)
    Sq = sk.Basis(domain.mesh, sk.ElementVector(eq, 2), intorder=order)

    @sk.BilinearForm
    def d_mx(u: Any, s: Any, w: Any) -> Any:
        return s[0] * u.grad[0] + s[2] * u.grad[1]

    @sk.BilinearForm
    def d_my(u: Any, s: Any, w: Any) -> Any:
        return s[1] * u.grad[1] + s[2] * u.grad[0]

    @sk.BilinearForm
    def d_qv(u: Any, s: Any, w: Any) -> Any:
        return s[0] * u.grad[0] + s[1] * u.grad[1]

    @sk.BilinearForm
    def d_qx(u: Any, s: Any, w: Any) -> Any:
        return -s[0] * u

    @sk.BilinearForm
    def d_qy(u: Any, s: Any, w: Any) -> Any:
        return -s[1] * u

    def const(c: float) -> Callable[[Any], Any]:
        return coefficient(c, "coefficient", "")

    J = {("M", "omega_x"): sk.asm(d_mx, V, SM), ("M", "omega_y"): sk.asm(d_my, V, SM),
         ("q", "v"): sk.asm(d_qv, V, Sq), ("q", "omega_x"): sk.asm(d_qx, V, Sq),
         ("q", "omega_y"): sk.asm(d_qy, V, Sq)}
    I_rot = rho * h ** 3 / 12.0
    fields = [
        FieldBlock("v", "p", mass(Vm, const(rho * h)), "m/s", "kg·m/s", V,
                   "vertical velocity", True),
        FieldBlock("omega_x", "Lx", mass(Vm, const(I_rot)), "rad/s", "kg·m²/s", V,
                   "angular velocity of the fibre, x", True),
        FieldBlock("omega_y", "Ly", mass(Vm, const(I_rot)), "rad/s", "kg·m²/s", V,
                   "angular velocity of the fibre, y", True),
        FieldBlock("M", "kappa", compliance_mass(SM, Db, nu), "N·m/m", "m", SM,
                   "bending moments (xx, yy, xy)"),
        FieldBlock("q", "gamma", mass(Sq, const(kGh), inverse=True), "N/m", "m²", Sq,
                   "shear forces"),
    ]
    R = None
    if damping is not None:
        c = float(damping)
        if not np.isfinite(c) or c < 0:
            raise ModelError(f"{name}: damping={damping!r} must be ≥ 0 (N·s/m³)")
        R = {("v", "v"): c * mass(Vm)}
    ports, fixed = _mindlin_ports(domain, V, conditions, points, name)
    system, layout = assemble_system(fields, J, R, ports, fixed, name=name)
    views = {"v": FieldView("v", None, "m/s", "vertical velocity"),
             "omega_x": FieldView("omega_x", None, "rad/s", "angular velocity x"),
             "omega_y": FieldView("omega_y", None, "rad/s", "angular velocity y"),
             "Mxx": FieldView("M", 0, "N·m/m", "bending moment xx"),
             "Myy": FieldView("M", 1, "N·m/m", "bending moment yy"),
             "Mxy": FieldView("M", 2, "N·m/m", "twisting moment xy"),
             "qx": FieldView("q", 0, "N/m", "shear force x"),
             "qy": FieldView("q", 1, "N/m", "shear force y")}
    variables = {
        "energy": "p = ρh ∂w/∂t (kg/(m·s)); L = ρh³/12 ∂θ/∂t; κ = Grad θ; γ = ∇w − θ",
        "coenergy": "v = ∂w/∂t (m/s); ω = ∂θ/∂t (rad/s); M = D_b[(1−ν)κ + ν tr κ I] "
                    "(N·m/m); q = κGh γ (N/m)",
        "boundary": "v q·n + ω·(M n) on each part (W/m)",
        "hamiltonian": "H = ½∫(ρh v² + ρh³/12 |ω|² + M:κ + q·γ) dA (J)",
    }
    densities = [("v", Vm, lambda v: 0.5 * rho * h * v ** 2),
                 ("omega_x", Vm, lambda v: 0.5 * I_rot * v ** 2),
                 ("omega_y", Vm, lambda v: 0.5 * I_rot * v ** 2),
                 ("M", SM, moment_density(Db, nu)),
                 ("q", Sq, lambda q: 0.5 * (q[0] ** 2 + q[1] ** 2) / kGh)]
    scalar = [EnergyTerm("v", Vm, const(rho * h)), EnergyTerm("omega_x", Vm, const(I_rot)),
              EnergyTerm("omega_y", Vm, const(I_rot)), EnergyTerm("q", Sq, const(kGh), True)]
    return PlateModel(system, layout, domain, name, views, variables, degree, scalar,
                      densities=densities)


def _mindlin_ports(domain: Domain, V: Any, conditions: Mapping[str, str],
                   points: Mapping[str, Sequence[float]] | None, model: str
                   ) -> tuple[list[PortBlock], dict[str, np.ndarray]]:
    """Per-field conditions of :mod:`.boundary` from the plate words."""
    per: dict[str, dict[str, str]] = {"v": {}, "omega_x": {}, "omega_y": {}}
    for part, word in conditions.items():
        if word == "clamped":
            for f in per:
                per[f][part] = "fixed"
        elif word == "simply_supported":
            per["v"][part] = "fixed"
            # hard support: θ·t is held (θ ≈ ∇w, so the slope along the edge)
            per["omega_x" if edge_direction(domain, part, model,
                                            "simply_supported") == 0 else "omega_y"][part] = \
                "fixed"
        elif word in ("force", "velocity"):
            for f in per:
                per[f][part] = word
        elif word == "nodal":
            per["v"][part] = "nodal"
    ports, fixed = [], {}
    spec = {"v": ("F", "v", ("N/m", "m²/s", "N", "m/s"), points),
            "omega_x": ("Mx", "omega_x", ("N·m/m", "m/s", "N·m", "rad/s"), None),
            "omega_y": ("My", "omega_y", ("N·m/m", "m/s", "N·m", "rad/s"), None)}
    for f, (effort, flow, units, pts) in spec.items():
        p, fx = field_ports(domain, V, f, per[f], effort=effort, flow=flow, units=units,
                            points=pts, model=model)
        ports += p
        fixed[f] = fx
    return ports, fixed
