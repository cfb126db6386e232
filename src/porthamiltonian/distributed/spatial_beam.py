r"""Geometrically exact 3-D beam (Simo–Reissner rod) as a port-Hamiltonian system.

Macchelli & Melchiorri, *Port-based simulation of flexible multi-body systems* (IFAC
2008), eq. 7; Macchelli, Melchiorri, Stramigioli, IEEE T-RO 23(4), 2007; the kinematics
and constitutive law of Simo (1985) and Simo & Vu-Quoc (1986), in body-frame variables.

**Configuration.**  The cross section at arclength ``s`` has pose
:math:`g(s, t) \in SE(3)`; the *strain twist* :math:`\tilde\xi = g^{-1}\partial_s g`
and the *velocity twist* :math:`\tilde\eta = g^{-1}\partial_t g` are body-frame twists,
angular part first as in :mod:`porthamiltonian.lie`:
:math:`\xi = (K, \Gamma)` (curvature/torsion, shear/axial stretch),
:math:`\eta = (\omega, v)`.  The beam axis is the body **x-axis** (axis 1), so the
unstressed reference has :math:`\xi_0 = (K_0(s), e_1)`; :math:`K_0 = 0` is the straight
beam, :math:`K_0 \neq 0` a curved (or twisted) unstressed configuration — the
:math:`\hat n` of the seed paper; e.g. a helix of radius ``a`` and pitch :math:`2\pi b`
has :math:`K_0 = (b, 0, a)/(a^2 + b^2)` in a suitable section frame.

**Energy variables** (per unit length): the strain deviation
:math:`\varepsilon = \xi - \xi_0 = (\kappa_1, \kappa_2, \kappa_3, \gamma_1, \gamma_2,
\gamma_3)` — torsion, the two bending curvatures (1/m), axial strain and the two shear
strains (–) — and the body-frame momentum :math:`\pi = (h, p) = \mathbb M\eta`,
:math:`\mathbb M = \mathrm{diag}(\rho J, \rho I_2, \rho I_3, \rho A, \rho A, \rho A)`.
Quadratic Hamiltonian

.. math:: H = \frac12\int_0^L \big(\varepsilon^\top\mathbb C\,\varepsilon
          + \pi^\top\mathbb M^{-1}\pi\big)\,ds,\qquad
          \mathbb C = \mathrm{diag}(GJ, EI_2, EI_3, EA, GA_2, GA_3),

co-energy variables: the stress wrench :math:`\lambda = \mathbb C\varepsilon = (m, n)`
(body-frame moment and force resultants, N·m and N) and the twist η.
**Balance laws** (compatibility :math:`\partial_t\xi = \partial_s\eta + \mathrm{ad}_\xi\eta`
and the body-frame momentum balance):

.. math::
    \partial_t\varepsilon &= \partial_s\eta + \mathrm{ad}_{\xi_0 + \varepsilon}\,\eta,\\
    \partial_t\pi &= \partial_s\lambda - \mathrm{ad}^*_{\xi_0 + \varepsilon}\,\lambda
        + \mathrm{ad}^*_\eta\,\pi,

with :math:`\mathrm{ad}^*_\eta = \mathrm{ad}_\eta^\top`; written out,
:math:`\dot\gamma = v' + K\times v + \Gamma\times\omega`, :math:`\dot\kappa = \omega'
+ K\times\omega`, :math:`\dot p = n' + K\times n - \omega\times p`,
:math:`\dot h = m' + K\times m + \Gamma\times n - \omega\times h - v\times p`
(:math:`v\times p = 0` on solutions; kept, it makes the structure skew — the p∧ term).
So :math:`\dot H = [\eta^\top\lambda]_0^L`: the end ports are **twist/wrench pairs** in
the body frame of each end section (eq. 7b of the seed paper).

Linearized about the straight reference this splits into the rod (γ₁, v₁), torsion
(κ₁, ω₁) and two Timoshenko beams: (γ₂, κ₃, v₂, ω₃) in the 1–2 plane and
(γ₃, κ₂, v₃, ω₂) in the 1–3 plane.  A motion in the 1–2 plane is exactly the planar
beam of :mod:`.planar_beam` (with ``EI₃, GA₂, ρI₃``).

**Discretization**: the primal partitioned FEM of :mod:`.fem` (velocities continuous of
degree ``k``, strains at the Gauss points), the ad-terms by Gauss collocation
(:mod:`.spatial_structure`): :math:`J(x)` affine in the state and skew for every ``x``,
H quadratic, so the implicit midpoint rule conserves it exactly (to the Newton
tolerance).  ``.system`` is a :class:`~.beam_system.BeamPHS` (a ``FunctionPHS``) with sparse
:class:`~porthamiltonian.compiled.affine.AffineMatrix` structure.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps

from ..compiled.affine import AffineMatrix
from ..errors import ModelError
from ..lie import ad, exp_se3
from ..phs import PHS
from .beam_system import BeamPHS
from .boundary import Condition, parse_ends
from .fem import Coef, EffortField, FlowField, Param
from .mesh import check_degree, make_mesh
from .model import DistributedModel
from .partition import assemble
from .quadrature import lagrange
from .spatial_structure import check_uniform_ends, skew_entries_to_structure, spatial_entries

__all__ = ["spatial_beam", "SpatialBeamModel", "SPATIAL_ENDS", "STRAINS", "VELOCITIES"]

F_, X_, P_, V_ = Condition.FREE, Condition.FIXED, Condition.FORCE, Condition.VELOCITY
#: End conditions, as (ω₁, ω₂, ω₃, v₁, v₂, v₃) — twist order of porthamiltonian.lie.
SPATIAL_ENDS = {"clamped": (X_,) * 6, "free": (F_,) * 6, "port": (P_,) * 6,
                "force": (P_,) * 6, "velocity": (V_,) * 6, "driven": (V_,) * 6,
                "pinned": (F_,) * 3 + (X_,) * 3, "hub": (V_,) * 3 + (X_,) * 3}
#: Names of the strain fields (deviation from the reference) and velocity fields.
STRAINS = ("kappa1", "kappa2", "kappa3", "gamma1", "gamma2", "gamma3")
VELOCITIES = ("omega1", "omega2", "omega3", "v1", "v2", "v3")
_MOMENTA = ("h1", "h2", "h3", "p1", "p2", "p3")
_FORCES = ("m1", "m2", "m3", "n1", "n2", "n3")
_GROUPS = {"rotation": slice(0, 3), "translation": slice(3, 6)}


def spatial_beam(length: float, rhoA: Coef, rhoI: Any, EA: Coef, EI: Any, GA: Any, GJ: Coef,
                 *, rhoJ: Coef | None = None, curvature: Any = None, elements: Any = 6,
                 degree: int = 1, left: Any = "clamped", right: Any = "free"
                 ) -> SpatialBeamModel:
    """A geometrically exact 3-D beam along the body x-axis (module docstring).

    Parameters (SI; each a number or a function of s in m; a pair gives the values
    for axes 2 and 3 of the cross section, one value is used for both):

    rhoA : mass per length ρA (kg/m).
    rhoI : rotary inertia per length ``(ρI₂, ρI₃)`` about the section axes 2, 3 (kg·m).
    EA : axial stiffness (N).
    EI : bending stiffness ``(EI₂, EI₃)`` (N·m²): EI₃ bends in the 1–2 plane.
    GA : shear stiffness ``(GA₂, GA₃)`` (N), shear correction included.
    GJ : torsional stiffness (N·m²).
    rhoJ : polar inertia per length ρJ (kg·m); default ρI₂ + ρI₃.
    curvature : ``(K₁, K₂, K₃)`` (1/m) of the unstressed reference (torsion, bending);
        default straight.  Numbers or functions of s, or one function returning the
        three rows.
    elements, degree : mesh (number or end points) and polynomial degree.
    left, right : ``"clamped"``, ``"free"``, ``"port"``/``"force"`` (inputs
        ``m1…m3_<end>, n1…n3_<end>``: the body-frame wrench on the beam; outputs the
        twist ``omega1…omega3_<end>, v1…v3_<end>``), ``"velocity"``/``"driven"`` (the
        twist as input, the wrench on the beam as output), ``"pinned"`` (translation
        fixed, rotation free), ``"hub"`` (translation fixed, angular velocity
        ``omega1…3_<end>`` driven), or a tuple of six :class:`~.boundary.Condition`
        names in the order (ω₁, ω₂, ω₃, v₁, v₂, v₃).  At each end all three rotations
        (translations) must be imposed or none.  Imposed velocities remove the end
        node (its inertia is carried by the source: O(h) at that port).
    """
    check_degree(degree, "spatial beam")
    mesh = make_mesh(length, elements)
    ends = parse_ends(left, right, SPATIAL_ENDS, "spatial beam")
    check_uniform_ends(ends, _GROUPS, "spatial beam")
    rI2, rI3 = _pair(rhoI, "rhoI", "kg·m")
    EI2, EI3 = _pair(EI, "EI", "N·m²")
    GA2, GA3 = _pair(GA, "GA", "N")
    pA, pEA, pGJ = Param(rhoA, "rhoA", "kg/m"), Param(EA, "EA", "N"), Param(GJ, "GJ", "N·m²")
    probe = mesh.nodes
    for p in (pA, rI2, rI3, pEA, EI2, EI3, GA2, GA3, pGJ):
        p.at(probe)  # named errors in the order of the arguments
    if rhoJ is None:
        pJ = Param(lambda s: rI2.at(s) + rI3.at(s), "rhoJ", "kg·m")
    else:
        pJ = Param(rhoJ, "rhoJ", "kg·m")
        pJ.at(probe)
    K0 = _curvature(curvature)
    K0(probe)
    densities = (pJ, rI2, rI3, pA, pA, pA)
    stiffness = (pGJ, EI2, EI3, pEA, GA2, GA3)
    flows = [FlowField(h, w, f, d) for h, w, f, d in zip(_MOMENTA, VELOCITIES, _FORCES,
                                                          densities, strict=True)]
    efforts = [EffortField(e, f, compliance=Param(k.value, k.name, k.unit, inverse=True))
               for e, f, k in zip(STRAINS, _FORCES, stiffness, strict=True)]
    disc = assemble(mesh, degree, flows, efforts, ends, name="spatial beam",
                    partition="primal")
    variables = {
        "energy": "kappa1..3 = K − K0 (1/m: torsion, bending), gamma1..3 = Γ − e1 (axial, "
                  "shear); h1..3 = ρJ ω (kg·m/s per m), p1..3 = ρA v (kg/s)",
        "coenergy": "m1 = GJ κ1, m2 = EI2 κ2, m3 = EI3 κ3 (N·m); n1 = EA γ1, n2 = GA2 γ2, "
                    "n3 = GA3 γ3 (N); omega1..3 (rad/s), v1..3 (m/s), body frame",
        "boundary": "the twist (omega, v) and the wrench on the beam (m, n) at each end, "
                    "in the body frame of the end section",
        "hamiltonian": "H = ½∫(εᵀ C ε + πᵀ M⁻¹ π) ds, C = diag(GJ, EI2, EI3, EA, GA2, GA3)",
    }
    return SpatialBeamModel(disc, K0, variables)


class SpatialBeamModel(DistributedModel):
    """The 3-D beam: ``.system`` nonlinear, ``.linear`` its linearization about the reference.

    Attributes
    ----------
    system : BeamPHS
        ẋ = J(x) Q x + G(x) u with the boundary ports left open (lossless: R = 0).
    linear : PHS
        The linearization about the unstressed (straight or curved) reference at rest:
        J₀, G₀, the same Q.  ``frequencies(n)`` are its natural frequencies.
    structure : tuple of AffineMatrix
        ``(J, G)``: J(x) = J₀ + Σ x_k J_k, G(x) likewise (for assembling larger models).
    Q : sparse diagonal
        H = ½ xᵀQx.
    """

    def __init__(self, disc: Any, curvature: Any, variables: dict[str, str]) -> None:
        super().__init__(disc, "spatial beam", variables)
        self.curvature = curvature
        base = disc.system
        n = base.n_states
        xi0 = self.reference_strain(disc.l2.coords)
        ent = skew_entries_to_structure(disc, *spatial_entries(disc, xi0))
        J0 = sps.csr_array(base.J + ent.J0)
        G0 = sps.csr_array(base.G + ent.G0) if base.n_inputs else sps.csr_array((n, 0))
        self.linear = PHS(J=J0, R=base.R, G=G0, P=base.P, S=base.S, Q=base.Q,
                          states=list(base.states), inputs=base.inputs, outputs=base.outputs,
                          name="spatial beam (linearized)", check=False)
        disc.system = self.linear  # the assembled linear PHS, curvature terms included
        self.structure = (AffineMatrix(J0, *ent.J, n_states=n),
                          AffineMatrix(G0, *ent.G, n_states=n))
        self.Q = sps.diags_array(base.Q.diagonal()).tocsr()
        self.system = BeamPHS(self.structure[0], base.R, self.structure[1], base.P, base.S,
                              self.Q.diagonal(), states=base.states, inputs=base.inputs,
                              outputs=base.outputs)

    # ----------------------------------------------------------------- structure
    def reference_strain(self, s: Any) -> np.ndarray:
        """The unstressed strain twist ξ₀ = (K₀(s), e₁) at the points ``s``, shape (6, len(s))."""
        s = np.atleast_1d(np.asarray(s, dtype=float))
        out = np.zeros((6, s.size))
        out[:3] = self.curvature(s)
        out[3] = 1.0
        return out

    def stiffness(self) -> tuple[sps.csr_array, np.ndarray]:
        """``(K, m)`` of the linearization (:meth:`DistributedModel.stiffness`)."""
        return DistributedModel(self.disc, self.kind, self.variables).stiffness()

    def equilibrium(self, u: Any = None, *, steps: int = 10, tol: float = 1e-11,
                    max_iter: int = 30) -> np.ndarray:
        """The static equilibrium state (momenta zero) under constant inputs ``u`` (an
        array or ``{input name: value}``): body-frame *follower* wrenches at port ends,
        imposed twists zero in practice.  Newton's method with the sparse Jacobian in
        ``steps`` load increments (:func:`.planar_static.static_equilibrium`, which is
        written for any beam whose balance rows are its momentum states); the beam must
        be held at one end (clamped, pinned + hub, …) so the problem is square."""
        from .planar_static import static_equilibrium

        return static_equilibrium(self, u, steps=steps, tol=tol, max_iter=max_iter)

    def port_names(self, end: str) -> tuple[list[str], list[str]]:
        """``(inputs, outputs)`` of one end, each in the order (angular, linear) of
        :mod:`~porthamiltonian.lie` (twist ``(ω, v)``, wrench ``(τ, f)``);
        empty for a clamped or free end."""
        if end not in ("left", "right"):
            raise ModelError(f"spatial beam: end must be 'left' or 'right', got {end!r}")
        sys = self.system
        pick = [i for i, name in enumerate(sys.inputs) if name.endswith("_" + end)]
        return [sys.inputs[i] for i in pick], [sys.outputs[i] for i in pick]

    # ----------------------------------------------------------------- states
    def state(self, **fields: Any) -> np.ndarray:
        """A state vector from fields given as numbers or functions of s (m).

        Keys: the strain deviations ``kappa1…3`` (1/m) and ``gamma1…3`` (–), and the
        velocities ``omega1…3`` (rad/s) and ``v1…3`` (m/s), all body frame; missing
        fields are zero.  Velocities at nodes removed by an imposed end are ignored.
        """
        d = self.disc
        x = np.zeros(self.system.n_states)
        Nq, Np = d.l2.size, d.h1.size
        pos = np.full(d.mp.size, -1)
        pos[d.kept] = d.n_q + np.arange(d.kept.size)
        for key, value in fields.items():
            if key in STRAINS:
                a = STRAINS.index(key)
                x[a * Nq:(a + 1) * Nq] = d.l2.weights * _values(value, d.l2.coords, key)
            elif key in VELOCITIES:
                b = VELOCITIES.index(key)
                dofs = np.arange(b * Np, (b + 1) * Np)
                vals = d.mp[dofs] * _values(value, d.h1.coords, key)
                keep = pos[dofs] >= 0
                x[pos[dofs][keep]] = vals[keep]
            else:
                raise ModelError(f"spatial beam: unknown field {key!r}; give one of "
                                 f"{', '.join(STRAINS + VELOCITIES)}")
        return x

    def strains(self, x: Any) -> tuple[np.ndarray, np.ndarray]:
        """``(s_g, ε)``: Gauss points (m) and strain deviations ``(…, 6, Nq)`` there."""
        d = self.disc
        x = np.asarray(x, dtype=float)
        Nq = d.l2.size
        eps = x[..., :6 * Nq].reshape(*x.shape[:-1], 6, Nq) / d.l2.weights
        return d.l2.coords, eps

    def strain_twist(self, x: Any, s: Any) -> np.ndarray:
        r"""The strain twist :math:`\xi = \xi_0 + \varepsilon` (1/m, –) of one state at
        the points ``s`` (m), shape (6, len(s)): curvature/torsion, then stretch/shear."""
        x = np.asarray(x, dtype=float)
        s = np.atleast_1d(np.asarray(s, dtype=float))
        _, eps = self.strains(x)
        return np.array([self.disc.l2.evaluate(e, s) for e in eps]) + self.reference_strain(s)

    # ----------------------------------------------------------------- kinematics
    def poses(self, x: Any, base: Any = None) -> np.ndarray:
        r"""Poses :math:`g(s_e)` (4×4) of the cross sections at the element end points.

        Integrates :math:`\partial_s g = g\,\tilde\xi` with :math:`\xi = \xi_0 +
        \varepsilon` from the left end placed at ``base`` (4×4, default identity: the
        frame of the left section).  Each element is cut into ``k`` (the degree)
        pieces, each advanced by the fourth-order Magnus step
        :math:`g \leftarrow g\exp(\tfrac\delta2(\xi_1 + \xi_2) + \tfrac{\sqrt3}{12}\delta^2
        [\xi_1, \xi_2])` with ξ at its two Gauss points (exact for constant ξ, e.g.
        degree 1 on a uniform reference).  ``x`` may hold one state per row; the result
        has shape ``(…, N + 1, 4, 4)``.
        """
        x = np.asarray(x, dtype=float)
        if x.shape[-1] != self.system.n_states:
            raise ModelError(f"x has {x.shape[-1]} values per state; the spatial beam has "
                             f"{self.system.n_states} states")
        g0 = np.eye(4) if base is None else np.asarray(base, dtype=float)
        if g0.shape != (4, 4):
            raise ModelError("spatial beam: base must be a 4×4 homogeneous matrix")
        d = self.disc
        mesh, k = d.mesh, d.degree
        N = mesh.elements
        # two Gauss points of each of the k pieces of each element, in element coordinates
        pieces = np.arange(k)[:, None] + 0.5 + np.array([-1.0, 1.0]) * np.sqrt(3) / 6
        xi_loc = (pieces / k).ravel()
        V, _ = lagrange(d.l2.ref_nodes, xi_loc)  # (2k, k): L² basis at those points
        s_pts = (mesh.nodes[:-1, None] + mesh.sizes[:, None] * xi_loc[None, :])
        xi0 = self.reference_strain(s_pts.ravel()).T.reshape(N, 2 * k, 6)
        _, eps = self.strains(x)
        lead = x.shape[:-1]
        eps = eps.reshape(*lead, 6, N, k)
        xi = np.einsum("pg,...aeg->...epa", V, eps) + xi0  # (…, N, 2k, 6)
        xi = xi.reshape(-1, N, k, 2, 6)
        delta = mesh.sizes / k
        out = np.empty((xi.shape[0], N + 1, 4, 4))
        c = np.sqrt(3) / 12
        for r in range(xi.shape[0]):
            g = g0.copy()
            out[r, 0] = g
            for e in range(N):
                dl = delta[e]
                for p in range(k):
                    x1, x2 = xi[r, e, p]
                    g = g @ exp_se3(0.5 * dl * (x1 + x2) + c * dl**2 * (ad(x1) @ x2))
                out[r, e + 1] = g
        return out.reshape(*lead, N + 1, 4, 4)

    def shape(self, x: Any, base: Any = None) -> np.ndarray:
        """Centre-line points ``(…, N + 1, 3)`` (m) at the element end points (:meth:`poses`)."""
        return self.poses(x, base)[..., :3, 3]


def _pair(value: Any, name: str, unit: str) -> tuple[Param, Param]:
    """Section parameters for axes 2 and 3 from one value or a pair."""
    if callable(value) or np.ndim(value) == 0:
        return Param(value, name, unit), Param(value, name, unit)
    if isinstance(value, (str, bytes)) or len(value) != 2:
        raise ModelError(f"spatial beam: {name} must be one value or a pair (axis 2, axis 3) "
                         f"of numbers or functions of s, got {value!r}")
    return Param(value[0], f"{name}[0]", unit), Param(value[1], f"{name}[1]", unit)


def _values(value: Any, s: np.ndarray, name: str) -> np.ndarray:
    """A field given as a number or a function of s, at the points s (finite)."""
    try:
        out = np.broadcast_to(np.asarray(value(s) if callable(value) else value, dtype=float),
                              s.shape)
    except Exception as err:  # a user function: report it with the field's name
        raise ModelError(f"spatial beam: field {name} must be a number or a function of s "
                         f"(m) returning one value per point: {err}") from None
    if not np.all(np.isfinite(out)):
        raise ModelError(f"spatial beam: field {name} is not finite")
    return out


def _curvature(curvature: Any) -> Any:
    """``K0(s) -> (3, len(s))`` from None, three numbers/functions, or one function."""
    if curvature is None:
        return lambda s: np.zeros((3, np.size(s)))

    def rows(s: np.ndarray) -> np.ndarray:
        s = np.asarray(s, dtype=float)
        try:
            if callable(curvature):
                out = np.asarray(curvature(s), dtype=float)
                out = out[:, None] * np.ones(s.size) if out.shape == (3,) else out
            else:
                if isinstance(curvature, (str, bytes)) or len(curvature) != 3:
                    raise ValueError("three components (K1, K2, K3) are needed")
                out = np.array([np.broadcast_to(np.asarray(c(s) if callable(c) else c,
                                                           dtype=float), s.shape)
                                for c in curvature])
        except Exception as err:  # user input: name the parameter and the fix
            raise ModelError(f"spatial beam: curvature must be (K1, K2, K3) in 1/m — numbers "
                             f"or functions of s — or one function returning them: {err}"
                             ) from None
        if out.shape != (3, s.size) or not np.all(np.isfinite(out)):
            raise ModelError(f"spatial beam: curvature(s) must give finite values of shape "
                             f"(3, {s.size}), got shape {out.shape}")
        return out

    return rows
