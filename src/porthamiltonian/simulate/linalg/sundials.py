r"""A small, reusable wrapper of SUNDIALS IDA (through scikit-sundae) for implicit DAEs

.. math::  F(t, y, \dot y) = 0,

solved by variable-order, variable-step BDF (Hindmarsh et al., *ACM TOMS* 31, 2005).
IDA needs consistent ``(y0, yp0)``; ``calc_initcond="yp0"`` lets IDA correct the
algebraic components of ``y0`` and the derivatives of the differential ones
(``IDACalcIC`` with ``IDA_YA_YDP_INIT``).  Index: IDA is reliable for index-1 systems;
Hessenberg index-2 systems work when their index-2 variables (multipliers) are left
out of the local error test — pass them in ``loose`` (their absolute tolerance is set
so large that they do not limit the step), the same effect as SUNDIALS'
``IDASetSuppressAlg``.

scikit-sundae is an optional dependency: ``pip install "porthamiltonian[dae]"``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...errors import ModelError

__all__ = ["IDASolution", "solve_ida", "require_sundae"]

Residual = Callable[[float, np.ndarray, np.ndarray], np.ndarray]
Jacobian = Callable[[float, np.ndarray, np.ndarray, float], np.ndarray]

#: absolute tolerance given to the variables left out of the error test
_LOOSE_ATOL = 1e10


@dataclass
class IDASolution:
    """Output of :func:`solve_ida`: ``t`` (s), ``y`` and ``yp`` with one row per time."""

    t: np.ndarray
    y: np.ndarray
    yp: np.ndarray
    success: bool
    message: str
    nfev: int
    njev: int


def require_sundae() -> Any:
    """The ``sksundae.ida`` module, or a :class:`ModelError` saying how to install it."""
    try:
        from sksundae import ida
    except ImportError:  # pragma: no cover - depends on the environment
        raise ModelError(
            "method 'ida' needs SUNDIALS IDA from scikit-sundae, which is not installed: "
            'pip install "porthamiltonian[dae]" (or pip install scikit-sundae)'
        ) from None
    return ida


def solve_ida(
    residual: Residual,
    t_span: Sequence[float],
    y0: Any,
    yp0: Any,
    algebraic: Sequence[int] | None = None,
    rtol: float = 1e-8,
    atol: float | Sequence[float] = 1e-10,
    t_eval: Sequence[float] | None = None,
    jacobian: Jacobian | None = None,
    *,
    loose: Sequence[int] | None = None,
    calc_initcond: str | None = None,
    max_step: float = 0.0,
    max_num_steps: int = 100_000,
) -> IDASolution:
    r"""Solve :math:`F(t, y, \dot y) = 0` with IDA.

    Parameters
    ----------
    residual:
        ``F(t, y, yp) -> array`` of the size of ``y``.
    t_span:
        ``(t0, t1)`` in s.
    y0, yp0:
        Initial values and derivatives (consistent, or made so by ``calc_initcond``).
    algebraic:
        Indices of the algebraic components (whose derivative does not appear).
    rtol, atol:
        Local error tolerances (``atol`` scalar or per component).
    t_eval:
        Output times in ``[t0, t1]``; default: every internal step.
    jacobian:
        ``J(t, y, yp, cj) -> (N, N)`` array, ``∂F/∂y + cj ∂F/∂yp``; finite
        differences (IDA's own) when ``None``.
    loose:
        Components left out of the error test (Hessenberg index-2 multipliers).
    calc_initcond:
        ``None``, ``"yp0"`` (correct algebraic ``y`` and differential ``yp``) or ``"y0"``.
    max_step, max_num_steps:
        Largest step (0: unbounded) and steps allowed between two output times.

    Returns
    -------
    IDASolution
        ``success`` is ``False`` (with IDA's ``message``) when IDA stopped early; the
        rows up to that time are kept.
    """
    ida = require_sundae()
    y0 = np.asarray(y0, dtype=float).copy()
    yp0 = np.asarray(yp0, dtype=float).copy()
    t0, t1 = (float(v) for v in t_span)
    tol = np.broadcast_to(np.asarray(atol, dtype=float), y0.shape).copy()
    if loose:
        tol[list(loose)] = _LOOSE_ATOL

    def resfn(t: float, y: np.ndarray, yp: np.ndarray, res: np.ndarray) -> None:
        res[:] = residual(t, y, yp)

    opts: dict[str, Any] = dict(rtol=float(rtol), atol=tol, max_num_steps=int(max_num_steps),
                                max_step=float(max_step))
    if algebraic is not None and len(algebraic):
        opts["algebraic_idx"] = [int(i) for i in algebraic]
    if calc_initcond is not None:
        opts.update(calc_initcond=calc_initcond, calc_init_dt=0.01 * (t1 - t0))
    if jacobian is not None:
        def jacfn(t: float, y: np.ndarray, yp: np.ndarray, res: np.ndarray, cj: float,
                  JJ: np.ndarray) -> None:
            JJ[:, :] = jacobian(t, y, yp, cj)

        opts["jacfn"] = jacfn
    tspan = np.array([t0, t1]) if t_eval is None else np.asarray(t_eval, dtype=float)
    drop_first = t_eval is not None and tspan[0] > t0
    if drop_first:
        tspan = np.concatenate([[t0], tspan])
    sol = ida.IDA(resfn, **opts).solve(tspan, y0, yp0)
    t, y, yp = np.asarray(sol.t), np.asarray(sol.y), np.asarray(sol.yp)
    if drop_first and t.size:
        t, y, yp = t[1:], y[1:], yp[1:]
    return IDASolution(t=t, y=y.reshape(t.size, -1), yp=yp.reshape(t.size, -1),
                       success=bool(sol.success), message=str(sol.message),
                       nfev=int(sol.nfev), njev=int(sol.njev))
