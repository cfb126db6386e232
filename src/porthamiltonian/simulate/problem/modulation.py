r"""Piecewise-constant modulation of a PHS: switches and PWM.

A *modulated* PHS has structure matrices that depend on a free parameter :math:`S`
(a switch position, a transformer ratio) that changes only at given instants:

.. math::

    \dot x = \big(J(S) - R(S)\big)\nabla H(x) + \big(G(S) - P(S)\big)u,\qquad
    S(t) = S_i \ \text{on}\ [t_i, t_{i+1}).

Examples: the ideal boost converter with :math:`J(S) = \begin{bmatrix}0 & -(1-S)\\
1-S & 0\end{bmatrix}` (Duindam et al., *Modeling and Control of Complex Physical
Systems*, Springer 2009, §3.1; Escobar et al., *A Hamiltonian viewpoint in the
modeling of switching power converters*, Automatica 35, 1999).  For every fixed
:math:`S` the matrix :math:`J(S)` is skew and :math:`R(S) \succeq 0`, so as long as a
step never straddles a switching instant every structure-preserving method keeps its
discrete power balance exactly across the switches: the simulation driver puts a
step boundary on every instant :meth:`PiecewiseConstant.breakpoints` reports.

:class:`ModulatedCompilation` compiles the system **once**, with the modulation
symbols as extra runtime arguments of the generated NumPy functions; switching only
evaluates those functions at the new value (no SymPy during the run).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp

from ...compiled import NumericPHS
from ...errors import ModelError, StructureError
from ...structure import DEFAULT_TOL, check_psd, check_skew

__all__ = ["PiecewiseConstant", "PWM", "pwm", "ModulatedCompilation", "Modulation"]

_NAMES = ("J", "R", "G", "P", "M", "S")


class PiecewiseConstant:
    """Signal equal to ``values[i]`` on ``[times[i], times[i+1])`` (s), the last value
    from ``times[-1]`` on.  Right-continuous; defined from ``times[0]`` on.

    >>> s = PiecewiseConstant([0.0, 1.0, 2.5], [0.0, 1.0, 0.0])
    >>> s(1.0), s(0.99), s.breakpoints(0.0, 3.0)
    (1.0, 0.0, array([1. , 2.5]))
    """

    def __init__(self, times: Sequence[float], values: Sequence[float]) -> None:
        t = np.asarray(times, dtype=float).ravel()
        v = np.asarray(values, dtype=float).ravel()
        if t.size == 0 or t.size != v.size:
            raise ModelError(f"PiecewiseConstant needs as many values as times (got {t.size} "
                             f"times and {v.size} values)")
        if not (np.all(np.isfinite(t)) and np.all(np.isfinite(v))):
            raise ModelError("PiecewiseConstant: times and values must be finite numbers")
        if np.any(np.diff(t) <= 0):
            k = int(np.flatnonzero(np.diff(t) <= 0)[0])
            raise ModelError(f"PiecewiseConstant: times must increase; times[{k + 1}] = "
                             f"{t[k + 1]:g} s does not come after times[{k}] = {t[k]:g} s")
        self.times, self.values = t, v
        self.start = float(t[0])

    def __call__(self, t: float) -> float:
        k = int(np.searchsorted(self.times, t, side="right")) - 1
        return float(self.values[max(k, 0)])

    def breakpoints(self, t0: float, t1: float) -> np.ndarray:
        """Switching instants strictly inside ``(t0, t1)`` (s)."""
        t = self.times
        return t[(t > t0) & (t < t1)]


class PWM:
    r"""Pulse-width modulation: ``high`` on :math:`[t_0 + kT,\ t_0 + kT + DT)`, ``low``
    elsewhere (``low`` before :math:`t_0`); period :math:`T` (s), duty ratio
    :math:`D \in [0, 1]`."""

    def __init__(self, period: float, duty: float, t0: float = 0.0, high: float = 1.0,
                 low: float = 0.0) -> None:
        if not (period > 0 and math.isfinite(period)):
            raise ModelError(f"pwm: the period must be a positive number of seconds, got "
                             f"{period!r}")
        if not 0.0 <= duty <= 1.0:
            raise ModelError(f"pwm: the duty ratio must lie in [0, 1], got {duty!r}")
        self.period, self.duty, self.t0 = float(period), float(duty), float(t0)
        self.high, self.low = float(high), float(low)
        self.start = -math.inf

    def __call__(self, t: float) -> float:
        if t < self.t0:
            return self.low
        phase = (t - self.t0) / self.period
        frac = phase - math.floor(phase)
        # an instant computed as t0 + kT + DT may sit one ulp before the edge: snap it
        if abs(frac - self.duty) <= 1e-12 or abs(frac - 1.0) <= 1e-12:
            frac = self.duty if abs(frac - self.duty) <= 1e-12 else 0.0
        return self.high if frac < self.duty else self.low

    def breakpoints(self, t0: float, t1: float) -> np.ndarray:
        """Rising and falling edges strictly inside ``(t0, t1)`` (s)."""
        if self.duty in (0.0, 1.0):
            edges = np.array([self.t0]) if self.duty == 1.0 else np.zeros(0)
            return edges[(edges > t0) & (edges < t1)]
        k0 = max(0, math.floor((t0 - self.t0) / self.period))
        k1 = math.ceil((t1 - self.t0) / self.period)
        k = np.arange(k0, k1 + 1, dtype=float)
        starts = self.t0 + k * self.period
        edges = np.concatenate([starts, starts + self.duty * self.period])
        edges.sort()
        return edges[(edges > t0) & (edges < t1)]


def pwm(period: float, duty: float, t0: float = 0.0, *, high: float = 1.0,
        low: float = 0.0) -> PWM:
    """A :class:`PWM` switch signal (1 for the first ``duty·period`` of each period)."""
    return PWM(period, duty, t0, high, low)


def _as_signal(name: str, spec: Any) -> Any:
    if hasattr(spec, "breakpoints") and callable(spec):
        return spec
    try:
        value = float(spec)
    except (TypeError, ValueError):
        raise ModelError(
            f"modulation {name!r}: give a PiecewiseConstant, pwm(...) or a number, not "
            f"{type(spec).__name__} (a modulation must be piecewise constant so that steps "
            "can land on its switching instants)"
        ) from None
    const = PiecewiseConstant([0.0], [value])
    const.start = -math.inf  # a constant holds for all times
    return const


class ModulatedCompilation:
    """A symbolic PHS compiled once with its modulation symbols as runtime arguments.

    :meth:`bind` returns the :class:`~porthamiltonian.compiled.NumericPHS` for one value
    of the modulation vector: for a linear system (quadratic :math:`H(x)`, matrices free
    of :math:`x`) the constant matrices at that value (so LTI methods factor once per
    distinct value), otherwise functions of :math:`x` with the value bound.
    """

    def __init__(self, system: Any, names: Sequence[str]) -> None:
        if not getattr(system, "symbolic", False):
            raise ModelError("modulation needs a symbolic PHS whose matrices contain the "
                             "modulated parameter(s) as symbols; this system is numeric")
        free = system.free_parameters()
        for name in names:
            if name not in free:
                raise ModelError(
                    f"modulation {name!r}: the system has no free parameter {name!r}; its "
                    f"parameters are: {', '.join(free) or '(none)'}"
                )
        xs = list(system.state_symbols)
        mats = system.matrices()
        H = system.hamiltonian
        everything = set(H.free_symbols).union(*(A.free_symbols for A in mats.values()))
        by_name: dict[str, list[sp.Symbol]] = {}
        for s in everything:
            by_name.setdefault(s.name, []).append(s)
        ss = [sp.Symbol(f"_mod_{name}", real=True) for name in names]
        rename = {s: ss[i] for i, name in enumerate(names) for s in by_name[name]}
        values = {k: v for k, v in system.parameter_values().items() if k.name not in names}
        H = sp.sympify(H).xreplace(values).xreplace(rename)
        mats = {k: sp.Matrix(A).xreplace(values).xreplace(rename) for k, A in mats.items()}
        known = set(xs) | set(ss)
        missing = sorted({s.name for s in H.free_symbols.union(
            *(A.free_symbols for A in mats.values())) - known})
        if missing:
            raise ModelError(f"parameters without a value: {', '.join(missing)}; give them with "
                             f"sys.subs({missing[0]}=...) or modulate them too")
        self.names = list(names)
        self.states, self.inputs = list(system.states), list(system.inputs)
        self.n, self.m = len(xs), system.n_inputs
        args = [xs, ss]
        grad = [sp.diff(H, xi) for xi in xs]
        hess = sp.Matrix(grad).jacobian(xs) if xs else sp.zeros(0, 0)
        mats_x_free = not any(A.free_symbols & set(xs) for A in mats.values())
        origin = dict.fromkeys(xs, 0)
        self.linear = bool(
            mats_x_free and not (hess.free_symbols & set(xs))
            and sp.simplify(H.subs(origin)) == 0 and all(g.subs(origin) == 0 for g in grad)
        )
        lam = _lambdify(args)
        self._mats = {k: lam(A) for k, A in mats.items()}
        self._H, self._grad, self._hess = lam(H), lam(grad), lam(hess)
        if not self.linear:
            us = [sp.Dummy(f"u{k}") for k in range(self.m)]
            f = (mats["J"] - mats["R"]) * sp.Matrix(grad) + (mats["G"] - mats["P"]) * sp.Matrix(
                self.m, 1, us)
            self._jac = _lambdify([xs, ss, us])(f.jacobian(xs))
        self._cache: dict[tuple[float, ...], NumericPHS] = {}

    def bind(self, s: np.ndarray) -> NumericPHS:
        """The numeric system at modulation value ``s`` (cached per distinct value)."""
        key = tuple(float(v) for v in s)
        num = self._cache.get(key)
        if num is None:
            if len(self._cache) > 64:  # a continuously varying modulation: keep it bounded
                self._cache.clear()
            num = self._linear(s) if self.linear else self._nonlinear(s)
            self._cache[key] = num
        return num

    def _shape(self, name: str) -> tuple[int, int]:
        n, m = self.n, self.m
        return {"J": (n, n), "R": (n, n), "G": (n, m), "P": (n, m)}.get(name, (m, m))

    def _linear(self, s: np.ndarray) -> NumericPHS:
        zero = np.zeros(self.n)
        mats = {k: np.asarray(f(zero, s), dtype=float).reshape(self._shape(k))
                for k, f in self._mats.items()}
        Q = np.asarray(self._hess(zero, s), dtype=float).reshape(self.n, self.n)
        self._check(mats, s)
        return NumericPHS.from_linear(mats, Q)

    def _check(self, mats: dict[str, np.ndarray], s: np.ndarray) -> None:
        """J skew and [[R, P], [Pᵀ, S]] ⪰ 0 at this modulation value: a structure that
        holds only for some values (a negative resistance at S = 2) must not run."""
        at = ", ".join(f"{k} = {v:g}" for k, v in zip(self.names, s, strict=True))
        W = np.block([[mats["R"], mats["P"]], [mats["P"].T, mats["S"]]])
        labels = self.states + self.inputs
        try:
            check_skew(mats["J"], f"J at {at}", self.states, DEFAULT_TOL)
            check_psd(W, labels, DEFAULT_TOL, f"[[R, P], [Pᵀ, S]] at {at}")
        except StructureError as err:
            raise StructureError(f"modulation: {err}") from None

    def _nonlinear(self, s: np.ndarray) -> NumericPHS:
        n, m = self.n, self.m
        num = NumericPHS(n, m)
        s = np.array(s, dtype=float)
        for k, f in self._mats.items():
            shape = self._shape(k)
            num._mats[k] = lambda x, f=f, shape=shape: np.asarray(f(x, s), dtype=float).reshape(
                shape)
        H, grad, hess, jac = self._H, self._grad, self._hess, self._jac
        num._H = lambda x: float(H(x, s))
        num._grad = lambda x: np.asarray(grad(x, s), dtype=float).reshape(n)
        num._hess = lambda x: np.asarray(hess(x, s), dtype=float).reshape(n, n)
        num._jac_rhs = lambda x, u: np.asarray(jac(x, s, u), dtype=float).reshape(n, n)
        return num


def _lambdify(args: list) -> Callable[[Any], Callable[..., Any]]:
    return lambda expr: sp.lambdify(args, expr, modules="numpy", cse=True)


class Modulation:
    """The modulation signals of a run and the compiled system they act on."""

    def __init__(self, system: Any, spec: Mapping[str, Any]) -> None:
        if not isinstance(spec, Mapping) or not spec:
            raise ModelError("modulation must be a dict {parameter name: signal}")
        self.names = [str(k) for k in spec]
        self.signals = [_as_signal(k, v) for k, v in spec.items()]
        self.compiled = ModulatedCompilation(system, self.names)

    def check_start(self, t0: float) -> None:
        for name, sig in zip(self.names, self.signals, strict=True):
            start = getattr(sig, "start", -math.inf)
            if t0 < start:
                raise ModelError(f"modulation {name!r} is defined from t = {start:g} s on, but "
                                 f"the simulation starts at t = {t0:g} s")

    def value(self, t: float) -> np.ndarray:
        return np.array([float(sig(t)) for sig in self.signals])

    def numeric(self, t: float) -> tuple[tuple[float, ...], NumericPHS]:
        """``(key, NumericPHS)`` of the structure in force at time ``t`` (s)."""
        s = self.value(t)
        return tuple(s.tolist()), self.compiled.bind(s)

    def breakpoints(self, t0: float, t1: float) -> np.ndarray:
        pts = [np.asarray(sig.breakpoints(t0, t1), dtype=float) for sig in self.signals]
        return np.unique(np.concatenate(pts)) if pts else np.zeros(0)
