"""Stick figures and animations of a simulated mechanism: the drawn geometry is the
simulated one (rigid segment lengths, coincident joint anchors, the pivot on the ground
anchor), and the animation writes one frame per requested instant."""

from __future__ import annotations

import numpy as np
import pytest

from porthamiltonian import ModelError
from porthamiltonian.mechanics import Mechanism
from porthamiltonian.mechanics.animation import animate, plot_joints, plot_snapshots, skeleton

L1 = 0.9


@pytest.fixture(scope="module")
def swing():
    mech = Mechanism(gravity=[0, -9.81, 0])
    mech.add_body("upper", 1.2, [0.09, 0.005, 0.09], com=[0, -0.4, 0])
    mech.add_body("lower", 0.7, [0.03, 0.005, 0.03], com=[0, -0.35, 0])
    mech.add_joint("shoulder", "revolute", "ground", "upper")
    mech.add_joint("elbow", "revolute", "upper", "lower", parent_anchor=[0, -L1, 0])
    res = mech.simulate(0.3, dt=0.01, q0={"shoulder": 1.0, "elbow": -0.5})
    return mech, res


def test_skeleton_is_the_simulated_rigid_geometry(swing):
    mech, res = swing
    segs = skeleton(mech, res)  # segments: upper COM→shoulder, upper COM→elbow, lower COM→elbow
    assert segs.shape == (len(res.t), 3, 2, 3)
    lengths = np.linalg.norm(segs[:, :, 1] - segs[:, :, 0], axis=-1)
    assert lengths == pytest.approx(np.broadcast_to([0.4, 0.5, 0.35], lengths.shape), abs=1e-9)
    assert np.abs(segs[:, 0, 1]).max() <= 1e-9  # the shoulder stays on the ground pivot
    assert np.abs(segs[:, 1, 1] - segs[:, 2, 1]).max() <= 1e-9  # the elbow anchors coincide
    # the body swings: the first saved angle of the upper link is the initial one
    down = segs[0, 0, 0] - segs[0, 0, 1]
    assert np.arctan2(down[0], -down[1]) == pytest.approx(1.0, abs=1e-9)


def test_animation_writes_one_gif_frame_per_instant(swing, tmp_path):
    from PIL import Image

    mech, res = swing
    out = tmp_path / "swing.gif"
    animate(mech, res, out, every=5, fps=10, trace="lower")
    with Image.open(out) as gif:
        assert gif.n_frames == len(range(0, len(res.t), 5))
    html = tmp_path / "swing.html"
    animate(mech, res, html, every=10)
    assert "<script" in html.read_text()


def test_snapshots_and_bad_requests(swing, tmp_path):
    mech, res = swing
    ax = plot_snapshots(mech, res, 4)
    assert len(ax.lines) == 4 * 3
    with pytest.raises(ModelError, match=r"\.gif, \.html or \.mp4"):
        animate(mech, res, tmp_path / "swing.avi")
    with pytest.raises(ModelError, match="unknown body 'hand'"):
        animate(mech, res, trace="hand")


def test_joint_plot_draws_each_joint_and_its_set_point(swing):
    _, res = swing
    ax = plot_joints(res, ["shoulder", "elbow"], {"elbow": -0.5})
    lines = ax.get_lines()
    assert len(lines) == 3                       # two joints, one set point
    np.testing.assert_array_equal(lines[0].get_xdata(), res.t)
    assert lines[0].get_ydata()[0] == pytest.approx(1.0, abs=1e-12)   # q0 of the shoulder
    assert lines[2].get_ydata()[0] == pytest.approx(-0.5)             # the dotted set point
