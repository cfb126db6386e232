r"""Property models: the internal energy :math:`U(S, V, N)` of simple substances.

One family covers the three models of the task, an *ideal mixture* of species
:math:`i = 1..k` with constant molar heat capacities :math:`c_i` (J/(mol·K)),
reference molar energies :math:`u_i` (J/mol) and entropies :math:`s_i` (J/(mol·K)) at
:math:`T_\mathrm{ref}` (K):

.. math::
    S = \sum_i N_i\Big[s_i + c_i \ln\frac{T}{T_\mathrm{ref}} + \Phi_i\Big],\qquad
    U = \sum_i N_i\,(u_i + c_i T),

with the configurational term :math:`\Phi_i = R\ln\big(V/(N_i v_\mathrm{ref})\big)`
for a gas (ideal mixture of ideal gases, :math:`v_\mathrm{ref}` in m³/mol) and
:math:`\Phi_i = -R\ln(N_i/N)` for an incompressible liquid (ideal solution; U does
not depend on V).  Solving the entropy for the temperature gives the fundamental
relation

.. math::
    T(S, V, N) = T_\mathrm{ref}\exp\frac{S - \sum_i N_i (s_i + \Phi_i)}{\sum_i N_i c_i},
    \qquad U(S, V, N) = \sum_i N_i u_i + \Big(\sum_i N_i c_i\Big)\,T(S, V, N).

For one gas species with :math:`u = 0` this is
:math:`U = N c_v T_\mathrm{ref}\exp\big((S/N - s_0)/c_v\big)\,(V/(N v_\mathrm{ref}))^{-R/c_v}`
(Callen, *Thermodynamics and an Introduction to Thermostatistics*, 2nd ed., 1985, §3.4),
whence :math:`T = \partial U/\partial S`, :math:`p = -\partial U/\partial V = NRT/V`,
:math:`\mu_i = \partial U/\partial N_i`.  Units: S in J/K, V in m³, N in mol, U in J.
:math:`U` is first-order homogeneous, so Euler's relation
:math:`U = TS - pV + \sum\mu_i N_i` and Gibbs–Duhem
:math:`S\,dT - V\,dp + \sum N_i\,d\mu_i = 0` hold (Callen §3.1–3.2); they are checked
symbolically by :func:`euler_residual` and :func:`gibbs_duhem_residual`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp
from scipy.constants import gas_constant

from ..energy import legendre as legendre_transform
from ..errors import ModelError

__all__ = ["PropertyModel", "ideal_gas", "incompressible_liquid", "ideal_gas_mixture",
           "ideal_solution", "R_GAS", "euler_residual", "gibbs_duhem_residual",
           "maxwell_residuals", "hessian_SV", "is_convex_at", "legendre",
           "gibbs_residual"]

#: molar gas constant (J/(mol·K)), CODATA 2018 (exact)
R_GAS = gas_constant  # J/(mol·K), CODATA 2018 (exact), from scipy.constants


@dataclass(frozen=True)
class PropertyModel:
    r"""Fundamental relation :math:`U(S, V, N_1..N_k)` of an ideal mixture.

    Attributes
    ----------
    U : sympy.Expr
        Internal energy (J) in the symbols ``S`` (J/K), ``V`` (m³), ``N`` (mol each).
    S, V : sympy.Symbol
    N : tuple of sympy.Symbol
    species : tuple of str
    C : sympy.Expr
        Heat capacity at constant volume :math:`\sum_i N_i c_i` (J/K).
    T_ref : float
        Reference temperature (K).
    values : dict
        Numbers of the parameter symbols (``c``, ``u``, ``s`` per species, ``T_ref``,
        ``v_ref``, ``R``); the expressions keep the symbols, :meth:`numeric` substitutes.
    phase : ``"gas"`` or ``"liquid"`` (a liquid's U does not depend on V, p = 0)
    """

    U: sp.Expr
    S: sp.Symbol
    V: sp.Symbol
    N: tuple[sp.Symbol, ...]
    species: tuple[str, ...]
    phase: str
    C: sp.Expr
    T_ref: float
    values: dict[sp.Symbol, float]
    _fn: dict[str, Callable[..., Any]] = field(default_factory=dict, compare=False, repr=False)

    @property
    def variables(self) -> tuple[sp.Symbol, ...]:
        """``(S, V, N_1, …, N_k)``."""
        return (self.S, self.V, *self.N)

    @property
    def T(self) -> sp.Expr:
        """Temperature :math:`T = \\partial U/\\partial S` (K)."""
        return sp.diff(self.U, self.S)

    @property
    def p(self) -> sp.Expr:
        """Pressure :math:`p = -\\partial U/\\partial V` (Pa)."""
        return -sp.diff(self.U, self.V)

    @property
    def mu(self) -> tuple[sp.Expr, ...]:
        """Chemical potentials :math:`\\mu_i = \\partial U/\\partial N_i` (J/mol)."""
        return tuple(sp.diff(self.U, n) for n in self.N)

    def numeric(self, what: str) -> Callable[..., Any]:
        """A NumPy function of ``(S, V, *N)`` for ``"U"``, ``"T"``, ``"p"`` or ``"mu"``
        (the last returns an array of the k potentials)."""
        if what not in self._fn:
            expr: Any = {"U": self.U, "T": self.T, "p": self.p,
                         "mu": sp.Matrix(self.mu)}.get(what)
            if expr is None:
                raise ModelError(f"unknown property {what!r}; use 'U', 'T', 'p' or 'mu'")
            self._fn[what] = sp.lambdify(self.variables, expr.subs(self.values), "numpy")
        return self._fn[what]

    def entropy_at(self, T: float, V: float, N: Sequence[float]) -> float:
        r"""The entropy (J/K) at which the temperature is ``T`` (K) at ``V`` (m³), ``N``
        (mol): :math:`S = C\ln(T/T(0, V, N))`, :math:`C = \sum_i N_i c_i` (closed form)."""
        T0 = float(self.numeric("T")(0.0, V, *N))
        C = float(sp.lambdify(self.N, self.C.subs(self.values))(*N))
        return float(C * np.log(T / T0))


def _mixture(species: Sequence[str], c: Sequence[float], u: Sequence[float] | None,
             s: Sequence[float] | None, T_ref: float, phase: str, v_ref: float,
             R: float) -> PropertyModel:
    k = len(species)
    if k == 0 or len(c) != k:
        raise ModelError(f"give one heat capacity per species: {len(c)} for {k} species")
    if any(float(ci) <= 0 for ci in c) or T_ref <= 0 or v_ref <= 0:
        raise ModelError("heat capacities, T_ref and v_ref must be positive")
    u = [0.0] * k if u is None else list(u)
    s = [0.0] * k if s is None else list(s)
    S, V = sp.symbols("S V", positive=True)
    one = k == 1
    N = tuple(sp.Symbol("N" if one else f"N_{n}", positive=True) for n in species)
    cs = tuple(sp.Symbol("c" if one else f"c_{n}", positive=True) for n in species)
    us = tuple(sp.Symbol("u" if one else f"u_{n}", real=True) for n in species)
    ss = tuple(sp.Symbol("s" if one else f"s_{n}", real=True) for n in species)
    Tr, vr, Rs = sp.symbols("T_ref v_ref R", positive=True)
    values = {Tr: float(T_ref), vr: float(v_ref), Rs: float(R)}
    values.update({a: float(b) for a, b in zip(cs, c, strict=True)})
    values.update({a: float(b) for a, b in zip(us, u, strict=True)})
    values.update({a: float(b) for a, b in zip(ss, s, strict=True)})
    Ntot = sum(N, sp.S.Zero)
    if phase == "gas":
        phi = [Rs * sp.log(V / (n * vr)) for n in N]
    else:
        phi = [sp.S.Zero if one else -Rs * sp.log(n / Ntot) for n in N]
    C = sum((ci * n for ci, n in zip(cs, N, strict=True)), sp.S.Zero)
    ref = sum((n * (si + f) for n, si, f in zip(N, ss, phi, strict=True)), sp.S.Zero)
    T = Tr * sp.exp((S - ref) / C)
    U = sum((ui * n for ui, n in zip(us, N, strict=True)), sp.S.Zero) + C * T
    return PropertyModel(U, S, V, N, tuple(species), phase, C, float(T_ref), values)


def ideal_gas(c_v: float = 1.5 * R_GAS, *, s0: float = 0.0, T_ref: float = 298.15,
              v_ref: float = 0.024465, R: float = R_GAS, name: str = "gas") -> PropertyModel:
    r"""Ideal gas: :math:`U = N c_v T_\mathrm{ref}\, e^{(S/N - s_0)/c_v}
    (V/(N v_\mathrm{ref}))^{-R/c_v}` (J); ``c_v`` in J/(mol·K) (default monatomic),
    ``s0`` the molar entropy (J/(mol·K)) at ``T_ref`` (K) and molar volume ``v_ref`` (m³/mol,
    default :math:`RT_\mathrm{ref}/p^\circ` at 1 bar)."""
    return _mixture([name], [c_v], None, [s0], T_ref, "gas", v_ref, R)


def incompressible_liquid(c: float = 75.3, *, s0: float = 0.0, T_ref: float = 298.15,
                          u0: float = 0.0, name: str = "liquid") -> PropertyModel:
    r"""Incompressible liquid: :math:`U(S, N) = N u_0 + N c\,T_\mathrm{ref}\,
    e^{(S/N - s_0)/c}` (J), ``c`` in J/(mol·K) (default water); independent of V
    (p = 0: the pressure of an incompressible body is not a state function)."""
    return _mixture([name], [c], [u0], [s0], T_ref, "liquid", 1.0, R_GAS)


def ideal_gas_mixture(species: Sequence[str], c_v: Sequence[float], *,
                      u: Sequence[float] | None = None, s: Sequence[float] | None = None,
                      T_ref: float = 298.15, v_ref: float = 0.024465,
                      R: float = R_GAS) -> PropertyModel:
    """Ideal mixture of ideal gases (see the module docstring); one ``c_v``, ``u``, ``s``
    per species (J/(mol·K), J/mol, J/(mol·K))."""
    return _mixture(species, c_v, u, s, T_ref, "gas", v_ref, R)


def ideal_solution(species: Sequence[str], c: Sequence[float], *,
                   u: Sequence[float] | None = None, s: Sequence[float] | None = None,
                   T_ref: float = 298.15, R: float = R_GAS) -> PropertyModel:
    """Ideal solution of incompressible liquids (mixing entropy −R Σ Nᵢ ln xᵢ)."""
    return _mixture(species, c, u, s, T_ref, "liquid", 1.0, R)


# ---------------------------------------------------------------- identities (symbolic)
def euler_residual(model: PropertyModel) -> sp.Expr:
    r""":math:`U - (TS - pV + \sum_i\mu_i N_i)`, simplified (zero: U is first-order
    homogeneous)."""
    m = model
    rhs = m.T * m.S - m.p * m.V + sum((mu * n for mu, n in zip(m.mu, m.N, strict=True)),
                                      sp.S.Zero)
    return sp.simplify(sp.expand_log(m.U - rhs, force=True))


def gibbs_duhem_residual(model: PropertyModel) -> sp.Matrix:
    r"""The gradient in :math:`(S, V, N)` of the Gibbs–Duhem form
    :math:`S\,dT - V\,dp + \sum_i N_i\,d\mu_i`, simplified (zero)."""
    m = model
    out = [m.S * sp.diff(m.T, v) - m.V * sp.diff(m.p, v)
           + sum((n * sp.diff(mu, v) for n, mu in zip(m.N, m.mu, strict=True)), sp.S.Zero)
           for v in m.variables]
    return sp.Matrix([sp.simplify(e) for e in out])


def maxwell_residuals(model: PropertyModel) -> dict[str, sp.Expr]:
    r"""The Maxwell relations of U: :math:`(\partial T/\partial V)_{S,N} =
    -(\partial p/\partial S)_{V,N}`, :math:`(\partial T/\partial N_i) =
    (\partial\mu_i/\partial S)`, :math:`-(\partial p/\partial N_i) =
    (\partial\mu_i/\partial V)`; each residual simplified (zero)."""
    m = model
    out = {"dT/dV + dp/dS": sp.simplify(sp.diff(m.T, m.V) + sp.diff(m.p, m.S))}
    for n, mu in zip(m.N, m.mu, strict=True):
        out[f"dT/d{n} - dmu/dS"] = sp.simplify(sp.diff(m.T, n) - sp.diff(mu, m.S))
        out[f"dp/d{n} + dmu/dV"] = sp.simplify(sp.diff(m.p, n) + sp.diff(mu, m.V))
    return out


def hessian_SV(model: PropertyModel) -> sp.Matrix:
    r"""Hessian of U in :math:`(S, V)` at fixed N.  Intrinsic stability asks for it to be
    positive definite (Callen §8.1); for the ideal gas :math:`U_{SS} = T/C_V > 0` and
    :math:`\det = Tp/(C_V V) = RT^2/(c_v V^2) > 0` (:math:`C_V = Nc_v`).  For a liquid
    only :math:`U_{SS} > 0` applies (U does not depend on V)."""
    m = model
    return sp.hessian(m.U, (m.S, m.V))


def is_convex_at(model: PropertyModel, S: float, V: float, N: Sequence[float]) -> bool:
    """Positive-definite (S, V) Hessian (gas) or :math:`U_{SS} > 0` (liquid) at a point."""
    Hf = sp.lambdify(model.variables, hessian_SV(model).subs(model.values), "numpy")
    Hm = np.asarray(Hf(S, V, *N), dtype=float)
    if model.phase == "liquid":
        return bool(Hm[0, 0] > 0)
    return bool(np.all(np.linalg.eigvalsh(Hm) > 0))


def legendre(model: PropertyModel, kind: str) -> tuple[sp.Expr, tuple[sp.Symbol, ...]]:
    r"""A Legendre transform of U in its natural variables, one variable at a time by
    :func:`porthamiltonian.energy.legendre` (the derivative inverted in closed form):

    - ``"F"`` Helmholtz :math:`F(T, V, N) = U - TS` (S solved from :math:`T = U_S`);
    - ``"H"`` enthalpy :math:`H(S, p, N) = U + pV` (V from :math:`p = -U_V`, gas);
    - ``"G"`` Gibbs :math:`G(T, p, N) = U - TS + pV` (S and V from both, gas).

    Returns the expression and its natural variables (``T``, ``p`` new positive symbols).
    """
    m = model
    T, p = sp.symbols("T p", positive=True)
    if kind not in ("F", "H", "G"):
        raise ModelError(f"unknown potential {kind!r}; use 'F', 'H' or 'G'")
    if kind != "F" and m.phase != "gas":
        raise ModelError(f"{kind}: the pressure is not a state function of a liquid "
                         "(U does not depend on V); use 'F'")

    def tidy(e: sp.Expr) -> sp.Expr:
        return sp.expand(sp.expand_log(e, force=True))

    # one variable at a time (porthamiltonian.energy.legendre: E* = e q - E)
    F = tidy(-legendre_transform(m.U, m.S, T))  # U - TS, S from T = U_S
    if kind == "F":
        return F, (T, m.V, *m.N)
    G = tidy(-legendre_transform(F, m.V, -p))  # F + pV, V from p = -F_V
    if kind == "G":
        return G, (T, p, *m.N)
    return tidy(-legendre_transform(G, T, -m.S)), (m.S, p, *m.N)  # G + TS, T from S = -G_T


# ---------------------------------------------------------------- along a trajectory
def gibbs_residual(model: PropertyModel, trajectory: Any) -> np.ndarray:
    r"""Per-step residual of the Gibbs relation :math:`dU = T\,dS - p\,dV + \sum\mu_i dN_i`.

    ``trajectory`` is an array of rows ``(S, V, N_1..N_k)`` (J/K, m³, mol).  For each
    step the residual is :math:`\Delta U - \bar T\Delta S + \bar p\Delta V -
    \bar\mu\cdot\Delta N` with the co-energies averaged by Simpson's rule over the step
    (ends and midpoint of the straight segment), so it is :math:`O(|\Delta x|^5)`:
    a smooth trajectory gives round-off-sized residuals, a jump shows at once.  Returns
    the residuals (J), one per step.
    """
    x = np.atleast_2d(np.asarray(trajectory, dtype=float))
    if x.shape[1] != len(model.variables):
        raise ModelError(f"trajectory rows must be (S, V, N...) with {len(model.variables)} "
                         f"columns; got {x.shape[1]}")
    Uf, Tf, pf, muf = (model.numeric(k) for k in ("U", "T", "p", "mu"))

    def co(z: np.ndarray) -> np.ndarray:
        cols = z.T
        mu = np.asarray(muf(*cols), dtype=float).reshape(len(model.N), -1)
        T = np.broadcast_to(np.asarray(Tf(*cols), dtype=float), (z.shape[0],))
        p = np.broadcast_to(np.asarray(pf(*cols), dtype=float), (z.shape[0],))
        return np.column_stack([T, -p, mu.T])

    a, b = x[:-1], x[1:]
    e = (co(a) + 4.0 * co(0.5 * (a + b)) + co(b)) / 6.0
    U = np.broadcast_to(np.asarray(Uf(*x.T), dtype=float), (x.shape[0],))
    return np.diff(U) - np.sum(e * (b - a), axis=1)
