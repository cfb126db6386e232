r"""Structure-preserving POD reduction of nonlinear port-Hamiltonian systems.

Beattie & Gugercin, *Structure-preserving model reduction for nonlinear
port-Hamiltonian systems*, IEEE CDC–ECC 2011; Chaturantabut, Beattie & Gugercin,
*Structure-preserving model reduction for nonlinear port-Hamiltonian systems*, SIAM J.
Sci. Comput. 38 (2016) B837–B865.  For :math:`\dot x = (J(x) - R(x))\nabla H(x) + (G(x) -
P(x))u`, the POD basis :math:`V` (:math:`n \times r`, :math:`V^\top V = I`) holds the
:math:`r` leading left singular vectors of the state snapshots
:math:`[x(t_1), \dots, x(t_k)]`, and :math:`x \approx Vx_r`,
:math:`H_r(x_r) = H(Vx_r)`, so :math:`\nabla H_r(x_r) = V^\top\nabla H(Vx_r)`.

**Snapshots augmented by J** (``augment=True``, the default, for a constant :math:`J`):
the POD runs on :math:`[X, JX]`, so :math:`\operatorname{range}V` is nearly
:math:`J`-invariant and :math:`J_r = V^\top JV` stays non-degenerate — every position
direction comes with its momentum, the idea of the cotangent lift / proper symplectic
decomposition (Peng & Mohseni, SIAM J. Sci. Comput. 38 (2016) A1–A27).  Plain POD may pick
one without the other: :math:`J_r` is then (nearly) singular (always for odd :math:`r`),
and spurious overdamped modes appear; on the quartic chain of the tests the output error
at r = 5 is 78 % without and 1.6 % at r = 6 with the augmentation (15 %, 5 %, 1.6 %,
0.4 % at r = 2, 4, 6, 8).

**Galerkin** (``projection="galerkin"``, the default, as in the papers): :math:`W = V`,

.. math::
    \dot x_r = (J_r - R_r)\nabla H_r(x_r) + (G_r - P_r)u,\quad
    J_r = W^\top J(Vx_r)W,\ R_r = W^\top R(Vx_r)W,\ G_r = W^\top G,\ P_r = W^\top P,

:math:`y_r = (G_r + P_r)^\top\nabla H_r + (M + S)u`, :math:`x_r = W^\top x`.  It replaces
the efforts :math:`\nabla H(Vx_r)` by :math:`VV^\top\nabla H(Vx_r)`, exact only when they
lie in the state subspace.

**Effort projection** (``projection="effort"``): a second POD basis :math:`U_e` of the
co-energy snapshots :math:`\nabla H(x(t_k))` and :math:`W = U_e(V^\top U_e)^{-1}`
(:math:`W^\top V = I`) make :math:`WV^\top` an oblique projector onto the efforts,
:math:`\nabla H(Vx_r) \approx W\nabla H_r(x_r)` — the nonlinear counterpart of the effort
constraint :math:`W = QV(V^\top QV)^{-1}` of :mod:`.projection`, with the same formulas
for :math:`J_r, R_r, G_r, P_r`.  The oblique projector amplifies what the bases miss by
:math:`\operatorname{cond}(V^\top U_e)` (``info["condition"]``); on the quartic chain of
the tests neither variant was uniformly more accurate.

Either way the reduced model is pH: :math:`J_r` is skew,
:math:`W_r = \operatorname{diag}(W, I)^\top W_{full}\operatorname{diag}(W, I) \succeq 0`,
so :math:`\dot H_r = u^\top y_r - [\nabla H_r; u]^\top W_r[\nabla H_r; u] \le u^\top y_r`
exactly, and the discrete-gradient integrator closes the reduced power balance to
round-off.  The snapshots should cover the inputs and states of interest; :math:`H_r`
keeps the full energy law, so its cost grows with :math:`n` (no hyper-reduction/DEIM).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError
from ..phs import PHS
from .result import Reduction, check_order

__all__ = ["pod_basis", "pod_reduce"]


def _snapshot_matrix(snapshots: Any, n: int) -> np.ndarray:
    if snapshots is None:
        raise ModelError(
            "method='pod' needs snapshots=: a simulation result of the full model "
            "(porthamiltonian.simulate(...)) or an array of states, n × k (one column per "
            "snapshot) or k × n")
    X = getattr(snapshots, "x", snapshots)
    try:
        X = np.asarray(X, dtype=float)
    except (TypeError, ValueError):
        raise ModelError("snapshots= must be a simulation result or an n × k array of "
                         "numbers (one column per snapshot)") from None
    if X.ndim != 2:
        raise ModelError(f"snapshots must be a 2-D array of states, got shape {X.shape}")
    if X.shape[0] != n and X.shape[1] == n:
        X = X.T  # time-major, as SimulationResult.x
    if X.shape[0] != n:
        raise ModelError(f"snapshots have shape {X.shape}; the system has {n} states")
    if not np.all(np.isfinite(X)):
        raise ModelError("the snapshots contain NaN or infinite values; simulate again "
                         "with a smaller step or check the model")
    return X


def pod_basis(snapshots: Any, order: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``(V, σ)``: the ``order`` leading left singular vectors of the snapshots and all
    singular values."""
    X = _snapshot_matrix(snapshots, n)
    U, s, _ = np.linalg.svd(X, full_matrices=False)
    rank = int(np.sum(s > 1e-12 * s[0])) if s.size and s[0] > 0 else 0
    if order > rank:
        raise ModelError(f"the snapshots span only {rank} directions, fewer than "
                         f"order={order}: give more (or more varied) snapshots, or a lower "
                         "order")
    return U[:, :order], s


def _constant_J(system: PHS) -> np.ndarray | None:
    """J as numbers when it does not depend on the state, else ``None``."""
    if not system.symbolic:
        J = system.J
        return np.asarray(J.toarray() if hasattr(J, "toarray") else J, dtype=float)
    J = sp.ImmutableMatrix(system.matrices()["J"]).xreplace(system.parameter_values())
    if J.free_symbols:
        return None
    return np.asarray(J.tolist(), dtype=float).reshape(J.shape)


def pod_reduce(system: Any, order: int, *, snapshots: Any = None, name: str | None = None,
               projection: str = "galerkin", augment: bool = True, **options: Any
               ) -> Reduction:
    """The POD reduced model of ``system`` (module docstring) as a :class:`Reduction`."""
    t0 = time.perf_counter()
    if options:
        raise ModelError(f"unknown option(s) {', '.join(sorted(options))} for method 'pod'; "
                         "it takes snapshots=, projection= and augment=")
    if projection not in ("effort", "galerkin"):
        raise ModelError(f"projection={projection!r}: choose 'effort' or 'galerkin'")
    if not isinstance(system, PHS):
        raise ModelError(f"method='pod' reduces a PHS, not a {type(system).__name__}; "
                         "convert descriptor systems with .to_phs() first")
    n = system.n_states
    order = check_order(order, n)
    X = _snapshot_matrix(snapshots, n)
    J = _constant_J(system) if augment else None
    V, s = pod_basis(np.hstack([X, J @ X]) if J is not None else X, order, n)
    W = V
    info: dict[str, Any] = {"singular_values": s, "augmented": J is not None,
                            "captured_energy": float(np.sum(s[:order] ** 2) / np.sum(s**2))}
    if projection == "effort":
        E = np.array([system.gradient(x) for x in X.T]).T  # co-energy snapshots
        Ue, se = pod_basis(E, order, n)
        K = V.T @ Ue
        cond = np.linalg.cond(K)
        if not np.isfinite(cond) or cond > 1e10:
            raise ModelError(f"the state and co-energy subspaces are nearly orthogonal "
                             f"(condition {cond:.2g}); use projection='galerkin' or other "
                             "snapshots")
        W = np.linalg.solve(K.T, Ue.T).T  # U_e (Vᵀ U_e)⁻¹
        info.update(effort_singular_values=se, condition=float(cond))
    label = name if name is not None else (f"{system.name} (reduced, pod, r={order})"
                                           if system.name else f"reduced (pod, r={order})")
    red = _project_symbolic(system, V, W, label) if system.symbolic else \
        _project_numeric(system, V, W, label)
    info["seconds"] = time.perf_counter() - t0
    return Reduction(system=red, V=V, W=W, method="pod", order=order, n_full=n, info=info)


def _project_numeric(system: PHS, V: np.ndarray, W: np.ndarray, label: str) -> PHS:
    from .standard import standard_form, to_phs

    lin = standard_form(system)
    J, R = W.T @ lin.J @ W, W.T @ lin.R @ W
    return to_phs(J, R, V.T @ lin.Q @ V, W.T @ lin.G, W.T @ lin.P, lin.S, lin.N, lin, label)


def _project_symbolic(system: PHS, V: np.ndarray, W: np.ndarray, label: str) -> PHS:
    values = system.parameter_values()
    missing = [p for p in system.free_parameters() if system.parameters.get(p) is None]
    if missing:
        raise ModelError(f"parameters without a value: {', '.join(missing)}; POD needs "
                         "numbers (the basis belongs to one parameter set): give them with "
                         "system.with_parameters(...)")
    r = V.shape[1]
    xr = [sp.Symbol(f"xr{i}", real=True) for i in range(r)]
    xs = system.state_symbols
    # x = V x_r, with V's entries as floats (the reduced model is numeric in them)
    lift = {xj: sum((sp.Float(V[j, i]) * xr[i] for i in range(r) if V[j, i] != 0),
                    sp.S.Zero) for j, xj in enumerate(xs)}
    H = system.hamiltonian.xreplace(values).xreplace(lift)
    mats = system.matrices()
    out: dict[str, Any] = {}
    for key in ("J", "R", "G", "P"):
        A = sp.ImmutableMatrix(mats[key]).xreplace(values)
        if A.free_symbols & set(xs):  # state dependent: project symbolically
            A = A.xreplace(lift)
            left = sp.Matrix(W.T)
            out[key] = left * A * (sp.Matrix(W) if key in ("J", "R") else sp.eye(A.shape[1]))
        else:
            num = np.asarray(A.tolist(), dtype=float).reshape(A.shape)
            red = W.T @ num @ W if key in ("J", "R") else W.T @ num
            if key == "J":
                red = (red - red.T) / 2
            elif key == "R":
                red = (red + red.T) / 2
            out[key] = red
    for key in ("M", "S"):
        out[key] = sp.ImmutableMatrix(mats[key]).xreplace(values)
    return PHS(J=out["J"], R=out["R"], G=out["G"], P=out["P"], M=out["M"], S=out["S"],
               hamiltonian=H, states=[str(x) for x in xr], inputs=list(system.inputs),
               outputs=list(system.outputs), name=label, check=True)
