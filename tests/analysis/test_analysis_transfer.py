"""Transfer functions and Bode data against closed forms from circuit theory and Newton."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from an_systems import (
    dc_motor,
    series_rlc,
    series_rlc_symbolic,
    sparse_chain,
    two_mass,
    two_mass_impedance,
)

from porthamiltonian import PHS, ModelError
from porthamiltonian import analysis as an

OMEGA = np.array([0.3, 7.0, 55.0, 100.0, 180.0, 2.5e3, 4e4])


def test_series_rlc_admittance_matches_kvl_closed_form():
    R, L, C = 10.0, 0.1, 1e-3
    tf = an.transfer_function(series_rlc(R, L, C), "V", "I")
    s = 1j * OMEGA
    expected = 1.0 / (L * s + R + 1.0 / (C * s))
    np.testing.assert_allclose(tf(s)[:, 0, 0], expected, rtol=1e-12)
    # also off the imaginary axis and for a 2-D array of s (vectorised)
    s2 = np.array([[-3.0 + 40j, 1.5], [20 - 5j, 0.1 + 0.2j]])
    np.testing.assert_allclose(tf(s2)[..., 0, 0], 1.0 / (L * s2 + R + 1.0 / (C * s2)),
                               rtol=1e-12)


def test_bode_magnitude_and_phase_of_the_rlc_within_1e_9():
    R, L, C = 10.0, 0.1, 1e-3
    res = an.bode(series_rlc(R, L, C), omega=OMEGA)
    s = 1j * OMEGA
    Y = 1.0 / (L * s + R + 1.0 / (C * s))
    rel = np.abs(res.magnitude[:, 0, 0] - np.abs(Y)) / np.abs(Y)
    assert rel.max() < 1e-9
    np.testing.assert_allclose(res.magnitude_db[:, 0, 0], 20 * np.log10(np.abs(Y)), rtol=1e-9)
    # capacitive (+90°) below, inductive (−90°) above the resonance 1/√(LC) = 100 rad/s
    np.testing.assert_allclose(res.phase_deg[:, 0, 0], np.degrees(np.angle(Y)), atol=1e-9)
    assert res.phase_deg[0, 0, 0] > 89 and res.phase_deg[-1, 0, 0] < -89


def test_bode_default_range_brackets_the_resonance_and_plots(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    res = an.bode(series_rlc(), plot=True)
    w0 = 100.0  # |λ| = 1/√(LC) for both poles
    assert res.omega[0] <= w0 / 100 and res.omega[-1] >= w0 * 100
    k = int(np.argmax(res.magnitude[:, 0, 0]))
    assert res.omega[k] == pytest.approx(w0, rel=0.03)   # |Y| peaks at 1/R at resonance
    assert res.magnitude[k, 0, 0] == pytest.approx(1 / 10.0, rel=1e-3)
    res.figure.savefig(tmp_path / "bode.png")
    assert (tmp_path / "bode.png").stat().st_size > 0


def test_symbolic_rlc_is_the_textbook_rational_function():
    s = sp.Symbol("s")
    R, L, C = sp.symbols("R L C", positive=True)
    Y = an.transfer_function(series_rlc_symbolic(), symbolic=True)
    assert Y.shape == (1, 1)
    assert sp.simplify(Y[0, 0] - 1 / (L * s + R + 1 / (C * s))) == 0
    # capacitor voltage per source voltage: the low-pass 1/(LCs² + RCs + 1)
    H = an.transfer_function(series_rlc_symbolic(), outputs="dH/dq", symbolic=True)
    assert sp.simplify(H[0, 0] - 1 / (L * C * s**2 + R * C * s + 1)) == 0
    # its numeric evaluation uses the parameter values
    tf = an.transfer_function(series_rlc_symbolic(), outputs="dH/dq")
    sv = 30j
    assert tf(sv)[0, 0] == pytest.approx(1 / (0.1e-3 * sv**2 + 10e-3 * sv + 1), rel=1e-12)


def test_dc_motor_speed_per_voltage():
    R, L, k, J, b = 1.2, 5e-3, 0.05, 2e-4, 1e-4
    tf = an.transfer_function(dc_motor(R, L, k, J, b), inputs="V", outputs="dH/dp")
    assert tf.outputs == ("dH/dp",) and tf.inputs == ("V",)
    s = 1j * OMEGA
    expected = k / ((L * s + R) * (J * s + b) + k**2)
    np.testing.assert_allclose(tf(s)[:, 0, 0], expected, rtol=1e-12)
    # the conjugate output 'omega' of the torque port is the same speed
    tf2 = an.transfer_function(dc_motor(R, L, k, J, b), inputs="V", outputs="omega")
    np.testing.assert_allclose(tf2(s), tf(s), rtol=1e-14)
    # DC gain: steady speed k/(R b + k²) per volt
    assert tf.dcgain()[0, 0] == pytest.approx(k / (R * b + k**2), rel=1e-12)


def test_two_mass_chain_velocities_per_forces_is_the_inverse_impedance():
    tf = an.transfer_function(two_mass())
    s = 1j * OMEGA
    expected = np.linalg.inv(two_mass_impedance(s))
    np.testing.assert_allclose(tf(s), expected, rtol=1e-10, atol=1e-14)
    # reciprocity (Maxwell–Betti): v2/F1 = v1/F2
    np.testing.assert_allclose(tf(s)[:, 1, 0], tf(s)[:, 0, 1], rtol=1e-10)


def test_sparse_path_equals_dense_path():
    sys = sparse_chain(150)
    assert sys.kind == "sparse"
    dense = PHS(**{k: v.toarray() for k, v in sys.matrices().items()}, Q=sys.Q.toarray(),
                inputs=["F"], outputs=["v"])
    s = 1j * np.array([0.5, 3.0, 17.0, 40.0])
    np.testing.assert_allclose(an.transfer_function(sys)(s), an.transfer_function(dense)(s),
                               rtol=1e-9)


def test_selection_errors_name_the_culprit():
    sys = dc_motor()
    with pytest.raises(ModelError, match="unknown input 'U'.*V, tau"):
        an.transfer_function(sys, inputs="U")
    with pytest.raises(ModelError, match="unknown output 'speed'"):
        an.transfer_function(sys, outputs="speed")
    with pytest.raises(ModelError, match="input index 5"):
        an.transfer_function(sys, inputs=5)
    with pytest.raises(ModelError, match="cannot analyse a str"):
        an.transfer_function("motor")


def test_evaluating_at_a_pole_is_an_error():
    lc = PHS(J=[[0, 1], [-1, 0]], G=[[0], [1]], Q=np.diag([1e3, 10.0]))  # ω0 = 100 rad/s
    with pytest.raises(ModelError, match="pole"):
        an.transfer_function(lc)(100j)


def test_large_system_frequency_range_brackets_the_dense_spectrum(monkeypatch):
    import porthamiltonian.analysis.frequency as freq

    sys = sparse_chain(60)
    lam = np.linalg.eigvals(((sys.J - sys.R) @ sys.Q).toarray())
    monkeypatch.setattr(freq, "DENSE_LIMIT", 50)   # take the large-system path
    lo, hi = an.frequency_range(sys)
    assert lo <= np.abs(lam).min() / 10 and hi >= np.abs(lam).max() * 10
