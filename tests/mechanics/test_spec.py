"""The ``mechanism:`` mapping builds the same system as the Python API; errors are named."""

import pytest
import sympy as sp
import yaml

from porthamiltonian import ModelError
from porthamiltonian.mechanics import Mechanism, mechanism_from_spec

TEXT = """
parameters: {m1: 1.2, L1: 0.9}
mechanism:
  gravity: [0, -9.81, 0]
  bodies:
    - {name: upper, mass: m1, inertia: [0.09, 0.005, 0.09], com: [0, "-L1/2", 0]}
    - {name: lower, mass: 0.7, inertia: [0.03, 0.005, 0.03], com: [0, -0.35, 0]}
  joints:
    - {name: shoulder, kind: revolute, parent: ground, child: upper, axis: [0, 0, 1]}
    - {name: elbow, kind: revolute, parent: upper, child: lower, parent_anchor: [0, "-L1", 0]}
  actuators:
    - {joint: elbow, damping: 0.1}
"""


def test_spec_equals_api():
    data = yaml.safe_load(TEXT)
    a = mechanism_from_spec(data["mechanism"], data["parameters"]).system()
    mech = Mechanism(gravity=[0, -9.81, 0])
    mech.add_body("upper", 1.2, [0.09, 0.005, 0.09], com=[0, -0.45, 0])
    mech.add_body("lower", 0.7, [0.03, 0.005, 0.03], com=[0, -0.35, 0])
    mech.add_joint("shoulder", "revolute", "ground", "upper")
    mech.add_joint("elbow", "revolute", "upper", "lower", parent_anchor=[0, -0.9, 0])
    mech.add_actuator("elbow", damping=0.1)
    b = mech.system()
    assert a.states == b.states and a.inputs == b.inputs == ("elbow.tau[0]",)
    assert sp.expand(a.core.hamiltonian - b.core.hamiltonian) == 0
    assert (a.B - b.B).is_zero_matrix and (a.R - b.R).is_zero_matrix


@pytest.mark.parametrize("patch, match", [
    ({"bodies": [{"name": "x", "mass": "m9", "inertia": [1, 1, 1]}]}, r"bodies\[0\] \(x\)"),
    ({"bodies": [{"name": "x", "inertia": [1, 1, 1]}]}, "missing"),
    ({"joints": [{"name": "j", "kind": "revolute", "parent": "ground", "child": "x",
                  "axle": [0, 0, 1]}]}, "unknown key"),
    ({"links": []}, "unknown key"),
])
def test_spec_errors_name_the_entry(patch, match):
    spec = {"gravity": [0, 0, -9.81]}
    spec.update(patch)
    with pytest.raises(ModelError, match=match):
        mechanism_from_spec(spec)
