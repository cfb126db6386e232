"""Plot of a :class:`~porthamiltonian.simulate.SimulationResult` (Matplotlib).

The figure is a bare :class:`matplotlib.figure.Figure` (no pyplot), which renders
with the Agg canvas: it works headless and never opens a window.
"""

from __future__ import annotations

import pathlib
from typing import Any

__all__ = ["plot_result"]


def plot_result(res: Any, path: str | pathlib.Path | None = None) -> Any:
    """States, outputs, energy and the power balance of ``res`` on shared time axes."""
    from matplotlib.figure import Figure  # no pyplot: no GUI backend, no global state

    fig = Figure(figsize=(8, 9), layout="constrained")
    axes = fig.subplots(4, 1, sharex=True)
    for k, name in enumerate(res.states):
        axes[0].plot(res.t, res.x[:, k], label=name)
    axes[0].set_ylabel("states")
    for k, name in enumerate(res.outputs):
        axes[1].plot(res.t, res.y[:, k], label=name)
    axes[1].set_ylabel("outputs")
    axes[2].plot(res.t, res.H, color="k")
    axes[2].set_ylabel("H (J)")
    axes[3].plot(res.t, res.stored, label="stored dH/dt")
    axes[3].plot(res.t, res.supplied, label="supplied uᵀy")
    axes[3].plot(res.t, res.dissipated, label="dissipated d")
    axes[3].set_ylabel("power (W)")
    axes[3].set_xlabel("t (s)")
    for ax in axes:
        if ax.get_legend_handles_labels()[0] and len(ax.get_lines()) <= 12:
            ax.legend(loc="upper right", fontsize="small")
    fig.suptitle(f"{res.method}: max |power residual| = "
                 f"{float(abs(res.power_residual).max()):.3g} J")
    if path is not None:
        fig.savefig(path, dpi=100)
    return fig
