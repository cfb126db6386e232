"""Library components in assembled networks: the power balance holds in simulation
with a structure-preserving method; thermodynamic components conserve energy and
produce entropy."""

from __future__ import annotations

import numpy as np
import pytest

from porthamiltonian import simulate
from porthamiltonian.library import chemical as CH
from porthamiltonian.library import electrical as E
from porthamiltonian.library import electromechanical as EM
from porthamiltonian.library import hydraulic as H
from porthamiltonian.library import mechanical as M
from porthamiltonian.library import thermal as TH
from porthamiltonian.network import Network


def residual_scale(r) -> float:
    """Power residual per step relative to the energy moved in that step."""
    moved = np.abs(np.diff(r.H, prepend=r.H[0])) + np.abs(r.work_supplied) + np.abs(
        r.work_dissipated)
    return float(np.max(np.abs(r.power_residual)) / max(np.max(moved), 1e-300))


def test_rlc_with_transformer_midpoint_power_balance_is_exact():
    net = Network("ckt")
    net.add("V", E.VoltageSource())
    net.add("R1", E.Resistor(R=2.0))
    net.add("L", E.Inductor(L=1e-2))
    net.add("T", E.IdealTransformer(n=2.0))
    net.add("C", E.Capacitor(C=1e-4))
    net.add("R2", E.Resistor(R=50.0))
    net.junction("1", "V.p", "R1.p", "L.p", "T.a")
    net.junction("0", "T.b", "C.p", "R2.p")
    sys = net.system(symbolic=False)
    r = simulate(sys, (0, 0.05), u="10*sin(2*pi*100*t)", method="midpoint", dt=1e-5)
    assert residual_scale(r) < 1e-10
    assert np.max(r.work_dissipated) > 0


def test_loudspeaker_driving_an_air_mass_midpoint():
    net = Network("speaker")
    net.add("V", E.VoltageSource())
    net.add("spk", EM.Loudspeaker(Re=6.0, Le=5e-4, Bl=7.0, m=0.02, k=2000.0, c=1.0))
    net.add("air", M.Mass(m=0.005))
    net.add("rad", M.Damper(b=0.5))
    net.add("fix", M.Fixed())
    net.connect("V.p", "spk.electrical")
    net.junction("1", "spk.cone", "air.p", "rad.a")
    net.connect("rad.b", "fix.p")
    sys = net.system(symbolic=False)
    assert sys.n_states == 3  # cone and air mass move together: one momentum kept
    r = simulate(sys, (0, 0.02), u="sin(2*pi*200*t)", method="midpoint", dt=1e-5)
    assert residual_scale(r) < 1e-10


def test_duffing_oscillator_midpoint_and_discrete_gradient():
    net = Network("duffing")
    net.add("m", M.Mass(m=1.0))
    net.add("k", M.NonlinearSpring(k=1.0, k3=5.0))
    net.add("fix", M.Fixed())
    net.junction("1", "m.p", "k.a")
    net.connect("k.b", "fix.p")
    sys = net.system()
    x0 = {"m.p": 0.0, "k.q": 1.0}
    mid = simulate(sys, (0, 5), x0, method="midpoint", dt=5e-3)
    dg = simulate(sys, (0, 5), x0, method="discrete_gradient", dt=5e-3)
    H0 = mid.H[0]
    assert H0 == pytest.approx(0.5 + 5.0 / 4)  # k q²/2 + k3 q⁴/4
    assert np.max(np.abs(mid.power_residual)) < 1e-6 * H0  # O(h³) per step
    assert np.max(np.abs(dg.H - H0)) < 1e-12 * H0


def test_magnetic_levitation_power_balance():
    """Electromagnet pulling a ball against gravity: the coil's electrical power goes to
    the field, the ball and the coil resistance."""
    net = Network("maglev")
    net.add("V", E.VoltageSource())
    net.add("mag", EM.Electromagnet(L0=0.01, L1=0.02, a=0.005, R=2.0))
    net.add("ball", M.Mass(m=0.05))
    net.add("g", M.ForceSource())
    net.connect("V.p", "mag.electrical")
    net.junction("1", "mag.mechanical", "ball.p", "g.p")
    sys = net.system()
    u = {"V.u": 20.0, "g.u": -0.05 * 9.81}  # gravity: the source pushes downwards
    r = simulate(sys, (0, 0.01), {"mag.q": 0.01}, u=u, method="discrete_gradient", dt=1e-5)
    assert residual_scale(r) < 1e-8
    # the ball is pulled up (towards the magnet) once the current has built up
    assert r["ball.p"][-1] > 0
    assert 0 < r["mag.q"][-1] < 0.01  # the gap closes


def test_diode_rectifier_midpoint():
    net = Network("rectifier")
    net.add("V", E.VoltageSource())
    net.add("D", E.Diode(Is=1e-12, VT=0.02585, Cj=1e-7))
    net.add("R", E.Resistor(R=100.0))
    net.junction("1", "V.p", "D.p", "R.p")
    sys = net.system()
    r = simulate(sys, (0, 2e-3), u="sin(2*pi*1000*t)", method="midpoint", dt=2e-6)
    assert residual_scale(r) < 1e-5
    # rectification: the loop current has a large mean (a linear load would have none);
    # the small negative part is the junction capacitance charging back
    i = r.y[:, 0]
    assert i.max() > 2e-3
    assert np.mean(i[r.t >= 1e-3]) > 0.2 * i.max()


def test_two_tanks_and_a_pipe_settle_at_equal_levels():
    net = Network("tanks")
    net.add("t1", H.Tank(A=1.0))
    net.add("t2", H.Tank(A=2.0))
    net.add("pipe", H.Pipe(I=1e3, R=5e3))
    net.connect("t1.p", "pipe.a")
    net.connect("pipe.b", "t2.p")
    sys = net.system(symbolic=False)
    r = simulate(sys, (0, 200), {"t1.V": 3.0}, method="midpoint", dt=0.05)
    assert residual_scale(r) < 1e-10
    h1, h2 = r["t1.V"][-1] / 1.0, r["t2.V"][-1] / 2.0
    assert h1 == pytest.approx(1.0, rel=1e-3) and h2 == pytest.approx(1.0, rel=1e-3)


def test_heat_conduction_conserves_energy_and_produces_entropy():
    C, T0 = (100.0, 250.0, 400.0), 300.0
    net = Network("bodies")
    for k, c in enumerate(C):
        net.add(f"b{k}", TH.HeatCapacity(C=c, T0=T0))
    net.add("k01", TH.HeatConduction(lam=2.0))
    net.add("k12", TH.HeatConduction(lam=5.0))
    net.add("k02", TH.HeatConduction(lam=1.0))
    net.junction("0", "b0.p", "k01.a", "k02.a")
    net.junction("0", "k01.b", "b1.p", "k12.a")
    net.junction("0", "k12.b", "b2.p", "k02.b")
    sys = net.system()
    S0 = np.array([30.0, -20.0, 5.0])  # temperatures T0·exp(S/C): 405, 278, 304 K
    r = simulate(sys, (0, 600), S0, method="discrete_gradient", dt=0.5)
    assert np.max(np.abs(r.H - r.H[0])) < 1e-12 * r.H[0]  # first law, isolated
    S_total = r.x.sum(axis=1)
    assert np.min(np.diff(S_total)) > -1e-12  # second law
    assert S_total[-1] > S_total[0] + 1e-3
    T_end = T0 * np.exp(r.x[-1] / np.array(C))
    T_start = T0 * np.exp(S0 / np.array(C))
    T_eq = np.dot(C, T_start) / np.sum(C)  # energy balance of bodies with constant C
    assert np.allclose(T_end, T_eq, rtol=1e-6)


def test_stirred_tank_reactor_exothermic_reaction():
    net = Network("reactor")
    net.add("r", CH.CSTR(k0=1.0, Ea=1.0e4))
    net.add("wall", TH.HeatConduction(lam=0.5))
    net.add("jacket", TH.HeatCapacity(C=5e3, T0=300.0))
    net.connect("r.wall", "wall.a")
    net.connect("wall.b", "jacket.p")
    sys = net.system()
    x0 = {"r.N_A": 1.0, "r.N_B": 0.01, "r.S": 20.0, "jacket.S": 0.0}
    r = simulate(sys, (0, 30), x0, method="discrete_gradient", dt=0.05)
    assert np.max(np.abs(r.H - r.H[0])) < 1e-12 * abs(r.H[0])  # energy conserved
    S_total = r["r.S"] + r["jacket.S"]
    assert np.min(np.diff(S_total)) > -1e-9  # entropy non-decreasing
    NA, NB = r["r.N_A"], r["r.N_B"]
    assert np.allclose(NA + NB, 1.01, rtol=1e-12)  # A → B conserves moles
    assert NA[-1] < 0.9  # the reaction ran
    num = sys.compile()
    T = [num.gradient(x)[2] for x in (r.x[0], r.x[len(r.t) // 4])]
    assert T[1] > T[0]  # exothermic: the content heats up
