r"""Brayton–Moser form of an RLC network: its mixed potential and gradient equations.

Brayton & Moser (*A theory of nonlinear networks I*, Quart. Appl. Math. 22, 1964) write
a topologically complete RLC network in its inductor currents :math:`i` and capacitor
voltages :math:`v` as a gradient system of one scalar function, the *mixed potential*
:math:`P(i, v)`:

.. math::
    L\,\frac{di}{dt} = -\frac{\partial P}{\partial i},\qquad
    C\,\frac{dv}{dt} = \frac{\partial P}{\partial v},

(the sign convention of Jeltsema & Scherpen, *Multidomain modeling of nonlinear
networks and systems*, IEEE Control Systems Magazine 29(4), 2009, §"Brayton–Moser";
Duindam et al. 2009, ch. 2), with
:math:`P = \text{content of the current-controlled resistors} - \text{co-content of the
voltage-controlled ones} + i^\top \Gamma v` plus the sources' terms.

Derivation from the port-Hamiltonian model
------------------------------------------
We do not walk the circuit's trees and links: the explicit port-Hamiltonian model
(:func:`porthamiltonian.bondgraph.generate.to_phs` or ``Network.system``) already
holds the topology.  Order the states as :math:`x = (\phi, q)` (inductor flux
linkages, capacitor charges) and write :math:`B = G - P_{\rm ph}` (the PHS's input
matrices).  With linear storages, :math:`\nabla H = (i, v)`, :math:`\phi = L i`,
:math:`q = C v`, so :math:`\dot x = (J - R)\nabla H + B u` reads

.. math::
    L\,\dot i &= (J_{LL} - R_{LL})\, i + (J_{LC} - R_{LC})\, v + B_L u, \\
    C\,\dot v &= (J_{CL} - R_{CL})\, i + (J_{CC} - R_{CC})\, v + B_C u .

The right-hand sides :math:`(-L\dot i, C\dot v)` are the gradient of one function of
:math:`(i, v)` exactly when their Jacobian is symmetric, i.e. when

.. math::
    J_{LL} = 0,\qquad J_{CC} = 0,\qquad R_{LC} = 0

(:math:`J_{CL} = -J_{LC}^\top` holds already).  A reciprocal network (resistors,
ideal transformers, Kirchhoff's laws) satisfies all three: its inductor currents are
coupled among themselves only through resistors, and so are its capacitor voltages.
Then

.. math::
    P(i, v, u) = \tfrac12\, i^\top R_{LL}\, i - \tfrac12\, v^\top R_{CC}\, v
                 - i^\top J_{LC}\, v - i^\top B_L\, u + v^\top B_C\, u,

and :math:`-\partial P/\partial i = R`-, :math:`J`- and source terms of
:math:`L\dot i` above, :math:`\partial P/\partial v` those of :math:`C\dot v`.
Reading the terms: :math:`\tfrac12 i^\top R_{LL} i` is the content of the resistors in
series with inductors (:math:`\tfrac12 R i^2`), :math:`-\tfrac12 v^\top R_{CC} v` minus
the co-content of the conductances across capacitors (:math:`\tfrac12 v^2/R`),
:math:`-i^\top J_{LC} v = i^\top\Gamma v` the L–C interconnection
(:math:`\Gamma = -J_{LC}`, entries 0, ±1 or transformer ratios).

Sources: a voltage source :math:`u` in series with an inductor contributes
:math:`-u\,i` (the content of a branch of constant voltage), a current source
:math:`u` into a capacitor node :math:`+u\,v`.  :math:`P` is unique up to a function
of :math:`u` alone, which changes no gradient; we take the representative without such
terms.  For a series RLC driven by :math:`u`: :math:`P = \tfrac12 R i^2 + i v - u i`,
giving :math:`L\dot i = u - R i - v`, :math:`C\dot v = i`.

Scope, said plainly: linear storages (quadratic :math:`H` without inductor–capacitor
cross terms) and linear, constant resistors; the bond graph has no current- or
voltage-controlled nonlinear resistor law, so no nonlinear content appears.  Where the
mixed potential does not exist — a gyrator that couples two inductors (or two
capacitors), a modulated element, a nonlinear storage, a constrained (descriptor)
model — :func:`brayton_moser` raises :class:`~porthamiltonian.errors.ModelError`
naming the storages at fault.  Any energy domain works (a "current" is a momentum
state's co-energy, a "voltage" a displacement state's); the names follow the
electrical case.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from ..descriptor import DescriptorPHS
from ..errors import ModelError
from ..phs import PHS
from ..quantities import DOMAINS

__all__ = ["BraytonMoser", "brayton_moser"]


@dataclass(frozen=True)
class BraytonMoser:
    r"""The Brayton–Moser form :math:`L\dot i = -\partial P/\partial i`,
    :math:`C\dot v = \partial P/\partial v` of a network (module docstring).

    ``currents`` and ``voltages`` are SymPy symbols named after the storages'
    co-energies (``L1.i``, ``C1.v``); ``inputs`` the system's input symbols;
    ``L`` and ``C`` the inductance and capacitance matrices (:math:`\phi = L i`,
    :math:`q = C v`) in the parameters; ``P`` the mixed potential.  The co-energy
    vector of :meth:`rhs` is :math:`z = (i, v)`; :meth:`to_states` maps it to the
    state vector of ``system`` (``current_states`` and ``voltage_states`` name where
    each entry goes).
    """

    P: sp.Expr
    currents: tuple[sp.Symbol, ...]
    voltages: tuple[sp.Symbol, ...]
    inputs: tuple[sp.Symbol, ...]
    L: sp.ImmutableMatrix
    C: sp.ImmutableMatrix
    current_states: tuple[str, ...]
    voltage_states: tuple[str, ...]
    system: PHS = field(repr=False)

    @property
    def coenergies(self) -> tuple[sp.Symbol, ...]:
        """:math:`z = (i, v)`, the order of :meth:`rhs`."""
        return self.currents + self.voltages

    def gradient(self) -> tuple[sp.Matrix, sp.Matrix]:
        """:math:`(\\partial P/\\partial i, \\partial P/\\partial v)`."""
        P = sp.Matrix([self.P])
        return (P.jacobian(list(self.currents)).T if self.currents else sp.zeros(0, 1),
                P.jacobian(list(self.voltages)).T if self.voltages else sp.zeros(0, 1))

    def equations(self) -> tuple[sp.Eq, sp.Eq]:
        """``(Eq(L·di/dt, −∂P/∂i), Eq(C·dv/dt, ∂P/∂v))``; the time derivatives are
        symbols named ``d(L1.i)/dt``."""
        dP_di, dP_dv = self.gradient()
        di = sp.Matrix([sp.Symbol(f"d({s})/dt") for s in self.currents])
        dv = sp.Matrix([sp.Symbol(f"d({s})/dt") for s in self.voltages])
        return (sp.Eq(sp.Matrix(self.L) * di, -dP_di, evaluate=False),
                sp.Eq(sp.Matrix(self.C) * dv, dP_dv, evaluate=False))

    def rhs_expr(self) -> sp.Matrix:
        """:math:`\\dot z = (-L^{-1}\\partial P/\\partial i,\\ C^{-1}\\partial P/\\partial v)`."""
        dP_di, dP_dv = self.gradient()
        return sp.Matrix.vstack(-sp.Matrix(self.L).inv() * dP_di,
                                sp.Matrix(self.C).inv() * dP_dv)

    def numeric(self) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
        """A NumPy function ``f(z, u) → ż`` with the parameters' values substituted."""
        return _lambdified(self)

    def rhs(self, z: Any, u: Any = None) -> np.ndarray:
        """:math:`\\dot z` at co-energies ``z = (i, v)`` and input ``u`` (default 0)."""
        u = np.zeros(len(self.inputs)) if u is None else np.atleast_1d(np.asarray(u, float))
        return self.numeric()(np.asarray(z, dtype=float), u)

    def ode(self, u: Any = None) -> Callable[[float, np.ndarray], np.ndarray]:
        """``f(t, z)`` for :func:`scipy.integrate.solve_ivp`; ``u`` a constant, a vector
        or a function of time (default 0)."""
        f = self.numeric()
        m = len(self.inputs)
        if callable(u):
            return lambda t, z: f(z, np.atleast_1d(np.asarray(u(t), float)))
        uc = np.zeros(m) if u is None else np.broadcast_to(np.asarray(u, float), (m,)).copy()
        return lambda t, z: f(z, uc)

    def to_states(self, z: Any) -> np.ndarray:
        """The PHS state ``x`` (flux linkages ``L i``, charges ``C v``, in the order of
        ``system.states``) of co-energies ``z`` (one per row for a trajectory)."""
        z = np.asarray(z, dtype=float)
        Ln, Cn = (_numeric_matrix(self, M) for M in (self.L, self.C))
        ni = len(self.currents)
        flux, charge = z[..., :ni] @ Ln.T, z[..., ni:] @ Cn.T
        order = {s: k for k, s in enumerate(self.system.states)}
        x = np.empty(z.shape)
        for k, s in enumerate(self.current_states):
            x[..., order[s]] = flux[..., k]
        for k, s in enumerate(self.voltage_states):
            x[..., order[s]] = charge[..., k]
        return x

    def from_states(self, x: Any) -> np.ndarray:
        """The co-energies ``z = (i, v)`` of PHS states ``x`` (inverse of :meth:`to_states`)."""
        x = np.asarray(x, dtype=float)
        order = {s: k for k, s in enumerate(self.system.states)}
        idx = [order[s] for s in self.current_states + self.voltage_states]
        Ln, Cn = (_numeric_matrix(self, M) for M in (self.L, self.C))
        ni = len(self.currents)
        xs = x[..., idx]
        return np.concatenate([np.linalg.solve(Ln, xs[..., :ni].T).T if ni else xs[..., :0],
                               np.linalg.solve(Cn, xs[..., ni:].T).T if xs.shape[-1] > ni
                               else xs[..., :0]], axis=-1)


# ---------------------------------------------------------------------- building it
def brayton_moser(model: Any, *, storages: Mapping[str, str] | None = None) -> BraytonMoser:
    """The mixed potential and gradient equations of an RLC network.

    Parameters
    ----------
    model : BondGraph, Network or PHS
        A bond graph (:class:`porthamiltonian.bondgraph.BondGraph`), a component
        network (:class:`porthamiltonian.network.Network`) or an explicit PHS from
        either.  Bond graphs and networks are generated symbolically, so ``P`` is in
        their parameter symbols.
    storages : mapping, optional
        ``{state: "I" | "C"}`` for a PHS without quantities: which states are
        momenta (inductor flux linkages, co-energy a current) and which are
        displacements (charges, co-energy a voltage).  Default: read from
        ``system.quantities``.

    Raises
    ------
    ModelError
        When no mixed potential exists or the model is outside the scope of the
        module docstring (nonlinear or coupled storages, state-modulated
        structure, inductors or capacitors coupled by a gyrator, a descriptor model),
        naming the states at fault.
    """
    sys = _explicit_system(model)
    kinds = _storage_kinds(sys, storages)
    xs = list(sys.state_symbols)
    name_of = dict(zip(xs, sys.states, strict=True))
    iL = [k for k, s in enumerate(sys.states) if kinds[s] == "I"]
    iC = [k for k, s in enumerate(sys.states) if kinds[s] == "C"]
    mats = {k: sp.Matrix(v) for k, v in sys.matrices().items()}
    _require_constant(mats, xs, sys.name)
    Q = _stiffness(sys, xs, iL, iC, name_of)
    J, R, B = mats["J"], mats["R"], mats["G"] - mats["P"]

    def block(M: sp.Matrix, rows: list[int], cols: list[int]) -> sp.Matrix:
        return M.extract(rows, cols) if rows and cols else sp.zeros(len(rows), len(cols))

    for what, rows, cols, M in (("J", iL, iL, J), ("J", iC, iC, J), ("R", iL, iC, R)):
        _require_zero(block(M, rows, cols), what, [sys.states[k] for k in rows],
                      [sys.states[k] for k in cols], sys.name)
    info = sys.quantities.states if sys.quantities is not None else {}
    currents = tuple(_coenergy_symbol(sys.states[k], info, "i") for k in iL)
    voltages = tuple(_coenergy_symbol(sys.states[k], info, "v") for k in iC)
    i, v = sp.Matrix(currents), sp.Matrix(voltages)
    u = sp.Matrix(sys.input_symbols)
    terms = sp.zeros(1, 1)
    if iL:
        terms += (i.T * block(R, iL, iL) * i) / 2 - i.T * block(B, iL, list(range(len(u)))) * u
    if iC:
        terms += -(v.T * block(R, iC, iC) * v) / 2 + v.T * block(B, iC, list(range(len(u)))) * u
    if iL and iC:
        terms += -i.T * block(J, iL, iC) * v
    P = sp.expand(terms[0, 0])
    L = block(Q, iL, iL).inv() if iL else sp.zeros(0, 0)
    C = block(Q, iC, iC).inv() if iC else sp.zeros(0, 0)
    return BraytonMoser(P, currents, voltages, tuple(sys.input_symbols),
                        sp.ImmutableMatrix(sp.simplify(L)), sp.ImmutableMatrix(sp.simplify(C)),
                        tuple(sys.states[k] for k in iL), tuple(sys.states[k] for k in iC),
                        sys)


def _explicit_system(model: Any) -> PHS:
    from ..bondgraph.generate import to_phs
    from ..bondgraph.graph import BondGraph
    from .network import Network

    if isinstance(model, BondGraph):
        sys = to_phs(model, symbolic=True)
    elif isinstance(model, Network):
        sys = model.system(symbolic=True)
    else:
        sys = model
    if isinstance(sys, DescriptorPHS):
        raise ModelError(
            f"{sys.name!r} is a constrained (descriptor) model: its storages are not "
            "independent, so currents and voltages are not free coordinates of a mixed "
            "potential; merge the dependent storages (e.g. parallel capacitors into one) "
            "or use a model with an explicit form")
    if not isinstance(sys, PHS):
        raise ModelError(f"brayton_moser takes a BondGraph, a Network or a PHS, not "
                         f"{type(model).__name__}")
    return sys


def _storage_kinds(sys: PHS, given: Mapping[str, str] | None) -> dict[str, str]:
    """``{state: "I" | "C"}``: momentum-like (co-energy a flow) or displacement-like."""
    if given is not None:
        kinds = {s: str(k).upper() for s, k in given.items()}
        missing = [s for s in sys.states if kinds.get(s) not in ("I", "C")]
        if missing:
            raise ModelError(f"storages= must give 'I' or 'C' for every state of "
                             f"{sys.name!r}; missing or invalid: {', '.join(missing)}")
        return kinds
    info = sys.quantities.states if sys.quantities is not None else {}
    kinds = {}
    for s in sys.states:
        st = info.get(s)
        for d in DOMAINS.values():
            if st is not None and st.quantity == d.momentum and st.coenergy == d.flow:
                kinds[s] = "I"
            elif st is not None and st.quantity == d.displacement and st.coenergy == d.effort:
                kinds[s] = "C"
        if s not in kinds:
            raise ModelError(
                f"state {s!r} of {sys.name!r}: it is not known whether it is an inductor "
                "flux (momentum) or a capacitor charge (displacement); pass "
                f"storages={{{s!r}: 'I' or 'C', ...}}")
    return kinds


def _require_constant(mats: Mapping[str, sp.Matrix], xs: Sequence[sp.Symbol],
                      name: str) -> None:
    states = set(xs)
    for key in ("J", "R", "G", "P"):
        dep = sorted(map(str, mats[key].free_symbols & states))
        if dep:
            raise ModelError(
                f"{name!r}: the matrix {key} depends on the state(s) {', '.join(dep)} "
                "(a modulated element: MTF, MGY, MR, a switch); the mixed potential is "
                "built here for constant structure and linear resistors only")


def _stiffness(sys: PHS, xs: list[sp.Symbol], iL: list[int], iC: list[int],
               name_of: Mapping[sp.Symbol, str]) -> sp.Matrix:
    """The constant Hessian of ``H``; refuses nonlinear or L–C-coupled storages."""
    H = sys.hamiltonian
    Q = sp.hessian(H, xs) if xs else sp.zeros(0, 0)
    dep = sorted(map(str, Q.free_symbols & set(xs)))
    if dep:
        raise ModelError(
            f"{sys.name!r}: the energy is not quadratic in {', '.join(dep)} (a nonlinear "
            "storage); the mixed potential is built here for linear inductors and "
            "capacitors only")
    for a in iL:
        for b in iC:
            if Q[a, b] != 0:
                raise ModelError(
                    f"{sys.name!r}: the energy couples the inductor state "
                    f"{name_of[xs[a]]!r} and the capacitor state {name_of[xs[b]]!r} "
                    f"(∂²H = {Q[a, b]}); Brayton–Moser needs separate magnetic and "
                    "electric energies")
    return Q


def _require_zero(M: sp.Matrix, what: str, rows: list[str], cols: list[str],
                  name: str) -> None:
    for r in range(M.rows):
        for c in range(M.cols):
            if sp.simplify(M[r, c]) != 0:
                pair = f"{rows[r]!r} and {cols[c]!r}"
                entry = f"{float(M[r, c]):g}" if M[r, c].is_number else str(M[r, c])
                why = ("a gyrator (or another non-reciprocal coupling) joins them, so "
                       "the network is not reciprocal" if what == "J" else
                       "a resistive coupling between a current and a voltage that is "
                       "not reciprocal")
                raise ModelError(
                    f"{name!r}: no mixed potential: {what}[{rows[r]}, {cols[c]}] = "
                    f"{entry} couples the storages {pair} — {why}. Brayton–Moser needs "
                    "inductors coupled to inductors and capacitors to capacitors only "
                    "through resistors (J_LL = 0, J_CC = 0, R_LC = 0); replace the "
                    "gyrator by its dual circuit (an inductor seen through a gyrator is a "
                    "capacitor)")


def _coenergy_symbol(state: str, info: Mapping[str, Any], fallback: str) -> sp.Symbol:
    st = info.get(state)
    return sp.Symbol(st.coenergy_name if st is not None else f"{state}.{fallback}")


def _numeric_matrix(bm: BraytonMoser, M: sp.MatrixBase) -> np.ndarray:
    values = bm.system.parameter_values()
    out = sp.Matrix(M).xreplace(values)
    if out.free_symbols:
        raise ModelError(f"{bm.system.name!r}: parameter(s) "
                         f"{', '.join(sorted(map(str, out.free_symbols)))} have no value; "
                         "give them values to evaluate numerically")
    return np.array(out.tolist(), dtype=float).reshape(M.shape)


def _lambdified(bm: BraytonMoser) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    hit = bm.__dict__.get("_numeric")
    if hit is not None:
        return hit
    values = bm.system.parameter_values()
    expr = bm.rhs_expr().xreplace(values)
    z, u = list(bm.coenergies), list(bm.inputs)
    left = expr.free_symbols - set(z) - set(u)
    if left:
        raise ModelError(f"{bm.system.name!r}: parameter(s) "
                         f"{', '.join(sorted(map(str, left)))} have no value; give them "
                         "values to simulate")
    zz, uu = sp.MatrixSymbol("z", len(z), 1), sp.MatrixSymbol("u", max(len(u), 1), 1)
    sub = {s: zz[k, 0] for k, s in enumerate(z)} | {s: uu[k, 0] for k, s in enumerate(u)}
    raw = sp.lambdify((zz, uu), expr.xreplace(sub), modules="numpy")

    def f(zv: np.ndarray, uv: np.ndarray) -> np.ndarray:
        uv = np.asarray(uv, float).reshape(-1, 1) if len(u) else np.zeros((1, 1))
        return np.asarray(raw(np.asarray(zv, float).reshape(-1, 1), uv),
                          dtype=float).reshape(-1)

    object.__setattr__(bm, "_numeric", f)  # derived from the frozen value: never stale
    return f
