r"""Homogeneous energies of simple systems: Euler, Gibbs–Duhem and the potentials F, H, G.

The internal energy :math:`U(S, V, N)` (J; S in J/K, V in m³, N in mol) of a simple
system is a first-order homogeneous function of its *extensive* variables,
:math:`U(\lambda x) = \lambda U(x)` (Callen, *Thermodynamics and an Introduction to
Thermostatistics*, 2nd ed., 1985, §2.1–3.2).  With the efforts
:math:`T = \partial U/\partial S`, :math:`-p = \partial U/\partial V`,
:math:`\mu = \partial U/\partial N`, Euler's theorem for homogeneous functions gives

.. math::
    U = TS - pV + \mu N \qquad\text{(Euler relation)},

and differentiating it against :math:`dU = T\,dS - p\,dV + \mu\,dN`,

.. math::
    S\,dT - V\,dp + N\,d\mu = 0 \qquad\text{(Gibbs–Duhem)}:

the intensive variables are not independent.  In terms of the Hessian
:math:`\nabla^2 U`, Gibbs–Duhem is :math:`\nabla^2 U(x)\,x = 0` (the gradient is
homogeneous of degree 0).  The potentials are partial Legendre transforms with the
thermodynamic sign, :math:`U[e_k] = U - e_k x_k` (Callen §5.3), in this library
:math:`-\,\text{legendre}(U, x_k, e_k)` (:mod:`.legendre_transform`):

.. math::
    F(T, V, N) = U - TS,\qquad H(S, p, N) = U + pV,\qquad G(T, p, N) = U - TS + pV.

:func:`ideal_gas_energy` writes Callen's fundamental relation of the ideal gas (§3.4,
eq. 3.34) explicitly.  The front-end with numbers, mixtures and liquids is
:mod:`porthamiltonian.thermo.properties`; this module is the generic, symbolic tool:
any U, any names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import sympy as sp

from ..bounded import SymbolicLimit, bounded
from ..errors import ModelError
from .legendre_transform import legendre

__all__ = ["is_homogeneous", "euler_residual", "gibbs_duhem_residual", "Potentials",
           "potentials", "ideal_gas_energy"]


def _simplified(expr: sp.Expr, what: str) -> sp.Expr:
    """Simplified within the time budget (log expansion first: ideal-gas entropies)."""
    try:
        with bounded(what):
            return sp.simplify(sp.expand_log(sp.expand(expr), force=True))
    except SymbolicLimit:
        return expr


def _tidy(expr: sp.Expr) -> sp.Expr:
    """Powers and logarithms spread out and gathered again — no ``simplify``, which takes
    seconds on these: the ideal gas's F and G come out as sums of ``NRT log(…)`` terms."""
    expr = sp.powsimp(sp.powdenest(sp.expand(expr), force=True), force=True)
    return sp.expand(sp.powsimp(sp.expand_log(expr, force=True), force=True, combine="exp"))


def is_homogeneous(f: Any, variables: Sequence[sp.Symbol], degree: Any = 1) -> bool:
    r""":math:`f(\lambda x) = \lambda^{d} f(x)` for :math:`\lambda > 0` (symbolically)."""
    f = sp.sympify(f)
    lam = sp.Dummy("lambda", positive=True)
    scaled = f.xreplace({x: lam * x for x in variables})
    return _simplified(scaled - lam ** sp.sympify(degree) * f, "a homogeneity check") == 0


def euler_residual(U: Any, extensive: Sequence[sp.Symbol]) -> sp.Expr:
    r""":math:`U - \sum_k x_k\,\partial U/\partial x_k`, simplified; zero exactly when U
    is first-order homogeneous (for (S, V, N): :math:`U - (TS - pV + \mu N)`)."""
    U = sp.sympify(U)
    return _simplified(U - sum((x * sp.diff(U, x) for x in extensive), sp.S.Zero),
                       "Euler's relation")


def gibbs_duhem_residual(U: Any, extensive: Sequence[sp.Symbol]) -> sp.Matrix:
    r"""The coefficients of :math:`\sum_k x_k\,d(\partial U/\partial x_k)` on each
    :math:`dx_j` — :math:`(\nabla^2 U\,x)_j` — simplified (for (S, V, N) this is
    :math:`S\,dT - V\,dp + N\,d\mu`; zero for a first-order homogeneous U)."""
    U = sp.sympify(U)
    xs = list(extensive)
    efforts = [sp.diff(U, x) for x in xs]
    return sp.Matrix([_simplified(sum((x * sp.diff(e, xj) for x, e in
                                       zip(xs, efforts, strict=True)), sp.S.Zero),
                                  "the Gibbs–Duhem relation") for xj in xs])


@dataclass(frozen=True)
class Potentials:
    """Helmholtz ``F(T, V, N)``, enthalpy ``H(S, p, N)`` and Gibbs ``G(T, p, N)`` (J),
    with the new symbols ``T`` (K) and ``p`` (Pa)."""

    F: sp.Expr
    H: sp.Expr
    G: sp.Expr
    T: sp.Symbol
    p: sp.Symbol


def potentials(U: Any, S: sp.Symbol, V: sp.Symbol, *, T: sp.Symbol | None = None,
               p: sp.Symbol | None = None) -> Potentials:
    """F, H and G of the energy ``U(S, V, …)`` by partial Legendre transforms.

    F and H transform U in S and in V; G transforms F in V (transforms in different
    variables commute, and one variable at a time keeps SymPy's ``solve`` scalar).
    Raises :class:`~porthamiltonian.errors.ModelError` when T = ∂U/∂S or p = −∂U/∂V
    cannot be inverted in closed form.
    """
    U = sp.sympify(U)
    T = sp.Symbol("T", positive=True) if T is None else T
    p = sp.Symbol("p", positive=True) if p is None else p
    for x in (S, V):
        if x not in U.free_symbols:
            raise ModelError(f"potentials: U does not depend on {x}; give U(S, V, N) with "
                             f"the entropy and volume symbols ({S}, {V})")
    F = _tidy(-legendre(U, S, T))  # U - TS, S from T = dU/dS
    G = _tidy(-legendre(F, V, -p))  # F + pV, V from -p = dF/dV
    H = -legendre(U, V, -p)  # U + pV, V from -p = dU/dV
    H = sp.powsimp(sp.powdenest(sp.expand(H), force=True), force=True)
    return Potentials(F, H, G, T, p)


def ideal_gas_energy(S: sp.Symbol | None = None, V: sp.Symbol | None = None,
                     N: sp.Symbol | None = None) -> tuple[sp.Expr, dict[str, sp.Symbol]]:
    r"""Callen's ideal gas (§3.4, eq. 3.34) solved for U:

    .. math::
        S = N s_0 + NR\ln\Big[\Big(\frac{U}{U_0}\Big)^{c}\,\frac{V}{V_0}\,
        \Big(\frac{N}{N_0}\Big)^{-(c+1)}\Big]
        \;\Longleftrightarrow\;
        U = U_0\Big(\frac{N}{N_0}\Big)^{(c+1)/c}\Big(\frac{V}{V_0}\Big)^{-1/c}
        \exp\frac{S - N s_0}{cNR},

    with :math:`c` the dimensionless heat capacity (3/2 monatomic, 5/2 diatomic),
    :math:`R` the gas constant (J/(mol·K)), and a reference state :math:`U_0` (J),
    :math:`V_0` (m³), :math:`N_0` (mol) of molar entropy :math:`s_0` (J/(mol·K)).  Then
    :math:`U = cNRT` and :math:`pV = NRT`.  Returns U and its symbols by name
    (``S V N c R U0 V0 N0 s0``), all positive except ``s0`` (real).
    """
    S = sp.Symbol("S", real=True) if S is None else S
    V = sp.Symbol("V", positive=True) if V is None else V
    N = sp.Symbol("N", positive=True) if N is None else N
    c, R, U0, V0, N0 = sp.symbols("c R U0 V0 N0", positive=True)
    s0 = sp.Symbol("s0", real=True)
    U = U0 * (N / N0) ** ((c + 1) / c) * (V / V0) ** (-1 / c) * sp.exp((S - N * s0) / (c * N * R))
    return U, {"S": S, "V": V, "N": N, "c": c, "R": R, "U0": U0, "V0": V0, "N0": N0, "s0": s0}
