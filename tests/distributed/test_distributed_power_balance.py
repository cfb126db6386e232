"""Structure of the discretized systems and their exact discrete power balance.

Facts: J = −Jᵀ exactly (by construction), [[R, P], [Pᵀ, S]] ⪰ 0, Q diagonal and
positive, Ḣ = uᵀy − d at any state and input (semi-discrete balance), and in a
midpoint simulation ΔH = ∫(uᵀy − d) dt per step to round-off (docs/design.md).
"""

import numpy as np
import pytest
import scipy.sparse as sps

from porthamiltonian import simulate
from porthamiltonian.distributed import heat, rod, string, timoshenko, transmission_line

CASES = {
    "string force/velocity, damped": lambda: string(
        2.0, lambda s: 1 + s, 3.0, elements=6, degree=2, left="force", right="velocity",
        damping=0.3, structural_damping=lambda s: 0.1 * s),
    "string force/velocity (split)": lambda: string(
        2.0, lambda s: 1 + s, 3.0, elements=6, degree=2, left="force", right="velocity",
        damping=0.3),
    "string velocity/velocity (dual)": lambda: string(
        1.0, 1.0, 2.0, elements=5, degree=3, left="velocity", right="velocity", damping=0.2),
    "rod clamped/force": lambda: rod(1.0, 2.0, 5.0, elements=7, degree=1, right="force"),
    "lossy line": lambda: transmission_line(
        1.0, 0.5, lambda s: 1 + s**2, R=0.2, G=0.1, elements=6, degree=2),
    "lossy line current/voltage": lambda: transmission_line(
        1.0, 0.5, 1.0, R=0.2, G=0.1, elements=6, degree=2, left="current"),
    "lossy line current/current (dual)": lambda: transmission_line(
        1.0, 0.5, 1.0, R=0.2, G=0.1, elements=6, degree=1, left="current", right="current"),
    "heat flux/temperature": lambda: heat(
        1.0, 2.0, lambda s: 1 + s, elements=6, degree=2, left="flux", right="temperature"),
    "timoshenko port/velocity": lambda: timoshenko(
        1.0, 2.0, 0.1, 3.0, 40.0, elements=5, degree=2, left="port", right="velocity",
        damping=0.5),
    "timoshenko hub": lambda: timoshenko(
        1.0, 2.0, 0.1, 3.0, 40.0, elements=5, degree=1, left=("fixed", "force"),
        right=("velocity", "free")),
}


@pytest.mark.parametrize("name", CASES)
def test_structure_and_semidiscrete_power_balance(name):
    model = CASES[name]()
    partition = name.split("(")[-1].rstrip(")") if "(" in name else None
    assert partition is None or model.disc.partition == partition
    sys = model.system
    assert sys.kind == "sparse"
    J, R, Q = sys.J, sys.R, sys.Q
    assert all(sps.issparse(A) for A in (J, R, sys.G, Q))
    assert abs(J + J.T).max() == 0.0                      # skew by construction
    Qd = Q.toarray()
    assert np.count_nonzero(Qd - np.diag(np.diag(Qd))) == 0 and np.all(np.diag(Qd) > 0)
    W = sys.dissipation_matrix().toarray()
    assert np.allclose(W, W.T, atol=1e-14 * abs(W).max(initial=1))
    assert np.linalg.eigvalsh(W).min() >= -1e-12 * max(1.0, abs(W).max())
    sys.check()  # the library's own structure check agrees
    rng = np.random.default_rng(1)
    mags = {k: abs(getattr(sys, k)) for k in ("J", "R", "G", "P", "M", "S")}
    for _ in range(3):
        x, u = rng.normal(size=sys.n_states), rng.normal(size=sys.n_inputs)
        pb = sys.power_balance(x, u)
        # round-off is relative to the magnitudes of the summed terms (zᵀJz cancels
        # exactly only in exact arithmetic), not to the net powers
        z, au = abs(Q @ x), abs(u)
        scale = (z @ ((mags["J"] + mags["R"]) @ z) + z @ ((mags["G"] + mags["P"]) @ au)
                 + au @ ((mags["M"] + mags["S"]) @ au))
        assert abs(pb.residual) <= 1e-12 * scale
        assert pb.dissipated >= -1e-12 * scale


@pytest.mark.parametrize("name", ["string force/velocity, damped", "lossy line",
                                  "timoshenko port/velocity", "heat flux/temperature"])
def test_midpoint_simulation_power_balance(name):
    model = CASES[name]()
    sys = model.system
    rng = np.random.default_rng(2)
    x0 = rng.normal(size=sys.n_states)
    amp = rng.normal(size=sys.n_inputs)
    res = simulate(sys, (0.0, 1.0), x0, u=lambda t: amp * np.sin(7 * t), method="midpoint",
                   dt=1e-3)
    scale = np.max(np.abs(np.diff(res.H))) + np.max(np.abs(res.work_supplied))
    assert np.max(np.abs(res.power_residual)) <= 1e-12 * max(scale, 1.0)
    # the balance is not trivial: energy really was supplied and dissipated
    assert np.ptp(res.H) > 1e-3 * res.H[0]
