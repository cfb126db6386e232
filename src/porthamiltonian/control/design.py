r"""The result of an IDA-PBC design: law (symbolic and compiled), closed loop, residual.

Built by :func:`porthamiltonian.control.ida_pbc`; see that function for the method.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError
from ..phs import PHS
from .matching import MatchingSolution
from .minimum import MinimumCheck
from .symbolic import substitute_by_name

__all__ = ["IdaPbc"]


@dataclass(eq=False)
class IdaPbc:
    r"""An IDA-PBC design: law, closed loop and checks (built by :func:`ida_pbc`).

    Attributes
    ----------
    system : PHS
        The plant.
    states : list of str
    x : list of SymPy symbols
        The plant's state symbols (real).
    law : sympy.Matrix (m × 1)
        :math:`\beta(x)` in the state symbols (parameters symbolic where they were).
    Hd : SymPy expression
        Closed-loop energy (J), with the free function chosen.
    Jd, Rd : sympy.ImmutableMatrix
    g_perp : sympy.Matrix
        The left annihilator used in the matching equations (rows).
    solution : MatchingSolution or None
        The general solution with its free function (``None`` when ``Hd`` was supplied).
    phi : SymPy expression or None
        The free function chosen, in the arguments ``solution.arguments``.
    minimum : MinimumCheck
        ``∇Hd(x*)``, ``∇²Hd(x*)`` and its eigenvalues.
    x_star : numpy.ndarray
    values : dict
        Parameter name → number, used for everything numeric.
    drift : sympy.Matrix
        The plant's :math:`(J - R)\nabla H + g_f u_f` (``u_f`` the fixed inputs).
    control_inputs : list of str
        The plant inputs the law drives (all but ``fixed_inputs``).
    fixed_inputs : dict
        Inputs held at constant values (sources), name → value.
    """

    system: PHS
    states: list[str]
    x: list[sp.Symbol]
    Jd: sp.ImmutableMatrix
    Rd: sp.ImmutableMatrix
    g: sp.ImmutableMatrix
    g_perp: sp.Matrix
    Hd: sp.Expr
    x_star: np.ndarray
    values: dict[str, Any]
    drift: sp.Matrix
    control_inputs: list[str] = field(default_factory=list)
    fixed_inputs: dict[str, Any] = field(default_factory=dict)
    solution: MatchingSolution | None = None
    phi: sp.Expr | None = None
    law: sp.Matrix = field(default_factory=sp.Matrix)
    minimum: MinimumCheck | None = None
    _compiled: dict[str, Any] = field(default_factory=dict, repr=False)

    # ------------------------------------------------------------------ symbolic
    @property
    def residual_expr(self) -> sp.Matrix:
        r""":math:`g^\perp[(J - R)\nabla H - (J_d - R_d)\nabla H_d]`, simplified."""
        return self._residual_matrix().applyfunc(sp.simplify)

    def _residual_matrix(self) -> sp.Matrix:
        gHd = sp.Matrix([sp.diff(self.Hd, x) for x in self.x])
        return self.g_perp * (self.drift - (self.Jd - self.Rd) * gHd)

    # ------------------------------------------------------------------ numeric
    def _function(self, key: str, expr: Any) -> Callable[..., Any]:
        if key not in self._compiled:
            e = substitute_by_name(expr, self.values)
            extra = sorted(s.name for s in e.free_symbols - set(self.x))
            if extra:
                raise ModelError(f"{key} has symbols without a value: {', '.join(extra)}; "
                                 "give them with parameters={...} or the plant's parameters")
            self._compiled[key] = sp.lambdify([list(self.x)], e, modules="numpy", cse=True)
        return self._compiled[key]

    def law_numeric(self, x: Any) -> np.ndarray:
        """``u = β(x)`` of the control inputs (their units) at a state ``x`` (array)."""
        f = self._function("law", self.law)
        return np.asarray(f(np.asarray(x, dtype=float)), dtype=float).reshape(-1)

    def Hd_numeric(self, x: Any) -> float:
        """``Hd(x)`` in joules."""
        return float(self._function("Hd", self.Hd)(np.asarray(x, dtype=float)))

    def residual(self, x: Any) -> np.ndarray:
        """The matching residual at ``x`` (zero for a valid design; units of ``ẋ``)."""
        f = self._function("residual", self._residual_matrix())
        return np.asarray(f(np.asarray(x, dtype=float)), dtype=float).reshape(-1)

    @property
    def closed_loop(self) -> PHS:
        r"""Closed loop :math:`\dot x = (J_d - R_d)\nabla H_d + g v`, :math:`y = g^\top\nabla H_d`.

        ``v`` is what remains of the input after ``u = β(x) + v``; names are the plant's.
        """
        if "closed_loop" not in self._compiled:
            params = {k: float(sp.sympify(v)) for k, v in self.values.items()}
            outputs = [self.system.outputs[list(self.system.inputs).index(u)]
                       for u in self.control_inputs]
            self._compiled["closed_loop"] = PHS(
                J=self.Jd, R=self.Rd, G=self.g, hamiltonian=self.Hd,
                states=list(self.states), inputs=list(self.control_inputs),
                outputs=outputs, parameters=params,
                name=f"{self.system.name or 'plant'} under IDA-PBC")
        return self._compiled["closed_loop"]

    def feedback(self) -> Callable[[float, np.ndarray], np.ndarray]:
        """``u(t, x)`` for :func:`porthamiltonian.simulate` on the plant: ``β(x)`` on the
        control inputs, the fixed values on the others (in the plant's input order)."""
        names = list(self.system.inputs)
        ctrl = [names.index(u) for u in self.control_inputs]
        base = np.array([float(sp.sympify(self.fixed_inputs.get(u, 0.0))) for u in names])

        def u(t: float, x: np.ndarray) -> np.ndarray:
            out = base.copy()
            out[ctrl] = self.law_numeric(x)
            return out

        return u

    def __repr__(self) -> str:
        return (f"<IdaPbc for {self.system.name or 'plant'}: Hd = {self.Hd}, "
                f"u = {list(self.law)}>")
