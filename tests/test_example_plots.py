"""The example scripts' figures: every panel names a quantity with its unit, and nothing
reaches outside the figure (issue 16).

Each script runs headless as from the command line (``runpy``, its output path in
``tmp_path``); the figures it saves are caught on their way to ``savefig`` and checked:
every axes has a y-label with a unit in parentheses — ``current (A)``, ``|H − H0|/H0 (1)``
— unless it is a colorbar or a twin sharing its panel, and the tight bounding box of
every axes (labels, tick labels, legends) and the suptitle lies inside the figure.
"""

from __future__ import annotations

import re
import runpy
import sys

import pytest
from matplotlib.figure import Figure

from conftest import EXAMPLES

UNIT = re.compile(r"\([^()]+\)\s*$")  # "… (unit)" at the end of the label


def _run(monkeypatch, tmp_path, script: str, *args: str) -> list[Figure]:
    """Run ``examples/<script>.py`` with ``args`` (``{out}`` → a path in ``tmp_path``)
    and return the figures it saved."""
    monkeypatch.setenv("MPLBACKEND", "Agg")
    out = tmp_path / f"{script}.png"
    argv = [script, *(a.replace("{out}", str(out)) for a in args)]
    monkeypatch.setattr(sys, "argv", argv)
    monkeypatch.syspath_prepend(str(EXAMPLES))  # scripts importing bondgraph_example
    saved: list[Figure] = []
    original = Figure.savefig

    def savefig(fig, *a, **k):
        saved.append(fig)
        return original(fig, *a, **k)

    monkeypatch.setattr(Figure, "savefig", savefig)
    runpy.run_path(str(EXAMPLES / f"{script}.py"), run_name="__main__")
    assert saved, f"{script} saved no figure"
    assert out.stat().st_size > 10_000
    return saved


def _unlabelled(fig: Figure) -> list[str]:
    """Axes without a y-label ending in a unit in parentheses (colorbars and twin axes
    excepted: a twin must have its own label too, checked here as well)."""
    bad = []
    for n, ax in enumerate(fig.axes):
        if ax.get_label() == "<colorbar>":
            continue
        label = ax.get_ylabel()
        if not UNIT.search(label):
            bad.append(f"axes {n}: {label!r}")
    return bad


def _outside(fig: Figure) -> list[str]:
    """The axes (with labels, tick labels and legends) and the suptitle that reach
    outside the figure — as in tests/simulate/test_result_plot.py."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    renderer = canvas.get_renderer()
    W, H = fig.bbox.width, fig.bbox.height
    boxes = [(f"axes {n}: {ax.get_ylabel()!r}", ax.get_tightbbox(renderer))
             for n, ax in enumerate(fig.axes)]
    if fig._suptitle is not None:
        boxes.append(("suptitle", fig._suptitle.get_window_extent(renderer)))
    return [name for name, bb in boxes
            if bb.x0 < -0.5 or bb.y0 < -0.5 or bb.x1 > W + 0.5 or bb.y1 > H + 0.5]


def _check(figures: list[Figure]) -> None:
    for fig in figures:
        assert _unlabelled(fig) == []
        assert _outside(fig) == []
        titled = fig._suptitle is not None or any(ax.get_title() for ax in fig.axes)
        assert titled, "the figure says what it shows"


FAST = [
    ("dc_motor_step", "--out", "{out}"),
    ("boost_converter", "--out", "{out}"),
    ("lagrange_dc_motor", "--out", "{out}"),
    ("lagrange_mass_spring", "--out", "{out}"),
    ("parallel_capacitors_dae", "--out", "{out}"),
    ("oscillator", "--t-end", "20", "--out", "{out}"),
    ("pendulum", "--steps", "2000", "--out", "{out}"),
    ("analysis_rlc_bode", "{out}"),
    ("bondgraph_mason", "{out}"),
    ("monte_carlo_motor", "--runs", "20", "--workers", "1", "--out", "{out}"),
    ("sweep_rlc", "--values", "4", "--workers", "1", "--out", "{out}"),
    ("reduce_timoshenko", "--elements", "10", "--order", "8", "--out", "{out}"),
    ("membrane_drum", "--refine", "3", "--out", "{out}"),
    ("dzhanibekov", "--steps", "5000", "--dt", "0.004", "--out", "{out}"),
    ("discrete_beam", "--out", "{out}"),
    ("lagrange_discrete_dirac", "--out", "{out}"),
    ("fpu_recurrence", "--masses", "8", "--t-end", "200", "--out", "{out}"),
]

SLOW = [
    ("network_dc_motor_gear", "{out}"),
    ("mechanics_pd_arm", "--t-end", "1", "--out", "{out}"),
    ("mechanics_four_bar", "--t-end", "0.3", "--out", "{out}"),
    ("control_iwp_ida_pbc", "--out", "{out}"),
    ("distributed_line", "--out", "{out}"),
    ("crank_mtf", "{out}"),
    ("benchmark_msd", "--points", "8", "--out", "{out}"),
    ("plate_tuned_mass_damper", "--elements", "4", "--t-end", "0.02", "--out", "{out}"),
    ("diffusion_compartments", "--out", "{out}"),
    ("gas_piston", "--t-end", "0.5", "--out", "{out}"),
    ("cstr_multiplicity", "--out", "{out}"),
    ("brayton_moser_rlc", "{out}"),
    ("bouncing_ball", "--t-end", "0.8", "--out", "{out}"),
]


@pytest.mark.parametrize("args", FAST, ids=[a[0] for a in FAST])
def test_example_figure_has_units_and_nothing_clipped(args, monkeypatch, tmp_path, capsys):
    _check(_run(monkeypatch, tmp_path, *args))


@pytest.mark.slow
@pytest.mark.parametrize("args", SLOW, ids=[a[0] for a in SLOW])
def test_slower_example_figure_has_units_and_nothing_clipped(args, monkeypatch, tmp_path,
                                                             capsys):
    _check(_run(monkeypatch, tmp_path, *args))


def test_checks_catch_a_unitless_label_and_a_clipped_legend():
    fig = Figure(figsize=(3, 2))
    ax = fig.subplots()
    ax.plot([0, 1], [0, 1], label="a very long legend entry that cannot fit in the figure")
    ax.set_ylabel("speed")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    assert _unlabelled(fig) == ["axes 0: 'speed'"]
    assert _outside(fig) == ["axes 0: 'speed'"]
