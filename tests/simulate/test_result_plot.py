"""The result plot: one panel per quantity kind with its unit, the inputs, the energy
balance, the model and method in the title, and nothing clipped at the figure's edge."""

from __future__ import annotations

import numpy as np
import pytest

from porthamiltonian import PHS, ModelError, simulate
from porthamiltonian.quantities import DOMAINS, Quantities, storage_info


def _rlc(name: str = "series RLC") -> PHS:
    el = DOMAINS["electrical"]
    meaning = Quantities({"C1": storage_info("C1", "C1", "C", "electrical"),
                          "L1": storage_info("L1", "L1", "I", "electrical")},
                         ports={"u": el.effort, "y_u": el.flow})
    return PHS(J=[[0, 1], [-1, 0]], R=[[0, 0], [0, 10.0]], G=[[0], [1]],
               Q=np.diag([1000.0, 10.0]), states=["C1", "L1"], inputs=["u"],
               name=name, quantities=meaning)


def _inside(fig) -> list[str]:
    """The panels (with their labels, tick labels and legends — the tight bounding box)
    and the title that reach outside the figure, by y-label."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = FigureCanvasAgg(fig)  # the canvas savefig uses
    canvas.draw()
    renderer = canvas.get_renderer()
    W, H = fig.bbox.width, fig.bbox.height
    boxes = [(ax.get_ylabel(), ax.get_tightbbox(renderer)) for ax in fig.axes]
    if fig._suptitle is not None:
        boxes.append(("title", fig._suptitle.get_window_extent(renderer)))
    return [name for name, bb in boxes
            if bb.x0 < -0.5 or bb.y0 < -0.5 or bb.x1 > W + 0.5 or bb.y1 > H + 0.5]


def test_panels_by_kind_with_units_inputs_and_title():
    res = simulate(_rlc(), (0, 0.05), [0.0, 0.0], u=lambda t: np.sin(300 * t), dt=1e-4)
    fig = res.plot()
    labels = [ax.get_ylabel() for ax in fig.axes]
    assert labels == ["voltage (V)", "current (A)", "input: voltage (V)", "energy (J)",
                      "power (W)"]
    legend_names = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend_names == ["C1.v"]
    title = fig._suptitle.get_text()
    assert "series RLC" in title and "midpoint" in title
    # the balance line is H0 + Σ(work in − dissipated): on the H line to round-off
    h_line, balance = fig.axes[3].get_lines()[:2]
    np.testing.assert_allclose(balance.get_ydata(), h_line.get_ydata(), atol=1e-15)
    assert _inside(fig) == []


def test_chosen_variables_and_a_crowded_panel_stay_inside():
    n = 20  # twenty long-named springs: the legend goes beside the axes, still inside
    names = [f"very_long_spring_name_{k}" for k in range(n)]
    meaning = Quantities({s: storage_info(s, s, "C", "translational") for s in names})
    sys = PHS(J=np.zeros((n, n)), R=np.eye(n), Q=np.eye(n) * 50.0, states=names,
              name="springs", quantities=meaning)
    res = simulate(sys, (0, 0.1), np.linspace(-1, 1, n), dt=1e-3)
    fig = res.plot(vars=names[:16])  # displacements (m): one panel
    assert [ax.get_ylabel() for ax in fig.axes] == ["displacement (m)", "energy (J)",
                                                  "power (W)"]
    assert _inside(fig) == []
    assert _inside(res.plot()) == []  # default: the 20 forces exceed MAX_SHOWN → none


def test_unknown_variable_is_named():
    res = simulate(_rlc(), (0, 0.001), [0.0, 0.0], u=0.0, dt=1e-4)
    with pytest.raises(ModelError, match="'L1.v'.*C1.v"):
        res.plot(vars=["L1.v"])


def test_cli_plot_vars(tmp_path):
    from porthamiltonian.cli import main

    out = tmp_path / "p.png"
    assert main(["simulate", "examples/models/series_rlc.yaml", "--t-end", "0.01",
                 "--plot", str(out), "--plot-vars", "C1,L1", "--no-progress"]) == 0
    assert out.stat().st_size > 10_000
