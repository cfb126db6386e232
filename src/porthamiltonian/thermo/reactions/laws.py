r"""Constitutive laws of ideal chemical species and mass-action reactions.

Each law comes twice: a NumPy form (``float``/array in, array out, for the numeric
paths) and a SymPy form (``*_sym``, for symbolic PHS and bond-graph elements).

Species (C elements of a chemical bond graph)
---------------------------------------------
The state of a species is its amount :math:`n_i` (mol); its effort is the chemical
potential (J/mol)

.. math::

    \mu_i = \mu_i^\circ + RT \ln\frac{n_i}{V c^\circ}
    \quad\text{(concentration basis)}, \qquad
    \mu_i = \mu_i^\circ + RT \ln x_i,\; x_i = \frac{n_i}{\sum_j n_j}
    \quad\text{(ideal mixture, mole-fraction basis)},

with :math:`RT` in J/mol, the volume :math:`V` in m³ and the standard concentration
:math:`c^\circ` in mol/m³ (``C_STANDARD`` = 1 mol/m³, the SI default, or
``C_STANDARD_MOLAR`` = 1000 mol/m³ = 1 mol/L).  Both are gradients of the isothermal
Gibbs free energy (J), the Hamiltonian of a reaction network,

.. math::

    H(n) = \sum_i n_i\Big(\mu_i^\circ + RT\big(\ln\tfrac{n_i}{V c^\circ} - 1\big)\Big),
    \qquad
    H_x(n) = \sum_i n_i\big(\mu_i^\circ + RT \ln x_i\big)

(for :math:`H_x`, :math:`\sum_j n_j\,\partial \ln x_j/\partial n_i = 0`, so
:math:`\partial H_x/\partial n_i = \mu_i`).  Both are convex for :math:`n > 0`; the
Hessians are :math:`RT\,\mathrm{diag}(1/n)` and
:math:`RT\,(\mathrm{diag}(1/n) - \mathbf 1\mathbf 1^T/\sum_j n_j)`.

Reactions (Re elements)
-----------------------
A reaction :math:`\sum_i \nu^f_i X_i \rightleftharpoons \sum_i \nu^b_i X_i` has the
forward and backward affinities :math:`A^f = \sum_i \nu^f_i \mu_i`,
:math:`A^b = \sum_i \nu^b_i \mu_i` (J/mol) and the Marcelin–de Donder mass-action flux
(mol/s, positive from left to right)

.. math::

    v = \kappa\,\big(e^{A^f/RT} - e^{A^b/RT}\big)

(Oster, Perelson & Katchalsky, Nature 234, 1971; Gawthrop & Crampin, "Energy-based
analysis of biochemical cycles using bond graphs", Proc. R. Soc. A 470:20140459, 2014,
eq. 2.5), with the reaction constant :math:`\kappa` in mol/s.  The flux has the sign of
:math:`A^f - A^b`, so the dissipated power :math:`v\,(A^f - A^b)` (W) is never negative.

Rate-constant form.  With the concentration basis,
:math:`e^{A^f/RT} = e^{\nu^{fT}\mu^\circ/RT}\prod_i (c_i/c^\circ)^{\nu^f_i}`, so

.. math::

    v = k^+ \prod_i c_i^{\nu^f_i} - k^- \prod_i c_i^{\nu^b_i}, \qquad
    k^+ = \kappa\,\frac{e^{\nu^{fT}\mu^\circ/RT}}{(c^\circ)^{\sum_i \nu^f_i}}, \quad
    k^- = \kappa\,\frac{e^{\nu^{bT}\mu^\circ/RT}}{(c^\circ)^{\sum_i \nu^b_i}},

and back, given :math:`\mu^\circ`, :math:`\kappa = k^+ (c^\circ)^{\sum\nu^f}
e^{-\nu^{fT}\mu^\circ/RT}`.  The pair must then satisfy
:math:`k^+/k^- = K (c^\circ)^{\sum\nu^b-\sum\nu^f}` with the dimensionless equilibrium
constant :math:`K = e^{-\Delta G^\circ/RT}`, :math:`\Delta G^\circ = (\nu^b-\nu^f)^T
\mu^\circ` (J/mol): rate constants fix :math:`\mu^\circ` only up to the conservation
laws, and only when they obey Wegscheider's condition (checked in ``consistency``).
Units: :math:`k^+` in (mol/s)·(mol/m³)^(−Σν^f).  On the mole-fraction basis replace
:math:`c_i` by :math:`x_i` and :math:`c^\circ` by 1.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import sympy as sp
from numpy.typing import ArrayLike, NDArray
from scipy.constants import gas_constant

__all__ = [
    "R_GAS", "C_STANDARD", "C_STANDARD_MOLAR",
    "chemical_potential", "chemical_potential_sym",
    "chemical_potential_x", "chemical_potential_x_sym",
    "gibbs_energy", "gibbs_energy_sym", "gibbs_energy_x", "gibbs_energy_x_sym",
    "gibbs_hessian", "affinities", "mass_action_flux", "mass_action_flux_sym",
    "dissipation_coefficient", "dissipation_coefficient_sym",
    "rate_constants", "kappa_from_rate_constant", "equilibrium_constant",
]

#: molar gas constant (J/(mol K)), exact since the 2019 SI (8.31446261815324)
R_GAS: float = gas_constant
#: standard concentration (mol/m³): the SI default
C_STANDARD = 1.0
#: standard concentration of 1 mol/L in mol/m³
C_STANDARD_MOLAR = 1000.0

Array = NDArray[np.float64]


# ----------------------------------------------------------------- chemical potential
def chemical_potential(n: ArrayLike, mu0: ArrayLike, RT: float, volume: float,
                       c_standard: float = C_STANDARD) -> Array:
    r"""Chemical potential :math:`\mu = \mu^\circ + RT\ln(n/(V c^\circ))` (J/mol).

    Parameters
    ----------
    n : amounts (mol), > 0.
    mu0 : standard chemical potentials :math:`\mu^\circ` (J/mol).
    RT : gas constant × temperature (J/mol).
    volume : :math:`V` (m³).
    c_standard : :math:`c^\circ` (mol/m³); 1 (SI) or 1000 (1 mol/L).
    """
    n = np.asarray(n, dtype=float)
    return np.asarray(mu0, dtype=float) + RT * np.log(n / (volume * c_standard))


def chemical_potential_sym(n: sp.Expr, mu0: sp.Expr, RT: sp.Expr, volume: sp.Expr,
                           c_standard: sp.Expr | float = 1) -> sp.Expr:
    r"""SymPy :math:`\mu = \mu^\circ + RT\ln(n/(V c^\circ))` of one species (J/mol)."""
    return mu0 + RT * sp.log(n / (volume * c_standard))


def chemical_potential_x(n: ArrayLike, mu0: ArrayLike, RT: float) -> Array:
    r"""Ideal-mixture potential :math:`\mu_i = \mu_i^\circ + RT\ln(n_i/\sum_j n_j)` (J/mol).

    ``n`` holds the amounts (mol) of all species of the mixture.
    """
    n = np.asarray(n, dtype=float)
    return np.asarray(mu0, dtype=float) + RT * np.log(n / n.sum())


def chemical_potential_x_sym(n: Sequence[sp.Expr], mu0: Sequence[sp.Expr],
                             RT: sp.Expr) -> list[sp.Expr]:
    r"""SymPy ideal-mixture potentials :math:`\mu_i^\circ + RT\ln(n_i/\sum_j n_j)`."""
    total = sp.Add(*n)
    return [m + RT * sp.log(ni / total) for ni, m in zip(n, mu0, strict=True)]


# ----------------------------------------------------------------- Gibbs free energy
def gibbs_energy(n: ArrayLike, mu0: ArrayLike, RT: float, volume: float,
                 c_standard: float = C_STANDARD) -> float:
    r"""Isothermal Gibbs free energy :math:`\sum_i n_i(\mu_i^\circ + RT(\ln\frac{n_i}{V
    c^\circ} - 1))` (J); its gradient is :func:`chemical_potential`."""
    n = np.asarray(n, dtype=float)
    mu0 = np.asarray(mu0, dtype=float)
    return float(np.sum(n * (mu0 + RT * (np.log(n / (volume * c_standard)) - 1.0))))


def gibbs_energy_sym(n: Sequence[sp.Expr], mu0: Sequence[sp.Expr], RT: sp.Expr,
                     volume: sp.Expr, c_standard: sp.Expr | float = 1) -> sp.Expr:
    """SymPy form of :func:`gibbs_energy` (J)."""
    return sp.Add(*[ni * (m + RT * (sp.log(ni / (volume * c_standard)) - 1))
                    for ni, m in zip(n, mu0, strict=True)])


def gibbs_energy_x(n: ArrayLike, mu0: ArrayLike, RT: float) -> float:
    r"""Ideal-mixture Gibbs energy :math:`\sum_i n_i(\mu_i^\circ + RT\ln x_i)` (J)."""
    n = np.asarray(n, dtype=float)
    return float(np.sum(n * chemical_potential_x(n, mu0, RT)))


def gibbs_energy_x_sym(n: Sequence[sp.Expr], mu0: Sequence[sp.Expr],
                       RT: sp.Expr) -> sp.Expr:
    """SymPy form of :func:`gibbs_energy_x` (J)."""
    return sp.Add(*[ni * m for ni, m in zip(n, chemical_potential_x_sym(n, mu0, RT), strict=True)])


def gibbs_hessian(n: ArrayLike, RT: float, basis: str = "concentration") -> Array:
    r"""Hessian of the Gibbs energy (J/mol²): :math:`RT\,\mathrm{diag}(1/n)`, minus
    :math:`RT/\sum_j n_j` in every entry on the ``"mole_fraction"`` basis."""
    n = np.asarray(n, dtype=float)
    h = np.diag(RT / n)
    if basis == "mole_fraction":
        h -= RT / n.sum()
    return h


# ----------------------------------------------------------------- mass action
def affinities(nu_f: ArrayLike, nu_b: ArrayLike, mu: ArrayLike) -> tuple[Array, Array]:
    r"""Forward and backward affinities :math:`A^f = \nu^{fT}\mu`, :math:`A^b =
    \nu^{bT}\mu` (J/mol) of reactions whose stoichiometric coefficients are the
    columns of ``nu_f``, ``nu_b`` (species × reactions)."""
    mu = np.asarray(mu, dtype=float)
    return np.asarray(nu_f).T @ mu, np.asarray(nu_b).T @ mu


def mass_action_flux(A_f: ArrayLike, A_b: ArrayLike, kappa: ArrayLike, RT: float) -> Array:
    r"""Mass-action flux :math:`v = \kappa(e^{A^f/RT} - e^{A^b/RT})` (mol/s).

    Gawthrop & Crampin, Proc. R. Soc. A 470:20140459 (2014), eq. 2.5.  ``kappa`` in
    mol/s, affinities and ``RT`` in J/mol; positive from reactants to products.
    """
    return np.asarray(kappa, dtype=float) * (np.exp(np.asarray(A_f, dtype=float) / RT)
                                             - np.exp(np.asarray(A_b, dtype=float) / RT))


def mass_action_flux_sym(A_f: sp.Expr, A_b: sp.Expr, kappa: sp.Expr, RT: sp.Expr) -> sp.Expr:
    """SymPy form of :func:`mass_action_flux` (mol/s)."""
    return kappa * (sp.exp(A_f / RT) - sp.exp(A_b / RT))


def dissipation_coefficient(A_f: ArrayLike, A_b: ArrayLike, kappa: ArrayLike,
                            RT: float) -> Array:
    r""":math:`\gamma = v/(A^f - A^b) \ge 0` (mol²/(J s)), the reaction's entry of R.

    With :math:`a = A^f/RT`, :math:`b = A^b/RT`, :math:`d = a - b`:
    :math:`\gamma = \frac{\kappa}{RT} e^{b}\,\frac{\operatorname{expm1}(d)}{d}`, whose
    limit at :math:`d = 0` is :math:`\kappa e^{A/RT}/RT`; for :math:`|d| < 10^{-5}` the
    series :math:`1 + d/2 + d^2/6` replaces ``expm1(d)/d`` (error below 1e-16).
    Then :math:`\gamma (A^f - A^b) = v` exactly in exact arithmetic.
    """
    a = np.asarray(A_f, dtype=float) / RT
    b = np.asarray(A_b, dtype=float) / RT
    d = a - b
    small = np.abs(d) < 1e-5
    safe = np.where(small, 1.0, d)
    ratio = np.where(small, 1.0 + d / 2.0 + d * d / 6.0, np.expm1(safe) / safe)
    return np.asarray(kappa, dtype=float) / RT * np.exp(b) * ratio


def dissipation_coefficient_sym(A_f: sp.Expr, A_b: sp.Expr, kappa: sp.Expr,
                                RT: sp.Expr) -> sp.Expr:
    r"""SymPy :math:`\gamma = v/(A^f - A^b)`, a ``Piecewise`` with the limit
    :math:`\kappa e^{A^f/RT}/RT` where :math:`A^f = A^b`."""
    return sp.Piecewise(
        (kappa * sp.exp(A_f / RT) / RT, sp.Eq(A_f, A_b)),
        (mass_action_flux_sym(A_f, A_b, kappa, RT) / (A_f - A_b), True),
    )


# ----------------------------------------------------------------- rate constants
def rate_constants(kappa: ArrayLike, nu_f: ArrayLike, nu_b: ArrayLike, mu0: ArrayLike,
                   RT: float, c_standard: float = C_STANDARD) -> tuple[Array, Array]:
    r"""Rate constants of :math:`v = k^+\prod c^{\nu^f} - k^-\prod c^{\nu^b}` from
    :math:`\kappa` (mol/s) and :math:`\mu^\circ` (J/mol):

    .. math::

        k^\pm = \kappa\, e^{\nu^{f/bT}\mu^\circ/RT} (c^\circ)^{-\sum_i \nu^{f/b}_i}

    in (mol/s)(mol/m³)^(−Σν).  ``nu_f``, ``nu_b`` are species × reactions.
    """
    nu_f = np.asarray(nu_f, dtype=float)
    nu_b = np.asarray(nu_b, dtype=float)
    mu0 = np.asarray(mu0, dtype=float)
    kappa = np.asarray(kappa, dtype=float)
    kp = kappa * np.exp(nu_f.T @ mu0 / RT) * c_standard ** (-nu_f.sum(axis=0))
    km = kappa * np.exp(nu_b.T @ mu0 / RT) * c_standard ** (-nu_b.sum(axis=0))
    return kp, km


def kappa_from_rate_constant(k_forward: ArrayLike, nu_f: ArrayLike, mu0: ArrayLike,
                             RT: float, c_standard: float = C_STANDARD) -> Array:
    r""":math:`\kappa = k^+ (c^\circ)^{\sum\nu^f} e^{-\nu^{fT}\mu^\circ/RT}` (mol/s), the
    inverse of :func:`rate_constants` given :math:`\mu^\circ`."""
    nu_f = np.asarray(nu_f, dtype=float)
    return (np.asarray(k_forward, dtype=float) * c_standard ** nu_f.sum(axis=0)
            * np.exp(-(nu_f.T @ np.asarray(mu0, dtype=float)) / RT))


def equilibrium_constant(nu_f: ArrayLike, nu_b: ArrayLike, mu0: ArrayLike,
                         RT: float) -> Array:
    r"""Dimensionless :math:`K = e^{-\Delta G^\circ/RT}`, :math:`\Delta G^\circ =
    (\nu^b - \nu^f)^T\mu^\circ` (J/mol): at equilibrium
    :math:`\prod_i (c_i/c^\circ)^{\nu^b_i - \nu^f_i} = K`."""
    dnu = np.asarray(nu_b, dtype=float) - np.asarray(nu_f, dtype=float)
    return np.exp(-(dnu.T @ np.asarray(mu0, dtype=float)) / RT)
