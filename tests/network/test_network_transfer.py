"""A network, the same system as one bond graph, and the closed form: same transfer
function at several frequencies (issue 5: 'assembled networks equal the same system
written as a single bond graph')."""

from __future__ import annotations

import numpy as np

from porthamiltonian import network
from porthamiltonian.analysis import transfer_function
from porthamiltonian.bondgraph import BondGraph, to_phs
from porthamiltonian.library import electrical as E
from porthamiltonian.library import electromechanical as EM
from porthamiltonian.library import mechanical as M

R, L, K, JM, B, N, JL = 1.0, 1e-3, 0.05, 1e-4, 1e-5, 10.0, 2e-2


def drive_network():
    net = network.Network("drive")
    net.add("V", E.VoltageSource())
    net.add("motor", EM.DCMotor(R=R, L=L, k=K, J=JM, b=B))
    net.add("gear", M.Gear(n=N))
    net.add("load", M.Inertia(J=JL))
    net.connect("V.p", "motor.electrical")
    net.connect("motor.shaft", "gear.a")
    net.connect("gear.b", "load.p")
    return net.system()


def drive_bond_graph():
    """V → 1{R, L} → GY(K) → 1{J_m, b} → TF(1/N) → 1{J_L}."""
    bg = BondGraph("drive")
    for name, kind, p in [("V", "Se", {}), ("je", "1", {}), ("R", "R", {"r": R}),
                          ("L", "I", {"i": L}), ("gy", "GY", {"ratio": K}), ("jm", "1", {}),
                          ("Jm", "I", {"i": JM}), ("b", "R", {"r": B}),
                          ("tf", "TF", {"ratio": 1 / N}), ("jl", "1", {}),
                          ("JL", "I", {"i": JL})]:
        bg.add(name, kind, **p)
    for a, b in [("V", "je"), ("je", "R"), ("je", "L"), ("je", "gy"), ("gy", "jm"),
                 ("jm", "Jm"), ("jm", "b"), ("jm", "tf"), ("tf", "jl"), ("jl", "JL")]:
        bg.connect(a, b)
    return to_phs(bg, symbolic=False)


def test_network_bond_graph_and_closed_form_share_the_input_admittance():
    """I(s)/V(s) = (J s + b)/((L s + R)(J s + b) + K²), J = J_m + J_L/N² (load reflected
    through the gear to the motor shaft)."""
    net, bg = drive_network(), drive_bond_graph()
    J = JM + JL / N**2
    s = 1j * np.array([0.3, 3.0, 30.0, 300.0, 3e3, 3e4])
    closed = (J * s + B) / ((L * s + R) * (J * s + B) + K**2)
    h_net = np.asarray(transfer_function(net)(s)).reshape(-1)
    h_bg = np.asarray(transfer_function(bg)(s)).reshape(-1)
    np.testing.assert_allclose(h_net, closed, rtol=1e-9)
    np.testing.assert_allclose(h_bg, closed, rtol=1e-9)
