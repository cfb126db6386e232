"""Round trips through pyMOR's PHLTIModel."""

from __future__ import annotations

import sys

import numpy as np
import pytest
from linear_ph_systems import (
    chain_with_feedthrough,
    elongation_chain,
    lin_tf,
    msd50,
    parallel_capacitors,
    pymor_tf,
    tf_error,
)

from porthamiltonian.errors import ModelError
from porthamiltonian.export.pymor import from_pymor, to_pymor
from porthamiltonian.linear_ph import linear_ph

iosys = pytest.importorskip("pymor.models.iosys")

SYSTEMS = {"msd chain": msd50, "descriptor": parallel_capacitors,
           "P, S, N ≠ 0": chain_with_feedthrough}


@pytest.mark.parametrize("name", list(SYSTEMS))
def test_round_trip_keeps_the_transfer_function(name):
    system = SYSTEMS[name]()
    model = to_pymor(system)
    assert isinstance(model, iosys.PHLTIModel)
    back = from_pymor(model)
    assert type(back) is type(system)
    assert tf_error(lin_tf(system), lin_tf(back)) < 1e-12
    assert tf_error(lin_tf(system), pymor_tf(model)) < 1e-12  # what pyMOR holds
    # the matrices themselves come back (names aside: pyMOR has none)
    a, b = linear_ph(system).dense(), linear_ph(back).dense()
    for key in "EJRQGPSN":
        assert np.array_equal(getattr(a, key), getattr(b, key)), key


def test_pymor_evaluates_the_same_transfer_function():
    model = to_pymor(chain_with_feedthrough())
    assert tf_error(lin_tf(chain_with_feedthrough()), pymor_tf(model, exact=True),
                    [0.01, 1.0, 100.0]) < 1e-12


def test_sign_of_n_and_the_default_operators():
    lin = linear_ph(chain_with_feedthrough())
    model = to_pymor(chain_with_feedthrough())
    J, R, G, P, S, N, E, Q = model.to_matrices(format="dense")
    assert E is None  # E = I goes as pyMOR's IdentityOperator
    assert np.array_equal(N, -chain_with_feedthrough().M) and N[0, 1] == 0.5  # N = −M
    D = model.to_abcde_matrices(format="dense")[3]
    assert np.array_equal(D, lin.S - lin.N)  # pyMOR's D = S − N is the library's S + M
    plain = to_pymor(elongation_chain())
    assert [M is None for M in plain.to_matrices()[3:6]] == [True, True, True]  # P, S, N


def test_descriptor_keeps_the_multiplier_as_a_state():
    model = to_pymor(parallel_capacitors())
    E = model.to_matrices(format="dense")[6]
    assert np.linalg.matrix_rank(E) == 2 and model.order == 3


def test_passive_lti_model_is_written_in_ph_form():
    A, B, C, D = linear_ph(chain_with_feedthrough()).dense().state_space()
    T = np.random.default_rng(3).standard_normal(A.shape)
    lti = iosys.LTIModel.from_matrices(np.linalg.solve(T, A @ T), np.linalg.solve(T, B),
                                       C @ T, D)
    ph = from_pymor(lti)
    assert tf_error(pymor_tf(lti), lin_tf(ph)) < 1e-10
    assert np.linalg.eigvalsh(linear_ph(ph).Q)[0] > 0


def test_non_passive_lti_model_and_other_objects_are_refused():
    lti = iosys.LTIModel.from_matrices(np.array([[0.5]]), np.array([[1.0]]),
                                       np.array([[1.0]]), np.array([[1.0]]))
    with pytest.raises(ModelError, match="not passive: pole 0.5"):
        from_pymor(lti)
    with pytest.raises(ModelError, match="PHLTIModel or LTIModel, not a str"):
        from_pymor("model")


def test_missing_pymor_names_the_install_line(monkeypatch):
    monkeypatch.setitem(sys.modules, "pymor", None)
    monkeypatch.setitem(sys.modules, "pymor.models", None)
    with pytest.raises(ModelError, match=r"pip install 'porthamiltonian\[mor\]'"):
        to_pymor(msd50())
