"""``mechanism:`` model files: checked with line numbers, compiled by ``build_system`` to the
mechanism's pH-DAE, simulated from ``simulate:`` (joint angles and rates) by the command
line and by ``porthamiltonian.io.simulate_model``.

Physics checked against closed forms derived here, independently of the library:

- a rigid pendulum (mass m, centre of mass at distance l from the pivot, inertia I_c
  about it) swings with the period T = 4 √(I_p/(m g l)) K(sin²(θ0/2)), I_p = I_c + m l²
  (Landau & Lifshitz §11; K the complete elliptic integral of the first kind, in
  SciPy's parameter convention), → 2π √(I_p/(m g l)) for small θ0;
- the energy of the double pendulum at rest angles θ1, θ2 with elbow rate ω is
  ½ (I_c2 + m2 (L2/2)²) ω² + Σ m_i g y_i with the centre heights
  y1 = −(L1/2) cos θ1, y2 = −L1 cos θ1 − (L2/2) cos(θ1 + θ2).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.special import ellipk

from conftest import EXAMPLES
from porthamiltonian import ModelError
from porthamiltonian.cli import main
from porthamiltonian.descriptor import DescriptorPHS
from porthamiltonian.io import load_model, simulate_model
from porthamiltonian.io.build import build_system

PENDULUM = """\
name: pendulum
parameters: {m: 1.0, l: 0.5, g: 9.81, Ic: 0.02}
mechanism:
  gravity: [0, "-g", 0]
  bodies:
    - {name: bob, mass: m, inertia: [Ic, Ic, Ic], com: [0, "-l", 0]}
  joints:
    - {name: pivot, kind: revolute, parent: ground, child: bob, axis: [0, 0, 1]}
simulate:
  t_end: 1.2
  dt: 2.0e-3
  initial: {pivot: 0.5}
"""
M, L, G, IC = 1.0, 0.5, 9.81, 0.02
IP = IC + M * L**2


def _half_period(t, theta):
    """T/2 from the first two zero crossings of θ (linear interpolation is accurate to
    O(h³) there: θ'' = −(mgl/I_p) sin θ vanishes at θ = 0)."""
    k = np.flatnonzero(np.sign(theta[:-1]) != np.sign(theta[1:]))[:2]
    zeros = t[k] - theta[k] * (t[k + 1] - t[k]) / (theta[k + 1] - theta[k])
    return zeros[1] - zeros[0]


def test_pendulum_period_matches_the_elliptic_integral():
    model = load_model(PENDULUM.replace("t_end: 1.2", "t_end: 1.3"))
    system = build_system(model)
    assert isinstance(system, DescriptorPHS) and system.multipliers
    res = simulate_model(model, system)
    theta = res.joint("pivot")[:, 0]
    assert theta[0] == pytest.approx(0.5, abs=1e-12)
    k2 = np.sin(0.25) ** 2
    period = 4.0 * np.sqrt(IP / (M * G * L)) * ellipk(k2)
    # midpoint rule: relative period error (ωh)²/12 ≈ 2e-6 at h = 2 ms
    assert 2.0 * _half_period(res.t, theta) == pytest.approx(period, rel=1e-5)
    H = res.raw.H
    assert np.max(np.abs(H - H[0])) <= 1e-12 * abs(H[0])  # lossless: energy kept


def test_model_file_simulation_uses_the_numeric_assembly_with_the_same_motion():
    from porthamiltonian.io.simulation import simulation_system
    from porthamiltonian.mechanics import MechanismDAE

    model = load_model(PENDULUM)
    numeric = simulation_system(model)
    assert isinstance(numeric, MechanismDAE)
    fast, slow = simulate_model(model), simulate_model(model, build_system(model))
    # the same DAE, assembled with and without SymPy, and the same midpoint steps
    assert np.max(np.abs(fast.joint("pivot") - slow.joint("pivot"))) <= 1e-12


def test_small_swing_from_the_command_line_has_the_linear_period(tmp_path):
    src, out = tmp_path / "pendulum.yaml", tmp_path / "p.csv"
    src.write_text(PENDULUM.replace("initial: {pivot: 0.5}", "initial: {pivot: 0.01}"))
    assert main(["simulate", str(src), "--out", str(out), "--no-progress"]) == 0
    d = np.genfromtxt(out, delimiter=",", names=True)
    theta = np.arctan2(d["xbobR3"], d["xbobR0"])  # rotation about z: R[1,0] = sin θ
    period = 2.0 * np.pi * np.sqrt(IP / (M * G * L))  # amplitude correction θ0²/16 ≈ 6e-6
    assert 2.0 * _half_period(d["t"], theta) == pytest.approx(period, rel=2e-5)
    assert np.max(np.abs(d["constraint_residual"])) <= 1e-9


def test_double_pendulum_example_starts_where_the_closed_form_says_and_loses_energy(tmp_path):
    out = tmp_path / "dp.json"
    args = ["simulate", str(EXAMPLES / "models" / "double_pendulum.yaml"), "--t-end", "0.4",
            "--out", str(out), "--no-progress"]
    assert main(args) == 0
    d = json.loads(out.read_text())
    m1, L1, m2, L2, g = 1.2, 0.9, 0.7, 0.7, 9.81
    th1, th2, w = 0.6, -0.3, 1.0
    y1 = -L1 / 2 * np.cos(th1)
    y2 = -L1 * np.cos(th1) - L2 / 2 * np.cos(th1 + th2)
    H0 = 0.5 * (m2 * L2**2 / 12 + m2 * (L2 / 2) ** 2) * w**2 + g * (m1 * y1 + m2 * y2)
    H = np.array(d["H"])
    assert H[0] == pytest.approx(H0, rel=1e-12)
    # the elbow damper only removes energy, and the balance closes at every step
    assert np.all(np.diff(H) <= 1e-12 * abs(H0)) and H[-1] < H[0] - 1e-3
    assert np.max(np.abs(d["power_residual"])) <= 1e-12 * abs(H0)


def test_phs_of_a_mechanism_prints_the_dae(capsys):
    path = str(EXAMPLES / "models" / "double_pendulum.yaml")
    assert main(["validate", path]) == 0
    capsys.readouterr()
    assert main(["phs", path, "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    # two bodies of 18 states (pose 12 + momentum 6), two revolute pairs of 5 constraints
    assert len(d["states"]) == 36 and len(d["multipliers"]) == 10
    assert np.array(d["B"]).shape == (36, 10)
    assert d["inputs"] == ["elbow.tau[0]"]
    assert main(["phs", path]) == 0
    assert "a port-Hamiltonian DAE with 36 states, 10 constraints, 1 ports" in \
        capsys.readouterr().out


@pytest.mark.parametrize(("old", "new", "line", "message"), [
    ("kind: revolute", "kind: hinge", 8,
     "mechanism.joints[0] (pivot).kind: unknown joint kind 'hinge'; kinds: revolute, "
     "prismatic, cylindrical, universal, spherical, planar, fixed, free"),
    ("parent: ground", "parent: base", 8,
     "mechanism.joints[0] (pivot).parent: unknown body 'base'; bodies: bob, or ground"),
    ("mass: m,", "mass: -m,", 6, "mechanism.bodies[0] (bob).mass: must be positive, got -1"),
    ("com: [0, \"-l\", 0]", "com: [0, \"-l\"]", 6,
     "mechanism.bodies[0] (bob).com: expected a 3-vector [x, y, z], got [0, '-l']"),
    ("axis: [0, 0, 1]", "axis: [0, 0, 0]", 8,
     "mechanism.joints[0] (pivot).axis: an axis must not be zero"),
    ("inertia: [Ic, Ic, Ic]", "inertia: [Ic, Ic, Ic], colour: red", 6,
     "mechanism.bodies[0] (bob): unknown key 'colour'; allowed keys in a body: name, mass, "
     "inertia, com"),
    ("initial: {pivot: 0.5}", "initial: {hinge: 0.5}", 12,
     "simulate.initial.hinge: unknown state 'hinge'; the model's states are: pivot"),
    ("initial: {pivot: 0.5}", "initial: {pivot: 0.5}\n  velocities: {pivot: [1, 2]}", 13,
     "simulate.velocities.pivot: expected an expression (text or number), got list [1, 2]"),
])
def test_mechanism_errors_name_the_line(tmp_path, capsys, old, new, line, message):
    src = tmp_path / "bad.yaml"
    src.write_text(PENDULUM.replace(old, new))
    with pytest.raises(ModelError) as err:
        load_model(src)
    assert str(err.value) == f"{src}:{line}: {message}"
    assert main(["simulate", str(src), "--no-progress"]) == 2
    assert capsys.readouterr().err.strip().splitlines() == [f"error: {src}:{line}: {message}"]


def test_actuator_errors_and_velocities_outside_mechanisms(tmp_path):
    text = PENDULUM.replace("simulate:", "  actuators:\n    - {joint: elbow, damping: 0.1}\n"
                                         "simulate:")
    with pytest.raises(ModelError, match=r":10: mechanism.actuators\[0\] \(elbow\).joint: unknown "
                                         r"joint 'elbow'; joints: pivot"):
        load_model(text)
    with pytest.raises(ModelError, match=r"mechanism.actuators\[0\] \(pivot\).damping: the "
                                         r"damping must be ≥ 0"):
        load_model(text.replace("elbow, damping: 0.1", "pivot, damping: -0.1"))
    rlc = (EXAMPLES / "models" / "series_rlc.yaml").read_text()
    with pytest.raises(ModelError, match=r"simulate.velocities: only a mechanism model takes "
                                         r"joint velocities"):
        load_model(rlc + "  velocities: {C1: 0}\n")


FLEXIBLE = """\
name: flexible_pendulum
parameters: {L: 1.0, m: 1.0}
mechanism:
  gravity: [0, -9.81, 0]
  bodies:
    - {name: hub, mass: 0.1, inertia: [1.0e-3, 1.0e-3, 1.0e-3]}
    - {name: tip, mass: m, inertia: [1.0e-3, 1.0e-3, 1.0e-3]}
  joints:
    - {name: pivot, kind: revolute, parent: ground, child: hub, axis: [0, 0, 1]}
  flexible_links:
    - name: rod
      parent: hub
      child: tip
      direction: [0, -1, 0]
      up: [0, 0, 1]
      beam: {length: L, rhoA: 0.5, rhoI: 1.0e-5, EA: 1.0e6, EI: 20.0, GA: 1.0e6, GJ: 10.0,
             elements: 4, left: velocity, right: port}
simulate:
  t_end: 0.3
  dt: 4.0e-3
  initial: {pivot: 0.3}
"""


@pytest.mark.slow
def test_flexible_link_model_file_swings_with_its_energy_kept(tmp_path, capsys):
    model = load_model(FLEXIBLE)
    res = simulate_model(model)
    H = res.raw.H
    assert np.max(np.abs(H - H[0])) <= 1e-10 * np.max(np.abs(H))  # lossless
    # the tip starts 0.3 rad out (rigidly with the undeformed rod) and swings down
    tip = res.pose("tip")[:, :3, 3]
    assert np.arctan2(tip[0, 0], -tip[0, 1]) == pytest.approx(0.3, abs=1e-12)
    assert np.arctan2(tip[-1, 0], -tip[-1, 1]) < 0.3
    path = tmp_path / "flex.yaml"
    path.write_text(FLEXIBLE)
    assert main(["phs", str(path)]) == 0
    assert "rod.W_right[0]" in capsys.readouterr().out
    assert main(["phs", str(path), "--json"]) == 2
    assert "no symbolic form" in capsys.readouterr().err


def test_flexible_link_errors_name_the_line(tmp_path, capsys):
    path = tmp_path / "bad.yaml"
    path.write_text(FLEXIBLE.replace("      child: tip", "      child: hand")
                    .replace("EA: 1.0e6", "EA: -1.0"))
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert "bad.yaml:13" in err and "unknown body 'hand'" in err
    assert "bad.yaml:16" in err and "beam.EA" in err
