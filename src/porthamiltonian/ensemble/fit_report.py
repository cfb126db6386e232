r"""What a fit reports: linearized statistics and :class:`FitResult`.

:func:`statistics` turns the sensitivities :math:`J` (weighted residuals by parameter)
and the residuals :math:`r` at the optimum into the Gauss–Newton covariance
:math:`s^2 (J^\top J)^{-1}`, :math:`s^2 = r^\top r/(m-p)` (Bates & Watts, *Nonlinear
Regression Analysis and Its Applications*, Wiley 1988, §2.3), standard errors, 95 %
intervals with the Student-t quantile :math:`t_{m-p,\,0.975}` and the correlation
matrix.  The inverse goes through the SVD :math:`J D = U \Sigma V^\top` with
:math:`D = \mathrm{diag}(\max(|\hat\theta_j|, 10^{-2}\bar\theta_j))`, so the rank test
is free of units: a singular value below ``rank_tol`` times the largest is a direction
:math:`D v` in which the data do not change; the parameters with a component of at
least 10 % of the largest in such a :math:`v` are *not identifiable* and their
variance, interval and correlations are NaN.  A parameter orthogonal to every such
direction keeps its variance :math:`s^2 [D (J D)^{+\top}(J D)^{+} D]_{jj}` — it is an
estimable function, and the pseudo-inverse gives its variance exactly.

:class:`FitResult` holds the estimate, its statistics, the cost of every start and the
fitted series, with :meth:`FitResult.summary` (a text table), :meth:`FitResult.to_dict`
(JSON) and :meth:`FitResult.plot` (Matplotlib).
"""

from __future__ import annotations

import math
import pathlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import ModelError
from ..quantities import pretty_unit

__all__ = ["FitResult", "Series", "Statistics", "statistics"]

#: a component of a null direction at least this fraction of its largest names the parameter
_NAMED = 0.1


@dataclass(frozen=True)
class Statistics:
    """What :func:`statistics` returns (see the module docstring)."""

    stderr: dict[str, float]
    ci95: dict[str, tuple[float, float]]
    covariance: np.ndarray
    correlation: np.ndarray
    s2: float
    non_identifiable: tuple[str, ...]
    null_directions: tuple[dict[str, float], ...]
    at_bound: tuple[str, ...]


def statistics(jac: np.ndarray | None, r: np.ndarray | None, x: np.ndarray, bounds: Any,
               typical: np.ndarray, rank_tol: float) -> Statistics:
    """Linearized statistics at the optimum ``x`` (module docstring).  ``jac`` may have
    NaN columns (sensitivities whose runs failed): those parameters are reported as
    not identifiable.  ``jac`` or ``r`` ``None`` (the run fails at ``x``): all NaN."""
    from scipy.stats import t as student_t

    names = tuple(bounds.names)
    p = len(names)
    nan = np.full((p, p), np.nan)
    span = np.where(np.isfinite(bounds.high - bounds.low), bounds.high - bounds.low, typical)
    near = 1e-6 * span
    at_bound = tuple(n for n, xj, lo, hi, tol in zip(names, x, bounds.low, bounds.high, near,
                                                     strict=True)
                     if xj - lo <= tol or hi - xj <= tol)
    if jac is None or r is None:
        return Statistics({n: math.nan for n in names}, {n: (math.nan, math.nan) for n in names},
                          nan, nan.copy(), math.nan, (), (), at_bound)
    m = r.size
    s2 = float(r @ r) / (m - p)
    d = np.maximum(np.abs(x), 1e-2 * typical)
    broken = ~np.all(np.isfinite(jac), axis=0)
    js = np.where(broken, 0.0, jac) * d
    _, sv, vt = np.linalg.svd(js, full_matrices=False)
    keep = sv > rank_tol * sv[0] if sv.size and sv[0] > 0 else np.zeros(sv.size, dtype=bool)
    null = [vt[k] for k in range(sv.size) if not keep[k]]
    bad = np.array(broken)
    directions = []
    for v in null:
        named = np.abs(v) >= _NAMED * np.max(np.abs(v))
        bad |= named
        directions.append({n: float(c) for n, c, on in zip(names, v, named, strict=True) if on})
    inv = (vt[keep].T / sv[keep] ** 2) @ vt[keep]
    cov = s2 * (d[:, None] * inv * d[None, :])
    cov[bad, :] = np.nan
    cov[:, bad] = np.nan
    se = np.sqrt(np.where(np.diag(cov) >= 0, np.diag(cov), np.nan))
    with np.errstate(invalid="ignore", divide="ignore"):
        corr = cov / np.outer(se, se)
    q = float(student_t.ppf(0.975, m - p))
    stderr = {n: float(s) for n, s in zip(names, se, strict=True)}
    ci = {n: (float(xj - q * s), float(xj + q * s)) for n, xj, s in zip(names, x, se, strict=True)}
    return Statistics(stderr, ci, cov, corr, s2,
                      tuple(n for n, b in zip(names, bad, strict=True) if b),
                      tuple(directions), at_bound)


@dataclass(frozen=True)
class Series:
    """The data and the fit over the data times ``t`` (s): ``measured`` and ``fitted``
    (``{column: values}``, SI; ``fitted`` empty when the best point does not run),
    ``units`` and ``kinds`` of each column."""

    t: np.ndarray
    measured: dict[str, np.ndarray]
    fitted: dict[str, np.ndarray]
    units: dict[str, str]
    kinds: dict[str, str]


def _json(x: float) -> float | None:
    return float(x) if math.isfinite(x) else None


@dataclass(frozen=True)
class FitResult:
    r"""The outcome of :func:`~porthamiltonian.ensemble.fit`.

    ``values``, ``stderr`` and ``ci95`` (``{name: (low, high)}``, 95 %) by parameter (SI;
    NaN for a parameter that is not identifiable); ``covariance`` and ``correlation``
    (``p × p``, in the order of ``names``); ``cost`` :math:`\tfrac12\sum r^2` of the
    weighted residuals; ``rms`` the root-mean-square misfit of each measured variable (its
    SI unit); ``nfev`` the simulations run (sensitivities included); ``success`` and
    ``message`` (SciPy's, or why the best point failed); ``starts`` every start
    (``x0``, ``x``, ``cost``, ``success``, ``nsim``, ``message``); ``sigma`` the noise
    levels used (``sigma_estimated``: from the residuals); ``dof`` = m − p and ``s2``
    the residual variance factor; ``non_identifiable`` the parameters along
    ``null_directions`` (``{name: component}``, relative changes that leave the fit as
    it is); ``at_bound`` parameters that ended on a bound (their linearized interval
    ignores it); ``units`` of the parameters where the model file gave them.
    """

    names: tuple[str, ...]
    values: dict[str, float]
    stderr: dict[str, float]
    ci95: dict[str, tuple[float, float]]
    covariance: np.ndarray
    correlation: np.ndarray
    cost: float
    rms: dict[str, float]
    nfev: int
    success: bool
    message: str
    starts: list[dict[str, Any]]
    sigma: dict[str, float] = field(default_factory=dict)
    sigma_estimated: bool = True
    dof: int = 0
    s2: float = math.nan
    non_identifiable: tuple[str, ...] = ()
    null_directions: tuple[dict[str, float], ...] = ()
    at_bound: tuple[str, ...] = ()
    units: dict[str, str] = field(default_factory=dict)
    model: str = ""
    source: str = ""
    series: Series | None = field(default=None, repr=False)

    @property
    def start_costs(self) -> list[float]:
        """The cost each start ended at, in start order (the first is the guess)."""
        return [float(s["cost"]) for s in self.starts]

    def identifiability(self) -> str:
        """One sentence on what the data cannot resolve; ``""`` when all is resolved."""
        if not self.non_identifiable:
            return ""
        parts = []
        for d in self.null_directions:
            top = max(abs(c) for c in d.values())
            parts.append(", ".join(f"{n} {c / top:+.2g}" for n, c in d.items()))
        along = "; ".join(f"({p})" for p in parts)
        return (f"not identifiable from these data: {', '.join(self.non_identifiable)} — "
                f"the fit does not change when they move together in the relative proportions "
                f"{along}" if parts else
                f"not identifiable: {', '.join(self.non_identifiable)} (their runs fail "
                "next to the optimum)") + \
            "; hold one of them at a known value (one per direction), or measure what " \
            "tells them apart"

    # ------------------------------------------------------------------------ text
    def summary(self) -> str:
        """A text table: values, standard errors, 95 % intervals and units; the misfit,
        the noise levels, the correlations, identifiability and the starts."""
        m = sum(v.size for v in self.series.measured.values()) if self.series else 0
        nvar = len(self.rms)
        head = (f"fit of {self.model or 'the model'} to {self.source}: {m} values "
                f"({nvar} variable{'s' * (nvar != 1)}), {len(self.names)} parameter"
                f"{'s' * (len(self.names) != 1)}, {len(self.starts)} start"
                f"{'s' * (len(self.starts) != 1)}, {self.nfev} simulations")
        status = ("converged: " if self.success else "NOT converged: ") + self.message
        w = max(9, *(len(n) for n in self.names))
        rows = [f"  {'parameter':<{w}}  {'value':>12}  {'std. error':>11}  "
                f"{'95 % interval':<27}  unit"]
        for n in self.names:
            lo, hi = self.ci95[n]
            se = self.stderr[n]
            interval = f"[{lo:.6g}, {hi:.6g}]" if math.isfinite(se) else "(not identifiable)"
            flag = "  (at a bound)" if n in self.at_bound else (
                "  (poorly determined)" if math.isfinite(se)
                and (hi - lo) / 2 > abs(self.values[n]) else "")
            rows.append(f"  {n:<{w}}  {self.values[n]:>12.6g}  "
                        f"{se:>11.3g}  {interval:<27}  "
                        f"{pretty_unit(self.units.get(n, '')) or '-'}{flag}")
        units = self.series.units if self.series else {}

        def q(name: str, x: float) -> str:
            u = pretty_unit(units.get(name, ""))
            return f"{name} = {x:.3g}" + (f" {u}" if u else "")

        lines = [head, f"  {status}", *rows,
                 "  rms misfit: " + ", ".join(q(n, x) for n, x in self.rms.items()),
                 f"  noise σ ({'estimated from the residuals' if self.sigma_estimated else 'given'}"
                 "): " + ", ".join(q(n, x) for n, x in self.sigma.items()),
                 f"  cost ½Σr² = {self.cost:.6g}, s² = {self.s2:.4g} with {self.dof} degrees "
                 "of freedom"]
        if len(self.names) > 1 and np.any(np.isfinite(self.correlation)):
            lines.append("  correlation:")
            lines.append("    " + " " * w + "".join(f"{n[:8]:>9}" for n in self.names))
            for i, n in enumerate(self.names):
                cells = "".join(f"{self.correlation[i, j]:>9.3f}" if math.isfinite(
                    self.correlation[i, j]) else f"{'-':>9}" for j in range(i + 1))
                lines.append(f"    {n:<{w}}{cells}")
        if self.non_identifiable:
            lines.append("  " + self.identifiability())
        if self.at_bound:
            lines.append(f"  at a bound: {', '.join(self.at_bound)} (widen the bounds if the "
                         "optimum lies beyond; the interval ignores the bound)")
        if len(self.starts) > 1:
            best = int(np.argmin([c if math.isfinite(c) else np.inf for c in self.start_costs]))
            costs = ", ".join(f"{c:.4g}" for c in self.start_costs)
            lines.append(f"  starts: cost {costs} (the first from the guess); best: start "
                         f"{best + 1}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.summary()

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``"parameters"`` → ``{name: {"value", "stderr", "ci95": [lo, hi],
        "unit"}}``, ``"cost"``, ``"rms"``, ``"success"``, ``"message"``, ``"nfev"``,
        ``"starts"``, and ``"sigma"``, ``"sigma_estimated"``, ``"s2"``, ``"dof"``,
        ``"correlation"``, ``"non_identifiable"``, ``"at_bound"``, ``"model"``,
        ``"data"`` (NaN and ∞ become ``null``)."""
        params = {n: {"value": _json(self.values[n]), "stderr": _json(self.stderr[n]),
                      "ci95": [_json(self.ci95[n][0]), _json(self.ci95[n][1])],
                      "unit": self.units.get(n, "")} for n in self.names}
        starts = [{"x0": s["x0"], "x": s["x"], "cost": _json(s["cost"]),
                   "success": bool(s["success"]), "nsim": int(s["nsim"]),
                   "message": s["message"]} for s in self.starts]
        return {"parameters": params, "cost": _json(self.cost),
                "rms": {k: _json(v) for k, v in self.rms.items()},
                "success": bool(self.success), "message": self.message, "nfev": int(self.nfev),
                "starts": starts, "sigma": {k: _json(v) for k, v in self.sigma.items()},
                "sigma_estimated": bool(self.sigma_estimated), "s2": _json(self.s2),
                "dof": int(self.dof),
                "correlation": {"names": list(self.names),
                                "matrix": [[_json(float(c)) for c in row]
                                           for row in self.correlation]},
                "non_identifiable": list(self.non_identifiable),
                "at_bound": list(self.at_bound), "model": self.model, "data": self.source}

    # ------------------------------------------------------------------------ plot
    def plot(self, path: str | pathlib.Path | None = None,
             variables: Sequence[str] | None = None) -> Any:
        """Data (dots) and fit (line) of each measured variable over time, with the
        residual fit − data below; axes labelled with units.  Returns the Matplotlib
        :class:`~matplotlib.figure.Figure`; with ``path`` it is also saved there (the
        suffix chooses the format: .png, .svg, .pdf)."""
        from matplotlib.figure import Figure

        if self.series is None:
            raise ModelError("this fit holds no series to plot")
        s = self.series
        names = list(variables) if variables is not None else list(s.measured)
        unknown = [n for n in names if n not in s.measured]
        if unknown:
            raise ModelError(f"plot: {unknown[0]!r} was not fitted; the variables are "
                             f"{', '.join(s.measured)}")
        fig = Figure(figsize=(4.2 * len(names) + 1.0, 5.0), layout="constrained")
        axes = fig.subplots(2, len(names), sharex=True, squeeze=False,
                            gridspec_kw={"height_ratios": [3, 1]})
        for k, n in enumerate(names):
            top, bottom = axes[0, k], axes[1, k]
            unit = pretty_unit(s.units.get(n, ""))
            label = f"{n} ({unit})" if unit else n
            top.plot(s.t, s.measured[n], ".", ms=3, color="0.35", label="data")
            if n in s.fitted:
                top.plot(s.t, s.fitted[n], "-", lw=1.5, color="C0", label="fit")
                bottom.plot(s.t, s.fitted[n] - s.measured[n], ".", ms=3, color="C3")
            bottom.axhline(0.0, color="0.5", lw=0.8)
            top.set_ylabel(f"{s.kinds.get(n) or n}: {label}" if s.kinds.get(n) else label)
            bottom.set_ylabel(f"fit − data ({unit})" if unit else "fit − data")
            bottom.set_xlabel("t (s)")
            top.legend(loc="best", fontsize="small")
            top.set_title(f"{n}: rms misfit {self.rms[n]:.3g}" + (f" {unit}" if unit else ""),
                          fontsize="medium")
        fig.suptitle(f"fit of {self.model or 'the model'}: " + ", ".join(
            f"{n} = {self.values[n]:.4g}" + (f" {pretty_unit(self.units[n])}"
                                             if self.units.get(n) else "")
            for n in self.names), fontsize="medium")
        if path is not None:
            try:
                fig.savefig(path, dpi=100)
            except (ValueError, OSError) as err:
                raise ModelError(f"cannot save the plot to {path} ({err}); give a writable "
                                 ".png, .svg or .pdf file") from None
        return fig
