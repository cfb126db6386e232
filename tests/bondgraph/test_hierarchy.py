"""Sub-graphs with exposed ports: a hierarchical model equals the flat one."""

from __future__ import annotations

import numpy as np
import pytest

from porthamiltonian import ModelError
from porthamiltonian.bondgraph import BondGraph, to_phs


def motor() -> BondGraph:
    """Armature (R, L) on the electrical 1-junction, GY, rotor (J, b) on the shaft's."""
    m = BondGraph("motor", parameters={"Ra": 1.5, "La": 2e-3, "K": 0.05, "Jm": 1e-4, "bm": 1e-5})
    m.add("je", "1")
    m.add("R", "R", r="Ra")
    m.add("L", "I", i="La")
    m.add("gy", "GY", ratio="K")
    m.add("jm", "1")
    m.add("J", "I", i="Jm")
    m.add("b", "R", r="bm")
    for a, b in [("je", "R"), ("je", "L"), ("je", "gy"), ("gy", "jm"), ("jm", "J"), ("jm", "b")]:
        m.connect(a, b)
    m.expose("elec", "je")
    m.expose("shaft", "jm")
    return m


def test_two_motors_on_one_supply_match_the_flat_graph():
    """V → 0{m1.elec, m2.elec}; each shaft drives its own load inertia."""
    top = BondGraph("pair", parameters={"JL": 3e-4})
    top.add("V", "Se")
    top.add("node", "0")
    top.include("m1", motor())
    top.include("m2", motor())
    top.add("load1", "I", i="JL")
    top.add("load2", "I", i="JL")
    for a, b in [("V", "node"), ("node", "m1.elec"), ("node", "m2.elec"),
                 ("m1.shaft", "load1"), ("m2.shaft", "load2")]:
        top.connect(a, b)
    hier = to_phs(top, symbolic=False)
    # each load sits on its rotor's shaft junction: a dependent storage, merged, so each
    # motor with its load is a DC motor with inertia Jm + JL:
    # L di/dt = V − Ra i − K ω, (Jm + JL) dω/dt = K i − bm ω
    assert hier.states == ("m1.L", "m1.J", "m2.L", "m2.J")
    assert set(hier.merged) == {"m1.J", "m2.J"}
    Jt, L, Ra, K, bm = 1e-4 + 3e-4, 2e-3, 1.5, 0.05, 1e-5
    x = np.array([1e-3, 2e-5, -4e-4, 7e-5])
    V = 12.0
    rhs = hier.rhs(x, [V])
    for k in (0, 2):
        i, w = x[k] / L, x[k + 1] / Jt
        np.testing.assert_allclose(rhs[k], V - Ra * i - K * w, rtol=1e-12)
        np.testing.assert_allclose(rhs[k + 1], K * i - bm * w, rtol=1e-12)


def test_nested_sub_graphs_keep_their_ports():
    drive = BondGraph("drive", parameters={"JL": 3e-4})
    drive.include("m", motor())
    drive.add("load", "I", i="JL")
    drive.add("out", "1")
    drive.connect("m.shaft", "out")
    drive.connect("out", "load")
    drive.expose("elec", "m.je")
    top = BondGraph("top")
    top.add("V", "Se")
    top.include("d", drive)
    top.connect("V", "d.elec")
    sys = to_phs(top, symbolic=True)
    assert set(sys.states) == {"d.m.L", "d.m.J"}
    assert "d.m.J" in sys.merged  # rotor and load inertia merged


def test_errors_name_the_port_and_the_fix():
    m = motor()
    with pytest.raises(ModelError, match="'R' is a R element; expose a 0- or 1-junction"):
        m.expose("x", "R")
    top = BondGraph("top", parameters={"Ra": 99.0})
    with pytest.raises(ModelError, match="parameter 'Ra' = 1.5 clashes with 'Ra' = 99.0"):
        top.include("m", motor())
    top = BondGraph("top")
    top.include("m", motor())
    top.add("V", "Se")
    with pytest.raises(ModelError, match="unknown element 'm.power'"):
        top.connect("V", "m.power")
