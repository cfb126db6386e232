r"""Undamped natural frequencies of a linear(ized) port-Hamiltonian system.

For :math:`E\dot x = (J-R)\,Qx + (G-P)\,u` the *undamped* motion drops ``R`` (and the
ports): multiplied by :math:`Q^\top` it reads

.. math::
    W\dot x = K x, \qquad W = E^\top Q = W^\top \succ 0, \qquad K = Q^\top J Q = -K^\top,

with the energy :math:`H = \tfrac12 x^\top W x` (J).  A motion :math:`x = v\,e^{i\omega t}`
solves the Hermitian-definite pencil :math:`(iK)\,v = \omega\,W v`: its eigenvalues are
real and come in pairs :math:`\pm\omega`.  The natural frequencies are the positive
:math:`\omega` (rad/s).  The zero eigenvalues — rigid-body motions, Casimirs such as a
divergence-free stress field — are excluded: they do not oscillate.  For damped modes
(:math:`\omega_n`, :math:`\zeta` of the eigenvalues of :math:`(J-R)Q`) see
:func:`porthamiltonian.analysis.modes`.

* **Dense** (at most :data:`DENSE_LIMIT` states): all of
  :math:`\operatorname{eigh}(iK, W)`; a computed :math:`|\omega| \le 4n\varepsilon\,
  \omega_{\max}` is a zero eigenvalue up to round-off.
* **Sparse** (finite-element models, :math:`10^5`–:math:`10^6` states): the graph of
  ``K`` must be *bipartite* — the states split into ``p`` (e.g. velocities) and ``q``
  (e.g. stresses), ``K`` couples only ``p`` with ``q`` and ``W`` has no entry across.
  With :math:`A = K_{qp}` (so :math:`K_{pq} = -A^\top`)
  :math:`W_p\dot x_p = -A^\top x_q`, :math:`W_q\dot x_q = A x_p`, hence

  .. math::  W_p\,\ddot x_p = -A^\top W_q^{-1} A\,x_p ,

  and :math:`\omega^2` are the eigenvalues of the symmetric-definite pencil
  :math:`(A^\top W_q^{-1}A,\ W_p)` on the smaller side ``p`` (fewer zero
  eigenvalues).  They are found by shift-invert Lanczos (ARPACK) at
  :math:`\sigma = -10^{-8}s` just below zero (``s`` estimates the largest
  :math:`\omega^2`), each solve :math:`(A^\top W_q^{-1}A - \sigma W_p)\,y = r` being one
  back-substitution: with the sparse LU of the (symmetric positive definite)
  :math:`A^\top W_q^{-1}A - \sigma W_p` itself when :math:`W_q` is block diagonal, so that
  its inverse is sparse (lumped or discontinuous finite elements), else with that of
  :math:`\left[\begin{smallmatrix} W_q & -A\\ A^\top & -\sigma W_p\end{smallmatrix}\right]`
  (then :math:`W_q^{-1}` is never formed).  A computed :math:`\omega^2 \le
  16\sqrt n\,\varepsilon s` is a zero eigenvalue (shift-invert resolves the
  eigenvalues near :math:`\sigma` to about :math:`\varepsilon|\sigma|`; the floor is the
  round-off of the operator, :math:`\varepsilon s` times a slowly growing factor), so
  frequencies down to about :math:`10^{-5}\,\omega_{\max}` are resolved at
  :math:`10^6` states.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sps
import scipy.sparse.csgraph as csg
import scipy.sparse.linalg as spla

from .._matrices import block_inverse, sparse_lu
from ..descriptor import DescriptorPHS
from ..errors import ModelError
from ..linear_ph import LinearPH, linear_ph
from ..phs import PHS
from .linear import linearize
from .modes import DENSE_LIMIT

#: sparse systems with more states than this use the second-order (bipartite) path
#: whenever their structure allows it
SPARSE_FROM = 300

__all__ = ["natural_frequencies", "natural_modes"]

#: extra eigenvalues asked of ARPACK beyond ``count`` (zero modes may take some)
MARGIN = 3


def natural_frequencies(system: Any, count: int, *, x0: Any = None, u0: Any = None,
                        allow_fewer: bool = False) -> np.ndarray:
    r"""The ``count`` lowest non-zero undamped natural frequencies :math:`\omega` (rad/s).

    Parameters
    ----------
    system:
        A :class:`~porthamiltonian.PHS`, :class:`~porthamiltonian.DescriptorPHS` (numeric,
        sparse or symbolic) or :class:`~porthamiltonian.linear_ph.LinearPH`.  A nonlinear
        model is linearized at ``(x0, u0)`` (:func:`~.linear.linearize`; without ``x0``
        at the equilibrium nearest the origin).
    count:
        How many frequencies, at least 1.
    x0, u0:
        Operating point of a nonlinear model (states, inputs).
    allow_fewer:
        Return the non-zero frequencies there are when fewer than ``count`` (none for an
        RC circuit) instead of raising.

    Returns
    -------
    numpy.ndarray
        ``count`` (with ``allow_fewer``: at most ``count``) frequencies in rad/s,
        ascending; zero (rigid-body, Casimir) modes are excluded and damping ``R``
        (``P``, ``S``) is ignored — see the module docstring.

    Raises
    ------
    ModelError
        ``count`` < 1 or more than the system has; ``EᵀQ`` not positive definite
        (constraints, singular ``E``); a large system whose ``J`` is not bipartite; the
        sparse eigensolver failing.
    """
    return _solve(system, count, x0, u0, allow_fewer, vectors=False)[0]


def natural_modes(system: Any, count: int, *, x0: Any = None, u0: Any = None,
                  allow_fewer: bool = False) -> tuple[np.ndarray, np.ndarray]:
    r"""The ``count`` lowest undamped modes: frequencies (rad/s) and mode shapes.

    Returns ``(omega, X)``: ``omega`` as :func:`natural_frequencies`, and the columns of
    ``X`` (states × modes) the states of the modes at the instant their energy is all in
    one field group — :math:`x(t) = X_k\cos\omega_k t` for that group (the velocities of
    a structure: the mode shape), each scaled to the energy
    :math:`\tfrac12 X_k^\top W X_k = \tfrac12` J.  For a model of a mesh,
    ``model.field("v", X[:, k])`` is the k-th mode shape's velocity field.  (For a
    nonlinear model, deviations from the operating point.)
    """
    return _solve(system, count, x0, u0, allow_fewer, vectors=True)


def _solve(system: Any, count: int, x0: Any, u0: Any, allow_fewer: bool, *, vectors: bool
           ) -> tuple[np.ndarray, Any]:
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)) or count < 1:
        raise ModelError(f"count = {count!r}: ask for at least 1 natural frequency")
    lin = _linear(system, x0, u0)
    n = lin.n_states
    W = lin.E.T @ lin.Q
    K = lin.Q.T @ (lin.J @ lin.Q)
    if n > SPARSE_FROM and sps.issparse(K):
        # a two-field (bipartite) sparse system: the second-order reduction is far
        # cheaper than the full Hermitian spectrum even at a few hundred states
        try:
            split = _split(sps.csr_array(W), sps.csr_array(K), lin)
        except ModelError:
            if n > DENSE_LIMIT:
                raise
        else:
            return _sparse(sps.csr_array(W), sps.csr_array(K), int(count), lin, allow_fewer,
                           vectors, split)
    if n <= DENSE_LIMIT:
        return _dense(_todense(W), _todense(K), int(count), lin, allow_fewer, vectors)
    return _sparse(sps.csr_array(W), sps.csr_array(K), int(count), lin, allow_fewer, vectors)


# ---------------------------------------------------------------------- the linear model
def _linear(system: Any, x0: Any, u0: Any) -> LinearPH:
    """E, J, Q of ``system`` (linearized when nonlinear, constraints eliminated when small)."""
    if isinstance(system, DescriptorPHS) and system.n_constraints:
        if system.core.n_states + system.n_constraints > DENSE_LIMIT:
            raise ModelError(
                f"{system.name or 'the descriptor system'} has {system.n_constraints} "
                "constraints (multipliers): its energy matrix is singular and it is too large "
                "to eliminate them densely; give the model without constraints (e.g. in "
                "coordinates that satisfy them)")
        system = system.to_phs()  # NoExplicitFormError says why when impossible
    if isinstance(system, LinearPH):
        return system
    if not isinstance(system, (PHS, DescriptorPHS)):
        raise ModelError(f"natural frequencies of a {type(system).__name__}: give a PHS, a "
                         "DescriptorPHS or a LinearPH (front-ends: .to_phs())")
    try:
        return linear_ph(system)
    except ModelError:  # nonlinear (or state-dependent): the pH linearization
        return linear_ph(linearize(system, x0, u0))


def _todense(A: Any) -> np.ndarray:
    return np.asarray(A.toarray() if sps.issparse(A) else A, dtype=float)


def _not_definite(lin: LinearPH) -> ModelError:
    cause = (f" (its multipliers {', '.join(lin.multipliers)} have no energy)"
             if lin.multipliers else "")
    return ModelError(
        f"the energy matrix EᵀQ of {lin.name or 'the system'} is not positive definite"
        f"{cause}: natural frequencies need an energy that every state stores; eliminate "
        "constraints and algebraic states first (DescriptorPHS.to_phs())")


# ---------------------------------------------------------------------- dense
def _dense(W: np.ndarray, K: np.ndarray, count: int, lin: LinearPH,
           allow_fewer: bool, vectors: bool = False) -> tuple[np.ndarray, Any]:
    n = W.shape[0]
    W = (W + W.T) / 2
    K = (K - K.T) / 2
    try:
        omega, V = sla.eigh(1j * K, W) if vectors else (sla.eigh(1j * K, W, eigvals_only=True),
                                                          None)
    except np.linalg.LinAlgError as exc:
        raise _not_definite(lin) from exc
    top = float(np.max(np.abs(omega), initial=0.0))
    keep = np.flatnonzero(omega > 4 * n * np.finfo(float).eps * top)
    keep = keep[np.argsort(omega[keep])]
    if count > keep.size and not allow_fewer:
        raise ModelError(f"count = {count}: {lin.name or 'the system'} has only {keep.size} "
                         "non-zero natural frequencies")
    keep = keep[:count]
    if not vectors:
        return omega[keep], None
    # x(t) = Re(v e^{iωt}); its snapshot at the phase where Re(v) carries the most energy
    X = np.empty((n, keep.size))
    for j, i in enumerate(keep):
        v = V[:, i]
        phase = 0.5 * np.angle(v @ W @ v)  # maximizes ‖Re(v e^{-iφ})‖_W
        x = np.real(v * np.exp(-1j * phase))
        X[:, j] = x / np.sqrt(x @ W @ x)
    return omega[keep], X


# ---------------------------------------------------------------------- sparse
def _sparse(W: sps.csr_array, K: sps.csr_array, count: int, lin: LinearPH,
            allow_fewer: bool, vectors: bool = False,
            split: tuple[np.ndarray, np.ndarray] | None = None) -> tuple[np.ndarray, Any]:
    n = W.shape[0]
    W = ((W + W.T) / 2).tocsr()
    p, q = _split(W, K, lin) if split is None else split
    A = K[q][:, p].tocsc()
    Wp, Wq = W[p][:, p].tocsc(), W[q][:, q].tocsc()
    dp, dq = Wp.diagonal(), Wq.diagonal()
    if np.any(dp <= 0) or np.any(dq <= 0):
        raise _not_definite(lin)
    # s ≈ the largest ω²: max of diag(Aᵀ diag(W_q)⁻¹ A) / diag(W_p)
    scale = float(np.max(np.asarray(A.multiply(A).T @ (1.0 / dq)).ravel() / dp,
                         initial=0.0))
    if scale <= 0 and allow_fewer:
        return np.zeros(0), np.zeros((n, 0)) if vectors else None
    if scale <= 0:
        raise ModelError(f"count = {count}: {lin.name or 'the system'} has no non-zero "
                         "natural frequency (J couples no states)")
    np_ = len(p)
    if count > np_ - 1 and allow_fewer:
        count = np_ - 1
    if count > np_ - 1:
        raise ModelError(f"count = {count}: ask for at most {np_ - 1} natural frequencies of "
                         f"{lin.name or 'this system'} ({np_} oscillating degrees of freedom)")
    sigma = -1e-8 * scale
    Wq_inv = block_inverse(Wq)
    if Wq_inv is not None:
        # W_q block diagonal (lumped or discontinuous elements): the stiffness
        # K_p = Aᵀ W_q⁻¹ A is sparse, K_p − σW_p symmetric positive definite, and its
        # factors (pivots on the diagonal, minimum-degree ordering) are far smaller
        # than those of the saddle-point matrix below
        Kp = (A.T @ Wq_inv @ A - sigma * Wp).tocsc()
        try:
            lu = sparse_lu(Kp)
        except RuntimeError as exc:
            raise _not_definite(lin) from exc
        solve = lu.solve
    else:
        aug = sps.block_array([[Wq, -A], [A.T, -sigma * Wp]], format="csc")
        try:
            lu = spla.splu(aug)
        except RuntimeError as exc:
            raise _not_definite(lin) from exc
        nq = len(q)

        def solve(r: np.ndarray) -> np.ndarray:
            return lu.solve(np.concatenate([np.zeros(nq), np.ravel(r)]))[nq:]
    opinv = spla.LinearOperator((np_, np_), dtype=float, matvec=lambda r: solve(np.ravel(r)))
    op = spla.LinearOperator((np_, np_), dtype=float,
                             matvec=lambda y: A.T @ spla.spsolve(Wq, A @ np.ravel(y)))
    tol = 16 * np.sqrt(n) * np.finfo(float).eps * scale  # see the module docstring
    k = min(count + MARGIN, np_ - 1)
    while True:
        try:
            out = spla.eigsh(op, k=k, M=Wp, sigma=sigma, which="LM", OPinv=opinv,
                             return_eigenvectors=vectors)
        except (RuntimeError, spla.ArpackNoConvergence) as exc:
            raise ModelError(
                f"the sparse eigensolver (ARPACK, shift-invert at {sigma:.3g} (rad/s)²) "
                f"failed for {lin.name or 'the system'} ({exc}); ask for fewer frequencies "
                "or check that EᵀQ is positive definite") from exc
        lam, Y = out if vectors else (out, None)
        order = np.argsort(lam)
        keep = order[lam[order] > tol]
        pos = lam[keep]
        if pos.size >= count or k >= np_ - 1:
            break
        k = min(k + (count - pos.size) + 2 * MARGIN, np_ - 1)  # zeros ate the margin
    if pos.size < count and not allow_fewer:
        raise ModelError(f"count = {count}: found only {pos.size} non-zero natural "
                         f"frequencies of {lin.name or 'the system'}")
    if not vectors:
        return np.sqrt(pos[:count]), None
    # W_p-orthonormal eigenvectors: the p-group state of each mode, energy ½ J
    X = np.zeros((n, min(count, keep.size)))
    X[p] = Y[:, keep[:count]]
    return np.sqrt(pos[:count]), X


def _split(W: sps.csr_array, K: sps.csr_array, lin: LinearPH) -> tuple[np.ndarray, np.ndarray]:
    r"""States ``(p, q)``: ``K`` couples only ``p`` with ``q``, ``W`` neither.

    A signed 2-colouring in one pass: on the doubled graph with vertices
    :math:`(i, c)`, an edge of ``K`` joins :math:`(i, c)`–:math:`(j, 1-c)` and an edge of
    ``W`` joins :math:`(i, c)`–:math:`(j, c)`; a consistent colouring exists iff no
    :math:`(i, 0)` is connected with :math:`(i, 1)`, and colour :math:`i` by which of the
    two components has the larger label.
    """
    n = K.shape[0]
    Kc, Wc = sps.coo_array(K), sps.coo_array(W)
    kr, kc = Kc.coords if hasattr(Kc, "coords") else (Kc.row, Kc.col)
    wr, wc = Wc.coords if hasattr(Wc, "coords") else (Wc.row, Wc.col)
    off = wr != wc
    wr, wc = wr[off], wc[off]
    rows = np.concatenate([kr, kr + n, wr, wr + n])
    cols = np.concatenate([kc + n, kc, wc, wc + n])
    graph = sps.coo_array((np.ones(rows.size), (rows, cols)), shape=(2 * n, 2 * n))
    _, label = csg.connected_components(graph, directed=False)
    bad = np.flatnonzero(label[:n] == label[n:])
    if bad.size:
        i = int(bad[0])
        name = lin.states[i] if lin.states else f"state {i}"
        raise ModelError(
            f"{n} states are too many for a dense eigenvalue problem, and the structure of "
            f"{lin.name or 'the system'} is not bipartite (an odd cycle of J, or EᵀQ "
            f"coupling the two groups, through {name}): the sparse solver needs states that "
            "split into two groups (velocity-like, stress-like) that only J couples; give "
            f"at most {DENSE_LIMIT} states (a coarser model) for the dense solver")
    colour = label[:n] > label[n:]
    # coupled to nothing (by J or W): a zero mode, put in q where it adds no zero ω²
    free = (np.bincount(kr, minlength=n) == 0) & (np.bincount(wr, minlength=n) == 0)
    ones = np.flatnonzero(colour & ~free)
    zeros = np.flatnonzero(~colour & ~free)
    p, q = (ones, zeros) if ones.size <= zeros.size else (zeros, ones)
    return p, np.sort(np.concatenate([q, np.flatnonzero(free)]))
