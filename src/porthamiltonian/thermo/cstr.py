r"""A continuous stirred tank reactor (CSTR) with several reactions and a cooling jacket,
as an irreversible port-Hamiltonian system (Ramirez, Maschke & Sbarbaro, Chem. Eng.
Sci. 89 (2013) 223–234, §4).

The liquid is an ideal solution (:func:`~porthamiltonian.thermo.properties.ideal_solution`)
of species with equal molar volume :math:`v_m` (m³/mol), so the volume V (m³) of the
full tank is constant and the outflow equals the inflow q (m³/s).  States: the amounts
:math:`N_i` (mol, solvent included) and the entropy S (J/K); Hamiltonian
:math:`U(S, N)` (J), :math:`\nabla U = (\mu, T)`.

* Reaction j with stoichiometry :math:`\nu_j` and rate (mol/s)
  :math:`r_j = V k_{0j} e^{-E_j/(RT)}\prod_{\nu_{ij}<0} c_i^{-\nu_{ij}}\,
  (1 - e^{-\mathcal A_j/(RT)})`, affinity :math:`\mathcal A_j = -\nu_j^\top\mu`, has the
  sign of :math:`\mathcal A_j`; it is the coupling :math:`\gamma_j = r_j/(T\mathcal A_j)
  \ge 0`, :math:`J_j = [[0, \nu_j], [-\nu_j^\top, 0]]`, :math:`\{S, U\}_{J_j} = \mathcal
  A_j`: :math:`\dot N = \sum\nu_j r_j`, :math:`\dot S = \sum r_j\mathcal A_j/T \ge 0`.
* Jacket (input ``T_c``, K): heat :math:`UA(T_c - T)` (W) enters as the entropy flow
  :math:`UA(T_c - T)/T`: :math:`R_{SS} = UA/T`, :math:`G_{S,T_c} = UA/T`.
* Streams (input ``q``, m³/s): species :math:`q(c^\mathrm{in} - N/V)`, and entropy
  :math:`q\,[\sum c_i^\mathrm{in}h_i(T^\mathrm{in}) - \sum (N_i/V)h_i(T) -
  \mu^\top(c^\mathrm{in} - N/V)]/T` with :math:`h_i = u_i + c_iT` (pV neglected), so
  that :math:`\dot U` receives exactly the enthalpy carried in minus out; the port's
  output is the net enthalpy flow per unit q (J/m³), :math:`u y` the power (W).

Steady states solve the mass and energy balances
:math:`0 = q(c^\mathrm{in} - c) + V\sum_j\nu_j r_j/V`,
:math:`0 = q\sum c^\mathrm{in}_ih_i(T^\mathrm{in}) - q\sum c_ih_i(T) + UA(T_c - T)`.
:data:`SEBORG` is the exothermic first-order A → B benchmark of Henson & Seborg
(*Nonlinear Process Control*, 1997, ch. 3; Seborg, Edgar & Mellichamp, *Process Dynamics
and Control*) in SI units; multiplicity of this class of reactor is analysed by Uppal,
Ray & Poore (Chem. Eng. Sci. 29 (1974) 967–985) — three steady states at
:math:`T_c = 300` K are verified here, not quoted.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp
from scipy.constants import gas_constant

from ..errors import ModelError
from .irreversible import Coupling, IrreversiblePHS, irreversible_phs
from .properties import ideal_solution

__all__ = ["Reaction", "cstr", "SEBORG", "cstr_balances", "cstr_state"]


@dataclass(frozen=True)
class Reaction:
    """``nu``: stoichiometric coefficients by species (negative: reactant); ``k0`` (1/s
    times (m³/mol)^(order − 1)), ``Ea`` (J/mol)."""

    nu: Mapping[str, float]
    k0: float
    Ea: float


#: Henson–Seborg benchmark, SI: A → B, q = 100 L/min, V = 100 L, c_Af = 1 mol/L,
#: T_f = 350 K, ρc_p = 239 J/(L·K), ΔH = −5·10⁴ J/mol, E/R = 8750 K,
#: k₀ = 7.2·10¹⁰ 1/min, UA = 5·10⁴ J/(min·K), T_c = 300 K; solvent "W", v_m = 18 mL/mol
SEBORG: dict[str, Any] = {
    "species": ["A", "B", "W"], "v_m": 1.8e-5, "rho_cp": 2.39e5,
    "u": {"A": 5.0e4, "B": 0.0, "W": 0.0}, "s": {"A": 0.0, "B": 100.0, "W": 0.0},
    "reactions": [Reaction({"A": -1, "B": 1}, 7.2e10 / 60.0, 8750.0 * gas_constant)],
    "V": 0.1, "q": 100e-3 / 60.0, "c_in": {"A": 1000.0, "W": 1.0 / 1.8e-5 - 1000.0},
    "T_in": 350.0, "UA": 5.0e4 / 60.0, "T_c": 300.0,
}
_R = gas_constant


def cstr(species: Sequence[str], reactions: Sequence[Reaction], *, V: float, v_m: float,
         rho_cp: float, u: Mapping[str, float], s: Mapping[str, float],
         c_in: Mapping[str, float], T_in: float, UA: float, T_ref: float = 298.15,
         **_: Any) -> IrreversiblePHS:
    """The CSTR (module docstring); inputs ``q`` (m³/s) and ``T_c`` (K).  All species
    have molar heat capacity ``rho_cp·v_m`` (J/(mol·K)); ``u``, ``s`` reference molar
    energies (J/mol) and entropies (J/(mol·K)); ``c_in`` feed concentrations (mol/m³)."""
    if min(V, v_m, rho_cp, UA, T_in) <= 0:
        raise ModelError("cstr: V, v_m, rho_cp, UA and T_in must be positive")
    k = len(species)
    c = rho_cp * v_m
    liq = ideal_solution(species, [c] * k, u=[u.get(n, 0.0) for n in species],
                         s=[s.get(n, 0.0) for n in species], T_ref=T_ref)
    N = sp.symbols([f"N_{n}" for n in species], real=True)
    S = sp.Symbol("S", real=True)
    U = liq.U.subs(dict(zip(liq.N, N, strict=True))).subs(liq.S, S).subs(liq.values)
    x = (*N, S)
    grad = [sp.diff(U, v) for v in x]
    mu, T = sp.Matrix(grad[:k]), grad[k]
    couplings = []
    for j, rx in enumerate(reactions):
        nu = sp.Matrix([rx.nu.get(n, 0) for n in species])
        if any(n not in species for n in rx.nu):
            raise ModelError(f"reaction {j}: unknown species in {dict(rx.nu)}")
        A = -(nu.T * mu)[0, 0]
        rate = V * rx.k0 * sp.exp(-rx.Ea / (_R * T)) * (1 - sp.exp(-A / (_R * T)))
        for i, n in enumerate(species):
            if rx.nu.get(n, 0) < 0:
                rate = rate * (N[i] / V) ** (-rx.nu[n])
        Jk = sp.zeros(k + 1, k + 1)
        Jk[:k, k] = nu
        Jk[k, :k] = -nu.T
        couplings.append(Coupling(rate / (T * A), Jk, f"reaction {j}"))
    cin = sp.Matrix([c_in.get(n, 0.0) for n in species])
    cv = sp.Matrix(N) / V
    h = sp.Matrix([u.get(n, 0.0) + c * T for n in species])
    h_in = sp.Matrix([u.get(n, 0.0) + c * T_in for n in species])
    g_q = [*(cin - cv), ((cin.T * h_in)[0, 0] - (cv.T * h)[0, 0]
                         - (mu.T * (cin - cv))[0, 0]) / T]
    Rm = sp.zeros(k + 1, k + 1)
    Rm[k, k] = UA / T
    G = sp.zeros(k + 1, 2)
    G[:, 0] = sp.Matrix(g_q)
    G[k, 1] = UA / T
    units = {str(n): "mol" for n in N} | {"S": "J/K", "q": "m**3/s", "T_c": "K"}
    return irreversible_phs(U, x, (0,) * k + (1,), couplings, R=Rm, G=G,
                            inputs=["q", "T_c"], units=units, name="cstr")


def cstr_state(model: IrreversiblePHS, c: Mapping[str, float], T: float, V: float,
               species: Sequence[str]) -> np.ndarray:
    """The state (N, S) of concentrations ``c`` (mol/m³) at temperature ``T`` (K)."""
    N = np.array([c.get(n, 0.0) * V for n in species])
    T0 = float(model.grad(np.append(N, 0.0))[-1])
    Ctot = _heat_capacity(model, N)
    return np.append(N, Ctot * np.log(T / T0))


def _heat_capacity(model: IrreversiblePHS, N: np.ndarray) -> float:
    # T = T_ref e^{(S - ...)/C}: C = ΔS / ln(T(ΔS)/T(0)), exact for this family; ΔS of the
    # order of C keeps the logarithm well away from round-off
    dS = max(1.0, float(np.sum(N)))
    T0 = float(model.grad(np.append(N, 0.0))[-1])
    T1 = float(model.grad(np.append(N, dS))[-1])
    return dS / np.log(T1 / T0)


def cstr_balances(cA: float, T: float, p: Mapping[str, Any]) -> np.ndarray:
    r"""The textbook balances of the first-order A → B benchmark (W and mol/s), in
    :math:`(c_A, T)`: :math:`q(c_{A,in} - c_A) - V k(T) c_A` and
    :math:`\rho c_p q(T_{in} - T) + (-\Delta H) V k(T) c_A + UA(T_c - T)`."""
    rx = p["reactions"][0]
    kT = rx.k0 * np.exp(-rx.Ea / (_R * T))
    dH = p["u"]["B"] - p["u"]["A"]
    return np.array([p["q"] * (p["c_in"]["A"] - cA) - p["V"] * kT * cA,
                     p["rho_cp"] * p["q"] * (p["T_in"] - T) - dH * p["V"] * kT * cA
                     + p["UA"] * (p["T_c"] - T)])
