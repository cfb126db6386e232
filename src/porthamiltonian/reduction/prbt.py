r"""Positive-real balanced truncation (PRBT), with the reduced model in pH form.

Desai & Pal, *A transformation approach to stochastic model reduction*, IEEE TAC 29
(1984); Gugercin & Antoulas, *A survey of model reduction by balanced truncation and
some new results*, Int. J. Control 77 (2004) §4.3.  For
:math:`G = (A, B, C, D)` with :math:`R_0 = D + D^\top \succ 0`, the positive-real
Gramians are the minimal solutions of

.. math::
    A^\top Y + YA + (B^\top Y - C)^\top R_0^{-1}(B^\top Y - C) = 0,\qquad
    AX + XA^\top + (XC^\top - B)R_0^{-1}(XC^\top - B)^\top = 0,

(computed as :math:`Y = -Y'` with :math:`Y'` the stabilizing solution of the algebraic
Riccati equation :math:`A^\top Y' + Y'A - (Y'B + C^\top)R_0^{-1}(B^\top Y' + C) = 0`,
``scipy.linalg.solve_continuous_are``, and dually for :math:`X`).  With
:math:`X = L_cL_c^\top`, :math:`Y = L_oL_o^\top` and :math:`L_o^\top L_c = U\Sigma Z^\top`,
the square-root method projects with :math:`V = L_cZ_r\Sigma_r^{-1/2}`,
:math:`W = L_oU_r\Sigma_r^{-1/2}`: :math:`A_r = W^\top AV`, :math:`B_r = W^\top B`,
:math:`C_r = CV`, :math:`D_r = D`.  The balanced truncation keeps the positive-real
characteristic values :math:`\sigma_1 \ge \dots \ge \sigma_r`, and :math:`\Sigma_r` solves
the reduced Riccati equation (its (1,1) block), so the reduced model is positive real.

**pH form** (the KYP certificate; Breiten & Unger, *Passivity preserving model reduction
via spectral factorization*, Automatica 142 (2022); Beattie, Mehrmann & Van Dooren 2019):
with :math:`Q_r \succ 0` the minimal solution of the reduced Riccati equation,
:math:`J_r - R_r = A_rQ_r^{-1}`, :math:`G_r \pm P_r = Q_r^{-1}C_r^\top \pm B_r` … i.e.

.. math::
    J_r = \operatorname{skew}(A_rQ_r^{-1}),\ R_r = -\operatorname{sym}(A_rQ_r^{-1}),\
    G_r = \tfrac12(Q_r^{-1}C_r^\top + B_r),\ P_r = \tfrac12(Q_r^{-1}C_r^\top - B_r),\
    S_r = \operatorname{sym}D,\ N_r = -\operatorname{skew}D,

and :math:`[[R_r, P_r], [P_r^\top, S_r]] = \tfrac12\operatorname{diag}(Q_r^{-1}, I)\,K\,
\operatorname{diag}(Q_r^{-1}, I) \succeq 0` with
:math:`K = [[-A_r^\top Q_r - Q_rA_r, C_r^\top - Q_rB_r], [\cdot^\top, R_0]]`, whose Schur
complement is the (zero) Riccati residual.

**Error bound.**  By the Cayley transform
:math:`F = (I - G_n)(I + G_n)^{-1}` of the normalized :math:`G_n = TGT`,
:math:`T = (R_0/2)^{-1/2}`, the PR-balanced truncation of :math:`G` is the bounded-real
balanced truncation of :math:`F` with the same :math:`\sigma_i` (the bounded-real
Gramians of :math:`F` are :math:`X/2` and :math:`2Y`: checked numerically to 1e-14, and
the truncation commutes with the Cayley transform's realization
:math:`A_F = A - B_nK C_n`, :math:`K = (I + D_n)^{-1}`), so
:math:`\|F - F_r\|_{\mathcal H_\infty} \le 2\sum_{i>r}\sigma_i` (Opdenacker & Jonckheere,
IEEE TCAS 35, 1988), and from
:math:`G_n - G_{n,r} = \tfrac12(I + G_n)(F_r - F)(I + G_{n,r})`

.. math::
    \|G - G_r\|_{\mathcal H_\infty} \le \|T^{-1}\|^2\,\|I + G_n\|_{\mathcal H_\infty}\,
    \|I + G_{n,r}\|_{\mathcal H_\infty}\,\sum_{i>r}\sigma_i .

It is rigorous but loose when :math:`D` is small (the artificial :math:`10^{-6}I` of the
benchmark makes :math:`\|G_n\|` large); ``info["sigma"]`` has the :math:`\sigma_i`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ..errors import ModelError
from ..linear_ph import LinearPH
from .norms import hinf_norm

__all__ = ["pr_gramians", "prbt"]


def _min_riccati(A: np.ndarray, B: np.ndarray, C: np.ndarray, R0: np.ndarray) -> np.ndarray:
    """Minimal solution Y of AᵀY + YA + (BᵀY − C)ᵀR0⁻¹(BᵀY − C) = 0 (module docstring)."""
    try:
        Yp = sla.solve_continuous_are(A, B, np.zeros_like(A), R0, s=C.T)
    except (np.linalg.LinAlgError, ValueError) as exc:
        raise ModelError(f"the positive-real Riccati equation has no stabilizing solution "
                         f"({exc}); the system must be asymptotically stable, minimal and "
                         "strictly passive: use minimal=True, add damping or a larger "
                         "feed-through S") from None
    Y = -(Yp + Yp.T) / 2
    return Y


def pr_gramians(A: np.ndarray, B: np.ndarray, C: np.ndarray, D: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """``(X, Y)``: the controllability and observability positive-real Gramians."""
    R0 = D + D.T
    return _min_riccati(A.T, C.T, B.T, R0), _min_riccati(A, B, C, R0)


def _factor(X: np.ndarray) -> np.ndarray:
    """L with X ≈ L Lᵀ (eigenvalues clipped at 0: the Gramians are PSD up to round-off)."""
    w, U = np.linalg.eigh(X)
    return U * np.sqrt(np.clip(w, 0.0, None))


def prbt(lin: LinearPH, A: np.ndarray, B: np.ndarray, C: np.ndarray, D: np.ndarray,
         order: int, *, bound: bool = True
         ) -> tuple[LinearPH, np.ndarray, np.ndarray, dict[str, Any]]:
    """PRBT of the standard-form ``lin`` = ``(A, B, C, D)`` to ``order`` states: the
    reduced system, the bases ``V``, ``W`` (``x_r = Wᵀx``) and ``info``."""
    R0 = D + D.T
    lam = np.linalg.eigvalsh(R0) if R0.size else np.zeros(1)
    if lam.min() <= 1e-14 * max(1.0, abs(lam).max()):
        raise ModelError(
            "positive-real balanced truncation needs S + Sᵀ ≻ 0 (a strictly passive "
            f"feed-through); here the smallest eigenvalue of D + Dᵀ is {lam.min():.3g}. Add "
            "a small feed-through, as the benchmark collection does (S = 1e-6·I: "
            "LinearPH(..., S=1e-6*np.eye(m)) or PHS(..., S=...)), or use method='irka'")
    X, Y = pr_gramians(A, B, C, D)
    Lc, Lo = _factor(X), _factor(Y)
    U, s, Zt = np.linalg.svd(Lo.T @ Lc)
    if order > int(np.sum(s > 1e-14 * s[0])):
        raise ModelError(f"order={order} exceeds the numerical rank of the positive-real "
                         f"Gramians ({int(np.sum(s > 1e-14 * s[0]))}); choose a lower order")
    Ur, Zr, sr = U[:, :order], Zt[:order].T, s[:order]
    V = Lc @ Zr / np.sqrt(sr)
    W = Lo @ Ur / np.sqrt(sr)
    Ar, Br, Cr = W.T @ A @ V, W.T @ B, C @ V
    Qr = _min_riccati(Ar, Br, Cr, R0)
    red = _ph_form(Ar, Br, Cr, D, Qr, lin)
    info: dict[str, Any] = {"sigma": s, "balanced_gap": float(np.abs(Qr - np.diag(sr)).max())}
    bnd = None
    if bound:
        bnd = _bound(A, B, C, D, Ar, Br, Cr, s[order:])
    return red, V, W, {**info, "error_bound": bnd}


def _ph_form(Ar: np.ndarray, Br: np.ndarray, Cr: np.ndarray, D: np.ndarray,
             Qr: np.ndarray, like: LinearPH) -> LinearPH:
    r = Ar.shape[0]
    try:
        c = sla.cho_factor(Qr)
    except np.linalg.LinAlgError:
        raise ModelError("the reduced Riccati solution is not positive definite: the "
                         "order is too high for the numerical accuracy of the Gramians; "
                         "choose a lower order") from None
    AQi = sla.cho_solve(c, Ar.T).T  # A_r Q_r⁻¹
    QiCt = sla.cho_solve(c, Cr.T)
    return LinearPH(E=np.eye(r), J=(AQi - AQi.T) / 2, R=-(AQi + AQi.T) / 2, Q=Qr,
                    G=(QiCt + Br) / 2, P=(QiCt - Br) / 2, S=(D + D.T) / 2,
                    N=-(D - D.T) / 2, inputs=like.inputs, outputs=like.outputs,
                    name=like.name)


def _bound(A: np.ndarray, B: np.ndarray, C: np.ndarray, D: np.ndarray, Ar: np.ndarray,
           Br: np.ndarray, Cr: np.ndarray, tail: np.ndarray) -> float:
    R0 = D + D.T
    w, U = np.linalg.eigh(R0 / 2)
    T = U @ np.diag(w ** -0.5) @ U.T
    Tinv2 = float(1.0 / w.min())  # ‖T⁻¹‖²
    m = D.shape[0]
    eye = np.eye(m)
    gn = hinf_norm((A, B @ T, T @ C, eye + T @ D @ T))
    gnr = hinf_norm((Ar, Br @ T, T @ Cr, eye + T @ D @ T))
    return Tinv2 * gn * gnr * float(np.sum(tail))
