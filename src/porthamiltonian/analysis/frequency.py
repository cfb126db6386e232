r"""Frequency response and Bode diagrams.

The frequency response is :math:`G(j\omega)` (:mod:`.transfer`); a Bode diagram shows
:math:`20\log_{10}|G_{ik}(j\omega)|` in dB and :math:`\arg G_{ik}(j\omega)` in degrees
(unwrapped along ω) against ω in rad/s on a log axis.

Without ``omega`` the range spans two decades below the slowest and two above the
fastest non-zero pole magnitude :math:`|\lambda|` (a resonance at
:math:`\omega_n = |\lambda|` is then inside the plot), logarithmically spaced.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse.linalg as spsla

from ..errors import ModelError
from .linear import LinearSystem, linear_system
from .modes import DENSE_LIMIT, poles
from .selection import Selector
from .transfer import TransferFunction


@dataclass(frozen=True)
class FrequencyResponse:
    """:math:`G(j\\omega)` on a grid of angular frequencies.

    Attributes
    ----------
    omega:
        Angular frequencies (rad/s), shape ``(k,)``.
    response:
        Complex values, shape ``(k, n_outputs, n_inputs)``.
    inputs, outputs:
        Names of the columns and rows.
    figure:
        The Matplotlib figure when the diagram was plotted.
    """

    omega: np.ndarray
    response: np.ndarray
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    figure: Any = None

    @property
    def magnitude(self) -> np.ndarray:
        """:math:`|G(j\\omega)|` (units of output per unit of input)."""
        return np.abs(self.response)

    @property
    def magnitude_db(self) -> np.ndarray:
        """:math:`20\\log_{10}|G(j\\omega)|` (dB)."""
        with np.errstate(divide="ignore"):
            return 20.0 * np.log10(self.magnitude)

    @property
    def phase(self) -> np.ndarray:
        """:math:`\\arg G(j\\omega)` in radians, unwrapped along ω."""
        return np.unwrap(np.angle(self.response), axis=0)

    @property
    def phase_deg(self) -> np.ndarray:
        return np.degrees(self.phase)

    def plot(self, ax: Any = None) -> Any:
        """Bode diagram on ``ax = (magnitude axes, phase axes)`` or a new figure."""
        import matplotlib.pyplot as plt

        if ax is None:
            fig, ax = plt.subplots(2, 1, sharex=True, figsize=(7, 6))
        else:
            fig = ax[0].figure
        ax_mag, ax_ph = ax
        for i, out in enumerate(self.outputs):
            for k, inp in enumerate(self.inputs):
                label = f"{inp} → {out}"
                ax_mag.semilogx(self.omega, self.magnitude_db[:, i, k], label=label)
                ax_ph.semilogx(self.omega, self.phase_deg[:, i, k], label=label)
        ax_mag.set_ylabel("magnitude (dB)")
        ax_ph.set_ylabel("phase (deg)")
        ax_ph.set_xlabel("ω (rad/s)")
        for a in ax:
            a.grid(True, which="both", alpha=0.3)
        ax_mag.legend(loc="best", fontsize="small")
        return fig


def frequency_response(system: Any, omega: Any, inputs: Selector = None,
                       outputs: Selector = None, *, x0: Any = None,
                       u0: Any = None) -> FrequencyResponse:
    """:math:`G(j\\omega)` at the angular frequencies ``omega`` (rad/s)."""
    tf = _tf(system, inputs, outputs, x0, u0)
    omega = np.asarray(omega, dtype=float).reshape(-1)
    return FrequencyResponse(omega, tf.frequency_response(omega), tf.inputs, tf.outputs)


def bode(system: Any, inputs: Selector = None, outputs: Selector = None,
         omega: Any = None, *, n: int = 400, plot: bool = False, ax: Any = None,
         x0: Any = None, u0: Any = None) -> FrequencyResponse:
    """Bode diagram data (and plot) from ``inputs`` to ``outputs``.

    Parameters
    ----------
    system, inputs, outputs, x0, u0:
        As for :func:`~porthamiltonian.analysis.transfer_function`.
    omega:
        Angular frequencies (rad/s); default ``n`` points over :func:`frequency_range`.
    plot, ax:
        Draw the diagram (on ``ax = (magnitude axes, phase axes)`` when given); the
        figure is in the result's ``figure``.
    """
    tf = _tf(system, inputs, outputs, x0, u0)
    if omega is None:
        lo, hi = frequency_range(tf.linear)
        omega = np.logspace(np.log10(lo), np.log10(hi), n)
    res = FrequencyResponse(np.asarray(omega, float).reshape(-1),
                            tf.frequency_response(omega), tf.inputs, tf.outputs)
    if plot or ax is not None:
        fig = res.plot(ax)
        res = FrequencyResponse(res.omega, res.response, res.inputs, res.outputs, fig)
    return res


def frequency_range(system: Any, decades: float = 2.0) -> tuple[float, float]:
    """``(ω_min, ω_max)`` in rad/s: ``decades`` beyond the extreme non-zero pole magnitudes.

    ``(0.01, 100)`` when all poles are zero (or there are none).
    """
    lin = linear_system(system)
    mags = pole_magnitudes(lin)
    mags = mags[mags > 1e-12 * max(1.0, float(np.max(mags, initial=0.0)))]
    if mags.size == 0:
        return 1e-2, 1e2
    lo = 10.0 ** (np.floor(np.log10(mags.min())) - decades)
    hi = 10.0 ** (np.ceil(np.log10(mags.max())) + decades)
    return float(lo), float(hi)


def pole_magnitudes(lin: LinearSystem) -> np.ndarray:
    if lin.n_states <= DENSE_LIMIT:
        return np.abs(poles(lin))
    # large sparse systems: only the extreme magnitudes are needed, roughly.  The top is
    # bounded by a matrix norm (|λ| ≤ ‖A‖₁); the bottom is found by shift-invert just
    # off 0 (exactly 0 fails for a singular A, e.g. a free mass).
    big = float(min(spsla.norm(lin.A, 1), spsla.norm(lin.A, np.inf)))
    try:
        small = spsla.eigs(lin.A, k=1, sigma=1e-9 * big, which="LM", tol=1e-6,
                           return_eigenvectors=False)
    except (RuntimeError, spsla.ArpackNoConvergence) as exc:
        raise ModelError(f"could not estimate the pole range of {lin.n_states} states "
                         f"({exc}); give omega= explicitly") from exc
    return np.abs(np.concatenate([[big], small]))


def _tf(system: Any, inputs: Selector, outputs: Selector, x0: Any, u0: Any
        ) -> TransferFunction:
    return TransferFunction(linear_system(system, x0, u0).select(inputs, outputs))
