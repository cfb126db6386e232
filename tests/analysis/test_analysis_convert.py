"""SciPy and python-control state-space objects agree with our frequency response."""

from __future__ import annotations

import sys

import numpy as np
import pytest
import scipy.signal as ssig
from an_systems import dc_motor, series_rlc, two_mass

from porthamiltonian import ModelError
from porthamiltonian import analysis as an

OMEGA = np.logspace(-1, 4, 9)


@pytest.mark.filterwarnings("ignore::scipy.signal.BadCoefficients")
def test_to_scipy_frequency_response_and_names():
    sys_ = two_mass()
    ours = an.transfer_function(sys_).frequency_response(OMEGA)
    for k, inp in enumerate(sys_.inputs):
        ss = an.to_scipy(sys_, inputs=inp, outputs="v2")
        assert ss.input_names == [inp] and ss.output_names == ["v2"]
        assert ss.state_names == ["q1", "p1", "q2", "p2"]
        _, H = ssig.freqresp(ss, OMEGA)
        np.testing.assert_allclose(H, ours[:, 1, k], rtol=1e-10)


def test_to_scipy_step_response_matches_ours():
    ss = an.to_scipy(series_rlc(), outputs="dH/dq")
    t = np.linspace(0, 0.1, 101)
    _, y = ssig.step(ss, T=t)
    np.testing.assert_allclose(y, an.step_response(series_rlc(), t, outputs="dH/dq").y[:, 0, 0],
                               atol=1e-8)


def test_to_control_carries_names_and_agrees():
    control = pytest.importorskip("control")
    motor = dc_motor()
    cs = an.to_control(motor)
    assert list(cs.input_labels) == ["V", "tau"]
    assert list(cs.output_labels) == ["i", "omega"]
    assert list(cs.state_labels) == ["lam", "p"]
    ours = an.transfer_function(motor)(1j * OMEGA)
    theirs = np.moveaxis(np.asarray(cs(1j * OMEGA)), -1, 0)
    np.testing.assert_allclose(theirs, ours, rtol=1e-10)
    np.testing.assert_allclose(np.sort_complex(control.poles(cs)),
                               np.sort_complex(an.poles(motor)), rtol=1e-12)


def test_to_control_without_python_control_is_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "control", None)  # makes `import control` fail
    with pytest.raises(ModelError, match=r"porthamiltonian\[control\]"):
        an.to_control(series_rlc())


def test_a_scipy_or_control_system_is_accepted_back():
    ss = an.to_scipy(two_mass())
    np.testing.assert_allclose(an.transfer_function(ss)(3j), an.transfer_function(two_mass())(3j),
                               rtol=1e-14)


def test_indexed_names_survive_in_python_control():
    pytest.importorskip("control")
    sys_ = two_mass().rename(inputs={"F1": "F[0]", "F2": "F[1]"})
    cs = an.to_control(sys_)
    assert list(cs.input_labels) == ["F[0]", "F[1]"]
    assert cs.input_index["F[1]"] == 1
