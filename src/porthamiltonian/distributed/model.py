"""The object every distributed model returns: its PHS, modes and field reconstruction."""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps

from ..errors import ModelError
from .fem import Discretization
from .modes import lowest_eigenvalues

__all__ = ["DistributedModel"]


class DistributedModel:
    """A discretized 1-D port-Hamiltonian model.

    Attributes
    ----------
    system : PHS
        The sparse explicit PHS; its ports are the boundary ports left open.
    variables : dict
        ``energy``, ``coenergy``, ``boundary`` and ``hamiltonian``: the continuous
        model in words (units included).
    mesh, degree :
        The discretization.
    """

    def __init__(self, disc: Discretization, kind: str, variables: dict[str, str]) -> None:
        self.disc = disc
        self.kind = kind
        self.variables = variables
        self.system = disc.system
        self.mesh = disc.h1.mesh
        self.degree = disc.h1.degree

    # ------------------------------------------------------------------ modes
    def stiffness(self) -> tuple[sps.csr_array, np.ndarray]:
        r"""``(K, m)``: stiffness and diagonal mass on the *velocity* dofs.

        Primal partition (velocities in H¹): :math:`K = D^\top M_q^{-1} D`; dual
        (velocities in L²): :math:`K = D M_p^{-1} D^\top`.  Both have the same non-zero
        eigenvalues; using the velocity dofs makes the zero eigenvalues the rigid-body
        motions only (a constant strain of a fixed–fixed string is a Casimir, not a mode).
        """
        d = self.disc
        Dk = d.D[d.stored_rows][:, d.kept]
        if d.partition == "primal":
            return sps.csr_array(Dk.T @ sps.diags_array(1.0 / d.mq) @ Dk), d.mp[d.kept]
        return sps.csr_array(Dk @ sps.diags_array(1.0 / d.mp[d.kept]) @ Dk.T), d.mq

    def frequencies(self, n: int) -> np.ndarray:
        """The ``n`` lowest undamped natural frequencies (rad/s), rigid-body zeros included.

        The modes are those of the flow field (velocity, current): a uniform flow that
        the boundary conditions allow (rigid translation of a free–free string, DC
        current in a shorted line) is a zero frequency; a static effort distribution
        (a pre-strain between fixed ends, a charged open line) is an equilibrium of the
        energy variables (a Casimir), not a mode.  Open ports count as unforced: a force
        port as a free end, a velocity port as a fixed end.  Damping is ignored.
        """
        if self.disc.n_q == 0:
            raise ModelError(f"{self.kind} has no oscillating modes; use decay_rates(n)")
        K, m = self.stiffness()
        return np.sqrt(lowest_eigenvalues(K, m, n))

    def decay_rates(self, n: int) -> np.ndarray:
        """The ``n`` lowest decay rates (1/s) of a purely dissipative model (heat)."""
        if self.disc.n_q != 0:
            raise ModelError(f"{self.kind} oscillates; use frequencies(n) for its modes")
        d = self.disc
        Rk = d.Rpp[d.kept][:, d.kept]
        return lowest_eigenvalues(sps.csr_array(Rk), d.mp[d.kept], n)

    # ------------------------------------------------------------------ fields
    def field(self, name: str, x: Any, s: Any, u: Any = None) -> np.ndarray:
        """A co-energy field (e.g. ``"v"``, ``"F"``, ``"V"``, ``"I"``, ``"T"``) at points ``s``.

        ``x`` is a state vector (or a 2-D array of states, one per row, e.g.
        ``result.x``); ``u`` the matching inputs, needed for the value of a field
        imposed at an end (a velocity port); missing inputs count as zero.
        """
        x = np.asarray(x, dtype=float)
        if x.ndim == 2:
            us = [None] * x.shape[0] if u is None else np.asarray(u, dtype=float)
            return np.array([self.field(name, xi, s, ui) for xi, ui in zip(x, us, strict=True)])
        d = self.disc
        if x.size != d.system.n_states:
            raise ModelError(f"x has {x.size} values; the {self.kind} has "
                             f"{d.system.n_states} states")
        eq, ep = d.split(x, u)
        s = np.atleast_1d(np.asarray(s, dtype=float))
        Np, Nq = d.h1.size, d.l2.size
        for b, f in enumerate(d.flows):
            if f.flow == name:
                return d.h1.evaluate(ep[b * Np:(b + 1) * Np], s)
        stored = [f for f in d.efforts if f.state is not None]
        for a, f in enumerate(stored):
            if f.effort == name:
                return d.l2.evaluate(eq[a * Nq:(a + 1) * Nq], s)
        names = [f.flow for f in d.flows] + [f.effort for f in stored]
        raise ModelError(f"{self.kind} has no field {name!r}; its fields: {', '.join(names)}")

    def __repr__(self) -> str:
        return (f"<{self.kind}: {self.mesh.elements} elements of degree {self.degree}, "
                f"{self.system.n_states} states, ports {list(self.system.inputs)}>")
