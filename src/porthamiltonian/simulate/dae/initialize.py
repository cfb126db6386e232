r"""Consistent initial values of a descriptor pH system.

For :math:`E\dot x = f(x, z(x), \lambda, u)`, :math:`0 = c(x) = B(x)^\top z(x)`, a
consistent point :math:`(x_0, \lambda_0, \dot x_0)` at :math:`t_0` satisfies

1. the algebraic equations :math:`L^\top f = 0` (:math:`L` spans :math:`\ker E^\top`):
   they fix the algebraic part :math:`N a` of the state (:math:`N` spans
   :math:`\ker E`); the user's values of those components are replaced;
2. the hidden constraint :math:`\tfrac{d}{dt}c = C(x)\,\dot x = 0` with
   :math:`C = \partial c/\partial x` and :math:`\dot x = E^{+} f`: it fixes
   :math:`\lambda` (the constraint force needed to stay on the constraint);
3. the constraint itself, :math:`c(x_0) = 0`.

(1) and (2) are solved together for :math:`(a, \lambda)` (MINPACK ``hybr`` through
:func:`scipy.optimize.root`).  Without algebraic states (mechanisms: :math:`E = I`) (2)
is linear in the multipliers, :math:`f = f_0 + B\lambda`, and is solved directly:
:math:`(C E^{+} B)\,\lambda = -C E^{+} f_0`.  Whether the unknowns are determined is
judged on the equilibrated matrix (rows and columns scaled to unit maximum), so a
well-posed but badly scaled system (light and heavy bodies, stiff and soft springs) is
not mistaken for a singular one.  (3) involves the *differential* states, whose initial
values are the user's data: a violation is reported naming the constraint (by its
multiplier) and the states it involves, never repaired silently — moving a
differential state would change the initial energy.  The solve of (1)–(2) assumes
the constraints do not involve the derivatives of algebraic states
(:math:`C N = 0`), which holds for the index-1 and Hessenberg index-2 systems
(mechanical constraints, circuit loops) these solvers are meant for.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.optimize as so
import scipy.sparse as sps
import scipy.sparse.linalg as spla

from ...compiled.descriptor import CompiledDescriptor, _dense, is_identity
from ...errors import ModelError
from ..problem.inputs import InputSignal

__all__ = ["consistent_point", "check_constraints", "CONSTRAINT_TOL"]

#: Relative tolerance of ``|B(x)ᵀz| ≤ tol · Σ|B||z|`` for an initial state.
CONSTRAINT_TOL = 1e-9


class _Pinv:
    """``v = E⁺ r`` (identity fast path; a sparse LU when ``E`` is sparse and invertible,
    e.g. a finite-element mass matrix; else a dense pseudo-inverse computed once)."""

    def __init__(self, E: Any, invertible: bool = False) -> None:
        self.eye = is_identity(E)
        self.lu = None
        if invertible and sps.issparse(E) and not self.eye:
            try:
                self.lu = spla.splu(sps.csc_matrix(E))
            except RuntimeError:  # singular after all: the pseudo-inverse below
                self.lu = None
        self.P = None if self.eye or self.lu is not None else np.linalg.pinv(_dense(E))

    def __call__(self, r: np.ndarray) -> np.ndarray:
        if self.eye:
            return r
        return self.lu.solve(np.asarray(r, dtype=float)) if self.lu is not None else self.P @ r


def _pinv(model: CompiledDescriptor) -> _Pinv:
    if not hasattr(model, "_pinv"):
        model._pinv = _Pinv(model.E, model.algebraic.shape[1] == 0)  # type: ignore[attr-defined]
    return model._pinv  # type: ignore[attr-defined]


def consistent_point(
    model: CompiledDescriptor, t: float, x: np.ndarray, signal: InputSignal,
    lam_guess: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(x, λ, ẋ)`` with the algebraic states and ``λ`` made consistent at time ``t``.

    Raises :class:`ModelError` naming the algebraic states / constraints when no
    consistent values are found (index > 1 after reduction, or a singular system).
    A model whose constraints involve its algebraic states (``C N ≠ 0``, e.g. the spin
    rates of slender bodies) brings its own ``consistent_point(t, x, signal, lam_guess)``
    (optional in :mod:`porthamiltonian.compiled.protocol`), which is used instead.
    """
    own = getattr(model, "consistent_point", None)
    if own is not None:
        return own(t, x, signal, lam_guess)
    N, L, k = model.algebraic, model.left_kernel, model.k
    na = N.shape[1]
    pinv = _pinv(model)
    x = np.asarray(x, dtype=float)
    lam0 = np.zeros(k) if lam_guess is None else np.asarray(lam_guess, dtype=float)

    def point(v: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        xa = x + N @ v[:na]
        lam = v[na:]
        u = signal(t, xa)
        F = model.f(xa, model.z(xa), lam, u)
        return xa, lam, F

    def equations(v: np.ndarray) -> np.ndarray:
        xa, _, F = point(v)
        parts = [L.T @ F]
        if k:
            parts.append(np.asarray(model.constraint_jacobian(xa) @ pinv(F)).reshape(k))
        return np.concatenate(parts)

    if na + k == 0:
        u = signal(t, x)
        return x.copy(), lam0, pinv(model.f(x, model.z(x), lam0, u))
    if na == 0:
        return _linear_multipliers(model, t, x, signal, pinv)
    v0 = np.concatenate([np.zeros(na), lam0])
    sol = so.root(equations, v0, method="hybr", options={"xtol": 1e-14})
    res = equations(sol.x)
    scale = 1.0 + float(np.max(np.abs(sol.x), initial=0.0))
    if not np.all(np.isfinite(res)) or np.max(np.abs(res), initial=0.0) > 1e-8 * scale:
        raise ModelError(
            f"no consistent initial values at t = {t:g} s for {_unknowns_text(model)} "
            f"({sol.message.strip()}); the DAE may be of index > 1 in these variables or "
            "singular (a constraint that the multipliers cannot enforce, an algebraic "
            "state no equation determines) — check E, B and the resistive structure"
        )
    _check_determined(model, equations, sol.x, na)
    xa, lam, F = point(sol.x)
    return xa, lam, pinv(F)


def _check_determined(model: CompiledDescriptor, equations: Any, v: np.ndarray,
                      na: int) -> None:
    """The algebraic unknowns must be fixed by the equations (index ≤ 1 in them, hidden
    constraint solvable for λ): a rank-deficient Jacobian means some are free."""
    step = 1e-7 * (1.0 + np.abs(v))
    cols = [(equations(v + step[j] * e) - equations(v - step[j] * e)) / (2 * step[j])
            for j, e in enumerate(np.eye(v.size))]
    free = _undetermined(np.column_stack(cols))
    if free is None:
        return
    _raise_undetermined(model, free, na)


def _equilibrated(A: np.ndarray) -> np.ndarray:
    """``A`` with rows, then columns, scaled to unit maximum (zero ones left as they are)."""
    r = np.max(np.abs(A), axis=1, keepdims=True)
    A = A / np.where(r > 0, r, 1.0)
    c = np.max(np.abs(A), axis=0, keepdims=True)
    return A / np.where(c > 0, c, 1.0)


def _undetermined(A: np.ndarray) -> int | None:
    """Index of an unknown the square system ``A`` leaves free (rank-deficient after
    equilibration), else ``None``."""
    _, s, Vt = np.linalg.svd(_equilibrated(A))
    if s.size and s[-1] > 1e-10 * max(1.0, s[0]):
        return None
    return int(np.argmax(np.abs(Vt[-1])))


def _linear_multipliers(model: CompiledDescriptor, t: float, x: np.ndarray,
                        signal: InputSignal, pinv: Any
                        ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    r"""``(x, λ, ẋ)`` without algebraic states: :math:`(CE^+B)\lambda = -CE^+f_0`."""
    k = model.k
    u = signal(t, x)
    f0 = model.f(x, model.z(x), np.zeros(k), u)
    B = _dense(model.matrix("B", x))
    C = model.constraint_jacobian(x)
    A = np.asarray(C @ pinv(B), dtype=float)  # E⁺ applies to the columns of B at once
    rhs = -np.asarray(C @ pinv(f0), dtype=float).reshape(k)
    free = _undetermined(A)
    if free is not None:
        _raise_undetermined(model, free, 0)
    r = np.max(np.abs(A), axis=1)
    r = np.where(r > 0, r, 1.0)
    lam = np.linalg.solve(A / r[:, None], rhs / r)
    return x.copy(), lam, pinv(model.f(x, model.z(x), lam, u))


def _raise_undetermined(model: CompiledDescriptor, free: int, na: int) -> None:
    names = [model.states[int(np.argmax(np.abs(model.algebraic[:, j])))] for j in range(na)]
    names += [f"multiplier '{m}'" for m in model.multipliers]
    raise ModelError(
        f"{names[free]} is not determined by the equations (the algebraic equations / "
        "hidden constraints are singular in it): the DAE is not index 1 after reduction — "
        "give that state a storage or a resistive path, or remove a redundant constraint"
    )


def _unknowns_text(model: CompiledDescriptor) -> str:
    parts = []
    N = model.algebraic
    if N.shape[1]:
        rows = [int(np.argmax(np.abs(N[:, j]))) for j in range(N.shape[1])]
        parts.append("the algebraic state(s) " + ", ".join(model.states[i] for i in rows))
    if model.k:
        parts.append("the multiplier(s) " + ", ".join(model.multipliers))
    return " and ".join(parts)


def check_constraints(model: CompiledDescriptor, x: np.ndarray, what: str = "x0") -> None:
    """Raise :class:`ModelError` if ``x`` violates ``B(x)ᵀz(x) = 0``, naming the
    constraint (multiplier) and the states it involves."""
    if not model.k:
        return
    z = model.z(x)
    B = _dense(model.B(x))
    c = B.T @ z
    # the scale of a whole row, ‖B_i‖·‖z‖ (≥ |B_i|ᵀ|z|): a row whose terms all vanish in
    # exact arithmetic (a joint anchor at a body's origin) leaves only the round-off of z
    scale = np.linalg.norm(B, axis=0) * np.linalg.norm(z)
    bad = np.flatnonzero(np.abs(c) > CONSTRAINT_TOL * np.maximum(scale, 1e-300))
    bad = [i for i in bad if abs(c[i]) > 1e-300]
    if not bad:
        return
    C = _dense(model.constraint_jacobian(x))
    lines = []
    for i in bad:
        involved = [model.states[j] for j in np.flatnonzero(C[i])] or ["(none)"]
        lines.append(f"constraint '{model.multipliers[i]}' (0 = B[:, {i}]ᵀ z, involving "
                     f"{', '.join(involved)}): B[:, {i}]ᵀ z = {c[i]:.3g}")
    raise ModelError(
        f"{what} violates {'; '.join(lines)}. Constrained states are not repaired "
        "automatically (that would change the initial energy): give an initial state on "
        "the constraint (e.g. velocities compatible with the joints, equal voltages across "
        "parallel capacitors)",
        problems=[m.split(" (")[0] for m in lines],
    )
