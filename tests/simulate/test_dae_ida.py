"""SUNDIALS IDA (scikit-sundae) on descriptor pH systems and through the generic
:func:`solve_ida` wrapper, against closed forms and the structure-preserving method."""

from __future__ import annotations

import importlib.util
import sys

import numpy as np
import pytest
import scipy.integrate as si
from test_dae_models import (
    cartesian_pendulum,
    parallel_capacitors_numeric,
    pendulum_x0,
    rc_with_algebraic_node,
)

from porthamiltonian import ModelError
from porthamiltonian.simulate import simulate
from porthamiltonian.simulate.linalg.sundials import solve_ida


def test_missing_scikit_sundae_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "sksundae", None)  # makes the import fail
    with pytest.raises(ModelError, match=r'pip install "porthamiltonian\[dae\]"'):
        solve_ida(lambda t, y, yp: yp, (0.0, 1.0), [1.0], [0.0])
    d = parallel_capacitors_numeric(1.0, 2.0, 3.0)
    with pytest.raises(ModelError, match="scikit-sundae"):
        simulate(d, (0.0, 1.0), {"q1": 1.0, "q2": 2.0}, method="ida")


needs_sundae = pytest.mark.skipif(importlib.util.find_spec("sksundae") is None,
                                  reason='needs scikit-sundae: pip install "porthamiltonian[dae]"')


@needs_sundae
@pytest.mark.parametrize("with_jacobian", [False, True])
def test_solve_ida_index1_with_initial_correction(with_jacobian):
    """y0' = y1, 0 = y1 + 2 y0: y0 = e^{−2t}.  y1 and y0' start wrong; IDA's initial
    correction (calc_initcond='yp0') repairs them."""

    def F(t, y, yp):
        return np.array([yp[0] - y[1], y[1] + 2.0 * y[0]])

    def Jac(t, y, yp, cj):
        return np.array([[cj, -1.0], [2.0, 1.0]])

    t = np.linspace(0.0, 1.0, 11)
    sol = solve_ida(F, (0.0, 1.0), [1.0, 0.0], [0.0, 0.0], algebraic=[1], rtol=1e-10,
                    atol=1e-12, t_eval=t, jacobian=Jac if with_jacobian else None,
                    calc_initcond="yp0")
    assert sol.success
    np.testing.assert_allclose(sol.t, t)
    np.testing.assert_allclose(sol.y[:, 0], np.exp(-2 * t), rtol=1e-8)
    np.testing.assert_allclose(sol.y[:, 1], -2 * np.exp(-2 * t), rtol=1e-8)
    np.testing.assert_allclose(sol.yp[1:, 0], -2 * np.exp(-2 * t[1:]), rtol=1e-6)


@needs_sundae
def test_ida_pendulum_follows_the_angle_ode_and_agrees_with_midpoint():
    theta0, t_end = 1.2, 2.0
    d = cartesian_pendulum()
    t = np.linspace(0.0, t_end, 201)
    res = simulate(d, (0.0, t_end), pendulum_x0(theta0), method="ida", t_eval=t,
                   rtol=1e-10, atol=1e-12)
    ref = si.solve_ivp(lambda _, y: [y[1], -9.81 * np.sin(y[0])], (0.0, t_end),
                       [theta0, 0.0], method="DOP853", rtol=1e-13, atol=1e-13, t_eval=t)
    theta = np.arctan2(res["qx"], -res["qy"])
    assert np.max(np.abs(theta - ref.y[0])) < 1e-7
    # the velocity-level constraint is solved at every IDA step
    assert np.max(res.constraint_residual) <= 1e-9
    # rod tension at the outputs: m g cos θ + m ℓ θ̇²
    np.testing.assert_allclose(-res["rod"], 9.81 * np.cos(ref.y[0]) + ref.y[1] ** 2,
                               rtol=1e-6)
    mid = simulate(d, (0.0, t_end), pendulum_x0(theta0), method="midpoint", dt=1e-3, t_eval=t)
    # the two methods agree to the midpoint's O(h²) error
    assert np.max(np.abs(np.arctan2(mid["qx"], -mid["qy"]) - theta)) < 3e-5
    # IDA's energy is only as good as its tolerance; midpoint's is exact
    assert np.max(np.abs(mid.H - mid.H[0])) < 1e-12 * abs(mid.H[0])
    assert np.max(np.abs(res.H - res.H[0])) < 1e-6 * abs(res.H[0])


@needs_sundae
def test_ida_parallel_capacitors_and_link_current_match_the_merged_capacitor():
    C1, C2, Rl, current, v0 = 1e-3, 2e-3, 100.0, 0.05, 1.0
    C = C1 + C2
    d = parallel_capacitors_numeric(C1, C2, Rl)
    t = np.linspace(0.0, 1.0, 51)
    res = simulate(d, (0.0, 1.0), {"q1": C1 * v0, "q2": C2 * v0}, u=current, method="ida",
                   t_eval=t, rtol=1e-10, atol=1e-14)
    v = current * Rl + (v0 - current * Rl) * np.exp(-t / (Rl * C))
    np.testing.assert_allclose(res["q1"] / C1, v, rtol=1e-7)
    np.testing.assert_allclose(res["q2"] / C2, v, rtol=1e-7)
    np.testing.assert_allclose(res["link"], C1 * (current - v / Rl) / C - current, rtol=1e-6)
    assert np.max(res.constraint_residual) <= 1e-9 * v0


@needs_sundae
def test_ida_rc_with_algebraic_node():
    R1, R2, C, u = 1.0, 2.0, 0.1, 1.5
    d = rc_with_algebraic_node(R1, R2, C)
    t = np.linspace(0.0, 1.0, 21)
    res = simulate(d, (0.0, 1.0), {"q": 0.0}, u=u, method="ida", t_eval=t, rtol=1e-10,
                   atol=1e-12)
    vC = u * (1 - np.exp(-t / ((R1 + R2) * C)))
    np.testing.assert_allclose(res["q"] / C, vC, atol=1e-8)
    np.testing.assert_allclose(res["va"], (R2 * u + R1 * vC) / (R1 + R2), atol=1e-8)
