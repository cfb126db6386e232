r"""An open, well-mixed tank with convective inlet and outlet streams, as a PHS.

The tank holds an ideal liquid mixture (incompressible, so the molar internal energy
equals the molar enthalpy; constant molar heat capacities :math:`c_s`).  States: the
amounts :math:`n_s` (mol) and the internal energy :math:`U` (J), with

.. math::
    U = \sum_s n_s\,\big(h_s^\circ + c_s (T - T_r)\big),\qquad
    T(n, U) = T_r + \frac{U - \sum_s n_s h^\circ_s}{\sum_s n_s c_s}.

An inlet stream of molar flow :math:`F_\mathrm{in}` (mol/s) with the fixed composition
:math:`y_s` and temperature :math:`T_\mathrm{in}` carries the molar enthalpy
:math:`h_\mathrm{in} = \sum_s y_s(h^\circ_s + c_s(T_\mathrm{in} - T_r))`; the outlet
stream :math:`F_\mathrm{out}` leaves at the tank's state (mole fractions
:math:`x_s = n_s/N`, molar enthalpy :math:`h = U/N`); :math:`Q` (W) is heat into the
tank.  With :math:`H = U` the balances are the port-Hamiltonian system

.. math::
    \dot x = G(x)\,u,\quad
    G(x) = \begin{bmatrix} y & -n/N & 0\\ h_\mathrm{in} & -U/N & 1\end{bmatrix},\quad
    u = \begin{bmatrix}F_\mathrm{in}\\ F_\mathrm{out}\\ Q\end{bmatrix},\quad
    y = G(x)^\top\nabla H = \begin{bmatrix}h_\mathrm{in}\\ -h(x)\\ 1\end{bmatrix},

(:math:`J = R = 0`), so :math:`\dot U = u^\top y = F_\mathrm{in}h_\mathrm{in} -
F_\mathrm{out}h + Q`: the power balance is the first law, each output is the energy a
stream carries per mole (J/mol; −h at the outlet, whose flow is counted *out*).  This is
the convective-port form of open thermodynamic systems (Hoang, Couenne, Jallut & Le
Gorrec, J. Process Control 21 (2011) 1449; Ramirez, Maschke & Sbarbaro, Chem. Eng.
Sci. 89 (2013) 223): convective ports are not power conjugate pairs of a single
storage — a stream carries species, energy and entropy at once — so their energy
content enters through the state-modulated input matrix.

:meth:`StirredTank.flows` splits the stream powers the thermodynamic way: the
chemical power :math:`\sum_s\mu_s F_s` (molar flow × chemical potential of the tank),
the entropy flows :math:`F s` (W/K) and the entropy produced by mixing the inlet into
the content,

.. math:: \sigma = \frac{F_\mathrm{in}}{T}\Big(h_\mathrm{in} - \sum_s y_s\mu_s
    - T s_\mathrm{in}\Big) \ge 0

(the availability of the inlet relative to the tank; zero iff the inlet has the
tank's temperature and composition), with the Gibbs relation
:math:`\dot S = (\dot U - \sum_s\mu_s\dot n_s)/T = F_\mathrm{in}s_\mathrm{in} -
F_\mathrm{out}s + Q/T + \sigma`.  Molar entropies:
:math:`\bar s_s = s^\circ_s + c_s\ln(T/T_r) - R\ln x_s`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy as sp
from scipy.constants import gas_constant

from ..errors import ModelError
from ..phs import PHS

__all__ = ["StirredTank", "stirred_tank"]

_R = gas_constant


def stirred_tank(species: Sequence[str], cp: Sequence[float], y_in: Sequence[float],
                 T_in: float, *, h0: Sequence[float] | None = None,
                 s0: Sequence[float] | None = None, T_ref: float = 298.15) -> StirredTank:
    """A well-mixed tank with one inlet and one outlet stream (module docstring).

    Parameters
    ----------
    species : names; the states are ``n_<s>`` (mol) and ``U`` (J).
    cp : molar heat capacities :math:`c_s` (J/(mol·K)), positive.
    y_in : inlet mole fractions (positive, summing to 1).
    T_in : inlet temperature (K).
    h0, s0 : molar enthalpies (J/mol) and entropies (J/(mol·K)) at ``T_ref``; default 0.
    T_ref : reference temperature :math:`T_r` (K).

    The inputs are ``F_in`` (mol/s), ``F_out`` (mol/s) and ``Q`` (W); the outputs
    ``h_in``, ``h_out`` (J/mol, the latter −h) and ``dU_dQ`` (1).
    """
    names = tuple(species)
    k = len(names)
    c = np.asarray(cp, dtype=float)
    y = np.asarray(y_in, dtype=float)
    h0v = np.zeros(k) if h0 is None else np.asarray(h0, dtype=float)
    s0v = np.zeros(k) if s0 is None else np.asarray(s0, dtype=float)
    if k < 1 or any(a.shape != (k,) for a in (c, y, h0v, s0v)):
        raise ModelError(f"stirred_tank: cp, y_in, h0 and s0 need one value per species ({k})")
    if np.any(~(c > 0)) or np.any(~(y > 0)) or abs(y.sum() - 1) > 1e-12:
        raise ModelError("stirred_tank: cp and y_in must be positive and y_in sum to 1")
    if not (T_in > 0 and T_ref > 0):
        raise ModelError("stirred_tank: temperatures must be positive (K)")
    n = sp.symbols([f"n_{s}" for s in names], positive=True)
    U = sp.Symbol("U", real=True)
    N = sum(n)
    h_in = float(y @ (h0v + c * (T_in - T_ref)))
    G = sp.zeros(k + 1, 3)
    for s in range(k):
        G[s, 0] = y[s]
        G[s, 1] = -n[s] / N
    G[k, 0], G[k, 1], G[k, 2] = h_in, -U / N, 1
    system = PHS(G=G, hamiltonian=U, states=[*map(str, n), "U"],
                 inputs=["F_in", "F_out", "Q"], outputs=["h_in", "h_out", "dU_dQ"],
                 name="stirred_tank")
    return StirredTank(system, c, y, float(T_in), h0v, s0v, float(T_ref), h_in)


class StirredTank:
    """The tank model: its PHS and the thermodynamic functions of a state."""

    def __init__(self, system: PHS, cp: np.ndarray, y_in: np.ndarray, T_in: float,
                 h0: np.ndarray, s0: np.ndarray, T_ref: float, h_in: float) -> None:
        self.system = system
        self.cp, self.y_in, self.T_in = cp, y_in, T_in
        self.h0, self.s0, self.T_ref, self.h_in = h0, s0, T_ref, h_in

    def _split(self, x: Any) -> tuple[np.ndarray, np.ndarray]:
        x = np.asarray(x, dtype=float)
        return x[..., :-1], x[..., -1]

    def temperature(self, x: Any) -> np.ndarray:
        """:math:`T(n, U)` (K)."""
        n, U = self._split(x)
        return self.T_ref + (U - n @ self.h0) / (n @ self.cp)

    def molar_entropies(self, x: Any) -> np.ndarray:
        r"""Partial molar entropies :math:`\bar s_s` (J/(mol·K)) of the content."""
        n, _ = self._split(x)
        T = self.temperature(x)[..., None]
        frac = n / n.sum(axis=-1, keepdims=True)
        return self.s0 + self.cp * np.log(T / self.T_ref) - _R * np.log(frac)

    def chemical_potentials(self, x: Any) -> np.ndarray:
        r""":math:`\mu_s = \bar h_s - T\bar s_s` (J/mol)."""
        T = self.temperature(x)[..., None]
        return self.h0 + self.cp * (T - self.T_ref) - T * self.molar_entropies(x)

    def entropy(self, x: Any) -> np.ndarray:
        r""":math:`S = \sum_s n_s\bar s_s` (J/K)."""
        n, _ = self._split(x)
        return (n * self.molar_entropies(x)).sum(axis=-1)

    def steady_state(self, N: float, F: float, Q: float = 0.0) -> np.ndarray:
        """The state reached with ``F_in = F_out = F`` and holdup ``N`` (mol): the inlet
        composition and :math:`T_\\mathrm{in} + Q/(F c_\\mathrm{in})`."""
        return np.append(N * self.y_in, N * self.h_in + Q * N / F)

    def flows(self, x: Any, u: Any) -> dict[str, float]:
        """Energy (W) and entropy (W/K) flows of the streams at state ``x``, input ``u``.

        Keys: ``enthalpy_in``, ``enthalpy_out`` (W, positive out), ``chemical_in``,
        ``chemical_out`` (:math:`\\sum_s\\mu_s F_s`, W), ``entropy_in``, ``entropy_out``,
        ``heat_entropy`` (:math:`Q/T`) and ``production`` (:math:`\\sigma \\ge 0`), W/K.
        """
        x = np.asarray(x, dtype=float)
        F_in, F_out, Q = np.asarray(u, dtype=float)
        n, U = self._split(x)
        N, T = n.sum(), float(self.temperature(x))
        mu = self.chemical_potentials(x)
        s_in = float(self.y_in @ (self.s0 + self.cp * np.log(self.T_in / self.T_ref)
                                  - _R * np.log(self.y_in)))
        production = F_in * (self.h_in - self.y_in @ mu - T * s_in) / T
        return {
            "enthalpy_in": F_in * self.h_in, "enthalpy_out": F_out * U / N,
            "chemical_in": F_in * float(self.y_in @ mu),
            "chemical_out": F_out * float(n @ mu) / N,
            "entropy_in": F_in * s_in, "entropy_out": F_out * float(self.entropy(x)) / N,
            "heat_entropy": Q / T, "production": float(production),
        }
