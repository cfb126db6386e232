r"""Lowest modes of the discretized systems: sparse symmetric generalized eigenproblems.

For the lossless part, eliminating the efforts gives :math:`M_p \ddot e_p = -K e_p`
with :math:`K = D^\top M_q^{-1} D` on the flow dofs that remain states, so the natural
frequencies are :math:`\omega = \sqrt{\lambda}` of :math:`K v = \lambda M_p v`.  For a
purely dissipative system (heat) :math:`M_p \dot e_p = -R e_p` and the decay rates are
the eigenvalues of :math:`R v = \mu M_p v`.  ``M_p`` is diagonal; large problems use
shift-invert Lanczos (:func:`scipy.sparse.linalg.eigsh`) just below zero, so rigid-body
(zero) modes are found too.
"""

from __future__ import annotations

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sps
import scipy.sparse.linalg as spla

from ..errors import ModelError

__all__ = ["lowest_eigenvalues"]

DENSE_LIMIT = 1500


def lowest_eigenvalues(A: sps.sparray, mass: np.ndarray, n: int) -> np.ndarray:
    """The ``n`` smallest eigenvalues of ``A v = λ diag(mass) v`` (A symmetric ⪰ 0)."""
    size = A.shape[0]
    if isinstance(n, bool) or int(n) != n or n < 1:
        raise ModelError(f"the number of modes must be a positive integer, got {n!r}")
    n = int(n)
    if n > size - (1 if size > DENSE_LIMIT else 0):
        raise ModelError(f"asked for {n} modes but the discretization has only {size} "
                         "degrees of freedom; refine the mesh (more elements or a higher degree)")
    scale = float(np.max(A.diagonal() / mass))
    if size <= DENSE_LIMIT:
        lam = sla.eigh(A.toarray(), np.diag(mass), eigvals_only=True, subset_by_index=[0, n - 1])
    else:
        # just below zero: K − σM is positive definite even with rigid-body modes
        lam = np.sort(spla.eigsh(sps.csc_array(A), k=n, M=sps.diags_array(mass).tocsc(),
                                 sigma=-1e-8 * scale, which="LM", return_eigenvectors=False))
    # a backward-stable eigensolver is exact only to ~ size·ε·‖M⁻¹A‖: a rigid-body mode
    # comes out as ±(round-off), not 0, and its square root (a frequency) would magnify it
    return np.where(lam <= 4 * size * np.finfo(float).eps * scale, 0.0, lam)
