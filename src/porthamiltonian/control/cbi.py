r"""Control by interconnection (CbI) and energy shaping with Casimir functions.

A plant PHS and a controller PHS joined by the power-conserving feedback
:math:`u_p = -y_c`, :math:`u_c = y_p` (:func:`porthamiltonian.feedback`) form a PHS with
energy :math:`H(x) + H_c(\xi)`.  If the closed loop has Casimirs
:math:`C_i(x, \xi) = \kappa_i` that can be solved for the controller states,
:math:`\xi = F(x, \kappa)`, then on each invariant set the closed loop is a system in
:math:`x` alone with the *shaped* energy

.. math::  H_s(x) = H(x) + H_c\bigl(F(x, \kappa)\bigr),

and the controller's energy :math:`H_c` is the designer's freedom to put a strict
minimum of :math:`H_s` at the desired :math:`x^\star` (Ortega, van der Schaft, Mareels,
Maschke, *IEEE Control Syst. Mag.* 21(2), 2001, "energy-Casimir method"; Duindam et al.
2009, §5.2.2).  :math:`\kappa` is fixed by the initial states:
:math:`\kappa = C(x(0), \xi(0))`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import sympy as sp

from .. import _matrices as mx
from ..errors import ModelError
from ..interconnection import feedback
from ..phs import PHS
from .casimirs import Casimirs, casimirs
from .minimum import MinimumCheck, check_strict_minimum, state_vector
from .symbolic import substitute_by_name

__all__ = ["interconnect_controller", "energy_shaping", "ShapedEnergy"]


def interconnect_controller(plant: PHS, controller: PHS,
                            pairs: Sequence[tuple[str, str]]) -> PHS:
    """Closed loop of ``plant`` and ``controller`` with ``u_p = −y_c``, ``u_c = y_p``.

    ``pairs`` lists ``(plant port, controller port)`` (input or output names).  States:
    the plant's then the controller's (names must differ); energy ``H + Hc``; unpaired
    ports stay ports.  A thin, named entry point to :func:`porthamiltonian.feedback`.
    """
    if not pairs:
        raise ModelError("interconnect_controller needs at least one (plant port, controller "
                         "port) pair")
    closed = feedback(plant, controller, pairs)
    closed.name = f"{plant.name or 'plant'} + {controller.name or 'controller'}"
    return closed


@dataclass
class ShapedEnergy:
    r"""Energy :math:`H_s(x)` of a closed loop restricted to a level set of its Casimirs.

    Attributes
    ----------
    energy : SymPy expression or None
        :math:`H_s` in the plant states (J); ``None`` for numeric (matrix) closed loops.
    controller_states : dict
        Controller state name → :math:`F(x, \kappa)` (SymPy; numeric closed loops give
        the affine map as ``(a, B)`` with :math:`\xi = a + B x`).
    levels : numpy.ndarray
        :math:`\kappa`.
    casimirs : Casimirs
    x_star : numpy.ndarray
        The plant equilibrium checked (or found: the minimizer, for numeric closed loops).
    equilibrium : dict
        Closed-loop state name → value at :math:`(x^\star, F(x^\star, \kappa))`.
    minimum : MinimumCheck
    """

    energy: sp.Expr | None
    controller_states: dict[str, Any]
    levels: np.ndarray
    casimirs: Casimirs
    x_star: np.ndarray
    equilibrium: dict[str, float]
    minimum: MinimumCheck


def energy_shaping(
    closed_loop: PHS,
    plant_states: Sequence[str],
    x_star: Any = None,
    *,
    initial: Any = None,
    levels: Sequence[float] | None = None,
    casimir_functions: Casimirs | Sequence[Any] | None = None,
) -> ShapedEnergy:
    r"""Shaped energy of a CbI closed loop and the check that ``x_star`` is its strict minimum.

    Parameters
    ----------
    closed_loop : PHS
        From :func:`interconnect_controller` (symbolic, parameters with values).
    plant_states : list of str
        Which closed-loop states are the plant's; the others are the controller's.
    x_star : array or ``{state: value}``, optional
        The desired plant equilibrium.  For a numeric closed loop (quadratic energy,
        constant matrices — e.g. a discretized beam with a linear controller) it may be
        omitted: the minimizer of :math:`H_s` is computed and returned.
    initial : array or ``{state: value}``, optional
        A closed-loop initial state that fixes the levels :math:`\kappa = C(x_0, \xi_0)`.
    levels : list of float, optional
        :math:`\kappa` directly (default: zeros, when ``initial`` is not given).
    casimir_functions : Casimirs or list of expressions, optional
        Default: :func:`casimirs` of the closed loop.  Needs one Casimir per controller
        state, solvable for the controller states.

    Raises
    ------
    ModelError
        Too few Casimirs, Casimirs not solvable for the controller states, or ``x_star``
        not a strict minimum of :math:`H_s` (naming the direction).
    """
    states = list(closed_loop.states)
    unknown = [s for s in plant_states if s not in states]
    if unknown:
        raise ModelError(f"plant_states {unknown} are not states of the closed loop "
                         f"({', '.join(states)})")
    xs = closed_loop.state_symbols
    plant = [x for x in xs if x.name in plant_states]
    ctrl = [x for x in xs if x.name not in plant_states]
    if isinstance(casimir_functions, Casimirs):
        C = casimir_functions
    else:
        C = casimirs(closed_loop, casimir_functions) if casimir_functions is not None \
            else casimirs(closed_loop)
    if len(C) < len(ctrl):
        raise ModelError(
            f"the closed loop has {len(C)} Casimir(s) for {len(ctrl)} controller state(s) "
            f"({', '.join(x.name for x in ctrl)}); energy shaping by Casimirs needs one per "
            "controller state — choose a controller structure that creates them (e.g. an "
            "integrator ξ̇ = u_c on a collocated port)"
        )
    if initial is not None:
        kappa = np.asarray(C.evaluate(state_vector(initial, states, "initial")), dtype=float)
    elif levels is not None:
        kappa = np.asarray(levels, dtype=float).reshape(-1)
    else:
        kappa = np.zeros(len(C))
    if kappa.size != len(C):
        raise ModelError(f"{kappa.size} levels given for {len(C)} Casimirs")
    if not closed_loop.symbolic:
        return _linear_shaping(closed_loop, plant, ctrl, C, kappa, x_star)
    if x_star is None:
        raise ModelError("x_star is required for a symbolic closed loop")
    values = {s.name: v for s, v in closed_loop.parameter_values().items()}
    eqs = [sp.Eq(substitute_by_name(c, values), sp.Float(k))
           for c, k in zip(C.functions, kappa, strict=True)]
    sol = sp.solve(eqs, ctrl, dict=True)
    if len(sol) != 1 or set(sol[0]) != set(ctrl):
        raise ModelError(
            "the Casimirs cannot be solved uniquely for the controller states "
            f"{', '.join(x.name for x in ctrl)} (solutions: {sol}); energy shaping needs "
            "C(x, ξ) = κ to define ξ = F(x, κ)"
        )
    F = sol[0]
    Hs = sp.expand(substitute_by_name(closed_loop.hamiltonian, values).xreplace(F))
    xstar = state_vector(x_star, [x.name for x in plant], "x_star")
    minimum = check_strict_minimum(Hs, plant, xstar, "the shaped energy Hs")
    at = dict(zip(plant, (sp.Float(v) for v in xstar), strict=True))
    eq = {x.name: float(v) for x, v in zip(plant, xstar, strict=True)}
    eq.update({x.name: float(F[x].xreplace(at)) for x in ctrl})
    return ShapedEnergy(Hs, {x.name: F[x] for x in ctrl}, kappa, C, xstar, eq, minimum)


def _linear_shaping(cl: PHS, plant: list[sp.Symbol], ctrl: list[sp.Symbol], C: Casimirs,
                    kappa: np.ndarray, x_star: Any) -> ShapedEnergy:
    r"""Numeric closed loop :math:`H = \tfrac12 X^\top Q X`, linear Casimirs :math:`W X = \kappa`.

    With :math:`W = [W_x, W_\xi]`, :math:`\xi = a + Bx`, :math:`a = W_\xi^{-1}\kappa`,
    :math:`B = -W_\xi^{-1}W_x`, and :math:`X = Tx + e` (:math:`T = [I; B]`, :math:`e = [0; a]`
    in the closed loop's state order): :math:`\nabla H_s = T^\top Q (Tx + e)`,
    :math:`\nabla^2 H_s = T^\top Q T`; the minimizer solves :math:`T^\top Q T x = -T^\top Q e`.
    """
    names = list(cl.states)
    ip = [names.index(x.name) for x in plant]
    ic = [names.index(x.name) for x in ctrl]
    W = np.asarray(C.weights, dtype=float)
    if W.shape[0] != len(ic):
        raise ModelError(f"{W.shape[0]} Casimirs for {len(ic)} controller states: the extra "
                         "ones also confine the plant's states; pass casimir_functions= with "
                         "one Casimir per controller state")
    kap = kappa
    Wc = W[:, ic]
    if np.linalg.matrix_rank(Wc) < len(ic):
        raise ModelError("the Casimirs cannot be solved for the controller states "
                         f"{', '.join(x.name for x in ctrl)}: their weights on these states "
                         "are singular; energy shaping needs C(x, ξ) = κ to define ξ = F(x)")
    a = np.linalg.solve(Wc, kap)
    B = -np.linalg.solve(Wc, W[:, ip])
    n = len(names)
    T = np.zeros((n, len(ip)))
    T[ip, np.arange(len(ip))] = 1.0
    T[ic] = B
    e = np.zeros(n)
    e[ic] = a
    Q = mx.to_dense(cl.Q)
    hess = T.T @ Q @ T
    if x_star is None:
        xstar = np.linalg.solve(hess, -T.T @ (Q @ e))
    else:
        xstar = state_vector(x_star, [x.name for x in plant], "x_star")
    grad = T.T @ (Q @ (T @ xstar + e))
    minimum = _check_numeric_minimum(grad, hess, [x.name for x in plant], xstar)
    full = T @ xstar + e
    eq = {names[k]: float(full[k]) for k in range(n)}
    return ShapedEnergy(None, {"a": a, "B": B}, kappa, C, xstar, eq, minimum)


def _check_numeric_minimum(grad: np.ndarray, hess: np.ndarray, names: list[str],
                           xstar: np.ndarray) -> MinimumCheck:
    lam, vec = np.linalg.eigh(hess)
    scale = max(1.0, float(np.max(np.abs(hess))) * max(1.0, float(np.max(np.abs(xstar)))))
    k = int(np.argmax(np.abs(grad)))
    if abs(grad[k]) > 1e-9 * scale:
        raise ModelError(f"x* is not a stationary point of the shaped energy Hs: ∂Hs/∂{names[k]}"
                         f" = {grad[k]:.6g}; omit x_star to get the minimizer")
    if lam[0] <= 1e-12 * max(float(np.max(np.abs(lam))), 1e-300):
        v = vec[:, 0]
        along = ", ".join(f"{names[j]} ({v[j]:+.2f})" for j in np.argsort(-np.abs(v))[:3])
        raise ModelError(f"x* is not a strict minimum of the shaped energy Hs: eigenvalue "
                         f"{lam[0]:.6g} ≤ 0 along {along}")
    return MinimumCheck(grad, hess, lam)
