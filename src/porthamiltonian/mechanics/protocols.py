"""What the assemblies read from a mechanism, as protocols.

:mod:`.assembly` (numeric) and :mod:`.symbolic` build the pH-DAE of a mechanism from its
bodies, joints, actuators, graph and gravity.  :class:`~.mechanism.Mechanism` sits above
them and calls them; they name what they read by :class:`MechanismModel` instead of
importing the class, so the import graph has no circle (docs/design.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol

import numpy as np

from .graph import MechanismGraph
from .joints import Joint
from .rigid_body import RigidBody

__all__ = ["ActuatorModel", "MechanismModel"]


class ActuatorModel(Protocol):
    """A joint actuator: one entry per free direction of its joint."""

    @property
    def stiffness(self) -> np.ndarray:
        """Spring constants (N·m/rad or N/m), 0 where there is no spring."""
        ...

    @property
    def damping(self) -> np.ndarray:
        """Damping constants (N·m·s/rad or N·s/m)."""
        ...

    @property
    def setpoint(self) -> np.ndarray | None:
        """The springs' rest coordinates (``None``: the initial joint coordinates)."""
        ...


class MechanismModel(Protocol):
    """The parts of a mechanism an assembly reads (a :class:`~.mechanism.Mechanism`)."""

    @property
    def name(self) -> str: ...

    @property
    def gravity(self) -> np.ndarray:
        """Gravitational acceleration in the inertial frame (m/s², shape (3,))."""
        ...

    @property
    def bodies(self) -> Mapping[str, RigidBody]: ...

    @property
    def joints(self) -> Mapping[str, Joint]: ...

    @property
    def actuators(self) -> Mapping[str, ActuatorModel]:
        """The actuated joints' actuators, by joint name."""
        ...

    @property
    def graph(self) -> MechanismGraph:
        """The joint graph: spanning tree, chords, cycles."""
        ...
