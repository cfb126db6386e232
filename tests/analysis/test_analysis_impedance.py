"""Port impedance and admittance against circuit theory."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from an_systems import parallel_rlc, series_rlc, series_rlc_symbolic, two_mass, two_mass_impedance

from porthamiltonian import PHS, DiracStructure, ModelError, interconnect
from porthamiltonian import analysis as an

S = 1j * np.array([2.0, 40.0, 500.0, 1e3, 3e4])


def test_parallel_rlc_impedance_driven_by_a_current_source():
    R, L, C = 50.0, 0.02, 2e-4
    sys = parallel_rlc(R, L, C)
    Z = an.impedance(sys, "I", input_is="flow")
    assert Z.kind == "impedance" and not Z.inverted
    expected = 1.0 / (1 / R + C * S + 1 / (L * S))
    np.testing.assert_allclose(Z(S), expected, rtol=1e-12)
    # at resonance 1/√(LC) the L and C branches cancel: Z = R, purely real
    w0 = 1 / np.sqrt(L * C)
    assert Z(1j * w0) == pytest.approx(R, rel=1e-10)
    Y = an.admittance(sys, "I", input_is="flow")
    assert Y.inverted
    np.testing.assert_allclose(Y(S), 1 / R + C * S + 1 / (L * S), rtol=1e-12)


def test_series_rlc_impedance_driven_by_a_voltage_source():
    R, L, C = 10.0, 0.1, 1e-3
    Z = an.impedance(series_rlc(R, L, C), "V", input_is="effort")
    assert Z.inverted  # the port's y/u is the admittance I/V
    np.testing.assert_allclose(Z(S), R + L * S + 1 / (C * S), rtol=1e-12)
    s = sp.Symbol("s")
    Rs, Ls, Cs = sp.symbols("R L C", positive=True)
    Zs = an.impedance(series_rlc_symbolic(), "V", input_is="effort").symbolic()
    assert sp.simplify(Zs - (Rs + Ls * s + 1 / (Cs * s))) == 0


def test_port_kind_is_read_from_an_interconnection():
    """Parallel RLC assembled on a 0-junction (common voltage) from three one-ports."""
    R, L, C = 50.0, 0.02, 2e-4
    cap = PHS(G=[[1.0]], Q=[[1 / C]], states=["q"], inputs=["iC"], outputs=["vC"])
    ind = PHS(G=[[1.0]], Q=[[1 / L]], states=["phi"], inputs=["vL"], outputs=["iL"])
    res = PHS(S=[[1 / R]], states=[], inputs=["vR"], outputs=["iR"])  # i = v/R
    sys = interconnect(DiracStructure.junction0(["a", "b", "c", "ext"]), [cap, ind, res],
                       [("iC", "a", "effort"), ("vL", "b", "flow"), ("vR", "c", "flow")])
    assert sys.port_kinds == {"ext": "flow"}   # a current source drives the node
    Z = an.impedance(sys, "ext")
    np.testing.assert_allclose(Z(S), 1.0 / (1 / R + C * S + 1 / (L * S)), rtol=1e-10)


def test_port_kind_must_be_known():
    with pytest.raises(ModelError, match="input_is='effort'"):
        an.impedance(series_rlc(), "V")
    with pytest.raises(ModelError, match="'effort' or 'flow'"):
        an.impedance(series_rlc(), "V", input_is="voltage")
    with pytest.raises(ModelError, match="unknown input 'W'"):
        an.admittance(series_rlc(), "W", input_is="effort")


def test_two_dimensional_port_impedance_is_the_mechanical_impedance_matrix():
    # the two-mass chain with one 2-D force port F = (F[0], F[1]) and velocities v:
    # forces are efforts, so y/u = v/F is the mobility and Z = its matrix inverse
    base = two_mass()
    sys = base.rename(inputs={"F1": "F[0]", "F2": "F[1]"},
                      outputs={"v1": "v[0]", "v2": "v[1]"})
    Z = an.impedance(sys, "F", input_is="effort")
    np.testing.assert_allclose(Z(S), two_mass_impedance(S), rtol=1e-9)


def test_symbolic_impedance_needs_no_parameter_values():
    q, phi = sp.symbols("q phi", real=True)
    R, L, C = sp.symbols("R L C", positive=True)
    sys = PHS(J=[[0, -1], [1, 0]], R=[[1 / R, 0], [0, 0]], G=[[1], [0]],
              hamiltonian=q**2 / (2 * C) + phi**2 / (2 * L), states=["q", "phi"],
              inputs=["I"], outputs=["V"])
    s = sp.Symbol("s")
    Y = an.admittance(sys, "I", input_is="flow").symbolic()
    assert sp.simplify(Y - (1 / R + C * s + 1 / (L * s))) == 0
