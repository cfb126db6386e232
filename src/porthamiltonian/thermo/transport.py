r"""Transport as port-Hamiltonian systems: diffusion between well-mixed compartments.

Compartments :math:`i = 1 \dots N` of volume :math:`V_i` (m³) hold the amounts
:math:`n_{is}` (mol) of the species :math:`s`, dilute in a common solvent at the
temperature :math:`T`.  The storage function is the isothermal Gibbs energy of ideal
dilute solutions (J),

.. math::
    H(n) = \sum_{i,s} n_{is}\Big(\mu^\circ_s
        + RT\big(\ln\frac{n_{is}}{V_i c^\circ} - 1\big)\Big),\qquad
    \frac{\partial H}{\partial n_{is}} = \mu_{is} = \mu^\circ_s + RT\ln\frac{c_{is}}{c^\circ},

with :math:`c_{is} = n_{is}/V_i`.  A membrane (an edge :math:`e = (i, j)`) carries
the molar flow of each species from :math:`i` to :math:`j`

.. math:: J_{es} = L_{es}\,(\mu_{is} - \mu_{js})\quad (\mathrm{mol/s}),

the thermodynamic form of Fick's law (Kedem & Katchalsky, Biochim. Biophys. Acta 27
(1958) 229; Gawthrop & Crampin, Proc. R. Soc. A 470 (2014) 20140459, membrane
transport as a reaction :math:`A_i \rightleftharpoons A_j`).  Two laws:

* ``law="fick"``: the mass-action flux :math:`J = k\,(c_i - c_j)` of a membrane of
  permeance :math:`k = P A` (m³/s; permeability × area); its conductance
  :math:`L = (k/RT)\,\mathrm{logmean}(c_i, c_j)` depends on the state
  (:mod:`porthamiltonian.special`);
* ``law="linear"``: a constant Onsager conductance :math:`L` (mol²/(J·s)), the
  near-equilibrium (Kedem–Katchalsky) form.

With the incidence :math:`b_{es} = e_{is} - e_{js}`, the system is the gradient
(purely dissipative) port-Hamiltonian system

.. math::
    \dot n = -R(n)\,\nabla H(n) + G\,u,\qquad y = G^\top \nabla H(n),\qquad
    R(n) = \sum_{e,s} L_{es}(n)\, b_{es} b_{es}^\top \succeq 0,

so :math:`\dot H = u^\top y - \sum_{e,s} L_{es}(\mu_{is} - \mu_{js})^2 \le u^\top y`
(the Gibbs energy dissipated is :math:`T` times the entropy produced).  Since
:math:`\mathbf 1_s^\top b_{es} = 0`, the total amount of each species
:math:`\sum_i n_{is}` is a Casimir; on a connected graph the only equilibrium is equal
chemical potentials, i.e. equal concentrations :math:`c_{is} = \sum_i n_{is}/\sum_i V_i`.

Ports (optional, ``ports=[i, …]``): at compartment :math:`i`, for each species, the
input ``J_<s>_<i>`` is the molar flow *into* the compartment (mol/s) and the output
``mu_<s>_<i>`` its chemical potential (J/mol): :math:`u y` is the Gibbs-energy flow into
the system (W), as everywhere in the package (docs/design.md).

The 1-D continuum (:func:`~.transport_line.diffusion_line`) and open, convective tanks
(:func:`~.transport_tank.stirred_tank`) are in their own modules, re-exported here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy as sp
from scipy.constants import gas_constant

from ..errors import ModelError
from ..phs import PHS
from ..special import log_mean
from .transport_line import DiffusionLine, diffusion_line
from .transport_tank import StirredTank, stirred_tank

__all__ = ["GAS_CONSTANT", "CompartmentModel", "DiffusionLine", "StirredTank",
           "compartments", "diffusion_line", "stirred_tank"]

#: Molar gas constant R (J/(mol·K)), CODATA 2018 (exact).
GAS_CONSTANT = gas_constant

Edge = tuple[int, int, Any]


class CompartmentModel:
    """Compartments joined by membranes (module docstring).

    Attributes
    ----------
    system : PHS
        Symbolic PHS; states ``<s>_<i>`` (mol), in the order compartment-major.
    volumes : ndarray
        :math:`V_i` (m³).
    species : tuple of str
    RT : float
        :math:`RT` (J/mol).
    """

    def __init__(self, system: PHS, volumes: np.ndarray, species: tuple[str, ...],
                 RT: float, edges: list[Edge]) -> None:
        self.system = system
        self.volumes = volumes
        self.species = species
        self.RT = RT
        self.edges = edges

    def amounts(self, x: Any) -> np.ndarray:
        """``x`` (one state or rows of states) as an array ``[..., compartment, species]``."""
        x = np.asarray(x, dtype=float)
        return x.reshape(*x.shape[:-1], self.volumes.size, len(self.species))

    def concentrations(self, x: Any) -> np.ndarray:
        """:math:`c_{is} = n_{is}/V_i` (mol/m³), shaped ``[..., compartment, species]``."""
        return self.amounts(x) / self.volumes[:, None]

    def totals(self, x: Any) -> np.ndarray:
        r"""The Casimirs :math:`\sum_i n_{is}` (mol), one per species."""
        return self.amounts(x).sum(axis=-2)

    def equilibrium(self, x: Any) -> np.ndarray:
        """The closed system's equilibrium state with the totals of ``x``: equal concentrations."""
        c = self.totals(x) / self.volumes.sum()
        return (self.volumes[:, None] * c[None, :]).ravel()

    def state(self, amounts: Any) -> np.ndarray:
        """A state vector from amounts ``[compartment, species]`` (mol)."""
        a = np.asarray(amounts, dtype=float).reshape(self.volumes.size, len(self.species))
        return a.ravel()


def compartments(volumes: Sequence[float], edges: Sequence[Edge] | None = None, *,
                 conductance: Any = 1e-6, species: Sequence[str] = ("A",),
                 law: str = "fick", T: float = 298.15, c_ref: float = 1.0,
                 mu0: Sequence[float] | None = None, ports: Sequence[int] = ()
                 ) -> CompartmentModel:
    """Diffusion between compartments as a PHS (see the module docstring).

    Parameters
    ----------
    volumes : sequence of float
        :math:`V_i` (m³), all positive.
    edges : sequence of ``(i, j, k)``, optional
        Membranes from compartment ``i`` to ``j`` with the coefficient ``k`` (a number,
        or one per species); default: a chain ``(0, 1), (1, 2), …`` with ``conductance``.
        ``k`` is the permeance (m³/s) for ``law="fick"`` and the Onsager conductance
        (mol²/(J·s)) for ``law="linear"``.
    species : names of the species.
    T : temperature (K); :math:`RT` uses :data:`GAS_CONSTANT`.
    c_ref : the standard concentration :math:`c^\\circ` (mol/m³).
    mu0 : standard chemical potentials :math:`\\mu^\\circ_s` (J/mol), default 0.
    ports : compartments with a molar-flow input per species.

    Raises
    ------
    ModelError
        A volume or coefficient ≤ 0, an edge naming a missing compartment, an
        unknown law.
    """
    V = np.asarray(volumes, dtype=float)
    species = tuple(species)
    ns, nc = len(species), V.size
    if nc < 1 or np.any(~(V > 0)):
        raise ModelError(f"compartments: volumes must be positive, got {list(volumes)}")
    if law not in ("fick", "linear"):
        raise ModelError(f"compartments: law must be 'fick' or 'linear', got {law!r}")
    if not (T > 0 and c_ref > 0):
        raise ModelError("compartments: T and c_ref must be positive")
    mu0v = np.zeros(ns) if mu0 is None else np.asarray(mu0, dtype=float)
    if mu0v.size != ns:
        raise ModelError(f"compartments: mu0 needs {ns} values (one per species)")
    if edges is None:
        edges = [(i, i + 1, conductance) for i in range(nc - 1)]
    edge_list: list[Edge] = []
    for e in edges:
        i, j, k = e
        kv = np.broadcast_to(np.asarray(k, dtype=float), (ns,))
        if not (0 <= i < nc and 0 <= j < nc and i != j):
            raise ModelError(f"compartments: edge {e!r} must join two of the {nc} compartments")
        if np.any(~(kv > 0)):
            raise ModelError(f"compartments: the coefficient of edge {e!r} must be positive")
        edge_list.append((int(i), int(j), kv.copy()))
    RT = GAS_CONSTANT * T
    names = [f"{s}_{i}" for i in range(nc) for s in species]
    n = sp.symbols(names, positive=True)
    idx = {(i, s): i * ns + s for i in range(nc) for s in range(ns)}
    H = sum(n[idx[i, s]] * (mu0v[s] + RT * (sp.log(n[idx[i, s]] / (V[i] * c_ref)) - 1))
            for i in range(nc) for s in range(ns))
    R = sp.zeros(nc * ns, nc * ns)
    for i, j, kv in edge_list:
        for s in range(ns):
            a, b = idx[i, s], idx[j, s]
            if law == "fick":
                L = kv[s] / RT * log_mean(n[a] / V[i], n[b] / V[j])
            else:
                L = sp.Float(kv[s])
            R[a, a] += L
            R[b, b] += L
            R[a, b] -= L
            R[b, a] -= L
    G = sp.zeros(nc * ns, len(ports) * ns)
    inputs, outputs = [], []
    for p, i in enumerate(ports):
        if not 0 <= i < nc:
            raise ModelError(f"compartments: port at compartment {i}: there are {nc}")
        for s in range(ns):
            G[idx[i, s], p * ns + s] = 1
            inputs.append(f"J_{species[s]}_{i}")
            outputs.append(f"mu_{species[s]}_{i}")
    # R ⪰ 0 by construction (a sum of L·b bᵀ with L > 0); the symbolic check takes
    # seconds through the logarithms, so it is skipped here (and tested numerically).
    system = PHS(R=R, G=G, hamiltonian=H, states=names, inputs=inputs, outputs=outputs,
                 name="compartments", check=False)
    return CompartmentModel(system, V, species, RT, edge_list)
