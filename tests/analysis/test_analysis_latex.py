"""LaTeX of transfer functions (``TransferFunction._repr_latex_``): numerator and
denominator polynomials in s from the named input to the named output, for circuits
whose transfer functions follow from Kirchhoff's laws."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from an_systems import series_rlc, series_rlc_symbolic

from porthamiltonian import PHS
from porthamiltonian.analysis import transfer_function
from porthamiltonian.analysis.transfer import LATEX_MAX_STATES, transfer_latex


def rc_divider(R: float, C: float) -> PHS:
    """Source V → R → C to ground; state q (C charge); output the current I.

    i = (V − q/C)/R: q̇ = −q/(RC) + V/R and I = −q/(RC) + V/R, so
    I/V = Cs/(RCs + 1) and the capacitor voltage q/C over V is 1/(RCs + 1).
    """
    return PHS(R=[[1 / R]], G=[[0.0]], P=[[-1 / R]], S=[[1 / R]], Q=[[1 / C]],
               states=["C1.q"], inputs=["V"], outputs=["I"])


def test_rc_low_pass_and_current():
    """R = 1 kΩ, C = 1 µF: 1/(RC) = 1000 s⁻¹; monic denominators."""
    tf = transfer_function(rc_divider(1e3, 1e-6), outputs=["dH/dC1.q"])
    assert tf._repr_latex_() == r"$$ \frac{\mathrm{dH/dC1.q}(s)}{\mathrm{V}(s)} = " \
                                r"\frac{1000}{s + 1000} $$"
    tf = transfer_function(rc_divider(1e3, 1e-6))
    assert tf.latex() == r"\frac{\mathrm{I}(s)}{\mathrm{V}(s)} = \frac{0.001\,s}{s + 1000}"
    # the numeric path (used above 4 states) gives the same text
    assert tf.latex(exact=False) == tf.latex()


def test_series_rlc_from_kvl():
    """I/V = s/L / (s² + (R/L)s + 1/(LC)) = 10 s/(s² + 100 s + 10⁴) for 10 Ω, 0.1 H, 1 mF."""
    tf = transfer_function(series_rlc())
    expected = r"\frac{\mathrm{I}(s)}{\mathrm{V}(s)} = \frac{10\,s}{s^{2} + 100\,s + 10000}"
    assert tf.latex() == expected and tf.latex(exact=False) == expected


def test_symbolic_parameters_stay_symbols():
    """I/V = Cs/(LCs² + RCs + 1) with the parameter symbols."""
    tf = transfer_function(series_rlc_symbolic())
    assert tf.latex() == \
        r"\frac{\mathrm{I}(s)}{\mathrm{V}(s)} = \frac{C s}{C L s^{2} + C R s + 1}"


def test_mimo_lines_name_each_input_and_output():
    tf = transfer_function(rc_divider(2.0, 0.5), outputs=["I", "dH/dC1.q"])
    text = tf._repr_latex_()
    assert text.startswith(r"$$ \begin{aligned}") and text.endswith(r"\end{aligned} $$")
    lines = text[len(r"$$ \begin{aligned}"):-len(r"\end{aligned} $$")].split(r" \\ ")
    assert lines == [r"\frac{\mathrm{I}(s)}{\mathrm{V}(s)} &= \frac{0.5\,s}{s + 1}",
                     r"\frac{\mathrm{dH/dC1.q}(s)}{\mathrm{V}(s)} &= \frac{1}{s + 1}"]


def test_common_factors_cancel():
    """An uncontrollable mode (state b, no input) is not in u → y: 1/(s + 1), both ways."""
    sys_ = PHS(R=np.diag([1.0, 2.0]), G=[[1.0], [0.0]], Q=np.eye(2), states=["a", "b"],
               inputs=["u"], outputs=["y"])
    tf = transfer_function(sys_)
    assert tf.latex() == tf.latex(exact=False) == \
        r"\frac{\mathrm{y}(s)}{\mathrm{u}(s)} = \frac{1}{s + 1}"


def test_names_are_escaped_and_large_systems_fall_back_to_text():
    G = sp.Matrix([[1 / (sp.Symbol("s") + 2)]])
    assert transfer_latex(G, ["u_1"], ["y#2"]) == \
        r"\frac{\mathrm{y\#2}(s)}{\mathrm{u\_1}(s)} = \frac{1}{s + 2}"
    n = LATEX_MAX_STATES + 1
    J = np.diag(np.ones(n - 1), 1) - np.diag(np.ones(n - 1), -1)
    big = PHS(J=J, R=np.diag([0.0] * (n - 1) + [1.0]), G=np.eye(n)[:, :1], Q=np.eye(n))
    assert transfer_function(big)._repr_latex_() is None


@pytest.mark.parametrize("n", [6, 12])
def test_numeric_path_matches_the_frequency_response(n):
    """Above 4 states the notebook view is numeric; its polynomials evaluated at s = jω
    equal G(jω) from the solver."""
    J = np.diag(np.ones(n - 1), 1) - np.diag(np.ones(n - 1), -1)
    sys_ = PHS(J=J, R=np.diag([0.0] * (n - 1) + [0.5]), G=np.eye(n)[:, :1],
               Q=1.3 * np.eye(n))
    tf = transfer_function(sys_)
    text = tf._repr_latex_()
    assert text is not None
    s = sp.Symbol("s")
    from porthamiltonian.analysis.transfer import _numeric_matrix

    entry = sp.lambdify(s, _numeric_matrix(tf.linear)[0, 0])
    omega = np.array([0.1, 0.7, 2.0])
    np.testing.assert_allclose([entry(1j * w) for w in omega],
                               tf.frequency_response(omega)[:, 0, 0], rtol=1e-8)
