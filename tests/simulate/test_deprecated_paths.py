"""The flat ``simulate/`` module paths of the last release still import for one release,
with a DeprecationWarning naming the new module, and give the very same objects."""

from __future__ import annotations

import importlib
import sys

import numpy as np
import pytest
from sim_systems import oscillator
from test_dae_models import parallel_capacitors

from porthamiltonian.simulate import simulate
from porthamiltonian.simulate._moved import MOVED


@pytest.mark.parametrize("old", sorted(MOVED))
def test_old_module_path_warns_and_resolves_to_the_new_home(old):
    sys.modules.pop(f"porthamiltonian.simulate.{old}", None)
    with pytest.warns(DeprecationWarning, match="deprecated"):
        alias = importlib.import_module(f"porthamiltonian.simulate.{old}")
    home = importlib.import_module(f"porthamiltonian.{MOVED[old][-1]}")
    public = [n for n in getattr(home, "__all__", []) if hasattr(home, n)]
    assert public, home
    for name in public:
        assert getattr(alias, name) is getattr(home, name)
    with pytest.raises(AttributeError, match="has no attribute"):
        alias.no_such_name  # noqa: B018


def test_simulate_descriptor_is_a_deprecated_call_of_simulate():
    from porthamiltonian.simulate._moved import simulate_descriptor

    sys_ = parallel_capacitors(1e-3, 2e-3, 100.0)
    x0 = {"q1": 2e-3, "q2": 4e-3}
    with pytest.warns(DeprecationWarning, match="porthamiltonian.simulate"):
        old = simulate_descriptor(sys_, (0.0, 0.1), x0, dt=1e-3)
    new = simulate(sys_, (0.0, 0.1), x0, dt=1e-3)
    np.testing.assert_array_equal(old.x, new.x)


def test_old_names_of_moved_classes_are_the_new_classes():
    sys.modules.pop("porthamiltonian.simulate.base", None)
    with pytest.warns(DeprecationWarning):
        base = importlib.import_module("porthamiltonian.simulate.base")
    from porthamiltonian.simulate import StepInfo
    from porthamiltonian.simulate.problem.dynamics import Dynamics

    assert base.StepInfo is StepInfo and base.Dynamics is Dynamics
    res = simulate(oscillator(), (0.0, 1.0), [1.0, 0.0], dt=0.1)
    assert res.success
