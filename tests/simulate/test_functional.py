"""FunctionPHS: a nonlinear PHS given by NumPy functions, with sparse Newton matrices."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sps
from sim_systems import duffing

from porthamiltonian import ModelError
from porthamiltonian.simulate import FunctionPHS, simulate


def _duffing_functions(c: float = 0.3, sparse: bool = True, wrong: bool = False) -> FunctionPHS:
    """The Duffing oscillator of sim_systems: H = q²/2 + q⁴/4 + p²/2."""

    def hess(x):
        d = np.array([1.0 + 3.0 * x[0] ** 2, 1.0])
        return sps.diags(d, format="csr") if sparse else np.diag(d)

    return FunctionPHS(
        J=sps.csr_matrix([[0.0, 1.0], [-1.0, 0.0]]), R=sps.csr_matrix([[0.0, 0.0], [0.0, c]]),
        G=sps.csr_matrix([[0.0], [1.0]]),
        energy=lambda x: x[0] ** 2 / 2 + x[0] ** 4 / 4 + x[1] ** 2 / 2,
        gradient=lambda x: np.array([x[0] + (1.0 if not wrong else 2.0) * x[0] ** 3, x[1]]),
        hessian=hess, degree=4, states=["q", "p"], inputs=["F"],
    )


@pytest.mark.parametrize("method", ["discrete_gradient", "avf"])
def test_same_trajectory_and_exact_balance_as_the_symbolic_model(method):
    kw = {"u": "2*cos(1.3*t)", "method": method, "dt": 0.02}
    a = simulate(_duffing_functions(), (0.0, 5.0), [1.0, 0.0], **kw)
    b = simulate(duffing(c=0.3), (0.0, 5.0), [1.0, 0.0], **kw)
    np.testing.assert_allclose(a.x, b.x, atol=1e-11)
    scale = 0.02 * max(np.max(np.abs(a.supplied)), np.max(np.abs(a.dissipated)))
    assert np.max(np.abs(a.power_residual)) <= 1e-12 * scale


def test_lossless_fpu_chain_conserves_energy_with_sparse_newton():
    # 40 masses, quartic springs: the AVF method keeps H to round-off (H polynomial)
    n = 20
    D = sps.eye(n, format="csr") - sps.eye(n, k=-1, format="csr")
    J = sps.bmat([[None, D], [-D.T, None]], format="csr")
    sys = FunctionPHS(
        J=J,
        energy=lambda x: float(0.5 * x[n:] @ x[n:] + np.sum(x[:n] ** 2 / 2 + x[:n] ** 4 / 4)),
        gradient=lambda x: np.concatenate([x[:n] + x[:n] ** 3, x[n:]]),
        hessian=lambda x: sps.diags(np.concatenate([1 + 3 * x[:n] ** 2, np.ones(n)])),
        degree=4)
    x0 = np.concatenate([0.8 * np.exp(-((np.arange(n) - 5.0) / 2.0) ** 2), np.zeros(n)])
    sys.check_derivatives(x0)
    res = simulate(sys, (0.0, 20.0), x0, method="avf", dt=0.05)
    assert np.max(np.abs(res.H - res.H[0])) <= 1e-13 * res.H[0]


def test_inconsistent_gradient_is_reported():
    with pytest.raises(ModelError, match=r"gradient\[q\]"):
        _duffing_functions(wrong=True).check_derivatives([0.7, 0.1])


def test_output_feedback_on_a_function_phs():
    # u = −c y with y = p (the velocity): the same damped Duffing oscillator as R = c
    a = simulate(_duffing_functions(c=0.0), (0.0, 3.0), [1.0, 0.0],
                 u=lambda t, x, y: -0.3 * y[0], method="avf", dt=0.02)
    b = simulate(duffing(c=0.3), (0.0, 3.0), [1.0, 0.0], method="avf", dt=0.02)
    np.testing.assert_allclose(a.x, b.x, atol=1e-9)
