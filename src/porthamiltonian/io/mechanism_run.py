"""A ``mechanism`` model file compiled and started: the :class:`Mechanism`, its
DescriptorPHS, and the consistent initial state from joint coordinates and velocities.

:func:`compile_mechanism` is the ``mechanism`` compiler of
:func:`porthamiltonian.io.build.build_system`; it remembers which :class:`Mechanism` made
each system, so that :func:`initial_state` turns ``simulate.initial`` (joint
coordinates) and ``simulate.velocities`` (joint velocities) into the state of that very
system (:meth:`Mechanism.initial_state`: poses and body momenta, plus the actuator
springs' states).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import ModelError
from ..naming import split_index

__all__ = ["compile_mechanism", "assemble_mechanism", "mechanism_of", "initial_state",
           "joint_values"]

_MADE_BY: weakref.WeakKeyDictionary[Any, Any] = weakref.WeakKeyDictionary()


def joint_values(values: Mapping[str, float]) -> dict[str, Any]:
    """``{"pivot": 0.1, "u[0]": 0.2, "u[1]": 0.3}`` → ``{"pivot": 0.1, "u": [0.2, 0.3]}``."""
    out: dict[str, Any] = {}
    for name, value in values.items():
        base, index = split_index(name)
        if index is None:
            out[name] = float(value)
        else:
            out.setdefault(base, {})[index] = float(value)
    return {k: (np.array([v[i] for i in sorted(v)]) if isinstance(v, dict) else v)
            for k, v in out.items()}


def _mechanism(model: Any) -> Any:
    from ..mechanics import mechanism_from_spec

    return mechanism_from_spec({**model.section, "name": model.name})


def compile_mechanism(model: Any) -> Any:
    """The DescriptorPHS of a ``mechanism`` model (the numeric pH-DAE when it has
    flexible links, which have no symbolic form); redundant closure constraints are
    judged at the configuration of ``simulate.initial``."""
    mech = _mechanism(model)
    q0 = joint_values((model.simulate or {}).get("initial") or {}) or None
    # flexible links and slender/point bodies have no symbolic form: their mechanisms
    # compile to the numeric DAE
    numeric = mech.links or mech.forces or any(b.singular for b in mech.bodies.values())
    system = mech.assemble(q0) if numeric else mech.system(q0)
    _MADE_BY[system] = mech
    return system


def assemble_mechanism(model: Any) -> Any:
    """The numeric pH-DAE (:class:`~porthamiltonian.mechanics.MechanismDAE`) of a
    ``mechanism`` model, for simulation: assembled without SymPy, so long chains start
    at once; redundant closure constraints are judged at ``simulate.initial``."""
    mech = _mechanism(model)
    dae = mech.assemble(joint_values((model.simulate or {}).get("initial") or {}) or None)
    _MADE_BY[dae] = mech
    return dae


def mechanism_of(model: Any, system: Any) -> Any:
    """The :class:`Mechanism` behind ``system`` (compiled from ``model``)."""
    mech = _MADE_BY.get(system)
    if mech is None:  # a system reduced or rebuilt by the caller: assemble it again
        mech = _mechanism(model)
        # the numeric assembly has the same state names as the symbolic one, costs no
        # SymPy, and exists for flexible links too
        built = mech.assemble(joint_values((model.simulate or {}).get("initial") or {}) or None)
        if list(built.states) != list(system.states):
            raise ModelError(f"{model.path or model.name}: the system given does not come "
                             "from this mechanism model (its states differ)")
    return mech


def initial_state(model: Any, system: Any) -> np.ndarray:
    """The consistent initial state of ``system`` from ``simulate.initial`` (joint
    coordinates, rad or m) and ``simulate.velocities`` (rad/s or m/s); others are 0."""
    sim = model.simulate or {}
    q0 = joint_values(sim.get("initial") or {}) or None
    v0 = joint_values(sim.get("velocities") or {}) or None
    return mechanism_of(model, system).initial_state(q0, v0)
