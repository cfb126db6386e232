r"""Heat conduction on a 2-D or 3-D domain: the quadratic (Lyapunov) port-Hamiltonian form.

Conservation of internal energy with Fourier's law (Duindam et al., *Modeling and
Control of Complex Physical Systems*, 2009, §4.1.3; the 2-D PFEM of Serhani, Haine,
Matignon, *IFAC-PapersOnLine* 52(7), 2019, "Anisotropic heterogeneous n-D heat
equation with boundary control and observation: II. Structure-preserving
discretization"):

.. math::
    \partial_t u = -\operatorname{div} J_Q,\qquad u = c\,T,\qquad J_Q = -k\,\nabla T,

with the volumetric heat capacity c (J/(K·m³); in 2-D, a plate of unit thickness or
a capacity per area J/(K·m²)), the conductivity k (W/(m·K); in 2-D a conductance
per thickness W/K) and the temperature T (K, a deviation from a reference).  The
storage function is the quadratic functional

.. math:: H = \frac12\int_\Omega c\,T^2\,dV \quad (\mathrm{J\cdot K}),

whose co-energy variable is T; the flux :math:`J_Q = -k\nabla T` is a *resistive*
port, so the model has one field and no flux states:

.. math::
    \dot H = \int_{\partial\Omega} T\,q\,ds - \int_\Omega k\,|\nabla T|^2\,dV,
    \qquad q = -J_Q\cdot n \ \text{(heat flux into the body, W/m²)}.

In weak form (T in :math:`H^1`, lumped mass):

.. math:: W\dot T = -R\,T + B\,u,\qquad W_{ij} = \int c\,\varphi_i\varphi_j,\quad
    R_{ij} = \int k\,\nabla\varphi_i\cdot\nabla\varphi_j = D^\top K D,

:math:`R = D^\top K D` with :math:`D` the gradient into the discontinuous space and
:math:`K` its k-weighted mass — the Galerkin stiffness, assembled directly.  The states
of the explicit form are the nodal internal energies :math:`U_i = (W T)_i` (J):
their sum is :math:`\int c\,T\,dV` and changes only by the heat flowing in through the
ports (the first law, exactly).  The decay rates (:meth:`HeatModel.decay_rates`) are the
generalized eigenvalues of :math:`(R, W)`; on the unit square with T = 0 on the
boundary, :math:`\mu_{mn} = (k/c)\,\pi^2(m^2+n^2)`.

This is the *linear* (quadratic-Lyapunov) heat model.  The entropy-based,
irreversible port-Hamiltonian form (internal energy as Hamiltonian, entropy
production, a quasi-Hamiltonian structure) belongs to the thermodynamics work and is
not here.

Boundary conditions per part (:mod:`.boundary`; the heat names are aliases of the
generic ones):

=================================== ======================================================
condition                           port (input → output)
=================================== ======================================================
``insulated`` (= ``free``)          none (q = 0)
``flux`` (= ``force``)              heat flux into the body ``q_<part>`` (W/m², uniform)
                                    → ``T_<part>`` = ∫T ds (K·m; 3-D K·m²)
``nodal``                           a heat flow (W) at each node → nodal temperatures (K)
``zero`` (= ``fixed``)              T = 0 (deviation from the reference): dofs removed
``temperature`` (= ``velocity``)    ``T_<part>`` imposed (K, uniform) → ``q_<part>``:
                                    the heat flow into the body through the part (W)
=================================== ======================================================

Point ports ``points={"probe": (x, y)}``: input ``q_<name>`` a point heat source (W),
output ``T_<name>`` (K).  Every ``u·y`` is temperature × heat flow into the body
(K·W), the supply rate of H.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sps
import scipy.sparse.linalg as spla

from ...errors import ModelError
from .boundary import conditions_by_part, field_ports
from .domain import Domain, require_skfem
from .model import DomainModel, EnergyTerm, FieldView
from .pfem import FieldBlock, assemble_system
from .spaces import Coefficient, coefficient, h1_bases, mass

__all__ = ["heat", "HeatModel", "HEAT_CONDITIONS"]

#: heat names of the boundary conditions of :mod:`.boundary`
HEAT_CONDITIONS = {"insulated": "free", "flux": "force", "zero": "fixed",
                   "temperature": "velocity", "free": "free", "force": "force",
                   "fixed": "fixed", "velocity": "velocity", "nodal": "nodal"}


def heat(domain: Domain, capacity: Coefficient = 1.0, conductivity: Coefficient = 1.0, *,
         degree: int = 1, boundary: Mapping[str, str] | str = "insulated",
         points: Mapping[str, Sequence[float]] | None = None, name: str = "heat"
         ) -> HeatModel:
    r"""Heat conduction :math:`c\,\partial_t T = \operatorname{div}(k\nabla T)`.

    Parameters
    ----------
    domain : Domain
        From :func:`~.domain.rectangle`, :func:`~.domain.box`, :func:`~.domain.disk`
        or :func:`~.domain.load_mesh`.
    capacity : float or callable
        c, volumetric heat capacity (J/(K·m³); 2-D: J/(K·m²)), or ``f(x, y[, z])``.
    conductivity : float or callable
        k (W/(m·K); 2-D: W/K), or ``f(x, y[, z])``.
    degree : int
        1 or 2 (decay rates converge at order ``2·degree``); degree 2 on
        triangles/tetrahedra keeps a consistent mass and gives a DescriptorPHS.
    boundary : str or mapping
        One condition for every part or ``{part: condition}`` (parts not named are
        insulated): ``"insulated"``, ``"flux"``, ``"nodal"``, ``"zero"``,
        ``"temperature"`` (or the generic names, module docstring).
    points : mapping, optional
        Point heat sources ``{name: (x, y)}``.

    Returns
    -------
    HeatModel
        ``.system`` (states ``U[i]``, nodal internal energies in J, or ``T[i]`` in the
        descriptor form; no J, R the conduction), field ``"T"`` and ``"energy"``
        (J·K/m² or J·K/m³ — H per area), :meth:`~HeatModel.decay_rates`.
    """
    sk = require_skfem()
    from skfem.helpers import dot

    conditions = conditions_by_part(domain, boundary, HEAT_CONDITIONS, name)
    c = coefficient(capacity, "capacity", "J/(K·m³)")
    k = coefficient(conductivity, "conductivity", "W/(m·K)")
    V, Vm = h1_bases(domain, degree)

    @sk.BilinearForm
    def conduction(u: Any, v: Any, w: Any) -> Any:
        return k(w.x) * dot(u.grad, v.grad)

    K = sk.asm(conduction, V).tocsr()
    K = ((K + K.T) * 0.5).tocsr()  # exactly symmetric
    three = domain.dim == 3
    fields = [FieldBlock("T", "U", mass(Vm, c), "K", "J", V, "temperature", True)]
    ports, fixed = field_ports(
        domain, V, "T", conditions, effort="q", flow="T",
        units=("W/m²", "K·m²" if three else "K·m", "W", "K"), points=points, model=name)
    system, layout = assemble_system(fields, {}, {("T", "T"): K}, ports, {"T": fixed},
                                     name=name)
    views = {"T": FieldView("T", None, "K", "temperature")}
    variables = {
        "energy": "U: internal energy density c·T (J/m³; 2-D J/m²)",
        "coenergy": "T (K)",
        "boundary": "heat flux into the body q (W/m²) and temperature T (K) on each part",
        "hamiltonian": "H = ½∫ c T² dV (J·K), a Lyapunov function; U = ∫ c T dV is "
                       "conserved but for the boundary heat flow",
    }
    energy = [EnergyTerm("T", Vm, c)]
    kept = layout.kept
    W = sps.csr_array(fields[0].mass)[kept][:, kept]
    Rk = K[kept][:, kept]
    return HeatModel(system, layout, domain, name, views, variables, degree, energy,
                     capacity_matrix=W, conduction_matrix=Rk)


class HeatModel(DomainModel):
    """A :class:`~.model.DomainModel` of heat conduction, with its decay rates and
    internal energy."""

    def __init__(self, *args: Any, capacity_matrix: Any, conduction_matrix: Any,
                 **kw: Any) -> None:
        super().__init__(*args, **kw)
        self.capacity_matrix = sps.csr_array(capacity_matrix)
        self.conduction_matrix = sps.csr_array(conduction_matrix)
        self.energy_unit = "J·K/m²" if self.domain.dim == 2 else "J·K/m³"

    def frequencies(self, n: int) -> np.ndarray:
        """Heat conduction does not oscillate: use :meth:`decay_rates`."""
        raise ModelError(f"the {self.kind} model does not oscillate; use decay_rates(n)")

    def decay_rates(self, n: int) -> np.ndarray:
        r"""The ``n`` lowest decay rates :math:`\mu` (1/s), ascending: the generalized
        eigenvalues :math:`R\,T = \mu\,W\,T` of the conduction and capacity matrices on
        the free temperature dofs (imposed and zero dofs held at 0).  A mode
        :math:`T(t) = e^{-\mu t}\,T_0`; an insulated body has :math:`\mu_1 = 0`
        (uniform temperature).  Shift-invert Lanczos (ARPACK) just below zero."""
        size = self.capacity_matrix.shape[0]
        if isinstance(n, bool) or int(n) != n or n < 1:
            raise ModelError(f"the number of decay rates must be a positive integer, got {n!r}")
        n = int(n)
        A, M = self.conduction_matrix, self.capacity_matrix
        if n > size - 1:
            raise ModelError(f"asked for {n} decay rates but the {self.kind} has {size} "
                             "temperature dofs; refine the mesh")
        scale = float(np.max(A.diagonal() / M.diagonal()))
        if size <= 400:
            import scipy.linalg as sla
            lam = sla.eigh(A.toarray(), M.toarray(), eigvals_only=True,
                           subset_by_index=[0, n - 1])
        else:
            lam = np.sort(spla.eigsh(sps.csc_array(A), k=n, M=sps.csc_array(M),
                                     sigma=-1e-8 * scale, which="LM",
                                     return_eigenvectors=False))
        return np.where(lam <= 4 * size * np.finfo(float).eps * scale, 0.0, lam)

    def internal_energy(self, x: Any, u: Any = None) -> np.ndarray | float:
        r""":math:`U = \int c\,T\,dV` (J) over the free dofs (imposed dofs carry no
        capacity in the model); in the explicit form the sum of the states."""
        x = np.asarray(x, dtype=float)
        if self.layout.explicit:
            out = x.sum(axis=-1)
        else:
            out = x @ (self.capacity_matrix @ np.ones(self.capacity_matrix.shape[0]))
        return float(out) if np.ndim(out) == 0 else out
