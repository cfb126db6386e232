r"""Integrability (closedness) of a state-modulated Dirac structure: the Courant tensor.

A modulated Dirac structure :math:`D(x) \subset T_xM \oplus T^*_xM` on the state space
:math:`M` (flows :math:`f \in T_xM`, efforts :math:`e \in T^*_xM`) is *integrable*, or
*closed*, when the Courant bracket of two sections of :math:`D` is again a section of
:math:`D` (Courant, *Dirac manifolds*, Trans. AMS 319, 1990).  Equivalently (Dalsmo &
van der Schaft, *On representations and integrability of mathematical structures in
energy-conserving physical systems*, SIAM J. Control Optim. 37(1), 1998, §5) the
tensor

.. math::
    T(X_1,\alpha_1;\,X_2,\alpha_2;\,X_3,\alpha_3) =
    \langle L_{X_1}\alpha_2, X_3\rangle + \langle L_{X_2}\alpha_3, X_1\rangle
    + \langle L_{X_3}\alpha_1, X_2\rangle

vanishes for all sections :math:`(X_k, \alpha_k)` of :math:`D`.  On :math:`D` it is
:math:`C^\infty(M)`-linear and skew in its three arguments, so it suffices to evaluate
it on the triples of a local frame.  In coordinates, with :math:`\partial v` the
Jacobian :math:`(\partial v)_{jl} = \partial v_j / \partial x_l`,

.. math::
    \langle L_X\alpha, Y\rangle = Y^\top (\partial\alpha)\, X + \alpha^\top (\partial X)\, Y .

Frame.  From the kernel form :math:`F(x) f + E(x) e = 0` the rows give sections
:math:`(X_r, \alpha_r) = (E_r^\top, F_r^\top)` of :math:`D = D^\perp`; a generically
independent set of ``n`` rows is a local frame.  Whether flows are counted into the
structure (:math:`f = -\dot x`, the library's convention) or out of it does not
matter: every term of :math:`T` holds two vector fields, so :math:`T` is unchanged by
:math:`X \mapsto -X`.

Special cases (both checked in the tests against independent computations):

* :math:`D` the graph of a skew :math:`J(x)` (:meth:`DiracStructure.from_skew`):
  integrable iff :math:`\{F, G\} = \nabla F^\top J \nabla G` satisfies the Jacobi
  identity (a Poisson structure); :func:`jacobi_identity` tests that directly.
* :math:`D` of a mechanical system with kinematic constraints :math:`A(q)^\top\dot q = 0`
  on the canonical :math:`(q, p)`: integrable iff the constraints are holonomic
  (the distribution :math:`\ker A^\top` is involutive, Frobenius; van der Schaft &
  Maschke, Rep. Math. Phys. 34, 1994).

Scope: :math:`D` must live on the energy-storing ports only, one port per state (the
state space's :math:`TM \oplus T^*M`); structures with resistive or external ports
are refused — compose those away first.  Entries may depend on the states and on
parameters (held constant).  Zero tests are symbolic, with a numeric pre-test at random
points (:func:`._linalg.sym_is_zero`): statements hold for generic states.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import sympy

from ..errors import ModelError
from . import _linalg as la
from ._protocol import Structure

__all__ = ["IntegrabilityResult", "courant_tensor", "is_integrable", "jacobi_identity"]


@dataclass(frozen=True)
class IntegrabilityResult:
    """Outcome of an integrability test.

    ``integrable`` is the answer; ``terms`` maps each triple (of frame sections, or of
    coordinates for :func:`jacobi_identity`) whose tensor does not vanish to its
    simplified value; ``sections`` names the members of the frame, and ``what`` says
    which quantity was tested.
    """

    integrable: bool
    terms: dict[tuple[str, str, str], sympy.Expr] = field(default_factory=dict)
    sections: dict[str, str] = field(default_factory=dict)
    what: str = "Courant tensor T"

    def __bool__(self) -> bool:
        return self.integrable

    def __str__(self) -> str:
        if self.integrable:
            return f"integrable: the {self.what} vanishes identically"
        lines = [f"not integrable: the {self.what} is non-zero on {len(self.terms)} "
                 f"triple(s):"]
        lines += [f"  ({', '.join(k)}): {v}" for k, v in self.terms.items()]
        if self.sections:
            lines.append("sections (X; α):")
            lines += [f"  {k} = {v}" for k, v in self.sections.items()]
        return "\n".join(lines)


def courant_tensor(s1: tuple[Any, Any], s2: tuple[Any, Any], s3: tuple[Any, Any],
                   x: Sequence[sympy.Symbol]) -> sympy.Expr:
    """:math:`T` of three sections ``(X, α)`` (SymPy column vectors in ``x``)."""
    x = list(x)

    def lie(X: sympy.Matrix, a: sympy.Matrix, Y: sympy.Matrix) -> sympy.Expr:
        return (Y.T * a.jacobian(x) * X + a.T * X.jacobian(x) * Y)[0, 0]

    (X1, a1), (X2, a2), (X3, a3) = ((sympy.Matrix(X), sympy.Matrix(a)) for X, a in (s1, s2, s3))
    return lie(X1, a2, X3) + lie(X2, a3, X1) + lie(X3, a1, X2)


def is_integrable(D: Structure, states: Sequence[Any],
                  ports: Sequence[str] | None = None) -> IntegrabilityResult:
    """Whether the modulated Dirac structure ``D`` is integrable (module docstring).

    Parameters
    ----------
    D : DiracStructure
        Its entries functions of the states (and of parameters, held constant).
    states : sequence of SymPy symbols or names
        The coordinates :math:`x` of the state space, one per storage port.
    ports : sequence of str, optional
        The ports of ``D`` that carry :math:`(\\dot x_k, \\partial H/\\partial x_k)`, in
        the order of ``states``.  Default: the ports of ``D`` in their order.

    Raises
    ------
    ModelError
        ``D`` has ports other than the storage ports, or the counts differ.
    """
    x = _state_symbols(D, states)
    order = _storage_ports(D, ports, x)
    if D.kind != "symbolic":
        # constant F and E: every Jacobian in T is zero
        return IntegrabilityResult(True, what="Courant tensor T (constant structure)")
    stacked = sympy.Matrix(D._stacked())
    n = D.n
    cols = [D.ports.index(p) for p in order]
    F = stacked.extract(list(range(stacked.rows)), cols)
    E = stacked.extract(list(range(stacked.rows)), [n + c for c in cols])
    frame = la.independent_rows_symbolic(F.row_join(E))
    sections = [(frame[r, n:].T, frame[r, :n].T) for r in range(frame.rows)]
    names = [f"s{r}" for r in range(len(sections))]
    terms: dict[tuple[str, str, str], sympy.Expr] = {}
    for a, b, c in combinations(range(len(sections)), 3):
        t = courant_tensor(sections[a], sections[b], sections[c], x)
        if not la.sym_is_zero(t):
            terms[(names[a], names[b], names[c])] = sympy.simplify(t)
    described = {nm: f"({_vec(X)}; {_vec(al)})" for nm, (X, al) in zip(names, sections,
                                                                          strict=True)}
    return IntegrabilityResult(not terms, terms, described if terms else {})


def jacobi_identity(J: Any, x: Sequence[Any]) -> IntegrabilityResult:
    """Whether :math:`\\{F, G\\} = \\nabla F^\\top J(x) \\nabla G` is a Poisson bracket.

    Tests :math:`\\{x_i, \\{x_j, x_k\\}\\} + \\{x_j, \\{x_k, x_i\\}\\} +
    \\{x_k, \\{x_i, x_j\\}\\} = 0` for all :math:`i < j < k`, computing the brackets
    themselves (not the Courant tensor), so it is a second method for structures
    given by ``DiracStructure.from_skew``.  ``J`` must be skew-symmetric.
    """
    xs = [sympy.Symbol(s) if isinstance(s, str) else s for s in x]
    Jm = sympy.Matrix(J)
    if Jm.shape != (len(xs), len(xs)):
        raise ModelError(f"J is {Jm.shape[0]}×{Jm.shape[1]} but {len(xs)} coordinates were "
                         "given; J must be n×n, one row/column per coordinate")
    for i in range(Jm.rows):
        for j in range(i, Jm.cols):
            if not la.sym_is_zero(Jm[i, j] + Jm[j, i]):
                raise ModelError(f"J is not skew-symmetric: J[{i},{j}] + J[{j},{i}] = "
                                 f"{sympy.simplify(Jm[i, j] + Jm[j, i])} ≠ 0")

    def bracket(f: sympy.Expr, g: sympy.Expr) -> sympy.Expr:
        gf = sympy.Matrix([f]).jacobian(xs)
        gg = sympy.Matrix([g]).jacobian(xs)
        return (gf * Jm * gg.T)[0, 0]

    terms = {}
    for i, j, k in combinations(range(len(xs)), 3):
        a, b, c = xs[i], xs[j], xs[k]
        s = bracket(a, bracket(b, c)) + bracket(b, bracket(c, a)) + bracket(c, bracket(a, b))
        if not la.sym_is_zero(s):
            terms[(str(a), str(b), str(c))] = sympy.simplify(s)
    return IntegrabilityResult(not terms, terms,
                               what="Jacobi sum {xi,{xj,xk}} + cyclic")


def _state_symbols(D: Structure, states: Sequence[Any]) -> list[sympy.Symbol]:
    by_name = {s.name: s for s in D.free_symbols if isinstance(s, sympy.Symbol)}
    out = []
    for s in states:
        if isinstance(s, str):
            out.append(by_name.get(s, sympy.Symbol(s)))
        elif isinstance(s, sympy.Symbol):
            out.append(s)
        else:
            raise ModelError(f"state {s!r}: give a SymPy symbol or its name")
    if len(set(out)) != len(out):
        raise ModelError(f"the states {', '.join(map(str, out))} repeat a symbol; "
                         "give each coordinate once")
    return out


def _storage_ports(D: Structure, ports: Sequence[str] | None,
                   x: Sequence[sympy.Symbol]) -> list[str]:
    order = list(D.ports if ports is None else ports)
    unknown = [p for p in order if p not in D.ports]
    if unknown:
        raise ModelError(f"port(s) {', '.join(unknown)} are not ports of the structure "
                         f"(its ports: {', '.join(D.ports)})")
    if len(order) != len(x):
        raise ModelError(
            f"{len(x)} state(s) ({', '.join(map(str, x))}) but {len(order)} storage port(s) "
            f"({', '.join(order)}); integrability is tested on TM ⊕ T*M: give one storage "
            "port per state")
    extra = [p for p in D.ports if p not in order]
    if extra:
        raise ModelError(
            f"the structure has port(s) {', '.join(extra)} besides the storage ports "
            f"{', '.join(order)}: integrability (Courant closedness) is defined here for a "
            "Dirac structure on the state space's TM ⊕ T*M only; close the resistive and "
            "external ports first (compose with their elements, or set the inputs to "
            "zero) and test the structure on the storage ports")
    return order


def _vec(v: sympy.Matrix) -> str:
    return "[" + ", ".join(str(e) for e in v) + "]"
