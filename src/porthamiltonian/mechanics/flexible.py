r"""Flexible links: geometrically exact beams joined to rigid bodies by power ports.

Macchelli & Melchiorri, *Port-based simulation of flexible multi-body systems* (IFAC
2008), §3.4 and eq. (7b): a flexible link is a distributed pH system whose two end
ports are twist/wrench pairs; it is joined to the rigid bodies at its ends exactly as a
body is joined to another, by equating twists and opposing wrenches.  Here the link is
the sparse finite-element model of :func:`porthamiltonian.distributed.spatial_beam`
(state: strain deviations and body-frame momenta of the sections, ``H = ½ xᵀQx``,
structure :math:`J(x)`, :math:`G(x)` affine in ``x``).

**Geometry.**  The beam's left (root) section frame is fixed in the parent body at the
pose :math:`A_p = (R_a, a_p)` — origin ``parent_anchor``, x-axis (the beam axis)
``direction``, section axis 3 along ``up`` (parent coordinates) — so the beam bends
with ``EI₃`` in the plane normal to ``up``.  At rest and undeformed its right (tip)
section has the pose :math:`g_0(L)` relative to the root (``L e₁`` for a straight beam);
the child body is attached there at :math:`A_c = (R_a R_0(L), a_c)` in child
coordinates (origin ``child_anchor``), so the child's axes are parallel to the parent's
when the beam is undeformed — the convention of the joints at coordinate 0.

**Coupling.**  Body twists transform between frames fixed in the same body by a
*constant* adjoint: the root section twist is :math:`\eta_0 = C_p T_p`,
:math:`C_p = \mathrm{Ad}_{A_p^{-1}}`, the tip section twist must equal
:math:`C_c T_c`, :math:`C_c = \mathrm{Ad}_{A_c^{-1}}` (``T`` the body twists
:math:`\partial\mathcal H/\partial P` of the mechanism's bodies).  Each beam end is
coupled according to its causality (the ``left``/``right`` of the beam model):

* ``"velocity"`` end (twist in, wrench on the beam out): a **gyrator** —
  :math:`u = C T_b`, and the body receives the wrench :math:`-C^\top y`.  In the
  interconnection matrix this is the skew pair of blocks
  :math:`J_{xb} = G_e(x) C S_b^\top`, :math:`J_{bx} = -J_{xb}^\top` (``S_b`` selects the
  body's momentum rows);
* ``"port"`` end (wrench in, twist out): a **constraint** with a multiplier
  :math:`\lambda \in \mathbb R^6` (the wrench on the beam) — column
  :math:`(G_e(x),\ -S_b C^\top)` of ``B``, row :math:`G_e(x)^\top z_x - C\,T_b = 0`
  (tip twist = body twist at the anchor).

Both are power conserving (:math:`\lambda^\top(\eta_e - C T_b) = 0` resp. skew ``J``), so
the assembled system is again a pH-DAE, ``H`` is the bodies' energy plus ``½ xᵀQx`` of
every beam, and its midpoint steps keep the discrete power balance exact (``H``
quadratic in the beam states, ``J``, ``G`` affine).  A ``"velocity"`` end removes the
end node (its inertia and weight are not modelled, O(h) in the element size); a
``"port"`` end keeps it, at the price of six multipliers.  A left end on ``ground`` may
also be ``"clamped"``; a right end without a child must be ``"free"``.

**What is only velocity-coupled.**  The beam state holds strains, not poses, so the
tip pose is reconstructed by integrating the strains from the root pose
(:meth:`~porthamiltonian.distributed.SpatialBeamModel.poses`):
:math:`g_{tip} = H_p A_p\,g(L; x)`.  The child's pose follows from its own kinematics;
the two agree at ``t = 0`` and their velocities agree at all times, but the discrete
strain–velocity compatibility and the Magnus reconstruction differ at the level of the
discretization error, so the positions can drift apart.
:meth:`FlexibleLink.mismatch` measures it (``MechanismResult.flexible_residual``).

**Weight.**  With gravity the beam's state has no absolute pose to act on, so each
node that carries momentum gets a redundant pose state moved by the node's twist, and
the potential :math:`-\sum_i m_i g^\top p_i` with the lumped nodal masses ``m_i``
(:mod:`.beam_weight`): ``H`` stays quadratic plus linear and ``J`` affine, so the power
balance stays exact.  These node poses can drift from the strain-integrated ones like
the child's (``MechanismResult.pose_drift``).  Without gravity they are not created.

**Closed chains.**  A link whose two ends are both placed by joints closes a chain
(a *link chord*): the initial joint coordinates on that chain are solved so that the
undeformed link fits (:meth:`FlexibleLink.misfit` = 0) and its two ends start with
one rigid motion.  A chain that can only close with a pre-bent beam is refused:
beams start undeformed (no initial static solve).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sps

from .. import lie
from ..errors import ModelError
from .beam_weight import BeamWeight, momentum_nodes, weighs
from .graph import GROUND
from .sparsity import DENSE_BELOW

__all__ = ["FlexibleLink", "FlexibleMechanismDAE"]

#: left-end kinds accepted with a body parent, and with ``ground`` as parent
_LEFT = ("velocity", "port")
_RIGHT_CHILD = ("velocity", "port")


def _end_kind(beam: Any, end: str) -> str:
    """The uniform condition of one beam end: ``velocity``, ``port``, ``clamped`` or
    ``free`` (``mixed`` for anything else)."""
    conds = {c.value for c in beam.disc.conditions[end]}
    names = {"velocity": "velocity", "force": "port", "fixed": "clamped", "free": "free"}
    return names[conds.pop()] if len(conds) == 1 else "mixed"


def _frame(anchor: Sequence[float], direction: Sequence[float], up: Sequence[float] | None,
           name: str) -> np.ndarray:
    """The root section frame in parent coordinates: x along ``direction``, z along the
    part of ``up`` normal to it."""
    a = np.asarray(anchor, dtype=float).reshape(-1)
    d = np.asarray(direction, dtype=float).reshape(-1)
    if a.shape != (3,) or d.shape != (3,) or not np.all(np.isfinite(np.r_[a, d])):
        raise ModelError(f"flexible link {name!r}: parent_anchor and direction must be "
                         "three finite numbers each")
    if np.linalg.norm(d) < 1e-12:
        raise ModelError(f"flexible link {name!r}: direction must be nonzero")
    e1 = d / np.linalg.norm(d)
    if up is None:  # z, unless the beam points along z: then y
        up = (0.0, 0.0, 1.0) if abs(e1[2]) < 0.9 else (0.0, 1.0, 0.0)
    u = np.asarray(up, dtype=float).reshape(-1)
    if u.shape != (3,):
        raise ModelError(f"flexible link {name!r}: up must be three numbers")
    e3 = u - (u @ e1) * e1
    if np.linalg.norm(e3) < 1e-9 * max(1.0, float(np.linalg.norm(u))):
        raise ModelError(f"flexible link {name!r}: up must not be parallel to direction")
    e3 /= np.linalg.norm(e3)
    return lie.homogeneous(np.column_stack([e1, np.cross(e3, e1), e3]), a)


class FlexibleLink:
    """A spatial beam clamped to ``parent`` at its root and, optionally, to ``child`` at
    its tip (module docstring for the geometry and the coupling).

    Attributes
    ----------
    root, tip : 4×4
        Root section frame in the parent body, tip section frame in the child body.
    offset : 4×4
        Pose of the child relative to the parent with the beam undeformed.
    C_left, C_right : 6×6
        ``Ad(root⁻¹)`` and ``Ad(tip⁻¹)``: body twists of parent/child to section twists.
    left, right : str
        The coupling kind of each end (``velocity``, ``port``, ``clamped``, ``free``).
    """

    def __init__(self, name: str, beam: Any, parent: str, child: str | None,
                 parent_anchor: Sequence[float], child_anchor: Sequence[float],
                 direction: Sequence[float], up: Sequence[float] | None) -> None:
        self.name, self.beam, self.parent, self.child = name, beam, parent, child
        self._reference_cache: dict[bytes, np.ndarray] = {}
        if not all(hasattr(beam, a) for a in ("structure", "poses", "Q", "disc")) \
                or len(getattr(beam.disc, "conditions", {}).get("left", ())) != 6:
            raise ModelError(f"flexible link {name!r}: beam_model must be a 3-D beam from "
                             "porthamiltonian.distributed.spatial_beam(...)")
        self.left, self.right = _end_kind(beam, "left"), _end_kind(beam, "right")
        allowed = _LEFT + (("clamped",) if parent == GROUND else ())
        if self.left not in allowed:
            raise ModelError(f"flexible link {name!r}: the beam's left end is "
                             f"{self.left!r}; build it with left='velocity' (driven by "
                             f"{parent!r}) or left='port' (joined by a constraint)"
                             + (" or 'clamped'" if parent == GROUND else ""))
        if child is None and self.right != "free":
            raise ModelError(f"flexible link {name!r}: without a child the beam's right "
                             f"end must be 'free', got {self.right!r}")
        if child is not None and self.right not in _RIGHT_CHILD:
            raise ModelError(f"flexible link {name!r}: the beam's right end is "
                             f"{self.right!r}; to attach child {child!r} build it with "
                             "right='port' (constraint) or right='velocity' (driven)")
        self.root = _frame(parent_anchor, direction, up, name)
        ac = np.asarray(child_anchor, dtype=float).reshape(-1)
        if ac.shape != (3,) or not np.all(np.isfinite(ac)):
            raise ModelError(f"flexible link {name!r}: child_anchor must be three numbers")
        self.n = int(beam.system.n_states)
        self.reference_tip = beam.poses(np.zeros(self.n))[-1]
        self.tip = lie.homogeneous(self.root[:3, :3] @ self.reference_tip[:3, :3], ac)
        self.offset = self.root @ self.reference_tip @ lie.inverse(self.tip)
        self.C_left = lie.Ad(lie.inverse(self.root))
        self.C_right = lie.Ad(lie.inverse(self.tip))
        inputs = list(beam.system.inputs)
        self.columns = {end: np.array([i for i, s in enumerate(inputs)
                                       if s.endswith("_" + end)], dtype=int)
                        for end in ("left", "right")}

    # ------------------------------------------------------------------ states
    def rest_state(self, T_parent: Any) -> np.ndarray:
        r"""The undeformed beam moving rigidly with the parent (body twist ``T_parent``):
        section twists :math:`\eta(s) = \mathrm{Ad}_{g_0(s)^{-1}} C_p T_p`, strains 0."""
        eta0 = self.C_left @ np.asarray(T_parent, dtype=float)
        if not np.any(eta0):
            return np.zeros(self.n)
        s = self.beam.disc.h1.coords
        eta = np.array([lie.Ad(lie.inverse(g)) @ eta0 for g in self.reference_poses(s)])
        fields = {}
        for i, key in enumerate(("omega1", "omega2", "omega3", "v1", "v2", "v3")):
            fields[key] = _table(s, eta[:, i])
        return self.beam.state(**fields)

    def reference_poses(self, s: Any) -> np.ndarray:
        """Unstressed section poses :math:`g_0(s)` relative to the root (∂g/∂s = g ξ₀),
        by the fourth-order Magnus rule on steps of at most L/2000 (remembered per set of
        points: the reference never changes, and initial states ask for it often)."""
        s = np.asarray(s, dtype=float)
        key = s.tobytes()
        if key not in self._reference_cache:
            self._reference_cache[key] = self._magnus(s)
        return self._reference_cache[key].copy()

    def _magnus(self, s: np.ndarray) -> np.ndarray:
        L = float(self.beam.mesh.nodes[-1])
        order = np.argsort(s)
        out = np.empty((s.size, 4, 4))
        g, pos = np.eye(4), 0.0
        c = np.sqrt(3.0) / 6.0
        for i in order:
            span = s[i] - pos
            m = max(1, int(np.ceil(2000 * span / L)))
            h = span / m
            for k in range(m):
                a = pos + k * h
                x1, x2 = self.beam.reference_strain([a + (0.5 - c) * h, a + (0.5 + c) * h]).T
                g = g @ lie.exp_se3(0.5 * h * (x1 + x2)
                                    + np.sqrt(3.0) / 12.0 * h * h * (lie.ad(x1) @ x2))
            pos = s[i]
            out[i] = g
        return out

    # ------------------------------------------------------------------ kinematics
    def section_poses(self, H_parent: Any, x: Any) -> np.ndarray:
        """Inertial poses of the sections at the element end points (``(…, N+1, 4, 4)``):
        the strains integrated from the root frame ``H_parent @ root``."""
        base = np.asarray(H_parent, dtype=float) @ self.root
        return base[..., None, :, :] @ self.beam.poses(x)

    def misfit(self, H_parent: Any, H_child: Any) -> np.ndarray:
        r"""How far the child is from where the *undeformed* link puts it: the 6-vector
        (rotation vector (rad), position error (m)) of :math:`(H_p\,\mathrm{offset})^{-1}
        H_c` — zero when the link closes a chain without being bent."""
        err = lie.inverse(np.asarray(H_parent, dtype=float) @ self.offset) @ H_child
        return np.concatenate([lie.log_so3(err[:3, :3]), err[:3, 3]])

    def mismatch(self, H_parent: Any, H_child: Any, x: Any) -> np.ndarray:
        """``(angle, distance)`` between the reconstructed tip section and the child's
        anchor frame (rad, m); zero for a link without a child."""
        if self.child is None:
            return np.zeros(2)
        return lie.frame_gap(self.section_poses(H_parent, x)[-1],
                             np.asarray(H_child, dtype=float) @ self.tip)


def _table(s: np.ndarray, values: np.ndarray) -> Any:
    """A field given at the points ``s`` (for ``beam.state``, which evaluates there)."""
    def field(t: Any) -> np.ndarray:
        return np.interp(np.asarray(t, dtype=float), s[np.argsort(s)], values[np.argsort(s)])
    return field


class _End:
    """One coupled beam end: the beam's input columns ``G_e(x)`` of that end (constant
    part and affine entries), the body momentum rows, the 6×6 map ``C``, the kind."""

    def __init__(self, link: int, end: str, kind: str, G: Any, cols: np.ndarray,
                 body: int | None, C: np.ndarray, offset: int, mult: int | None) -> None:
        self.link, self.end, self.kind = link, end, kind
        self.rows = None if body is None else 18 * body + 12 + np.arange(6)
        self.C, self.offset, self.mult = C, offset, mult
        self.n_beam = G.shape[0]
        self.G0 = G.constant[:, cols].toarray()
        r, c, k, v = G.entries
        pos = np.full(G.shape[1], -1)
        pos[cols] = np.arange(cols.size)
        sel = pos[c] >= 0
        self.r, self.j, self.k, self.v = r[sel], pos[c[sel]], k[sel], v[sel]

    def G(self, xb: np.ndarray) -> np.ndarray:
        """:math:`G_e(x)` (n_beam × 6, dense)."""
        out = self.G0.copy()
        np.add.at(out, (self.r, self.j), self.v * xb[self.k])
        return out

    def dGu(self, u: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        r""":math:`\partial_x(G_e(x)u)` as COO entries (beam row, beam state, value)."""
        return self.r, self.k, self.v * u[self.j]

    def dGtw(self, w: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        r""":math:`\partial_x(G_e(x)^\top w)` as COO entries (column 0…5, beam state, value)."""
        return self.j, self.k, self.v * w[self.r]


class _Acc:
    """Accumulates blocks and scattered entries into one dense array or CSR matrix."""

    def __init__(self, shape: tuple[int, int], dense: bool) -> None:
        self.shape, self.dense = shape, dense
        if dense:
            self.M = np.zeros(shape)
        else:
            self.r: list[np.ndarray] = []
            self.c: list[np.ndarray] = []
            self.v: list[np.ndarray] = []

    def block(self, A: Any, r0: int, c0: int) -> None:
        if self.dense:
            D = A.toarray() if hasattr(A, "toarray") else np.asarray(A)
            self.M[r0:r0 + D.shape[0], c0:c0 + D.shape[1]] += D
        else:
            C = sps.coo_array(A)
            self.scatter(C.row + r0, C.col + c0, C.data)

    def scatter(self, rows: Any, cols: Any, vals: Any) -> None:
        if self.dense:
            np.add.at(self.M, (np.asarray(rows), np.asarray(cols)), vals)
        else:
            self.r.append(np.asarray(rows).ravel())
            self.c.append(np.asarray(cols).ravel())
            self.v.append(np.asarray(vals, dtype=float).ravel())

    def result(self) -> Any:
        if self.dense:
            return self.M
        if not self.v:
            return sps.csr_array(self.shape)
        return sps.csr_array((np.concatenate(self.v), (np.concatenate(self.r),
                                                       np.concatenate(self.c))),
                             shape=self.shape)


class FlexibleMechanismDAE:
    r"""Rigid bodies (a :class:`~.assembly.MechanismDAE`) plus flexible links, as one
    pH-DAE with the interface of the DAE integrators (see :mod:`.assembly`).

    States: the rigid part's (bodies, actuator springs), then each link's beam states
    (named ``<link>.<state>``), then — only if ``gravity`` (m/s², inertial) is nonzero —
    the pose states of the beam nodes that carry momentum, which give the beams their
    weight (:mod:`.beam_weight`).  Multipliers: the joints', then six per ``"port"`` end
    (``<link>.W_left[i]``/``W_right[i]``: the wrench on the beam, body frame of the end
    section).  Inputs and outputs: the joint actuators'.  ``rigid`` must be built with
    the ``sparse`` flag of :meth:`sparse_for`.
    """

    linear = False
    Q = None

    #: simulated as a DAE (:mod:`porthamiltonian.compiled.protocol`)
    problem_kind = "dae"
    #: H is quadratic in the state (kinetic energy in the momenta, springs and strains;
    #: gravity linear in the positions): the midpoint step balances it exactly
    quadratic_energy = True

    @staticmethod
    def sparse_for(rigid_size: int, links: Sequence[FlexibleLink], gravity: Any = None
                   ) -> bool:
        """Whether a model of ``rigid_size`` unknowns plus ``links`` (with their node
        poses if ``gravity`` is nonzero) is evaluated sparse."""
        extra = sum(lk.n + 6 * [lk.left, lk.right].count("port") for lk in links)
        if weighs(gravity):
            extra += sum(12 * momentum_nodes(lk)[0].size for lk in links)
        return rigid_size + extra > DENSE_BELOW

    def __init__(self, rigid: Any, links: Sequence[FlexibleLink], bodies: Sequence[str],
                 gravity: Any = None) -> None:
        self.rigid = rigid
        self.links = list(links)
        index = {b: i for i, b in enumerate(bodies)}
        nr = self.nr = rigid.n
        states, mults = list(rigid.states), list(rigid.multipliers)
        self.offsets, self.ends = [], []
        o, k = nr, rigid.k
        for li, link in enumerate(self.links):
            self.offsets.append(o)
            states += [f"{link.name}.{s}" for s in link.beam.system.states]
            for end, body, C, kind in (("left", link.parent, link.C_left, link.left),
                                       ("right", link.child, link.C_right, link.right)):
                if kind not in ("velocity", "port"):
                    continue
                mult = None
                if kind == "port":
                    mult = k
                    mults += [f"{link.name}.W_{end}[{i}]" for i in range(6)]
                    k += 6
                self.ends.append(_End(li, end, kind, link.beam.structure[1],
                                      link.columns[end],
                                      None if body in (None, GROUND) else index[body],
                                      C, o, mult))
            o += link.n
        # the beams' weight: node pose states after all beams (none without gravity)
        self.weight = BeamWeight(self.links, self.offsets, o, gravity) \
            if weighs(gravity) else None
        if self.weight is not None:
            states += self.weight.states
            o += self.weight.size
        self.states, self.multipliers = states, mults
        self.inputs, self.outputs = rigid.inputs, rigid.outputs
        self.n, self.k, self.m = o, k, rigid.m
        self.sparse = bool(rigid.sparse)
        self.E = sps.identity(self.n, format="csr") if self.sparse else np.eye(self.n)
        self.algebraic = self.left_kernel = np.zeros((self.n, 0))
        self._q = [link.beam.Q.diagonal() for link in self.links]
        self._R = [sps.csr_array(link.beam.system.R) for link in self.links]
        self._lossy = [r.nnz > 0 and np.abs(r.data).max() > 0 for r in self._R]
        acc = _Acc((self.n, self.n), not self.sparse)
        acc.block(rigid.Dz(np.zeros(nr)), 0, 0)
        for i, q in enumerate(self._q):
            idx = self.offsets[i] + np.arange(q.size)
            acc.scatter(idx, idx, q)
        self._Dz = acc.result()

    # ------------------------------------------------------------------ helpers
    def compile(self) -> FlexibleMechanismDAE:
        return self

    @property
    def n_constraints(self) -> int:
        return self.k

    def _beam(self, v: np.ndarray, i: int) -> np.ndarray:
        return v[self.offsets[i]:self.offsets[i] + self.links[i].n]

    def _body_twist(self, e: _End, w: np.ndarray) -> np.ndarray:
        return np.zeros(6) if e.rows is None else w[e.rows]

    def _G(self, e: _End, x: np.ndarray) -> np.ndarray:
        """The beam's input columns of end ``e`` at ``x`` (dense n_beam × 6)."""
        return e.G(self._beam(x, e.link))

    def _body_rows(self, acc: _Acc, e: _End, block: np.ndarray, c0: Any) -> None:
        """``block`` (6 × c) added on the body momentum rows of ``e``, columns ``c0 + j``."""
        if e.rows is None:
            return
        cols = np.asarray(c0) + np.arange(block.shape[1]) if np.ndim(c0) == 0 else c0
        acc.scatter(np.repeat(e.rows, block.shape[1]), np.tile(cols, 6), block.ravel())

    # ------------------------------------------------------------------ efforts, energy
    def z(self, x: np.ndarray) -> np.ndarray:
        parts = [self.rigid.z(x[:self.nr])]
        parts += [q * self._beam(x, i) for i, q in enumerate(self._q)]
        if self.weight is not None:
            parts.append(self.weight.z())
        return np.concatenate(parts)

    def Dz(self, x: np.ndarray) -> Any:
        return self._Dz

    def energy(self, x: np.ndarray) -> float:
        out = self.rigid.energy(x[:self.nr])
        for i, q in enumerate(self._q):
            xb = self._beam(x, i)
            out += 0.5 * float(xb @ (q * xb))
        if self.weight is not None:
            out += self.weight.energy(x)
        return out

    # ------------------------------------------------------------------ structure
    def f(self, x: np.ndarray, w: np.ndarray, lam: np.ndarray, u: np.ndarray) -> np.ndarray:
        r""":math:`(J-R)(x)w + B(x)\lambda + G(x)u`."""
        kr = self.rigid.k
        out = np.zeros(self.n)
        out[:self.nr] = self.rigid.f(x[:self.nr], w[:self.nr], lam[:kr], u)
        for i, link in enumerate(self.links):
            sl = slice(self.offsets[i], self.offsets[i] + link.n)
            out[sl] += link.beam.structure[0](x[sl]) @ w[sl]
            if self._lossy[i]:
                out[sl] -= self._R[i] @ w[sl]
        for e in self.ends:
            G = self._G(e, x)
            sl = slice(e.offset, e.offset + e.n_beam)
            if e.kind == "velocity":
                out[sl] += G @ (e.C @ self._body_twist(e, w))
                if e.rows is not None:
                    out[e.rows] -= e.C.T @ (G.T @ w[sl])
            else:
                mu = lam[e.mult:e.mult + 6]
                out[sl] += G @ mu
                if e.rows is not None:
                    out[e.rows] -= e.C.T @ mu
        if self.weight is not None:
            self.weight.add_f(out, x, w)
        return out

    def f_x(self, x: np.ndarray, w: np.ndarray, lam: np.ndarray, u: np.ndarray) -> Any:
        r""":math:`\partial f/\partial x` at fixed ``(w, λ, u)``."""
        kr = self.rigid.k
        acc = _Acc((self.n, self.n), not self.sparse)
        acc.block(self.rigid.f_x(x[:self.nr], w[:self.nr], lam[:kr], u), 0, 0)
        for i, link in enumerate(self.links):
            o = self.offsets[i]
            acc.block(link.beam.structure[0].derivative(self._beam(w, i)), o, o)
        for e in self.ends:
            u = (e.C @ self._body_twist(e, w) if e.kind == "velocity"
                 else lam[e.mult:e.mult + 6])
            r, k, v = e.dGu(u)
            acc.scatter(r + e.offset, k + e.offset, v)
            if e.kind == "velocity" and e.rows is not None:
                j, k, v = e.dGtw(self._beam(w, e.link))
                D = np.zeros((6, e.n_beam))
                np.add.at(D, (j, k), v)
                self._body_rows(acc, e, -e.C.T @ D, e.offset)
        if self.weight is not None:
            acc.scatter(*self.weight.f_x(w))
        return acc.result()

    def _J(self, x: np.ndarray) -> Any:
        acc = _Acc((self.n, self.n), not self.sparse)
        acc.block(self.rigid.matrix("J", x[:self.nr]), 0, 0)
        for i, link in enumerate(self.links):
            o = self.offsets[i]
            acc.block(link.beam.structure[0](self._beam(x, i)), o, o)
        for e in self.ends:
            if e.kind != "velocity" or e.rows is None:
                continue
            K = self._G(e, x) @ e.C  # n_b × 6: beam rows, body columns
            r = np.repeat(np.arange(e.n_beam) + e.offset, 6)
            c = np.tile(e.rows, e.n_beam)
            acc.scatter(r, c, K.ravel())
            acc.scatter(c, r, -K.ravel())
        if self.weight is not None:
            acc.scatter(*self.weight.J(x))
        return acc.result()

    def matrix(self, name: str, x: np.ndarray) -> Any:
        """``J, R, G, P, M, S`` or ``B`` at state ``x``."""
        n = self.n
        if name == "B":
            return self.B(x)
        if name == "J":
            return self._J(x)
        if name in ("R", "G"):
            shape = (n, n) if name == "R" else (n, self.m)
            acc = _Acc(shape, not self.sparse)
            acc.block(self.rigid.matrix(name, x[:self.nr]), 0, 0)
            if name == "R":
                for i, R in enumerate(self._R):
                    if self._lossy[i]:
                        acc.block(R, self.offsets[i], self.offsets[i])
            return acc.result()
        if name in ("P", "M", "S"):
            shape = {"P": (n, self.m), "M": (self.m, self.m), "S": (self.m, self.m)}[name]
            return _Acc(shape, not self.sparse).result()
        raise ModelError(f"unknown matrix {name!r}; one of J, R, G, P, M, S, B")

    def B(self, x: np.ndarray) -> Any:
        """Constraint columns: the joints', then six per ``"port"`` end (n × k)."""
        acc = _Acc((self.n, self.k), not self.sparse)
        acc.block(self.rigid.B(x[:self.nr]), 0, 0)
        for e in self.ends:
            if e.kind == "port":
                acc.block(self._G(e, x), e.offset, e.mult)
                self._body_rows(acc, e, -e.C.T, e.mult)
        return acc.result()

    def c(self, x: np.ndarray, w: np.ndarray) -> np.ndarray:
        """``B(x)ᵀw``: joint rows, then (end twist − anchor twist) of every port end."""
        out = np.zeros(self.k)
        out[:self.rigid.k] = self.rigid.c(x[:self.nr], w[:self.nr])
        for e in self.ends:
            if e.kind == "port":
                out[e.mult:e.mult + 6] = self._G(e, x).T @ self._beam(w, e.link) \
                    - e.C @ self._body_twist(e, w)
        return out

    def c_x(self, x: np.ndarray, w: np.ndarray) -> Any:
        r""":math:`\partial(B^\top w)/\partial x` at fixed ``w`` (k × n)."""
        acc = _Acc((self.k, self.n), not self.sparse)
        acc.block(self.rigid.c_x(x[:self.nr], w[:self.nr]), 0, 0)
        for e in self.ends:
            if e.kind == "port":
                j, k, v = e.dGtw(self._beam(w, e.link))
                acc.scatter(j + e.mult, k + e.offset, v)
        return acc.result()

    def constraint(self, x: np.ndarray) -> np.ndarray:
        """``B(x)ᵀz(x)``: the velocity form of all constraints."""
        return self.c(x, self.z(x))

    def constraint_jacobian(self, x: np.ndarray) -> Any:
        return self.c_x(x, self.z(x)) + self.B(x).T @ self._Dz

    # ------------------------------------------------------------------ ports
    def output(self, x: np.ndarray, u: np.ndarray, z: np.ndarray | None = None) -> np.ndarray:
        return self.rigid.output(x[:self.nr], u, None if z is None else z[:self.nr])

    def port_powers(self, x: np.ndarray, z: np.ndarray, u: np.ndarray) -> tuple[float, float]:
        """``(uᵀy, zᵀRz)`` in W (joint actuators; beam damping if any)."""
        sup, dis = self.rigid.port_powers(x[:self.nr], z[:self.nr], u)
        for i in range(len(self.links)):
            if self._lossy[i]:
                zb = self._beam(z, i)
                dis += float(zb @ (self._R[i] @ zb))
        return sup, dis

    def power_balance(self, x: np.ndarray, u: np.ndarray) -> Any:
        from ..compiled import PowerBalance

        z = self.z(x)
        stored = float(z @ self.f(x, z, np.zeros(self.k), u))
        return PowerBalance(stored, *self.port_powers(x, z, u))

    def position_residual(self, x: np.ndarray) -> np.ndarray:
        """``g(q)`` of all joint rows (the rigid part's)."""
        return self.rigid.position_residual(x[:self.nr])


def link_placements(graph: Any, links: Sequence[FlexibleLink], given: Sequence[str]
                    ) -> list[tuple[FlexibleLink, bool, list[str]]]:
    """How flexible links place the components of the joint graph that are not joined
    to ground: ``(link, forward, bodies)`` in order — ``forward`` when the link's parent
    is placed first (the child's component, ``bodies``, follows it), else backward.
    Components whose root has a user-given pose (``given``) count as placed; a link
    whose two ends are already placed is a chord (its fit is checked, not used)."""
    root = {GROUND: GROUND}
    for b in graph.floating:
        root[b] = b
    for body, j, forward in graph.order:
        root[body] = root[j.parent if forward else j.child]
    members: dict[str, list[str]] = {}
    for b, r in root.items():
        members.setdefault(r, []).append(b)
    placed = {GROUND, *(r for r in given if r in members)}
    out: list[tuple[FlexibleLink, bool, list[str]]] = []
    pending = [lk for lk in links if lk.child is not None]
    changed = True
    while changed:
        changed = False
        for lk in list(pending):
            rp, rc = root[lk.parent], root[lk.child]
            if rp in placed and rc not in placed:
                out.append((lk, True, members[rc]))
                placed.add(rc)
            elif rc in placed and rp not in placed:
                out.append((lk, False, members[rp]))
                placed.add(rp)
            elif rc in placed and rp in placed:
                pass
            else:
                continue
            pending.remove(lk)
            changed = True
    return out
