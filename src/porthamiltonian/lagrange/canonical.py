r"""Dirac structures on the cotangent bundle ``T*Q`` in local coordinates.

A point of ``T*Q`` is ``z = (q, p)``.  A tangent vector ``X = (q̇, ṗ)`` and a
covector ``α = (α_q, w)`` are the flows and efforts of ``2n`` scalar ports of a
:class:`~porthamiltonian.dirac.DiracStructure`: port ``<q_i>`` carries
``(q̇_i, α_{q,i})`` and port ``p_<q_i>`` carries ``(ṗ_i, w_i)``, so the power
``eᵀf = ⟨α, X⟩ = α_q·q̇ + w·ṗ``.  The canonical symplectic form is
``Ω = Σ dq_i ∧ dp_i`` and ``Ω♭(X) = i_X Ω = −ṗ·dq + q̇·dp``.

**Induced Dirac structure** (Yoshimura & Marsden, *J. Geom. Phys.* 57 (2006)
133–156): for a distribution ``Δ_Q = ker A(q)ᵀ`` on ``Q``
(columns of ``A`` are the constraint one-forms), lift it to
``Δ_{T*Q} = (Tπ_Q)⁻¹(Δ_Q)`` and restrict ``Ω``:

.. math::

   D_Δ(z) = \{(X, α) : X ∈ Δ_{T*Q}(z),\ α − Ω♭(z)(X) ∈ Δ°_{T*Q}(z)\},

in coordinates ``q̇ ∈ Δ_Q(q)``, ``w = q̇``, ``α_q + ṗ ∈ Δ°_Q(q) = im A(q)``.
With no constraints this is the graph of ``Ω♭`` (the canonical structure).  An
optional two-form ``B(q)`` on ``Q`` (pulled back to ``T*Q``) adds a magnetic term:
``Ω`` is replaced by ``Ω + π*β``, i.e. ``α_q + ṗ − B q̇ ∈ im A``.  The kernel
representation stored has the ``2n`` rows

.. math::  w − q̇ = 0,\qquad A^\mathsf{T} q̇ = 0,\qquad N^\mathsf{T}(α_q + ṗ − B q̇) = 0,

with ``N(q)`` a basis of ``Δ_Q(q) = ker Aᵀ``; ``F Eᵀ + E Fᵀ = 0`` because
``Aᵀ N = 0`` and ``B = −Bᵀ``.  Where ``rank A(q)`` drops the pointwise structure
is still Dirac but the family is not smooth there (not a Dirac *bundle*).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import sympy

from ..dirac import DiracStructure
from ..dirac import _linalg as dla
from ..errors import ModelError


def cotangent_ports(names: Sequence[str]) -> list[str]:
    """Port names of ``T*Q``: the coordinates, then ``p_<coordinate>``."""
    return list(names) + [f"p_{s}" for s in names]


def evaluate(M: Any, at: Mapping[Any, Any] | None) -> Any:
    """A SymPy matrix at a point (float array), or unchanged when ``at`` is None."""
    if at is None:
        return sympy.Matrix(M)
    M = sympy.Matrix(M).xreplace({k: sympy.Float(v) for k, v in at.items()})
    left = dla.free_atoms(M)
    if left:
        raise ModelError(
            "cannot evaluate at the point: no value for "
            f"{', '.join(sorted(map(str, left)))}; give every coordinate and parameter"
        )
    return np.array(M.evalf(), dtype=float).reshape(M.shape)


def null_basis(A: Any) -> Any:
    """Columns spanning ``ker Aᵀ`` (numeric orthonormal, or SymPy generic)."""
    if isinstance(A, np.ndarray):
        return dla.null_space(A.T) if A.shape[1] else np.eye(A.shape[0])
    if A.shape[1] == 0:
        return sympy.eye(A.shape[0])
    basis = sympy.Matrix(A.T).nullspace(simplify=True)
    if not basis:
        return sympy.zeros(A.shape[0], 0)
    return sympy.Matrix.hstack(*basis)


def _blocks(rows: list[list[Any]], numeric: bool) -> Any:
    if numeric:
        return np.block(rows)
    return sympy.Matrix.vstack(*[sympy.Matrix.hstack(*row) for row in rows])


def induced(names: Sequence[str], A: Any = None, B: Any = None,
            at: Mapping[Any, Any] | None = None, *, symplectic: bool = True) -> DiracStructure:
    """Induced Dirac structure ``D_Δ`` on ``T*Q`` (see the module docstring).

    Parameters
    ----------
    names:
        Coordinate names ``q_1 … q_n``; the ports are :func:`cotangent_ports`.
    A:
        ``n × m`` matrix of constraint one-forms (columns), SymPy or NumPy;
        ``None`` for no constraints (canonical structure).
    B:
        Optional skew ``n × n`` two-form (magnetic term).
    at:
        ``{symbol: value}``: evaluate at this point first (numeric structure with an
        orthonormal ``N``); otherwise a symbolic, generic representation.
    symplectic:
        Include the canonical form ``Ω``.  ``False`` gives the structure of the
        two-form ``π*β`` alone on ``Δ_{T*Q}``: ``Aᵀq̇ = 0``, ``Nᵀ(α_q − B q̇) = 0``,
        ``w = 0`` — the interaction structures of :mod:`.interaction`.
    """
    n = len(names)
    A = sympy.zeros(n, 0) if A is None else sympy.Matrix(A)
    B = sympy.zeros(n, n) if B is None else sympy.Matrix(B)
    numeric = at is not None or not (A.free_symbols or B.free_symbols)
    if numeric:
        A, B = evaluate(A, at or {}), evaluate(B, at or {})
    N = null_basis(A)
    Z = (lambda r, c: np.zeros((r, c))) if numeric else sympy.zeros
    eye = np.eye if numeric else sympy.eye
    m, r = A.shape[1], N.shape[1]
    NB = N.T @ B if numeric else N.T * B
    s = 1 if symplectic else 0  # Ω♭(q̇, ṗ) = (−ṗ, q̇): couples w to q̇ and α to ṗ
    F = _blocks([[-s * eye(n), Z(n, n)], [A.T, Z(m, n)], [-NB, s * N.T]], numeric)
    E = _blocks([[Z(n, n), eye(n)], [Z(m, n), Z(m, n)], [N.T, Z(r, n)]], numeric)
    return DiracStructure(F, E, cotangent_ports(names), check=False)


def canonical(names: Sequence[str]) -> DiracStructure:
    """The canonical Dirac structure ``graph Ω♭``: ``w = q̇``, ``α_q = −ṗ``."""
    return induced(names)
