"""Time series of a simulated Lagrange–Dirac system."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ModelError


@dataclass(frozen=True)
class LagrangeResult:
    """Samples at times ``t`` (shape ``(N,)``); arrays are ``(N, n)`` or ``(N, m)``.

    Attributes
    ----------
    q, v, p:
        Coordinates, velocities and momenta ``p = ∂L/∂v``.
    lam:
        Multipliers ``λ`` (constraint forces ``A λ``), one column per
        :attr:`multipliers` label.
    energy:
        Generalized energy ``E = ⟨p, v⟩ − L``.
    work:
        ``∫₀ᵗ (⟨F, v⟩ − ∂L/∂t) dt``, integrated with the state, so ``energy − energy[0] − work``
        is the power-balance residual (:attr:`energy_residual`).
    constraint_residual:
        ``A(q)ᵀ v`` at every sample (zero on exact solutions).
    """

    t: np.ndarray
    q: np.ndarray
    v: np.ndarray
    p: np.ndarray
    lam: np.ndarray
    energy: np.ndarray
    work: np.ndarray
    constraint_residual: np.ndarray
    names: tuple[str, ...]
    multipliers: tuple[str, ...]

    @property
    def energy_residual(self) -> np.ndarray:
        """``E(t) − E(0) − work``: zero up to the integration tolerance."""
        return self.energy - self.energy[0] - self.work

    def __getitem__(self, name: str) -> np.ndarray:
        """Coordinate ``name`` over time (``"p_x"`` for a momentum, ``"x_dot"`` velocity)."""
        for prefix, arr in (("p_", self.p),):
            if name.startswith(prefix) and name[len(prefix):] in self.names:
                return arr[:, self.names.index(name[len(prefix):])]
        if name.endswith("_dot") and name[:-4] in self.names:
            return self.v[:, self.names.index(name[:-4])]
        if name in self.names:
            return self.q[:, self.names.index(name)]
        raise ModelError(f"no coordinate {name!r} in the result (coordinates: "
                         f"{', '.join(self.names)}; momenta p_<name>, velocities <name>_dot)")
