"""A 2-D plate joined to a 1-D beam by the same ``feedback`` as every other pair of
pH systems: the plate's point port (force in, velocity out) drives the tip of a
Timoshenko beam (velocity in, force out)."""

from __future__ import annotations

import numpy as np
import pytest

import porthamiltonian as ph
from porthamiltonian.distributed import timoshenko
from porthamiltonian.distributed.domains import mindlin, rectangle

pytest.importorskip("skfem", reason="2-D models need the fem extra (scikit-fem)")


def _joined():
    plate = mindlin(rectangle(0.4, 0.3, 4, cell="quad"), 70e9, 0.3, 2700.0, 0.004,
                    boundary={"left": "clamped"}, points={"tip": (0.4, 0.15)})
    # a steel strip hanging from the plate's free edge: clamped at its far end, its
    # near end moves with the plate (translation driven, rotation free)
    beam = timoshenko(0.2, rhoA=7800 * 1e-4, rhoI=7800 * 1e-4 * 1e-4 / 12,
                      EI=210e9 * 1e-4 * 1e-4 / 12, kGA=0.85 * 81e9 * 1e-4,
                      elements=10, left="clamped", right=("velocity", "free"))
    joined = ph.feedback(plate.system, beam.system.rename(prefix="beam."),
                         [("F_tip", "beam.v_right")])
    return plate, beam, joined


def test_plate_and_beam_exchange_energy_and_conserve_the_sum():
    plate, _, joined = _joined()
    n_plate = len(plate.system.states)
    x0 = np.zeros(len(joined.states))
    x0[:n_plate] = plate.state(v=lambda x, y: x / 0.4)  # the plate swinging
    res = ph.simulate(joined, (0.0, 0.008), x0, method="midpoint", dt=2e-5)
    assert abs(res.H[-1] - res.H[0]) / res.H[0] < 1e-12
    plate_energy = np.array([0.5 * x[:n_plate] @ (plate.system.Q @ x[:n_plate]) for x in res.x])
    beam_energy = res.H - plate_energy
    assert beam_energy[0] == 0.0
    assert beam_energy.max() > 1e-3 * res.H[0]  # the beam took part of it
