r"""Structure-preserving removal of the parts of a linear pH system the ports cannot see.

Two steps, both effort-constraint projections (:mod:`.projection`), so the result is pH:

1. **The kernel of Q** (exact).  With :math:`V` an orthonormal basis of
   :math:`\operatorname{range}Q`, the co-energy :math:`e = Qx` obeys
   :math:`\dot e = Q(J-R)e + Q(G-P)u`, :math:`y = (G+P)^\top e + Du` and lies in
   :math:`\operatorname{range}V`, so :math:`\varepsilon = V^\top e` is a realization of the
   same transfer function, and :math:`x_r = Q_r^{-1}\varepsilon = W^\top x` with
   :math:`W = QVQ_r^{-1}` is exactly the effort-constraint system.  This removes rigid
   modes: a state direction without energy (the common translation of a free
   mass–spring chain) is invisible at the ports.

2. **Energy–observability truncation** (Breiten, Morandin & Schulze, *Error bounds for
   port-Hamiltonian model and controller reduction based on system balancing*, Comput.
   Math. Appl. 116 (2022); the ``phminreal`` of PortHamiltonianSystems.jl uses the same
   balancing).  For a pH system :math:`Q^{-1}` solves
   :math:`AQ^{-1} + Q^{-1}A^\top = -2R`, an energy "reachability" Gramian, and
   :math:`Y` solves :math:`A^\top Y + YA = -C^\top C`.  With :math:`Q^{-1} = L_xL_x^\top`,
   :math:`Y \approx L_yL_y^\top` and :math:`L_x^\top L_y = U\Sigma Z^\top`, the basis
   :math:`V = L_xU_r\Sigma_r^{-1/2}` keeps the :math:`\sigma_i > \mathrm{tol}\,\sigma_1`;
   then :math:`Q_r = V^\top QV = \Sigma_r^{-1}` and the effort-constraint system is the
   balanced truncation of the (numerically) unobservable part.  For the benchmark
   mass–spring–damper chain (50 cells, ``tol = 1e-12``) this gives 100 → 73 states, as
   the Julia package reports.  Needs :math:`A` Hurwitz after step 1 (some damping
   everywhere); otherwise step 2 is skipped and said so.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import scipy.linalg as sla

from ..linear_ph import LinearPH
from .projection import effort_bases, effort_constraint
from .standard import abcd

__all__ = ["remove_kernel", "minimal_realization", "Minimal"]


@dataclass(frozen=True)
class Minimal:
    """A minimal realization and what was removed."""

    system: LinearPH
    V: np.ndarray  # x ≈ V x_min (standard-form coordinates)
    W: np.ndarray  # x_min = Wᵀ x
    n_full: int
    n_kernel: int  # states removed with the kernel of Q
    n_unobservable: int  # states removed by the energy–observability truncation
    note: str = ""


def remove_kernel(lin: LinearPH, tol: float = 1e-12) -> LinearPH:
    """Step 1 of the module docstring: the exact removal of ``ker Q``."""
    w, U = np.linalg.eigh((lin.Q + lin.Q.T) / 2)
    keep = w > tol * max(1.0, float(np.abs(w).max(initial=0.0)))
    if keep.all():
        return lin
    return effort_constraint(lin, U[:, keep], orthonormal=True)


def is_hurwitz(A: np.ndarray) -> bool:
    """All eigenvalues in the open left half-plane (relative margin 1e-12)."""
    lam = np.linalg.eigvals(A)
    scale = max(1.0, float(np.abs(lam).max(initial=0.0)))
    return bool(np.all(lam.real < -1e-12 * scale))


def minimal_realization(lin: LinearPH, tol: float = 1e-12, *, truncate: bool = True
                        ) -> Minimal:
    """Steps 1 and 2 (step 2 only when ``truncate``) of the module docstring on a
    standard-form ``lin``."""
    n = lin.n_states
    w, U = np.linalg.eigh((lin.Q + lin.Q.T) / 2)
    keep = w > tol * max(1.0, float(np.abs(w).max(initial=0.0)))
    V1, W1, lin1 = np.eye(n), np.eye(n), lin
    if not keep.all():
        V1, W1, _ = effort_bases(lin, U[:, keep], orthonormal=True)
        lin1 = effort_constraint(lin, V1, orthonormal=True)
    n1 = lin1.n_states
    if not truncate:
        return Minimal(lin1, V1, W1, n, n - n1, 0)
    A, _, C, _ = abcd(lin1)
    if n1 == 0 or not is_hurwitz(A):
        return Minimal(lin1, V1, W1, n, n - n1, 0,
                       "A has eigenvalues on the imaginary axis (undamped modes): the "
                       "energy–observability truncation was skipped")
    Y = sla.solve_continuous_lyapunov(A.T, -C.T @ C)
    w, U = np.linalg.eigh((Y + Y.T) / 2)
    keep = w > tol * w.max()
    Ly = U[:, keep] * np.sqrt(w[keep])
    L = np.linalg.cholesky(lin1.Q)  # Q = L Lᵀ, so Q⁻¹ = L⁻ᵀ L⁻¹ = Lx Lxᵀ
    Lx = sla.solve_triangular(L, np.eye(n1), lower=True, trans="T")
    Us, s, _ = np.linalg.svd(Lx.T @ Ly, full_matrices=False)
    k = int(np.sum(s > tol * s[0]))
    if k == n1:
        return Minimal(lin1, V1, W1, n, n - n1, 0)
    V2, W2, _ = effort_bases(lin1, Lx @ Us[:, :k] / np.sqrt(s[:k]), orthonormal=True)
    return Minimal(effort_constraint(lin1, V2, orthonormal=True), V1 @ V2, W1 @ W2, n,
                   n - n1, n1 - k)
