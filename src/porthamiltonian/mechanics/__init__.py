"""Multibody mechanisms by port interconnection (Macchelli & Melchiorri, IFAC 2008).

* :mod:`porthamiltonian.lie` (also ``mechanics.lie``) — SE(3)/se(3), SE(2)/se(2): exp/log,
  Ad, ad and their duals (in the foundation layer: the 3-D beams use it too);
* :mod:`.rigid_body` — a rigid body as a port-Hamiltonian system on SE(3);
* :mod:`.joints` — lower kinematic pairs as constraints on the poses;
* :mod:`.graph` — mechanism graphs (spanning tree, cycles, co-cycles);
* :mod:`.mechanism` — :class:`Mechanism`: bodies + joints → pH-DAE, simulation;
* :mod:`.assembly` — :class:`MechanismDAE`: the pH-DAE evaluated numerically (sparse);
* :mod:`.flexible` — flexible links (3-D beams) joined to the bodies by power ports;
* :mod:`.slender` — slender rods and point masses (singular inertia: spin rates as
  algebraic states);
* :mod:`.forces` — force elements between two frames: wrench ports, spring–dampers,
  bushings; :mod:`.contact` — sphere/point–plane contact with Coulomb friction;
  :mod:`.force_assembly` — the assembly with them;
* :mod:`.symbolic` — the same system as a symbolic DescriptorPHS (printing, small models);
* :mod:`.dual` — batched pose-built vectors with exact derivatives (for the assembly);
* :mod:`.protocols` — what the assemblies read from a mechanism (so they need not import
  :mod:`.mechanism`, which calls them); :mod:`.sparsity` — when they go sparse;
* :mod:`.spec` — a mechanism from the ``mechanism:`` mapping of a model file.
"""

from . import lie
from .assembly import MechanismDAE
from .contact import PlaneContact, damping_for_restitution, restitution
from .flexible import FlexibleLink, FlexibleMechanismDAE
from .forces import Bushing, ForceElement, SpringDamper, WrenchPort
from .graph import MechanismGraph
from .joints import Joint
from .mechanism import Mechanism, MechanismResult
from .rigid_body import RigidBody
from .spec import mechanism_from_spec

__all__ = ["lie", "Bushing", "FlexibleLink", "FlexibleMechanismDAE", "ForceElement", "Joint",
           "Mechanism", "MechanismDAE", "MechanismGraph", "MechanismResult", "PlaneContact",
           "RigidBody", "SpringDamper", "WrenchPort", "damping_for_restitution",
           "mechanism_from_spec", "restitution"]
