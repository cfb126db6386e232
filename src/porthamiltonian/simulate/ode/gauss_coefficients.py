r"""Coefficients of the Gauss–Legendre methods, computed in 40-digit arithmetic.

**Tableau.**  The nodes :math:`c_i` are the roots of the shifted Legendre polynomial
:math:`P_s(2\tau - 1)`; :math:`a_{ij} = \int_0^{c_i}\ell_j`, :math:`b_j = \int_0^1\ell_j`
with :math:`\ell_j` the Lagrange polynomials on the nodes.

**Decoupled LTI stages** (Hairer & Wanner, *Solving ODEs II*, §IV.8).  For
:math:`\dot x = Ax + Bu` the stage derivatives solve
:math:`K - hA_{RK}KA^\top = \mathbb 1(Ax)^\top + UB^\top` (rows are stages).  With
:math:`A_{RK} = V\Lambda V^{-1}`, :math:`\sigma = V^{-1}\mathbb 1`, and per eigenvalue

.. math::

    (I - h\lambda_l A)\,k_l = Ax + B\,\hat u_l,\qquad
    \hat u_l = (V^{-1}U)_l/\sigma_l,

the stages are :math:`K = P k` with :math:`P = V\operatorname{diag}(\sigma)`, the stage
states :math:`X = \mathbb 1 x^\top + hCk` with :math:`C = V\operatorname{diag}(\lambda
\sigma)`, and the update is :math:`x_{k+1} = x_k + h\sum_l\rho_l k_l` with the residues
:math:`\rho_l = (b^\top V)_l\,\sigma_l` of the stability function
:math:`R(z) = 1 + \sum_l \rho_l z/(1 - \lambda_l z)`.  ``P``, ``C``, ``ρ`` and
:math:`\operatorname{diag}(\sigma)^{-1}V^{-1}` do not depend on how the eigenvectors
are scaled, and computing them in high precision and rounding once keeps the
ill-conditioning of ``V`` (which grows with ``s``) out of the update: the energy of a
lossless system then drifts only by the rounding of :math:`\lambda_l, \rho_l`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import mpmath
import numpy as np

__all__ = ["STAGES", "gauss_tableau", "Decoupling", "decoupling"]

#: stage counts provided (order 2s)
STAGES = (1, 2, 3, 4, 5, 6)
_DPS = 40


@functools.cache
def _mp_tableau(s: int) -> tuple[mpmath.matrix, list, list]:
    x0, _ = np.polynomial.legendre.leggauss(s)
    with mpmath.workdps(_DPS):
        nodes = []
        for x in x0:  # Newton on P_s from the double-precision roots
            x = mpmath.mpf(float(x))
            for _ in range(3):
                p, p1 = mpmath.legendre(s, x), mpmath.legendre(s - 1, x)
                x -= p * (x * x - 1) / (s * (x * p - p1))
            nodes.append((x + 1) / 2)
        L = mpmath.matrix([[c**k for k in range(s)] for c in nodes]) ** -1
        A = mpmath.matrix([[sum(nodes[i] ** (k + 1) / (k + 1) * L[k, j] for k in range(s))
                            for j in range(s)] for i in range(s)])
        b = [sum(L[k, j] / (k + 1) for k in range(s)) for j in range(s)]
    return A, b, nodes


def _frozen(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    for a in arrays:
        a.flags.writeable = False  # cached: shared by every caller
    return arrays


@functools.cache
def gauss_tableau(s: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Butcher tableau ``(A, b, c)`` of the ``s``-stage Gauss–Legendre method, rounded
    once from 40 digits: the symplecticity conditions :math:`b_ia_{ij} + b_ja_{ji} =
    b_ib_j`, on which the exact energy balance for quadratic :math:`H` rests, hold to
    round-off for every ``s``."""
    if s not in STAGES:
        raise ValueError(f"Gauss–Legendre collocation is provided for s = 1, …, {STAGES[-1]}")
    A, b, c = _mp_tableau(s)
    return _frozen(np.array(A.tolist(), dtype=float), np.array(b, dtype=float),
                   np.array(c, dtype=float))  # type: ignore[return-value]


@dataclass(frozen=True)
class Decoupling:
    """The decoupled-stage data of the module docstring, for the eigenvalues that are
    solved: each real one and the one with positive imaginary part of each complex pair
    (its partner's values are the conjugates, so a pair contributes twice the real part).
    """

    lam: np.ndarray  #: eigenvalues λ_l of A_RK (complex)
    rho: np.ndarray  #: residues ρ_l (complex; doubled for a pair)
    P: np.ndarray  #: s × l: stage derivatives K = Re(P k) (columns doubled for a pair)
    C: np.ndarray  #: s × l: stage states X = x + h Re(C k) (columns doubled for a pair)
    Uin: np.ndarray  #: l × s: per-eigenvalue inputs û = Uin U
    real: tuple[bool, ...]  #: λ_l is real (then k_l is real)


@functools.cache
def decoupling(s: int) -> Decoupling:
    """:class:`Decoupling` of the ``s``-stage method (computed in 40 digits)."""
    A, b, _ = _mp_tableau(s)
    with mpmath.workdps(_DPS):
        E, V = mpmath.eig(A)
        Vinv = V**-1
        tol = mpmath.mpf(10) ** (-_DPS // 2)
        keep = [i for i in range(s) if mpmath.im(E[i]) > -tol]
        keep.sort(key=lambda i: float(mpmath.im(E[i])))
        lam, rho, P, C, Uin, real = [], [], [], [], [], []
        for i in keep:
            sigma = sum(Vinv[i, j] for j in range(s))
            w = sum(b[j] * V[j, i] for j in range(s))
            is_real = abs(mpmath.im(E[i])) < tol
            twice = 1 if is_real else 2
            lam.append(complex(mpmath.re(E[i])) if is_real else complex(E[i]))
            rho.append(complex(twice * w * sigma))
            P.append([complex(twice * V[j, i] * sigma) for j in range(s)])
            C.append([complex(twice * V[j, i] * E[i] * sigma) for j in range(s)])
            Uin.append([complex(Vinv[i, j] / sigma) for j in range(s)])
            real.append(bool(is_real))
    return Decoupling(*_frozen(np.array(lam), np.array(rho), np.array(P).T, np.array(C).T,
                               np.array(Uin)), real=tuple(real))
