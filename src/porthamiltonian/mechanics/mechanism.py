r"""Mechanisms: rigid bodies joined by kinematic pairs, assembled into one pH-DAE.

:class:`Mechanism` collects bodies (:class:`.RigidBody`), joints (:class:`.Joint`) and
joint actuators, builds the mechanism graph (:class:`.MechanismGraph`) and returns the
interconnected system — numerically (:meth:`Mechanism.assemble`, :mod:`.assembly`: sparse,
what :meth:`Mechanism.simulate` integrates) or as a symbolic
:class:`~porthamiltonian.DescriptorPHS` (:meth:`Mechanism.system`, :mod:`.symbolic`)

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

import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.linalg import solve_triangular

from .. import blas, lie
from ..errors import ModelError
from .assembly import MechanismDAE
from .beam_weight import initial_node_poses, momentum_nodes, weighs
from .contact import PlaneContact
from .flexible import FlexibleLink, FlexibleMechanismDAE, link_placements
from .force_assembly import ForcedMechanismDAE
from .forces import Bushing, ForceElement, SpringDamper, WrenchPort
from .graph import GROUND, MechanismGraph
from .joints import Joint
from .rigid_body import RigidBody
from .slender import SlenderMechanismDAE
from .symbolic import symbolic_system
from .variables import angle_columns, joint_coordinates, mechanism_quantities

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

    A mechanism is a *builder*: bodies, joints, actuators, links and :attr:`gravity` may
    change after :meth:`assemble`.  The assembled DAE is a separate object holding its
    own numbers; :meth:`assemble` caches it together with a fingerprint of everything it
    was built from (gravity, every number of every body, joint, actuator and link) and
    builds it again when the fingerprint differs, so it is never stale, however the
    definition was changed.  A beam model of a flexible link counts by identity: give a
    new beam model to change it.
    """

    def __init__(self, gravity: Sequence[float] = (0.0, 0.0, 0.0), name: str = "mechanism"):
        self.gravity = gravity
        self.name = name
        self.bodies: dict[str, RigidBody] = {}
        self.joints: dict[str, Joint] = {}
        self.actuators: dict[str, _Actuator] = {}
        self.links: dict[str, FlexibleLink] = {}
        #: force elements between frames and contacts (:mod:`.forces`, :mod:`.contact`)
        self.forces: dict[str, ForceElement] = {}
        self._dae: MechanismDAE | FlexibleMechanismDAE | ForcedMechanismDAE | None = None
        self._dae_key: tuple = ()
        self._q0_dae: Any = None
        self._annotated: Any = None      # the DAE whose quantities were set, and its q0
        self._annotated_q0: Any = None
        self.dropped: list[str] = []

    @property
    def gravity(self) -> np.ndarray:
        """Gravitational acceleration in the inertial frame (m/s², read-only 3-vector;
        assign a new one to change it)."""
        return self._gravity

    @gravity.setter
    def gravity(self, value: Sequence[float]) -> None:
        g = np.array(value, dtype=float).reshape(3)
        g.flags.writeable = False
        self._gravity = g
        self._dae = None

    def _definition(self) -> tuple:
        """A fingerprint of everything :meth:`assemble` builds from: gravity and the
        public numbers, names and arrays of every body, joint, actuator and flexible link
        (other objects, such as a beam model, by identity)."""
        return (_fingerprint(self._gravity),
                *(tuple((name, _fingerprint(vars(obj))) for name, obj in group.items())
                  for group in (self.bodies, self.joints, self.actuators, self.links,
                                self.forces)))

    # ------------------------------------------------------------------ declaration
    def add_body(self, name: str, mass: float, inertia: Any,
                 com: Sequence[float] = (0.0, 0.0, 0.0)) -> RigidBody:
        """A rigid body; ``inertia`` about the centre of mass in body axes (3×3 or the
        three principal moments, kg·m²), ``com`` in body coordinates (m)."""
        if name in self.bodies or name == GROUND:
            raise ModelError(f"body {name!r} already exists (or is the reserved 'ground')")
        self.bodies[name] = RigidBody(name, mass, inertia, com)
        self._dae = None
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
        self._dae = None
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
        self._dae = None

    def add_flexible_link(self, name: str, beam_model: Any, parent: str,
                          child: str | None = None, *,
                          parent_anchor: Sequence[float] = (0.0, 0.0, 0.0),
                          child_anchor: Sequence[float] = (0.0, 0.0, 0.0),
                          direction: Sequence[float] = (1.0, 0.0, 0.0),
                          up: Sequence[float] | None = None) -> FlexibleLink:
        """A flexible link: the 3-D beam ``beam_model``
        (:func:`porthamiltonian.distributed.spatial_beam`) clamped to ``parent`` (a body
        or ``"ground"``) at its left end and, if ``child`` is given, to ``child`` at its
        right end (:mod:`.flexible`).

        The root section sits at ``parent_anchor`` (parent coordinates, m) with the beam
        axis along ``direction`` and section axis 3 along the part of ``up`` normal to it
        (default z, or y for a beam along z): the beam bends with ``EI₃`` in the plane
        normal to ``up``.  The tip is attached at ``child_anchor`` (child coordinates);
        with the beam undeformed the child's axes are parallel to the parent's.

        The beam's ends decide the coupling: left ``"velocity"`` (driven by the parent's
        twist, no multipliers) or ``"port"`` (a six-row constraint; keeps the end node's
        mass), ``"clamped"`` also on ground; right ``"port"`` or ``"velocity"`` with a
        child, ``"free"`` without.  States ``<name>.<beam state>`` and multipliers
        ``<name>.W_left[i]``/``W_right[i]`` (wrench on the beam) join the mechanism's.
        """
        if name in self.links or name in self.joints:
            raise ModelError(f"flexible link {name!r}: the name is already used by a "
                             "joint or another flexible link")
        for role, end in (("parent", parent), ("child", child)):
            if end is not None and end != GROUND and end not in self.bodies:
                raise ModelError(f"flexible link {name!r}: unknown {role} body {end!r}; add "
                                 "it with add_body() first (or use 'ground')")
        if child == parent:
            raise ModelError(f"flexible link {name!r}: parent and child are the same body "
                             f"{parent!r}")
        self.links[name] = FlexibleLink(name, beam_model, parent, child, parent_anchor,
                                        child_anchor, direction, up)
        self._dae = None
        return self.links[name]

    def add_force(self, element: ForceElement) -> ForceElement:
        """A force element between two frames or a contact (:mod:`.forces`,
        :mod:`.contact`); its ends must be bodies of the mechanism or ``"ground"``."""
        name = element.name
        if name in self.forces or name in self.joints or name in self.links:
            raise ModelError(f"force element {name!r}: the name is already used by a "
                             "joint, flexible link or force element")
        for end in element.ends:
            if end != GROUND and end not in self.bodies:
                raise ModelError(f"force element {name!r}: unknown body {end!r}; add it "
                                 "with add_body() first (or use 'ground')")
        self.forces[name] = element
        self._dae = None
        return element

    def add_wrench_port(self, name: str, first: str, second: str, *,
                        first_anchor: Sequence[float] = (0.0, 0.0, 0.0),
                        second_anchor: Sequence[float] = (0.0, 0.0, 0.0),
                        axes: str = "first") -> WrenchPort:
        """An input wrench between two frames (:class:`.forces.WrenchPort`): inputs
        ``<name>.W[0..5]`` (torque N·m, force N, on ``second`` at its anchor and opposite
        on ``first``), outputs ``<name>.T[0..5]`` (relative twist, rad/s and m/s)."""
        return self.add_force(WrenchPort(name, first, second, first_anchor, second_anchor,
                                         axes))

    def add_spring_damper(self, name: str, first: str, second: str, *,
                          first_anchor: Sequence[float] = (0.0, 0.0, 0.0),
                          second_anchor: Sequence[float] = (0.0, 0.0, 0.0),
                          stiffness: float = 0.0, damping: float = 0.0,
                          rest_length: float = 0.0) -> SpringDamper:
        """A point-to-point spring–damper (:class:`.forces.SpringDamper`; N/m, N·s/m,
        m)."""
        return self.add_force(SpringDamper(name, first, second, first_anchor,
                                           second_anchor, stiffness=stiffness,
                                           damping=damping, rest_length=rest_length))

    def add_bushing(self, name: str, first: str, second: str, *,
                    first_anchor: Sequence[float] = (0.0, 0.0, 0.0),
                    second_anchor: Sequence[float] = (0.0, 0.0, 0.0),
                    stiffness: Any = 0.0, damping: Any = 0.0) -> Bushing:
        """A 6-dof spring–damper on the relative pose (:class:`.forces.Bushing`;
        rotational then translational stiffness and damping)."""
        return self.add_force(Bushing(name, first, second, first_anchor, second_anchor,
                                      stiffness=stiffness, damping=damping))

    def add_contact(self, name: str, body: str, anchor: Sequence[float] = (0.0, 0.0, 0.0),
                    **law: Any) -> PlaneContact:
        """A sphere–plane contact with friction (:class:`.contact.PlaneContact`; keys
        ``radius, normal, offset, stiffness, damping, exponent, damping_exponent,
        friction, slip_velocity``)."""
        return self.add_force(PlaneContact(name, body, anchor, **law))

    @property
    def graph(self) -> MechanismGraph:
        return MechanismGraph(list(self.bodies), list(self.joints.values()))

    # ------------------------------------------------------------------ assembly
    def assemble(self, q0: Mapping[str, Any] | None = None
                 ) -> MechanismDAE | FlexibleMechanismDAE | ForcedMechanismDAE:
        """The mechanism as a numeric pH-DAE (:class:`.MechanismDAE`: sparse NumPy/SciPy,
        what :meth:`simulate` integrates).

        Redundant closure equations are dropped, judged at the configuration given by
        ``q0`` (joint coordinates, see :meth:`initial_state`); the names of the dropped
        rows are in ``self.dropped``.  With flexible links the result is a
        :class:`.FlexibleMechanismDAE` (same interface, beam states appended).

        The result is cached until the mechanism changes (class docstring): a changed
        mass, stiffness or gravity gives a new DAE, and a DAE returned earlier keeps the
        values it was built with."""
        key = self._definition()
        if (self._dae is None or key != self._dae_key
                or (self.graph.chords and not _same(q0, self._q0_dae))):
            if self.forces and self.links:
                raise ModelError("force elements and flexible links in one mechanism are "
                                 "not supported yet; join the beam through joints and "
                                 "actuators, or drop the force elements")
            slender = self._slender()
            if self.forces and slender:
                raise ModelError("force elements on a mechanism with slender (singular-"
                                 "inertia) bodies are not supported yet; give the bodies "
                                 "a full inertia")
            if self.forces:
                rigid = MechanismDAE(self, self._independent(q0), sparse=False,
                                     engine="numpy")
                self._dae = ForcedMechanismDAE(rigid, list(self.forces.values()),
                                               list(self.bodies))
            elif self.links:
                keep = self._independent(q0)
                size = 18 * len(self.bodies) + len(keep) + sum(
                    int((a.stiffness > 0).sum()) for a in self.actuators.values())
                sparse = FlexibleMechanismDAE.sparse_for(size, list(self.links.values()),
                                                         self.gravity)
                rigid = MechanismDAE(self, keep, sparse=sparse)
                self._dae = FlexibleMechanismDAE(rigid, list(self.links.values()),
                                                 list(self.bodies), self.gravity)
            elif slender:
                self._dae = SlenderMechanismDAE(MechanismDAE(self, self._independent(q0),
                                                             engine="numpy"), self.bodies)
            else:
                self._dae = MechanismDAE(self, self._independent(q0))
            self._q0_dae = q0
            self._dae_key = key
        self.dropped = self._dropped
        # the annotation depends on q0 only through the turn of each angle at t0: set
        # it for this call's q0 (a result keeps the annotation it was simulated with)
        if self._annotated is not self._dae or not _same(q0, self._annotated_q0):
            self._dae.quantities = mechanism_quantities(self, self._dae, q0)
            self._annotated = self._dae
            self._annotated_q0 = {k: np.array(v, dtype=float) for k, v in dict(q0 or {}).items()}
        return self._dae

    def _slender(self) -> bool:
        """Whether a body has a singular inertia (:mod:`.slender`); refused together
        with flexible links or force elements, whose assemblies do not carry the spin
        rates yet."""
        names = [b for b, body in self.bodies.items() if body.singular]
        if names and (self.links or self.forces):
            raise ModelError(f"bodies {names} have zero principal moments (slender or point "
                             "bodies), which flexible links and force elements do not "
                             "support yet; give them a small moment about those axes")
        return bool(names)

    def system(self, q0: Mapping[str, Any] | None = None) -> Any:
        """The mechanism as a symbolic :class:`~porthamiltonian.DescriptorPHS` (for
        printing and small models; :meth:`assemble` gives the same system numerically).
        Redundant rows are dropped as in :meth:`assemble`."""
        if not self.bodies:
            raise ModelError("the mechanism has no bodies; add_body() first")
        if self.links or self.forces:
            raise ModelError("system(): flexible links and force elements have no "
                             "symbolic form; use assemble() (numeric) or simulate()")
        keep = self._independent(q0)
        self.dropped = self._dropped
        system = symbolic_system(self, keep)
        system.quantities = mechanism_quantities(self, system, q0)
        return system

    def _independent(self, q0: Any) -> list[int]:
        """Indices of a maximal independent set of constraint rows (tree joints first,
        then chords) at the configuration of ``q0``: all tree rows, then each chord row
        that raises the rank of the constraint wrenches (:func:`independent_rows`)."""
        full = MechanismDAE(self)
        self._dropped = []
        if not self.graph.chords:
            return list(range(len(full.all_rows)))
        tree = set(self.graph.tree)
        C = full.wrench_matrix(self._configuration(q0))
        keep = independent_rows(C, 1e-9 * max(1.0, float(np.abs(C).max())))
        kept = set(keep)
        for k, (jn, _) in enumerate(full.all_rows):
            if k not in kept and jn in tree:
                raise ModelError(f"joint {jn!r}: its constraints are dependent on those of "
                                 "other tree joints at the initial configuration (two joints "
                                 "between the same bodies, or a singular configuration)")
        self._dropped = [f"{jn}[{i}]" for k, (jn, i) in enumerate(full.all_rows)
                         if k not in kept]
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
        # components not joined to ground follow the undeformed flexible links
        for link, forward, members in link_placements(self.graph, list(self.links.values()),
                                                      list(poses)):
            if forward:
                M = out[link.parent] @ link.offset @ lie.inverse(out[link.child])
            else:
                M = out[link.child] @ lie.inverse(link.offset) @ lie.inverse(out[link.parent])
            for b in members:
                out[b] = M @ out[b]
        return out

    def _closure(self, q0: Mapping[str, Any] | None, poses: Mapping[str, Any]) -> dict:
        """Tree coordinates: those given in ``q0``; the others 0 if that closes every
        chord, else those on a closed chain solved by least squares (from 0.1, away from
        the singular stretched configurations) so that the chords' constraints hold and
        every flexible link closing a chain fits undeformed.  Joints on no closed chain
        stay at 0."""
        q0 = dict(q0 or {})
        graph = self.graph
        for jn in q0:
            if jn not in self.joints:
                raise ModelError(f"q0: unknown joint {jn!r}")
        links = self._link_chords(poses)
        looped = {jn for loop in graph.cycles().values() for jn, _ in loop}
        for link in links:
            looped |= {jn for jn, _ in graph.tree_path(link.parent, link.child) or []}
        free = [jn for jn in graph.tree
                if jn not in q0 and jn in looped and self.joints[jn].dof > 0]
        q = {jn: np.atleast_1d(np.asarray(v, dtype=float)) for jn, v in q0.items()}
        if not (graph.chords or links) or not free:
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
            return np.concatenate([self._g(self.joints[c], P) for c in graph.chords]
                                  + [link.misfit(P[link.parent], P[link.child])
                                     for link in links])

        if np.abs(res(np.zeros(sum(sizes)))).max() <= 1e-10:
            return unpack(np.zeros(sum(sizes)))
        from scipy.optimize import least_squares  # 0.1 s to import: only for closed chains

        sol = least_squares(res, np.full(sum(sizes), 0.1), xtol=1e-15, ftol=1e-15,
                               gtol=1e-15)
        if np.abs(res(sol.x)).max() > 1e-10:
            names = ", ".join(graph.chords + [link.name for link in links])
            raise ModelError(f"the closed chain(s) through {names} cannot "
                             f"be closed from q0 (residual {np.abs(res(sol.x)).max():.2e}); "
                             "give consistent coordinates for more joints"
                             + ("; flexible links closing a chain must fit undeformed"
                                if links else ""))
        return unpack(sol.x)

    def _link_chords(self, poses: Mapping[str, Any]) -> list[FlexibleLink]:
        """The flexible links that close a chain: both ends placed by joints (or given
        poses) rather than by the link itself."""
        placing = {link.name for link, _, _ in link_placements(
            self.graph, list(self.links.values()), list(poses))}
        return [link for link in self.links.values()
                if link.child is not None and link.name not in placing]

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
            # an undeformed link moves rigidly: its two ends share one spatial twist
            for link, forward, members in link_placements(graph, list(self.links.values()),
                                                          list(poses)):
                a, b = (link.parent, link.child) if forward else (link.child, link.parent)
                shift = Ts[a] - Ts[b]
                for m in members:
                    Ts[m] = Ts[m] + shift
            return Ts

        def spins(Ts: Mapping[str, np.ndarray]) -> np.ndarray:
            """Spin rates of the slender/point bodies (:mod:`.slender`): the part of each
            body twist along its null twists N, μ = (NᵀN)⁻¹NᵀT."""
            out = [np.linalg.lstsq(body.null_twists, np.linalg.solve(lie.Ad(P[b]), Ts[b]),
                                   rcond=None)[0]
                   for b, body in self.bodies.items() if body.singular]
            return np.concatenate(out) if out else np.zeros(0)

        def full(Ts: Mapping[str, np.ndarray]) -> np.ndarray:
            return np.concatenate([self._extend(state(Ts), q), spins(Ts)])

        def state(Ts: Mapping[str, np.ndarray]) -> np.ndarray:
            """Body states from the spatial twists ``Ts``."""
            out = []
            for b in self.bodies:
                T = np.linalg.solve(lie.Ad(P[b]), Ts[b])
                # components that are zero up to round-off are set to zero: the DAE's
                # consistency check is relative per constraint row, and a row whose terms
                # all vanish (e.g. an out-of-plane velocity) would fail on noise alone
                T[np.abs(T) < 1e-14 * max(1.0, np.abs(T).max())] = 0.0
                out.append(self.bodies[b].state(P[b], T))
            return np.concatenate(out)

        links = self._link_chords(poses)

        def closure(vel: Mapping[str, Any]) -> np.ndarray:
            """Velocity constraints, and equal spatial twists at the two ends of every
            undeformed link closing a chain (it starts moving rigidly)."""
            Ts = spatial(vel)
            x = full(Ts)
            # B(x)ᵀz(x) by the NumPy formula every assembly has: a set-up (``validate``
            # runs it) does not build the compiled point kernel
            return np.concatenate([dae.c(x, dae.z(x))]
                                  + [Ts[link.child] - Ts[link.parent] for link in links])

        free = [jn for jn in graph.tree if jn not in v0 and self.joints[jn].dof > 0]
        Ts = spatial(v0)
        if (graph.chords or links) and free:
            dae = self.assemble(q0)
            c0 = closure(v0)
            cols, idx = [], []
            for jn in free:
                for i in range(self.joints[jn].dof):
                    vel = dict(v0)
                    unit = np.zeros(self.joints[jn].dof)
                    unit[i] = 1.0
                    vel[jn] = unit
                    cols.append(closure(vel) - c0)
                    idx.append((jn, i))
            sol = np.linalg.lstsq(np.array(cols).T, -c0, rcond=None)[0]
            vel = dict(v0)
            for (jn, i), s in zip(idx, sol, strict=False):
                vel.setdefault(jn, np.zeros(self.joints[jn].dof))
                vel[jn] = np.array(vel[jn], dtype=float)
                vel[jn][i] = s
            Ts = spatial(vel)
        return full(Ts)

    def _extend(self, x: np.ndarray, q: Mapping[str, Any]) -> np.ndarray:
        """Append the spring states (= the joint coordinates), the beam states
        (undeformed, moving with their parent) and, with gravity, the beams' node poses
        (those of the undeformed beam on the parent), in the order of the assembled
        states."""
        extra = [float(np.atleast_1d(q.get(jn, np.zeros(self.joints[jn].dof)))[i])
                 for jn, a in self.actuators.items() for i in np.flatnonzero(a.stiffness > 0)]
        names = list(self.bodies)
        beams = []
        for link in self.links.values():
            T = np.zeros(6)
            if link.parent != GROUND:
                o = 18 * names.index(link.parent)
                T = np.linalg.solve(self.bodies[link.parent].spatial_inertia, x[o + 12:o + 18])
            beams.append(link.rest_state(T))
        if weighs(self.gravity):
            for link in self.links.values():
                H = np.eye(4)
                if link.parent != GROUND:
                    o = 18 * names.index(link.parent)
                    H = RigidBody.pose(x[o:o + 18])
                beams.append(initial_node_poses(link, H))
        return np.concatenate([x, extra, *beams])

    def _flexible_layout(self) -> dict[str, tuple[int, int | None]]:
        """``{link: (first beam state, first node-pose state or None)}`` in the
        assembled state vector (bodies, springs, beams, then node poses with gravity)."""
        o = 18 * len(self.bodies) + sum(int((a.stiffness > 0).sum())
                                        for a in self.actuators.values())
        beams = {}
        for name, link in self.links.items():
            beams[name] = o
            o += link.n
        out: dict[str, tuple[int, int | None]] = {}
        for name, link in self.links.items():
            pose = None
            if weighs(self.gravity):
                pose = o
                o += 12 * momentum_nodes(link)[0].size
            out[name] = (beams[name], pose)
        return out

    # ------------------------------------------------------------------ simulation
    def simulate(self, t_span: Any, q0: Mapping[str, Any] | None = None,
                 v0: Mapping[str, Any] | None = None, u: Any = None, method: Any = "auto",
                 dt: float | None = None, *, poses: Mapping[str, Any] | None = None,
                 twists: Mapping[str, Any] | None = None, options: Any = None,
                 **option_values: Any) -> MechanismResult:
        """Simulate from rest or from ``q0``/``v0`` (see :meth:`initial_state`) with
        :func:`porthamiltonian.simulate` — the same arguments: ``t_span`` (s; a pair, or
        a number ``t_end`` for ``(0, t_end)``), ``u`` (by actuator input name), ``method``
        (``"auto"`` — the midpoint step, a mechanism's H being quadratic —,
        ``"midpoint"``, ``"discrete_gradient"`` or ``"ida"``), ``dt`` (default: that of
        ``options``, else 1 ms), and any option of
        :class:`~porthamiltonian.simulate.SimulationOptions`."""
        from ..simulate import simulate

        if isinstance(q0, (int, float)) and not isinstance(q0, bool):  # the old (t_end, dt)
            warnings.warn("Mechanism.simulate(t_end, dt) is deprecated: give dt by name "
                          "(the arguments are those of porthamiltonian.simulate)",
                          DeprecationWarning, stacklevel=2)
            q0, dt = None, float(q0)
        if dt is None:
            dt = options.dt if options is not None and options.dt is not None else 1e-3
        span = (0.0, float(t_span)) if np.ndim(t_span) == 0 else t_span
        dae = self.assemble(q0)
        x0 = self.initial_state(q0, v0, poses, twists)
        _check_initial_links(self, x0)
        _check_initial_velocities(dae, x0)
        res = simulate(dae, span, x0, u=u, method=method, dt=dt, options=options,
                       **option_values)
        return MechanismResult(self, res)


def independent_rows(C: np.ndarray, tol: float) -> list[int]:
    r"""Rows of ``C`` chosen greedily in order: row ``k`` joins the kept rows ``A`` when
    every singular value of :math:`M = [A;\ c_k]` exceeds ``tol`` — the rule of one SVD
    per row, decided here in :math:`O(rn + r^2)` per row from an incremental orthonormal
    basis.

    Classical Gram–Schmidt with one reorthogonalization ("twice is enough": Giraud,
    Langou, Rozložník, Comput. Math. Appl. 50:1069–1075, 2005) keeps ``A = LQ`` with ``Q``
    orthonormal rows and ``L`` lower triangular, and splits :math:`c = \ell^\top Q + d\,q`
    (``d`` the distance of ``c`` from the span of ``A``); then ``M = TQ'`` with
    :math:`T = [[L, 0], [\ell^\top, d]]`, so :math:`\sigma(M) = \sigma(T)` and

    * :math:`\sigma_{\min}(T) \le d`: a row with ``d ≤ tol`` is dependent — rejected, as
      by the SVD;
    * :math:`\sigma_{\min}(T) \ge 1/\lVert T^{-1}\rVert_F`, with
      :math:`\lVert T^{-1}\rVert_F^2 = \lVert L^{-1}\rVert_F^2 + (1 + |L^{-\top}\ell|^2)/d^2`
      updated by one triangular solve: above ``tol`` the row is accepted, as by the SVD.

    Only when neither bound decides (the kept rows themselves within a factor
    :math:`\sqrt r` of ``tol``) is the SVD of ``M`` computed, so the selection is that
    of the SVD rule."""
    C = C[:, np.any(C != 0.0, axis=0)]   # zero columns change no singular value; dropping
    m, n = C.shape                       # them keeps the products small (one body's rows
                                         # touch 6 of its 18 states)
    # one BLAS thread: a loop of matrix–vector products gains nothing from threads and
    # loses much on a loaded machine (A02 with N = 100: 5.3 s CPU against 1.7 s)
    with blas.one_thread():
        return _greedy_rows(C, tol)


def _greedy_rows(C: np.ndarray, tol: float) -> list[int]:
    """The loop of :func:`independent_rows`."""
    m, n = C.shape
    size = min(m, n)
    Q = np.zeros((size, n))
    L = np.zeros((size, size))
    inv_f2 = 0.0                       # ‖L⁻¹‖_F² of the kept block
    keep: list[int] = []
    for k in range(m):
        r = len(keep)
        if r == size:
            break
        c = C[k]
        ell = Q[:r] @ c
        v = c - ell @ Q[:r]
        again = Q[:r] @ v              # the second pass restores orthogonality lost
        v -= again @ Q[:r]             # to cancellation in the first
        ell += again
        d = float(np.linalg.norm(v))
        if d <= tol:
            continue
        x = solve_triangular(L[:r, :r], ell, lower=True, trans="T") if r else ell
        f2 = inv_f2 + (1.0 + float(x @ x)) / d**2
        if f2 * tol**2 >= 1.0 and np.linalg.svd(C[keep + [k]], compute_uv=False)[-1] <= tol:
            continue
        Q[r], L[r, :r], L[r, r] = v / d, ell, d
        inv_f2 = f2
        keep.append(k)
    return keep


def _fingerprint(value: Any) -> Any:
    """A hashable, comparable image of ``value``: numbers, strings and arrays by value
    (arrays with shape and dtype), containers element by element (mappings without their
    private ``_`` keys: caches), any other object by identity."""
    if value is None or isinstance(value, (bool, int, float, complex, str)):
        return value
    if isinstance(value, np.ndarray):
        return ("array", value.shape, value.dtype.str, value.tobytes())
    if isinstance(value, (list, tuple)):
        return tuple(_fingerprint(v) for v in value)
    if isinstance(value, Mapping):
        return tuple((k, _fingerprint(v)) for k, v in value.items()
                     if not (isinstance(k, str) and k.startswith("_")))
    return ("object", id(value))


def _same(a: Mapping[str, Any] | None, b: Mapping[str, Any] | None) -> bool:
    a, b = dict(a or {}), dict(b or {})
    return a.keys() == b.keys() and all(np.array_equal(np.asarray(a[k]), np.asarray(b[k]))
                                        for k in a)


def _check_initial_links(mech: Mechanism, x0: np.ndarray) -> None:
    """Every undeformed flexible link must fit between its parent and child (a link
    that closes a chain of joints is not bent into place)."""
    names = list(mech.bodies)
    H = {GROUND: np.eye(4)}
    for i, b in enumerate(names):
        H[b] = RigidBody.pose(x0[18 * i:18 * i + 18])
    layout = mech._flexible_layout()
    for link in mech.links.values():
        o = layout[link.name][0]
        if link.child is not None:
            ang, dist = link.mismatch(H[link.parent], H[link.child], x0[o:o + link.n])
            size = max(1.0, float(np.abs(link.offset[:3, 3]).max()))
            if ang > 1e-8 or dist > 1e-8 * size:
                raise ModelError(f"flexible link {link.name!r}: the undeformed beam does not "
                                 f"fit between {link.parent!r} and {link.child!r} at the "
                                 f"initial configuration (off by {dist:.3g} m, {ang:.3g} rad); "
                                 "closed chains must close with the beam undeformed")


def _check_initial_velocities(dae: MechanismDAE, x0: np.ndarray) -> None:
    """``B(x0)ᵀz(x0) = 0``, with a message in the terms of mechanisms (the DAE driver
    checks again, in general terms)."""
    z, B = dae.z(x0), dae.B(x0)
    c = B.T @ z
    norms = np.sqrt(np.asarray((B.multiply(B) if hasattr(B, "multiply") else B * B)
                               .sum(axis=0))).ravel()
    scale = norms * np.linalg.norm(z) + 1e-300
    bad = np.flatnonzero(np.abs(c) > 1e-9 * scale)
    if bad.size:
        names = ", ".join(f"{dae.multipliers[i]} ({c[i]:.3g})" for i in bad)
        raise ModelError(f"initial velocities violate the joint constraints {names}; give "
                         "joint velocities v0 (consistent values are then computed)")


class MechanismResult:
    """A mechanism simulation: the :class:`~porthamiltonian.simulate.DAEResult` ``.raw``
    plus poses, joint coordinates and position-level constraint residuals.

    ``res["elbow.q"]``, :attr:`variables`, :attr:`shown` and any other attribute of the
    raw result (``res.x``, ``res.lam`` …) are those of ``.raw``: the joint angles and
    rates, body positions and joint reactions by name (:mod:`.variables`)."""

    def __init__(self, mechanism: Mechanism, raw: Any) -> None:
        self.mechanism, self.raw = mechanism, raw
        self.t, self.H, self.power_residual = raw.t, raw.H, raw.power_residual

    def __getitem__(self, name: str) -> np.ndarray:
        """The series ``name`` of the raw result (``res.variables`` lists them)."""
        return self.raw[name]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_") or name == "raw":  # no recursion before raw is set
            raise AttributeError(name)
        return getattr(self.raw, name)

    def _repr_html_(self) -> str:
        """The notebook summary of the underlying result (joint angles with units)."""
        return str(self.raw._repr_html_())

    def __repr__(self) -> str:
        return f"MechanismResult({self.raw!r})"

    def __len__(self) -> int:
        return len(self.raw)

    def pose(self, body: str) -> np.ndarray:
        """Homogeneous matrices (N × 4 × 4) of ``body`` at the saved times."""
        names = list(self.mechanism.bodies)
        if body not in names:
            raise ModelError(f"pose: unknown body {body!r}; bodies: {', '.join(names)}")
        o = 18 * names.index(body)
        return RigidBody.pose(self.raw.x[:, o:o + 18])

    def joint(self, name: str) -> np.ndarray:
        """Joint coordinates (N × dof; angles unwrapped) at the saved times."""
        j = self.mechanism.joints.get(name)
        if j is None:
            raise ModelError(f"joint: unknown joint {name!r}")
        n = len(self.t)
        P1, P2 = (np.tile(np.eye(4), (n, 1, 1)) if b == GROUND else self.pose(b)
                  for b in (j.parent, j.child))
        q = joint_coordinates(j, P1[:, :3, 3], P1[:, :3, :3], P2[:, :3, 3], P2[:, :3, :3])
        for i in angle_columns(j.kind):
            q[:, i] = np.unwrap(q[:, i])
        return q

    def _link(self, name: str) -> tuple[Any, np.ndarray]:
        links = self.mechanism.links
        if name not in links:
            raise ModelError(f"unknown flexible link {name!r}; links: {', '.join(links) or '—'}")
        lk = links[name]
        o = self.mechanism._flexible_layout()[name][0]
        return lk, self.raw.x[:, o:o + lk.n]

    def beam_state(self, link: str) -> np.ndarray:
        """The beam states of flexible link ``link`` (N × n_beam) at the saved times."""
        return self._link(link)[1]

    def beam_poses(self, link: str) -> np.ndarray:
        """Inertial poses (N × (E+1) × 4 × 4) of the sections of ``link`` at the element
        end points, reconstructed from the parent's pose and the strains."""
        lk, xb = self._link(link)
        Hp = (np.tile(np.eye(4), (len(self.t), 1, 1)) if lk.parent == GROUND
              else self.pose(lk.parent))
        return lk.section_poses(Hp, xb)

    def tip_deflection(self, link: str) -> np.ndarray:
        """Displacement (N × 3, m) of the tip section of ``link`` from where the undeformed
        link would put it, in the axes of its root section (axis 1 along the beam, axis
        3 along ``up``: column 1 is the deflection in the plane of ``EI₃`` bending)."""
        lk = self._link(link)[0]
        P = self.beam_poses(link)
        root, tip = P[:, 0], P[:, -1]
        rel = np.einsum("nji,nj->ni", root[:, :3, :3], tip[:, :3, 3] - root[:, :3, 3])
        return rel - lk.reference_tip[:3, 3]

    def node_poses(self, link: str) -> np.ndarray:
        """Inertial poses (N × n_nodes × 4 × 4) of the beam nodes of ``link`` that carry
        momentum — the pose states on which the beam's weight acts (:mod:`.beam_weight`;
        they exist only with gravity).  Nodes in the order of the beam's velocity space,
        :func:`.beam_weight.momentum_nodes` gives their indices and masses."""
        lk, _ = self._link(link)
        o = self.mechanism._flexible_layout()[link][1]
        if o is None:
            raise ModelError(f"flexible link {link!r}: no node poses — they are states only "
                             "when the mechanism has gravity; use beam_poses() for the "
                             "strain-integrated section poses")
        nn = momentum_nodes(lk)[0].size
        return RigidBody.pose(self.raw.x[:, o:o + 12 * nn].reshape(-1, nn, 12))

    def pose_drift(self, link: str | None = None) -> np.ndarray:
        """Drift of the beams' node poses from the strain-integrated section poses
        (:meth:`beam_poses`) at the element end points (N × 2): the largest angle (rad)
        and distance (m) over those nodes and all links (or ``link``).  Zero at
        ``t = 0``; a discretization effect (:mod:`.beam_weight`), not corrected."""
        names = list(self.mechanism.links) if link is None else [link]
        out = np.zeros((len(self.t), 2))
        for name in names:
            nodes = momentum_nodes(self._link(name)[0])[0]
            k = self._link(name)[0].beam.disc.degree
            ends = np.flatnonzero(nodes % k == 0)
            gap = lie.frame_gap(self.node_poses(name)[:, ends],
                             self.beam_poses(name)[:, nodes[ends] // k])
            out = np.maximum(out, gap.max(axis=1, initial=0.0))
        return out

    def flexible_residual(self, link: str | None = None) -> np.ndarray:
        """Position-level fit of the flexible links (N × 2): angle (rad) and distance (m)
        between each reconstructed beam tip and its child's anchor frame, the largest over
        all links (or of ``link``).  Zero at ``t = 0``; the coupling holds at velocity
        level, so this measures the drift of the reconstruction."""
        names = list(self.mechanism.links) if link is None else [link]
        out = np.zeros((len(self.t), 2))
        for name in names:
            lk, xb = self._link(name)
            if lk.child is None:
                continue
            Hc = (np.tile(np.eye(4), (len(self.t), 1, 1)) if lk.child == GROUND
                  else self.pose(lk.child))
            out = np.maximum(out, lie.frame_gap(self.beam_poses(name)[:, -1], Hc @ lk.tip))
        return out

    def constraint_residual(self) -> np.ndarray:
        """``max |g(q)|`` over all joints' position constraints (including any dropped as
        redundant) and ``|RRᵀ − I|`` of all bodies, per saved time."""
        full = MechanismDAE(self.mechanism)
        nb = full.nb
        R = self.raw.x[:, :18 * nb].reshape(-1, nb, 18)[:, :, 3:12].reshape(-1, nb, 3, 3)
        orth = np.abs(R @ R.transpose(0, 1, 3, 2) - np.eye(3)).max(axis=(1, 2, 3))
        g = np.array([np.abs(full.position_residual(x)).max(initial=0.0)
                      for x in self.raw.x])
        return np.maximum(g, orth)
