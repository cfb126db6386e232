"""LinearPH: the benchmark collection's matrices of a linear pH (descriptor) system.

Facts: the MSD chain's transfer function against the closed form of a two-mass chain; a
descriptor system with a constraint has, with its multipliers appended to the state, the
transfer function of its explicit form (two capacitors in parallel = one capacitor of the
summed capacitance); the energy ½ xᵀEᵀQx; N = −M.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from porthamiltonian import PHS, DescriptorPHS, ModelError
from porthamiltonian.library.benchmarks import msd_chain
from porthamiltonian.linear_ph import LinearPH, linear_ph


def test_two_cell_chain_against_its_closed_form():
    # two masses joined by a spring k, each damped by c; force F1 on mass 1, velocity v1:
    # Newton in the Laplace domain gives v1/F1 = s(ms² + cs + k)/(s·D) with
    # D = (ms² + cs + k)² − k² (the common factor s cancels: the rigid mode is hidden)
    m, k, c = 4.0, 4.0, 1.0
    lin = linear_ph(msd_chain(2, 1, m=m, k=k, c=c))
    fixed = linear_ph(msd_chain(2, 1, m=m, k=k, c=c, fixed_end=True))
    for s in (0.3j, 1.7j, 0.5 + 2j):
        a = m * s**2 + c * s + k
        want = s * a / (a**2 - k**2)
        assert lin.transfer(s)[0, 0] == pytest.approx(want, rel=1e-12)
        # with mass 2 also tied to the ground: v1/F1 = s(a + k)/(a(a + k) − k²)
        assert fixed.transfer(s)[0, 0] == pytest.approx(s * (a + k) / (a * (a + k) - k**2),
                                                        rel=1e-12)


def test_chain_layout_of_the_collection():
    lin = linear_ph(msd_chain())
    assert lin.n_states == 100 and lin.n_inputs == 2 and not lin.descriptor
    assert lin.states[:4] == ("q1", "p1", "q2", "p2")
    assert np.allclose(lin.J, -lin.J.T) and np.all(np.linalg.eigvalsh(lin.R) >= 0)
    eig = np.linalg.eigvalsh(lin.Q)
    assert eig.min() == pytest.approx(0.0, abs=1e-12) and np.sum(eig < 1e-10) == 1  # rigid mode
    assert lin.G[1, 0] == 1.0 and lin.G[3, 1] == 1.0 and lin.G.sum() == 2.0
    assert np.linalg.eigvalsh(linear_ph(msd_chain(fixed_end=True)).Q).min() > 1e-3  # no rigid mode


def test_descriptor_with_a_constraint_keeps_its_transfer_function():
    C1, C2, R = 1e-3, 2e-3, 100.0
    sys = DescriptorPHS(J=np.zeros((2, 2)), R=np.diag([0.0, 1 / R]), G=[[1.0], [0.0]],
                        B=[[1.0], [-1.0]], Q=np.diag([1 / C1, 1 / C2]), states=["q1", "q2"],
                        inputs=["i"], outputs=["v1"], multipliers=["link"])
    lin = linear_ph(sys)
    assert lin.descriptor and lin.states == ("q1", "q2", "link") and lin.multipliers == ("link",)
    assert np.allclose(lin.E.T @ lin.Q, (lin.E.T @ lin.Q).T)
    for s in (10j, 3.0 + 1j, 1000j):
        merged = 1.0 / (s * (C1 + C2) + 1 / R)  # impedance of one capacitor beside R
        assert lin.transfer(s)[0, 0] == pytest.approx(merged, rel=1e-12)
    back = lin.to_system()
    assert isinstance(back, DescriptorPHS)
    x = np.array([2e-3, 1e-3, 0.7])
    assert back.energy(x) == pytest.approx(0.5 * (2e-3**2 / C1 + 1e-3**2 / C2), rel=1e-14)


def test_skew_feedthrough_is_minus_n_and_symbolic_systems_convert():
    q, p, k, m = sp.symbols("q p k m", positive=True)
    sys = PHS(J=[[0, 1], [-1, 0]], G=[[0], [1]], M=[[0]], S=[[0.5]],
              hamiltonian=k * q**2 / 2 + p**2 / (2 * m), states=["q", "p"], inputs=["F"],
              parameters={"k": 2.0, "m": 0.5})
    lin = linear_ph(sys)
    assert np.allclose(lin.Q, np.diag([2.0, 2.0])) and lin.S[0, 0] == 0.5
    # G(s) = s/(m s² + k) + S for a force on a spring-mass seen as the velocity
    s = 1.3j
    assert lin.transfer(s)[0, 0] == pytest.approx(s / (0.5 * s**2 + 2.0) + 0.5, rel=1e-12)
    back = lin.to_system()
    assert isinstance(back, PHS) and tuple(back.states) == ("q", "p")


def test_nonlinear_or_unvalued_systems_are_refused_with_the_fix():
    q, p = sp.symbols("q p")
    duffing = PHS(J=[[0, 1], [-1, 0]], G=[[0], [1]], hamiltonian=q**4 / 4 + p**2 / 2,
                  states=["q", "p"])
    with pytest.raises(ModelError, match="linearize"):
        linear_ph(duffing)
    k = sp.Symbol("k")
    free = PHS(J=[[0, 1], [-1, 0]], G=[[0], [1]], hamiltonian=k * q**2 / 2 + p**2 / 2,
               states=["q", "p"], parameters={"k": None})
    with pytest.raises(ModelError, match="parameters without a value: k"):
        linear_ph(free)
    with pytest.raises(ModelError, match="PHS or DescriptorPHS"):
        linear_ph(np.eye(2))
    with pytest.raises(ModelError, match="matrix G is 2×1"):
        LinearPH(E=np.eye(3), J=np.zeros((3, 3)), R=np.zeros((3, 3)), Q=np.eye(3),
                 G=np.zeros((2, 1)), P=np.zeros((3, 1)), S=np.zeros((1, 1)),
                 N=np.zeros((1, 1)))
    with pytest.raises(ModelError, match="io_dim"):
        msd_chain(3, 4)
