r"""Isolated irreversible pH models: two bodies exchanging heat, and gas–piston–gas.

Both are built with :func:`~porthamiltonian.thermo.irreversible.irreversible_phs` and
keep the energy exactly while producing entropy (Ramirez, Maschke & Sbarbaro, Chem. Eng.
Sci. 89 (2013) 223–234, §3 and §5 use the same two examples).  Their equilibria have
closed forms (:func:`two_bodies_equilibrium`, :func:`gas_piston_equilibrium`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp
from scipy.constants import gas_constant

from ..errors import ModelError
from .irreversible import Coupling, IrreversiblePHS, irreversible_phs
from .properties import ideal_gas

__all__ = ["two_bodies", "two_bodies_equilibrium", "gas_piston", "gas_piston_equilibrium",
           "gas_piston_state",
           "body_energy"]


def body_energy(S: sp.Expr, C: float, T_ref: float) -> sp.Expr:
    r"""Incompressible body of heat capacity C (J/K): :math:`U = C T_\mathrm{ref}
    e^{S/C}` (J), so :math:`T = T_\mathrm{ref}e^{S/C}` (S = 0 at T_ref)."""
    return C * T_ref * sp.exp(S / C)


def _skew(n: int, i: int, j: int) -> sp.Matrix:
    J = sp.zeros(n, n)
    J[i, j], J[j, i] = 1, -1
    return J


def two_bodies(C1: float = 1000.0, C2: float = 2000.0, conductance: float = 5.0,
               T_ref: float = 300.0) -> IrreversiblePHS:
    r"""Two bodies (heat capacities C1, C2 in J/K) joined by a Fourier conductor
    (``conductance`` λ in W/K).  States ``S1``, ``S2`` (J/K); heat flow
    :math:`\lambda(T_2 - T_1)` into body 1 from
    :math:`\gamma = \lambda/(T_1T_2)` and :math:`J = [[0, 1], [-1, 0]]`
    (:math:`\{S, U\} = T_2 - T_1`)."""
    if min(C1, C2, conductance, T_ref) <= 0:
        raise ModelError("two_bodies: C1, C2, conductance and T_ref must be positive")
    S1, S2 = sp.symbols("S1 S2", real=True)
    U = body_energy(S1, C1, T_ref) + body_energy(S2, C2, T_ref)
    T1, T2 = sp.diff(U, S1), sp.diff(U, S2)
    c = Coupling(conductance / (T1 * T2), _skew(2, 0, 1), "conduction")
    return irreversible_phs(U, (S1, S2), (1, 1), [c], units={"S1": "J/K", "S2": "J/K"},
                            name="two_bodies")


def two_bodies_equilibrium(C1: float, C2: float, T1: float, T2: float) -> float:
    """Final temperature (K): :math:`(C_1T_1 + C_2T_2)/(C_1 + C_2)` (energy conserved)."""
    return (C1 * T1 + C2 * T2) / (C1 + C2)


def gas_piston(N1: float = 0.04, N2: float = 0.02, *, c_v: float = 1.5 * gas_constant,
               area: float = 0.01, length: float = 0.2, mass: float = 1.0,
               friction: float = 20.0, conductance: float = 2.0) -> IrreversiblePHS:
    r"""Two ideal gases (N1, N2 mol, molar c_v in J/(mol·K)) in a cylinder of cross
    section ``area`` (m²) and length ``length`` (m), separated by a piston of ``mass``
    (kg) with viscous friction ``friction`` ν (N·s/m) and a heat conductance
    ``conductance`` λ (W/K) through it.  States ``S1``, ``S2`` (J/K), ``q`` piston
    position (m, :math:`V_1 = Aq`, :math:`V_2 = A(L-q)`), ``p`` momentum (kg·m/s).

    :math:`U = U_1(S_1, Aq) + U_2(S_2, A(L-q)) + p^2/(2m)`; reversible part
    :math:`\dot q = v`, :math:`\dot p = A(p_1 - p_2)`; friction :math:`-\nu v` whose heat
    :math:`\nu v^2` goes half to each gas (two couplings :math:`\gamma = \nu/(2T_i)`,
    :math:`\{S,U\} = v`); conduction as in :func:`two_bodies`.
    """
    if min(N1, N2, c_v, area, length, mass, friction, conductance) <= 0:
        raise ModelError("gas_piston: every parameter must be positive")
    S1, S2, q, p = sp.symbols("S1 S2 q p", real=True)
    gas = ideal_gas(c_v)
    U1 = gas.U.subs({gas.S: S1, gas.V: area * q, gas.N[0]: N1}).subs(gas.values)
    U2 = gas.U.subs({gas.S: S2, gas.V: area * (length - q), gas.N[0]: N2}).subs(gas.values)
    U = U1 + U2 + p**2 / (2 * mass)
    T1, T2 = sp.diff(U, S1), sp.diff(U, S2)
    couplings = [Coupling(friction / (2 * T1), _skew(4, 0, 3), "friction→gas 1"),
                 Coupling(friction / (2 * T2), _skew(4, 1, 3), "friction→gas 2"),
                 Coupling(conductance / (T1 * T2), _skew(4, 0, 1), "conduction")]
    return irreversible_phs(U, (S1, S2, q, p), (1, 1, 0, 0), couplings,
                            J0=_skew(4, 2, 3),
                            units={"S1": "J/K", "S2": "J/K", "q": "m", "p": "kg*m/s"},
                            name="gas_piston")


def gas_piston_state(model: IrreversiblePHS, x: Any, *, N1: float, N2: float, c_v: float,
                     area: float, length: float) -> dict[str, np.ndarray]:
    """Temperatures (K), pressures (Pa), volumes (m³) of both gases along ``x`` rows."""
    x = np.atleast_2d(np.asarray(x, dtype=float))
    g = np.array([model.grad(r) for r in x])
    V1, V2 = area * x[:, 2], area * (length - x[:, 2])
    R = gas_constant
    return {"T1": g[:, 0], "T2": g[:, 1], "V1": V1, "V2": V2,
            "p1": N1 * R * g[:, 0] / V1, "p2": N2 * R * g[:, 1] / V2}


def gas_piston_equilibrium(U: float, N1: float, N2: float, c_v: float, area: float,
                           length: float) -> dict[str, float]:
    r"""Equilibrium of the isolated cylinder from the conserved U (J) and volume:
    :math:`T = U/((N_1+N_2)c_v)`, :math:`V_1 = V N_1/(N_1+N_2)` (equal pressures and
    temperatures), :math:`p = (N_1+N_2)RT/V`, piston at rest."""
    R = gas_constant
    T = U / ((N1 + N2) * c_v)
    V = area * length
    return {"T": T, "V1": V * N1 / (N1 + N2), "q": length * N1 / (N1 + N2),
            "p": (N1 + N2) * R * T / V}
