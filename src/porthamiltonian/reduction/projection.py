r"""Projections that keep the port-Hamiltonian form, and rational Krylov bases for them.

**Effort-constraint projection** (Polyuga & van der Schaft, *Structure preserving model
reduction of port-Hamiltonian systems by moment matching at infinity*, Automatica 46
(2010) 665–672; *Model reduction of port-Hamiltonian systems as structured systems*,
MTNS 2010 / Polyuga's thesis 2010).  For a basis :math:`V` (:math:`n\times r`) of the
reduced state space, :math:`x \approx Vx_r`, let

.. math::
    Q_r = V^\top QV \succ 0,\qquad W = QV\,Q_r^{-1}\quad (W^\top V = I),

and :math:`J_r = W^\top JW`, :math:`R_r = W^\top RW`, :math:`G_r = W^\top G`,
:math:`P_r = W^\top P`, :math:`S_r = S`, :math:`N_r = N`.  This is the Petrov–Galerkin
projection :math:`x_r = W^\top x` of :math:`\dot x = (J-R)Qx + (G-P)u`, because
:math:`QVx_r = WQ_rx_r` (the efforts of the reduced states lie in
:math:`\operatorname{range}W`), so :math:`A_r = W^\top(J-R)QV = (J_r - R_r)Q_r`.  The
result is pH by construction: :math:`J_r` is skew, and
:math:`W_r = \operatorname{diag}(W, I)^\top\,[[R, P],[P^\top, S]]\,\operatorname{diag}(W, I)
\succeq 0`.  Being a projection with :math:`\operatorname{range}V \ni (sI-A)^{-1}Bb`, it
interpolates :math:`G(s)b = G_r(s)b` (Gugercin et al. 2012, Thm. 1).

**Galerkin projection in the energy coordinates** (:math:`W = V`, :math:`V^\top V = I`):
:math:`J_r = V^\top JV`, :math:`R_r = V^\top RV`, :math:`Q_r = V^\top QV`,
:math:`G_r = V^\top G` — the linear case of the POD method (:mod:`.pod`,
:math:`H_r(x_r) = H(Vx_r)`).  Also pH by construction, but it does not interpolate
unless :math:`QV \subset \operatorname{range}V`.

**Rational Krylov bases.**  :math:`V = [(s_1I - A)^{-1}Bb_1, \dots]` for shifts
:math:`s_i` (closed under conjugation) and tangential directions :math:`b_i`
(block moments, all columns of :math:`B`, when none are given); complex columns are split
into real and imaginary parts, and :math:`s = \infty` stands for the Markov parameter
:math:`B` (moment matching at infinity, Polyuga & van der Schaft 2010).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sps
import scipy.sparse.linalg as spsla

from ..errors import ModelError
from ..linear_ph import LinearPH

__all__ = ["effort_constraint", "effort_bases", "galerkin", "krylov_basis", "orthonormal_basis"]


def orthonormal_basis(V: np.ndarray, tol: float = 1e-10) -> np.ndarray:
    """An orthonormal basis of ``range(V)`` (real), dropping directions below ``tol``
    relative to the largest (rank-revealing QR with column pivoting)."""
    V = np.asarray(V)
    if np.iscomplexobj(V):
        V = np.hstack([V.real, V.imag])
    if V.size == 0:
        return np.zeros((V.shape[0], 0))
    Qf, Rf, _ = sla.qr(V, mode="economic", pivoting=True)
    d = np.abs(np.diag(Rf))
    k = int(np.sum(d > tol * d[0])) if d.size and d[0] > 0 else 0
    return Qf[:, :k]


def effort_constraint(lin: LinearPH, V: np.ndarray, *, orthonormal: bool = False
                      ) -> LinearPH:
    """The effort-constraint reduced system of a standard-form ``lin`` (module docstring).

    ``V`` is made orthonormal first unless ``orthonormal=True`` says it already is
    (this does not change the reduced system, only its coordinates).
    """
    return _reduced(lin, *effort_bases(lin, V, orthonormal=orthonormal)[1:])


def effort_bases(lin: LinearPH, V: np.ndarray, *, orthonormal: bool = False
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(V, W, Q_r)`` of the effort-constraint projection (``V`` orthonormalized unless
    ``orthonormal=True``)."""
    V = np.asarray(V, dtype=float) if orthonormal else orthonormal_basis(V)
    QV = lin.Q @ V
    Qr = V.T @ QV
    Qr = (Qr + Qr.T) / 2
    try:
        c = sla.cho_factor(Qr)
    except np.linalg.LinAlgError:
        raise ModelError(
            "VᵀQV is not positive definite: the basis contains directions without energy "
            "(Q is singular along them); remove the unobservable part first "
            "(reduce(..., minimal=True)) or choose another basis") from None
    W = sla.cho_solve(c, QV.T).T  # Q V Q_r⁻¹
    return V, W, Qr


def galerkin(lin: LinearPH, V: np.ndarray) -> LinearPH:
    """The Galerkin reduced system ``W = V`` (``V`` orthonormalized; module docstring)."""
    V = orthonormal_basis(V)
    Qr = V.T @ lin.Q @ V
    return _reduced(lin, V, (Qr + Qr.T) / 2)


def _reduced(lin: LinearPH, W: np.ndarray, Qr: np.ndarray) -> LinearPH:
    r = W.shape[1]
    J = W.T @ lin.J @ W
    R = W.T @ lin.R @ W
    return LinearPH(E=np.eye(r), J=(J - J.T) / 2, R=(R + R.T) / 2, Q=Qr, G=W.T @ lin.G,
                    P=W.T @ lin.P, S=lin.S, N=lin.N, inputs=lin.inputs,
                    outputs=lin.outputs, name=lin.name)


def krylov_basis(A: np.ndarray, B: np.ndarray, shifts: Sequence[complex],
                 directions: np.ndarray | None = None) -> np.ndarray:
    r"""Columns :math:`(s_iI - A)^{-1}Bb_i` (or :math:`Bb_i` for :math:`s_i = \infty`).

    ``directions``: an ``m × len(shifts)`` array of tangential directions, or ``None``
    for all columns of ``B`` at every shift.  Complex columns are returned complex;
    :func:`orthonormal_basis` splits them.
    """
    n, m = B.shape
    shifts = list(shifts)
    if not shifts:
        raise ModelError("no interpolation points (shifts) given")
    if directions is not None:
        directions = np.asarray(directions)
        if directions.shape != (m, len(shifts)):
            raise ModelError(f"tangential directions must be {m} × {len(shifts)} (one "
                             f"column per shift), got {directions.shape}")
    cols: list[np.ndarray] = []
    eye = np.eye(n)
    # a discretized PDE is sparse: factor sI − A as a sparse matrix then (SuperLU)
    sparse = n > 200 and np.count_nonzero(A) < 0.05 * n * n
    As = sps.csc_array(A) if sparse else None
    Is = sps.eye_array(n, format="csc") if sparse else None
    for i, s in enumerate(shifts):
        s = complex(s)
        if not np.isfinite(s):
            if np.isinf(s.real) or np.isinf(s.imag):
                rhs = B if directions is None else B @ directions[:, i:i + 1]
                cols.append(rhs.astype(complex))
                continue
            raise ModelError(f"shift {s} is NaN; give finite shifts or inf")
        rhs = B if directions is None else B @ directions[:, i:i + 1]
        try:
            if sparse:
                X = spsla.splu((s * Is - As).astype(complex).tocsc()).solve(
                    rhs.astype(complex))
            else:
                X = np.linalg.solve(s * eye - A, rhs)
        except (np.linalg.LinAlgError, RuntimeError):
            raise ModelError(f"shift {s} is a pole of the system; move it off the "
                             "eigenvalues of A") from None
        cols.append(X)
    return np.hstack(cols)


def interpolation_check(A: np.ndarray, B: np.ndarray, C: np.ndarray, D: np.ndarray,
                        s: complex) -> np.ndarray:
    """``G(s) = C(sI - A)⁻¹B + D`` (a helper for tests and diagnostics)."""
    return C @ np.linalg.solve(s * np.eye(A.shape[0]) - A, B) + D


def basis_from(options: dict[str, Any], lin: LinearPH, A: np.ndarray, B: np.ndarray,
               order: int) -> tuple[np.ndarray, dict[str, Any]]:
    """The basis of ``reduce(method="krylov"|"effort"|"galerkin")``: ``V=`` as given, or a
    Krylov basis at ``shifts=`` (default: one step of pH-IRKA's initialization,
    the mirrored H2-dominant poles with their residue directions, :mod:`.irka`)."""
    if options.get("V") is not None:
        V = np.asarray(options["V"], dtype=float)
        if V.ndim != 2 or V.shape[0] != lin.n_states:
            raise ModelError(f"V must be {lin.n_states} × r, got shape {V.shape}")
        if V.shape[1] != order:
            raise ModelError(f"V has {V.shape[1]} columns but order={order}; pass "
                             f"order={V.shape[1]} or another V")
        return V, {"basis": "given"}
    shifts = options.get("shifts")
    directions = options.get("directions")
    m = B.shape[1]
    if shifts is None:
        from .shifts import initial_shifts  # the mirrored H2-dominant poles

        C = (lin.G + lin.P).T @ lin.Q
        s, b = initial_shifts(A, B, C, order)
        keep = s.imag >= 0  # one of each conjugate pair spans both (real and imag parts)
        shifts, directions = s[keep], b[:, keep]
    Vc = krylov_basis(A, B, shifts, directions)
    V = orthonormal_basis(Vc)
    if V.shape[1] != order:
        raise ModelError(f"the Krylov basis at these shifts spans {V.shape[1]} directions "
                         f"(a complex shift gives two per direction, block moments {m} per "
                         f"shift), not order={order}; pass order={V.shape[1]} or other "
                         "shifts/directions")
    return V, {"basis": "krylov", "shifts": np.asarray(shifts)}
