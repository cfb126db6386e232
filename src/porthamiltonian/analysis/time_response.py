r"""Step and impulse responses of a linear(ized) system, exact to round-off.

From rest (:math:`\delta x(0) = 0`), for a unit step in input ``k`` at ``t = 0``

.. math::  y(t) = C\int_0^t e^{A\tau}\,d\tau\; B e_k + D e_k ,

and for a unit impulse :math:`y(t) = C e^{At} B e_k` for ``t > 0`` (the direct term
:math:`D\,\delta(t)` is returned separately as ``direct``).  Both use the
matrix exponential — ``scipy.linalg.expm`` of ``A Δt`` for dense systems, propagated
from sample to sample, and :func:`scipy.sparse.linalg.expm_multiply` (Al-Mohy & Higham,
*SIAM J. Sci. Comput.* 33, 2011) for sparse ones — of the augmented matrix

.. math::
    \exp\!\left(t\begin{bmatrix} A & B\\ 0 & 0\end{bmatrix}\right)
    \begin{bmatrix} 0\\ I\end{bmatrix}
    = \begin{bmatrix}\int_0^t e^{A\tau}d\tau\,B\\ I\end{bmatrix},

so no time-stepping error enters.  Without ``t`` the horizon is 7 time constants of the
slowest stable pole (0.1 % of its transient left) or, with undamped or unstable poles,
ten periods of the slowest oscillation.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.linalg as sla
import scipy.sparse as sps
import scipy.sparse.linalg as spsla

from ..errors import ModelError
from .frequency import pole_magnitudes
from .linear import LinearSystem, linear_system
from .modes import DENSE_LIMIT, poles
from .selection import Selector

#: Largest ‖A‖₁·t_end accepted by the sparse (Krylov/Taylor) response.
MAX_SPARSE_WORK = 1e6


@dataclass(frozen=True)
class TimeResponse:
    """Responses ``y[:, i, k]`` of output ``i`` to a unit step/impulse in input ``k``.

    Attributes
    ----------
    t:
        Times (s), shape ``(K,)``.
    y:
        Output deviations, shape ``(K, n_outputs, n_inputs)``.
    inputs, outputs:
        Names.
    direct:
        For an impulse response, the feed-through ``D`` multiplying :math:`\\delta(t)`
        (not contained in ``y``); ``None`` for a step response.
    """

    t: np.ndarray
    y: np.ndarray
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    direct: np.ndarray | None = None

    def plot(self, ax: Any = None) -> Any:
        """Plot every input → output response on ``ax`` (or a new figure)."""
        import matplotlib.pyplot as plt

        if ax is None:
            _, ax = plt.subplots(figsize=(7, 4))
        for i, out in enumerate(self.outputs):
            for k, inp in enumerate(self.inputs):
                ax.plot(self.t, self.y[:, i, k], label=f"{inp} → {out}")
        ax.set_xlabel("t (s)")
        ax.grid(True, alpha=0.3)
        ax.legend(loc="best", fontsize="small")
        return ax.figure


def step_response(system: Any, t: Any = None, inputs: Selector = None,
                  outputs: Selector = None, *, n: int = 500, x0: Any = None,
                  u0: Any = None) -> TimeResponse:
    """Response to unit steps (one input at a time) from rest; ``t`` in s, from 0."""
    lin = linear_system(system, x0, u0).select(inputs, outputs)
    t = _time_grid(lin, t, n)
    nn, m = lin.B.shape
    if nn == 0:
        y = np.broadcast_to(lin.D, (t.size, *lin.D.shape)).copy()
        return TimeResponse(t, y, lin.inputs, lin.outputs)
    aug = _augmented(lin)
    start = np.zeros((nn + m, m))
    start[nn:] = np.eye(m)
    X = _expm_grid(aug, start, t)[:, :nn, :]
    y = np.einsum("pn,knm->kpm", lin.C, X) + lin.D
    return TimeResponse(t, y, lin.inputs, lin.outputs)


def impulse_response(system: Any, t: Any = None, inputs: Selector = None,
                     outputs: Selector = None, *, n: int = 500, x0: Any = None,
                     u0: Any = None) -> TimeResponse:
    """Response to unit impulses (one input at a time) from rest; ``t`` in s, from 0."""
    lin = linear_system(system, x0, u0).select(inputs, outputs)
    t = _time_grid(lin, t, n)
    if lin.n_states == 0:
        y = np.zeros((t.size, *lin.D.shape))
    else:
        X = _expm_grid(lin.A, lin.B, t)
        y = np.einsum("pn,knm->kpm", lin.C, X)
    return TimeResponse(t, y, lin.inputs, lin.outputs, direct=lin.D.copy())


def _augmented(lin: LinearSystem) -> Any:
    n, m = lin.B.shape
    if lin.sparse:
        return sps.csr_array(sps.block_array([[lin.A, sps.csr_array(lin.B)],
                                              [None, sps.csr_array((m, m))]]))
    return np.block([[lin.dense_A(), lin.B], [np.zeros((m, n + m))]])


def _expm_grid(A: Any, X0: np.ndarray, t: np.ndarray) -> np.ndarray:
    """``exp(t_k A) X0`` for every ``t_k``.

    Dense: one ``expm(A Δt)`` per distinct step, then repeated products (cost independent
    of the stiffness ``‖A‖ t``).  Sparse: ``expm_multiply``, whose cost grows like
    ``‖A‖ t``, so a very stiff request is refused with advice instead of running for
    minutes.
    """
    if not sps.issparse(A):
        out = np.empty((t.size, *X0.shape))
        out[0] = sla.expm(t[0] * A) @ X0 if t[0] else X0
        cache: dict[float, np.ndarray] = {}
        for k in range(1, t.size):
            dt = float(t[k] - t[k - 1])
            key = round(dt, 15)
            if key not in cache:
                cache[key] = sla.expm(dt * A)
            out[k] = cache[key] @ out[k - 1]
        return out
    work = float(spsla.norm(A, 1)) * float(t[-1])
    if work > MAX_SPARSE_WORK:
        raise ModelError(
            f"‖A‖₁·t_end = {work:.3g}: too stiff for an exact sparse response over this "
            "horizon; give a shorter t= or simulate with an implicit method "
            "(porthamiltonian.simulate)"
        )
    dt = np.diff(t)
    if t.size > 2 and np.allclose(dt, dt[0], rtol=1e-9, atol=0.0) and t[0] == 0.0:
        return np.asarray(spsla.expm_multiply(A, X0, start=0.0, stop=float(t[-1]),
                                              num=t.size, endpoint=True))
    return np.stack([spsla.expm_multiply(tk * A, X0) for tk in t])


def _time_grid(lin: LinearSystem, t: Any, n: int) -> np.ndarray:
    if t is not None:
        t = np.asarray(t, dtype=float).reshape(-1)
        if t.size == 0 or t[0] < 0 or np.any(np.diff(t) <= 0):
            raise ModelError("t must be increasing times ≥ 0 (s), starting at the step/impulse")
        return t
    return np.linspace(0.0, _horizon(lin), n)


def _horizon(lin: LinearSystem) -> float:
    if lin.n_states == 0:
        return 1.0
    if lin.n_states > DENSE_LIMIT:
        mags = pole_magnitudes(lin)
        return 7.0 / max(float(mags.min()), 1e-12)
    lam = poles(lin)
    scale = max(1.0, float(np.max(np.abs(lam))))
    stable = lam.real < -1e-9 * scale
    if np.all(stable):
        return 7.0 / float(np.min(-lam.real))
    osc = np.abs(lam.imag[np.abs(lam.imag) > 1e-9 * scale])
    return 10.0 * 2 * np.pi / float(osc.min()) if osc.size else 10.0
