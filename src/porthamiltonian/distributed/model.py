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

    def __init__(self, disc: Discretization | Any, kind: str, variables: dict[str, str]) -> None:
        self.disc = disc
        self.kind = kind
        self.variables = variables
        self.system = disc.system
        self.mesh = disc.mesh
        self.degree = disc.degree

    # ------------------------------------------------------------------ modes
    def stiffness(self) -> tuple[sps.csr_array, np.ndarray]:
        r"""``(K, m)``: stiffness and diagonal mass on the momentum (flow) states.

        With :math:`x = (x_q, x_p)`, :math:`\dot x_q = D\,Q_p x_p` and
        :math:`\dot x_p = -D^\top Q_q x_q` (J has no q–q or p–p block in the lossless
        models), the flows :math:`e_p = Q_p x_p` obey :math:`M_p\ddot e_p = -K e_p` with
        :math:`K = D^\top Q_q D`, :math:`M_p = Q_p^{-1}` — in either partition and for
        models joined from parts.  Using the flow states makes the zero eigenvalues the
        rigid-body motions only (a constant strain of a fixed–fixed string is a
        Casimir, not a mode).
        """
        sys = self.system
        p = self.disc.momentum_states
        q = np.setdiff1d(np.arange(sys.n_states), p)
        J = sps.csr_array(sys.J)
        D = J[q][:, p]
        Qd = sys.Q.diagonal()
        return sps.csr_array(D.T @ sps.diags_array(Qd[q]) @ D), 1.0 / Qd[p]

    def frequencies(self, n: int) -> np.ndarray:
        """The ``n`` lowest undamped natural frequencies (rad/s), rigid-body zeros included.

        The modes are those of the flow field (velocity, current): a uniform flow that
        the boundary conditions allow (rigid translation of a free–free string, DC
        current in a shorted line) is a zero frequency; a static effort distribution
        (a pre-strain between fixed ends, a charged open line) is an equilibrium of the
        energy variables (a Casimir), not a mode.  Open ports count as unforced: a force
        port as a free end, a velocity port as a fixed end.  Damping is ignored.
        """
        if self.disc.momentum_states.size == self.system.n_states:
            raise ModelError(f"{self.kind} has no oscillating modes; use decay_rates(n)")
        K, m = self.stiffness()
        return np.sqrt(lowest_eigenvalues(K, m, n))

    def decay_rates(self, n: int) -> np.ndarray:
        """The ``n`` lowest decay rates (1/s) of a purely dissipative model (heat)."""
        if self.disc.momentum_states.size != self.system.n_states:
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
        if x.size != self.system.n_states:
            raise ModelError(f"x has {x.size} values; the {self.kind} has "
                             f"{self.system.n_states} states")
        s = np.atleast_1d(np.asarray(s, dtype=float))
        out = self.disc.evaluate(name, x, s, u)
        if out is None:
            raise ModelError(f"{self.kind} has no field {name!r}; its fields: "
                             f"{', '.join(self.disc.field_names())}")
        return out

    def __repr__(self) -> str:
        return (f"<{self.kind}: {self.mesh.elements} elements of degree {self.degree}, "
                f"{self.system.n_states} states, ports {list(self.system.inputs)}>")
