"""Networks in model files (a ``network:`` section with components and connections)."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import EXAMPLES
from porthamiltonian import ModelError, SchemaError
from porthamiltonian.io import load_model
from porthamiltonian.io.build import build_system


def test_dc_motor_gear_model_file_reaches_the_closed_form_steady_state():
    sys = build_system(load_model(EXAMPLES / "models" / "dc_motor_gear.yaml"))
    assert list(sys.states) == ["motor.phi", "load.p"]
    V, R, k, n, bm, bf, JL = 12.0, 1.0, 0.05, 10.0, 1e-5, 2e-3, 2e-2
    # steady state: i = (V − k n ω)/R and n k i = (n² b_m + b_f) ω
    omega = n * k * V / (R * (n**2 * bm + bf) + (n * k) ** 2)
    i = (V - k * n * omega) / R
    A, B = sys.compile().A, sys.compile().B
    x = np.linalg.solve(np.asarray(A, float), -np.asarray(B, float) @ [V])
    assert x[1] / JL == pytest.approx(omega, rel=1e-12)
    assert sys.output(x, [V])[0] == pytest.approx(i, rel=1e-12)


MODEL = """
name: bad
parameters: {R: 1.0}
network:
  components:
    - {name: V, type: electrical.VoltageSource}
    - {name: R1, type: electrical.Resistor, R: R, X: 3}
    - {name: C1, type: electrical.Condenser, C: 1}
  connections:
    - [V.p, R2.p]
"""


def test_file_errors_name_the_line_and_the_fix():
    with pytest.raises(SchemaError) as err:
        load_model(MODEL)
    text = "\n".join(err.value.problems)
    assert "<string>:7: network.components[1] (R1): unknown key 'X'" in text
    assert "unknown component type 'electrical.Condenser'" in text
    assert "electrical.Capacitor" in text  # the list of known types
    assert "unknown component 'R2' in 'R2.p'" in text


def test_physics_errors_of_a_file_name_the_ports():
    text = """
name: parallel-sources
network:
  components:
    - {name: V1, type: electrical.VoltageSource}
    - {name: V2, type: electrical.VoltageSource}
    - {name: R, type: electrical.Resistor, R: 2}
  connections:
    - {junction: "0", ports: [V1.p, V2.p, R.p]}
"""
    with pytest.raises(ModelError, match=r"network: over-determined.*V1\.p.*V2\.p"):
        build_system(load_model(text))


def test_named_junctions_in_a_file_build_a_ladder():
    text = """
name: two-section-ladder
network:
  components:
    - {name: u, type: electrical.VoltageSource}
    - {name: L0, type: electrical.Inductor, L: 1.0e-3}
    - {name: C0, type: electrical.Capacitor, C: 1.0e-6}
    - {name: L1, type: electrical.Inductor, L: 1.0e-3}
    - {name: C1, type: electrical.Capacitor, C: 1.0e-6}
  connections:
    - {junction: "1", ports: [u.p, L0.p], name: s0}
    - {junction: "0", ports: [s0, C0.p], name: p0}
    - {junction: "1", ports: [p0, L1.p], name: s1}
    - {junction: "0", ports: [s1, C1.p]}
"""
    sys = build_system(load_model(text))
    # lossless LC ladder: purely imaginary eigenvalues ±i·ω with ω² the roots of
    # LC ω⁴ ... by hand: ω² = (3 ± √5)/(2 L C)
    eig = np.linalg.eigvals(np.asarray(sys.compile().A, dtype=float))
    omega2 = np.sort(np.unique(np.round(-np.real(eig * eig), 3)))
    LC = 1e-3 * 1e-6
    assert np.allclose(omega2, np.sort([(3 - 5**0.5) / (2 * LC), (3 + 5**0.5) / (2 * LC)]),
                       rtol=1e-9)
