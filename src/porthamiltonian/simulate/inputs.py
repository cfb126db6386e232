r"""Input signals :math:`u(t)` or :math:`u(t, x)` for a simulation.

A signal is built once from what the user gives (:func:`make_signal`) and then
called as ``signal(t, x) -> u`` with ``t`` in s, ``x`` of shape ``(n,)`` and
``u`` of shape ``(m,)`` in the units of the system's inputs (V, N, A, ...).

Accepted specifications (for the whole input vector, or per input name in a dict):

- ``None`` — zero input;
- a number or array — constant input;
- a callable ``u(t)`` or ``u(t, x)`` — the second form is state feedback;
- a string — an expression of ``t`` read with the safe parser
  (:func:`porthamiltonian.expr.parse_expression`, never ``eval``);
- a SymPy expression in :data:`porthamiltonian.expr.T` (what model files give);
- a dict ``{input name: any of the above (scalar)}``; missing inputs are zero.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError
from ..expr import T, parse_expression

__all__ = ["InputSignal", "make_signal"]

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
    ) -> None:
        self.m = m
        self.feedback = feedback
        self._vector = vector

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


def _takes_state(func: Callable[..., Any]) -> bool:
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return False
    kinds = ("POSITIONAL_ONLY", "POSITIONAL_OR_KEYWORD", "VAR_POSITIONAL")
    positional = [p for p in params if p.kind.name in kinds]
    return len(positional) >= 2 or any(p.kind == p.VAR_POSITIONAL for p in positional)


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


def _scalar(spec: Any, where: str) -> tuple[Scalar, bool]:
    """One scalar component: ``(function of (t, x), depends on x)``."""
    if spec is None:
        return (lambda t, x: 0.0), False
    if isinstance(spec, str):
        spec = parse_expression(spec, {}, where=where, allow_t=True)
    if isinstance(spec, sp.Basic):
        g = _expression(sp.sympify(spec), where)
        return (lambda t, x: g(t)), False
    if callable(spec):
        if _takes_state(spec):
            return (lambda t, x: float(np.asarray(spec(t, x)).reshape(()))), True
        return (lambda t, x: float(np.asarray(spec(t)).reshape(()))), False
    try:
        value = float(spec)
    except (TypeError, ValueError):
        raise ModelError(
            f"{where}: cannot use {type(spec).__name__} {spec!r} as an input; give a number, "
            "an expression of t, or a callable u(t) / u(t, x)"
        ) from None
    return (lambda t, x: value), False


def make_signal(spec: Any, inputs: Sequence[str]) -> InputSignal:
    """Build the input signal of a system with input names ``inputs`` from ``spec``."""
    m = len(inputs)
    if spec is None or m == 0:
        if spec is not None and not isinstance(spec, Mapping):
            raise ModelError("an input signal was given but the system has no inputs")
        return InputSignal(m)
    if isinstance(spec, Mapping):
        unknown = [k for k in spec if k not in inputs]
        if unknown:
            raise ModelError(
                f"unknown input(s) {', '.join(map(str, unknown))}; the system's inputs are: "
                f"{', '.join(inputs)}"
            )
        parts = [_scalar(spec.get(name), f"input {name}") for name in inputs]
        funcs = [p[0] for p in parts]
        return InputSignal(
            m, lambda t, x: np.array([f(t, x) for f in funcs]), any(p[1] for p in parts)
        )
    if isinstance(spec, (str, sp.Basic)):
        if m != 1:
            raise ModelError(
                f"an expression is one signal but the system has {m} inputs "
                f"({', '.join(inputs)}); give a dict {{input name: expression}}"
            )
        f, fb = _scalar(spec, f"input {inputs[0]}")
        return InputSignal(m, lambda t, x: np.array([f(t, x)]), fb)
    if callable(spec):
        if _takes_state(spec):
            return InputSignal(m, spec, True)
        return InputSignal(m, lambda t, x: spec(t), False)
    try:
        value = np.broadcast_to(np.asarray(spec, dtype=float), (m,)).copy()
    except (TypeError, ValueError):
        raise ModelError(
            f"cannot use {type(spec).__name__} as the input of a system with {m} input(s); "
            "give a number, an array of length m, a callable or a dict by input name"
        ) from None
    return InputSignal(m, lambda t, x: value, False)
