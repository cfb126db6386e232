r"""Checks of the port-Hamiltonian structure (docs/design.md).

For the explicit form

.. math::
    \dot x = (J - R)\nabla H + (G - P)u,\qquad y = (G + P)^\top \nabla H + (M + S)u

we require :math:`J = -J^\top`, :math:`M = -M^\top`, :math:`R = R^\top`,
:math:`S = S^\top` and :math:`W = \begin{bmatrix} R & P\\ P^\top & S\end{bmatrix} \succeq 0`.

Numeric matrices are checked with a tolerance relative to their largest entry;
symbolic ones exactly where SymPy can decide.  A violation raises
:class:`~porthamiltonian.errors.StructureError` naming the block and the entry
(by the names of the states/inputs it couples).  Conditions SymPy cannot decide
(e.g. ``a ≥ 0`` for a symbol ``a`` of unknown sign) are returned as a list of
human-readable assumptions instead of raising.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp

from ._matrices import Matrix, kind_of, mutable, nonzero_entries, norm_scale, to_dense
from .bounded import SymbolicLimit, bounded
from .errors import StructureError

DEFAULT_TOL = 1e-10


def _entry(name: str, rows: Sequence[str], cols: Sequence[str], i: int, j: int) -> str:
    return f"{name}[{rows[i]}, {cols[j]}]"


def check_skew(
    A: Matrix, name: str, labels: Sequence[str], tol: float = DEFAULT_TOL
) -> list[str]:
    """Raise if ``A + Aᵀ ≠ 0``; ``labels`` name its rows (= columns).  Returns the note of
    a symbolic check that had to be made numerically (empty otherwise)."""
    return _check_symmetry(A, name, labels, tol, sign=+1)


def check_symmetric(
    A: Matrix, name: str, labels: Sequence[str], tol: float = DEFAULT_TOL
) -> list[str]:
    """Raise if ``A − Aᵀ ≠ 0`` (returns notes as :func:`check_skew`)."""
    return _check_symmetry(A, name, labels, tol, sign=-1)


def _check_symmetry(A: Matrix, name: str, labels: Sequence[str], tol: float,
                    sign: int) -> list[str]:
    what = "skew-symmetric" if sign > 0 else "symmetric"
    op = "+" if sign > 0 else "−"
    kind = kind_of(A)
    if kind == "symbolic":
        A = mutable(A)  # sums of immutable matrices cost n², of mutable ones the non-zeros
        D = A + A.T if sign > 0 else A - A.T
        try:
            with bounded(f"the symbolic check that {name} is {what}"):
                for (i, j), d in nonzero_entries(D):  # the non-zeros only: n² is too many
                    if j >= i and sp.simplify(d) != 0:
                        raise StructureError(
                            f"{name} is not {what}: {_entry(name, labels, labels, i, j)} "
                            f"{op} {_entry(name, labels, labels, j, i)} = "
                            f"{sp.simplify(d)} ≠ 0 (entries {A[i, j]} and {A[j, i]})"
                        )
        except SymbolicLimit as limit:
            return _check_zero_sampled(D, f"{name} {op} {name}ᵀ", what, name, limit)
        return []
    D = A + A.T if sign > 0 else A - A.T
    limit = tol * norm_scale(A)
    if kind == "sparse":
        D = sps.coo_array(D)
        if D.nnz == 0:
            return []
        k = int(np.argmax(np.abs(D.data)))
        worst, i, j = abs(D.data[k]), int(D.row[k]), int(D.col[k])
    else:
        D = np.abs(np.asarray(D, dtype=float))
        if D.size == 0:
            return []
        i, j = np.unravel_index(int(np.argmax(D)), D.shape)
        worst = D[i, j]
    if worst > limit:
        Ad = A if kind != "sparse" else A.tocsr()
        raise StructureError(
            f"{name} is not {what}: {_entry(name, labels, labels, i, j)} {op} "
            f"{_entry(name, labels, labels, j, i)} = {float(worst):.6g} ≠ 0 in magnitude "
            f"(entries {float(Ad[i, j]):.6g} and {float(Ad[j, i]):.6g})"
        )
    return []


def _sampled(M: sp.MatrixBase) -> tuple[list[sp.Symbol], Any]:
    """The symbols of ``M`` and its values at :data:`SAMPLES` seeded pseudo-random points
    of them (half positive — concentrations, temperatures — half signed; seeded, so a
    verdict is reproducible), as ``(point, value)`` for the points where every entry is
    finite."""
    symbols = sorted(M.free_symbols, key=lambda s: s.name)
    f = sp.lambdify([symbols], M, modules="numpy")

    def values() -> Any:
        rng = np.random.default_rng(0)
        for k in range(SAMPLES):
            point = (rng.lognormal(0.0, 1.0, len(symbols)) if k % 2 == 0
                     else rng.normal(0.0, 2.0, len(symbols)))
            with np.errstate(all="ignore"):
                try:
                    value = np.asarray(f(point), dtype=float)
                except (ArithmeticError, ValueError, TypeError):
                    continue
            if np.all(np.isfinite(value)):
                yield point, value

    return symbols, values()


def _at(symbols: Sequence[sp.Symbol], point: np.ndarray) -> str:
    return ", ".join(f"{s} = {v:.4g}" for s, v in zip(symbols, point, strict=True))


def _check_zero_sampled(D: sp.MatrixBase, expr: str, what: str, name: str,
                        limit: SymbolicLimit) -> list[str]:
    """Numeric fallback of a symmetry check: ``D`` must vanish at every sampled point."""
    symbols, values = _sampled(D)
    checked = 0
    for point, Dk in values:
        checked += 1
        if np.max(np.abs(Dk)) > DEFAULT_TOL * max(1.0, float(np.max(np.abs(Dk)))):
            raise StructureError(f"{name} is not {what}: {expr} ≠ 0 at "
                                 f"{_at(symbols, point)} (found numerically; {limit})")
    return [f"{name} {what} checked numerically at {checked} sampled values of "
            f"{', '.join(s.name for s in symbols)} only ({limit})"]


def check_psd(W: Matrix, labels: Sequence[str], tol: float = DEFAULT_TOL,
              name: str = "[[R, P], [Pᵀ, S]]") -> list[str]:
    """Check that the symmetric dissipation matrix ``W`` is positive semi-definite.

    Returns the list of conditions that could not be decided symbolically
    (empty for numeric matrices).  Raises :class:`StructureError` naming a
    negative diagonal entry or the direction of the most negative eigenvalue.
    """
    kind = kind_of(W)
    if kind == "symbolic":
        return _check_psd_symbolic(W, labels, name)
    if kind == "sparse":
        _check_psd_sparse(W, labels, tol, name)
        return []
    _check_psd_dense(np.asarray(W, dtype=float), labels, tol, name)
    return []


def _negative_diagonal(diag: np.ndarray, labels: Sequence[str], limit: float, name: str) -> None:
    k = int(np.argmin(diag)) if diag.size else 0
    if diag.size and diag[k] < -limit:
        raise StructureError(
            f"the dissipation matrix {name} is not positive semi-definite: its diagonal "
            f"entry at {labels[k]} is {diag[k]:.6g} < 0 (a negative resistance/damping); "
            "make it non-negative"
        )


def _eigen_message(lam: float, vec: np.ndarray, labels: Sequence[str], name: str) -> str:
    order = np.argsort(-np.abs(vec))[:3]
    involved = ", ".join(f"{labels[k]} ({vec[k]:+.2f})" for k in order if abs(vec[k]) > 1e-3)
    return (
        f"the dissipation matrix {name} is not positive semi-definite: it has the "
        f"eigenvalue {lam:.6g} < 0 along {involved}; the coupling terms between these "
        "variables are too large for their damping (a passive system needs W ⪰ 0)"
    )


def lowest_below(W: np.ndarray, floor: float) -> tuple[float, np.ndarray] | None:
    """The lowest eigenvalue of the symmetric ``W`` and its unit eigenvector when that
    eigenvalue is below ``−floor``, else ``None``.

    A Cholesky factorization of ``W + floor·I`` (n³/3 flops) settles the common case,
    no eigenvalue below −floor up to round-off, before the eigen-decomposition
    (≈ 9n³ with the vectors) that a negative direction needs for its message.
    """
    try:
        np.linalg.cholesky(W + floor * np.eye(W.shape[0]))
        return None
    except np.linalg.LinAlgError:
        pass
    lam, vec = np.linalg.eigh(W)
    return (float(lam[0]), vec[:, 0]) if lam[0] < -floor else None


def _check_psd_dense(W: np.ndarray, labels: Sequence[str], tol: float, name: str) -> None:
    if W.size == 0 or not np.any(W):
        return
    if not np.all(np.isfinite(W)):
        i, j = (int(v) for v in np.argwhere(~np.isfinite(W))[0])
        raise StructureError(f"the dissipation matrix {name} has a non-finite entry "
                             f"({W[i, j]}) at {labels[i]}, {labels[j]}: a value beyond double "
                             "precision? check the parameter values")
    limit = tol * norm_scale(W)
    _negative_diagonal(np.diag(W), labels, limit, name)
    found = lowest_below((W + W.T) / 2, limit * max(1, W.shape[0]))
    if found is not None:
        raise StructureError(_eigen_message(found[0], found[1], labels, name))


def _check_psd_sparse(W: sps.sparray, labels: Sequence[str], tol: float, name: str) -> None:
    W = sps.csr_array(W)
    if W.nnz == 0:
        return
    limit = tol * norm_scale(W)
    diag = W.diagonal()
    _negative_diagonal(diag, labels, limit, name)
    # Symmetric diagonal dominance is sufficient and is what lumped/FEM damping has.
    off = np.asarray(abs(W).sum(axis=1)).ravel() - np.abs(diag)
    if np.all(diag - off >= -limit):
        return
    if W.shape[0] <= 3000:
        _check_psd_dense(to_dense(W), labels, tol, name)
        return
    from scipy.sparse.linalg import eigsh  # here: with scipy.linalg, 0.1 s at start-up

    lam, vec = eigsh(W, k=1, which="SA", tol=1e-8)
    if lam[0] < -limit * 10:
        raise StructureError(_eigen_message(float(lam[0]), vec[:, 0], labels, name))


#: numeric-valued symbolic dissipation matrices above this size are checked as sparse ones
SPARSE_PSD_FROM = 100


def _check_psd_symbolic(W: sp.MatrixBase, labels: Sequence[str], name: str) -> list[str]:
    entries = nonzero_entries(W)  # structurally (SymPy's is_zero_matrix may take minutes)
    if not entries:
        return []
    if not W.free_symbols:
        if W.rows < SPARSE_PSD_FROM:
            _check_psd_dense(np.array(W.tolist(), dtype=float), labels, DEFAULT_TOL, name)
        else:  # a large model from a generator: never through the n² dense entries
            rows = [i for (i, _), _ in entries]
            cols = [j for (_, j), _ in entries]
            vals = [float(v) for _, v in entries]
            _check_psd_sparse(sps.csr_array((vals, (rows, cols)), shape=W.shape), labels,
                              DEFAULT_TOL, name)
        return []
    try:
        with bounded(f"the symbolic check {name} ⪰ 0"):
            return _decide_psd_symbolic(W, labels, name)
    except SymbolicLimit as limit:
        return _check_psd_sampled(W, labels, name, limit)


def _decide_psd_symbolic(W: sp.MatrixBase, labels: Sequence[str], name: str) -> list[str]:
    undecided: list[str] = []
    entries = nonzero_entries(W)
    for (k, j), w in entries:
        if k != j:
            continue
        d = sp.simplify(w)
        if d.is_negative:
            raise StructureError(
                f"the dissipation matrix {name} is not positive semi-definite: its diagonal "
                f"entry at {labels[k]} is {d} < 0"
            )
    # Only the non-zero principal block matters; keep SymPy's work small.
    nz = sorted({k for (k, _), _ in entries})
    Wn = W.extract(nz, nz)
    verdict = Wn.is_positive_semidefinite if Wn.rows <= 8 else None
    if verdict is False:
        raise StructureError(
            f"the dissipation matrix {name} is not positive semi-definite for any value "
            f"of its symbols (block on {', '.join(labels[k] for k in nz)}: {Wn.tolist()})"
        )
    if verdict is None:
        undecided.append(
            f"{name} ⪰ 0 on {', '.join(labels[k] for k in nz)} "
            "(could not be decided symbolically; it holds only for suitable parameter values)"
        )
    return undecided


#: states at which a dissipation matrix is checked when the symbolic check cannot finish
SAMPLES = 64


def _check_psd_sampled(W: sp.MatrixBase, labels: Sequence[str], name: str,
                       limit: SymbolicLimit) -> list[str]:
    """Numeric fallback: ``W`` at the sampled points (:func:`_sampled`).  A negative
    eigenvalue found is an error; otherwise the returned assumption says the check was
    numeric and why."""
    symbols, values = _sampled(W)
    checked = 0
    for point, Wk in values:
        checked += 1
        lam, vec = np.linalg.eigh((Wk + Wk.T) / 2)
        if lam[0] < -DEFAULT_TOL * max(1.0, float(np.abs(Wk).max())) * Wk.shape[0]:
            raise StructureError(_eigen_message(float(lam[0]), vec[:, 0], labels, name)
                                 + f" (found numerically at {_at(symbols, point)}; {limit})")
    if checked == 0:
        return [f"{name} ⪰ 0 not checked: the symbolic check did not finish ({limit}) and "
                f"no sampled value of {', '.join(s.name for s in symbols)} gave finite "
                "numbers — it holds only for suitable values"]
    return [f"{name} ⪰ 0 checked numerically at {checked} sampled values of "
            f"{', '.join(s.name for s in symbols)} only ({limit}; the symbolic proof was "
            "abandoned)"]
