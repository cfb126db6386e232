"""Transmission line: port admittance, impedance and hybrid matrices against closed forms."""

import numpy as np
import pytest
import scipy.sparse as sps
import scipy.sparse.linalg as spla

from porthamiltonian.distributed import transmission_line

LEN, LP, CP = 2.0, 0.4e-6, 100e-12          # 2 m of 400 nH/m, 100 pF/m: Z = 63 Ω
TAU = LEN * np.sqrt(LP * CP)                  # one-way delay (s)


def transfer(sys, s):
    """C (sI − A)⁻¹ B + D of the discretized system at the complex frequency s."""
    num = sys.compile()
    A, B = sps.csc_array(num.A), num.B.toarray()
    X = spla.spsolve(s * sps.identity(A.shape[0], format="csc") - A, B.astype(complex))
    return num.C @ X.reshape(A.shape[0], -1) + num.D.toarray()


def exact(s, R=0.0, G=0.0):
    z, y = R + s * LP, G + s * CP
    Z, gl = np.sqrt(z / y), np.sqrt(z * y) * LEN
    return Z, np.cosh(gl), np.sinh(gl)


FREQS = 1j * np.array([0.3, 1.1, 2.5]) / TAU


@pytest.mark.parametrize(("R", "G"), [(0.0, 0.0), (5.0, 2e-4)])
def test_voltage_ports_admittance(R, G):
    # Y(s) = [[cosh γL, −1], [−1, cosh γL]] / (Z sinh γL), currents into the line
    line = transmission_line(LEN, LP, CP, R or None, G or None, elements=40, degree=2)
    assert line.system.inputs == ("V_left", "V_right")
    assert line.system.outputs == ("I_left", "I_right")
    for s in FREQS:
        Z, ch, sh = exact(s, R, G)
        Y = np.array([[ch, -1], [-1, ch]]) / (Z * sh)
        assert np.allclose(transfer(line.system, s), Y, rtol=1e-5, atol=1e-5 * abs(Y).max())


def test_current_ports_impedance():
    # Z(s) = Z0 [[cosh, 1], [1, cosh]] / sinh: the inverse of Y (dual partition)
    line = transmission_line(LEN, LP, CP, elements=40, degree=2, left="current",
                             right="current")
    assert line.disc.partition == "dual"
    for s in FREQS:
        Z, ch, sh = exact(s)
        Zm = Z * np.array([[ch, 1], [1, ch]]) / sh
        assert np.allclose(transfer(line.system, s), Zm, rtol=1e-5, atol=1e-5 * abs(Zm).max())


def test_mixed_ports_hybrid_matrix():
    # V imposed at the left, current into the line imposed at the right:
    # [I1; V2] = [[tanh/Z, −1/cosh], [1/cosh, Z tanh]] [V1; I2]   (from the ABCD matrix).
    # A primal and a dual part joined at the middle (every node keeps its capacitance).
    errs = []
    Ns = (10, 20, 40)
    for N in Ns:
        line = transmission_line(LEN, LP, CP, elements=N, degree=2, right="current")
        sys = line.system
        assert line.disc.partition == "split"
        rows = [sys.outputs.index(n) for n in ("I_left", "V_right")]
        cols = [sys.inputs.index(n) for n in ("V_left", "I_right")]
        s = FREQS[1]
        Z, ch, sh = exact(s)
        H = np.array([[sh / ch / Z, -1 / ch], [1 / ch, Z * sh / ch]])
        errs.append(np.max(np.abs(transfer(sys, s)[np.ix_(rows, cols)] - H) / np.abs(H)))
    order = -np.polyfit(np.log(Ns), np.log(errs), 1)[0]
    assert errs[-1] < 1e-5
    assert order == pytest.approx(4.0, abs=0.3)


def test_frequencies_of_terminated_lines():
    # short–short: nπv/L, n = 0, 1, … (a DC current circulating in a shorted line is the
    # zero-frequency motion of the current field); open–open: nπv/L, n ≥ 1 (a static
    # charge is an equilibrium, not a motion of the current); short–open: (n − ½)πv/L
    v = 1 / np.sqrt(LP * CP)
    f1 = np.pi * v / LEN
    shorted = transmission_line(LEN, LP, CP, elements=30, degree=3)
    opened = transmission_line(LEN, LP, CP, elements=30, degree=3, left="open", right="open")
    mixed = transmission_line(LEN, LP, CP, elements=30, degree=3, right="open")
    assert np.allclose(shorted.frequencies(3), np.arange(3) * f1, rtol=1e-8, atol=1e-5 * f1)
    assert np.allclose(opened.frequencies(3), np.arange(1, 4) * f1, rtol=1e-8)
    assert np.allclose(mixed.frequencies(3), (np.arange(1, 4) - 0.5) * f1, rtol=1e-8)
