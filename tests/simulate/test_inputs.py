"""Input signals: CSV tables, output feedback and a controller PHS connected by ports."""

from __future__ import annotations

import numpy as np
import pytest
from sim_systems import damped_solution, oscillator

from porthamiltonian import PHS, ModelError
from porthamiltonian.simulate import Tabulated, simulate, simulate_feedback


def test_linear_csv_reproduces_the_expression_input(tmp_path):
    # min(2t, 1) is piecewise linear with its kink on a sample: the linear table is exact
    path = tmp_path / "force.csv"
    path.write_text("t,F\n0,0\n0.5,1\n3,1\n")
    kw = {"method": "midpoint", "dt": 0.01}
    a = simulate(oscillator(c=0.3), (0.0, 3.0), [0.2, 0.0], u=str(path), **kw)
    b = simulate(oscillator(c=0.3), (0.0, 3.0), [0.2, 0.0], u="min(2*t, 1)", **kw)
    np.testing.assert_allclose(a.x, b.x, rtol=0, atol=1e-14)
    np.testing.assert_allclose(a["F"], np.minimum(2 * a.t, 1.0), atol=1e-15)


def test_zero_order_hold_table_lands_steps_on_its_samples(tmp_path):
    path = tmp_path / "u.csv"
    path.write_text("# a step of 2 N at 0.237 s\ntime,F,other\n0,0,5\n0.237,2,5\n3,2,5\n")
    table = Tabulated.from_csv(path, columns="F", kind="zoh")
    a = simulate(oscillator(), (0.0, 3.0), [0.0, 0.0], u={"F": table}, dt=0.01)
    assert 0.237 in a.t  # 0.237 is not on the 0.01 grid: a step ends there
    # F = 2 from t = 0.237 s on: q = 2(1 − cos(t − 0.237)) to the midpoint's O(h²)
    s = np.clip(a.t - 0.237, 0.0, None)
    np.testing.assert_allclose(a["q"], 2 * (1 - np.cos(s)), atol=2e-4)


def test_csv_errors_name_file_line_and_column(tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("t,F\n0,0\n1,abc\n")
    with pytest.raises(ModelError, match=r"bad.csv:3: column 'F': 'abc' is not a number"):
        Tabulated.from_csv(path)
    path.write_text("t,F\n0,0\n1,1\n0.5,2\n")
    with pytest.raises(ModelError, match=r"bad.csv:4: time 0.5 s"):
        Tabulated.from_csv(path)
    path.write_text("t,F\n0,0\n1,1\n")
    with pytest.raises(ModelError, match="no column 'V'"):
        Tabulated.from_csv(path, columns=["V"])
    with pytest.raises(ModelError, match=r"covers t = 0 … 1 s"):
        simulate(oscillator(), (0.0, 2.0), [0.0, 0.0], u=str(path), dt=0.1)


def test_output_feedback_is_damping_injection():
    # u = −c y with y = v = p/m: the closed loop is q̈ + c q̇ + k q = 0 (closed form)
    k, c = 4.0, 0.4
    res = simulate(oscillator(k=k), (0.0, 3.0), [1.0, 0.0], u=lambda t, x, y: -c * y[0],
                   method="gauss2", dt=0.01)
    np.testing.assert_allclose(res.x, damped_solution(res.t, k, c), atol=1e-8)


def test_output_feedback_with_feedthrough_is_an_algebraic_loop():
    sys = PHS(G=[[1.0]], Q=[[1.0]], S=[[0.5]], states=["q"], inputs=["i"])
    with pytest.raises(ModelError, match="algebraic loop"):
        simulate(sys, (0.0, 1.0), [1.0], u=lambda t, x, y: -y[0], dt=0.1)


def test_controller_phs_by_ports_gives_the_closed_loop_oscillator():
    # plant: a free unit mass (p, force F, output velocity v); controller: a virtual spring
    # k_c with a damper c (feed-through S = c) on its velocity port.  u_plant = −y_ctrl
    # = −(k_c q_c + c v): the closed loop is q̈ + c q̇ + k_c q = 0 with q = q_c.
    kc, c = 4.0, 0.4
    mass = PHS(G=[[1.0]], Q=[[1.0]], states=["p"], inputs=["F"], outputs=["v"])
    ctrl = PHS(G=[[1.0]], Q=[[kc]], S=[[c]], states=["qc"], inputs=["vc"], outputs=["Fc"])
    res = simulate_feedback(mass, ctrl, [("F", "vc")], (0.0, 3.0), [0.0], [1.0],
                            method="gauss2", dt=0.01)
    exact = damped_solution(res.t, kc, c)
    np.testing.assert_allclose(res["qc"], exact[:, 0], atol=1e-8)
    np.testing.assert_allclose(res["p"], exact[:, 1], atol=1e-8)
    # the interconnection is power conserving: H drops by exactly the damper's work
    assert res.H[0] - res.H[-1] == pytest.approx(np.sum(res.work_dissipated), rel=1e-10)


def test_csv_file_per_input_name_equals_the_whole_vector_form(tmp_path):
    path = tmp_path / "force.csv"
    path.write_text("t,F\n0,0\n0.5,1\n3,1\n")
    a = simulate(oscillator(c=0.3), (0.0, 3.0), [0.2, 0.0], u={"F": str(path)}, dt=0.01)
    b = simulate(oscillator(c=0.3), (0.0, 3.0), [0.2, 0.0], u=str(path), dt=0.01)
    np.testing.assert_array_equal(a.x, b.x)


def test_streamed_file_holds_the_same_rows_as_the_in_memory_result(tmp_path):
    # 6000 saved points: more than one streamed block (4096 rows)
    kw = {"u": "sin(3*t)", "dt": 1e-3}
    full = simulate(oscillator(c=0.3), (0.0, 6.0), [0.1, 0.0], **kw)
    full.to_csv(tmp_path / "memory.csv")
    short = simulate(oscillator(c=0.3), (0.0, 6.0), [0.1, 0.0], stream=tmp_path / "s.csv", **kw)
    streamed = np.loadtxt(tmp_path / "s.csv", delimiter=",", skiprows=1)
    np.testing.assert_array_equal(streamed, np.loadtxt(tmp_path / "memory.csv", delimiter=",",
                                                       skiprows=1))
    # the kept first and last points carry the whole run's energy bookkeeping
    assert short.t.tolist() == [0.0, 6.0]
    assert short.work_supplied[1] == pytest.approx(full.work_supplied.sum(), rel=1e-12)
    assert short.work_dissipated[1] == pytest.approx(full.work_dissipated.sum(), rel=1e-12)
    assert short.H[1] - short.H[0] == pytest.approx(
        short.work_supplied[1] - short.work_dissipated[1], rel=1e-10)
