"""Storages fixed by sources: the input-derivative model (bondgraph/forced.py).

Expected models are derived here by hand from the element laws (Kirchhoff, Newton);
the servo's response is checked against the matrix-exponential solution of its two
mechanical equations, independent of the simulator.
"""

from __future__ import annotations

import pathlib

import numpy as np
import pytest
import scipy.linalg as sla
import sympy as sp

from porthamiltonian import DescriptorPHS, NoExplicitFormError
from porthamiltonian.bondgraph import BondGraph, analyze_causality, to_descriptor, to_phs
from porthamiltonian.cli import main
from porthamiltonian.errors import ModelError
from porthamiltonian.expr import T
from porthamiltonian.io import load_model, simulate_model
from porthamiltonian.io.derivative_inputs import SplineInput, with_input_derivatives
from porthamiltonian.io.simulation import simulation_system
from porthamiltonian.simulate import Tabulated

MODEL = pathlib.Path(__file__).parents[2] / "examples" / "models" / "servo_current.yaml"
VALUES = {"R_a": 2.0, "L_a": 1.0e-3, "K": 0.05, "J": 1.2e-4, "b": 1.1e-4, "k_r": 0.05}


def graph(elements, bonds, parameters=None) -> BondGraph:
    bg = BondGraph("g", parameters=parameters or {})
    for e in elements:
        bg.add(*e[:2], **(e[2] if len(e) > 2 else {}))
    for a, b in bonds:
        bg.connect(a, b)
    return bg


def servo() -> BondGraph:
    """Sf I_s → 1{Ra, La} → GY K → 1{Jt, bf, kr}: the current-controlled servo."""
    return graph([("I_s", "Sf"), ("je", "1"), ("Ra", "R", {"r": "R_a"}), ("La", "I", {"i": "L_a"}),
                  ("mot", "GY", {"ratio": "K"}), ("jm", "1"), ("Jt", "I", {"i": "J"}),
                  ("bf", "R", {"r": "b"}), ("kr", "C", {"c": "1/k_r"})],
                 [("I_s", "je"), ("je", "Ra"), ("je", "La"), ("je", "mot"), ("mot", "jm"),
                  ("jm", "Jt"), ("jm", "bf"), ("jm", "kr")], VALUES)


@pytest.mark.parametrize("symbolic", [True, False])
def test_servo_model_matches_the_motor_equations(symbolic):
    """J ω̇ = K i − b ω − k_r θ, θ̇ = ω with i = I_s imposed; the source's voltage
    V = R_a i + L_a di/dt + K ω; the derivative port's output is −L_a i."""
    sys = to_phs(servo(), symbolic=symbolic)
    assert sys.states == ("Jt", "kr")
    assert sys.inputs == ("I_s", "I_s.dot") and sys.outputs == ("I_s.e", "I_s.dot.p")
    assert sys.input_derivatives == {"I_s.dot": "I_s"}
    assert "La" in sys.reduction and "I_s.dot" in sys.reduction and "I_s → je → La" in sys.reduction
    p, th, i, di = 3.0e-3, 0.2, 0.4, 30.0
    w = p / VALUES["J"]
    v = VALUES
    np.testing.assert_allclose(sys.rhs([p, th], [i, di]),
                               [v["K"] * i - v["b"] * w - v["k_r"] * th, w], rtol=1e-12)
    np.testing.assert_allclose(sys.output([p, th], [i, di]),
                               [v["R_a"] * i + v["L_a"] * di + v["K"] * w, -v["L_a"] * i],
                               rtol=1e-12)
    # the inductor's energy is not in H: only the rotor's and the spring's
    np.testing.assert_allclose(sys.energy([p, th]), p**2 / (2 * v["J"]) + v["k_r"] * th**2 / 2,
                               rtol=1e-12)
    fixed = sp.sympify(sys.fixed["La"]).subs("L_a", v["L_a"])  # the state La, of the input
    assert float(fixed.subs("I_s", 2.0)) == pytest.approx(2.0 * v["L_a"], rel=1e-12)


def test_power_balance_holds_symbolically_with_the_fixed_storage_energy():
    """dH/dt = u·y_u + u̇·y_u̇ − d identically, and u̇·y_u̇ = −d/dt(½ L_a u²): what the
    source delivers, u·y_u, fills the rotor and spring, the inductor, or is dissipated."""
    sys = to_phs(servo(), symbolic=True)
    x = sp.Matrix(sys.x)
    u, du = sp.symbols("I_s I_s_dot", real=True)
    w = sp.Matrix([u, du])
    grad = sp.Matrix([sys.hamiltonian]).jacobian(x).T
    xdot = (sys.J - sys.R) * grad + (sys.G - sys.P) * w
    y = (sys.G + sys.P).T * grad + (sys.M + sys.S) * w
    dH = (grad.T * xdot)[0, 0]
    L, Ra, b, Jm = (sp.Symbol(n, positive=True) for n in ("L_a", "R_a", "b", "J"))
    omega = x[0] / Jm
    dissipation = Ra * u**2 + b * omega**2
    H_fixed = L * u**2 / 2
    dH_fixed = sp.diff(H_fixed, u) * du  # chain rule, u̇ = du
    assert sp.simplify(du * y[1] + dH_fixed) == 0
    assert sp.simplify(dH + dH_fixed + dissipation - u * y[0]) == 0


def _closed_form_servo(t: np.ndarray, I0: float, tau: float) -> np.ndarray:
    """ω(t) of x' = A x + B i(t), i = I0 (1 − e^{−t/τ}), x = (ω, θ), x(0) = 0:
    x(t) = A⁻¹(e^{At} − I) B I0 − (A + I/τ)⁻¹(e^{At} − e^{−t/τ} I) B I0."""
    v = VALUES
    A = np.array([[-v["b"] / v["J"], -v["k_r"] / v["J"]], [1.0, 0.0]])
    B = np.array([v["K"] / v["J"], 0.0])
    E = np.eye(2)
    out = []
    for tk in t:
        eA = sla.expm(A * tk)
        x = (np.linalg.solve(A, (eA - E) @ B)
             - np.linalg.solve(A + E / tau, (eA - np.exp(-tk / tau) * E) @ B)) * I0
        out.append(x[0])
    return np.array(out)


@pytest.fixture(scope="module")
def servo_run():
    model = load_model(MODEL)
    return model, simulate_model(model, t_end=0.3)


def test_servo_speed_follows_the_closed_form_response_to_a_current_step(servo_run):
    model, res = servo_run
    I0, tau = model.parameter_settings()["I0"], model.parameter_settings()["tau"]
    t = res.t[::200]
    expected = _closed_form_servo(t, float(I0), float(tau))
    speed = res["Jt.w"][::200]
    scale = np.max(np.abs(expected))
    assert scale > 1.0  # it moved: ~4 rad/s peaks
    np.testing.assert_allclose(speed, expected, atol=1e-5 * scale)
    # the inductor's current is the source's, and its flux linkage L_a i
    np.testing.assert_allclose(res["La.i"], res["I_s"], rtol=1e-12)
    np.testing.assert_allclose(res["La"], VALUES["L_a"] * res["I_s"], rtol=1e-12)


def test_servo_power_balance_counts_the_source_power_into_the_inductor(servo_run):
    """ΔH + ΔH_La + ∫(R_a i² + b ω²) = ∫ I_s·V, with V the source's voltage (which
    includes L_a di/dt): every joule the current source delivers is accounted for.
    Midpoint values of each step, as the midpoint rule uses them."""
    model, res = servo_run
    sys = simulation_system(model)
    h = np.diff(res.t)
    tm = res.t[:-1] + h / 2
    I0, tau = 0.5, 2.0e-3
    i = I0 * (1 - np.exp(-tm / tau))
    di = I0 / tau * np.exp(-tm / tau)
    xm = (res.x[1:] + res.x[:-1]) / 2
    V = np.array([sys.output(x, [a, b])[0] for x, a, b in zip(xm, i, di, strict=True)])
    supplied = np.sum(h * i * V)
    dissipated = np.sum(h * (VALUES["R_a"] * i**2 + VALUES["b"] * (xm[:, 0] / VALUES["J"])**2))
    stored = res["H"][-1] - res["H"][0] + res["H_fixed"][-1] - res["H_fixed"][0]
    assert supplied > 0.1  # J: mostly the armature resistance's heat
    assert abs(stored + dissipated - supplied) < 1e-6 * supplied
    # the simulator's own balance (both ports) closes to round-off
    assert np.max(np.abs(res.power_residual)) < 1e-12 * supplied


@pytest.mark.parametrize("symbolic", [True, False])
def test_capacitor_fixed_through_a_transformer_and_gyrator_chain(symbolic):
    """Sf u → TF n → GY r → 0{C, 1{L, R}}: the 0-junction's voltage is r n u, so
    q_C = C r n u (fixed), L i̇ = r n u − R i, and the source's effort is
    y = n r (C r n u̇ + i)."""
    vals = {"n": 3.0, "r": 0.5, "Cc": 2.0, "Ll": 0.25, "Rr": 4.0}
    bg = graph([("u", "Sf"), ("tf", "TF", {"ratio": "n"}), ("gy", "GY", {"ratio": "r"}),
                ("j0", "0"), ("C", "C", {"c": "Cc"}), ("j1", "1"), ("L", "I", {"i": "Ll"}),
                ("R", "R", {"r": "Rr"})],
               [("u", "tf"), ("tf", "gy"), ("gy", "j0"), ("j0", "C"), ("j0", "j1"),
                ("j1", "L"), ("j1", "R")], vals)
    rep = analyze_causality(bg)
    assert rep.fixed_by_sources == ["C"] and rep.integral == ["L"]
    assert "u → tf → gy → j0 → C" in rep.messages[0]
    sys = to_phs(bg, symbolic=symbolic)
    assert sys.states == ("L",) and sys.inputs == ("u", "u.dot")
    n, r, C, L, R = (vals[k] for k in ("n", "r", "Cc", "Ll", "Rr"))
    p, u, du = 0.3, 1.7, -2.2
    i = p / L
    np.testing.assert_allclose(sys.rhs([p], [u, du]), [r * n * u - R * i], rtol=1e-12)
    np.testing.assert_allclose(sys.output([p], [u, du]),
                               [n * r * (C * r * n * du + i), -C * (r * n) ** 2 * u], rtol=1e-12)
    assert float(sp.sympify(sys.fixed["C"]).subs({"u": 1.0, **vals})) == pytest.approx(C * r * n)


def test_to_descriptor_gives_the_same_model_without_constraints():
    d = to_descriptor(servo(), symbolic=False)
    e = to_phs(servo(), symbolic=False)
    assert isinstance(d, DescriptorPHS) and list(d.multipliers) == []
    assert list(d.inputs) == ["I_s", "I_s.dot"] and d.input_derivatives == {"I_s.dot": "I_s"}
    x, w = [2e-3, 0.1], [0.3, 5.0]
    np.testing.assert_allclose(d.output(x, w), e.output(x, w), rtol=1e-12)


def test_table_input_gets_a_smooth_derivative_close_to_the_analytic_one():
    """sin(2πt) sampled every 5 ms: the spline's derivative matches 2π cos(2πt) between
    the samples (cubic spline: O(h³)), and the input is the spline through the samples."""
    ts = np.linspace(0.0, 1.0, 201)
    table = Tabulated(ts, np.sin(2 * np.pi * ts), names=["I_s"])
    sys = to_phs(servo(), symbolic=False)
    inputs = with_input_derivatives(sys, {"I_s": table})
    u, du = inputs["I_s"], inputs["I_s.dot"]
    tm = (ts[1:] + ts[:-1]) / 2
    np.testing.assert_allclose([u(t) for t in ts], np.sin(2 * np.pi * ts), atol=1e-14)
    err = max(abs(du(t) - 2 * np.pi * np.cos(2 * np.pi * t)) for t in tm[5:-5])
    assert err < 1e-6 * 2 * np.pi
    # continuous across a sample (linear interpolation's slope would jump by ~1e-2 here)
    k = ts[100]
    assert abs(du(k - 1e-9) - du(k + 1e-9)) < 1e-6
    with pytest.raises(ModelError, match="zero-order-hold"):
        SplineInput(ts, np.sin(ts), kind="zoh", name="I_s")


def test_expression_inputs_are_differentiated_exactly_and_steps_refused():
    sys = to_phs(servo(), symbolic=False)
    expr = sp.Rational(1, 2) * (1 - sp.exp(-T / sp.Rational(1, 500)))
    got = with_input_derivatives(sys, {"I_s": expr})
    assert sp.simplify(got["I_s.dot"] - 250 * sp.exp(-500 * T)) == 0
    assert with_input_derivatives(sys, {"I_s": 0.5}) == {"I_s": 0.5}  # constant: zero rate
    with pytest.raises(ModelError, match=r"I_s .*smooth it"):
        with_input_derivatives(sys, {"I_s": "heaviside(t - 0.01)"})
    # a callable: central differences
    f = with_input_derivatives(sys, {"I_s": np.sin})["I_s.dot"]
    assert f(0.3) == pytest.approx(np.cos(0.3), rel=1e-9)


def test_causality_report_says_which_source_fixes_what_and_that_it_is_handled():
    rep = analyze_causality(servo())
    assert rep.fixed_by_sources == ["La"] and rep.integral == ["Jt", "kr"]
    (msg,) = rep.messages
    assert "La is in derivative causality, fixed by the source I_s" in msg
    assert "causal path I_s → je → La" in msg
    assert "handled" in msg and "(I_s.dot)" in msg and "differentiable" in msg


def test_nonlinear_fixed_storage_and_dependent_sources_are_refused():
    bg = graph([("u", "Se"), ("j", "0"), ("C1", "C", {"hamiltonian": "C1**4/4"}),
                ("r", "R", {"r": 1.0})], [("u", "j"), ("j", "C1"), ("j", "r")])
    with pytest.raises(NoExplicitFormError, match="C1.*fixed by the sources and nonlinear"):
        to_phs(bg)
    two = graph([("u1", "Se"), ("u2", "Se"), ("j", "0"), ("r", "R", {"r": 1.0})],
                [("u1", "j"), ("u2", "j"), ("j", "r")])
    with pytest.raises(NoExplicitFormError, match=r"dependent sources u[12]"):
        to_phs(two)


def test_cli_phs_simulate_and_check_exit_0_on_the_servo_model(capsys):
    assert main(["phs", str(MODEL)]) == 0
    out = capsys.readouterr().out
    assert "I_s.dot" in out and "note: the storage(s) La are fixed by the sources" in out
    assert main(["simulate", str(MODEL), "--t-end", "0.02", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "La.i" in out and "max |power residual|" in out
    assert main(["check", str(MODEL)]) == 0
    assert "handled" in capsys.readouterr().out


def test_model_file_with_a_step_input_is_refused_naming_the_line(tmp_path, capsys):
    text = MODEL.read_text().replace('inputs: {I_s: "I0*(1 - exp(-t/tau))"}',
                                     'inputs: {I_s: "I0*heaviside(t - 0.01)"}')
    bad = tmp_path / "step.yaml"
    bad.write_text(text)
    assert main(["simulate", str(bad), "--no-progress"]) == 2
    err = capsys.readouterr().err
    assert "step.yaml:" in err and "simulate.inputs" in err and "smooth it" in err
