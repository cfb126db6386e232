r"""pH-IRKA: iterative rational Krylov with the effort-constraint projection.

Gugercin, Polyuga, Beattie & van der Schaft, *Structure-preserving tangential
interpolation for model reduction of port-Hamiltonian systems*, Automatica 48 (2012)
1963–1974, Algorithm 2.  Given shifts :math:`s_1, \dots, s_r` (closed under conjugation)
and tangential directions :math:`b_i \in \mathbb C^m`, each iteration

1. builds :math:`V = [(s_1I - A)^{-1}Bb_1, \dots, (s_rI - A)^{-1}Bb_r]` (made real),
2. reduces by the effort-constraint projection :math:`W = QV(V^\top QV)^{-1}`,
   :math:`J_r = W^\top JW`, :math:`R_r = W^\top RW`, :math:`Q_r = V^\top QV`,
   :math:`G_r = W^\top G` (:mod:`.projection`) — pH by construction, and
   :math:`G(s_i)b_i = G_r(s_i)b_i`,
3. takes the eigendecomposition :math:`A_r = (J_r - R_r)Q_r = X\Lambda X^{-1}` and sets
   :math:`s_i \leftarrow -\lambda_i`, :math:`b_i^\top \leftarrow e_i^\top X^{-1}B_r`
   (the residue directions of :math:`G_r(s) = \sum_i c_ib_i^\top/(s - \lambda_i)`),

until the shifts change by less than ``tol`` (relative).  At a fixed point the
first-order H2-optimality conditions hold for the right-tangential part
(:math:`G(-\bar\lambda_i)b_i = G_r(-\bar\lambda_i)b_i`); the left conditions are traded
for the structure, so pH-IRKA is not H2-optimal, and which fixed point it reaches depends
on the initial shifts.  The default initial shifts are deterministic: the mirror images
:math:`-\lambda` of the :math:`r` poles of the full model with the largest
:math:`\|c_i\|\,\|b_i\|/|\mathrm{Re}\,\lambda_i|` (the H2-dominant poles), directions
their residue directions.  ``shifts=``/``directions=`` override them, ``seed=`` draws
random ones as the Julia package does.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..errors import ModelError
from ..linear_ph import LinearPH
from .projection import effort_bases, effort_constraint, krylov_basis, orthonormal_basis
from .shifts import initial_shifts
from .standard import abcd

__all__ = ["ph_irka"]


def _conj_closed(s: np.ndarray, B: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Keep one of each conjugate pair (the one with Im ≥ 0) — the real basis of the
    pair is spanned by the real and imaginary parts of one column."""
    keep = s.imag >= 0
    return s[keep], B[:, keep]


def ph_irka(lin: LinearPH, order: int, *, shifts: Any = None, directions: Any = None,
            seed: int | None = None, tol: float = 1e-6, maxit: int = 100
            ) -> tuple[LinearPH, np.ndarray, np.ndarray, dict[str, Any]]:
    """pH-IRKA of the standard-form ``lin`` (module docstring): the reduced system, its
    bases ``V``, ``W`` and ``info`` (iterations, convergence, shifts)."""
    A, B, C, _ = abcd(lin)
    if shifts is None:
        s, b = initial_shifts(A, B, C, order, seed=seed)
    else:
        s = np.asarray(shifts, dtype=complex).ravel()
        if s.size != order:
            raise ModelError(f"{s.size} shifts for order={order}; pH-IRKA takes one shift "
                             "per reduced state")
        b = (np.ones((B.shape[1], order), dtype=complex) if directions is None
             else np.asarray(directions, dtype=complex))
    history: list[np.ndarray] = []
    converged = False
    red = lin
    V = W = np.zeros((lin.n_states, 0))
    change = np.inf
    it = 0
    for it in range(1, maxit + 1):  # noqa: B007 (it is reported)
        sh, bh = _conj_closed(s, b)
        V = orthonormal_basis(krylov_basis(A, B, sh, bh))
        if V.shape[1] != order:
            raise ModelError(f"the pH-IRKA basis lost rank at iteration {it} ({V.shape[1]} "
                             f"of {order} directions): the shifts collapsed; try other "
                             "initial shifts (shifts=, seed=) or a lower order")
        V, W, _ = effort_bases(lin, V, orthonormal=True)
        red = effort_constraint(lin, V, orthonormal=True)
        Ar, Br, _, _ = abcd(red)
        lam, X = np.linalg.eig(Ar)
        s_new = -lam
        b = np.linalg.solve(X, Br).T
        change = _shift_change(s, s_new)
        s = s_new
        history.append(np.sort_complex(s))
        if change < tol:
            converged = True
            break
    info = {"iterations": it, "converged": converged, "shift_change": change,
            "shifts": np.sort_complex(s), "shift_history": history}
    return red, V, W, info


def _shift_change(old: np.ndarray, new: np.ndarray) -> float:
    a, b = np.sort_complex(old), np.sort_complex(new)
    return float(np.max(np.abs(a - b) / np.maximum(np.abs(b), 1e-300)))
