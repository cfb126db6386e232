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

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError
from ..phs import PHS
from ..structure import check_psd, check_skew, check_symmetric
from .matching import MatchingSolution, NotSolvable, annihilator, solve_linear_pdes
from .mechanical import mechanical_setup
from .minimum import MinimumCheck, check_strict_minimum, state_vector
from .symbolic import as_state_expr, as_state_matrix, plant_matrices, substitute_by_name

__all__ = ["IdaPbc", "ida_pbc", "solve_matching"]


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
        Hd_expr, chosen_phi = _choose_free_function(solution, phi, xs, xstar, values,
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


# ---------------------------------------------------------------------- free function
def _choose_free_function(
    sol: MatchingSolution, phi: Any, xs: list[sp.Symbol], xstar: np.ndarray,
    values: dict[str, Any], params: Mapping[str, Any],
) -> tuple[sp.Expr, sp.Expr | None]:
    if not sol.arguments:
        return sol.particular, None
    zsyms = [sp.Symbol(f"z{j}", real=True) for j in range(len(sol.arguments))]
    if callable(phi) and not isinstance(phi, (sp.MatrixBase, np.ndarray)):
        Hd = sol.with_free_function(phi)
        return Hd, sp.sympify(phi(*zsyms))
    at = dict(zip(xs, (sp.Float(v) for v in xstar), strict=True))
    Hp = substitute_by_name(sol.particular, values)
    z = [substitute_by_name(e, values) for e in sol.arguments]
    gp = np.array([float(sp.diff(Hp, x).xreplace(at)) for x in xs])
    H0 = np.array(sp.hessian(Hp, xs).xreplace(at).tolist(), dtype=float)
    D = np.array(sp.Matrix(z).jacobian(xs).xreplace(at).tolist(), dtype=float)
    zstar = np.array([float(e.xreplace(at)) for e in z])
    g0, *_ = np.linalg.lstsq(D.T, -gp, rcond=None)
    if np.max(np.abs(D.T @ g0 + gp), initial=0.0) > 1e-8 * max(1.0, np.max(np.abs(gp))):
        raise ModelError("no choice of the free function makes ∇Hd(x*) = 0: x* is not an "
                         "equilibrium reachable with this Jd − Rd")
    H1 = H0 + sum((g0[j] * np.array(sp.hessian(z[j], xs).xreplace(at).tolist(), dtype=float)
                   for j in range(len(z))), np.zeros_like(H0))
    if phi is None:
        Kz = _default_gain(H1, D) * np.eye(len(z))
    else:
        Kz = np.asarray(phi, dtype=float) * (np.eye(len(z)) if np.ndim(phi) == 0 else 1)
    dz = sp.Matrix(zsyms) - sp.Matrix(zstar.tolist())
    Phi = (sp.Matrix(g0.tolist()).T * dz)[0] + (dz.T * sp.Matrix(Kz.tolist()) * dz)[0] / 2
    Phi = sp.expand(Phi)
    Hd = sol.particular + Phi.xreplace(dict(zip(zsyms, sol.arguments, strict=True)))
    return Hd, Phi


def _default_gain(H1: np.ndarray, D: np.ndarray) -> float:
    """``max(2κ0, ‖H1‖/‖DᵀD‖)``, κ0 the least κ with H1 + κ DᵀD ≻ 0 (λ_min grows with κ).

    The floor gives the free function a curvature of the order of the rest of ``Hd``
    even when κ0 is 0 or tiny."""
    P = D.T @ D

    def pd(k: float) -> bool:
        lam = np.linalg.eigvalsh(H1 + k * P)
        return bool(lam[0] > 1e-12 * max(1.0, np.max(np.abs(lam))))

    scale = max(np.linalg.norm(H1, 2), 1e-12) / max(np.linalg.norm(P, 2), 1e-300)
    if pd(0.0):
        return float(scale)
    hi = scale
    for _ in range(60):
        if pd(hi):
            break
        hi *= 10.0
    else:
        raise ModelError("no quadratic free function makes x* a strict minimum of Hd: the "
                         "Hessian of the particular solution is indefinite along ker(∂z/∂x); "
                         "choose another Jd/Rd (or Md)")
    lo = 0.0
    while hi - lo > 1e-6 * hi:
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if pd(mid) else (mid, hi)
    return float(max(2.0 * hi, scale))


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

