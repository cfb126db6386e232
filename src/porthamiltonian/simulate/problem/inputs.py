r"""Input signals :math:`u(t)` or :math:`u(t, x)` for a simulation.

A signal is built once from what the user gives (:func:`make_signal`) and then
called as ``signal(t, x) -> u`` with ``t`` in s, ``x`` of shape ``(n,)`` and
``u`` of shape ``(m,)`` in the units of the system's inputs (V, N, A, ...).

Accepted specifications (for the whole input vector, or per input name in a dict):

- ``None`` — zero input;
- a number or array — constant input;
- a callable ``u(t)``, ``u(t, x)`` (state feedback) or ``u(t, x, y)`` (output
  feedback, with :math:`y = (G+P)^\top\nabla H(x)`: explicit only when the output does
  not depend on the input, i.e. :math:`M + S = 0`; otherwise a :class:`ModelError`);
- a string — an expression of ``t`` read with the safe parser
  (:func:`porthamiltonian.expr.parse_expression`, never ``eval``), or the name of a
  ``.csv`` file (:class:`.Tabulated`, columns by input name, linear interpolation);
- a :class:`.Tabulated` table or a :class:`.PiecewiseConstant`/:func:`.pwm` signal,
  whose switching instants become step boundaries;
- a SymPy expression in :data:`porthamiltonian.expr.T` (what model files give);
- a dict ``{input name: any of the above (scalar)}``; missing inputs are zero.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp

from ...errors import ModelError
from ...expr import T, parse_expression
from .tabulated import Tabulated

__all__ = ["InputSignal", "make_signal", "output_feedback"]

Scalar = Callable[[float, np.ndarray], float]


class InputSignal:
    """A vector input ``u(t, x)`` assembled from scalar pieces.

    Attributes
    ----------
    m:
        Number of inputs.
    feedback:
        ``True`` when some component depends on the state ``x``.
    """

    def __init__(
        self,
        m: int,
        vector: Callable[[float, np.ndarray], np.ndarray] | None = None,
        feedback: bool = False,
        switched: Sequence[Any] = (),
    ) -> None:
        self.m = m
        self.feedback = feedback
        self._vector = vector
        self._switched = list(switched)

    def breakpoints(self, t0: float, t1: float) -> np.ndarray:
        """Switching instants of piecewise-constant components inside ``(t0, t1)`` (s)."""
        pts = [np.asarray(p.breakpoints(t0, t1), dtype=float) for p in self._switched]
        return np.unique(np.concatenate(pts)) if pts else np.zeros(0)

    def __call__(self, t: float, x: np.ndarray) -> np.ndarray:
        if self._vector is None:
            return np.zeros(self.m)
        u = np.asarray(self._vector(t, x), dtype=float)
        if u.size != self.m:
            raise ModelError(
                f"the input signal gave {u.size} values at t = {t:g} s; the system has "
                f"{self.m} input(s)"
            )
        return u.reshape(self.m)

    def state_jacobian(self, t: float, x: np.ndarray, u: np.ndarray) -> np.ndarray:
        r""":math:`\partial u / \partial x` (m, n) by forward differences (feedback only)."""
        n = x.size
        D = np.zeros((self.m, n))
        if not self.feedback:
            return D
        for j in range(n):
            step = 1e-7 * max(1.0, abs(x[j]))
            xp = x.copy()
            xp[j] += step
            D[:, j] = (self(t, xp) - u) / step
        return D


def _arity(func: Callable[..., Any]) -> int:
    """1 for ``u(t)``, 2 for ``u(t, x)``, 3 for ``u(t, x, y)`` (``*args``: 2)."""
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return 1
    kinds = ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD")
    positional = [p for p in params if p.kind.name in kinds and p.default is p.empty]
    if any(p.kind == p.VAR_POSITIONAL for p in params):
        return max(2, len(positional))
    return max(1, min(3, len(positional)))


def output_feedback(dyn: Any, system: Any) -> Callable[[], Callable[[np.ndarray], np.ndarray]]:
    r"""Factory of :math:`x \mapsto y(x, u{=}0)` for output feedback ``u = k(t, x, y)``.

    Raises :class:`ModelError` when the system has feed-through :math:`M + S \ne 0`:
    then :math:`y` depends on :math:`u` and ``u = k(t, x, y)`` is an algebraic loop.
    """

    def make() -> Callable[[np.ndarray], np.ndarray]:
        for name in ("M", "S"):
            A = getattr(system, name)
            if system.symbolic:
                zero = sp.Matrix(A).is_zero_matrix
            else:
                zero = not (A.count_nonzero() if hasattr(A, "count_nonzero") else np.any(A))
            if not zero:
                raise ModelError(
                    f"output feedback u = k(t, x, y): the output depends on the input (feed-"
                    f"through {name} ≠ 0), so u and y form an algebraic loop; use state "
                    "feedback u(t, x) or interconnect a controller PHS with simulate_feedback"
                )
        zeros = np.zeros(system.n_inputs)
        return lambda x: dyn.num.output(x, zeros)

    return make


def _expression(expr: sp.Expr, where: str) -> Callable[[float], float]:
    extra = expr.free_symbols - {T}
    if extra:
        names = ", ".join(sorted(str(s) for s in extra))
        raise ModelError(
            f"{where}: the input expression uses {names} which has no value; inputs may "
            "depend only on t (give parameters numeric values)"
        )
    f = sp.lambdify([T], expr, modules="numpy")
    return lambda t: float(f(t))


def _scalar(spec: Any, where: str, output: OutputFactory) -> tuple[Scalar, bool]:
    """One scalar component: ``(function of (t, x), depends on x)``."""
    if spec is None:
        return (lambda t, x: 0.0), False
    if isinstance(spec, str) and spec.strip().lower().endswith(".csv"):
        name = where.removeprefix("input ")
        table = Tabulated.from_csv(spec)
        spec = table.column(name) if name in table.names else table
        if spec.values.shape[1] != 1:
            raise ModelError(f"{where}: {table.source} has no column {name!r} and more than one "
                             f"signal column ({', '.join(table.names)})")
    if isinstance(spec, str):
        spec = parse_expression(spec, {}, where=where, allow_t=True)
    if isinstance(spec, sp.Basic):
        g = _expression(sp.sympify(spec), where)
        return (lambda t, x: g(t)), False
    if callable(spec):
        arity = _arity(spec)
        if arity == 3:
            y_of = output()
            return (lambda t, x: float(np.asarray(spec(t, x, y_of(x))).reshape(()))), True
        if arity == 2:
            return (lambda t, x: float(np.asarray(spec(t, x)).reshape(()))), True
        return (lambda t, x: float(np.asarray(spec(t)).reshape(()))), False
    try:
        value = float(spec)
    except (TypeError, ValueError):
        raise ModelError(
            f"{where}: cannot use {type(spec).__name__} {spec!r} as an input; give a number, "
            "an expression of t, a CSV file, or a callable u(t) / u(t, x) / u(t, x, y)"
        ) from None
    return (lambda t, x: value), False


def _no_output() -> Callable[[np.ndarray], np.ndarray]:
    raise ModelError("output feedback u(t, x, y) is not available here")


OutputFactory = Callable[[], Callable[[np.ndarray], np.ndarray]]


def _switched(spec: Any) -> list[Any]:
    return [spec] if hasattr(spec, "breakpoints") and callable(spec) else []


def make_signal(spec: Any, inputs: Sequence[str], output: OutputFactory = _no_output
                ) -> InputSignal:
    """Build the input signal of a system with input names ``inputs`` from ``spec``;
    ``output`` makes the output map for ``u(t, x, y)`` (see :func:`output_feedback`)."""
    m = len(inputs)
    if spec is None or m == 0:
        if spec is not None and not isinstance(spec, Mapping):
            raise ModelError("an input signal was given but the system has no inputs")
        return InputSignal(m)
    if isinstance(spec, str) and spec.strip().lower().endswith(".csv"):
        table = Tabulated.from_csv(spec)
        spec = {name: table.column(name) for name in inputs if name in table.names}
        if not spec:
            if m != 1 or len(table.names) != 1:
                raise ModelError(f"{table.source}: no column named after the inputs "
                                 f"({', '.join(inputs)}); its columns are: "
                                 f"{', '.join(table.names)}")
            spec = {inputs[0]: table}
    if isinstance(spec, Mapping):
        unknown = [k for k in spec if k not in inputs]
        if unknown:
            raise ModelError(
                f"unknown input(s) {', '.join(map(str, unknown))}; the system's inputs are: "
                f"{', '.join(inputs)}"
            )
        parts = [_scalar(spec.get(name), f"input {name}", output) for name in inputs]
        funcs = [p[0] for p in parts]
        switched = [s for name in inputs for s in _switched(spec.get(name))]
        return InputSignal(m, lambda t, x: np.array([f(t, x) for f in funcs]),
                           any(p[1] for p in parts), switched)
    if isinstance(spec, (str, sp.Basic)):
        if m != 1:
            raise ModelError(
                f"an expression is one signal but the system has {m} inputs "
                f"({', '.join(inputs)}); give a dict {{input name: expression}}"
            )
        f, fb = _scalar(spec, f"input {inputs[0]}", output)
        return InputSignal(m, lambda t, x: np.array([f(t, x)]), fb)
    if callable(spec):
        arity = _arity(spec)
        if arity == 3:
            y_of = output()
            return InputSignal(m, lambda t, x: spec(t, x, y_of(x)), True)
        if arity == 2:
            return InputSignal(m, spec, True)
        return InputSignal(m, lambda t, x: spec(t), False, _switched(spec))
    try:
        value = np.broadcast_to(np.asarray(spec, dtype=float), (m,)).copy()
    except (TypeError, ValueError):
        raise ModelError(
            f"cannot use {type(spec).__name__} as the input of a system with {m} input(s); "
            "give a number, an array of length m, a callable or a dict by input name"
        ) from None
    return InputSignal(m, lambda t, x: value, False)
