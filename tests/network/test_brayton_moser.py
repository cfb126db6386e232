"""Brayton–Moser mixed potential of RLC networks (network/brayton_moser.py).

Each mixed potential is compared with a hand derivation from Kirchhoff's laws, and the
gradient equations' trajectories with the port-Hamiltonian model's: the exact solution
of its linear ODE (matrix exponential) for a constant input, and solve_ivp on the PHS's
own right-hand side for a time-varying one.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.linalg as sla
import sympy as sp
from scipy.integrate import solve_ivp

from porthamiltonian import network
from porthamiltonian.bondgraph import BondGraph
from porthamiltonian.errors import ModelError
from porthamiltonian.library import electrical as E
from porthamiltonian.network.brayton_moser import brayton_moser


def S(name):
    return sp.Symbol(name)


def named(expr):
    """``expr`` with every symbol replaced by a plain one of the same name (the library's
    symbols carry assumptions, e.g. positive parameters)."""
    return expr.xreplace({s: sp.Symbol(s.name) for s in expr.free_symbols})


def _graph(name, elements, bonds, parameters):
    bg = BondGraph(name, parameters=parameters, domain="electrical")
    for el in elements:
        bg.add(el[0], el[1], **(el[2] if len(el) > 2 else {}))
    for a, b in bonds:
        bg.connect(a, b)
    return bg


def series_rlc():
    return _graph("series-rlc",
                  [("u", "Se"), ("j", "1"), ("R1", "R", {"r": "R"}), ("C1", "C", {"c": "C"}),
                   ("L1", "I", {"i": "L"})],
                  [("u", "j"), ("j", "R1"), ("j", "C1"), ("j", "L1")],
                  {"R": 10.0, "L": 0.1, "C": 1e-3})


def ladder():
    """u → 1{R0, L0} → 0{C0} → 1{R1, L1} → 0{C1, RL}: two sections and a load."""
    return _graph("ladder",
                  [("u", "Se"), ("s0", "1"), ("R0", "R", {"r": "R0"}), ("L0", "I", {"i": "L0"}),
                   ("p0", "0"), ("C0", "C", {"c": "C0"}), ("s1", "1"),
                   ("R1", "R", {"r": "R1"}), ("L1", "I", {"i": "L1"}), ("p1", "0"),
                   ("C1", "C", {"c": "C1"}), ("RL", "R", {"r": "RL"})],
                  [("u", "s0"), ("s0", "R0"), ("s0", "L0"), ("s0", "p0"), ("p0", "C0"),
                   ("p0", "s1"), ("s1", "R1"), ("s1", "L1"), ("s1", "p1"), ("p1", "C1"),
                   ("p1", "RL")],
                  {"R0": 0.5, "L0": 0.2, "C0": 0.1, "R1": 0.8, "L1": 0.3, "C1": 0.05,
                   "RL": 4.0})


def test_series_rlc_mixed_potential_and_equations():
    """KVL: L di/dt = u − R i − v, C dv/dt = i, so P = ½ R i² + i v − u i."""
    bm = brayton_moser(series_rlc())
    i, v, u, R, L, C = S("L1.i"), S("C1.v"), S("u"), S("R"), S("L"), S("C")
    assert bm.currents == (i,) and bm.voltages == (v,)
    assert [s.name for s in bm.inputs] == ["u"]
    assert sp.expand(named(bm.P) - (R * i**2 / 2 + i * v - u * i)) == 0
    assert named(bm.L) == sp.Matrix([[L]]) and named(bm.C) == sp.Matrix([[C]])
    eq_i, eq_v = bm.equations()
    assert sp.expand(named(eq_i.rhs[0]) - (u - R * i - v)) == 0
    assert sp.expand(named(eq_v.rhs[0]) - i) == 0


def test_ladder_mixed_potential_is_the_hand_derivation():
    """KVL on each series branch, KCL at each node:
    L0 i0' = u − R0 i0 − v0, C0 v0' = i0 − i1, L1 i1' = v0 − R1 i1 − v1,
    C1 v1' = i1 − v1/RL, hence
    P = ½R0 i0² + ½R1 i1² − v1²/(2 RL) + i0 v0 − i1 v0 + i1 v1 − u i0."""
    bm = brayton_moser(ladder())
    i0, i1, v0, v1 = S("L0.i"), S("L1.i"), S("C0.v"), S("C1.v")
    R0, R1, RL, u = S("R0"), S("R1"), S("RL"), S("u")
    hand = (R0 * i0**2 / 2 + R1 * i1**2 / 2 - v1**2 / (2 * RL)
            + i0 * v0 - i1 * v0 + i1 * v1 - u * i0)
    assert bm.currents == (i0, i1) and bm.voltages == (v0, v1)
    assert sp.simplify(named(bm.P) - hand) == 0
    assert named(bm.L) == sp.diag(S("L0"), S("L1")) and named(bm.C) == sp.diag(S("C0"), S("C1"))


def _exact(sys, x0, u, times):
    """x(t) of ẋ = A x + B u, u constant, by the exponential of [[A, B u], [0, 0]]."""
    A, B, _, _ = sys.state_space(np.zeros(sys.n_states), np.zeros(sys.n_inputs))
    n = A.shape[0]
    Ab = np.zeros((n + 1, n + 1))
    Ab[:n, :n], Ab[:n, n] = A, B @ np.atleast_1d(u)
    return np.array([(sla.expm(Ab * t) @ np.append(x0, 1.0))[:n] for t in times])


@pytest.mark.parametrize("build", [series_rlc, ladder])
def test_gradient_trajectories_equal_the_phs_solution(build):
    bm = brayton_moser(build())
    rng = np.random.default_rng(3)
    z0 = rng.normal(size=len(bm.coenergies))
    times = np.linspace(0.0, 0.5, 11)
    sol = solve_ivp(bm.ode(2.0), (0.0, 0.5), z0, t_eval=times, method="DOP853",
                    rtol=1e-12, atol=1e-12)
    assert sol.success
    x_bm = bm.to_states(sol.y.T)
    x_ph = _exact(bm.system, bm.to_states(z0), 2.0, times)
    scale = np.max(np.abs(x_ph))
    assert np.max(np.abs(x_bm - x_ph)) < 1e-9 * scale
    np.testing.assert_allclose(bm.from_states(x_bm), sol.y.T, rtol=1e-12, atol=1e-12)


def test_time_varying_source_against_the_phs_rhs():
    """u(t) = sin 5t: the BM ODE in (i, v) and the PHS ODE in (φ, q) agree."""
    bm = brayton_moser(ladder())
    z0 = np.array([0.3, -0.2, 1.0, 0.5])
    u = lambda t: np.sin(5 * t)  # noqa: E731
    opts = dict(method="DOP853", rtol=1e-12, atol=1e-12, dense_output=True)
    a = solve_ivp(bm.ode(u), (0, 1), z0, **opts)
    b = solve_ivp(lambda t, x: bm.system.rhs(x, [u(t)]), (0, 1), bm.to_states(z0), **opts)
    ts = np.linspace(0, 1, 7)
    np.testing.assert_allclose(bm.to_states(a.sol(ts).T), b.sol(ts).T, rtol=0, atol=1e-9)


def test_network_ladder_has_the_same_potential():
    """The ladder built from library components: same P in the network's names."""
    net = network.Network("ladder")
    for name, comp in [("u", E.VoltageSource()), ("R0", E.Resistor(R=0.5)),
                       ("L0", E.Inductor(L=0.2)), ("C0", E.Capacitor(C=0.1)),
                       ("R1", E.Resistor(R=0.8)), ("L1", E.Inductor(L=0.3)),
                       ("C1", E.Capacitor(C=0.05))]:
        net.add(name, comp)
    net.junction("1", "u.p", "R0.p", "L0.p", name="s0")
    net.junction("0", "s0", "C0.p", name="p0")
    net.junction("1", "p0", "R1.p", "L1.p", name="s1")
    net.junction("0", "s1", "C1.p", name="p1")
    bm = brayton_moser(net)
    i0, i1, v0, v1 = S("L0.i"), S("L1.i"), S("C0.v"), S("C1.v")
    hand = (S("R0.R") * i0**2 / 2 + S("R1.R") * i1**2 / 2
            + i0 * v0 - i1 * v0 + i1 * v1 - S("u.u") * i0)
    assert sp.simplify(named(bm.P) - hand) == 0
    z = np.array([0.1, 0.2, 0.3, 0.4])
    # ż from BM equals the PHS's ẋ mapped back through L and C
    xdot = bm.system.rhs(bm.to_states(z), [1.5])
    np.testing.assert_allclose(bm.to_states(bm.rhs(z, [1.5])), xdot, rtol=1e-12)


def test_current_source_and_conductance():
    """Sf i_s → 0{C1, R1 (conductance), 1{L1, R2}}: C v' = i_s − v/R1 − i,
    L i' = v − R2 i; P = ½R2 i² − v²/(2R1) − i v + i_s v (the source's term +u v)."""
    bg = _graph("norton",
                [("s", "Sf"), ("n", "0"), ("C1", "C", {"c": "C"}), ("R1", "R", {"r": "Ra"}),
                 ("b", "1"), ("L1", "I", {"i": "L"}), ("R2", "R", {"r": "Rb"})],
                [("s", "n"), ("n", "C1"), ("n", "R1"), ("n", "b"), ("b", "L1"), ("b", "R2")],
                {"C": 1.0, "Ra": 2.0, "L": 0.5, "Rb": 0.3})
    bm = brayton_moser(bg)
    i, v, us = S("L1.i"), S("C1.v"), S("s")
    hand = S("Rb") * i**2 / 2 - v**2 / (2 * S("Ra")) - i * v + us * v
    assert sp.simplify(named(bm.P) - hand) == 0


def test_gyrator_between_inductors_is_refused():
    """Se → 1{L1} → GY → 1{L2, R}: the gyrator makes J_LL ≠ 0 (L2 acts as a capacitor
    seen from L1), so −L di/dt is not a gradient."""
    bg = _graph("gyrated",
                [("u", "Se"), ("a", "1"), ("L1", "I", {"i": 1.0}), ("g", "GY", {"ratio": 2.0}),
                 ("b", "1"), ("L2", "I", {"i": 0.5}), ("R", "R", {"r": 1.0})],
                [("u", "a"), ("a", "L1"), ("a", "g"), ("g", "b"), ("b", "L2"), ("b", "R")],
                {})
    with pytest.raises(ModelError, match=r"no mixed potential.*'L1' and 'L2'.*gyrator"):
        brayton_moser(bg)


def test_modulated_resistor_and_nonlinear_storage_are_refused():
    bg = _graph("mr",
                [("u", "Se"), ("j", "1"), ("L1", "I", {"i": 1.0}), ("C1", "C", {"c": 1.0}),
                 ("d", "MR", {"r": "1 + C1**2"})],
                [("u", "j"), ("j", "L1"), ("j", "C1"), ("j", "d")], {})
    with pytest.raises(ModelError, match=r"matrix R depends on the state\(s\) C1"):
        brayton_moser(bg)
    from porthamiltonian import PHS
    x = sp.symbols("q phi")
    sys = PHS(J=sp.Matrix([[0, 1], [-1, 0]]), hamiltonian=x[0]**4 / 4 + x[1]**2 / 2,
              states=["q", "phi"])
    with pytest.raises(ModelError, match=r"not quadratic in q"):
        brayton_moser(sys, storages={"q": "C", "phi": "I"})
    with pytest.raises(ModelError, match=r"state 'q'.*storages="):
        brayton_moser(sys)
