"""Every bond-graph model in ``examples/models`` against equations derived here.

The reference equations come from the element laws alone — Kirchhoff/Newton by hand,
or a SymPy Euler–Lagrange derivation with a Rayleigh dissipation function and the
gyrator's generalized forces — never from the generator.  For each model: the same
ẋ and y at random states and inputs (symbolic and numeric generation), J = −Jᵀ,
M = −Mᵀ, [[R, P], [Pᵀ, S]] ⪰ 0, the model order, and static facts (equilibria).
"""

from __future__ import annotations

import zlib
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import sympy as sp

from porthamiltonian.bondgraph import BondGraph, to_phs
from porthamiltonian.cli import main
from porthamiltonian.io import load_model

MODELS = Path(__file__).resolve().parents[2] / "examples" / "models"
Ref = Callable[[dict, dict, dict], tuple[dict, dict]]


# ---------------------------------------------------------------------- Lagrange
def lagrange(coords: list[str], T: sp.Expr, V: sp.Expr, D: sp.Expr,
             forces: dict[str, sp.Expr], q: dict, qd: dict, inputs: list[sp.Symbol]):
    """Accelerations from d/dt ∂L/∂q̇ − ∂L/∂q + ∂D/∂q̇ = Q (L = T − V), as a function."""
    qdd = {c: sp.Symbol(f"{c}_dd") for c in coords}
    Lag = T - V
    eqs = []
    for c in coords:
        dL = sp.diff(Lag, qd[c])
        ddt = sum(sp.diff(dL, q[j]) * qd[j] + sp.diff(dL, qd[j]) * qdd[j] for j in coords)
        eqs.append(ddt - sp.diff(Lag, q[c]) + sp.diff(D, qd[c]) - forces.get(c, 0))
    sol = sp.solve(eqs, [qdd[c] for c in coords], dict=True)[0]
    args = [q[c] for c in coords] + [qd[c] for c in coords] + inputs
    return sp.lambdify(args, [sol[qdd[c]] for c in coords], "numpy")


def sym(*names: str) -> list[sp.Symbol]:
    return [sp.Symbol(n, real=True) for n in names]


# ---------------------------------------------------------------------- references
def series_rlc(p, x, u):
    i = x["L1"] / p["L"]
    return {"C1": i, "L1": u["u"] - p["R"] * i - x["C1"] / p["C"]}, {"u": i}


def parallel_rlc(p, x, u):
    v, i_L = x["C1"] / p["C"], x["L1"] / p["L"]
    return {"C1": u["i"] - v / p["R"] - i_L, "L1": v}, {"i": v}  # KCL; L di/dt = v


def dc_motor(p, x, u):
    i, w = x["La"] / p["L_a"], x["Jr"] / p["J_r"]
    return ({"La": u["V"] - p["R_a"] * i - p["K"] * w, "Jr": p["K"] * i - p["b"] * w},
            {"V": i})


def hydraulic_cylinder(p, x, u):
    pr = x["Coil"] * p["beta"] / p["V_0"]         # chamber pressure
    v = x["mass"] / p["m"]
    Q = (u["Ps"] - pr) / p["R_l"]                  # line flow
    return {"Coil": Q - p["A"] * v, "mass": p["A"] * pr - p["b"] * v}, {"Ps": Q}


def crank_mtf(p, x, u):
    th, w = x["Th"], x["Jc"] / p["J_c"]
    v = p["r"] * np.cos(th) * w                    # Scotch yoke: x = r sin θ
    F = p["k_s"] * x["ks"] + p["c_s"] * v          # slider spring and damper force
    torque = u["tau"] - p["b_c"] * w - p["k_th"] * th - p["r"] * np.cos(th) * F
    return {"Jc": torque, "Th": w, "ks": v}, {"tau": w}


def boost_switched(p, x, u):
    i, v, on = x["Lb"] / p["L"], x["Cb"] / p["C"], 1 - p["S"]  # on: the diode conducts
    return {"Lb": u["E"] - on * v, "Cb": on * i - v / p["R_load"]}, {"E": i}


def duffing(p, x, u):
    q, v = x["K1"], x["M1"] / p["m"]
    return ({"K1": v, "M1": u["F"] - p["k"] * q - p["k3"] * q**3 - p["b"] * v}, {"F": v})


def mass_spring_damper(p, x, u):
    q, v = x["spring"], x["mass"] / p["m"]       # spring compliance 1/k
    return ({"spring": v, "mass": u["F"] - p["k"] * q - p["c"] * v}, {"F": v})


def planar(p, x, u):
    K = np.array([[p["kx"], p["kxy"]], [p["kxy"], p["ky"]]])
    D = np.diag([p["d"], 2 * p["d"]])
    q, mom = np.array([x["K[0]"], x["K[1]"]]), np.array([x["Mass[0]"], x["Mass[1]"]])
    F = np.array([u["F[0]"], u["F[1]"]])
    v = mom / p["m"]
    dp = F - K @ q - D @ v
    return ({"K[0]": v[0], "K[1]": v[1], "Mass[0]": dp[0], "Mass[1]": dp[1]},
            {"F[0]": v[0], "F[1]": v[1]})


def servo1(p, x, u):
    # (b + K²/R) θ̇ = K V/R − k θ: motor torque K i with i = (V − K θ̇)/R
    w = (p["K"] * u["V"] / p["R_a"] - p["k_r"] * x["kr"]) / (p["b"] + p["K"] ** 2 / p["R_a"])
    return {"kr": w}, {"V": (u["V"] - p["K"] * w) / p["R_a"]}


def _elevator_lagrange(p):
    Qe, th, y = sym("Q", "th", "y")
    Qd, thd, yd = sym("Qd", "thd", "yd")
    V, Fg = sym("V", "Fg")
    T = p["L_a"] * Qd**2 / 2 + p["J_d"] * thd**2 / 2 + p["M_c"] * yd**2 / 2
    Vp = p["k_c"] * (p["r"] * th - y) ** 2 / 2    # cable stretched when the drum winds up
    D = p["R_a"] * Qd**2 / 2 + p["b_d"] * thd**2 / 2 + p["d_c"] * yd**2 / 2
    forces = {"Q": V - p["K"] * thd, "th": p["K"] * Qd, "y": Fg}  # back emf, torque, weight
    q, qd = {"Q": Qe, "th": th, "y": y}, {"Q": Qd, "th": thd, "y": yd}
    return lagrange(["Q", "th", "y"], T, Vp, D, forces, q, qd, [V, Fg])


def elevator(p, x, u):
    acc = _cached(("elevator", tuple(sorted(p.items()))), lambda: _elevator_lagrange(p))
    Qd, thd, yd = x["La"] / p["L_a"], x["Jd"] / p["J_d"], x["cabin"] / p["M_c"]
    th, y = x["cable"] / p["r"], 0.0              # only the stretch r θ − y matters
    Qdd, thdd, ydd = acc(0.0, th, y, Qd, thd, yd, u["V"], u["Fg"])
    return ({"La": p["L_a"] * Qdd, "Jd": p["J_d"] * thdd, "cable": p["r"] * thd - yd,
             "cabin": p["M_c"] * ydd}, {"V": Qd, "Fg": yd})


def _servo_lagrange(p, torsion: bool):
    Qe, tm, tl = sym("Q", "tm", "tl")
    Qd, tmd, tld = sym("Qd", "tmd", "tld")
    (V,) = sym("V")
    if torsion:  # motor and load inertia on a torsion spring
        T = p["L_a"] * Qd**2 / 2 + p["J_m"] * tmd**2 / 2 + p["J_l"] * tld**2 / 2
        Vp = p["k_s"] * (tm - tl) ** 2 / 2 + p["k_r"] * tl**2 / 2
        D = p["R_a"] * Qd**2 / 2 + p["b_m"] * tmd**2 / 2 + p["b_l"] * tld**2 / 2
        coords = ["Q", "tm", "tl"]
    else:        # one rigid inertia: θ_m = θ_l
        T = p["L_a"] * Qd**2 / 2 + p["J"] * tmd**2 / 2
        Vp = p["k_r"] * tm**2 / 2
        D = p["R_a"] * Qd**2 / 2 + p["b"] * tmd**2 / 2
        coords = ["Q", "tm"]
    q = {"Q": Qe, "tm": tm, "tl": tl}
    qd = {"Q": Qd, "tm": tmd, "tl": tld}
    forces = {"Q": V - p["K"] * tmd, "tm": p["K"] * Qd}
    return lagrange(coords, T, Vp, D, forces, q, qd, [V])


def servo3(p, x, u):
    acc = _cached(("servo3", tuple(sorted(p.items()))), lambda: _servo_lagrange(p, False))
    Qd, w = x["La"] / p["L_a"], x["Jt"] / p["J"]
    Qdd, wd = acc(0.0, x["kr"], Qd, w, u["V"])
    return {"La": p["L_a"] * Qdd, "Jt": p["J"] * wd, "kr": w}, {"V": Qd}


def servo5(p, x, u):
    acc = _cached(("servo5", tuple(sorted(p.items()))), lambda: _servo_lagrange(p, True))
    Qd, wm, wl = x["La"] / p["L_a"], x["Jm"] / p["J_m"], x["Jl"] / p["J_l"]
    tl = x["kr"]
    tm = x["ks"] + tl                              # the twist is θ_m − θ_l
    Qdd, wmd, wld = acc(0.0, tm, tl, Qd, wm, wl, u["V"])
    return ({"La": p["L_a"] * Qdd, "Jm": p["J_m"] * wmd, "ks": wm - wl, "Jl": p["J_l"] * wld,
             "kr": wl}, {"V": Qd})


def servo_current(p, x, u):
    # the current source imposes i: J ω̇ = K i − b ω − k_r θ; its voltage R i + L di/dt + K ω;
    # the derivative port's output is −L i (bondgraph/forced.py)
    w, i, di = x["Jt"] / p["J"], u["I_s"], u["I_s.dot"]
    return ({"Jt": p["K"] * i - p["b"] * w - p["k_r"] * x["kr"], "kr": w},
            {"I_s": p["R_a"] * i + p["L_a"] * di + p["K"] * w, "I_s.dot": -p["L_a"] * i})


def dc_motor_block(p, x, u):
    # the motor alone, its ports open: no supply, no load
    i, w = x["La"] / p["L_a"], x["Jr"] / p["J_r"]
    return {"La": -p["R_a"] * i - p["K"] * w, "Jr": p["K"] * i - p["b"] * w}, {}


def two_motor_drive(p, x, u):
    # both armatures across V (KCL at the supply: its current is i1 + i2); motor 1 with
    # the fan on its shaft, motor 2 (rotor J2) twisting a spring towards the flywheel
    i1, w1 = x["m1.La"] / p["L_a"], x["m1.Jr"] / p["J_r"]
    i2, w2 = x["m2.La"] / p["L_a"], x["m2.Jr"] / p["J2"]
    tau, w_fw = p["k_s"] * x["ks"], x["Jfw"] / p["J_fw"]
    return ({"m1.La": u["V"] - p["R_a"] * i1 - p["K"] * w1,
             "m1.Jr": p["K"] * i1 - (p["b"] + p["b_fan"]) * w1,
             "m2.La": u["V"] - p["R_a"] * i2 - p["K"] * w2,
             "m2.Jr": p["K"] * i2 - p["b"] * w2 - tau,
             "ks": w2 - w_fw, "Jfw": tau - p["b_fw"] * w_fw},
            {"V": i1 + i2})


_CACHE: dict = {}


def _cached(key, make):
    if key not in _CACHE:
        _CACHE[key] = make()
    return _CACHE[key]


# file → (reference, model order)
EXAMPLES: dict[str, tuple[Ref, int]] = {
    "series_rlc.yaml": (series_rlc, 2),
    "parallel_rlc.yaml": (parallel_rlc, 2),
    "dc_motor.yaml": (dc_motor, 2),
    "hydraulic_cylinder.yaml": (hydraulic_cylinder, 2),
    "crank_mtf.yaml": (crank_mtf, 3),
    "boost_switched.yaml": (boost_switched, 2),
    "duffing_spring_mass.yaml": (duffing, 2),
    "mass_spring_damper.yaml": (mass_spring_damper, 2),
    "planar_mass_spring.yaml": (planar, 4),
    "elevator.yaml": (elevator, 4),
    "servo_order1.yaml": (servo1, 1),
    "servo_order3.yaml": (servo3, 3),
    "servo_order5.yaml": (servo5, 5),
    "servo_current.yaml": (servo_current, 2),
    "dc_motor_block.yaml": (dc_motor_block, 2),
    "two_motor_drive.yaml": (two_motor_drive, 6),
}


def test_every_bondgraph_example_has_a_reference():
    files = {f.name for f in MODELS.glob("*.yaml") if "bondgraph:" in f.read_text()}
    assert files == set(EXAMPLES)


# ---------------------------------------------------------------------- helpers
def generate(name: str, symbolic: bool):
    model = load_model(MODELS / name)
    return model, to_phs(BondGraph.from_model(model), symbolic=symbolic)


def values(model) -> dict[str, float]:
    return {k: float(v) for k, v in model.parameters.items()}


def numeric_matrices(system, x: np.ndarray) -> dict[str, np.ndarray]:
    """J, R, G, P, M, S as numbers at the state x (modulated elements)."""
    out = {}
    subs = {}
    if system.symbolic:
        subs = dict(system.parameter_values())
        subs.update(zip(system.state_symbols, x, strict=True))
    for k, A in system.matrices().items():
        if isinstance(A, sp.MatrixBase):
            A = np.array(sp.Matrix(A).xreplace(subs).evalf(), dtype=float)
        out[k] = np.asarray(A, dtype=float)
    return out


def random_point(system, rng) -> tuple[np.ndarray, np.ndarray]:
    return rng.normal(size=system.n_states), rng.normal(size=system.n_inputs)


# ---------------------------------------------------------------------- tests
PATHS = [pytest.param(n, s, id=f"{n}-{'symbolic' if s else 'numeric'}")
         for n in sorted(EXAMPLES) for s in (True, False)]


@pytest.mark.parametrize("name, symbolic", PATHS)
def test_generated_model_matches_the_element_laws(name, symbolic):
    ref, order = EXAMPLES[name]
    model, system = generate(name, symbolic=symbolic)
    p = values(model)
    assert system.n_states == order
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    for _ in range(4):
        x, u = random_point(system, rng)
        xd, y = ref(p, dict(zip(system.states, x, strict=True)),
                    dict(zip(system.inputs, u, strict=True)))
        expected_xd = np.array([xd[s] for s in system.states], dtype=float)
        # output k is the conjugate of input k (the source's flow or effort)
        expected_y = np.array([y[i] for i in system.inputs], dtype=float)
        np.testing.assert_allclose(system.rhs(x, u), expected_xd, rtol=1e-8,
                                   atol=1e-12 * np.abs(expected_xd).max())
        np.testing.assert_allclose(system.output(x, u), expected_y, rtol=1e-8,
                                   atol=1e-12 * np.abs(expected_y).max(initial=0))


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_structure_skew_symmetric_and_passive(name):
    _, system = generate(name, symbolic=True)
    rng = np.random.default_rng(7)
    for _ in range(3):
        m = numeric_matrices(system, rng.normal(size=system.n_states))
        J, M = m["J"], m["M"]
        assert np.allclose(J, -J.T, atol=1e-12 * (1 + np.abs(J).max()))
        assert np.allclose(M, -M.T, atol=1e-12 * (1 + np.abs(M).max(initial=0)))
        W = np.block([[m["R"], m["P"]], [m["P"].T, m["S"]]])
        assert np.allclose(W, W.T)
        assert np.linalg.eigvalsh(W).min() >= -1e-10 * (1 + np.abs(W).max())


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_numeric_and_symbolic_paths_agree(name):
    model, s_sys = generate(name, symbolic=True)
    _, n_sys = generate(name, symbolic=False)
    assert list(n_sys.states) == list(s_sys.states)
    assert list(n_sys.inputs) == list(s_sys.inputs)
    rng = np.random.default_rng(11)
    for _ in range(3):
        x = rng.normal(size=s_sys.n_states)
        ms, mn = numeric_matrices(s_sys, x), numeric_matrices(n_sys, x)
        for k in ms:
            np.testing.assert_allclose(mn[k], ms[k], rtol=1e-9, atol=1e-300)


def equilibrium(system, u: list[float]) -> np.ndarray:
    """The rest state of a linear PHS under constant u: (J − R) Q x + (G − P) u = 0."""
    m = numeric_matrices(system, np.zeros(system.n_states))
    Q = np.array(sp.Matrix(system.Q).xreplace(system.parameter_values()), dtype=float)
    return np.linalg.solve((m["J"] - m["R"]) @ Q, -(m["G"] - m["P"]) @ u)


@pytest.mark.parametrize("name", ["servo_order1.yaml", "servo_order3.yaml",
                                  "servo_order5.yaml"])
def test_servo_equilibrium_is_the_static_torque_balance(name):
    """At rest i = V/R_a and the motor torque K V/R_a is held by the spring: θ = K V/(R_a k_r),
    whatever the order of the model."""
    model, system = generate(name, symbolic=True)
    p = values(model)
    V = 3.0
    x = equilibrium(system, [V])
    theta = x[list(system.states).index("kr")]  # the C state is the angle itself
    assert theta == pytest.approx(p["K"] * V / (p["R_a"] * p["k_r"]), rel=1e-9)
    assert system.output(x, [V])[0] == pytest.approx(V / p["R_a"], rel=1e-9)  # current


def test_steady_states_of_the_motor_and_the_cylinder():
    model, motor = generate("dc_motor.yaml", symbolic=True)
    p = values(model)
    w = equilibrium(motor, [12.0])[list(motor.states).index("Jr")] / p["J_r"]
    assert w == pytest.approx(p["K"] * 12 / (p["R_a"] * p["b"] + p["K"] ** 2), rel=1e-9)
    model, cyl = generate("hydraulic_cylinder.yaml", symbolic=True)
    p = values(model)
    v = equilibrium(cyl, [p["P_s"]])[list(cyl.states).index("mass")] / p["m"]
    # flow A v through the line: A (P_s − R_l A v) = b v
    assert v == pytest.approx(p["A"] * p["P_s"] / (p["b"] + p["R_l"] * p["A"] ** 2), rel=1e-9)


def test_crank_modulation_keeps_the_slider_on_r_sin_theta():
    """ẋ_s = r cos θ · θ̇ along every motion: d/dt (x_s − r sin θ) = 0 from the model."""
    model, system = generate("crank_mtf.yaml", symbolic=True)
    r = values(model)["r"]
    rng = np.random.default_rng(3)
    i_th, i_ks = list(system.states).index("Th"), list(system.states).index("ks")
    for _ in range(5):
        x, u = random_point(system, rng)
        xd = system.rhs(x, u)
        assert xd[i_ks] - r * np.cos(x[i_th]) * xd[i_th] == pytest.approx(0, abs=1e-12)
    assert any(e.has(system.state_symbols[i_th]) for e in system.J)  # modulated J


@pytest.mark.parametrize("name, findings", [
    ("servo_order1.yaml", ["algebraic loop", "Ra, bf"]),
    ("servo_order3.yaml", ["integral causality (3): La, Jt, kr", "ok:"]),
    ("servo_order5.yaml", ["integral causality (5): La, Jm, ks, Jl, kr", "ok:"]),
    ("elevator.yaml", ["integral causality (4)", "ok:"]),
])
def test_check_reports_the_causality_of_the_worked_examples(name, findings, capsys):
    assert main(["check", str(MODELS / name)]) == 0
    out = capsys.readouterr().out
    for text in findings:
        assert text in out
    if "ok:" not in findings:
        assert "ok:" not in out
