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
terms use the same Gauss collocation, so :math:`J(x)` is affine in the state and skew
for every ``x``.  The Hamiltonian is quadratic, so the implicit midpoint rule conserves
it exactly (to the Newton tolerance).  The system is *symbolic* (SymPy, compiled once):
meant for tens of elements, not for 10⁵ states.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp

from ..errors import ModelError
from ..phs import PHS
from .boundary import Condition, parse_ends
from .fem import Coef, EffortField, FlowField, Param
from .mesh import check_degree, make_mesh
from .model import DistributedModel
from .partition import assemble

__all__ = ["planar_beam", "PlanarBeamModel", "PLANAR_ENDS"]

F_, X_, P_ = Condition.FREE, Condition.FIXED, Condition.FORCE
#: End conditions of the planar beam, as (axial, transverse, rotation).
PLANAR_ENDS = {"clamped": (X_, X_, X_), "free": (F_, F_, F_), "port": (P_, P_, P_),
               "force": (P_, P_, P_)}


def planar_beam(length: float, rhoA: Coef, rhoI: Coef, EA: Coef, EI: Coef, kGA: Coef, *,
                elements: Any = 6, degree: int = 1, left: str = "clamped",
                right: str = "free") -> PlanarBeamModel:
    """A geometrically exact planar beam: ``rhoA`` (kg/m), ``rhoI`` (kg·m), ``EA``, ``kGA`` (N),
    ``EI`` (N·m²).

    Ends: ``"clamped"``, ``"free"`` or ``"port"``/``"force"`` (inputs ``N_<end>``,
    ``Q_<end>``, ``M_<end>``: body-frame force components and moment on the beam;
    outputs ``v1_<end>``, ``v2_<end>``, ``omega_<end>``).  ``.system`` is a symbolic
    PHS with a state-dependent J(x); ``.linear`` is the small-deformation model (rod +
    Timoshenko, sparse) and ``.frequencies(n)`` its frequencies.
    """
    check_degree(degree, "planar beam")
    if degree * (elements if np.ndim(elements) == 0 else len(elements) - 1) > 40:
        raise ModelError("planar beam: the symbolic system is meant for at most 40 × degree "
                         "elements; use fewer elements (or the linear rod/timoshenko models)")
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
    return PlanarBeamModel(disc, "planar beam", variables)


class PlanarBeamModel(DistributedModel):
    """The planar beam: ``.system`` nonlinear (symbolic), ``.linear`` its linearization."""

    def __init__(self, disc: Any, kind: str, variables: dict[str, str]) -> None:
        super().__init__(disc, kind, variables)
        self.linear = disc.system  # the constant-structure part: rod + Timoshenko
        self.system = _modulated(disc)

    def stiffness(self) -> tuple[sps.csr_array, np.ndarray]:
        saved, self.system = self.system, self.linear
        try:
            return super().stiffness()
        finally:
            self.system = saved

    def shape(self, x: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        r"""Centre line ``(r_1(s), r_2(s))`` and rotation θ at the element end points.

        Integrated from the clamped left end: :math:`\theta' = \kappa`,
        :math:`r' = R(\theta)(1 + \varepsilon, \gamma)` by the Gauss rule of the strain
        states (θ at a Gauss point from the curvature of its element, exact for k = 1).
        """
        d = self.disc
        if d.conditions["left"] != (X_, X_, X_):
            raise ModelError("planar beam shape needs a clamped left end")
        x = np.asarray(x, dtype=float)
        pts, xe = d.strain_quadrature(0, x)
        _, xg = d.strain_quadrature(1, x)
        _, xk = d.strain_quadrature(2, x)
        w = d.l2.weights.reshape(pts.shape)
        nodes = d.mesh.nodes
        theta = np.concatenate([[0.0], np.cumsum(xk.sum(-1))])
        r = np.zeros((nodes.size, 2))
        for e in range(nodes.size - 1):
            # θ at the Gauss points: θ_e + ∫_{s_e}^{g} κ, κ of the element's Gauss values
            kap = xk[e] / w[e]
            th_g = theta[e] + np.array([np.sum(kap * w[e] * (pts[e] <= g)) - 0.5 * kap[i] * w[e, i]
                                        for i, g in enumerate(pts[e])])
            nu = np.stack([w[e] + xe[e], xg[e]])  # ∫(1 + ε, γ) per Gauss point
            r[e + 1] = r[e] + np.array([np.sum(np.cos(th_g) * nu[0] - np.sin(th_g) * nu[1]),
                                        np.sum(np.sin(th_g) * nu[0] + np.cos(th_g) * nu[1])])
        return r[:, 0], r[:, 1], theta


def _modulated(disc: Any) -> PHS:
    """The symbolic PHS with J(x) = J₀ + J_mod(x) (module docstring)."""
    lin = disc.system
    xs = [sp.Symbol(s, real=True) for s in lin.states]
    J = sp.Matrix(lin.J.toarray())
    h1, l2 = disc.h1, disc.l2
    Np, Nq = h1.size, l2.size
    pos = np.full(3 * Np, -1)
    pos[disc.kept] = Nq * 3 + np.arange(disc.kept.size)
    from .spaces import value_matrix
    C = value_matrix(h1, l2).tocoo()
    w = l2.weights

    def alpha(field: int, g: int) -> sp.Expr:
        return xs[field * Nq + g] / w[g]  # x_q = w·α at a Gauss point

    def add(row: int, col: int, value: sp.Expr) -> None:
        if row >= 0 and col >= 0:
            J[row, col] += value
            J[col, row] -= value

    for g, j, c in zip(C.row, C.col, C.data, strict=True):
        eps, gam, kap = alpha(0, g), alpha(1, g), alpha(2, g)
        v1, v2, om = pos[j], pos[Np + j], pos[2 * Np + j]
        add(0 * Nq + g, v2, -kap * c)   # ∂tε ∋ −κ v₂ + γ ω
        add(0 * Nq + g, om, gam * c)
        add(1 * Nq + g, v1, kap * c)    # ∂tγ ∋ κ v₁ − ε ω
        add(1 * Nq + g, om, -eps * c)
    for i in range(Np):                 # ∂t p ∋ −ω Ĵ p: J[p1, pθ] = p₂, J[p2, pθ] = −p₁
        p1, p2, pt = pos[i], pos[Np + i], pos[2 * Np + i]
        if p1 >= 0 and p2 >= 0:
            add(p1, pt, xs[p2])
            add(p2, pt, -xs[p1])
    Qd = lin.Q.diagonal()
    H = sum(sp.Float(q) * xi**2 for q, xi in zip(Qd, xs, strict=True)) / 2
    G = sp.Matrix(lin.G.toarray())
    return PHS(J=J, G=G, hamiltonian=H, states=list(lin.states), inputs=lin.inputs,
               outputs=lin.outputs, name="planar beam")
