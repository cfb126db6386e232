r"""Stoichiometric matrices, conservation laws (moieties) and cycles, in exact arithmetic.

For species :math:`i` and reaction :math:`r` with forward (left) and backward (right)
coefficients :math:`\nu^f_{ir}`, :math:`\nu^b_{ir}` the stoichiometric matrix is
:math:`N = \nu^b - \nu^f` (species × reactions), so :math:`\dot n = N v` with the fluxes
:math:`v` (mol/s) counted positive left to right.

- **Conservation laws** (moieties): the rows of :math:`L` with :math:`L N = 0`, a basis
  of the left null space, cleared to coprime integers and made non-negative where a
  combination of the other rows allows it (E + S ⇌ C → E + P gives E + C and S + C + P).
  :math:`L n` is constant along every solution: these are the Casimirs of the PHS, since
  :math:`L R = L N \Gamma N^T = 0`.
- **Cycles**: a basis of the right null space of the columns of the *reversible*
  reactions, :math:`N_{rev} c = 0` — the loops along which Wegscheider's condition is
  checked (:mod:`.consistency`).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import gcd, lcm

import numpy as np
import sympy as sp

from .parse import Reaction

__all__ = ["stoichiometry", "integer_basis", "conservation_laws", "cycles"]


def stoichiometry(species: Sequence[str],
                  reactions: Sequence[Reaction]) -> tuple[sp.Matrix, sp.Matrix]:
    """Forward and backward coefficient matrices :math:`\\nu^f`, :math:`\\nu^b`
    (species × reactions, SymPy rationals); :math:`N = \\nu^b - \\nu^f`."""
    index = {s: i for i, s in enumerate(species)}
    nf = sp.zeros(len(species), len(reactions))
    nb = sp.zeros(len(species), len(reactions))
    for r, reaction in enumerate(reactions):
        for side, mat in ((reaction.reactants, nf), (reaction.products, nb)):
            for s, c in side.items():
                mat[index[s], r] = sp.Rational(c.numerator, c.denominator)
    return nf, nb


def _integer(v: sp.Matrix) -> list[int]:
    """``v`` scaled to coprime integers with a positive sum (or, at sum 0, a positive
    first non-zero entry)."""
    fr = [Fraction(int(sp.fraction(x)[0]), int(sp.fraction(x)[1])) for x in v]
    den = lcm(*[f.denominator for f in fr]) if fr else 1
    ints = [int(f * den) for f in fr]
    g = gcd(*ints) or 1
    ints = [i // g for i in ints]
    first = next((i for i in ints if i), 1)
    total = sum(ints)
    return [-i for i in ints] if total < 0 or (total == 0 and first < 0) else ints


def integer_basis(vectors: Sequence[sp.Matrix]) -> list[list[int]]:
    """Coprime integer vectors spanning the same space as ``vectors``, each made
    non-negative by adding whole multiples of non-negative ones where that is possible."""
    basis = [_integer(v) for v in vectors]
    for _ in range(len(basis) ** 2 + 1):
        changed = False
        for k, v in enumerate(basis):
            neg = [i for i, x in enumerate(v) if x < 0]
            if not neg:
                continue
            for j, w in enumerate(basis):
                if j == k or min(w) < 0 or any(w[i] <= 0 for i in neg):
                    continue
                c = max(-(v[i] // w[i]) for i in neg)   # ceil(-v_i / w_i)
                v = [a + c * b for a, b in zip(v, w, strict=True)]
                basis[k] = _integer(sp.Matrix(v))
                changed = True
                break
        if not changed:
            break
    return basis


def conservation_laws(N: sp.Matrix) -> np.ndarray:
    """Integer rows :math:`L` (laws × species) with :math:`LN = 0`; shape ``(0, n)`` if
    there are none."""
    rows = integer_basis(N.T.nullspace())
    return np.array(rows, dtype=np.int64).reshape(len(rows), N.rows)


def cycles(N: sp.Matrix, reversible: Sequence[bool]) -> np.ndarray:
    """Integer cycles (cycles × reactions): :math:`N c = 0` with :math:`c_r = 0` for
    every irreversible reaction."""
    cols = [r for r, rev in enumerate(reversible) if rev]
    out = []
    if cols:
        for c in integer_basis(N[:, cols].nullspace()):
            full = [0] * N.cols
            for r, x in zip(cols, c, strict=True):
                full[r] = x
            out.append(full)
    return np.array(out, dtype=np.int64).reshape(len(out), N.cols)
