r"""A descriptor PHS solved by SUNDIALS IDA (:func:`..linalg.sundials.solve_ida`).

Unknowns :math:`y = [x; \lambda]`, residual

.. math::
    F(t, y, \dot y) = \begin{bmatrix} E\dot x - (J-R)(x)\,z(x) - B(x)\lambda - (G-P)(x)\,u(t, x)
    \\ B(x)^\top z(x) \end{bmatrix},

with the exact iteration matrix :math:`\partial F/\partial y + c_j\,\partial F/\partial\dot y`
(compiled once).  The constraint is kept in its given form :math:`B^\top z = 0` (for a
mechanical constraint that is the velocity level — the index-reduced form of a
position constraint), so it holds to Newton tolerance at every IDA step; the system
is then Hessenberg index 2 in :math:`\lambda`, which is left out of the error test
(``loose``).  Algebraic states must be single components (zero columns of ``E``).
IDA does not preserve the energy balance: the reported power residual is its
integration error plus the trapezoidal quadrature of the port powers between output
points.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...compiled.descriptor import CompiledDescriptor, _dense
from ...errors import ModelError, SimulationError
from ..linalg.sundials import solve_ida
from ..method import Method
from ..ode.scipy_ivp import Point, trapezoid_interval
from ..output.recorder import Recorder
from ..problem.inputs import InputSignal
from .loop import prepare_dae

__all__ = ["run_ida", "IDA"]

#: IDA steps allowed between two output points (20× SUNDIALS' default of 500): enough for
#: stiff transients at the default output grid (span/1000), while a solution that blows up
#: is reported in seconds instead of after 10⁵ steps of Python callbacks per output
MAX_STEPS_PER_OUTPUT = 10_000


def _algebraic_indices(model: CompiledDescriptor) -> list[int]:
    N = model.algebraic
    idx = [int(np.argmax(np.abs(N[:, j]))) for j in range(N.shape[1])]
    if not np.allclose(np.abs(N[idx, range(len(idx))]), 1.0):
        raise ModelError("method 'ida' needs the algebraic states to be single components "
                         "(zero columns of E); E's kernel mixes states — use method="
                         "'midpoint', or change coordinates so that E = diag(I, 0)")
    return idx


def run_ida(model: CompiledDescriptor, signal: InputSignal, rec: Recorder, series: Any,
            t0: float, t_out: np.ndarray, x0: np.ndarray, lam0: np.ndarray, xdot0: np.ndarray,
            rtol: float, atol: float) -> Any:
    """Integrate from ``t0`` with IDA; fill ``rec`` and ``series`` at the times ``t_out``."""
    n, k = model.n, model.k
    E = _dense(model.E)

    def residual(t: float, y: np.ndarray, yp: np.ndarray) -> np.ndarray:
        x, lam = y[:n], y[n:]
        z = model.z(x)
        dyn = E @ yp[:n] - model.f(x, z, lam, signal(t, x))
        return np.concatenate([dyn, model.c(x, z)])

    def jacobian(t: float, y: np.ndarray, yp: np.ndarray, cj: float) -> np.ndarray:
        x, lam = y[:n], y[n:]
        z, u = model.z(x), signal(t, x)
        JR = _dense(model.matrix("J", x) - model.matrix("R", x))
        Dz = _dense(model.Dz(x))
        A = np.zeros((n + k, n + k))
        A11 = cj * E - _dense(model.f_x(x, z, lam, u)) - JR @ Dz
        if signal.feedback:
            GP = _dense(model.matrix("G", x) - model.matrix("P", x))
            A11 -= GP @ signal.state_jacobian(t, x, u)
        A[:n, :n] = A11
        A[:n, n:] = -_dense(model.B(x))
        A[n:, :n] = _dense(model.constraint_jacobian(x))
        return A

    alg = _algebraic_indices(model) + list(range(n, n + k))
    with np.errstate(all="ignore"):  # a blow-up is reported by IDA and _record, not warned
        sol = solve_ida(residual, (t0, float(t_out[-1])), np.concatenate([x0, lam0]),
                        np.concatenate([xdot0, np.zeros(k)]), algebraic=alg, rtol=rtol,
                        atol=atol, t_eval=t_out, jacobian=jacobian, loose=list(range(n, n + k)),
                        max_num_steps=MAX_STEPS_PER_OUTPUT)
    return _record(model, rec, series, sol)


def _record(model: CompiledDescriptor, rec: Recorder, series: Any, sol: Any) -> Any:
    n = model.n
    rec.allocate(sol.t.size)
    prev: Point | None = None
    for i, t in enumerate(sol.t):
        x, lam = sol.y[i, :n], sol.y[i, n:]
        if not (np.all(np.isfinite(x)) and np.all(np.isfinite(lam))):
            break
        rec.record(t, x, None)
        c = float(np.max(np.abs(model.c(x, model.z(x))), initial=0.0))
        series.add(x, lam, c)
        prev = trapezoid_interval(rec, i, t, prev)
    if not sol.success or rec.count < sol.t.size:
        t_reached = rec.last_time()
        msg = f"IDA failed at t = {t_reached:.6g} s: {sol.message}"
        raise SimulationError(msg, t_reached=t_reached, partial=series.result(
            rec, nfev=sol.nfev, message=msg, success=False))
    return series.result(rec, nsteps=int(sol.t.size - 1), nfev=sol.nfev,
                         message=sol.message)


class IDA(Method):
    """SUNDIALS IDA (variable order BDF, ``pip install "porthamiltonian[dae]"``) on a
    descriptor PHS; ``rtol``/``atol`` are its tolerances, ``dt`` the output grid."""

    name = "ida"
    order = 5
    problems = frozenset({"dae"})
    energy = "none"

    @classmethod
    def solve(cls, problem: Any, options: Any) -> Any:
        run = prepare_dae(problem, options, cls.name)
        return run_ida(problem.compiled, problem.signal, run.rec, run.series,
                       problem.t_span[0], run.output_times(), run.x, run.lam, run.xdot,
                       options.rtol, options.atol)
