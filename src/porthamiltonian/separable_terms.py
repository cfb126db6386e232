r"""The parts of a :class:`~porthamiltonian.functional.SeparablePHS` read off a symbolic
PHS: numeric sparse structure matrices and, for :math:`H = \sum_k h_k(x_k)`, each state's
law grouped with the states whose law has the same form.

Two laws have the same form when they agree after every numeric constant is replaced by
a parameter (``c0, c1, …`` in the order SymPy stores the expression), exponents that are
numbers excepted (they decide polynomial degrees, which set the AVF quadrature).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp

from . import _matrices as mx
from .errors import ModelError

__all__ = ["separable_parts", "law_form"]

#: the state variable of a law template
VARIABLE = sp.Symbol("x", real=True)


def separable_parts(system: Any) -> tuple[dict[str, Any], list[tuple[Any, Any, Any]]]:
    """``({J, R, G, P, M, S} as SciPy CSR, [(law, state indices, {parameter: values})])``
    of a symbolic PHS (see :meth:`SeparablePHS.from_phs`)."""
    from .phs import PHS

    if not isinstance(system, PHS) or not system.symbolic:
        raise ModelError("SeparablePHS.from_phs: give a symbolic PHS (a numeric PHS has a "
                         "quadratic H and runs on the linear steps as it is)")
    values = system.parameter_values()
    given = {s.name for s in values}
    missing = [p for p in system.free_parameters() if p not in given]
    if missing:
        raise ModelError(f"SeparablePHS.from_phs: parameters without a value: "
                         f"{', '.join(missing)}; give them with sys.with_parameters(...)")
    xs = list(system.x)
    mats = {k: _constant_matrix(system.name or "the system", k, A.xreplace(values), xs)
            for k, A in system.matrices().items()}
    laws = _state_laws(system.hamiltonian.xreplace(values), xs)
    groups: dict[str, tuple[Any, list[int], list[list[float]]]] = {}
    for k, law in enumerate(laws):
        form, constants = law_form(law.xreplace({xs[k]: VARIABLE}))
        key = sp.srepr(form)
        if key not in groups:
            groups[key] = (form, [], [])
        groups[key][1].append(k)
        groups[key][2].append(constants)
    terms = []
    for form, states, constants in groups.values():
        table = np.array(constants, dtype=float).reshape(len(states), -1)
        params = {f"c{i}": table[:, i] for i in range(table.shape[1])}
        terms.append((form, states, params))
    return mats, terms


def law_form(law: Any) -> tuple[Any, list[float]]:
    """``(template, constants)``: ``law`` with its numeric constants replaced by the
    symbols ``c0, c1, …`` (exponents that are numbers kept), and their values."""
    constants: list[float] = []

    def walk(e: Any) -> Any:
        if e.is_Number:
            constants.append(float(e))
            return sp.Symbol(f"c{len(constants) - 1}")
        if not e.args:
            return e
        if e.is_Pow and e.exp.is_Number:
            return sp.Pow(walk(e.base), e.exp)
        return e.func(*(walk(a) for a in e.args))

    return walk(law), constants


def _state_laws(H: Any, xs: list[Any]) -> list[Any]:
    """Each state's share of ``H`` (a constant term goes to the first state); a
    :class:`ModelError` for a term in two states."""
    index = {x: k for k, x in enumerate(xs)}
    laws: list[Any] = [sp.S.Zero] * len(xs)
    for term in sp.Add.make_args(H):
        held = [index[s] for s in term.free_symbols if s in index]
        if len(held) > 1:
            names = ", ".join(sorted(xs[k].name for k in held))
            raise ModelError(f"SeparablePHS.from_phs: H is not a sum of one-state laws: the "
                             f"term {term} couples the states {names}")
        laws[held[0] if held else 0] += term
    return laws


def _constant_matrix(where: str, name: str, A: Any, xs: list[Any]) -> Any:
    """``A`` (SymPy, parameters substituted) as a SciPy CSR matrix of floats."""
    states = set(xs)
    rows, cols, data = [], [], []
    for (i, j), v in mx.nonzero_entries(A):
        if v.free_symbols & states:
            raise ModelError(f"SeparablePHS.from_phs: {where}'s {name}[{i}, {j}] = {v} "
                             "depends on the state; the compiled sparse steps take constant "
                             "structure matrices (simulate the PHS as it is)")
        rows.append(i)
        cols.append(j)
        data.append(float(v))
    return sps.csr_matrix((data, (rows, cols)), shape=A.shape)
