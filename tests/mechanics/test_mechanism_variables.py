"""Physical variables of mechanism results (mechanics/variables.py): joint angles and
rates, body positions and attitudes, joint reactions — checked against an independent
Lagrangian solution, closed forms, and the initial values of the model file."""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np
import pytest
import sympy as sp
from mechanics_models import two_joints
from scipy.integrate import solve_ivp

from porthamiltonian import distributed as D
from porthamiltonian.io import load_model, simulate_model
from porthamiltonian.io.simulation import simulation_system
from porthamiltonian.mechanics import Mechanism

MODEL = Path(__file__).resolve().parents[2] / "examples" / "models" / "double_pendulum.yaml"
# the parameters of the model file (asserted below, so the reference cannot drift)
M1, L1, M2, L2, G, C = 1.2, 0.9, 0.7, 0.7, 9.81, 0.05
Q0, V0 = (0.6, -0.3), (0.0, 1.0)
NAMES = ["shoulder.q", "elbow.q", "shoulder.qd", "elbow.qd"]


@functools.cache
def _lagrangian() -> tuple:
    """Planar double pendulum of two uniform rods from its Lagrangian (SymPy), in the
    joint coordinates of the model: φ₁ the upper rod's angle from hanging down, φ₂ the
    lower rod's angle relative to the upper; a damper −c φ̇₂ at the elbow.  Returns the
    accelerations, the centres of mass and the pivot force m₁a₁ + m₂a₂ − (m₁+m₂)g as
    functions of (φ₁, φ₂, φ̇₁, φ̇₂)."""
    t = sp.Symbol("t")
    f1, f2 = sp.Function("f1")(t), sp.Function("f2")(t)
    c1 = sp.Matrix([L1 / 2 * sp.sin(f1), -L1 / 2 * sp.cos(f1)])
    c2 = sp.Matrix([L1 * sp.sin(f1) + L2 / 2 * sp.sin(f1 + f2),
                    -L1 * sp.cos(f1) - L2 / 2 * sp.cos(f1 + f2)])
    I1, I2 = M1 * L1**2 / 12, M2 * L2**2 / 12
    kinetic = (M1 * c1.diff(t).dot(c1.diff(t)) + I1 * f1.diff(t) ** 2
               + M2 * c2.diff(t).dot(c2.diff(t)) + I2 * (f1.diff(t) + f2.diff(t)) ** 2) / 2
    lag = kinetic - G * (M1 * c1[1] + M2 * c2[1])
    forces = [0, -C * f2.diff(t)]
    a1, a2, w1, w2, q1, q2 = sp.symbols("a1 a2 w1 w2 q1 q2")
    plain = {f1.diff(t, 2): a1, f2.diff(t, 2): a2}
    rates = {f1.diff(t): w1, f2.diff(t): w2}
    coords = {f1: q1, f2: q2}

    def flat(e: sp.Expr) -> sp.Expr:
        return e.subs(plain).subs(rates).subs(coords)

    eqs = sp.Matrix([flat(sp.diff(lag.diff(q.diff(t)), t) - lag.diff(q) - F)
                     for q, F in zip((f1, f2), forces, strict=True)])
    # the equations are M(φ) φ̈ + b(φ, φ̇) = 0: solved numerically at each point
    args = (q1, q2, w1, w2)
    mass = sp.lambdify(args, eqs.jacobian([a1, a2]))
    rest = sp.lambdify(args, list(eqs.subs({a1: 0, a2: 0})))
    pivot = sp.lambdify((*args, a1, a2), list(M1 * flat(c1.diff(t, 2))
                                              + M2 * flat(c2.diff(t, 2))
                                              - (M1 + M2) * sp.Matrix([0, -G])))

    def acc(*y: float) -> np.ndarray:
        return np.linalg.solve(np.array(mass(*y), dtype=float), -np.array(rest(*y)))

    def force(*y: np.ndarray) -> np.ndarray:
        a = np.array([acc(*col) for col in np.array(y).T]).T
        return np.array(pivot(*y, *a))

    return acc, sp.lambdify(args, [*flat(c1), *flat(c2)]), force


def _reference(t: np.ndarray) -> np.ndarray:
    acc = _lagrangian()[0]
    sol = solve_ivp(lambda _, y: [y[2], y[3], *acc(*y)], (t[0], t[-1]), [*Q0, *V0],
                    method="DOP853", rtol=1e-12, atol=1e-12, t_eval=t)
    assert sol.success
    return sol.y


def test_model_file_is_the_reference() -> None:
    model = load_model(MODEL)
    p = {str(k): float(v) for k, v in model.parameter_values().items()}
    assert [p[k] for k in ("m1", "L1", "m2", "L2", "g", "c")] == [M1, L1, M2, L2, G, C]
    assert model.simulate["initial"] == {"shoulder": Q0[0], "elbow": Q0[1]}
    assert model.simulate["velocities"] == {"shoulder": V0[0], "elbow": V0[1]}


def test_joint_angles_and_rates_at_t0_are_the_model_files_values() -> None:
    """At t0 the joint variables are exactly the initial values of the file; they are
    what a result shows, with their units; the actuator port has its units."""
    model = load_model(MODEL)
    res = simulate_model(model, t_end=0.02)
    assert res.shown == ["shoulder.q", "shoulder.qd", "elbow.q", "elbow.qd"]
    for name, value in zip(NAMES, [*Q0, *V0], strict=True):
        assert res[name][0] == pytest.approx(value, abs=1e-14)
    assert [res.unit(n) for n in NAMES] == ["rad", "rad", "rad/s", "rad/s"]
    assert res.unit("elbow.tau[0]") == "N*m" and res.unit("elbow.v[0]") == "rad/s"
    # the actuator's output is the joint rate: two routes to the same number
    assert np.abs(res["elbow.v[0]"] - res["elbow.qd"]).max() < 1e-12
    # the system the command line simulates carries the same annotation
    system = simulation_system(model)
    assert [o.name for o in system.quantities.observables if o.shown] == res.shown


def test_double_pendulum_joints_match_the_lagrangian_solution() -> None:
    """Joint angles and rates from res[...] against the SymPy-Lagrangian solution
    (DOP853, tolerance 1e-12): the midpoint rule's second-order error, and nothing
    else (halving dt divides it by 4).  Centres of mass and yaw angles follow the
    same solution; the pivot reaction converges to m₁a₁ + m₂a₂ − (m₁+m₂)g."""
    model = load_model(MODEL)
    com, pivot = _lagrangian()[1:]
    errors, force_errors = [], []
    for dt in (2e-3, 1e-3):
        res = simulate_model(model, dt=dt)
        ref = _reference(res.t)
        errors.append([np.abs(res[n] - ref[k]).max() for k, n in enumerate(NAMES)])
        c = np.array(com(*ref))
        for k, name in enumerate(["upper.x", "upper.y", "lower.x", "lower.y"]):
            assert np.abs(res[name] - c[k]).max() < 2e-4 * dt / 1e-3
        assert np.abs(res["upper.yaw"] - res["shoulder.q"]).max() < 1e-12
        assert np.abs(res["lower.yaw"] - res["shoulder.q"] - res["elbow.q"]).max() < 1e-12
        assert np.abs(res["upper.z"]).max() == 0.0 and np.abs(res["lower.roll"]).max() == 0.0
        # the saved multipliers are mean forces over the step ending at each point
        F = np.array(pivot(*ref))
        mean = np.concatenate([F[:, :1], (F[:, 1:] + F[:, :-1]) / 2], axis=1)
        force_errors.append(max(np.abs(res[f"shoulder.F[{i}]"] - mean[i]).max()
                                for i in range(2)))
        assert res["shoulder.F[0]"][0] == pytest.approx(F[0, 0], abs=1e-12)
        assert np.abs(res["shoulder.M[2]"]).max() < 1e-12   # a free revolute pair
    small, half = np.array(errors)
    assert small.max() < 5e-4              # measured 3.4e-4 (elbow rate, dt = 2 ms)
    assert np.all((3.6 < small / half) & (small / half < 4.4))   # measured 4.00
    assert force_errors[0] < 1e-2 and 1.8 < force_errors[0] / force_errors[1] < 2.2


def _slider(axis: np.ndarray, k: float, m: float, ref: float) -> Mechanism:
    mech = Mechanism(gravity=[0.0, -9.81, 0.0])
    mech.add_body("block", m, [0.02, 0.03, 0.04], com=[0.1, 0.05, 0.0])
    mech.add_joint("slide", "prismatic", "ground", "block", axis=axis)
    mech.add_actuator("slide", stiffness=k, setpoint=ref)
    return mech


def test_prismatic_spring_mass_has_the_closed_form() -> None:
    r"""A block on an inclined prismatic joint with a spring (k, set point s_ref) under
    gravity: x(t) = x_eq + (x₀ − x_eq) cos ωt + (v₀/ω) sin ωt, ω = √(k/m),
    x_eq = s_ref + m g·e/k; the slide holds the block against gravity normal to the
    axis (F = −m g⊥) and against the tilting moment about its anchor,
    M = c × m (a − g)."""
    e = np.array([1.0, 1.0, 0.0]) / np.sqrt(2.0)
    k, m, ref, x0, v0, dt = 40.0, 2.0, 0.1, 0.3, -0.5, 1e-3
    g = np.array([0.0, -9.81, 0.0])
    res = _slider(e, k, m, ref).simulate(2.0, {"slide": x0}, {"slide": v0}, dt=dt)
    xeq = ref + m * (g @ e) / k
    t = res.t

    w = np.sqrt(k / m)

    def closed_form(phase: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return (xeq + (x0 - xeq) * np.cos(phase) + v0 / w * np.sin(phase),
                -w * (x0 - xeq) * np.sin(phase) + v0 * np.cos(phase))

    # the midpoint rule turns (x − x_eq, v/ω) by exactly 2 atan(ωh/2) per step
    x, v = closed_form(np.arange(t.size) * 2 * np.arctan(w * dt / 2))
    assert np.abs(res["slide.q"] - x).max() < 1e-12
    assert np.abs(res["slide.qd"] - v).max() < 1e-11
    # and the continuous solution up to that phase error, ω³h²t/12 times the amplitude
    x, v = closed_form(w * t)
    lag = w**3 * dt**2 * t[-1] / 12 * np.hypot(x0 - xeq, v0 / w)
    assert 0.5 * lag < np.abs(res["slide.q"] - x).max() < 1.01 * lag
    assert np.abs(res["slide.qd"] - v).max() < 1.01 * w * lag
    assert res["slide.q"][0] == pytest.approx(x0, abs=1e-15)
    assert res["slide.qd"][0] == pytest.approx(v0, abs=1e-15)
    assert res.unit("slide.q") == "m" and res.unit("slide.qd") == "m/s"
    assert res.unit("slide.tau[0]") == "N" and res.unit("slide.F[0]") == "N"
    # the spring's force is the co-energy of its state
    assert np.abs(res["slide.spring[0]"] - k * (res["slide.s[0]"] - ref)).max() < 1e-12
    F = np.stack([res[f"slide.F[{i}]"] for i in range(3)], axis=1)
    assert np.abs(F - (-m * (g - (g @ e) * e))).max() < 1e-10
    # moment about the anchor: c × m (a − g) with the step's mean acceleration Δv/h
    a = np.outer(np.diff(res["slide.qd"]) / np.diff(t), e)
    M = np.stack([res[f"slide.M[{i}]"] for i in range(3)], axis=1)[1:]
    assert np.abs(M - np.cross([0.1, 0.05, 0.0], m * (a - g))).max() < 1e-9


def test_an_angle_is_continuous_past_pi_and_starts_at_the_given_turn() -> None:
    """A rotor spinning at 7 rad/s about its axis, started at 5 rad (beyond π): its
    angle runs on continuously, 5 + 7t (the midpoint rule turns by 2 atan(ωh/2) per
    step), and its rate stays 7 rad/s."""
    mech = Mechanism()
    mech.add_body("rotor", 1.0, [0.1, 0.1, 0.2])
    mech.add_joint("axle", "revolute", "ground", "rotor")
    h = 1e-3
    res = mech.simulate(2.0, {"axle": 5.0}, {"axle": 7.0}, dt=h)
    n = np.arange(len(res.t))
    assert np.abs(res["axle.q"] - (5.0 + n * 2 * np.arctan(7.0 * h / 2))).max() < 1e-11
    assert np.abs(res["axle.q"] - (5.0 + 7.0 * res.t)).max() < 7.0**3 * h**2 * 2.0 / 12 * 1.01
    assert np.abs(res["axle.qd"] - 7.0).max() < 1e-12
    assert res["rotor.yaw"][-1] == pytest.approx(res["axle.q"][-1] - 2 * np.pi, abs=1e-12)
    # another run of the same mechanism from another turn: each result keeps its own
    other = mech.simulate(0.01, {"axle": 5.0 - 4 * np.pi}, dt=h)
    assert other["axle.q"][0] == pytest.approx(5.0 - 4 * np.pi, abs=1e-12)
    assert res["axle.q"][0] == 5.0


@pytest.mark.parametrize("kind", ["revolute", "prismatic", "cylindrical", "universal",
                                  "spherical", "planar"])
def test_joint_rates_are_the_derivatives_of_the_coordinates(kind: str) -> None:
    """Two joints with skew axes and offset anchors in 3-D: each coordinate starts at
    the given value, each rate at the given rate, and the rates (from the momenta)
    equal the central differences of the coordinates to O(h²)."""
    mech = two_joints(kind)
    dof = mech.joints["j"].dof
    q0 = {"j": np.linspace(0.3, 0.7, dof), "k": np.linspace(-0.4, 0.2, dof)}
    v0 = {"j": np.linspace(0.5, -0.3, dof), "k": np.linspace(1.0, 0.4, dof)}
    res = mech.simulate(0.5, q0, v0, dt=5e-4)
    for jn in "jk":
        names = [f"{jn}.q"] if dof == 1 else [f"{jn}.q[{i}]" for i in range(dof)]
        for i, name in enumerate(names):
            q, qd = res[name], res[name.replace(".q", ".qd")]
            assert q[0] == pytest.approx(q0[jn][i], abs=1e-12)
            assert qd[0] == pytest.approx(v0[jn][i], abs=1e-9)
            central = (q[2:] - q[:-2]) / (res.t[2:] - res.t[:-2])
            assert np.abs(central - qd[1:-1]).max() < 1e-5 * np.abs(qd).max()  # ≤ 1.2e-6
            assert res.variable(name).role == "joint" and name in res.shown
        assert np.array_equal(res.joint(jn), np.stack([res[n] for n in names], axis=1))


def test_a_body_without_joints_shows_its_position_and_attitude() -> None:
    """A free body thrown in gravity: its centre of mass follows c₀ + v₀t + ½gt² (the
    midpoint rule is exact for it) and its angles stay 0."""
    mech = Mechanism(gravity=[0.0, 0.0, -9.81])
    mech.add_body("ball", 0.5, [0.01, 0.01, 0.01], com=[0.1, 0.0, 0.0])
    res = mech.simulate(1.0, dt=1e-2, twists={"ball": [0, 0, 0, 1.0, 0.0, 2.0]})
    assert set(res.shown) == {f"ball.{s}" for s in ("x", "y", "z", "roll", "pitch", "yaw")}
    assert np.abs(res["ball.x"] - (0.1 + res.t)).max() < 1e-12
    assert np.abs(res["ball.z"] - (2.0 * res.t - 9.81 / 2 * res.t**2)).max() < 1e-12
    assert np.abs(res["ball.yaw"]).max() == 0.0 and res.unit("ball.z") == "m"
    assert res.unit("ball.P[3]") == "N*s" and res.unit("ball.p[0]") == "m"


def test_the_symbolic_system_has_the_same_variables() -> None:
    mech = _slider(np.array([1.0, 0.0, 0.0]), 10.0, 1.0, 0.0)
    numeric, symbolic = mech.assemble(), mech.system()
    assert [o.name for o in symbolic.quantities.observables] \
        == [o.name for o in numeric.quantities.observables]
    assert dict(symbolic.quantities.states) == dict(numeric.quantities.states)
    assert set(symbolic.quantities.states) == set(symbolic.states)


def test_flexible_mechanism_results_have_joint_angles() -> None:
    """A hub pendulum whose rod is a flexible link: the pivot angle starts at q0 and
    its rate is the hub's angular velocity; the rod's joint reaction carries the weight
    of a mechanism hanging at rest."""
    rod = D.spatial_beam(1.0, 0.01, 1e-6, 1e7, 1e4, 1e7, 1e4, elements=2, left="velocity",
                         right="port")
    mech = Mechanism(gravity=[0.0, -9.81, 0.0])
    mech.add_body("hub", 0.1, [1e-3, 1e-3, 1e-3])
    mech.add_body("tip", 1.0, [1e-3, 1e-3, 1e-3])
    mech.add_joint("pivot", "revolute", "ground", "hub")
    mech.add_flexible_link("rod", rod, "hub", "tip", direction=[0, -1, 0])
    res = mech.simulate(0.05, {"pivot": 0.02}, dt=5e-3)
    assert res["pivot.q"][0] == pytest.approx(0.02, abs=1e-14)
    assert np.abs(res["pivot.qd"] - res["hub.w[2]"]).max() < 1e-12
    assert res.shown == ["pivot.q", "pivot.qd"]
    assert res.unit("pivot.F[1]") == "N"
