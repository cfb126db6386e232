r"""Vibrating string, longitudinal rod and the 1-D wave equation.

Energy variables: strain :math:`\varepsilon = \partial_s w` (–) and momentum density
:math:`p = \rho\,\partial_t w` (kg/s, per unit length).  Hamiltonian

.. math:: H = \frac12\int_0^L \Big(k(s)\,\varepsilon^2 + \frac{p^2}{\rho(s)}\Big)\,ds

(J), with ``k`` the tension ``T`` of a string or the axial stiffness ``EA`` of a rod
(N) and ρ the mass per length (kg/m).  Co-energy variables: the force
:math:`F = k\varepsilon` (N) and the velocity :math:`v = p/\rho` (m/s).  Balance laws
(Duindam et al. 2009, §4.1; the rod is eq. 6 of Golo, van der Schaft, Stramigioli,
*Hamiltonian formulation of planar beams*, 2003):

.. math::
    \partial_t\varepsilon = \partial_s v,\qquad
    \partial_t p = \partial_s(F + \eta\,\partial_s v) - d\,v,

with optional viscous damping ``d`` (N·s/m²) and Kelvin–Voigt structural damping η
(N·s).  Boundary port variables: the end velocity ``v`` and the force on the body
:math:`n(F + \eta\partial_s v)` (outward normal ``n``), with

.. math:: \dot H = \sum_{\text{ends}} F_{\text{end}}\, v_{\text{end}}
    - \int_0^L (d\,v^2 + \eta\,(\partial_s v)^2)\,ds.

The discrete states are the elongations ``q[i]`` (m) of the Gauss-point cells and the
momenta ``p[j]`` (kg·m/s) of the nodes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .boundary import Condition, parse_ends
from .fem import Coef, EffortField, FlowField, Param
from .mesh import check_degree, make_mesh
from .model import DistributedModel
from .partition import assemble

__all__ = ["wave", "string", "rod", "WAVE_ENDS"]


#: End conditions of the string / rod / wave models.
WAVE_ENDS = {
    "clamped": (Condition.FIXED,), "fixed": (Condition.FIXED,), "free": (Condition.FREE,),
    "force": (Condition.FORCE,), "port": (Condition.FORCE,),
    "velocity": (Condition.VELOCITY,),
}


def wave(length: float, density: Coef = 1.0, stiffness: Coef = 1.0, *, elements: Any = 20,
         degree: int = 1, left: str = "clamped", right: str = "clamped",
         damping: Coef | None = None, structural_damping: Coef | None = None,
         names: tuple[str, str] = ("density", "stiffness"), kind: str = "wave") -> DistributedModel:
    r"""The 1-D wave equation :math:`\rho\,\ddot w = \partial_s(k\,\partial_s w)` as a PHS.

    Parameters
    ----------
    length : float
        L (m).
    density, stiffness : float or callable s ↦ value
        ρ (kg/m) and k (N); functions of s (m) for varying properties.
    elements : int or array
        Number of equal elements, or the element end points ``[0, …, L]``.
    degree : int
        Polynomial degree k ≥ 1 of the velocity field (forces have degree k − 1).
        The frequencies converge at order 2k.
    left, right : str
        ``"clamped"``/``"fixed"`` (v = 0), ``"free"`` (F = 0), ``"force"``/``"port"``
        (input ``F_<end>``: force on the body, output ``v_<end>``) or ``"velocity"``
        (input ``v_<end>``, output ``F_<end>``).
    damping, structural_damping : float or callable, optional
        Viscous d (N·s/m²) and Kelvin–Voigt η (N·s), ≥ 0.

    Returns
    -------
    DistributedModel
        ``.system`` (sparse PHS), ``.frequencies(n)``, ``.field(name, x, s)`` with
        fields ``"v"`` and ``"F"``, ``.shape(x)`` (displacement from a fixed end).
    """
    rho_name, k_name = names
    check_degree(degree, kind)
    mesh = make_mesh(length, elements)
    ends = parse_ends(left, right, WAVE_ENDS, kind)
    flow = FlowField("p", "v", "F", Param(density, rho_name, "kg/m"),
                     None if damping is None else Param(damping, "damping", "N·s/m²"))
    eff = EffortField("q", "F", compliance=Param(stiffness, k_name, "N", inverse=True),
                      viscosity=None if structural_damping is None
                      else Param(structural_damping, "structural_damping", "N·s"))
    disc = assemble(mesh, degree, [flow], [eff], ends, name=kind)
    variables = {
        "energy": "q: strain ε = ∂w/∂s (–); p: momentum density ρ ∂w/∂t (kg/s)",
        "coenergy": f"F = {k_name}·ε (N); v = p/{rho_name} (m/s)",
        "boundary": "v (m/s) and the force on the body F (N) at each end",
        "hamiltonian": f"H = ½∫({k_name} ε² + p²/{rho_name}) ds (J)",
    }
    return WaveModel(disc, kind, variables)


def string(length: float, rho: Coef, tension: Coef, **kw: Any) -> DistributedModel:
    """A vibrating string: mass per length ``rho`` (kg/m), ``tension`` (N); see :func:`wave`."""
    return wave(length, rho, tension, names=("rho", "tension"), kind="string", **kw)


def rod(length: float, rhoA: Coef, EA: Coef, **kw: Any) -> DistributedModel:
    """A rod in axial vibration: ``rhoA`` (kg/m), ``EA`` (N) (Golo et al. 2003, eq. 6)."""
    return wave(length, rhoA, EA, names=("rhoA", "EA"), kind="rod", **kw)


class WaveModel(DistributedModel):
    """A wave-type model; adds :meth:`shape`."""

    def shape(self, x: Any) -> tuple[np.ndarray, np.ndarray]:
        r"""Displacement :math:`w(s) = \int \varepsilon\,ds` at the element end points.

        The elongation states integrate the strain exactly element by element; the
        displacement is anchored at a fixed end (left if both are), where ``w = 0``.
        Raises :class:`ModelError` when no end is fixed (the position is then a
        time integral of the velocity, not a function of the state).
        """
        return self.disc.mesh.nodes, _integrate_from_fixed_end(self, np.asarray(x, float), 0)


def _integrate_from_fixed_end(model: DistributedModel, x: np.ndarray, pair: int) -> np.ndarray:
    from ..errors import ModelError

    d = model.disc
    _, vals = d.strain_quadrature(pair, x)
    per_element = vals.sum(-1)
    fixed = [e for e in ("left", "right") if d.conditions[e][pair] == Condition.FIXED]
    if not fixed:
        raise ModelError(f"{model.kind}: no fixed end to measure the displacement from; "
                         "integrate the velocity field in time instead")
    zero = np.zeros((*per_element.shape[:-1], 1))
    cum = np.concatenate([zero, np.cumsum(per_element, axis=-1)], axis=-1)
    return cum if fixed[0] == "left" else cum - cum[..., -1:]
