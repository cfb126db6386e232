r"""IDA-PBC for underactuated mechanical systems with a target inertia :math:`M_d`.

Plant (states :math:`x = (q, p)`, :math:`k` each):

.. math::  H = \tfrac12 p^\top M^{-1}(q) p + V(q),\quad
           J = \begin{bmatrix}0 & I\\ -I & 0\end{bmatrix},\quad
           g = \begin{bmatrix}0\\ G(q)\end{bmatrix}.

Target (Ortega, Spong, Gómez-Estern, Blankenstein, *IEEE TAC* 47(8), 2002, eqs. (9)–(11)):

.. math::  H_d = \tfrac12 p^\top M_d^{-1} p + V_d(q),\quad
           J_d = \begin{bmatrix}0 & M^{-1}M_d\\ -M_d M^{-1} & J_2\end{bmatrix},\quad
           R_d = \begin{bmatrix}0 & 0\\ 0 & G K_v G^\top\end{bmatrix}.

The matching equations split into the kinetic-energy PDE (terms in :math:`p`) and the
potential-energy PDE :math:`G^\perp\{\nabla V - M_d M^{-1}\nabla V_d\} = 0`; with
constant :math:`M` and :math:`M_d` and :math:`J_2 = 0` the first holds identically and
the second has constant coefficients.  Here :math:`V_d` is the unknown; the general
solver (:mod:`.matching`) treats ``p`` as states the unknown may not depend on, so a
kinetic equation that fails is reported naming the momenta.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import sympy as sp

from .. import _matrices as mx
from ..errors import ModelError
from ..phs import PHS
from ..structure import check_symmetric
from .symbolic import as_state_matrix

__all__ = ["MechanicalSetup", "mechanical_setup"]


@dataclass
class MechanicalSetup:
    q: list[sp.Symbol]
    p: list[sp.Symbol]
    Minv: sp.Matrix
    Md: sp.Matrix
    Jd: sp.Matrix
    Rd: sp.Matrix
    kinetic: sp.Expr  # ½ pᵀ Md⁻¹ p


def mechanical_setup(system: PHS, xs: list[sp.Symbol], H: sp.Expr, J: sp.Matrix,
                     g: sp.Matrix, Md: Any, Jd: Any, Rd: Any,
                     params: Mapping[str, Any]) -> MechanicalSetup:
    """Check the mechanical structure, read :math:`M^{-1}`, build ``Jd``/``Rd`` defaults."""
    n = len(xs)
    if n % 2:
        raise ModelError(f"Md= needs a mechanical plant with states (q, p); it has {n} states")
    k = n // 2
    q, p = xs[:k], xs[k:]
    expected = sp.Matrix(sp.BlockMatrix([[sp.zeros(k), sp.eye(k)],
                                         [-sp.eye(k), sp.zeros(k)]]).as_explicit())
    for i in range(n):
        for j in range(n):
            if sp.simplify(J[i, j] - expected[i, j]) != 0:
                raise ModelError(
                    f"Md= needs J = [[0, I], [−I, 0]] with the positions q = "
                    f"{[s.name for s in q]} first; J[{xs[i].name}, {xs[j].name}] = {J[i, j]}"
                )
    if any(sp.simplify(e) != 0 for e in g[:k, :]):
        raise ModelError("Md= needs the inputs to act on the momenta only (g = [0; G(q)]); "
                         f"the rows of G − P for {[s.name for s in q]} are not zero")
    Minv = sp.hessian(H, p).applyfunc(sp.simplify)
    if Minv.has(*p):
        raise ModelError("the kinetic energy is not quadratic in the momenta "
                         f"{[s.name for s in p]}: ∂²H/∂p² depends on p")
    Mdm = as_state_matrix(Md, xs, params, "Md", (k, k))
    check_symmetric(sp.ImmutableMatrix(Mdm), "Md", [s.name for s in q])
    if Mdm.has(*p):
        raise ModelError("Md may depend on the positions q only, not on the momenta")
    if Jd is None:
        A = Minv * Mdm
        Jd_m = sp.Matrix(sp.BlockMatrix([[sp.zeros(k), A], [-A.T, sp.zeros(k)]]).as_explicit())
    else:
        Jd_m = as_state_matrix(Jd, xs, params, "Jd", (n, n))
    if Rd is None:
        Rd_m = sp.zeros(n, n)
    else:
        if mx.shape_of(Rd) == (k, k):
            block = as_state_matrix(Rd, xs, params, "Rd", (k, k))
            Rd_m = sp.diag(sp.zeros(k), block)
        else:
            Rd_m = as_state_matrix(Rd, xs, params, "Rd", (n, n))
    pv = sp.Matrix(p)
    kinetic = sp.expand((pv.T * Mdm.inv() * pv)[0] / 2)
    return MechanicalSetup(q, p, Minv, Mdm, Jd_m, Rd_m, kinetic)
