r"""Thermodynamic consistency of rate constants: Wegscheider's condition.

Rate constants :math:`k^\pm_r` describe a thermodynamically consistent network only
when their ratios come from standard potentials (:mod:`.laws`):

.. math::

    \ln\frac{k^+_r}{k^-_r} = -\frac{N_r^T\mu^\circ}{RT} + \Big(\sum_i N_{ir}\Big)\ln c^\circ
    \qquad\text{for every reversible reaction } r.

This linear system in :math:`\mu^\circ` is solvable exactly when, for every cycle
:math:`c` of the reversible reactions (:math:`N_{rev}c = 0`,
:func:`.stoichiometry.cycles`), :math:`\prod_r (k^+_r/k^-_r)^{c_r} = 1` — Wegscheider's
condition (Wegscheider, Monatsh. Chem. 22, 1901; Schuster & Schuster, J. Math. Chem. 3,
1989): the :math:`\ln c^\circ` terms cancel since :math:`\mathbf 1^T N c = 0`.  A
violating cycle would drive a perpetual flux around the loop at equilibrium (no
detailed balance).  Given consistent rates, :math:`\mu^\circ` is the minimum-norm
solution (fixed up to the conservation laws, which only shift :math:`H` by a Casimir)
and :math:`\kappa_r = k^+_r (c^\circ)^{\sum\nu^f_r} e^{-\nu^{fT}_r\mu^\circ/RT}`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...errors import ModelError
from .laws import kappa_from_rate_constant

__all__ = ["check_wegscheider", "potentials_from_rates"]

#: relative tolerance of Wegscheider's condition on Σ c_r ln(k⁺_r/k⁻_r)
WEGSCHEIDER_RTOL = 1e-9


def check_wegscheider(cycle_basis: np.ndarray, k_forward: np.ndarray, k_backward: np.ndarray,
                      names: Sequence[str], equations: Sequence[str]) -> None:
    """Raise :class:`ModelError` naming the reactions of the first cycle with
    :math:`\\sum_r c_r\\ln(k^+_r/k^-_r) \\ne 0` and the size of the mismatch."""
    for c in cycle_basis:
        used = np.flatnonzero(c)
        logs = np.log(k_forward[used] / k_backward[used])
        mismatch = float(c[used] @ logs)
        scale = float(np.abs(c[used]) @ np.abs(logs)) + 1.0
        if abs(mismatch) > WEGSCHEIDER_RTOL * scale:
            loop = ", ".join(f"{int(c[r]):+d}·{names[r]} ({equations[r]})" for r in used)
            raise ModelError(
                f"rate constants violate Wegscheider's condition around the cycle {loop}: "
                f"Π (k⁺/k⁻)^c = {np.exp(mismatch):.6g}, not 1 (ln: {mismatch:.6g}); no "
                "standard potentials μ° give these equilibrium constants. Change k_forward "
                "or k_backward of one of these reactions, or give mu0 and kappa instead")


def potentials_from_rates(N: np.ndarray, nu_f: np.ndarray, reversible: Sequence[bool],
                          k_forward: np.ndarray, k_backward: np.ndarray, RT: float,
                          c_standard: float) -> tuple[np.ndarray, np.ndarray]:
    """Minimum-norm :math:`\\mu^\\circ` (J/mol) and :math:`\\kappa` (mol/s) reproducing
    consistent rate constants (``k_backward`` of irreversible reactions is ignored)."""
    rev = np.flatnonzero(np.asarray(reversible, dtype=bool))
    rhs = -RT * (np.log(k_forward[rev] / k_backward[rev])
                 - N[:, rev].sum(axis=0) * np.log(c_standard))
    if rev.size:
        mu0 = np.linalg.lstsq(N[:, rev].T, rhs, rcond=None)[0]
    else:
        mu0 = np.zeros(N.shape[0])
    return mu0, kappa_from_rate_constant(k_forward, nu_f, mu0, RT, c_standard)
