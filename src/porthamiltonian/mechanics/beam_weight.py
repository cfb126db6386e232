r"""Weight of flexible links: a redundant pose per beam node and a linear potential.

The state of a flexible link (:mod:`.flexible`, the beam of
:func:`porthamiltonian.distributed.spatial_beam`) holds strains and body-frame momenta,
not where the mass is, so gravity cannot act on it directly.  Here every node of the
beam that carries momentum gets a **pose state** :math:`q_i = (p_i, R_i)` — 12 entries,
position then the rotation row-major, as a rigid body's (:mod:`.rigid_body`; Macchelli &
Melchiorri 2008, eq. 6) — moved by the node's body twist
:math:`\eta_i = (\omega_i, v_i) = \partial\mathcal H/\partial\pi_i`:

.. math::
    \dot p_i = R_i v_i,\qquad \dot R_i = R_i\tilde\omega_i,\qquad
    \text{i.e. } \dot q_i = K(q_i)\,\eta_i,

the section kinematics :math:`\partial_t g = g\tilde\eta` at the node.

**Mass.**  The partitioned FEM lumps the momentum at the Gauss–Lobatto nodes of the
velocity space: :math:`\pi_i = \mathbb M_i\eta_i` with translational mass
:math:`m_i = w_i\,\rho A(s_i)` (``w_i`` the summed GLL weights, the diagonal of the
lumped mass matrix, :meth:`~porthamiltonian.distributed.spaces.H1Space.lumped_mass`).
The distributed weight :math:`\rho A(s) R(s)^\top g` (body-frame force per length; the
section's centre of mass is on the beam axis, so no moment) tested against the basis
function :math:`\varphi_i` with the same quadrature is :math:`m_i R_i^\top g`: the
nodal weights are work-equivalent to the distributed load and use exactly the inertial
masses, node by node, so they sum to the modelled mass
:math:`\sum_i m_i = \sum_i w_i\rho A(s_i)` (:math:`= \int_0^L\rho A\,ds` for ρA of
degree ≤ 2k − 1, e.g. a uniform or tapered beam).  A node removed by an imposed
velocity (a ``"velocity"`` or ``"clamped"`` end) carries neither inertia nor weight:
both are the source's (``ρA h/2`` for degree 1, O(h)).

**Energy and structure.**

.. math::
    \mathcal H = \mathcal H_{bodies} + \sum_{links}\tfrac12 x^\top Q x
        - \sum_{nodes} m_i\,g^\top p_i,
    \qquad J[q_i, \pi_i] = K(q_i),\quad J[\pi_i, q_i] = -K(q_i)^\top,

so the momentum rows receive :math:`-K(q_i)^\top\partial\mathcal H/\partial q_i =
(0,\ m_i R_i^\top g)`, the weight in the node's body frame.  ``K`` is linear in
``R`` — :math:`K(q) = \sum_r R_r K_r` with constant 12×6 matrices ``K_r`` — so ``J``
stays affine in the state and ``H`` quadratic plus linear: the implicit midpoint rule
keeps the discrete power balance exact, and its step of :math:`\dot R = R\tilde\omega`
is :math:`R_{n+1} = R_n\,\mathrm{cay}(h\tilde{\bar\omega})`, orthonormal to round-off.

**Drift.**  The node poses are redundant: the section poses also follow from the
strains integrated from the root (:meth:`.FlexibleLink.section_poses`).  Both agree at
``t = 0``; the continuous compatibility :math:`\partial_t\xi = \partial_s\eta +
\mathrm{ad}_\xi\eta` would keep them together, but its discrete form (collocation at the
Gauss points) and the Magnus reconstruction differ at the level of the discretization
error.  Nothing is corrected (a correction would break the power balance);
:meth:`.MechanismResult.pose_drift` measures the difference.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import lie
from ..errors import ModelError

__all__ = ["BeamWeight", "momentum_nodes", "initial_node_poses", "weighs"]


def _kinematic_basis() -> np.ndarray:
    """``K_r`` (9 × 12 × 6): :math:`K(q) = \\sum_r R_r K_r` with ``R_r`` the row-major
    entries of ``R`` — ``ṗ = R v`` (rows 0–2), ``vec(Ṙ) = vec(R ω̃)`` (rows 3–11)."""
    out = np.zeros((9, 12, 6))
    for r in range(9):
        E = np.zeros(9)
        E[r] = 1.0
        E = E.reshape(3, 3)
        out[r, :3, 3:] = E
        for ell in range(3):
            out[r, 3:, ell] = (E @ lie.hat(np.eye(3)[ell])).ravel()
    return out


_KB = _kinematic_basis()


def weighs(gravity: Any) -> bool:
    """Whether the beams need node pose states: gravity given and not zero (non-finite
    values count, so that :class:`BeamWeight` reports them)."""
    return gravity is not None and bool(np.any(np.asarray(gravity, dtype=float) != 0))


def momentum_nodes(link: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(nodes, rows, masses)`` of a :class:`.FlexibleLink`: the velocity-space nodes
    that carry momentum (indices into ``beam.disc.h1.coords``), their six momentum rows
    in the beam state (angular then linear, ``(len(nodes), 6)``) and their
    translational masses ``m_i = w_i ρA(s_i)`` (kg)."""
    d = link.beam.disc
    Np = d.h1.size
    pos = np.full(d.mp.size, -1)
    pos[d.kept] = d.n_q + np.arange(d.kept.size)
    rows = pos.reshape(6, Np).T                      # flow fields (ω1..3, v1..3) × nodes
    has = rows >= 0
    partial = np.flatnonzero(has.any(axis=1) & ~has.all(axis=1))
    if partial.size:  # an end imposing only some velocities ("pinned", "hub")
        raise ModelError(f"flexible link {link.name!r}: node {partial[0]} carries only part "
                         "of its momentum, so its weight has no pose to act at; use "
                         "'velocity', 'port', 'clamped' or 'free' beam ends")
    nodes = np.flatnonzero(has.all(axis=1))
    return nodes, rows[nodes], d.mp[3 * Np + nodes].copy()


def initial_node_poses(link: Any, H_parent: Any) -> np.ndarray:
    """Pose states ``(len(nodes) · 12,)`` of the undeformed beam on a parent at pose
    ``H_parent``: :math:`H_p A_p g_0(s_i)` (root frame times the unstressed reference)."""
    nodes, _, _ = momentum_nodes(link)
    s = link.beam.disc.h1.coords[nodes]
    H = np.asarray(H_parent, dtype=float) @ link.root @ link.reference_poses(s)
    return np.concatenate([H[:, :3, 3], H[:, :3, :3].reshape(-1, 9)], axis=1).ravel()


class BeamWeight:
    """The node pose states of all flexible links and their coupling (module docstring).

    ``offsets``: the first beam state of each link in the assembled state; ``start``:
    where the pose states begin (they are contiguous, link by link, 12 per node,
    named ``<link>.node[i].p[0..2]``, ``<link>.node[i].R[0..8]`` with ``i`` the
    velocity-space node).
    """

    def __init__(self, links: Sequence[Any], offsets: Sequence[int], start: int,
                 gravity: Any) -> None:
        g = np.asarray(gravity, dtype=float).reshape(-1)
        if g.shape != (3,) or not np.all(np.isfinite(g)):
            names = ", ".join(repr(lk.name) for lk in links)
            raise ModelError(f"flexible link(s) {names}: the mechanism's gravity must be "
                             f"three finite numbers (m/s²), got {gravity!r}")
        self.start = start
        self.states: list[str] = []
        self.blocks: dict[str, tuple[int, np.ndarray]] = {}
        mom, mass = [], []
        o = start
        for link, off in zip(links, offsets, strict=True):
            nodes, rows, m = momentum_nodes(link)
            self.blocks[link.name] = (o, nodes)
            mom.append(rows + off)
            mass.append(m)
            self.states += [f"{link.name}.node[{j}].{s}" for j in nodes
                            for s in [f"p[{i}]" for i in range(3)]
                            + [f"R[{i}]" for i in range(9)]]
            o += 12 * nodes.size
        self.size = o - start
        self.mom = np.concatenate(mom).astype(int) if mom else np.zeros((0, 6), int)
        self.mass = np.concatenate(mass) if mass else np.zeros(0)
        nn = self.mass.size
        self.pose = start + np.arange(12 * nn).reshape(nn, 12)
        self.zq = np.zeros((nn, 12))
        self.zq[:, :3] = -self.mass[:, None] * g      # ∂V/∂p = −m g, ∂V/∂R = 0

    # ------------------------------------------------------------------ evaluation
    def z(self) -> np.ndarray:
        """The (constant) efforts of the pose states."""
        return self.zq.ravel()

    def energy(self, x: np.ndarray) -> float:
        """The gravity potential :math:`-\\sum m_i g^\\top p_i` (J)."""
        return float(np.sum(self.zq * x[self.pose]))

    def _K(self, x: np.ndarray) -> np.ndarray:
        return np.einsum("nr,rij->nij", x[self.pose[:, 3:]], _KB)

    def add_f(self, out: np.ndarray, x: np.ndarray, w: np.ndarray) -> None:
        """``out += J_w(x) w``: pose rows ``K η``, momentum rows ``−Kᵀ w_q``."""
        K = self._K(x)
        out[self.pose] += np.einsum("nij,nj->ni", K, w[self.mom])
        out[self.mom] -= np.einsum("nij,ni->nj", K, w[self.pose])

    def f_x(self, w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        r"""COO entries of :math:`\partial(J_w(x)w)/\partial x` at fixed ``w`` (the
        blocks are linear in ``R``, so this depends on ``w`` only)."""
        dq = np.einsum("rij,nj->nir", _KB, w[self.mom])        # ∂(K η)/∂R   (n, 12, 9)
        dp = -np.einsum("rij,ni->njr", _KB, w[self.pose])      # ∂(−Kᵀw)/∂R (n, 6, 9)
        cols = self.pose[:, None, 3:]
        r = [np.broadcast_to(self.pose[:, :, None], dq.shape),
             np.broadcast_to(self.mom[:, :, None], dp.shape)]
        c = [np.broadcast_to(cols, dq.shape), np.broadcast_to(cols, dp.shape)]
        return (np.concatenate([a.ravel() for a in r]), np.concatenate([a.ravel() for a in c]),
                np.concatenate([dq.ravel(), dp.ravel()]))

    def J(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """COO entries of the skew pair ``J[q, π] = K(q)``, ``J[π, q] = −K(q)ᵀ``."""
        K = self._K(x)
        r = np.broadcast_to(self.pose[:, :, None], K.shape)
        c = np.broadcast_to(self.mom[:, None, :], K.shape)
        return (np.concatenate([r.ravel(), c.ravel()]), np.concatenate([c.ravel(), r.ravel()]),
                np.concatenate([K.ravel(), -K.ravel()]))
