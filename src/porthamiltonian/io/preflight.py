"""Checks that make ``validate`` mean it: everything ``phs`` and ``simulate`` would refuse,
found before anything runs, and warnings for physically suspicious values.

* :func:`value_problems` — element values that make a constitutive law singular (a zero
  capacitance, inductance, inertia or mass; a zero transformer/gyrator or gear ratio)
  are errors naming the element and its line; negative storage values (a negative
  capacitance, inductance or mass: the energy is then not bounded below) are warnings.
* :func:`energy_warnings` — a quadratic energy :math:`H = \\tfrac12 x^\\top Q x` whose
  :math:`Q` has a negative eigenvalue is not bounded below: a warning naming the states
  along that direction.
* :func:`simulation_problems` — the model's ``simulate:`` section set up exactly as
  ``porthamiltonian simulate`` sets it up (method, span and steps, initial values of the
  states *after* merging dependent storages, inputs, a finite initial energy), without
  taking a step.

``validate --strict`` (and ``simulate --strict``) turn the warnings into errors.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import sympy as sp

from ..errors import ModelError

__all__ = ["value_problems", "energy_warnings", "simulation_problems"]

#: bond-graph fields whose zero value makes the element singular, and what they are
_ZERO_IS_SINGULAR = {("C", "c"): "compliance (capacitance)", ("I", "i"): "inertia (inductance)",
                     ("TF", "ratio"): "ratio", ("GY", "ratio"): "ratio",
                     ("MTF", "ratio"): "ratio", ("MGY", "ratio"): "ratio"}
#: bond-graph fields whose negative value means an energy unbounded below
_NEGATIVE_IS_SUSPICIOUS = {("C", "c"): "compliance (capacitance)",
                           ("I", "i"): "inertia (inductance, mass)"}
#: component-library parameters: zero is singular (storages, ratios) / negative suspicious
_COMPONENT_ZERO = {"L": "inductance", "C": "capacitance", "J": "inertia", "m": "mass",
                   "n": "ratio", "ratio": "ratio"}
_COMPONENT_NEGATIVE = {"L": "inductance", "C": "capacitance", "J": "inertia", "m": "mass"}


def value_problems(model: Any) -> tuple[list[str], list[str]]:
    """``(errors, warnings)`` about element values, each naming the element and line."""
    values = model.parameter_values()
    errors: list[str] = []
    warnings: list[str] = []
    where = model.path or model.name
    if model.kind == "bondgraph":
        for el in model.section.get("elements", []):
            for field in ("c", "i", "ratio"):
                if field not in el:
                    continue
                key = (el["type"], field)
                label = f"{where}:{el.get('line', '?')}: element {el['name']!r} ({el['type']})"
                _judge(el[field], values, label, f"{field}", _ZERO_IS_SINGULAR.get(key),
                       _NEGATIVE_IS_SUSPICIOUS.get(key), errors, warnings)
    elif model.kind == "network":
        for comp in model.section.get("components", []):
            label = (f"{where}:{comp.get('line', '?')}: component {comp['name']!r} "
                     f"({comp['type']})")
            for name, value in (comp.get("parameters") or {}).items():
                _judge(value, values, label, name, _COMPONENT_ZERO.get(name),
                       _COMPONENT_NEGATIVE.get(name), errors, warnings)
    return errors, warnings


def _judge(value: Any, values: dict, label: str, field: str, zero_what: str | None,
           negative_what: str | None, errors: list[str], warnings: list[str]) -> None:
    """Classify one numeric value (a scalar or the diagonal of a matrix value)."""
    if zero_what is None and negative_what is None:
        return
    number = _number(value, values)
    if number is None:
        return
    entries = np.atleast_1d(number)
    if entries.ndim == 2:  # a matrix value (multi-bond): singular is judged by its determinant
        if zero_what and entries.shape[0] == entries.shape[1] and \
                abs(np.linalg.det(entries)) == 0.0:
            errors.append(f"{label}: its {zero_what} matrix {field} is singular; give it a "
                          "non-singular value")
        return
    if zero_what and np.any(entries == 0.0):
        errors.append(f"{label}: {field} = 0 makes its {zero_what} singular (a zero "
                      f"{zero_what} divides by zero in the energy or the junction "
                      "equations); give it a non-zero value, or remove the element")
    elif negative_what and np.any(entries < 0.0):
        warnings.append(f"{label}: {field} = {_show(entries)} is a negative {negative_what}: "
                        "the energy is then not bounded below (the model may blow up); "
                        "check the sign")


def _number(value: Any, values: dict) -> np.ndarray | float | None:
    """The numeric value of ``value`` with the parameter values, ``None`` if it is not a
    number (state-dependent, symbolic, or not a value at all)."""
    try:
        if isinstance(value, (list, tuple)):
            arr = np.array([[float(sp.sympify(v).xreplace(values)) for v in row]
                            if isinstance(row, (list, tuple)) else
                            float(sp.sympify(row).xreplace(values)) for row in value],
                           dtype=float)
            return arr
        expr = sp.sympify(value).xreplace(values) if not isinstance(value, (int, float)) \
            else value
        return float(expr)
    except (TypeError, ValueError, sp.SympifyError):
        return None


def _show(entries: np.ndarray) -> str:
    return f"{entries[0]:g}" if entries.size == 1 else str(entries.tolist())


def energy_warnings(system: Any, where: str) -> list[str]:
    """A warning when a quadratic H is not bounded below (``Q`` has a negative
    eigenvalue), naming the states along the most negative direction."""
    core = getattr(system, "core", system)
    try:
        if getattr(core, "symbolic", False):
            Qn = _symbolic_hessian(core)
            if Qn is None:
                return []
        else:
            Q = getattr(core, "Q", None)
            if Q is None:
                return []
            Qn = Q.toarray() if hasattr(Q, "toarray") else np.asarray(Q, dtype=float)
    except (TypeError, ValueError, AttributeError):
        return []  # symbolic parameters without values: nothing to judge
    if Qn.size == 0 or Qn.shape[0] > 2000:
        return []
    from ..structure import lowest_below

    found = lowest_below((Qn + Qn.T) / 2, 1e-12 * max(1.0, float(np.abs(Qn).max())))
    if found is None:
        return []
    lowest, direction = found
    states = list(getattr(system, "states", []))
    order = np.argsort(-np.abs(direction))[:3]
    along = ", ".join(states[k] for k in order if abs(direction[k]) > 1e-3)
    return [f"{where}: the energy H is not bounded below (its Hessian has the eigenvalue "
            f"{lowest:.4g} along {along}): a negative storage value? the model may blow up"]


def _symbolic_hessian(core: Any) -> np.ndarray | None:
    """The constant Hessian :math:`Q` of a symbolic ``H`` with the parameter values,
    ``None`` when ``H`` is not a polynomial of degree at most 2 in the states.

    Read off the coefficients of ``H`` as a polynomial in the states — for
    :math:`H = \\sum_{i \\le j} c_{ij} x_i x_j + \\dots` the Hessian is
    :math:`Q_{ii} = 2 c_{ii}`, :math:`Q_{ij} = Q_{ji} = c_{ij}` — instead of
    differentiating twice: for a mechanism in maximal coordinates (hundreds of states)
    ``sympy.hessian`` takes seconds, the coefficients a fraction of one.
    """
    x = list(core.x)
    H = core.hamiltonian
    if not x or not H.is_polynomial(*x):
        return None
    poly = sp.Poly(H, *x)
    if poly.total_degree() > 2:
        return None
    values = core.parameter_values()
    Q = np.zeros((len(x), len(x)))
    for monomial, coeff in poly.as_dict(native=False).items():
        if sum(monomial) != 2:
            continue
        c = float(sp.sympify(coeff).xreplace(values))
        i, j = (k for k, power in enumerate(monomial) for _ in range(power))
        Q[i, j] += c if i != j else 2.0 * c
        if i != j:
            Q[j, i] += c
    return Q


def simulation_problems(model: Any, built: Any) -> list[str]:
    """Everything ``simulate`` would refuse about the model's ``simulate:`` section, as
    problem lines (empty without a section).  Runs the simulator's own set-up code."""
    if not model.simulate:
        return []
    from ..simulate.options import SimulationOptions
    from ..simulate.problem.problem import build_problem, problem_kind
    from ..simulate.registry import check_method
    from .simulation import explicit_if_possible, simulation_arguments, simulation_system

    where = model.path or model.name
    try:
        system = simulation_system(model) if model.kind == "mechanism" \
            else explicit_if_possible(built)
        args = simulation_arguments(model, system)
        check_method(args.pop("method"), problem_kind(system))
        t_span, x0, u = args.pop("t_span"), args.pop("x0"), args.pop("u")
        args.pop("events", None)
        opts = SimulationOptions.build(**{k: v for k, v in args.items() if v is not None})
        build_problem(system, t_span, x0, u, opts)
    except ModelError as err:
        text = str(err)
        return [text if text.startswith(str(where)) else f"{where}: simulate: {text}"]
    return []
