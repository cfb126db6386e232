r"""Static equilibria of the geometrically exact planar beam.

At rest the momenta vanish, :math:`x_p = 0`, and the strain rows of
:math:`\dot x = (J(x) - R)Qx + G(x)u` hold trivially (their entries all multiply a
velocity).  What remains is the balance of the nodal forces and moments,

.. math:: 0 = f_p(x_q) = \big[J(x)\,Q x + G(x)\,u(x)\big]_p,

one equation per momentum state and one unknown per strain state — square for a beam
held at one end (cantilever).  It is solved by Newton's method with the sparse Jacobian
of the system, :math:`\partial_{x_q} f_p + [G(x)\,\partial u/\partial x_q]_p`, in load
increments (the load is scaled by 1/steps, 2/steps, …, 1, each solve starting from the
previous equilibrium).

A *dead* tip force :math:`F = (F_x, F_y)` (fixed in the frame of the left end, e.g.
gravity on a tip mass) acts on the body-frame force ports of the right end as
:math:`(N, Q) = R(\theta_L)^\top F` with the tip rotation
:math:`\theta_L = \sum_g x_{\kappa,g} = \int_0^L\kappa\,ds`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps
import scipy.sparse.linalg as spla

from ..errors import ModelError, SimulationError
from ..simulate.problem.problem import named_vector

__all__ = ["static_equilibrium"]


def static_equilibrium(beam: Any, u: Any = None, *, tip_force: Any = None, steps: int = 10,
                       tol: float = 1e-11, max_iter: int = 30) -> np.ndarray:
    """The equilibrium state of ``beam`` (a :class:`~.planar_beam.PlanarBeamModel`).

    Parameters
    ----------
    u:
        Constant inputs: an array, or a dict ``{input name: value}`` (missing → 0); the
        force ports are body-frame (follower) loads.
    tip_force:
        ``(Fx, Fy)`` in N: a dead load at the right end, fixed in the frame of the left
        end (needs ``right="port"``).
    steps:
        Load increments.
    tol, max_iter:
        Newton tolerance on the update relative to the largest strain state, and the
        iteration limit per increment.

    Returns the state vector (momenta zero).  Raises :class:`ModelError` for a beam
    that is not held (more strain states than force balances, or a singular
    Jacobian) and :class:`SimulationError` when Newton does not converge.
    """
    sys = beam.system
    num = sys.compile()
    names = list(sys.inputs)
    u0 = named_vector(u, names, "input", "u")
    p = beam.disc.momentum_states
    q = np.setdiff1d(np.arange(sys.n_states), p)
    if p.size != q.size:
        raise ModelError(f"planar beam statics: {q.size} strain states but {p.size} force "
                         "balances; hold the beam at one end (clamped, hub or velocity)")
    kap = np.arange(2 * beam.disc.l2.size, 3 * beam.disc.l2.size)
    dead = None
    if tip_force is not None:
        if "N_right" not in names or "Q_right" not in names:
            raise ModelError("planar beam statics: tip_force acts on the force ports "
                             "N_right, Q_right; build the beam with right='port'")
        dead = (np.asarray(tip_force, dtype=float).reshape(2),
                names.index("N_right"), names.index("Q_right"))
    x = np.zeros(sys.n_states)
    for step in range(1, int(steps) + 1):
        lam = step / int(steps)
        for _ in range(int(max_iter)):
            uk, du = _load(lam, u0, dead, float(x[kap].sum()), len(names))
            F = num.rhs(x, uk)[p]
            Jac = sps.csc_array(sps.csr_array(num.jacobian(x, uk))[p][:, q])
            if du is not None:  # u depends on θ_L = Σ x_κ
                Gdu = sps.csr_array(num.matrix("G", x)) @ du
                col = sps.csr_array((np.ones(kap.size), (np.zeros(kap.size, int), kap)),
                                    shape=(1, sys.n_states))[:, q]
                Jac = sps.csc_array(Jac + sps.csr_array(Gdu[p][:, None]) @ col)
            with np.errstate(all="raise"):
                try:
                    dx = spla.spsolve(Jac, -F)
                except (RuntimeError, FloatingPointError):
                    dx = np.full(q.size, np.nan)
            if not np.all(np.isfinite(dx)):
                raise ModelError("planar beam statics: singular stiffness; is the beam held "
                                 "(clamped or hub end)?")
            x[q] += dx
            if np.max(np.abs(dx)) <= tol * max(np.max(np.abs(x[q])), 1e-300):
                break
        else:
            raise SimulationError(f"planar beam statics: Newton did not converge at load "
                                  f"factor {lam:g}; use more steps")
    return x


def _load(lam: float, u0: np.ndarray, dead: Any, theta: float,
          m: int) -> tuple[np.ndarray, np.ndarray | None]:
    """Inputs at load factor ``lam`` and their derivative by θ_L (None: independent)."""
    u = lam * u0
    if dead is None:
        return u, None
    (fx, fy), iN, iQ = dead
    c, s = np.cos(theta), np.sin(theta)
    u = u.copy()
    u[iN] += lam * (c * fx + s * fy)   # R(θ)ᵀF: body-frame components
    u[iQ] += lam * (-s * fx + c * fy)
    du = np.zeros(m)
    du[iN] = lam * (-s * fx + c * fy)
    du[iQ] = lam * (-c * fx - s * fy)
    return u, du
