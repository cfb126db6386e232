"""The compiled steps of a reaction network's numeric form
(:mod:`porthamiltonian.simulate.kernels.reactions`).

Facts checked on a small stiff network (κ over five decades, a closed cycle and a
bimolecular reaction): the compiled and the NumPy discrete-gradient (and AVF) steps give
the same trajectory to the Newton tolerance (fixed steps, also with a chemostat and a
flow source as ports); the compiled adaptive run reaches the detailed-balance equilibrium
(``net.equilibrium``, and K = exp(−ΔG°/RT) for each reaction) to 1e-10; every step's
power balance ΔH = supplied − dissipated closes to 1e-12 of the energy released; the
moieties (conservation laws) stay constant to 1e-13; the mole-fraction basis (H not
separable) is refused by ``engine="compiled"`` with the reason, and ``"auto"`` runs the
NumPy steps.
"""

from __future__ import annotations

import numpy as np
import pytest

import porthamiltonian as ph
from porthamiltonian.errors import SimulationError
from porthamiltonian.thermo.reactions.network import ReactionNetwork

RT = 2.5e3  # J/mol
MU0 = {"A": 0.0, "B": -1.5e3, "C": 800.0, "D": -2.0e3}
REACTIONS = {"fast": "A <=> B", "mid": "B <=> C", "slow": "C <=> A", "bind": "A + B <=> D"}
KAPPA = {"fast": 1e3, "mid": 1.0, "slow": 0.05, "bind": 5.0}
N0 = np.array([0.6, 0.1, 0.3, 0.05])
#: the fast reaction at its equilibrium B/A = exp(1.5e3/RT): the first 10 ms step from N0
#: (B × 4.5 across the fast transient) is halved by the compiled simplified Newton while
#: the NumPy step's full Newton solves it, and their trajectories would differ by the
#: method's error; from here both take the same steps
NEAR = np.array([0.3, 0.3 * np.exp(1.5e3 / RT), 0.3, 0.05])


def network(**ports) -> ReactionNetwork:
    return ReactionNetwork(["A", "B", "C", "D"], REACTIONS, RT=RT, mu0=MU0, kappa=KAPPA,
                           **ports)


def run(sys, engine: str, **kw):
    return ph.simulate(sys, kw.pop("span", (0.0, 2.0)), kw.pop("x0", N0),
                       method=kw.pop("method", "discrete_gradient"), engine=engine, **kw)


@pytest.mark.parametrize("method", ["discrete_gradient", "avf"])
def test_compiled_and_numpy_steps_agree_to_the_newton_tolerance(method: str) -> None:
    sys = network().to_phs("numeric")
    a, b = (run(sys, engine, dt=0.01, x0=NEAR, method=method)
            for engine in ("compiled", "numpy"))
    assert a.extra["engine"] == "numba" and b.extra["engine"] == "numpy"
    assert a.extra["numpy_steps"] == 0 and a.extra["halved_steps"] == 0
    # stiff: the fast reaction relaxes at κ(1 + e^{μ°_B/RT}) ≈ 1.5e3/s, 15× 1/step
    assert np.max(np.abs(a.x - b.x)) <= 1e-12 * np.max(np.abs(b.x))
    assert np.max(np.abs(a.H - b.H)) <= 1e-12 * np.max(np.abs(b.H))
    assert np.max(np.abs(a.dissipated - b.dissipated)) <= 1e-10 * np.max(b.dissipated)


def test_ports_agree_a_chemostat_and_a_flow_source() -> None:
    net = network(chemostats=["C"], chemostat_mu={"C": 300.0}, flow_sources=["A"])
    sys = net.to_phs("numeric")
    kw = dict(x0=NEAR[[0, 1, 3]], u=lambda t: [300.0, 0.02 * np.cos(t)], dt=0.01)
    a, b = run(sys, "compiled", **kw), run(sys, "numpy", **kw)
    assert a.extra["engine"] == "numba" and a.extra["numpy_steps"] == 0
    assert np.max(np.abs(a.x - b.x)) <= 1e-12 * np.max(np.abs(b.x))
    assert np.max(np.abs(a.y - b.y)) <= 1e-10 * np.max(np.abs(b.y))
    assert np.max(np.abs(a.supplied - b.supplied)) <= 1e-10 * np.max(np.abs(b.supplied))
    # open system: ΔH = supplied − dissipated per step, to round-off of the work exchanged
    work = np.max(np.abs(a.work_supplied)) + np.max(np.abs(a.work_dissipated))
    assert np.max(np.abs(a.power_residual)) <= 1e-12 * work


def test_the_compiled_run_reaches_detailed_balance_and_keeps_the_balances() -> None:
    net = network()
    sys = net.to_phs("numeric")
    res = run(sys, "compiled", span=(0.0, 600.0), rtol=1e-9, atol=1e-13)
    assert res.extra["engine"] == "numba"
    x = res.x[-1]
    eq = net.equilibrium(N0)
    assert np.max(np.abs(x - eq)) <= 1e-10 * np.max(eq)
    # each reaction's mass-action ratio equals K = exp(−ΔG°/RT) (V = c° = 1)
    ratios = np.exp(net.N.T @ np.log(x))
    assert ratios == pytest.approx(net.equilibrium_constants(), rel=1e-10)
    released = res.H[0] - res.H[-1]
    assert released > 0
    assert np.max(np.abs(res.power_residual)) <= 1e-12 * released
    L = net.conservation_laws.astype(float)
    moieties = res.x @ L.T
    assert np.max(np.abs(moieties - moieties[0])) <= 1e-13 * np.max(np.abs(moieties[0]))


def test_the_mole_fraction_basis_is_refused_with_the_reason() -> None:
    # H = Σ n_i(μ°_i + RT ln(n_i/Σn)) couples every species: no separable law to compile
    net = ReactionNetwork(["A", "B"], ["A <=> B"], RT=RT, mu0={"A": 0.0, "B": -1e3},
                          kappa=1.0, basis="mole_fraction")
    with pytest.raises(SimulationError, match="mole-fraction basis"):
        run(net.to_phs("numeric"), "compiled", x0=[0.5, 0.5], dt=0.1)
    res = run(net.to_phs("numeric"), "auto", x0=[0.5, 0.5], dt=0.1)
    assert res.extra["engine"] == "numpy"
    assert "mole-fraction" in res.extra["engine_reason"]
