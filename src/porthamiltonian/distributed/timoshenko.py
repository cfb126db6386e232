r"""Timoshenko beam (Golo, van der Schaft, Stramigioli 2003, eq. 7; Macchelli & Melchiorri 2004).

Energy variables: shear strain :math:`\gamma = \partial_s w - \theta` (–), curvature
:math:`\kappa = \partial_s\theta` (1/m), transverse momentum density
:math:`p_w = \rho A\,\partial_t w` (kg/s) and angular momentum density
:math:`p_\theta = \rho I\,\partial_t\theta` (kg·m/s).  Hamiltonian

.. math:: H = \frac12\int_0^L \Big(\kappa GA\,\gamma^2 + EI\,\kappa^2
          + \frac{p_w^2}{\rho A} + \frac{p_\theta^2}{\rho I}\Big)\,ds.

Co-energy variables: shear force :math:`F = \kappa GA\,\gamma` (N), bending moment
:math:`M = EI\,\kappa` (N·m), velocity :math:`v = \partial_t w` (m/s) and angular
velocity :math:`\omega = \partial_t\theta` (rad/s).  Balance laws

.. math::
    \partial_t\gamma = \partial_s v - \omega,\quad
    \partial_t p_w = \partial_s F,\quad
    \partial_t\kappa = \partial_s\omega,\quad
    \partial_t p_\theta = \partial_s M + F,

and :math:`\dot H = [v F + \omega M]_0^L`.  Boundary port variables at each end: the
velocity and angular velocity, and the force and moment exerted on the beam.
The discretization (:mod:`.fem`, coupling :math:`A_0 = [[0, -1], [0, 0]]`) evaluates
the shear energy with the ``k``-point Gauss rule — the reduced integration that keeps
the beam free of shear locking.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ModelError
from .boundary import Condition, parse_ends
from .fem import Coef, EffortField, FlowField, Param
from .mesh import check_degree, make_mesh
from .model import DistributedModel
from .partition import assemble

__all__ = ["timoshenko", "BEAM_ENDS", "TimoshenkoModel"]

F_, X_, P_, V_ = Condition.FREE, Condition.FIXED, Condition.FORCE, Condition.VELOCITY
#: End conditions of the Timoshenko beam, as (translation, rotation).
BEAM_ENDS = {
    "clamped": (X_, X_), "free": (F_, F_), "pinned": (X_, F_), "sliding": (F_, X_),
    "port": (P_, P_), "force": (P_, P_), "velocity": (V_, V_),
}


def timoshenko(length: float, rhoA: Coef, rhoI: Coef, EI: Coef, kGA: Coef, *,
               elements: Any = 20, degree: int = 1, left: str = "clamped",
               right: str = "free", damping: Coef | None = None) -> TimoshenkoModel:
    """A Timoshenko beam: ``rhoA`` (kg/m), ``rhoI`` (kg·m), ``EI`` (N·m²), ``kGA`` (N).

    Ends: ``"clamped"``, ``"free"``, ``"pinned"`` (w = 0, M = 0), ``"sliding"``
    (θ = 0, F = 0), ``"port"``/``"force"`` (inputs ``F_<end>``, ``M_<end>``: force and
    moment on the beam; outputs ``v_<end>``, ``omega_<end>``) or ``"velocity"``
    (inputs ``v_<end>``, ``omega_<end>``; outputs ``F_<end>``, ``M_<end>``).
    ``damping`` is a viscous transverse damping (N·s/m²).  Fields: ``"v"``,
    ``"omega"``, ``"F"`` (shear force), ``"M"`` (bending moment).
    """
    check_degree(degree, "timoshenko")
    mesh = make_mesh(length, elements)
    ends = parse_ends(left, right, BEAM_ENDS, "timoshenko")
    flows = [FlowField("pw", "v", "F", Param(rhoA, "rhoA", "kg/m"),
                       None if damping is None else Param(damping, "damping", "N·s/m²")),
             FlowField("ptheta", "omega", "M", Param(rhoI, "rhoI", "kg·m"))]
    efforts = [EffortField("gamma", "F", compliance=Param(kGA, "kGA", "N", inverse=True)),
               EffortField("kappa", "M", compliance=Param(EI, "EI", "N·m²", inverse=True))]
    A0 = np.array([[0.0, -1.0], [0.0, 0.0]])  # ∂tγ = ∂s v − ω;  ∂t pθ = ∂s M + F
    disc = assemble(mesh, degree, flows, efforts, ends, coupling=A0, name="timoshenko")
    variables = {
        "energy": "gamma: shear strain (–); kappa: curvature (1/m); pw: ρA ∂w/∂t (kg/s); "
                  "ptheta: ρI ∂θ/∂t (kg·m/s)",
        "coenergy": "F = kGA γ (N); M = EI κ (N·m); v (m/s); omega (rad/s)",
        "boundary": "v, omega and the force F and moment M on the beam at each end",
        "hamiltonian": "H = ½∫(kGA γ² + EI κ² + pw²/ρA + ptheta²/ρI) ds (J)",
    }
    return TimoshenkoModel(disc, "timoshenko", variables)


class TimoshenkoModel(DistributedModel):
    """Timoshenko model; adds :meth:`shape` (deflection and rotation)."""

    def shape(self, x: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        r"""``(s, w, θ)`` at the element end points, integrated from an end where w = 0.

        :math:`\theta = \int\kappa\,ds` and :math:`w = \int(\theta + \gamma)\,ds`, exact
        for the discrete fields: per element :math:`\int_e\gamma = \sum x_\gamma`,
        :math:`\int_e\kappa = \sum x_\kappa` and
        :math:`\int_e\theta = h\,\theta(s_e) + \sum_g x_{\kappa,g}(s_{e+1} - s_g)`.
        The anchor is a clamped end (left first), else an end with fixed translation
        (pinned, or a hub driven in rotation); there ``θ`` is taken as 0, so the shape
        is the elastic deflection in the frame of that end's tangent (add the end's
        rotation angle θ₀·(s − s₀) for the absolute deflection).
        """
        d = self.disc
        conds = d.conditions
        anchors = [e for e in ("left", "right") if conds[e] == (X_, X_)] or \
            [e for e in ("left", "right") if conds[e][0] == X_]
        if not anchors:
            raise ModelError("timoshenko.shape needs an end with fixed translation (clamped, "
                             "pinned or a hub) to measure w and θ from")
        flip = anchors[0] == "right"
        mesh = d.mesh
        s_g, xg = d.strain_quadrature(0, x)
        _, xk = d.strain_quadrature(1, x)
        if flip:  # mirror s → L − s: γ and θ change sign, κ does not
            xg, xk = -xg[..., ::-1, :], xk[..., ::-1, :]
            lever = (s_g - mesh.nodes[:-1, None])[::-1]
        else:
            lever = mesh.nodes[1:, None] - s_g
        zero = np.zeros((*xk.shape[:-2], 1))
        theta = np.concatenate([zero, np.cumsum(xk.sum(-1), -1)], -1)
        h = mesh.sizes[::-1] if flip else mesh.sizes
        dw = h * theta[..., :-1] + (xk * lever).sum(-1) + xg.sum(-1)
        w = np.concatenate([zero, np.cumsum(dw, -1)], -1)
        if flip:
            theta, w = -theta[..., ::-1], w[..., ::-1]
        return mesh.nodes, w, theta
