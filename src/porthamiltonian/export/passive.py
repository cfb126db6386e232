r"""A passive state-space model written in port-Hamiltonian form (the KYP inequality).

A minimal :math:`\dot x = Ax + Bu,\ y = Cx + Du` is passive with the quadratic storage
:math:`H = \tfrac12 x^\top X x`, :math:`X = X^\top \succ 0`, iff :math:`X` solves the
Kalman–Yakubovich–Popov inequality (Willems, *Dissipative dynamical systems, part II*,
Arch. Rational Mech. Anal. 45, 1972)

.. math::
    K(X) = \begin{bmatrix} -A^\top X - XA & C^\top - XB \\ C - B^\top X & D + D^\top
    \end{bmatrix} \succeq 0 .

Any such :math:`X` gives the pH form (Beattie, Mehrmann & Van Dooren, *Robust
port-Hamiltonian representations of passive systems*, Automatica 100, 2019, Sec. 3)

.. math::
    Q = X,\quad J - R = AX^{-1},\quad G - P = B,\quad (G + P)^\top = CX^{-1},\quad
    S - N = D,

whose dissipation matrix is the congruence
:math:`W = \tfrac12\,\mathrm{diag}(X^{-1}, I)\,K(X)\,\mathrm{diag}(X^{-1}, I) \succeq 0`;
the transfer function is unchanged for *any* invertible :math:`X`
(:math:`CX^{-1}X(sI - AX^{-1}X)^{-1}B + D`), the structure needs the KYP.

**D + Dᵀ ≻ 0.** The extremal solutions :math:`X_{\min} \preceq X \preceq X_{\max}` (the
available storage and the required supply) solve the positive-real Riccati equation
:math:`A^\top X + XA + (XB - C^\top)(D + D^\top)^{-1}(B^\top X - C) = 0`: with
:math:`X = -Z`, :math:`Z` is the stabilizing solution of SciPy's
``solve_continuous_are(A, B, 0, D + Dᵀ, s=Cᵀ)``, and the other extreme is
:math:`+Z` of the same call for :math:`(-A, -C^\top)` (the substitution
:math:`X \mapsto -X, A \mapsto -A, C \mapsto -C` maps the equation to itself).  At
either extreme :math:`K(X)` has rank :math:`m` (the least possible: the Schur
complement vanishes), so :math:`W` has rank :math:`m` and the pH form sits on the
boundary of the solution set, where an arbitrarily small perturbation of the data can
make :math:`W` indefinite.  BMV 2019 therefore take :math:`X` inside the solution set
(they study the analytic centre, which needs an LMI/Newton solver we do not ship).  By
default (``storage="geometric"``) we take the geometric mean
:math:`X_\# = X_{\min}^{1/2}(X_{\min}^{-1/2}X_{\max}X_{\min}^{-1/2})^{1/2}X_{\min}^{1/2}`,
the midpoint of the two extremes in the Riemannian metric of positive definite matrices:
it commutes with state transformations (:math:`T^\top(X_1\#X_2)T =
(T^\top X_1T)\#(T^\top X_2T)`) and with the duality :math:`X \mapsto X^{-1}` (which maps the
KYP solutions of the model to those of its dual :math:`(A^\top, C^\top, B^\top, D^\top)`,
swapping the extremes).  Whether :math:`K(X_\#) \succeq 0` is *checked* each time (it is
not assumed); when it fails the arithmetic mean :math:`(X_{\min} + X_{\max})/2` is used,
which is a solution because the set is convex (:math:`K` is affine in :math:`X`).
Measured on the chains of tests/export/test_passive.py, :math:`X_\#` has a condition
number 3–100× smaller than either extreme, and :math:`K(X_\#) \succ 0` (a strict
interior point) when the model has a feed-through; ``storage="min"`` (the available
storage), ``"max"`` (the required supply) and ``"mid"`` are there to compare.  Both
Riccati solves need :math:`G(j\omega) + G(j\omega)^H \succ 0` at every finite ω; a
Popov function singular somewhere (e.g. a port without loss at DC, like the force on a
mass held by a spring, whose mobility vanishes at ω = 0) makes SciPy's Hamiltonian
pencil singular, and such a model is refused.

Modes on the imaginary axis (simple poles of a positive-real function, lossless) are
split off first by an ordered real Schur form and a Sylvester equation,
:math:`A \sim \mathrm{diag}(A_s, A_0)`; there the KYP matrix must vanish,
:math:`A_0^\top X_0 + X_0A_0 = 0`, :math:`X_0B_0 = C_0^\top` (a linear system, solved by
least squares and checked), and :math:`X = \mathrm{diag}(X_s, X_0)` in those coordinates
with :math:`X_s` from the Riccati equations of the stable part.

**D + Dᵀ = 0** (e.g. D = 0, most mechanical and circuit models).  Then :math:`XB = C^\top`
is forced.  For :math:`CB = (CB)^\top \succ 0` (relative degree one, which passivity
implies for a minimal model with :math:`B` of full rank) the coordinates
:math:`x = T\tilde x`, :math:`T = [B,\ V]` with :math:`V` a basis of :math:`\ker C`, give
:math:`T^\top XT = \mathrm{diag}(CB, Y)`, and :math:`K(X) \succeq 0` becomes the KYP
inequality of the smaller system :math:`(\tilde A_{22}, \tilde A_{21}, -CB\tilde A_{12},
\tfrac12 R_1)`, :math:`R_1 = -(\tilde A_{11}^\top CB + CB\tilde A_{11})`, in :math:`Y`
(a Schur complement; the zero dynamics :math:`\tilde A_{22}` play the role of A), solved
in turn.  A singular :math:`D + D^\top \neq 0` is refused: split the ports instead.

A model that is not passive is refused with the reason given by
:func:`porthamiltonian.analysis.passivity` (a pole in the right half-plane, or a frequency
where :math:`G(j\omega) + G(j\omega)^H` has a negative eigenvalue); a passive but
non-minimal one (an eigenvector with :math:`Cv \approx 0` or :math:`w^H B \approx 0`)
has no :math:`X \succ 0` and is refused with a pointer to a minimal realization.  The
result is checked: :math:`K(X) \succeq 0` to round-off, else refused — the extremal
storages of a long, lightly coupled chain differ by more than double precision resolves
(the benchmark chain of 50 cells in elongation coordinates, minimal with 99 states, has
:math:`\mathrm{cond}\,X_{\min} \approx 10^{17}`), and such a model is best kept in the pH
form it was built in.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.linalg as sla

from ..analysis.passivity import passivity
from ..descriptor import DescriptorPHS
from ..errors import ModelError
from ..linear_ph import LinearPH
from ..phs import PHS

__all__ = ["from_state_space", "from_control", "kyp_solution"]

STORAGES = ("geometric", "mid", "min", "max")
TOL = 1e-10


def from_state_space(A: Any, B: Any, C: Any, D: Any = None, *, E: Any = None,
                     states: Sequence[str] | None = None, inputs: Sequence[str] | None = None,
                     outputs: Sequence[str] | None = None, name: str = "",
                     storage: str = "geometric") -> PHS | DescriptorPHS:
    r"""The pH form of the passive, minimal ``E ẋ = Ax + Bu, y = Cx + Du`` (module docstring).

    An invertible ``E`` is kept: with :math:`X` the KYP solution of
    :math:`(E^{-1}A, E^{-1}B, C, D)`, :math:`Q = E^{-\top}X` (so :math:`E^\top Q = X`),
    :math:`J - R = AQ^{-1}`, :math:`(G + P)^\top = CQ^{-1}` and the result is a
    :class:`DescriptorPHS`.  ``storage`` chooses the KYP solution: ``"geometric"`` (default;
    the geometric mean of the extremes, checked), ``"mid"`` (their arithmetic mean),
    ``"min"`` (available storage) or ``"max"`` (required supply).
    Raises :class:`ModelError` when the model is not passive, not minimal, or has a
    singular ``E`` or a singular nonzero ``D + Dᵀ``.
    """
    A, B, C, D, E = _check_sizes(A, B, C, D, E)
    if storage not in STORAGES:
        raise ModelError(f"storage={storage!r}: choose one of {', '.join(STORAGES)}")
    n = A.shape[0]
    if E is None:
        As, Bs = A, B
    else:
        if np.linalg.cond(E) > 1e12:
            raise ModelError("E is singular (or nearly): from_state_space needs an invertible "
                             "E; write the algebraic part as constraints of a DescriptorPHS")
        As, Bs = np.linalg.solve(E, A), np.linalg.solve(E, B)
    _check_minimal(As, Bs, C, states)
    report = passivity((As, Bs, C, D), method="frequency")
    if not report.passive:
        raise ModelError(f"{name or 'the model'} is {report.reason}; only a passive "
                         "(positive-real) model has a port-Hamiltonian form")
    X = kyp_solution(As, Bs, C, D, storage=storage)
    K = np.block([[-As.T @ X - X @ As, C.T - X @ Bs], [C - Bs.T @ X, D + D.T]])
    kmin, kscale = float(np.linalg.eigvalsh(K)[0]), max(1.0, float(np.max(np.abs(K))))
    if kmin < -1e-8 * kscale:  # the extremal storages were not computed accurately
        raise ModelError(
            f"the storage X found for the KYP inequality violates it (smallest eigenvalue "
            f"{kmin:.3g} of K(X), cond X = {np.linalg.cond(X):.3g}): the extremal storages of "
            "this model differ by more than double precision resolves (long, lightly "
            "coupled chains do); keep the model in pH form where it was built, or reduce "
            "it first")
    lam = np.linalg.eigvalsh(X)
    if n and lam[0] <= 1e-10 * lam[-1]:
        raise ModelError(
            f"the storage X of the KYP inequality is singular (eigenvalues {lam[0]:.3g} … "
            f"{lam[-1]:.3g}): the realization is not minimal; remove its uncontrollable and "
            "unobservable states first (control.minreal, or scipy.signal.ss2tf/tf2ss)")
    Xinv = np.linalg.inv(X)
    Et = np.eye(n) if E is None else E.T
    F = A @ Xinv @ Et  # (J − R) = A Q⁻¹, Q⁻¹ = X⁻¹Eᵀ
    GP = (C @ Xinv @ Et).T  # G + P
    lin = LinearPH(E=np.eye(n) if E is None else E, J=(F - F.T) / 2, R=-(F + F.T) / 2,
                   Q=X if E is None else np.linalg.solve(E.T, X), G=(GP + B) / 2,
                   P=(GP - B) / 2, S=(D + D.T) / 2, N=-(D - D.T) / 2,
                   states=tuple(states or ()), inputs=tuple(inputs or ()),
                   outputs=tuple(outputs or ()), name=name)
    return lin.to_system(check=True)


def from_control(sys: Any, *, storage: str = "geometric") -> PHS | DescriptorPHS:
    """The pH form of a passive python-control ``StateSpace`` (continuous time), keeping
    its state, input and output names (:func:`from_state_space`)."""
    for attr in ("A", "B", "C", "D"):
        if not hasattr(sys, attr):
            raise ModelError(f"from_control needs a python-control StateSpace, not a "
                             f"{type(sys).__name__} (convert a transfer function with "
                             "control.ss(sys) and control.minreal)")
    if getattr(sys, "dt", 0) not in (0, None):
        raise ModelError(f"the model is discrete-time (dt = {sys.dt}); a port-Hamiltonian "
                         "model is continuous-time: convert with control.d2c or sample later")
    name = getattr(sys, "name", "") or ""
    if re.fullmatch(r"sys\[\d+\]", name):  # python-control's automatic name: not a name
        name = ""
    return from_state_space(sys.A, sys.B, sys.C, sys.D, states=list(sys.state_labels),
                            inputs=list(sys.input_labels), outputs=list(sys.output_labels),
                            name=name, storage=storage)


def kyp_solution(A: Any, B: Any, C: Any, D: Any, *, storage: str = "geometric",
                 tol: float = TOL) -> np.ndarray:
    """A symmetric solution ``X`` of the KYP inequality (module docstring), dense."""
    A, B, C, D = (np.asarray(M, dtype=float) for M in (A, B, C, D))
    n, m = B.shape
    if n == 0:
        return np.zeros((0, 0))
    DD = D + D.T
    scale = max(1.0, *(float(np.max(np.abs(M), initial=0.0)) for M in (A, B, C, D)))
    dmin, dmax = (np.linalg.eigvalsh(DD)[[0, -1]] if m else (0.0, 0.0))
    if dmin > tol * scale:
        X = _riccati(A, B, C, DD, storage, tol)
    elif max(abs(dmin), abs(dmax)) <= tol * scale:
        X = _relative_degree_one(A, B, C, storage, tol)
    else:
        raise ModelError(
            f"D + Dᵀ is singular but not zero (eigenvalues {dmin:.3g} … {dmax:.3g}); "
            "from_state_space handles D + Dᵀ ≻ 0 and D + Dᵀ = 0: split the ports with and "
            "without feed-through into two models")
    return (X + X.T) / 2


def _riccati(A: np.ndarray, B: np.ndarray, C: np.ndarray, DD: np.ndarray, storage: str,
             tol: float) -> np.ndarray:
    """D + Dᵀ ≻ 0: the imaginary-axis modes split off (lossless, X fixed there), the
    extremal Riccati solutions of the rest, and the chosen storage."""
    n = A.shape[0]
    scale = max(1.0, float(np.max(np.abs(A))))
    T, Z, k = sla.schur(A, output="real", sort=lambda re, im: re < -1e-8 * scale)
    if k < n:  # modes on the imaginary axis: decouple them (Sylvester) and treat apart
        Y = sla.solve_sylvester(T[:k, :k], -T[k:, k:], -T[:k, k:])
        S = Z @ np.block([[np.eye(k), Y], [np.zeros((n - k, k)), np.eye(n - k)]])
        Bt, Ct = np.linalg.solve(S, B), C @ S
        Xs = _riccati(T[:k, :k], Bt[:k], Ct[:, :k], DD, storage, tol) if k else np.zeros((0, 0))
        X0 = _lossless(T[k:, k:], Bt[k:], Ct[:, k:])
        Si = np.linalg.inv(S)
        return Si.T @ sla.block_diag(Xs, X0) @ Si
    zero = np.zeros_like(A)
    try:
        X1 = -sla.solve_continuous_are(A, B, zero, DD, s=C.T)
        # the anti-stabilizing one: X ↦ −X, A ↦ −A, Cᵀ ↦ −Cᵀ maps the equation to itself
        X2 = sla.solve_continuous_are(-A, B, zero, DD, s=-C.T)
    except (np.linalg.LinAlgError, ValueError) as exc:
        raise ModelError(
            "the positive-real Riccati equation has no solution for this model: G(jω) + "
            "G(jω)ᴴ is singular at some frequency (e.g. a port without loss at DC), or the "
            f"realization is not minimal, or it is too ill-conditioned ({exc})") from exc
    lo, hi = (X1, X2) if np.trace(X1) <= np.trace(X2) else (X2, X1)
    if storage != "geometric":
        return {"min": lo, "max": hi, "mid": (lo + hi) / 2}[storage]
    Xg = _geometric_mean(lo, hi)
    # the geometric mean is checked, not assumed: the mean is the fallback
    if Xg is not None and _kyp_ok(Xg, A, B, C, DD, tol):
        return Xg
    return (lo + hi) / 2


def _geometric_mean(X1: np.ndarray, X2: np.ndarray) -> np.ndarray | None:
    """X1 # X2 = X1^½ (X1^-½ X2 X1^-½)^½ X1^½ for X1, X2 ≻ 0 (None otherwise)."""
    lam, U = np.linalg.eigh((X1 + X1.T) / 2)
    if lam[0] <= 0:
        return None
    h, hi = U * np.sqrt(lam) @ U.T, U / np.sqrt(lam) @ U.T
    mu, V = np.linalg.eigh(hi @ X2 @ hi)
    if mu[0] <= 0:
        return None
    Xg = h @ (V * np.sqrt(mu)) @ V.T @ h
    return (Xg + Xg.T) / 2


def _kyp_ok(X: np.ndarray, A: np.ndarray, B: np.ndarray, C: np.ndarray, DD: np.ndarray,
            tol: float) -> bool:
    K = np.block([[-A.T @ X - X @ A, C.T - X @ B], [C - B.T @ X, DD]])
    return bool(np.linalg.eigvalsh(K)[0] >= -1e3 * tol * max(1.0, float(np.max(np.abs(K)))))


def _lossless(A0: np.ndarray, B0: np.ndarray, C0: np.ndarray) -> np.ndarray:
    """X₀ with A₀ᵀX₀ + X₀A₀ = 0 and X₀B₀ = C₀ᵀ (imaginary-axis modes: no loss, and the
    KYP matrix of this part must vanish), by least squares on vec X₀."""
    k, m = B0.shape
    eye = np.eye(k)
    # vec(A₀ᵀX + XA₀) = (I ⊗ A₀ᵀ + A₀ᵀ ⊗ I) vec X ; vec(XB₀) = (B₀ᵀ ⊗ I) vec X ;
    # symmetry X − Xᵀ = 0 through the commutation matrix
    perm = np.eye(k * k)[[j * k + i for i in range(k) for j in range(k)]]
    M = np.vstack([np.kron(eye, A0.T) + np.kron(A0.T, eye), np.kron(B0.T, eye),
                   np.eye(k * k) - perm])
    rhs = np.concatenate([np.zeros(k * k), C0.T.reshape(-1, order="F"), np.zeros(k * k)])
    x, *_ = np.linalg.lstsq(M, rhs, rcond=None)
    X0 = x.reshape(k, k, order="F")
    res = np.linalg.norm(M @ x - rhs) / max(1.0, np.linalg.norm(rhs))
    if res > 1e-8 or np.linalg.eigvalsh((X0 + X0.T) / 2)[0] <= 0:
        raise ModelError(
            "the modes on the imaginary axis admit no positive storage (they are "
            "uncontrollable or unobservable, or their residues are not positive): remove "
            "them with a minimal realization (control.minreal)")
    return (X0 + X0.T) / 2


def _relative_degree_one(A: np.ndarray, B: np.ndarray, C: np.ndarray, storage: str,
                         tol: float) -> np.ndarray:
    """D + Dᵀ = 0: XB = Cᵀ forced; reduce to the KYP inequality of the zero dynamics."""
    n, m = B.shape
    CB = C @ B
    sym = (CB + CB.T) / 2
    cb_scale = max(float(np.max(np.abs(CB))), 1e-300)
    lam = np.linalg.eigvalsh(sym)
    if float(np.max(np.abs(CB - CB.T))) > 1e-8 * cb_scale or lam[0] <= 1e-10 * cb_scale:
        raise ModelError(
            "D + Dᵀ = 0 and CB is not symmetric positive definite (eigenvalues of its "
            f"symmetric part {lam[0]:.3g} … {lam[-1]:.3g}): no storage with XB = Cᵀ and "
            "X ≻ 0 exists; the model is not passive, not minimal, or B/C lack full rank")
    if n == m:
        return C.T @ np.linalg.solve(sym, C)  # X = Cᵀ(CB)⁻¹C, T = B: nothing else to fix
    V = sla.null_space(C)
    T = np.hstack([B, V])
    At = np.linalg.solve(T, A @ T)
    A11, A12, A21, A22 = At[:m, :m], At[:m, m:], At[m:, :m], At[m:, m:]
    R1 = -(A11.T @ sym + sym @ A11)
    Y = kyp_solution(A22, A21, -sym @ A12, R1 / 2, storage=storage, tol=tol)
    Ti = np.linalg.inv(T)
    return Ti.T @ sla.block_diag(sym, Y) @ Ti


def _check_minimal(A: np.ndarray, B: np.ndarray, C: np.ndarray,
                   states: Sequence[str] | None) -> None:
    """PBH test on the eigenvectors: a mode with Cv ≈ 0 or wᴴB ≈ 0 has no storage
    X ≻ 0 (the KYP inequality leaves it free or forces zero energy on it)."""
    n = A.shape[0]
    if n == 0 or n > 2000:  # dense eigenvectors; a large model is left to the later checks
        return
    lam, W, V = sla.eig(A, left=True, right=True)
    scale_b, scale_c = max(np.linalg.norm(B, 2), 1e-300), max(np.linalg.norm(C, 2), 1e-300)
    for what, vecs, gain in (("unobservable", V, lambda v: np.linalg.norm(C @ v) / scale_c),
                             ("uncontrollable", W, lambda w: np.linalg.norm(w.conj() @ B)
                              / scale_b)):
        for i in range(n):
            v = vecs[:, i] / np.linalg.norm(vecs[:, i])
            if gain(v) <= 1e-9:
                names = list(states) if states and len(states) == n else [f"x{j}" for j in
                                                                          range(n)]
                raise ModelError(
                    f"the realization is not minimal: the mode λ = {lam[i]:.4g} (mostly "
                    f"{names[int(np.argmax(np.abs(v)))]}) is {what}, so no storage X ≻ 0 "
                    "solves the KYP inequality; remove it first (control.minreal), or keep "
                    "the model in the pH form where it was built")


def _check_sizes(A: Any, B: Any, C: Any, D: Any, E: Any) -> tuple[np.ndarray, ...]:
    try:
        A, B, C = (np.atleast_2d(np.asarray(M, dtype=float)) for M in (A, B, C))
        D = np.zeros((C.shape[0], B.shape[1])) if D is None else np.atleast_2d(
            np.asarray(D, dtype=float))
        E = None if E is None else np.atleast_2d(np.asarray(E, dtype=float))
    except (TypeError, ValueError) as exc:
        raise ModelError(f"A, B, C, D, E must be real numeric matrices ({exc})") from exc
    n, m, p = A.shape[0], B.shape[1], C.shape[0]
    expect = {"A": (A, (n, n)), "B": (B, (n, m)), "C": (C, (p, n)), "D": (D, (p, m))}
    if E is not None:
        expect["E"] = (E, (n, n))
    for key, (M, shape) in expect.items():
        if M.shape != shape:
            raise ModelError(f"{key} is {M.shape[0]}×{M.shape[1]}; with A {n}×{n}, B with "
                             f"{m} inputs and C with {p} outputs it must be "
                             f"{shape[0]}×{shape[1]}")
        if not np.all(np.isfinite(M)):
            raise ModelError(f"{key} has NaN or infinite entries")
    if p != m:
        raise ModelError(f"{p} outputs and {m} inputs: a pH model pairs each input with one "
                         "output (the supply rate uᵀy); square the model first")
    if E is not None and np.array_equal(E, np.eye(n)):
        E = None
    return A, B, C, D, E
