r"""H2 and H∞ norms of linear (pH) systems and of the error of a reduced model.

For a stable :math:`G(s) = C(sI-A)^{-1}B + D`:

* **H2** (Zhou, Doyle & Glover, *Robust and Optimal Control*, 1996, Lemma 4.4):
  :math:`\|G\|_{\mathcal H_2}^2 = \frac1{2\pi}\int_{-\infty}^{\infty}
  \|G(j\omega)\|_F^2\,d\omega = \operatorname{tr}(CPC^\top)` with the controllability
  Gramian :math:`AP + PA^\top + BB^\top = 0`; infinite when :math:`D \ne 0`.
* **H∞** :math:`= \sup_\omega \sigma_{\max}(G(j\omega))`, by the level-set algorithm of
  Boyd & Balakrishnan (*Syst. Control Lett.* 15, 1990) in the quadratically convergent
  form of Bruinsma & Steinbuch (*Syst. Control Lett.* 14, 1990): :math:`\gamma` is a
  singular value of :math:`G(j\omega)` iff :math:`j\omega` is an eigenvalue of the
  Hamiltonian matrix (for :math:`\gamma > \sigma_{\max}(D)`,
  :math:`R_\gamma = D^\top D - \gamma^2 I`, :math:`S_\gamma = DD^\top - \gamma^2 I`)

  .. math::
      H_\gamma = \begin{bmatrix} A - BR_\gamma^{-1}D^\top C & -\gamma BR_\gamma^{-1}B^\top\\
      \gamma C^\top S_\gamma^{-1}C & -A^\top + C^\top DR_\gamma^{-1}B^\top\end{bmatrix}.

  From a lower bound :math:`\gamma_{lb}` (at :math:`\omega = 0, \infty` and the pole
  frequencies), each step takes :math:`\gamma = (1 + 2\,\mathrm{tol})\gamma_{lb}`,
  the imaginary eigenvalues :math:`j\omega_1 < \dots < j\omega_k` of :math:`H_\gamma` and
  raises :math:`\gamma_{lb}` to the largest :math:`\sigma_{\max}G(j\,(\omega_i +
  \omega_{i+1})/2)`; it stops when :math:`H_\gamma` has none, so the norm lies in
  :math:`[\gamma_{lb}, (1+2\,\mathrm{tol})\gamma_{lb}]`.

A pH system enters in standard form (:mod:`.standard`) with the kernel of :math:`Q`
removed (exact, :mod:`.minimal`), so a rigid mode the ports cannot see (a free chain's
common translation) does not make the norm undefined.  The error of a reduced model is
the norm of :math:`G - G_r`, realized by
:math:`(\operatorname{diag}(A, A_r), [B; B_r], [C, -C_r], D - D_r)`.  Dense; fine up to a
few thousand states.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.linalg as sla

from ..errors import ModelError

__all__ = ["h2_norm", "hinf_norm", "hinf_peak", "h2_error", "hinf_error", "state_space",
           "error_system"]

ABCD = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def state_space(system: Any) -> ABCD:
    """``(A, B, C, D)`` of a pH system (kernel of Q removed), a ``Reduction`` (its
    reduced model) or a tuple ``(A, B, C, D)``."""
    if isinstance(system, tuple) and len(system) == 4:
        A, B, C, D = (np.atleast_2d(np.asarray(M, dtype=float)) for M in system)
        if A.shape[0] != A.shape[1] or B.shape[0] != A.shape[0] or C.shape[1] != A.shape[0]:
            raise ModelError(f"(A, B, C, D) with shapes {A.shape}, {B.shape}, {C.shape}, "
                             f"{D.shape} do not fit together")
        return A, B, C, D
    if hasattr(system, "system") and hasattr(system, "order"):  # a Reduction
        system = system.system
    from .minimal import remove_kernel
    from .standard import abcd, standard_form

    return drop_invisible(*abcd(remove_kernel(standard_form(system))))


def drop_invisible(A: np.ndarray, B: np.ndarray, C: np.ndarray, D: np.ndarray,
                   tol: float = 1e-9) -> ABCD:
    r"""Remove modes on (or right of) the imaginary axis that do not reach the transfer
    function: uncontrollable or unobservable ones, such as the conserved quantity a
    velocity constraint leaves (two welded masses keep their distance).

    Ordered real Schur form :math:`A = Z\,[[T_{11}, T_{12}], [0, T_{22}]]\,Z^\top` with the
    stable eigenvalues in :math:`T_{11}`; :math:`T_{11}X - XT_{22} = -T_{12}`
    block-diagonalizes it, the marginal part then has input :math:`\tilde B_2` and output
    :math:`\tilde C_1X + \tilde C_2`, and it is dropped when one of them vanishes
    (relative ``tol``).  Otherwise ``(A, B, C, D)`` is returned unchanged.
    """
    n = A.shape[0]
    if n == 0:
        return A, B, C, D
    scale = max(1.0, float(np.abs(A).max()))
    T, Z, k = sla.schur(A, output="real", sort=lambda re, im: re < -1e-10 * scale)
    if k == n:
        return A, B, C, D
    Bt, Ct = Z.T @ B, C @ Z
    T11, T12, T22 = T[:k, :k], T[:k, k:], T[k:, k:]
    X = sla.solve_sylvester(T11, -T22, -T12) if k else np.zeros((0, n - k))
    B2, C2 = Bt[k:], Ct[:, :k] @ X + Ct[:, k:]
    size = max(np.linalg.norm(B), 1e-300) * max(np.linalg.norm(C), 1e-300)
    if np.linalg.norm(B2) * np.linalg.norm(C2) > tol * size * max(1.0, np.linalg.norm(X)):
        return A, B, C, D
    return T11, Bt[:k] - X @ Bt[k:], Ct[:, :k], D


def _require_stable(A: np.ndarray, what: str) -> None:
    if A.shape[0] == 0:
        return
    lam = np.linalg.eigvals(A)
    scale = max(1.0, float(np.abs(lam).max()))
    worst = lam[np.argmax(lam.real)]
    if worst.real >= -1e-12 * scale:
        raise ModelError(
            f"the {what} is not asymptotically stable (eigenvalue {worst:.4g}): its "
            "H2/H∞ norm is infinite or undefined; a lossless (R = 0) or undamped part has "
            "poles on the imaginary axis — add damping, or compare frequency responses "
            "(porthamiltonian.analysis.bode) instead")


def h2_norm(system: Any, *, proper_part: bool = False) -> float:
    """The H2 norm (module docstring); ``inf`` when the feed-through ``D`` is non-zero,
    unless ``proper_part`` asks for the norm of the strictly proper part ``G - D``."""
    A, B, C, D = state_space(system)
    _require_stable(A, "system")
    if np.any(D != 0) and not proper_part:
        return math.inf
    if A.shape[0] == 0:
        return 0.0
    P = sla.solve_continuous_lyapunov(A, -B @ B.T)
    return math.sqrt(max(float(np.trace(C @ P @ C.T)), 0.0))


class _Response:
    r""":math:`\sigma_{\max}G(j\omega)`, through the eigendecomposition
    :math:`A = X\Lambda X^{-1}` (:math:`O(nm)` per frequency) when :math:`X` is well
    conditioned, else by a dense solve per frequency."""

    def __init__(self, A: np.ndarray, B: np.ndarray, C: np.ndarray, D: np.ndarray,
                 lam: np.ndarray | None = None, X: np.ndarray | None = None) -> None:
        self.A, self.B, self.C, self.D = A, B, C, D
        self.modal = False
        if A.shape[0] and lam is not None and X is not None and np.linalg.cond(X) < 1e8:
            self.lam, self.CX, self.XiB = lam, C @ X, np.linalg.solve(X, B)
            self.modal = True

    def __call__(self, w: float) -> float:
        A, B, C, D = self.A, self.B, self.C, self.D
        if A.shape[0] == 0 or not np.isfinite(w):
            return float(np.linalg.norm(D, 2)) if D.size else 0.0
        if self.modal:
            G = (self.CX / (1j * w - self.lam)) @ self.XiB + D
        else:
            G = C @ np.linalg.solve(1j * w * np.eye(A.shape[0]) - A, B) + D
        return float(np.linalg.norm(G, 2))


def hinf_peak(system: Any, tol: float = 1e-8, maxit: int = 100) -> tuple[float, float]:
    """``(‖G‖∞, ω_peak)`` by the Bruinsma–Steinbuch iteration (module docstring); the
    value is a lower bound within a relative ``2·tol`` of the norm."""
    A, B, C, D = state_space(system)
    _require_stable(A, "system")
    n = A.shape[0]
    sD = float(np.linalg.norm(D, 2)) if D.size else 0.0
    if n == 0:
        return sD, math.inf
    lam, X = np.linalg.eig(A)
    sigma = _Response(A, B, C, D, lam, X)
    # candidate frequencies: 0, ∞ and the pole frequencies |λ| (as in Bruinsma–Steinbuch)
    cands = [0.0, *np.abs(lam.imag), *np.abs(lam)]
    vals = [sigma(w) for w in cands]
    k = int(np.argmax(vals))
    gamma_lb, w_peak = vals[k], cands[k]
    if sD > gamma_lb:
        gamma_lb, w_peak = sD, math.inf
    if gamma_lb == 0.0:
        return 0.0, 0.0
    m, p = B.shape[1], C.shape[0]
    for _ in range(maxit):
        gamma = (1 + 2 * tol) * gamma_lb
        Rg = D.T @ D - gamma**2 * np.eye(m)
        Sg = D @ D.T - gamma**2 * np.eye(p)
        RiDtC = np.linalg.solve(Rg, D.T @ C)
        RiBt = np.linalg.solve(Rg, B.T)
        H = np.block([[A - B @ RiDtC, -gamma * B @ RiBt],
                      [gamma * C.T @ np.linalg.solve(Sg, C), -A.T + C.T @ D @ RiBt]])
        ev = np.linalg.eigvals(H)
        scale = max(1.0, float(np.abs(ev).max()))
        imag = np.sort(ev.imag[(np.abs(ev.real) < 1e-8 * scale) & (ev.imag >= 0)])
        if imag.size == 0:
            break
        if imag.size == 1:
            mids = imag
        else:
            mids = (imag[:-1] + imag[1:]) / 2
        vals = [sigma(w) for w in mids]
        j = int(np.argmax(vals))
        if vals[j] <= gamma_lb:
            break  # eigenvalues near the axis without a higher peak: converged
        gamma_lb, w_peak = vals[j], float(mids[j])
    if sigma.modal and np.isfinite(w_peak):  # the reported value from a direct solve
        gamma_lb = max(_Response(A, B, C, D)(w_peak), sD)
    return gamma_lb, w_peak


def hinf_norm(system: Any, tol: float = 1e-8) -> float:
    """The H∞ norm (module docstring), to a relative ``2·tol``."""
    return hinf_peak(system, tol)[0]


def error_system(full: Any, reduced: Any) -> ABCD:
    """A realization of ``G - G_r`` (module docstring)."""
    A, B, C, D = state_space(full)
    Ar, Br, Cr, Dr = state_space(reduced)
    if B.shape[1] != Br.shape[1] or C.shape[0] != Cr.shape[0]:
        raise ModelError(f"the systems have {B.shape[1]}/{C.shape[0]} and "
                         f"{Br.shape[1]}/{Cr.shape[0]} inputs/outputs; compare systems "
                         "with the same ports")
    return (sla.block_diag(A, Ar), np.vstack([B, Br]), np.hstack([C, -Cr]), D - Dr)


def h2_error(full: Any, reduced: Any, *, relative: bool = False) -> float:
    """``‖G - G_r‖_H2`` (divided by ``‖G - D‖_H2`` when ``relative``: the strictly
    proper part, since a feed-through makes ``‖G‖_H2`` infinite)."""
    e = h2_norm(error_system(full, reduced))
    return e / h2_norm(full, proper_part=True) if relative else e


def hinf_error(full: Any, reduced: Any, *, relative: bool = False,
               tol: float = 1e-8) -> float:
    """``‖G - G_r‖_H∞`` (divided by ``‖G‖_H∞`` when ``relative``)."""
    e = hinf_norm(error_system(full, reduced), tol)
    return e / hinf_norm(full, tol) if relative else e
