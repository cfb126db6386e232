r"""Heat conduction in a rod: the dissipative port-Hamiltonian form.

Conservation of internal energy (Duindam et al. 2009, §4.1.3) with Fourier's law:

.. math::
    \partial_t u = -\partial_s J_Q,\qquad u = c(s)\,T,\qquad J_Q = -\lambda(s)\,\partial_s T,

with heat capacity per length c (J/(K·m)), thermal conductance λ = k·A (W·m/K) and the
temperature T (K, measured from a reference).  The storage function is the quadratic
Lyapunov functional

.. math:: H = \frac12\int_0^L c\,T^2\,ds \quad (\mathrm{J\cdot K}),

whose co-energy variable is T; the flux is a resistive port
(:math:`e_R = \lambda\,\partial_s T`), so

.. math:: \dot H = T(0)\,J_Q(0) - T(L)\,J_Q(L) - \int_0^L \lambda\,(\partial_s T)^2\,ds.

The first law is conserved exactly by the discretization: the total internal energy
:math:`U = \int c T\,ds` equals the sum of the states ``U[j]`` (J) and changes only by
the heat flowing in at the ends.  For absolute temperatures the entropy
:math:`S = \int c\ln T\,ds` grows by the boundary entropy flow :math:`J_Q/T` plus a
production :math:`\int \lambda (\partial_s T)^2/T^2\,ds \ge 0` (irreversible
thermodynamics, ibid. §4.1.3); for degree 1 its discrete counterpart is non-negative
element by element.

Ports: heat flow into the body ``q_<end>`` (W) and temperature ``T_<end>`` (K).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .boundary import Condition, parse_ends
from .fem import Coef, EffortField, FlowField, Param, discretize
from .mesh import check_degree, make_mesh
from .model import DistributedModel

__all__ = ["heat", "HEAT_ENDS", "HeatModel"]

#: End conditions of the heat equation.
HEAT_ENDS = {
    "insulated": (Condition.FREE,), "flux": (Condition.FORCE,), "port": (Condition.FORCE,),
    "temperature": (Condition.VELOCITY,), "zero": (Condition.FIXED,),
}


def heat(length: float, capacity: Coef, conductance: Coef, *, elements: Any = 20,
         degree: int = 1, left: str = "insulated", right: str = "insulated") -> HeatModel:
    """Heat conduction: ``capacity`` c (J/(K·m)) and ``conductance`` λ = k·A (W·m/K).

    Ends: ``"insulated"`` (no flux), ``"flux"``/``"port"`` (input ``q_<end>``: heat flow
    into the body in W; output ``T_<end>``), ``"temperature"`` (input ``T_<end>``,
    output ``q_<end>``) or ``"zero"`` (T = 0).  Use :meth:`DistributedModel.decay_rates`
    for the modes.  Field: ``"T"``.
    """
    check_degree(degree, "heat")
    mesh = make_mesh(length, elements)
    ends = parse_ends(left, right, HEAT_ENDS, "heat")
    flow = FlowField("U", "T", "q", Param(capacity, "capacity", "J/(K·m)"))
    flux = EffortField(None, "flux", viscosity=Param(conductance, "conductance", "W·m/K"))
    disc = discretize(mesh, degree, [flow], [flux], ends, name="heat")
    variables = {
        "energy": "U: internal energy density c·T (J/m)",
        "coenergy": "T (K)",
        "boundary": "heat flow into the body q (W) and temperature T (K) at each end",
        "hamiltonian": "H = ½∫ c T² ds (J·K), a Lyapunov function; U = ∫ c T ds is conserved",
    }
    return HeatModel(disc, "heat", variables)


class HeatModel(DistributedModel):
    """Heat model; adds the internal energy and the entropy of a state."""

    def internal_energy(self, x: Any) -> np.ndarray:
        """:math:`U = \\int c T ds` (J) relative to T = 0: the sum of the states."""
        return np.asarray(x, dtype=float).sum(axis=-1)

    def entropy(self, x: Any, u: Any = None) -> np.ndarray:
        """:math:`S = \\int c \\ln T ds` (J/K) for absolute temperatures T > 0 (lumped)."""
        x = np.atleast_2d(np.asarray(x, dtype=float))
        us = [None] * x.shape[0] if u is None else np.atleast_2d(u)
        out = []
        for xi, ui in zip(x, us, strict=True):
            _, T = self.disc.split(xi, ui)
            if np.any(T[self.disc.kept] <= 0):
                from ..errors import ModelError
                raise ModelError("entropy needs absolute temperatures T > 0 K")
            out.append(float(self.disc.mp[self.disc.kept] @ np.log(T[self.disc.kept])))
        return np.array(out)
