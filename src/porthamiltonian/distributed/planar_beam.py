r"""Geometrically exact planar beam (large deformation): a modulated Stokes–Dirac structure.

Golo, van der Schaft, Stramigioli, *Hamiltonian formulation of planar beams* (2003),
eq. 5; the kinematics of Simo & Vu-Quoc (1986).  In the body frame of the cross
section: energy variables — axial strain ε, shear strain γ, curvature κ and momenta
:math:`p_1 = \rho A v_1`, :math:`p_2 = \rho A v_2`, :math:`p_\theta = \rho I\omega`;

.. math:: H = \frac12\int_0^L \Big(EA\,\varepsilon^2 + \kappa GA\,\gamma^2 + EI\,\kappa^2
          + \frac{p_1^2 + p_2^2}{\rho A} + \frac{p_\theta^2}{\rho I}\Big)\,ds,

co-energy variables N, Q, M (body-frame force components and moment) and
:math:`v_1, v_2, \omega`.  With :math:`\hat J = [[0, -1], [1, 0]]` the balance laws are

.. math::
    \partial_t(\varepsilon, \gamma) &= \partial_s v + \kappa\hat J v
        - \omega\hat J(1 + \varepsilon, \gamma),\qquad \partial_t\kappa = \partial_s\omega,\\
    \partial_t p &= \partial_s(N, Q) + \kappa\hat J(N, Q) - \omega\hat J p,\qquad
    \partial_t p_\theta = \partial_s M + (1 + \varepsilon)Q - \gamma N
        + (p_1 v_2 - p_2 v_1),

i.e. :math:`\partial_t\alpha_q = (\partial_s + A_0 + A_{mod}(q))\,e_p`,
:math:`\partial_t\alpha_p = (\partial_s - A_0^\top - A_{mod}(q)^\top)\,e_q + J_p(p)\,e_p`
with the constant :math:`A_0` of the rod and the Timoshenko beam, the strain-modulated
:math:`A_{mod}` (the :math:`P_{mod}(q)` of the paper) and the gyroscopic
:math:`J_p(p)` (the :math:`p\wedge` term; its last entry :math:`p_1 v_2 - p_2 v_1`
vanishes on solutions but keeps the structure skew).  Setting :math:`A_{mod} = J_p = 0`
(small deformations) leaves the rod (ε, v₁) and the Timoshenko beam (γ, κ, v₂, ω).

Discretization: the partitioned FEM of :mod:`.fem` for the constant part; the modulated
terms use the same Gauss collocation (:mod:`.planar_structure`), so :math:`J(x)` is
affine in the state and skew for every ``x``.  The Hamiltonian is quadratic, so the
implicit midpoint rule conserves it exactly (to the Newton tolerance).  By default the
system is *numeric*: a :class:`~.beam_system.BeamPHS` (a
:class:`~porthamiltonian.simulate.FunctionPHS`) with sparse
:class:`~porthamiltonian.compiled.affine.AffineMatrix` structure :math:`J(x)`,
:math:`G(x)` — thousands of elements build in a fraction of a second, the right-hand side
is one fused (Numba) pass over the structure and the Newton iterations use sparse LU.
``symbolic=True`` gives the same model as a SymPy :class:`~porthamiltonian.PHS` (tens of
elements; for symbolic manipulation).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp

from ..compiled.affine import AffineMatrix
from ..errors import ModelError
from ..phs import PHS
from .beam_system import BeamPHS
from .boundary import Condition, parse_ends
from .fem import Coef, EffortField, FlowField, Param
from .mesh import check_degree, make_mesh
from .model import DistributedModel
from .partition import assemble
from .planar_structure import modulated_entries
from .quadrature import lagrange

__all__ = ["planar_beam", "PlanarBeamModel", "PLANAR_ENDS"]

F_, X_, P_, V_ = Condition.FREE, Condition.FIXED, Condition.FORCE, Condition.VELOCITY
#: End conditions of the planar beam, as (axial, transverse, rotation).
PLANAR_ENDS = {"clamped": (X_, X_, X_), "free": (F_, F_, F_), "port": (P_, P_, P_),
               "force": (P_, P_, P_), "pinned": (X_, X_, F_), "hub": (X_, X_, V_),
               "velocity": (V_, V_, V_)}

#: The symbolic system is for small models (SymPy's cost grows quadratically).
SYMBOLIC_LIMIT = 40


def planar_beam(length: float, rhoA: Coef, rhoI: Coef, EA: Coef, EI: Coef, kGA: Coef, *,
                elements: Any = 6, degree: int = 1, left: Any = "clamped",
                right: Any = "free", symbolic: bool = False) -> PlanarBeamModel:
    """A geometrically exact planar beam: ``rhoA`` (kg/m), ``rhoI`` (kg·m), ``EA``, ``kGA`` (N),
    ``EI`` (N·m²); numbers or functions of s (m).

    Ends (axial, transverse, rotation): ``"clamped"``, ``"free"``, ``"port"``/``"force"``
    (inputs ``N_<end>``, ``Q_<end>``, ``M_<end>``: body-frame force components and moment
    on the beam; outputs ``v1_<end>``, ``v2_<end>``, ``omega_<end>``), ``"pinned"``
    (translation fixed, rotation free), ``"hub"`` (translation fixed, rotation driven:
    input ``omega_<end>`` in rad/s, output ``M_<end>``, the moment on the beam),
    ``"velocity"`` (all three velocities imposed), or a tuple of three
    :class:`~.boundary.Condition` names.  Both translations must be imposed or both free.

    ``.system`` is a :class:`~.beam_system.BeamPHS` (a ``FunctionPHS``) with sparse affine
    :math:`J(x)`, :math:`G(x)` (``symbolic=True``: a SymPy
    :class:`~porthamiltonian.PHS`, at most 40 × degree elements); ``.linear`` is the
    small-deformation model (rod + Timoshenko, sparse) and ``.frequencies(n)`` its
    frequencies; ``.shape(x)`` the centre line.  Imposed velocities remove the end node
    (primal partition): its inertia is carried by the source (O(h) at that port).
    """
    check_degree(degree, "planar beam")
    n_el = elements if np.ndim(elements) == 0 else len(elements) - 1
    if symbolic and degree * n_el > SYMBOLIC_LIMIT:
        raise ModelError(f"planar beam: the symbolic system is meant for at most "
                         f"{SYMBOLIC_LIMIT} × degree elements; use symbolic=False (numeric, "
                         "sparse) for larger meshes")
    mesh = make_mesh(length, elements)
    ends = parse_ends(left, right, PLANAR_ENDS, "planar beam")
    flows = [FlowField("p1", "v1", "N", Param(rhoA, "rhoA", "kg/m")),
             FlowField("p2", "v2", "Q", Param(rhoA, "rhoA", "kg/m")),
             FlowField("ptheta", "omega", "M", Param(rhoI, "rhoI", "kg·m"))]
    efforts = [EffortField("eps", "N", compliance=Param(EA, "EA", "N", inverse=True)),
               EffortField("gamma", "Q", compliance=Param(kGA, "kGA", "N", inverse=True)),
               EffortField("kappa", "M", compliance=Param(EI, "EI", "N·m²", inverse=True))]
    A0 = np.zeros((3, 3))
    A0[1, 2] = -1.0  # ∂tγ ∋ −ω (the "1" of 1 + ε)
    disc = assemble(mesh, degree, flows, efforts, ends, coupling=A0, name="planar beam",
                    partition="primal")
    variables = {
        "energy": "eps, gamma, kappa (body-frame strains); p1, p2 (kg/s), ptheta (kg·m/s)",
        "coenergy": "N = EA ε, Q = kGA γ (N); M = EI κ (N·m); v1, v2 (m/s), omega (rad/s)",
        "boundary": "v1, v2, omega and the body-frame force (N, Q) and moment M at each end",
        "hamiltonian": "H = ½∫(EA ε² + kGA γ² + EI κ² + (p1² + p2²)/ρA + ptheta²/ρI) ds",
    }
    return PlanarBeamModel(disc, "planar beam", variables, symbolic=symbolic)


class PlanarBeamModel(DistributedModel):
    """The planar beam: ``.system`` nonlinear, ``.linear`` its linearization.

    Attributes
    ----------
    system : BeamPHS or PHS
        ẋ = (J(x) − R) Q x + G(x) u with the boundary ports left open.
    linear : PHS
        The small-deformation model (rod + Timoshenko beam): J₀, G₀, the same Q.
    structure : tuple of AffineMatrix
        ``(J, G)``: J(x) = J₀ + Σ x_k J_k and G(x) (for assembling into larger models).
    Q : sparse diagonal
        H = ½ xᵀQx.
    """

    def __init__(self, disc: Any, kind: str, variables: dict[str, str],
                 symbolic: bool = False) -> None:
        super().__init__(disc, kind, variables)
        self.linear = disc.system  # the constant-structure part: rod + Timoshenko
        lin = self.linear
        n, m = lin.n_states, lin.n_inputs
        ent = modulated_entries(disc)
        self.structure = (AffineMatrix(lin.J, *ent.J, n_states=n),
                          AffineMatrix(sps.csr_array(lin.G) if m else sps.csr_array((n, 0)),
                                       *ent.G, n_states=n))
        self.Q = sps.diags_array(lin.Q.diagonal()).tocsr()
        self.system = _symbolic(lin, ent) if symbolic else self._numeric()

    def _numeric(self) -> BeamPHS:
        lin, (J, G) = self.linear, self.structure
        return BeamPHS(J, lin.R, G, lin.P, lin.S, self.Q.diagonal(), states=lin.states,
                       inputs=lin.inputs, outputs=lin.outputs)

    def stiffness(self) -> tuple[sps.csr_array, np.ndarray]:
        saved, self.system = self.system, self.linear
        try:
            return super().stiffness()
        finally:
            self.system = saved

    def equilibrium(self, u: Any = None, *, tip_force: Any = None, steps: int = 10,
                    tol: float = 1e-11, max_iter: int = 30) -> np.ndarray:
        """The static equilibrium state under constant inputs ``u`` (body-frame port
        loads) and a dead ``tip_force = (Fx, Fy)`` (N, in the left end's frame); see
        :func:`.planar_static.static_equilibrium`."""
        from .planar_static import static_equilibrium

        return static_equilibrium(self, u, tip_force=tip_force, steps=steps, tol=tol,
                                  max_iter=max_iter)

    def shape(self, x: Any, origin: Any = (0.0, 0.0, 0.0)
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        r"""Centre line ``(r_1(s), r_2(s))`` (m) and rotation θ (rad) at the element end points.

        Integrated from the left end, placed at ``origin = (x₀, y₀, θ₀)``:
        :math:`\theta' = \kappa`, :math:`r' = R(\theta)(1 + \varepsilon, \gamma)`.  Within
        an element the discrete curvature (degree k − 1 through its Gauss values) is
        integrated exactly to θ at the Gauss points, and :math:`r` by the element's
        Gauss rule, so the centre line converges at the order of the strains.  With the
        default origin the result is in the frame of the left cross-section (the world
        frame for a clamped end, the rotating hub frame for a ``"hub"`` end).  ``x`` may
        hold one state per row (e.g. ``result.x``); the outputs then have one row per
        state.
        """
        d = self.disc
        x = np.asarray(x, dtype=float)
        x0, y0, th0 = (float(v) for v in origin)
        pts, xe = d.strain_quadrature(0, x)
        _, xg = d.strain_quadrature(1, x)
        _, xk = d.strain_quadrature(2, x)
        w = d.l2.weights.reshape(pts.shape)
        lead = x.shape[:-1]
        theta = np.concatenate([np.zeros((*lead, 1)), np.cumsum(xk.sum(-1), axis=-1)],
                               axis=-1) + th0
        # θ(g_i) − θ_e = Σ_j x_κ,j · ∫_{0}^{ξ_i} ℓ_j dξ / ŵ_j (x_κ,j = h ŵ_j κ_j)
        xi, wr = d.l2.ref_nodes, d.l2.ref_weights
        V, _ = lagrange(xi, (xi[:, None] * xi[None, :]).ravel())
        partial = np.einsum("im,imj->ij", xi[:, None] * wr[None, :],
                            V.reshape(xi.size, xi.size, xi.size)) / wr[None, :]
        th_g = theta[..., :-1, None] + np.einsum("...j,ij->...i", xk, partial)
        nu1, nu2 = w + xe, xg  # ∫(1 + ε, γ) per Gauss cell
        dr1 = (np.cos(th_g) * nu1 - np.sin(th_g) * nu2).sum(-1)
        dr2 = (np.sin(th_g) * nu1 + np.cos(th_g) * nu2).sum(-1)
        zero = np.zeros((*lead, 1))
        r1 = x0 + np.concatenate([zero, np.cumsum(dr1, axis=-1)], axis=-1)
        r2 = y0 + np.concatenate([zero, np.cumsum(dr2, axis=-1)], axis=-1)
        return r1, r2, theta


def _symbolic(lin: PHS, ent: Any) -> PHS:
    """The same system as a SymPy PHS: J(x) = J₀ + Σ c x_k at the modulated entries."""
    xs = [sp.Symbol(s, real=True) for s in lin.states]
    J = sp.Matrix(lin.J.toarray())
    G = sp.Matrix(lin.G.toarray()) if lin.n_inputs else sp.zeros(lin.n_states, 0)
    for M, (rows, cols, ks, coefs) in ((J, ent.J), (G, ent.G)):
        for r, c, k, v in zip(rows, cols, ks, coefs, strict=True):
            M[int(r), int(c)] += sp.Float(v) * xs[int(k)]
    Qd = lin.Q.diagonal()
    H = sum(sp.Float(q) * xi**2 for q, xi in zip(Qd, xs, strict=True)) / 2
    return PHS(J=J, R=sp.Matrix(lin.R.toarray()), G=G, P=sp.Matrix(lin.P.toarray()),
               S=sp.Matrix(lin.S.toarray()), hamiltonian=H, states=list(lin.states),
               inputs=lin.inputs, outputs=lin.outputs, name="planar beam")
