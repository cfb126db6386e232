r"""Partitioned finite elements for 1-D boundary port-Hamiltonian systems.

The continuous system (Duindam et al. 2009, §4.2; Le Gorrec, Zwart, Maschke 2005)

.. math::
    \partial_t \alpha_q = \sigma\partial_s e_p + A_0 e_p - G_q e_q,\qquad
    \partial_t \alpha_p = \sigma\partial_s e_q - A_0^\top e_q - R_p e_p
                          + \sigma\partial_s(\eta\,(\sigma\partial_s + A_0) e_p)

with energy :math:`H = \tfrac12\int (\alpha_q^\top C_q^{-1}\alpha_q +
\alpha_p^\top \rho^{-1}\alpha_p)\,ds`, co-energy variables :math:`e_q = C_q^{-1}\alpha_q`
(efforts: forces, voltages) and :math:`e_p = \rho^{-1}\alpha_p` (flows: velocities,
currents), obeys :math:`\dot H = \sigma[e_p^\top e_q^{tot}]_0^L - \text{dissipation}`.

Discretization (partitioned FEM: Cardoso-Ribeiro, Matignon, Lefèvre, *IMA J. Math.
Control Inf.* 38, 2021 (arXiv 2019); co-energy form as in Serhani, Haine, Matignon,
IFAC-PapersOnLine 52(7), 2019): :math:`e_p` in the continuous space of degree ``k``,
:math:`e_q` in the discontinuous space of degree ``k − 1`` (:mod:`.spaces`).  The
:math:`\alpha_q` equation is tested in L²; the :math:`\alpha_p` equation is integrated
by parts, which makes the boundary value of :math:`\sigma n e_q` an *input* and that
of :math:`e_p` its conjugate *output*.  With the discrete energy variables
:math:`x_q = M_q e_q`, :math:`x_p = M_p e_p` (moments of α against the basis)

.. math::
    \dot x = (J - R)\,Q x + (G - P) u,\quad
    J = \begin{bmatrix} 0 & D\\ -D^\top & 0\end{bmatrix},\quad
    Q = \operatorname{diag}(M_q, M_p)^{-1},

with :math:`D = \sigma D_s + A_0 \otimes C` (:mod:`.spaces`) — an explicit sparse PHS.
J is skew by construction, so the discrete power balance is exact.  Essential
conditions (imposed :math:`e_p`) remove the boundary node; its value becomes an input
entering through the column of ``D`` (and ``P``, ``S`` of the viscous part).  Both
masses are diagonal (GLL lumping for :math:`M_p`, Gauss collocation for :math:`M_q`),
so ``Q`` is diagonal and the system stays sparse at any size.  Eliminating
:math:`e_q` gives the spectral-element stiffness :math:`K = D^\top M_q^{-1} D`; the
natural frequencies converge at order :math:`2k`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sps

from ..phs import PHS
from .boundary import Condition
from .mesh import Mesh
from .ports import classify_ends
from .spaces import H1Space, L2Space, coefficient, derivative_matrix, value_matrix

__all__ = ["Coef", "Param", "FlowField", "EffortField", "Discretization", "discretize"]

#: A physical parameter: a number or a function of s (m) returning numbers.
Coef = float | Callable[[np.ndarray], Any]


@dataclass(frozen=True)
class Param:
    """A named physical parameter: a number or a function of s (m), with its unit."""

    value: float | Callable[[np.ndarray], Any] | None
    name: str
    unit: str = ""
    inverse: bool = False  # the field uses 1/value (a compliance from a stiffness)

    def at(self, s: np.ndarray, allow_zero: bool = False) -> np.ndarray:
        if self.value is None:
            return np.zeros_like(s)
        v = coefficient(self.value, s, self.name, allow_zero=allow_zero, unit=self.unit)
        return 1.0 / v if self.inverse else v


@dataclass(frozen=True)
class FlowField:
    """A field in H¹ (flow at the boundary): ``e_p = α_p / density``.

    ``state`` names the discrete energy variables ``x_p`` (e.g. nodal momenta ``p``),
    ``flow`` the co-energy variable (``v``), ``effort`` its boundary conjugate (``F``);
    ``damping`` is a distributed viscous coefficient ``R_p`` (e.g. R′ of a line).
    """

    state: str
    flow: str
    effort: str
    density: Param
    damping: Param | None = None


@dataclass(frozen=True)
class EffortField:
    """A field in L²: ``e_q = α_q / compliance``; ``state=None`` for a purely resistive field.

    ``conductance`` is ``G_q`` (e.g. G′ of a line); ``viscosity`` is η of the
    Kelvin–Voigt term (structural damping; Fourier conductivity for heat).
    """

    state: str | None
    effort: str
    compliance: Param | None = None
    conductance: Param | None = None
    viscosity: Param | None = None


@dataclass
class Discretization:
    """The assembled PHS and what is needed to map its vectors back to fields."""

    system: PHS
    h1: H1Space
    l2: L2Space
    flows: list[FlowField]
    efforts: list[EffortField]
    D: sps.csr_array                 # all effort rows × all flow dofs
    stored_rows: np.ndarray          # rows of D belonging to stored effort fields
    mq: np.ndarray                   # x_q = mq * e_q
    mp: np.ndarray                   # x_p = mp * e_p (all flow dofs, before removal)
    Rpp: sps.csr_array               # dissipation on all flow dofs
    kept: np.ndarray                 # flow dofs that are states
    conditions: dict[str, tuple[Condition, ...]]
    imposed: dict[int, int | None] = field(default_factory=dict)  # removed dof → input index
    port_sign: dict[str, float] = field(default_factory=dict)
    partition: str = "primal"        # which fields are continuous (see .partition)

    @property
    def n_q(self) -> int:
        return self.mq.size

    def split(self, x: np.ndarray, u: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Co-energy coefficients ``(e_q, e_p)`` of a state ``x`` (and input ``u``).

        ``e_p`` covers every flow dof; removed (essential) dofs take their input value
        (times the port sign) or 0.
        """
        x = np.asarray(x, dtype=float)
        eq = x[: self.n_q] / self.mq
        ep = np.zeros(self.mp.size)
        ep[self.kept] = x[self.n_q:] / self.mp[self.kept]
        for dof, k in self.imposed.items():
            if k is not None and u is not None:
                ep[dof] = np.asarray(u, dtype=float)[k] * self._sign_of_dof(dof)
        return eq, ep

    def strain_quadrature(self, pair: int, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        r"""Points ``(N, n)`` and weighted strains ``(…, N, n)`` of the stored field ``pair``.

        The strain is the energy variable :math:`\alpha` of the effort (compliance)
        field of the pair; :math:`\int_e \alpha\,g\,ds \approx \sum` ``vals·g(pts)``,
        exact for the discrete field in the primal partition (Gauss states are
        :math:`w_g\alpha_g`), GLL quadrature in the dual one.  ``x`` may hold one state
        per row.  Imposed (removed) values count as zero.
        """
        x = np.asarray(x, dtype=float)
        N, k = self.h1.mesh.elements, self.h1.degree
        if self.partition == "primal":
            Nq = self.l2.size
            pts = self.l2.coords.reshape(N, k)
            return pts, x[..., pair * Nq:(pair + 1) * Nq].reshape(*x.shape[:-1], N, k)
        Np = self.h1.size
        full = np.zeros((*x.shape[:-1], self.mp.size))
        full[..., self.kept] = x[..., self.n_q:]
        alpha = full[..., pair * Np:(pair + 1) * Np] / self.h1.weights  # x = w·α at a node
        loc = self.h1.local_to_global
        vals = alpha[..., loc] * (self.h1.mesh.sizes[:, None] * self.h1.ref_weights[None, :])
        return self.h1.coords[loc], vals

    @property
    def mesh(self) -> Mesh:
        return self.h1.mesh

    @property
    def degree(self) -> int:
        return self.h1.degree

    @property
    def momentum_states(self) -> np.ndarray:
        """Positions in the state vector of the momentum-like (flow-field) states."""
        n = self.system.n_states
        return np.arange(self.n_q, n) if self.partition == "primal" else np.arange(self.n_q)

    def field_names(self) -> list[str]:
        return [f.flow for f in self.flows] + [f.effort for f in self.efforts
                                                if f.state is not None]

    def evaluate(self, name: str, x: np.ndarray, s: np.ndarray,
                 u: np.ndarray | None = None) -> np.ndarray | None:
        """The co-energy field ``name`` at the points ``s`` (None if there is no such field)."""
        eq, ep = self.split(x, u)
        Np, Nq = self.h1.size, self.l2.size
        for b, f in enumerate(self.flows):
            if f.flow == name:
                return self.h1.evaluate(ep[b * Np:(b + 1) * Np], s)
        stored = [f for f in self.efforts if f.state is not None]
        for a, f in enumerate(stored):
            if f.effort == name:
                return self.l2.evaluate(eq[a * Nq:(a + 1) * Nq], s)
        return None

    def _sign_of_dof(self, dof: int) -> float:
        Np = self.h1.size
        return self.port_sign["left" if dof % Np == 0 else "right"]


def discretize(
    mesh: Mesh,
    degree: int,
    flows: Sequence[FlowField],
    efforts: Sequence[EffortField],
    ends: dict[str, tuple[Condition, ...]],
    *,
    sigma: float = 1.0,
    coupling: np.ndarray | None = None,
    port_sign: dict[str, float] | None = None,
    name: str = "",
) -> Discretization:
    r"""Assemble the partitioned-FEM PHS of the system in the module docstring.

    ``flows[a]`` pairs with ``efforts[a]`` through :math:`\sigma\partial_s` (and the
    boundary ports); ``coupling`` is :math:`A_0` (n_efforts × n_flows, constant), e.g.
    the ``−ω`` of the Timoshenko shear strain.  ``ends`` gives one :class:`Condition`
    per flow field at ``"left"`` and ``"right"``.  ``port_sign[end] = −1`` flips the
    sign of both port variables of that end (names stay; the product is unchanged).
    """
    h1, l2 = H1Space(mesh, degree), L2Space(mesh, degree)
    Np, Nq = h1.size, l2.size
    nf, ne = len(flows), len(efforts)
    A0 = np.zeros((ne, nf)) if coupling is None else np.asarray(coupling, dtype=float)
    Ds, Cv = derivative_matrix(h1, l2), value_matrix(h1, l2)
    blocks: list[list[Any]] = [[None] * nf for _ in range(ne)]
    for a in range(ne):
        for b in range(nf):
            term = (sigma * Ds if a == b else 0) + (A0[a, b] * Cv if A0[a, b] else 0)
            blocks[a][b] = None if isinstance(term, int) else term
    for a in range(ne):  # keep the block grid complete for block_array
        if all(blk is None for blk in blocks[a]):
            blocks[a][0] = sps.csr_array((Nq, Np))
    D = sps.csr_array(sps.block_array(blocks, format="csr"))

    stored = [a for a, f in enumerate(efforts) if f.state is not None]
    stored_rows = np.concatenate([np.arange(a * Nq, (a + 1) * Nq) for a in stored]) \
        if stored else np.zeros(0, dtype=int)
    mq = np.concatenate([l2.mass(efforts[a].compliance.at(l2.coords)) for a in stored]) \
        if stored else np.zeros(0)
    mp = np.concatenate([h1.lumped_mass(f.density.at(h1.coords)) for f in flows])
    rp = np.concatenate([h1.lumped_mass(f.damping.at(h1.coords, allow_zero=True))
                         if f.damping is not None else np.zeros(Np) for f in flows])
    gq = np.concatenate([l2.mass(efforts[a].conductance.at(l2.coords, allow_zero=True))
                         if efforts[a].conductance is not None else np.zeros(Nq)
                         for a in stored]) if stored else np.zeros(0)
    eta = np.concatenate([f.viscosity.at(l2.coords, allow_zero=True) / l2.weights
                          if f.viscosity is not None else np.zeros(Nq) for f in efforts])
    Rpp = sps.diags_array(rp).tocsr()
    if np.any(eta):
        Rpp = sps.csr_array(Rpp + D.T @ sps.diags_array(eta) @ D)

    signs = {"left": 1.0, "right": 1.0, **(port_sign or {})}
    ports = classify_ends(ends, flows, Np)
    kept = ports.kept(nf * Np)
    Dst = D[stored_rows] if stored else sps.csr_array((0, nf * Np))
    Dk = Dst[:, kept]
    nq, n = stored_rows.size, stored_rows.size + kept.size
    J = sps.block_array([[None, Dk], [-Dk.T, None]], format="csr") if nq else \
        sps.csr_array((n, n))
    R = sps.block_diag([sps.diags_array(gq), Rpp[kept][:, kept]], format="csr")
    Q = sps.diags_array(1.0 / np.concatenate([mq, mp[kept]])).tocsr()
    G, P, S = ports.matrices(Dst, Rpp, kept, signs, Np)
    states = [f"{efforts[a].state}[{i}]" for a in stored for i in range(Nq)]
    states += [f"{flows[i // Np].state}[{i % Np}]" for i in kept]
    system = PHS(J=J, R=R, G=G, P=P, S=S, Q=Q, states=states, inputs=ports.inputs,
                 outputs=ports.outputs, name=name, check=False)
    return Discretization(
        system=system, h1=h1, l2=l2, flows=list(flows), efforts=list(efforts), D=D,
        stored_rows=stored_rows, mq=mq, mp=mp, Rpp=Rpp, kept=kept, conditions=dict(ends),
        imposed=dict(ports.removed), port_sign=signs,
    )
