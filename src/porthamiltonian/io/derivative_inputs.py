r"""Inputs that are the time derivatives of other inputs: ``I_s.dot`` from ``I_s``.

A model may take the derivative of one of its inputs as another input (a bond graph
whose storage is fixed by a source, :mod:`porthamiltonian.bondgraph.forced`); it says
which in ``system.input_derivatives = {"I_s.dot": "I_s"}``.  The user gives ``I_s``
only, and :func:`with_input_derivatives` completes the input dictionary with the
derivative, so the two are consistent by construction:

* an **expression** of ``t`` (a SymPy expression or a text for the safe parser) is
  differentiated exactly (:func:`sympy.diff`); an expression whose derivative is
  infinite somewhere (a ``heaviside`` step gives a Dirac delta) is refused with the
  advice to smooth it;
* a **table** (:class:`~porthamiltonian.simulate.Tabulated`, linear interpolation) is
  interpolated by a cubic spline through its samples (SciPy's
  :class:`~scipy.interpolate.CubicSpline`, "not-a-knot" ends) for the input *and* its
  derivative: the derivative is continuous and is the exact derivative of the input
  the model sees (a zero-order-hold table has no finite derivative and is refused);
* a **number** or a missing input is constant: derivative zero;
* a **callable** ``u(t)`` is differentiated by central differences
  (:math:`h = \epsilon^{1/3}\max(1, |t|)`, error :math:`O(h^2)\approx 10^{-11}` of the
  signal's scale for a smooth signal); give a SymPy expression of
  :data:`porthamiltonian.expr.T` instead for an exact derivative.  State feedback
  ``u(t, x)`` is refused: its derivative would need :math:`\dot x`.

A derivative input already in the dictionary is kept as given.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError
from ..expr import T, parse_expression

__all__ = ["with_input_derivatives", "SplineInput"]

#: relative step of the central difference of a callable input (≈ ε^(1/3))
_H = float(np.finfo(float).eps) ** (1.0 / 3.0)


def with_input_derivatives(system: Any, inputs: Any) -> Any:
    """``inputs`` (input name → signal) completed with the derivative inputs that
    ``system.input_derivatives`` names, as a new dict; ``inputs`` itself (whatever
    :func:`porthamiltonian.simulate` accepts) when the system names none.

    Raises :class:`ModelError` naming the input when its derivative is not finite (a
    step, a zero-order hold) or cannot be formed (state feedback), or when ``inputs``
    is not a dictionary by name.
    """
    pairs: Mapping[str, str] = getattr(system, "input_derivatives", None) or {}
    if not pairs:
        return inputs
    if inputs is not None and not isinstance(inputs, Mapping):
        raise ModelError(
            f"the model takes the derivative(s) {', '.join(pairs)} of its inputs as inputs; "
            "give the input signals as a dict by name ({'I_s': ...}) so they can be formed")
    out = dict(inputs or {})
    for rate, base in pairs.items():
        if rate in out:
            continue
        signal, derivative = _differentiated(out.get(base), base, rate)
        if signal is not None:
            out[base] = signal
        if derivative is not None:
            out[rate] = derivative
    return out


def _differentiated(spec: Any, base: str, rate: str) -> tuple[Any, Any]:
    """``(signal to use for base or None: keep it, its derivative or None: zero)``."""
    # imported here: validating a model file must not load the simulator
    from ..simulate.problem.tabulated import Tabulated

    if spec is None or isinstance(spec, (int, float, np.number)):
        return None, None
    if isinstance(spec, str):
        if spec.strip().lower().endswith(".csv"):
            raise ModelError(f"input {base}: give the table as a Tabulated (or in a model "
                             f"file) so that its derivative {rate} can be formed")
        spec = parse_expression(spec, {}, where=f"input {base}", allow_t=True)
    if isinstance(spec, sp.Basic):
        return None, _expression_rate(sp.sympify(spec), base, rate)
    if isinstance(spec, Tabulated):
        if spec.values.shape[1] != 1:
            raise ModelError(f"input {base}: {spec.source} has several signal columns; give "
                             "the one-column table of this input (Tabulated.column)")
        spline = SplineInput(spec.t, spec.values[:, 0], source=spec.source, kind=spec.kind,
                             name=base)
        return spline, spline.derivative
    if callable(spec):
        return None, _central_difference(spec, base, rate)
    raise ModelError(f"input {base}: cannot form its derivative {rate} from "
                     f"{type(spec).__name__} {spec!r}; give an expression of t, a table, or "
                     "a callable u(t)")


def _expression_rate(expr: sp.Expr, base: str, rate: str) -> sp.Expr:
    d = sp.diff(expr, T)
    if d.has(sp.DiracDelta) or d.has(sp.Derivative) or d.has(sp.Subs):
        raise ModelError(
            f"input {base} = {expr} jumps or has no derivative somewhere, and the model needs "
            f"its time derivative ({rate}: a storage is fixed by this source, so an "
            "infinite effort or flow would be needed); smooth it, e.g. "
            "I0*(1 - exp(-t/tau)) instead of I0*heaviside(t)")
    return d


def _central_difference(f: Callable[..., Any], base: str, rate: str) -> Callable[[float], float]:
    import inspect

    try:
        n = len([p for p in inspect.signature(f).parameters.values()
                 if p.default is p.empty and p.kind.name != "VAR_KEYWORD"])
    except (TypeError, ValueError):
        n = 1
    if n > 1:
        raise ModelError(f"input {base} is a feedback u(t, x): its derivative {rate} would "
                         "need ẋ; give u as a function of t only, or the derivative itself "
                         f"as input {rate}")

    def df(t: float) -> float:
        h = _H * max(1.0, abs(t))
        return (float(f(t + h)) - float(f(t - h))) / (2.0 * h)

    return df


class SplineInput:
    """A sampled signal interpolated by a cubic spline; ``.derivative`` is its
    derivative (a callable of ``t`` too).  No extrapolation outside the samples."""

    def __init__(self, t: Any, values: Any, *, source: str = "table", kind: str = "linear",
                 name: str = "u", order: int = 0) -> None:
        from scipy.interpolate import CubicSpline

        t = np.asarray(t, dtype=float)
        values = np.asarray(values, dtype=float)
        if kind in ("zoh", "previous"):
            raise ModelError(f"input {name} ({source}): a zero-order-hold table jumps at every "
                             "sample, so its time derivative (which the model needs) is "
                             "infinite there; use interpolation: linear (the table is then "
                             "interpolated by a cubic spline)")
        if t.size < 2:
            raise ModelError(f"input {name} ({source}): needs at least two samples to have "
                             "a derivative")
        spline = CubicSpline(t, values) if t.size > 2 else CubicSpline(t, values, bc_type="natural")
        self._spline = spline if order == 0 else spline.derivative(order)
        self._base = spline
        self.source, self.name, self.order = source, name, order
        self.start, self.end = float(t[0]), float(t[-1])
        self.t = t

    @property
    def derivative(self) -> SplineInput:
        d = object.__new__(SplineInput)
        d.__dict__.update(self.__dict__)
        d.order = self.order + 1
        d._spline = self._base.derivative(d.order)
        return d

    def __call__(self, t: float) -> float:
        if not self.start <= t <= self.end:
            raise ModelError(f"input table {self.source} covers t = {self.start:g} … "
                             f"{self.end:g} s; the simulation needs t = {t:g} s (extend the "
                             "table or the time span)")
        return float(self._spline(t))
