"""The ``phs`` section: an explicit port-Hamiltonian model written out (docs/design.md).

It has the shape of the JSON object printed by ``porthamiltonian phs --json``::

    states: [q, p]              # n state names
    inputs: [F]                 # m input names (optional, default none)
    outputs: [v]                # m output names (optional, default y_<input>)
    J: [[0, 1], [-1, 0]]        # n×n   R: n×n   G, P: n×m   M, S: m×m
    hamiltonian: "q**2/(2*C) + p**2/(2*m)"   # or Q: n×n, meaning H = xᵀQx/2

Matrices are lists of rows of numbers or expressions in the parameters and
states; omitted ones are zero.  Only shapes and expressions are checked here
(skew-symmetry of J, symmetry of R, ... are checked when the PHS is built).
``name`` and ``parameters`` may appear too (the model file's own ``name`` and
``parameters`` take their place).

The checked section is ``{"states", "inputs", "outputs", "J", "R", "G", "P",
"M", "S", "hamiltonian", "Q"}`` with SymPy matrices (zeros when omitted), the
Hamiltonian as an expression (from ``Q`` when only ``Q`` is given) and ``Q``
``None`` when not given.
"""

from __future__ import annotations

from typing import Any

import sympy

from ..errors import ModelError
from ..expr import RESERVED, state_symbol
from ..naming import check_names
from .schema import Checker, KeyPath, Section, label_of, plural

__all__ = ["MATRIX_KEYS", "PHS_KEYS", "check_phs"]

MATRIX_KEYS = ("J", "R", "G", "P", "M", "S")
PHS_KEYS = ("name", "states", "inputs", "outputs", *MATRIX_KEYS, "hamiltonian", "Q", "parameters")


def check_phs(ck: Checker, value: Any, path: KeyPath) -> Section:
    """Check a ``phs`` section (see module docstring)."""
    label = label_of(path)
    section = ck.mapping(value, path, label)
    if section is None:
        return Section({}, None, None)
    ck.keys(section, path, label, PHS_KEYS, ("states",), "in a phs section")
    states = _names(ck, section.get("states", []), (*path, "states"), f"{label}.states")
    inputs = _names(ck, section.get("inputs", []), (*path, "inputs"), f"{label}.inputs")
    if "outputs" in section:
        outputs = _names(ck, section["outputs"], (*path, "outputs"), f"{label}.outputs")
        if (
            states is not None
            and inputs is not None
            and outputs is not None
            and len(outputs) != len(inputs)
        ):
            ck.error(
                (*path, "outputs"),
                f"{label}.outputs",
                f"{plural(len(outputs), 'output')} for {plural(len(inputs), 'input')}; "
                "give one output per input (or leave 'outputs' out)",
            )
    else:
        outputs = [f"y_{u}" for u in inputs or []]
    for s in states or []:
        if s in RESERVED:
            ck.error(
                (*path, "states"),
                f"{label}.states",
                f"{s!r} cannot be a state name: it "
                "is reserved for the time 't', 'pi' or a function",
            )
        elif s in ck.symbols:
            ck.error(
                (*path, "states"),
                f"{label}.states",
                f"the state {s!r} has the same name as a parameter; rename one of them "
                "(in a phs section the state is named by you, not after an element)",
            )
    if states is None or inputs is None:
        return Section({}, states, inputs, outputs)
    n, m = len(states), len(inputs)
    x = [state_symbol(s) for s in states]
    names: dict[str, sympy.Expr] = {**ck.symbols, **dict(zip(states, x, strict=True))}
    shapes = {"J": (n, n), "R": (n, n), "G": (n, m), "P": (n, m), "M": (m, m), "S": (m, m)}
    data: dict[str, Any] = {"states": states, "inputs": inputs, "outputs": outputs}
    for key in MATRIX_KEYS:
        rows, cols = shapes[key]
        explain = (
            plural(n, "state")
            if key in "JR"
            else plural(m, "input")
            if key in "MS"
            else f"{plural(n, 'state')} × {plural(m, 'input')}"
        )
        if section.get(key) is None:
            data[key] = sympy.ImmutableMatrix.zeros(rows, cols)
        else:
            data[key] = ck.matrix(
                section[key], (*path, key), f"{label}.{key}", names, (rows, cols), explain=explain
            )
    data["Q"] = None
    if section.get("Q") is not None:
        data["Q"] = ck.matrix(
            section["Q"], (*path, "Q"), f"{label}.Q", ck.symbols, (n, n), explain=plural(n, "state")
        )
    if section.get("hamiltonian") is not None:
        data["hamiltonian"] = ck.expression(
            section["hamiltonian"], (*path, "hamiltonian"), f"{label}.hamiltonian", names
        )
        if data["hamiltonian"] is not None:  # warns when not convex at rest (energy/)
            from ..energy.storage_check import check_storage_law

            where = ck.locate((*path, "hamiltonian"), f"{label}.hamiltonian")
            check_storage_law(data["hamiltonian"], x, values=ck.values, where=where)
    elif section.get("Q") is not None:
        Q = data["Q"]
        xs = sympy.Matrix(x)
        data["hamiltonian"] = None if Q is None else (xs.T * Q * xs)[0, 0] / 2
    else:
        data["hamiltonian"] = None
        ck.error(
            path,
            label,
            "missing the energy: give 'hamiltonian' (an expression in the "
            "parameters and states) or 'Q' (an n×n matrix, H = xᵀQx/2)",
        )
    return Section(data, states, inputs, outputs)


def _names(ck: Checker, value: Any, path: KeyPath, label: str) -> list[str] | None:
    if value is None:
        return []
    items = ck.sequence(value, path, label)
    if items is None:
        return None
    try:
        return list(check_names(items, label.rsplit(".", 1)[-1]))
    except ModelError as err:
        ck.error(path, label, str(err))
        return None
