r"""The dense standard form :math:`E = I` that every linear reduction method starts from.

A linear pH system :math:`E\dot x = (J-R)Qx + (G-P)u,\ y = (G+P)^\top Qx + (S-N)u`
(:mod:`porthamiltonian.linear_ph`) with an invertible :math:`E` is, in the state
:math:`\tilde x = Ex`, the pH system with :math:`\tilde Q = QE^{-1}`:
:math:`E^\top Q = Q^\top E` makes :math:`QE^{-1} = E^{-\top}(E^\top Q)E^{-1}` symmetric,
and :math:`\succeq 0` with :math:`E^\top Q`, and the energy is unchanged,
:math:`\tfrac12 x^\top E^\top Qx = \tfrac12\tilde x^\top\tilde Q\tilde x`.

A :class:`~porthamiltonian.DescriptorPHS` with constraints :math:`0 = B^\top Qx` (index 2)
has its solutions in :math:`\ker B^\top Q = \operatorname{range} V`; the effort-constraint
projection with this :math:`V` (:mod:`.projection`) removes the multipliers exactly,
because :math:`W^\top B = (V^\top QV)^{-1}(B^\top QV)^\top = 0` — the same construction that
reduces the order later, here without any approximation.

Here also: the numbers a reduced model is built from become a library :class:`PHS`
(:func:`to_phs`), with the structure checked.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import scipy.linalg as sla

from ..errors import ModelError
from ..linear_ph import LinearPH, linear_ph
from ..phs import PHS

__all__ = ["standard_form", "to_phs", "abcd", "is_linear_input"]


def is_linear_input(system: Any) -> bool:
    """Whether ``system`` can be read as linear pH matrices (numeric, quadratic H)."""
    if isinstance(system, LinearPH):
        return True
    try:
        linear_ph(system)
    except ModelError:
        return False
    return True


#: the most states the dense methods take: 200 MB per matrix, minutes per Riccati solve
MAX_STATES = 5000


def standard_form(system: Any) -> LinearPH:
    """``system`` as a dense :class:`LinearPH` with ``E = I`` (module docstring).

    Raises :class:`ModelError` for NaN/Inf entries, a singular ``E`` that is not the
    constraint block of a descriptor system, and anything :func:`linear_ph` refuses.
    """
    lin = linear_ph(system)
    if lin.n_states > MAX_STATES:
        raise ModelError(
            f"{lin.name or 'the model'} has {lin.n_states} states; reduce works with dense "
            f"matrices (Lyapunov and Riccati solves, O(n³)) up to {MAX_STATES} states. "
            "Discretize more coarsely first, or reduce in parts (e.g. each subsystem before "
            "interconnecting them)")
    lin = lin.dense()
    for key, A in lin.matrices().items():
        if not np.all(np.isfinite(A)):
            raise ModelError(f"matrix {key} has NaN or infinite entries; model reduction "
                             "needs finite numbers: check the parameter values")
    k = len(lin.multipliers)
    n = lin.n_states - k
    E = lin.E[:n, :n]
    J, R, Q = lin.J[:n, :n], lin.R[:n, :n], lin.Q[:n, :n]
    G, P = lin.G[:n], lin.P[:n]
    if k and (np.any(lin.R[n:]) or np.any(lin.R[:, n:]) or np.any(lin.G[n:])
              or np.any(lin.P[n:])):
        raise ModelError("the multipliers of this descriptor system enter R or G; only "
                         "constraints 0 = Bᵀ∇H can be eliminated")
    if not np.array_equal(E, np.eye(n)):
        lu = _invertible(E)
        Q = sla.lu_solve(lu, Q.T, trans=1).T  # Q E⁻¹ without forming E⁻¹
        Q = (Q + Q.T) / 2
    out = LinearPH(E=np.eye(n), J=J, R=R, Q=Q, G=G, P=P, S=lin.S, N=lin.N,
                   states=lin.states[:n], inputs=lin.inputs, outputs=lin.outputs,
                   name=lin.name)
    if k:
        out = _eliminate_constraints(out, lin.J[:n, n:])
    return out


def _invertible(E: np.ndarray) -> Any:
    with warnings.catch_warnings():  # a singular E is reported below, in words
        warnings.simplefilter("ignore", sla.LinAlgWarning)
        lu = sla.lu_factor(E)
    d = np.abs(np.diag(lu[0]))
    if d.size and d.min() <= 1e-13 * d.max():
        raise ModelError(
            "E is singular: this is a pH-DAE whose algebraic part is not a constraint "
            "0 = Bᵀ∇H of a DescriptorPHS; model reduction here needs an invertible E (an "
            "index-0 system) or constraints written as DescriptorPHS(B=...) — eliminate "
            "the algebraic variables first (DescriptorPHS.to_phs())")
    return lu


def _eliminate_constraints(lin: LinearPH, B: np.ndarray) -> LinearPH:
    from .projection import effort_bases, effort_constraint

    w, U = np.linalg.eigh(lin.Q)
    keep = w > 1e-12 * max(1.0, float(np.abs(w).max()))
    if not keep.all():  # first the states without energy (exact, see .minimal)
        _, W1, _ = effort_bases(lin, U[:, keep], orthonormal=True)
        lin = effort_constraint(lin, U[:, keep], orthonormal=True)
        B = W1.T @ B  # Bᵀ Q V₁ = Bᵀ W₁ Q₁
    V = sla.null_space(B.T @ lin.Q)
    if V.shape[1] == 0:
        raise ModelError("the constraints Bᵀ∇H = 0 leave no state free; nothing to reduce")
    return effort_constraint(lin, V, orthonormal=True)


def abcd(lin: LinearPH) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(A, B, C, D) = ((J-R)Q, G-P, (G+P)ᵀQ, S-N)`` of a standard-form system."""
    A, B, C, D = lin.state_space()
    return tuple(np.asarray(M, dtype=float) for M in (A, B, C, D))  # type: ignore[return-value]


def to_phs(J: np.ndarray, R: np.ndarray, Q: np.ndarray, G: np.ndarray, P: np.ndarray,
           S: np.ndarray, N: np.ndarray, like: LinearPH, name: str, *,
           tol: float = 1e-8) -> PHS:
    """The reduced numbers as a library :class:`PHS` (checked: J skew, W ⪰ 0, Q ≻ 0).

    Round-off is removed from the symmetric parts first (``(A + Aᵀ)/2``), so a
    violation that remains is real and raises :class:`StructureError` / ModelError.
    """
    J = (J - J.T) / 2
    R = (R + R.T) / 2
    Q = (Q + Q.T) / 2
    r = J.shape[0]
    lam = np.linalg.eigvalsh(Q) if r else np.ones(1)
    if lam.min() <= 0:
        raise ModelError(f"the reduced energy matrix Q_r is not positive definite (smallest "
                         f"eigenvalue {lam.min():.3g}); lower the order or remove the "
                         "unobservable part first (minimal=True)")
    return PHS(J=J, R=R, G=G, P=P, M=-N, S=S, Q=Q,
               states=[f"xr{i}" for i in range(r)], inputs=list(like.inputs) or None,
               outputs=list(like.outputs) or None, name=name, check=True, tol=tol)
