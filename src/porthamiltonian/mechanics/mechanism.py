r"""Mechanisms: rigid bodies joined by kinematic pairs, assembled into one pH-DAE.

:class:`Mechanism` collects bodies (:class:`.RigidBody`), joints (:class:`.Joint`) and
joint actuators, builds the mechanism graph (:class:`.MechanismGraph`) and returns the
interconnected system as a symbolic :class:`~porthamiltonian.DescriptorPHS`

.. math::
    \dot x = J(x)\nabla\mathcal H - R(x)\nabla\mathcal H + B(x)\lambda + G(x)\tau,\qquad
    0 = B(x)^\top\nabla\mathcal H,\qquad y = G(x)^\top\nabla\mathcal H,

with ``x`` the poses and body momenta of all bodies (plus one state per actuator spring),
:math:`\mathcal H` the sum of the bodies' kinetic and potential energies and the springs'.
Column ``k`` of ``B`` is the constraint wrench of one forbidden direction of a joint,
applied with opposite signs to its two bodies (the co-cycle law of the graph); the row
:math:`B^\top\nabla\mathcal H = \dot g` is the velocity form of a position constraint
:math:`g(q) = 0` (the cycle law: the relative twist has no forbidden component).
See :mod:`.joints` for why the midpoint rule keeps ``g`` itself to round-off.

An actuator on a joint adds an input port ``<joint>.tau[i]`` per free direction — torque
(N·m) or force (N) — with output the joint velocity (rad/s or m/s); optionally a
stiffness ``k`` (spring state ``<joint>.s[i]``, energy ½k(s − s_ref)², ``ṡ`` = joint
velocity, ``s(0)`` = the joint coordinate) and a damping ``c`` (``R = c G Gᵀ``): a
decentralized PD controller in the sense of interconnection and damping injection.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.optimize as so
import sympy as sp

from ..errors import ModelError
from . import lie
from .graph import GROUND, MechanismGraph
from .joints import Joint
from .rigid_body import RigidBody

__all__ = ["Mechanism", "MechanismResult"]


@dataclass
class _Actuator:
    joint: str
    stiffness: np.ndarray
    damping: np.ndarray
    setpoint: np.ndarray | None


class Mechanism:
    """A multibody mechanism.

    Parameters
    ----------
    gravity:
        Gravitational acceleration in the inertial frame (m/s²); default no gravity.
    """

    def __init__(self, gravity: Sequence[float] = (0.0, 0.0, 0.0), name: str = "mechanism"):
        self.gravity = np.asarray(gravity, dtype=float).reshape(3)
        self.name = name
        self.bodies: dict[str, RigidBody] = {}
        self.joints: dict[str, Joint] = {}
        self.actuators: dict[str, _Actuator] = {}
        self._system: Any = None

    # ------------------------------------------------------------------ declaration
    def add_body(self, name: str, mass: float, inertia: Any,
                 com: Sequence[float] = (0.0, 0.0, 0.0)) -> RigidBody:
        """A rigid body; ``inertia`` about the centre of mass in body axes (3×3 or the
        three principal moments, kg·m²), ``com`` in body coordinates (m)."""
        if name in self.bodies or name == GROUND:
            raise ModelError(f"body {name!r} already exists (or is the reserved 'ground')")
        self.bodies[name] = RigidBody(name, mass, inertia, com)
        self._system = None
        return self.bodies[name]

    def add_joint(self, name: str, kind: str, parent: str, child: str, *,
                  axis: Sequence[float] = (0.0, 0.0, 1.0),
                  parent_anchor: Sequence[float] = (0.0, 0.0, 0.0),
                  child_anchor: Sequence[float] = (0.0, 0.0, 0.0),
                  axis2: Sequence[float] | None = None) -> Joint:
        """A kinematic pair (see :mod:`.joints` for ``kind`` and the geometry)."""
        if name in self.joints:
            raise ModelError(f"joint {name!r} already exists")
        for end in (parent, child):
            if end != GROUND and end not in self.bodies:
                raise ModelError(f"joint {name!r}: unknown body {end!r}; add it with "
                                 "add_body() first (or use 'ground')")
        self.joints[name] = Joint(name, kind, parent, child, axis, parent_anchor,
                                  child_anchor, axis2)
        self._system = None
        return self.joints[name]

    def add_actuator(self, joint: str, stiffness: Any = 0.0, damping: Any = 0.0,
                     setpoint: Any = None) -> None:
        """A power port on the free directions of ``joint`` (inputs ``<joint>.tau[i]``),
        with an optional spring (N·m/rad or N/m) to ``setpoint`` and damper
        (N·m·s/rad or N·s/m) — PD control."""
        j = self.joints.get(joint)
        if j is None:
            raise ModelError(f"add_actuator: unknown joint {joint!r}")
        if j.dof == 0:
            raise ModelError(f"add_actuator: joint {joint!r} is fixed (no free direction)")
        k = np.broadcast_to(np.asarray(stiffness, dtype=float), (j.dof,)).copy()
        c = np.broadcast_to(np.asarray(damping, dtype=float), (j.dof,)).copy()
        if (k < 0).any() or (c < 0).any():
            raise ModelError(f"add_actuator {joint!r}: stiffness and damping must be ≥ 0")
        sref = None if setpoint is None else np.broadcast_to(
            np.asarray(setpoint, dtype=float), (j.dof,)).copy()
        self.actuators[joint] = _Actuator(joint, k, c, sref)
        self._system = None

    @property
    def graph(self) -> MechanismGraph:
        return MechanismGraph(list(self.bodies), list(self.joints.values()))

    # ------------------------------------------------------------------ symbolic pieces
    def _pose_symbols(self, body: str) -> tuple[sp.Matrix, sp.Matrix]:
        if body == GROUND:
            return sp.zeros(3, 1), sp.eye(3)
        b = self.bodies[body]
        return b.p, b.R

    def _wrench_columns(self, j: Joint, g: sp.Expr) -> dict[str, sp.Matrix]:
        """Body-frame wrenches ``K_bᵀ ∂g/∂q_b`` of one constraint row (co-cycle law)."""
        out = {}
        for end in (j.parent, j.child):
            if end == GROUND:
                continue
            b = self.bodies[end]
            col = b.kinematics().T * sp.Matrix([g]).jacobian(list(b.q)).T
            out[end] = out[end] + col if end in out else col
        return out

    def _actuator_directions(self, j: Joint) -> list[tuple[str, sp.Matrix]]:
        p1, R1 = self._pose_symbols(j.parent)
        p2, R2 = self._pose_symbols(j.child)
        e, u, w = (sp.Matrix(v) for v in (j.e, j.u, j.w))
        X, Y, Z = (sp.Matrix(v) for v in np.eye(3))
        return {
            "revolute": [("rot", R1 * e)],
            "prismatic": [("trans", R1 * e)],
            "cylindrical": [("rot", R1 * e), ("trans", R1 * e)],
            "universal": [("rot", R1 * e), ("rot", R2 * sp.Matrix(j.f))],
            "spherical": [("rot", R1 * X), ("rot", R1 * Y), ("rot", R1 * Z)],
            "planar": [("trans", R1 * u), ("trans", R1 * w), ("rot", R1 * e)],
        }[j.kind]

    def _actuator_wrenches(self, j: Joint, kind: str, n: sp.Matrix) -> dict[str, sp.Matrix]:
        """Body-frame wrenches of a unit torque about / force along inertial ``n``: + on the
        child, − on the parent (applied at the child anchor for a force)."""
        p1, R1 = self._pose_symbols(j.parent)
        p2, R2 = self._pose_symbols(j.child)
        r = p2 + R2 * sp.Matrix(j.a2)  # child anchor, inertial
        out = {}
        for end, sign, p, R, rho in ((j.child, 1, p2, R2, sp.Matrix(j.a2)),
                                     (j.parent, -1, p1, R1, None)):
            if end == GROUND:
                continue
            nb = R.T * n * sign
            if kind == "rot":
                out[end] = sp.Matrix([*nb, 0, 0, 0])
            else:
                arm = rho if rho is not None else R.T * (r - p)
                out[end] = sp.Matrix([*arm.cross(nb), *nb])
        return out

    # ------------------------------------------------------------------ assembly
    def system(self, q0: Mapping[str, Any] | None = None) -> Any:
        """The mechanism as a symbolic :class:`~porthamiltonian.DescriptorPHS`.

        Redundant closure equations are dropped, judged at the configuration given by
        ``q0`` (joint coordinates, see :meth:`initial_state`); the names of the dropped
        rows are in ``self.dropped``."""
        from ..descriptor import DescriptorPHS

        if not self.bodies:
            raise ModelError("the mechanism has no bodies; add_body() first")
        graph = self.graph
        names = list(self.bodies)
        states = [s for b in names for s in self.bodies[b].states]
        offset = {b: 18 * i for i, b in enumerate(names)}
        acts = [(jn, i) for jn in self.actuators for i in range(self.joints[jn].dof)]
        springs = [(jn, i) for jn, i in acts if self.actuators[jn].stiffness[i] > 0]
        states += [f"{jn}.s[{i}]" for jn, i in springs]
        n = len(states)
        J = sp.zeros(n, n)
        H = sp.Integer(0)
        for b in names:
            o = offset[b]
            J[o:o + 18, o:o + 18] = self.bodies[b].structure()
            H += self.bodies[b].hamiltonian(self.gravity)

        def column(wrenches: Mapping[str, sp.Matrix]) -> sp.Matrix:
            col = sp.zeros(n, 1)
            for b, wb in wrenches.items():
                col[offset[b] + 12:offset[b] + 18, 0] = wb
            return col

        # constraints: tree joints first, then chords (redundancy is searched on chords)
        rows: list[tuple[str, int, sp.Matrix]] = []
        for jn in graph.tree + graph.chords:
            j = self.joints[jn]
            p1, R1 = self._pose_symbols(j.parent)
            p2, R2 = self._pose_symbols(j.child)
            for i, g in enumerate(j.constraints(p1, R1, p2, R2)):
                rows.append((jn, i, column(self._wrench_columns(j, sp.expand(g)))))
        keep = self._independent(rows, graph, q0, states)
        self.dropped = [f"{jn}[{i}]" for k, (jn, i, _) in enumerate(rows) if k not in keep]
        B = sp.Matrix.hstack(*[rows[k][2] for k in keep]) if keep else sp.zeros(n, 0)
        # actuators: input columns, springs, dampers
        Gcols, Rm = [], sp.zeros(n, n)
        for jn, i in acts:
            j, a = self.joints[jn], self.actuators[jn]
            kind, nvec = self._actuator_directions(j)[i]
            col = column(self._actuator_wrenches(j, kind, nvec))
            Gcols.append(col)
            if a.damping[i] > 0:
                Rm += a.damping[i] * col * col.T
            if a.stiffness[i] > 0:
                k = states.index(f"{jn}.s[{i}]")
                J[k, :] += col.T
                J[:, k] -= col
                s = sp.Symbol(states[k], real=True)
                ref = 0.0 if a.setpoint is None else a.setpoint[i]
                H += a.stiffness[i] * (s - ref) ** 2 / 2
        G = sp.Matrix.hstack(*Gcols) if Gcols else None
        inputs = [f"{jn}.tau[{i}]" for jn, i in acts]
        outputs = [f"{jn}.v[{i}]" for jn, i in acts]
        mult = [f"{rows[k][0]}.lambda[{rows[k][1]}]" for k in keep]
        self._rows = rows
        self._system = DescriptorPHS(J=J, R=Rm, G=G, B=B, hamiltonian=H, states=states,
                                     inputs=inputs or None, outputs=outputs or None,
                                     multipliers=mult, name=self.name, check=False)
        self._q0_system = q0
        return self._system

    def _independent(self, rows: list, graph: MechanismGraph, q0: Any,
                     states: list[str]) -> list[int]:
        """Indices of a maximal independent set of constraint rows at the configuration of
        ``q0``: all tree rows, then each chord row that raises the rank."""
        if not graph.chords:
            return list(range(len(rows)))
        x = self._configuration(q0)
        syms = sp.symbols(states[:18 * len(self.bodies)], real=True)
        vals = dict(zip(syms, x, strict=False))
        C = np.array([[float(v) for v in r[2].xreplace(vals)] for r in rows])
        keep: list[int] = []
        rank = 0
        scale = max(1.0, float(np.abs(C).max()))
        for k, (jn, _, _) in enumerate(rows):
            trial = C[keep + [k]]
            r = int(np.sum(np.linalg.svd(trial, compute_uv=False) > 1e-9 * scale))
            if r > rank:
                keep.append(k)
                rank = r
            elif jn in graph.tree:
                raise ModelError(f"joint {jn!r}: its constraints are dependent on those of "
                                 "other tree joints at the initial configuration (two joints "
                                 "between the same bodies, or a singular configuration)")
        return keep

    # ------------------------------------------------------------------ initial state
    def _poses(self, q: Mapping[str, Any], poses: Mapping[str, Any]) -> dict[str, np.ndarray]:
        out = {GROUND: np.eye(4)}
        for b in self.graph.floating:
            out[b] = np.asarray(poses.get(b, np.eye(4)), dtype=float)
        for body, j, forward in self.graph.order:
            qj = q.get(j.name, np.zeros(j.dof))
            if forward:
                out[body] = j.child_pose(out[j.parent], qj)
            else:
                A = j.child_pose(np.eye(4), qj)
                out[body] = out[j.child] @ lie.inverse(A)
        return out

    def _closure(self, q0: Mapping[str, Any] | None, poses: Mapping[str, Any]) -> dict:
        """Tree coordinates: those given in ``q0``; the others solved (least squares,
        from 0) so that every chord's constraints hold."""
        q0 = dict(q0 or {})
        graph = self.graph
        for jn in q0:
            if jn not in self.joints:
                raise ModelError(f"q0: unknown joint {jn!r}")
        free = [jn for jn in graph.tree if jn not in q0 and self.joints[jn].dof > 0]
        q = {jn: np.atleast_1d(np.asarray(v, dtype=float)) for jn, v in q0.items()}
        if not graph.chords or not free:
            return q
        sizes = [self.joints[jn].dof for jn in free]

        def unpack(z: np.ndarray) -> dict:
            out, k = dict(q), 0
            for jn, s in zip(free, sizes, strict=False):
                out[jn] = z[k:k + s]
                k += s
            return out

        def res(z: np.ndarray) -> np.ndarray:
            P = self._poses(unpack(z), poses)
            return np.concatenate([self._g(self.joints[c], P) for c in graph.chords])

        sol = so.least_squares(res, np.full(sum(sizes), 0.1), xtol=1e-15, ftol=1e-15,
                               gtol=1e-15)
        if np.abs(res(sol.x)).max() > 1e-10:
            raise ModelError(f"the closed chain(s) through {', '.join(graph.chords)} cannot "
                             f"be closed from q0 (residual {np.abs(res(sol.x)).max():.2e}); "
                             "give consistent coordinates for more joints")
        return unpack(sol.x)

    @staticmethod
    def _g(j: Joint, P: Mapping[str, np.ndarray]) -> np.ndarray:
        H1, H2 = P[j.parent], P[j.child]
        return np.array(j.constraints(H1[:3, 3], H1[:3, :3], H2[:3, 3], H2[:3, :3]))

    def _configuration(self, q0: Any, poses: Mapping[str, Any] | None = None) -> np.ndarray:
        P = self._poses(self._closure(q0, poses or {}), poses or {})
        return np.concatenate([self.bodies[b].state(P[b]) for b in self.bodies])

    def initial_state(self, q0: Mapping[str, Any] | None = None,
                      v0: Mapping[str, Any] | None = None,
                      poses: Mapping[str, Any] | None = None,
                      twists: Mapping[str, Any] | None = None) -> np.ndarray:
        """Consistent initial state from joint coordinates ``q0`` and joint velocities
        ``v0`` (dicts by joint name; missing tree coordinates/velocities of closed chains
        are solved from the closure equations, others are 0).  Bodies not connected to
        ground take ``poses[body]`` (4×4) and body twists ``twists[body]`` (ω, v)."""
        poses, twists, v0 = dict(poses or {}), dict(twists or {}), dict(v0 or {})
        graph = self.graph
        q = self._closure(q0, poses)
        P = self._poses(q, poses)
        for jn in v0:
            if jn not in self.joints:
                raise ModelError(f"v0: unknown joint {jn!r}")

        def spatial(vel: Mapping[str, Any]) -> dict[str, np.ndarray]:
            Ts = {GROUND: np.zeros(6)}
            for b in graph.floating:
                Ts[b] = lie.Ad(P[b]) @ np.asarray(twists.get(b, np.zeros(6)), dtype=float)
            for body, j, forward in graph.order:
                qd = np.atleast_1d(np.asarray(vel.get(j.name, np.zeros(j.dof)), dtype=float))
                rel = j.screws(P[j.parent], q.get(j.name, np.zeros(j.dof))) @ qd
                Ts[body] = Ts[j.parent] + rel if forward else Ts[j.child] - rel
            return Ts

        def state(vel: Mapping[str, Any]) -> np.ndarray:
            Ts = spatial(vel)
            out = []
            for b in self.bodies:
                T = np.linalg.solve(lie.Ad(P[b]), Ts[b])
                # components that are zero up to round-off are set to zero: the DAE's
                # consistency check is relative per constraint row, and a row whose terms
                # all vanish (e.g. an out-of-plane velocity) would fail on noise alone
                T[np.abs(T) < 1e-14 * max(1.0, np.abs(T).max())] = 0.0
                out.append(self.bodies[b].state(P[b], T))
            return np.concatenate(out)

        free = [jn for jn in graph.tree if jn not in v0 and self.joints[jn].dof > 0]
        x = state(v0)
        if graph.chords and free:
            sys = self._system if self._system is not None else self.system(q0)
            base = self._extend(sys, x, q)
            c0 = sys.constraint(base)
            cols, idx = [], []
            for jn in free:
                for i in range(self.joints[jn].dof):
                    vel = dict(v0)
                    unit = np.zeros(self.joints[jn].dof)
                    unit[i] = 1.0
                    vel[jn] = unit
                    cols.append(sys.constraint(self._extend(sys, state(vel), q)) - c0)
                    idx.append((jn, i))
            sol = np.linalg.lstsq(np.array(cols).T, -c0, rcond=None)[0]
            vel = dict(v0)
            for (jn, i), s in zip(idx, sol, strict=False):
                vel.setdefault(jn, np.zeros(self.joints[jn].dof))
                vel[jn] = np.array(vel[jn], dtype=float)
                vel[jn][i] = s
            x = state(vel)
        return x if self._system is None else self._extend(self._system, x, q)

    def _extend(self, sys: Any, x: np.ndarray, q: Mapping[str, Any]) -> np.ndarray:
        """Append the spring states (= the joint coordinates)."""
        extra = []
        for name in sys.states[len(x):]:
            jn, i = name.rsplit(".s[", 1)
            extra.append(float(np.atleast_1d(q.get(jn, np.zeros(self.joints[jn].dof)))
                               [int(i[:-1])]))
        return np.concatenate([x, extra])

    # ------------------------------------------------------------------ simulation
    def simulate(self, t_end: float, dt: float = 1e-3, q0: Mapping[str, Any] | None = None,
                 v0: Mapping[str, Any] | None = None, u: Any = None,
                 method: str = "midpoint", **options: Any) -> MechanismResult:
        """Simulate from rest or from ``q0``/``v0`` (see :meth:`initial_state`) over
        ``[0, t_end]`` s with :func:`porthamiltonian.simulate.simulate` (``method``
        ``"midpoint"``, ``"discrete_gradient"`` or ``"ida"``)."""
        from ..simulate import simulate

        reuse = self._system is not None and (not self.graph.chords
                                              or _same(q0, self._q0_system))
        sys = self._system if reuse else self.system(q0)
        x0 = self.initial_state(q0, v0, options.pop("poses", None),
                                options.pop("twists", None))
        _check_initial_velocities(sys, x0)
        res = simulate(sys, (0.0, float(t_end)), x0, u=u, method=method, dt=dt, **options)
        return MechanismResult(self, res)


def _same(a: Mapping[str, Any] | None, b: Mapping[str, Any] | None) -> bool:
    a, b = dict(a or {}), dict(b or {})
    return a.keys() == b.keys() and all(np.array_equal(np.asarray(a[k]), np.asarray(b[k]))
                                        for k in a)


def _check_initial_velocities(sys: Any, x0: np.ndarray) -> None:
    """``B(x0)ᵀz(x0) = 0``, with a message in the terms of mechanisms (the DAE driver
    checks again, in general terms)."""
    num = sys.compile()
    z, B = num.z(x0), np.asarray(num.B(x0), dtype=float)
    c = B.T @ z
    scale = np.linalg.norm(B, axis=0) * np.linalg.norm(z) + 1e-300
    bad = np.flatnonzero(np.abs(c) > 1e-9 * scale)
    if bad.size:
        names = ", ".join(f"{sys.multipliers[i]} ({c[i]:.3g})" for i in bad)
        raise ModelError(f"initial velocities violate the joint constraints {names}; give "
                         "joint velocities v0 (consistent values are then computed)")


class MechanismResult:
    """A mechanism simulation: the :class:`~porthamiltonian.simulate.DAEResult` ``.raw``
    plus poses, joint coordinates and position-level constraint residuals."""

    def __init__(self, mechanism: Mechanism, raw: Any) -> None:
        self.mechanism, self.raw = mechanism, raw
        self.t, self.H, self.power_residual = raw.t, raw.H, raw.power_residual

    def pose(self, body: str) -> np.ndarray:
        """Homogeneous matrices (N × 4 × 4) of ``body`` at the saved times."""
        names = list(self.mechanism.bodies)
        if body not in names:
            raise ModelError(f"pose: unknown body {body!r}; bodies: {', '.join(names)}")
        o = 18 * names.index(body)
        return RigidBody.pose(self.raw.x[:, o:o + 18])

    def _poses(self, k: int) -> dict[str, np.ndarray]:
        P = {b: self.pose(b)[k] for b in self.mechanism.bodies}
        P[GROUND] = np.eye(4)
        return P

    def joint(self, name: str) -> np.ndarray:
        """Joint coordinates (N × dof; angles unwrapped) at the saved times."""
        j = self.mechanism.joints.get(name)
        if j is None:
            raise ModelError(f"joint: unknown joint {name!r}")
        n = len(self.t)
        P1, P2 = (np.tile(np.eye(4), (n, 1, 1)) if b == GROUND else self.pose(b)
                  for b in (j.parent, j.child))
        q = np.array([j.coordinates(P1[k], P2[k]) for k in range(n)])
        if j.kind in ("revolute", "cylindrical", "universal"):
            q[:, 0] = np.unwrap(q[:, 0])
        if j.kind == "universal":
            q[:, 1] = np.unwrap(q[:, 1])
        if j.kind == "planar":
            q[:, 2] = np.unwrap(q[:, 2])
        return q

    def constraint_residual(self) -> np.ndarray:
        """``max |g(q)|`` over all joints' position constraints (including any dropped as
        redundant) and ``|RRᵀ − I|`` of all bodies, per saved time."""
        out = np.zeros(len(self.t))
        for k in range(len(self.t)):
            P = self._poses(k)
            g = [np.abs(Mechanism._g(j, P)).max(initial=0.0)
                 for j in self.mechanism.joints.values()]
            orth = [np.abs(P[b][:3, :3] @ P[b][:3, :3].T - np.eye(3)).max()
                    for b in self.mechanism.bodies]
            out[k] = max(g + orth)
        return out
