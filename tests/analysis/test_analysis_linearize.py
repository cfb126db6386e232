"""Linearization at operating points: nonlinear PHS and descriptor systems."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from an_systems import pendulum

from porthamiltonian import PHS, DescriptorPHS, ModelError
from porthamiltonian import analysis as an

M, ELL, G, C = 0.5, 0.8, 9.81, 0.05


def test_pendulum_hanging_and_inverted():
    sys = pendulum(M, ELL, G, C)
    # hanging: m ℓ² s² + c s + m g ℓ
    down = an.poles(sys, x0=[0.0, 0.0])
    np.testing.assert_allclose(down, np.sort_complex(np.roots([M * ELL**2, C, M * G * ELL])),
                               rtol=1e-12)
    # inverted (θ = π): m ℓ² s² + c s − m g ℓ, one unstable pole; the pH linearization
    # exists (the matrices are constant) but Q = ∇²H is indefinite
    lin = an.linear_system(sys, x0=[np.pi, 0.0])
    up = np.sort(an.poles(lin).real)
    np.testing.assert_allclose(up, np.sort(np.roots([M * ELL**2, C, -M * G * ELL])), rtol=1e-12)
    assert not an.passivity(lin)


def test_symbolic_linearization_keeps_the_parameters():
    th, p = sp.symbols("theta p", real=True)
    m, ell, g, c = sp.symbols("m ell g c", positive=True)
    sys = PHS(J=[[0, 1], [-1, 0]], R=[[0, 0], [0, c]], G=[[0], [1]],
              hamiltonian=p**2 / (2 * m * ell**2) + m * g * ell * (1 - sp.cos(th)),
              states=["theta", "p"], inputs=["tau"], outputs=["omega"])
    s = sp.Symbol("s")
    tf = an.transfer_function(sys, outputs="theta", symbolic=True, x0=[0, 0])
    assert sp.simplify(tf[0, 0] - 1 / (m * ell**2 * s**2 + c * s + m * g * ell)) == 0


def test_operating_point_of_a_hardening_spring_under_a_constant_force():
    # H = k q²/2 + k3 q⁴/4 + p²/(2m); static force F0: k q0 + k3 q0³ = F0
    q, p = sp.symbols("q p", real=True)
    k, k3, m, c, F0 = 200.0, 5e4, 0.3, 0.4, 30.0
    sys = PHS(J=[[0, 1], [-1, 0]], R=[[0, 0], [0, c]], G=[[0], [1]],
              hamiltonian=k * q**2 / 2 + k3 * q**4 / 4 + p**2 / (2 * m),
              states=["q", "p"], inputs=["F"], outputs=["v"])
    x0 = an.operating_point(sys, u0=[F0])
    q0 = [r.real for r in np.roots([k3, 0, k, -F0]) if abs(r.imag) < 1e-12][0]
    assert x0 == pytest.approx([q0, 0.0], abs=1e-12)
    # small oscillations about q0 see the tangent stiffness k + 3 k3 q0²
    kt = k + 3 * k3 * q0**2
    lin = an.linearize(sys, u0=[F0])
    np.testing.assert_allclose(lin.Q, np.diag([kt, 1 / m]), rtol=1e-10)
    np.testing.assert_allclose(an.poles(sys, x0=x0, u0=[F0]),
                               np.sort_complex(np.roots([m, c, kt])), rtol=1e-10)
    with pytest.raises(ModelError, match="not an equilibrium: dp/dt"):
        an.transfer_function(sys, x0=[0.0, 0.0], u0=[F0])


def test_descriptor_system_with_parallel_capacitors():
    """Two capacitors on one node (dependent storages) and a resistor, current-driven.

    E = I, constraint V1 = V2 with multiplier λ (current from C2 to C1):
    q̇1 = I − V1/R + λ, q̇2 = −λ.  The node sees C1 + C2: Z = 1/(1/R + (C1 + C2)s).
    """
    R, C1, C2 = 100.0, 1e-3, 3e-3
    sys = DescriptorPHS(R=[[1 / R, 0], [0, 0]], G=[[1], [0]], B=[[1], [-1]],
                        Q=np.diag([1 / C1, 1 / C2]), states=["q1", "q2"], inputs=["I"],
                        outputs=["V"])
    Z = an.impedance(sys, "I", input_is="flow")
    s = 1j * np.array([0.1, 3.0, 10.0, 300.0, 1e4])
    np.testing.assert_allclose(Z(s), 1 / (1 / R + (C1 + C2) * s), rtol=1e-12)
    np.testing.assert_allclose(an.poles(sys), [-1 / (R * (C1 + C2))], rtol=1e-12)


def test_symbolic_descriptor_system_reduces_before_the_transfer_function():
    q1, q2 = sp.symbols("q1 q2", real=True)
    R, C1, C2 = sp.symbols("R C1 C2", positive=True)
    sys = DescriptorPHS(R=[[1 / R, 0], [0, 0]], G=[[1], [0]], B=[[1], [-1]],
                        hamiltonian=q1**2 / (2 * C1) + q2**2 / (2 * C2),
                        states=["q1", "q2"], inputs=["I"], outputs=["V"])
    s = sp.Symbol("s")
    Z = an.transfer_function(sys, symbolic=True)[0, 0]
    assert sp.simplify(Z - 1 / (1 / R + (C1 + C2) * s)) == 0


def test_jacobian_linearization_when_no_ph_linearization_exists():
    """Modulated coupling a(q) = 1 + q/2 holding a static load F0 (∇H(x0) ≠ 0).

    q̇ = a(q) p/m,  ṗ = −a(q) k q − c p/m + F0;  equilibrium p = 0, a(q0) k q0 = F0.
    Linearized by hand: m s² + c s + a0 (a0 k + a'(q0) k q0) = 0 — the a' term is what
    freezing J at x0 (the pH linearization) misses, so none exists here.
    """
    q, p = sp.symbols("q p", real=True)
    k, m, c, F0 = 30.0, 2.0, 0.7, 12.0
    a = 1 + q / 2
    sys = PHS(J=[[0, a], [-a, 0]], R=[[0, 0], [0, c]], G=[[0], [1]],
              hamiltonian=k * q**2 / 2 + p**2 / (2 * m), states=["q", "p"], inputs=["F"])
    x0 = an.operating_point(sys, u0=[F0], x_guess=[0.3, 0.0])
    q0 = x0[0]
    assert (1 + q0 / 2) * k * q0 == pytest.approx(F0, rel=1e-12)
    with pytest.raises(ModelError, match="differs from the Jacobian"):
        an.linearize(sys, x0, [F0])
    lin = an.linear_system(sys, x0, [F0])
    assert lin.phs is None
    a0 = 1 + q0 / 2
    expected = np.sort_complex(np.roots([m, c, a0 * (a0 * k + 0.5 * k * q0)]))
    np.testing.assert_allclose(an.poles(lin), expected, rtol=1e-10)
    assert an.passivity(lin).method == "frequency"


def test_no_equilibrium_is_an_error_naming_the_state():
    # a free mass under a constant force accelerates forever
    free = PHS(G=[[1.0]], Q=[[1.0]], states=["p"], inputs=["F"])
    with pytest.raises(ModelError, match="no equilibrium.*dp/dt"):
        an.operating_point(free, u0=[1.0])


def test_symbolic_inverted_pendulum_at_pi():
    th, p = sp.symbols("theta p", real=True)
    m, ell, g = sp.symbols("m ell g", positive=True)
    sys = PHS(J=[[0, 1], [-1, 0]], G=[[0], [1]],
              hamiltonian=p**2 / (2 * m * ell**2) + m * g * ell * (1 - sp.cos(th)),
              states=["theta", "p"], inputs=["tau"])
    s = sp.Symbol("s")
    for x0 in ([np.pi, 0.0], [sp.pi, 0]):
        tf = an.transfer_function(sys, outputs="theta", symbolic=True, x0=x0)
        assert sp.simplify(tf[0, 0] - 1 / (m * ell**2 * s**2 - m * g * ell)) == 0
