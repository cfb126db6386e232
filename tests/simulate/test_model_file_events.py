"""State events in model files: ``simulate.events`` (zero crossings of an expression in the
states, outputs ``y.<name>``, inputs ``u.<name>``, parameters and t).

The test system is a lossless LC circuit (examples/models/lc_events.yaml: charge q,
flux φ, source u = 0 with the loop current i = φ/L as output): with q(0) = Q0 and
φ(0) = 0 the charge is q = Q0 cos ωt, ω = 1/√(LC), and the current i ∝ sin ωt.  So

- q crosses zero falling at (π/2 + 2kπ)/ω and rising at (3π/2 + 2kπ)/ω;
- the current crosses zero at kπ/ω (k ≥ 1; it starts at 0, which is not a crossing).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from conftest import EXAMPLES
from porthamiltonian import ModelError
from porthamiltonian.cli import main
from porthamiltonian.io import load_model, simulate_model

LC_FILE = EXAMPLES / "models" / "lc_events.yaml"
L, C = 0.5, 2.0e-3
W = 1.0 / np.sqrt(L * C)  # ω = 31.6 rad/s


def test_terminal_event_from_the_example_file_is_the_first_quarter_period(tmp_path):
    # the example stops at the first falling zero of q = Q0 cos ωt: t = π/(2ω)
    out = tmp_path / "lc.json"
    assert main(["simulate", str(LC_FILE), "--out", str(out), "--no-progress"]) == 0
    data = json.loads(out.read_text())
    t_stop = np.pi / (2 * W)
    assert data["t"][-1] == pytest.approx(t_stop, abs=1e-9)
    assert data["events"]["discharged"]["t"] == [data["t"][-1]]
    assert abs(data["events"]["discharged"]["states"]["q"][0]) <= 1e-9 * 1e-3
    # lossless and unforced: the energy is kept to round-off up to the event
    H = np.array(data["H"])
    assert np.max(np.abs(H - H[0])) <= 1e-12 * H[0]


def test_counted_terminal_event_and_an_output_event_from_python():
    text = LC_FILE.read_text().replace("terminal: true", "terminal: 2")
    model = load_model(text + "    - {name: no_current, when: \"y.i\"}\n")
    res = simulate_model(model)
    # second falling zero of q: (π/2 + 2π)/ω; current zeros before it: π/ω, 2π/ω
    np.testing.assert_allclose(res.t_events[0], np.array([0.5, 2.5]) * np.pi / W, atol=1e-9)
    np.testing.assert_allclose(res.t_events[1], np.array([1.0, 2.0]) * np.pi / W, atol=1e-9)
    assert res.t[-1] == pytest.approx(2.5 * np.pi / W, abs=1e-9)
    # at a current zero the charge is ±Q0 (all the energy in the capacitor)
    np.testing.assert_allclose(np.abs(res.x_events[1][:, 0]), 1.0e-3, rtol=1e-9)


def test_direction_and_time_in_the_expression():
    # rising zeros of q only, and an event of t alone at 0.1 s
    text = LC_FILE.read_text().replace("direction: falling, terminal: true",
                                       "direction: rising")
    model = load_model(text.replace("t_end: 1.0", "t_end: 0.4")
                       + "    - {name: clock, when: \"t - 0.1\", direction: 1}\n")
    res = simulate_model(model)
    rising = (1.5 + 2.0 * np.arange(3)) * np.pi / W
    np.testing.assert_allclose(res.t_events[0], rising[rising < 0.4], atol=1e-9)
    np.testing.assert_allclose(res.t_events[1], [0.1], atol=1e-12)
    assert res.t[-1] == 0.4


def test_events_of_a_network_model_use_the_assembled_state_names(tmp_path):
    # networks name their states after assembly (load.p): the event is parsed then; the
    # load speed rises from rest under 12 V and crosses 1 rad/s once
    text = (EXAMPLES / "models" / "dc_motor_gear.yaml").read_text()
    model = load_model(text + "  events:\n    - {name: spun_up, when: \"load.p/JL - 1\","
                       " terminal: true}\n")
    res = simulate_model(model)
    assert res.t_events[0].size == 1 and res.t[-1] == res.t_events[0][0]
    # the last point is a true step to the located time (adaptive midpoint, rtol 1e-6)
    assert res["load.p"][-1] / 2.0e-2 == pytest.approx(1.0, abs=1e-6)


@pytest.mark.parametrize(("event", "message"), [
    ('{name: bad, when: "q + zz"}',
     "simulate.events[1] (bad).when: unknown name 'zz'; allowed names: "),
    ('{name: bad, when: "q", direction: up}',
     "simulate.events[1] (bad).direction: 'up' is not a direction; use rising (− to +), "
     "falling (+ to −) or both"),
    ('{name: bad, when: "q", terminal: -1}',
     "simulate.events[1] (bad).terminal: use true/false, or a count k ≥ 1 to stop at the "
     "k-th occurrence; got -1"),
    ('{name: bad, at: "q"}', "simulate.events[1] (bad): unknown key 'at'; allowed keys in an "
     "event: name, when, direction, terminal"),
    ('{name: discharged, when: "q"}',
     "simulate.events[1] (discharged).name: two events are called 'discharged'"),
    ('{name: bad, when: "__import__(q)"}', "simulate.events[1] (bad).when: "),
])
def test_bad_events_name_the_line_and_key(tmp_path, capsys, event, message):
    bad = tmp_path / "bad.yaml"
    bad.write_text(LC_FILE.read_text() + f"    - {event}\n")
    line = len(bad.read_text().splitlines())
    with pytest.raises(ModelError) as err:
        load_model(bad)
    assert str(err.value).startswith(f"{bad}:{line}: {message}")
    assert main(["simulate", str(bad), "--no-progress"]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {bad}:{line}: {message}")


def test_unknown_name_in_a_network_event_is_found_with_its_line(tmp_path, capsys):
    """The names are known only after assembly: ``validate`` assembles and sets the run up
    as ``simulate`` does, so both report the event by line."""
    text = (EXAMPLES / "models" / "dc_motor_gear.yaml").read_text()
    bad = tmp_path / "bad.yaml"
    bad.write_text(text + "  events:\n    - {when: \"load.q\"}\n")
    line = len(bad.read_text().splitlines())
    assert main(["validate", str(bad)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[0].strip().startswith(f"{bad}:{line}: simulate.events[0].when: ")
    assert main(["simulate", str(bad), "--no-progress"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1
    assert err[0].startswith(f"error: {bad}:{line}: simulate.events[0].when: ")
    assert "'load.q'" in err[0] and "the names with a dot here are: load.p, motor.phi, " \
        "u.V.u, y.V.i" in err[0]


def test_events_on_a_symbolic_parameter_are_refused():
    text = LC_FILE.read_text().replace("Q0: 1.0e-3}", "Q0: 1.0e-3, level: null}")
    model = load_model(text.replace('when: "q"', 'when: "q - level"'))
    with pytest.raises(ModelError, match=r"simulate.events\[0\] \(discharged\)\.when: depends "
                                         r"on the parameter\(s\) level, which have no value"):
        simulate_model(model)
