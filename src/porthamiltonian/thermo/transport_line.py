r"""One-dimensional diffusion :math:`\partial_t c = \partial_z(D\,\partial_z c)` as a PHS.

A channel of cross-section :math:`A` (m²) and length :math:`\ell` holds a dilute species
of concentration :math:`c(z, t)` (mol/m³).  The balance of the amount per length
:math:`a = A c` (mol/m) with the molar flow :math:`J` (mol/s) driven by the gradient of
the chemical potential is

.. math:: \partial_t a = -\partial_z J,\qquad J = -\mathcal L\,\partial_z\mu
    \qquad (\text{Onsager; de Groot \& Mazur 1962, ch. XI}),

and for an ideal dilute species :math:`\mu = \mu^\circ + RT\ln(c/c^\circ)`,
:math:`\partial_z\mu = RT\,\partial_z c/c`, so :math:`\mathcal L = D A c/(RT)` gives
Fick's law :math:`J = -D A\,\partial_z c`.  About a reference concentration
:math:`c_r` the model is written in the deviations :math:`\delta a = a - A c_r` with
the quadratic storage function — the second-order expansion of the Gibbs energy,

.. math:: H = \int_0^\ell \frac{RT}{2 A c_r}\,\delta a^2\,dz \quad(\mathrm J),\qquad
    \frac{\delta H}{\delta a} = \delta\mu = RT\,\frac{\delta c}{c_r}\quad(\mathrm{J/mol}),

and the constant conductance :math:`\mathcal L = D A c_r/(RT)`.  Then
:math:`J = -\mathcal L\,\partial_z\delta\mu = -D A\,\partial_z c` *exactly*: the
dynamics are Fick's for any amplitude; only the storage function is the quadratic
(Lyapunov) approximation of the Gibbs energy, as :math:`\tfrac12\int cT^2` is for heat
(:mod:`porthamiltonian.distributed.heat`, whose partitioned-FEM machinery is reused).
The first-order term :math:`\mu_r\int\delta a\,dz` is a multiple of the total amount
(a Casimir when the ends are closed).

.. math:: \dot H = \delta\mu(0)\,J(0) - \delta\mu(\ell)\,J(\ell)
    - \int_0^\ell \mathcal L\,(\partial_z\delta\mu)^2\,dz.

Ports: ``J_<end>`` the molar flow *into* the channel (mol/s) with the output
``mu_<end>`` = :math:`\delta\mu` (J/mol), or the converse for an imposed potential
(concentration).  The states are the nodal amounts (mol) of :math:`\delta a`; their
sum is the total amount :math:`\int\delta a\,dz`.  The decay rates with closed ends
tend to :math:`D\pi^2k^2/\ell^2`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.constants import gas_constant

from ..distributed.boundary import Condition, parse_ends
from ..distributed.fem import EffortField, FlowField, Param, discretize
from ..distributed.mesh import check_degree, make_mesh
from ..distributed.model import DistributedModel
from ..errors import ModelError

__all__ = ["DIFFUSION_ENDS", "DiffusionLine", "diffusion_line"]

#: End conditions: closed (no flux), a flux port, an imposed potential, δμ = 0.
DIFFUSION_ENDS = {
    "closed": (Condition.FREE,), "flux": (Condition.FORCE,), "port": (Condition.FORCE,),
    "potential": (Condition.VELOCITY,), "zero": (Condition.FIXED,),
}

_R = gas_constant


def diffusion_line(length: float, diffusivity: float | Callable[[np.ndarray], Any], *,
                   area: float = 1.0, c_ref: float = 1.0, T: float = 298.15,
                   elements: Any = 20, degree: int = 1, left: str = "closed",
                   right: str = "closed") -> DiffusionLine:
    """Fickian diffusion in a channel (module docstring).

    Parameters
    ----------
    length : :math:`\\ell` (m).
    diffusivity : :math:`D` (m²/s), a number or a function of ``z``.
    area : :math:`A` (m²).  c_ref : :math:`c_r` (mol/m³).  T : temperature (K).
    elements, degree : the mesh (a count or node coordinates) and the FE degree.
    left, right : ``"closed"``, ``"flux"``/``"port"`` (input ``J_<end>``: molar flow
        in, output ``mu_<end>``), ``"potential"`` (input ``mu_<end>``, output
        ``J_<end>``) or ``"zero"`` (δμ = 0: the reference concentration held).
    """
    check_degree(degree, "diffusion_line")
    if not (area > 0 and c_ref > 0 and T > 0):
        raise ModelError("diffusion_line: area, c_ref and T must be positive")
    RT = _R * T
    a_ref = area * c_ref
    if callable(diffusivity):
        D = diffusivity

        def conductance(z: np.ndarray) -> Any:
            return np.asarray(D(z), dtype=float) * a_ref / RT
    else:
        if not diffusivity > 0:
            raise ModelError(f"diffusion_line: diffusivity must be positive, got {diffusivity}")
        conductance = float(diffusivity) * a_ref / RT  # type: ignore[assignment]
    mesh = make_mesh(length, elements)
    ends = parse_ends(left, right, DIFFUSION_ENDS, "diffusion_line")
    flow = FlowField("N", "mu", "J", Param(a_ref / RT, "capacity", "mol²/(J·m)"))
    flux = EffortField(None, "flux", viscosity=Param(conductance, "conductance",
                                                     "mol²·m/(J·s)"))
    disc = discretize(mesh, degree, [flow], [flux], ends, name="diffusion")
    variables = {
        "energy": "δa: amount per length relative to A·c_ref (mol/m)",
        "coenergy": "δμ = RT δc/c_ref (J/mol)",
        "boundary": "molar flow into the channel J (mol/s) and δμ (J/mol) at each end",
        "hamiltonian": "H = ∫ RT δa²/(2 A c_ref) dz (J); the total amount is conserved",
    }
    return DiffusionLine(disc, "diffusion", variables, RT=RT, c_ref=c_ref)


class DiffusionLine(DistributedModel):
    """A diffusion channel; adds the amount and the concentration of a state."""

    def __init__(self, disc: Any, kind: str, variables: dict[str, str], *, RT: float,
                 c_ref: float) -> None:
        super().__init__(disc, kind, variables)
        self.RT = RT
        self.c_ref = c_ref

    def amount(self, x: Any) -> np.ndarray:
        r""":math:`\int\delta a\,dz` (mol): the sum of the states."""
        return np.asarray(x, dtype=float).sum(axis=-1)

    def concentration(self, x: Any, z: Any, u: Any = None) -> np.ndarray:
        r""":math:`c = c_r(1 + \delta\mu/RT)` (mol/m³) at the points ``z``."""
        return self.c_ref * (1.0 + self.field("mu", x, z, u) / self.RT)
