r"""Stick-figure plots and 3-D animations of a simulated mechanism (Matplotlib).

Each body is drawn as the segments from its centre of mass to the points where its
joints attach (the joint anchors, in body coordinates), placed in the inertial frame by
the body's pose :math:`T = \begin{bmatrix}R & r\\ 0 & 1\end{bmatrix}`:
:math:`p_{\mathrm{world}} = R\,p_{\mathrm{body}} + r`.  Joints attached to the ground are
marked at their ground anchors.  Only the result's poses are read, so the figure shows
what was simulated, including any violation of the joint constraints (the two anchors
of a joint drawn apart).  Flexible links are drawn as their reconstructed centre lines
(section origins at the element end points, :meth:`.MechanismResult.beam_poses`), and
their anchors join the stick figure of the bodies they are clamped to.

* :func:`skeleton` — the segments (N × S × 2 × 3 array, m) for all saved times, bodies
  first, then the beams' centre lines;
* :func:`plot_snapshots` — several instants in one 3-D axes (a strobe picture);
* :func:`animate` — a :class:`matplotlib.animation.FuncAnimation`, optionally saved as
  ``.gif`` (Pillow, which Matplotlib depends on), ``.html`` (JavaScript player) or
  ``.mp4`` (needs ``ffmpeg`` on the PATH).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ModelError
from .graph import GROUND

__all__ = ["skeleton", "plot_snapshots", "plot_joints", "animate"]


def _body_points(mechanism: Any) -> dict[str, list[np.ndarray]]:
    """Per body: its centre of mass followed by the anchors of its joints (body frame)."""
    points = {name: [np.asarray(body.com, dtype=float)]
              for name, body in mechanism.bodies.items()}
    for joint in mechanism.joints.values():
        for end, anchor in ((joint.parent, joint.a1), (joint.child, joint.a2)):
            if end != GROUND:
                points[end].append(np.asarray(anchor, dtype=float))
    for link in getattr(mechanism, "links", {}).values():
        for end, frame in ((link.parent, link.root), (link.child, link.tip)):
            if end not in (None, GROUND):
                points[end].append(frame[:3, 3].copy())
    return points


def _beam_segments(mechanism: Any, result: Any) -> list[np.ndarray]:
    """Centre-line segments (N × E × 2 × 3) of every flexible link."""
    out = []
    for name in getattr(mechanism, "links", {}):
        P = result.beam_poses(name)[:, :, :3, 3]
        out.append(np.stack([P[:, :-1], P[:, 1:]], axis=2))
    return out


def _body_segment_count(mechanism: Any) -> int:
    return sum(len(p) - 1 for p in _body_points(mechanism).values())


def skeleton(mechanism: Any, result: Any) -> np.ndarray:
    """Segments (m) of the stick figure at every saved time: an array ``N × S × 2 × 3``
    (time, segment, end point, xyz): one segment per (body, anchor) pair, then the
    element segments of the flexible links' centre lines."""
    segments = []
    for body, pts in _body_points(mechanism).items():
        T = result.pose(body)  # N × 4 × 4
        world = np.einsum("nij,pj->npi", T[:, :3, :3], np.array(pts)) + T[:, None, :3, 3]
        for k in range(1, len(pts)):
            segments.append(np.stack([world[:, 0], world[:, k]], axis=1))
    if not segments:
        raise ModelError("the mechanism has no bodies to draw")
    return np.concatenate([np.stack(segments, axis=1), *_beam_segments(mechanism, result)],
                          axis=1)


def _ground_anchors(mechanism: Any) -> np.ndarray:
    pts = [j.a1 if j.parent == GROUND else j.a2 for j in mechanism.joints.values()
           if GROUND in (j.parent, j.child)]
    return np.array(pts, dtype=float).reshape(-1, 3)


def _axes(ax: Any, segs: np.ndarray, ground: np.ndarray, elev: float, azim: float) -> Any:
    if ax is None:
        from matplotlib.figure import Figure

        ax = Figure(figsize=(6, 6)).add_subplot(projection="3d")
    allp = np.concatenate([segs.reshape(-1, 3), ground])
    lo, hi = allp.min(axis=0), allp.max(axis=0)
    centre, half = 0.5 * (lo + hi), 0.55 * max(float(np.max(hi - lo)), 1e-9)
    ax.set_xlim(centre[0] - half, centre[0] + half)
    ax.set_ylim(centre[1] - half, centre[1] + half)
    ax.set_zlim(centre[2] - half, centre[2] + half)
    ax.set_box_aspect((1, 1, 1))  # equal scales: lengths look like lengths
    ax.set_xlabel("x [m]")
    ax.set_ylabel("y [m]")
    ax.set_zlabel("z [m]")
    ax.view_init(elev=elev, azim=azim)
    if ground.size:
        ax.scatter(*ground.T, marker="s", color="k", s=30)
    return ax


def plot_snapshots(mechanism: Any, result: Any, times: Sequence[float] | int = 6, *,
                   ax: Any = None, elev: float = 20.0, azim: float = -60.0) -> Any:
    """The stick figure at several instants (``times`` in s, or a number of equally
    spaced saved instants), older ones fainter; returns the 3-D axes."""
    t = np.asarray(result.t)
    if np.isscalar(times):
        idx = np.linspace(0, t.size - 1, int(times)).round().astype(int)  # type: ignore[arg-type]
    else:
        idx = np.array([int(np.argmin(np.abs(t - ti))) for ti in times])  # type: ignore[union-attr]
    segs = skeleton(mechanism, result)
    nb = _body_segment_count(mechanism)
    ax = _axes(ax, segs[idx], _ground_anchors(mechanism), elev, azim)
    for n, k in enumerate(idx):
        alpha = 0.25 + 0.75 * (n + 1) / len(idx)
        for s, (a, b) in enumerate(segs[k]):
            ax.plot(*np.stack([a, b]).T, color="C0" if s < nb else "C2", alpha=alpha, lw=2)
        ax.scatter(*segs[k][:nb, 0].T, color="C1", alpha=alpha, s=12)  # centres of mass
    ax.set_title(f"t = {t[idx[0]]:.3g} … {t[idx[-1]]:.3g} s")
    return ax


def plot_joints(result: Any, joints: Sequence[str], setpoints: Any = None, *,
                ax: Any = None) -> Any:
    """Joint coordinates over time (first coordinate of each joint in ``joints``), with
    dotted lines at ``setpoints`` (a mapping joint → value) where given; returns ``ax``."""
    if ax is None:
        from matplotlib.figure import Figure

        ax = Figure(figsize=(6, 4)).add_subplot(1, 1, 1)
    for name in joints:
        ax.plot(result.t, result.joint(name)[:, 0], label=name)
        if setpoints is not None and name in setpoints:
            ax.axhline(setpoints[name], ls=":", c="k", lw=0.8)
    ax.set_xlabel("t (s)")
    ax.set_ylabel("joint coordinate (rad or m)")
    ax.legend()
    return ax


def animate(mechanism: Any, result: Any, path: str | Path | None = None, *,
            every: int = 1, fps: int = 25, elev: float = 20.0, azim: float = -60.0,
            trace: str | None = None) -> Any:
    """A 3-D animation of the saved motion, one frame per ``every`` saved times.

    ``path`` ending in ``.gif``, ``.html`` or ``.mp4`` also saves it there.  ``trace``
    names a body whose centre-of-mass path is drawn as it goes.  Returns the
    :class:`~matplotlib.animation.FuncAnimation`.
    """
    from matplotlib import animation

    if every < 1:
        raise ModelError(f"animate: every must be ≥ 1 (got {every})")
    if trace is not None and trace not in mechanism.bodies:
        raise ModelError(f"animate: unknown body {trace!r} to trace; bodies: "
                         f"{', '.join(mechanism.bodies)}")
    suffix = None if path is None else Path(path).suffix.lower()
    if suffix not in (None, ".gif", ".html", ".mp4"):
        raise ModelError(f"animate: cannot write {str(path)!r}; use a .gif, .html or .mp4 "
                         "file name")
    frames = np.arange(0, len(result.t), every)
    segs = skeleton(mechanism, result)[frames]
    ax = _axes(None, segs, _ground_anchors(mechanism), elev, azim)
    nb = _body_segment_count(mechanism)
    lines = [ax.plot([], [], [], color="C0" if s < nb else "C2", lw=2)[0]
             for s in range(segs.shape[1])]
    path_line = ax.plot([], [], [], color="C3", lw=1)[0]
    com = None if trace is None else (
        result.pose(trace)[frames, :3, :3] @ mechanism.bodies[trace].com
        + result.pose(trace)[frames, :3, 3])
    title = ax.set_title("")
    t = np.asarray(result.t)[frames]

    def draw(k: int) -> list[Any]:
        for line, (a, b) in zip(lines, segs[k], strict=True):
            line.set_data_3d(*np.stack([a, b]).T)
        if com is not None:
            path_line.set_data_3d(*com[: k + 1].T)
        title.set_text(f"t = {t[k]:.3f} s")
        return [*lines, path_line, title]

    anim = animation.FuncAnimation(ax.figure, draw, frames=len(frames),
                                   interval=1000.0 / fps, blit=False)
    if suffix == ".gif":
        anim.save(str(path), writer=animation.PillowWriter(fps=fps))
    elif suffix == ".html":
        Path(path).write_text(anim.to_jshtml(fps=fps))  # type: ignore[arg-type]
    elif suffix == ".mp4":
        if not animation.FFMpegWriter.isAvailable():
            raise ModelError("animate: writing .mp4 needs ffmpeg on the PATH; save a .gif or "
                             ".html instead")
        anim.save(str(path), writer=animation.FFMpegWriter(fps=fps))
    return anim
