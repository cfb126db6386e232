r"""Interconnection and damping assignment passivity-based control (IDA-PBC).

Given the plant :math:`\dot x = (J - R)\nabla H + g u` (``g = G − P``), a target
interconnection :math:`J_d = -J_d^\top`, damping :math:`R_d = R_d^\top \succeq 0` and
equilibrium :math:`x^\star`, find :math:`H_d` with

.. math::  g^\perp\bigl[(J - R)\nabla H - (J_d - R_d)\nabla H_d\bigr] = 0,\qquad
           x^\star = \arg\min H_d,

then the law

.. math::  u = \beta(x) = (g^\top g)^{-1} g^\top\bigl[(J_d - R_d)\nabla H_d - (J - R)\nabla H\bigr]

gives the closed loop :math:`\dot x = (J_d - R_d)\nabla H_d`, a PHS with energy
:math:`H_d`, and :math:`\dot H_d = -\nabla H_d^\top R_d \nabla H_d \le 0`
(Ortega, van der Schaft, Maschke, Escobar, *Automatica* 38(4), 2002, Prop. 1;
Duindam et al. 2009, §5.3).  For mechanical systems with a target inertia
:math:`M_d` see :mod:`.mechanical` (Ortega, Spong, Gómez-Estern, Blankenstein,
*IEEE TAC* 47(8), 2002).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError
from ..phs import PHS
from ..structure import check_psd, check_skew, check_symmetric
from .design import IdaPbc
from .free_function import choose_free_function
from .matching import MatchingSolution, NotSolvable, annihilator, solve_linear_pdes
from .mechanical import mechanical_setup
from .minimum import check_strict_minimum, state_vector
from .symbolic import as_state_expr, as_state_matrix, plant_matrices, substitute_by_name

__all__ = ["IdaPbc", "ida_pbc", "solve_matching"]


def solve_matching(system: PHS, Jd: Any, Rd: Any = None, *, Md: Any = None,
                   fixed_inputs: Mapping[str, Any] | None = None) -> MatchingSolution:
    r"""General solution of the matching equations (free function exposed).

    Parameters as in :func:`ida_pbc`.  Returns a :class:`MatchingSolution` whose
    ``Hd`` contains the undefined function :math:`\Phi` of ``arguments``; choose it with
    ``solution.with_free_function(lambda *z: ...)`` or pass ``phi=`` to :func:`ida_pbc`.
    """
    return _setup(system, Jd, Rd, Md, fixed_inputs=fixed_inputs)["solve"]()


def ida_pbc(
    system: PHS,
    Jd: Any,
    Rd: Any,
    x_star: Any,
    Hd: Any = None,
    Md: Any = None,
    *,
    phi: Any = None,
    parameters: Mapping[str, Any] | None = None,
    fixed_inputs: Mapping[str, Any] | None = None,
    check: bool = True,
    tol: float = 1e-10,
) -> IdaPbc:
    r"""Design an IDA-PBC law for ``system`` and check it.

    Parameters
    ----------
    system : PHS
        The plant (symbolic or numeric).  Its parameters need values for the numeric parts.
    Jd, Rd : (n, n) matrices
        Target interconnection (skew) and damping (symmetric ⪰ 0), SymPy or numbers; may
        depend on the state and on design parameters.  With ``Md``, ``Jd = None`` means
        the Ortega–Spong choice :math:`[[0, M^{-1}M_d], [-M_d M^{-1}, 0]]` and ``Rd`` may
        be the (k, k) momentum block.
    x_star : array or ``{state: value}``
        The equilibrium to assign (numbers, SI).
    Hd : SymPy expression or str, optional
        A candidate closed-loop energy.  Omitted: the matching PDEs are solved.
    Md : (k, k) matrix, optional
        Target inertia for a mechanical plant (states ``q`` then ``p``); then
        :math:`H_d = \tfrac12 p^\top M_d^{-1} p + V_d(q)` and only ``V_d`` is solved for.
    phi : callable, number or matrix, optional
        The free function of the general solution: ``phi(*z)`` returning a SymPy
        expression, or a gain :math:`K_z` for the default
        :math:`\Phi = g_0^\top(z - z^\star) + \tfrac12 (z - z^\star)^\top K_z (z - z^\star)`
        with :math:`g_0` making :math:`\nabla H_d(x^\star) = 0`.  Omitted: the default
        with :math:`K_z = \kappa I`, κ twice the smallest value that makes
        :math:`\nabla^2 H_d(x^\star) \succ 0`, at least the scale
        :math:`\|\nabla^2 h_p(x^\star)\| / \|N N^\top\|` of the rest of the Hessian.
    parameters : mapping, optional
        Values of design symbols (name → number) in ``Jd``, ``Rd``, ``Hd``, ``Md``, ``phi``.
    fixed_inputs : mapping, optional
        Plant inputs held at constant values, name → value (a supply voltage); they
        enter the drift :math:`f = (J - R)\nabla H + g_f u_f`, which replaces
        :math:`(J - R)\nabla H` in the matching equations and the law, and the law
        drives the remaining inputs only.
    check : bool
        Raise when a supplied ``Hd`` does not satisfy the matching equations (default);
        with ``False`` the design is returned and ``.residual(x)`` reports the mismatch.
    tol : float
        Relative tolerance of the numeric checks.

    Returns
    -------
    IdaPbc

    Raises
    ------
    ModelError
        ``Jd`` not skew or ``Rd`` not symmetric ⪰ 0 (naming the entry, e.g. ``Jd[x1, x3]``),
        ``g`` not of full column rank, ``x*`` not an assignable equilibrium
        (:math:`g^\perp(J-R)\nabla H(x^\star) \ne 0`, naming the equation), matching PDEs
        without solution, a supplied ``Hd`` with non-zero residual, or ``x*`` not a
        strict minimum of ``Hd``.
    """
    setup = _setup(system, Jd, Rd, Md, parameters, fixed_inputs)
    xs, states = setup["x"], setup["states"]
    xstar = state_vector(x_star, states)
    values = setup["values"]
    _check_assignable(setup, xstar, tol)
    solution: MatchingSolution | None = None
    chosen_phi = None
    if Hd is None:
        solution = setup["solve"]()
        Hd_expr, chosen_phi = choose_free_function(solution, phi, xs, xstar, values,
                                                    setup["params"])
    else:
        Hd_expr = as_state_expr(Hd, xs, {**system.parameters, **setup["params"]}, "Hd")
    design = IdaPbc(system=system, states=states, x=xs, Jd=setup["Jd"], Rd=setup["Rd"],
                    g=setup["g"], g_perp=setup["g_perp"], Hd=Hd_expr, x_star=xstar,
                    values=values, drift=setup["drift"], control_inputs=setup["control"],
                    fixed_inputs=setup["fixed"], solution=solution, phi=chosen_phi)
    if Hd is not None and check:
        _check_supplied(design, tol)
    design.law = _law(design)
    Hd_num = substitute_by_name(Hd_expr, values)
    design.minimum = check_strict_minimum(Hd_num, xs, xstar, "Hd", tol=1e-9)
    _check_rd_at(design, xstar)
    return design


# ---------------------------------------------------------------------- set-up
def _setup(system: PHS, Jd: Any, Rd: Any, Md: Any,
           parameters: Mapping[str, Any] | None = None,
           fixed_inputs: Mapping[str, Any] | None = None) -> dict[str, Any]:
    xs, H, J, R, g_all = plant_matrices(system)
    states = list(system.states)
    fixed = dict(fixed_inputs or {})
    unknown = sorted(set(fixed) - set(system.inputs))
    if unknown:
        raise ModelError(f"fixed_inputs: {', '.join(unknown)} not among the plant's inputs "
                         f"({', '.join(system.inputs)})")
    control = [u for u in system.inputs if u not in fixed]
    if not control:
        raise ModelError("every input is fixed: IDA-PBC needs at least one control input")
    cols = [list(system.inputs).index(u) for u in control]
    g = g_all.extract(list(range(g_all.rows)), cols)
    u_f = sp.Matrix([sp.sympify(fixed.get(u, 0)) for u in system.inputs])
    drift = (J - R) * sp.Matrix([sp.diff(H, x) for x in xs]) + g_all * u_f
    n, m = g.shape
    params = dict(parameters or {})
    values: dict[str, Any] = {s.name: v for s, v in system.parameter_values().items()}
    values.update({k: v for k, v in params.items() if v is not None})
    known, variables, others = sp.S.Zero, list(xs), []
    if Md is not None:
        mech = mechanical_setup(system, xs, H, J, g, Md, Jd, Rd, params)
        Jd_m, Rd_m = mech.Jd, mech.Rd
        known, variables, others = mech.kinetic, mech.q, mech.p
    else:
        if Jd is None:
            raise ModelError("Jd is required (it may be None only together with Md)")
        Jd_m = as_state_matrix(Jd, xs, params, "Jd", (n, n))
        Rd_m = (sp.zeros(n, n) if Rd is None
                else as_state_matrix(Rd, xs, params, "Rd", (n, n)))
    check_skew(sp.ImmutableMatrix(Jd_m), "Jd", states)
    check_symmetric(sp.ImmutableMatrix(Rd_m), "Rd", states)
    check_psd(sp.ImmutableMatrix(substitute_by_name(Rd_m, values)), states, name="Rd")
    if g.rank(simplify=True) < m:
        raise ModelError(f"the input matrix G − P has rank {g.rank()} < {m} inputs; IDA-PBC "
                         "needs independent inputs (remove or combine dependent ports)")
    g_perp = annihilator(g)
    labels = [_row_label(g_perp[i, :], states) for i in range(g_perp.rows)]
    A = g_perp * (Jd_m - Rd_m)
    b = g_perp * drift

    def solve() -> MatchingSolution:
        rhs = b - A * sp.Matrix([sp.diff(known, x) for x in xs])
        idx = [xs.index(v) for v in variables]
        Av = A.extract(list(range(A.rows)), idx)
        try:
            part, args, method = solve_linear_pdes(Av, rhs, variables, others, labels)
            return MatchingSolution(sp.simplify(known + part), args, list(xs), method)
        except NotSolvable as err:
            # Jd/Rd written with numbers where the plant has symbols (b = 0.02 for the
            # plant's b) is consistent only for the values: solve again with them.
            if not values or not (Av.free_symbols | rhs.free_symbols) - set(xs):
                raise
            try:
                part, args, method = solve_linear_pdes(
                    substitute_by_name(Av, values), substitute_by_name(rhs, values),
                    variables, others, labels)
            except NotSolvable:
                raise err from None
            sol = MatchingSolution(sp.simplify(substitute_by_name(known, values) + part),
                                   args, list(xs), method)
            sol.notes.append(f"solved with the parameter values substituted; in symbols: {err}")
            return sol

    return {"x": xs, "states": states, "H": H, "J": J, "R": R, "g": sp.ImmutableMatrix(g),
            "g_perp": g_perp, "Jd": sp.ImmutableMatrix(Jd_m), "Rd": sp.ImmutableMatrix(Rd_m),
            "values": values, "params": params, "b": b, "labels": labels, "solve": solve,
            "drift": drift, "control": control, "fixed": fixed}


def _row_label(row: sp.Matrix, states: list[str]) -> str:
    """Name a row of g⊥ by the state equations it combines: 'd(x2)/dt' or '1·d(x1)/dt + …'."""
    nz = [(k, c) for k, c in enumerate(row) if c != 0]
    if len(nz) == 1:
        return f"'d{states[nz[0][0]]}/dt'"
    return "'" + " + ".join(f"({c})·d{states[k]}/dt" for k, c in nz) + "'"


def _check_assignable(setup: dict[str, Any], xstar: np.ndarray, tol: float) -> None:
    """``x*`` must be an equilibrium the inputs can hold: g⊥(J − R)∇H(x*) = 0."""
    xs = setup["x"]
    at = dict(zip(xs, (sp.Float(v) for v in xstar), strict=True))
    b = substitute_by_name(setup["b"], setup["values"]).xreplace(at)
    extra = sorted({s.name for e in b for s in e.free_symbols})
    if extra:
        raise ModelError(f"the plant has parameters without a value: {', '.join(extra)}")
    vals = np.array([float(e) for e in b])
    gradH = np.array([float(substitute_by_name(sp.diff(setup["H"], x), setup["values"])
                            .xreplace(at)) for x in xs])
    scale = max(1.0, float(np.max(np.abs(gradH))))
    for i, v in enumerate(vals):
        if abs(v) > tol * scale * 1e3:
            raise ModelError(
                f"x* is not an assignable equilibrium: the matching equation "
                f"{setup['labels'][i]} is unactuated and its drift (J − R)∇H (+ fixed "
                f"inputs) is {v:.6g} ≠ 0 at x*; "
                "no input can hold the plant there — choose x* with g⊥(J − R)∇H(x*) = 0"
            )


# ---------------------------------------------------------------------- law and checks
def _law(d: IdaPbc) -> sp.Matrix:
    gHd = sp.Matrix([sp.diff(d.Hd, x) for x in d.x])
    g = sp.Matrix(d.g)
    rhs = (d.Jd - d.Rd) * gHd - d.drift
    return ((g.T * g).inv() * g.T * rhs).applyfunc(_tidy)


def _tidy(e: sp.Expr) -> sp.Expr:
    """The shorter of ``e`` and ``cancel(expand(e))`` (``simplify`` is too slow here)."""
    c = sp.cancel(sp.expand(e))
    return c if sp.count_ops(c) <= sp.count_ops(e) else e


def _check_supplied(d: IdaPbc, tol: float) -> None:
    res = d.residual_expr
    if all(e == 0 for e in res):
        return
    # SymPy may fail to prove a zero (trigonometric identities): test numbers too.
    rng = np.random.default_rng(0)
    pts = d.x_star + rng.normal(size=(20, len(d.x))) * np.maximum(1.0, np.abs(d.x_star))
    worst = max(float(np.max(np.abs(d.residual(p)))) for p in pts)
    if worst <= tol * max(1.0, float(np.max(np.abs(d.x_star)))):
        return
    rows = "; ".join(f"row {i}: {e}" for i, e in enumerate(res) if e != 0)
    raise ModelError(
        f"the supplied Hd does not solve the matching equations g⊥[(J − R)∇H − (Jd − Rd)∇Hd]"
        f" = 0 (residual {rows}; up to {worst:.3g} at random states); fix Hd, or pass "
        "Hd=None to solve for it, or check=False to inspect design.residual(x)"
    )


def _check_rd_at(d: IdaPbc, xstar: np.ndarray) -> None:
    """A state-dependent Rd that SymPy could not decide is checked at x* numerically."""
    Rd = substitute_by_name(d.Rd, d.values)
    if Rd.free_symbols:
        at = dict(zip(d.x, (sp.Float(v) for v in xstar), strict=True))
        check_psd(np.array(Rd.xreplace(at).tolist(), dtype=float), list(d.states),
                  name="Rd at x*")

