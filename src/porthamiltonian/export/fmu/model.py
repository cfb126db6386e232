r"""What an FMU is made of: the model's functions, names, values and units, taken from
the system to export.

The exported model is the explicit port-Hamiltonian form of docs/design.md,

.. math::

    \dot x = (J - R)(x)\,\nabla H(x) + (G - P)(x)\,u,\qquad
    y = (G + P)^\top(x)\,\nabla H(x) + (M + S)(x)\,u,

with the stored energy :math:`H` in J, the power supplied through the ports
:math:`u^\top y` and the dissipated power
:math:`d = [\nabla H; u]^\top [[R, P], [P^\top, S]] [\nabla H; u] \ge 0` in W.

Two kinds of system are accepted: a symbolic :class:`~porthamiltonian.PHS` (its
numeric parameters stay symbols, read at run time from the FMU's tunable parameters)
and a numeric linear one (dense or sparse matrices, :math:`H = \tfrac12 x^\top Qx`,
written into the C code as constants).  A :class:`~porthamiltonian.DescriptorPHS`
goes through :meth:`~porthamiltonian.DescriptorPHS.to_phs`.  Names stay here, in
Python: C code sees indices only (:mod:`.ccode`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp

from ...descriptor import DescriptorPHS
from ...errors import ModelError, NoExplicitFormError
from ...phs import PHS
from ...quantities import quantities_of

__all__ = ["FmuModel", "Variable", "fmu_model"]

_WHAT = ("an FMU is exported from an explicit port-Hamiltonian system: a PHS (symbolic, or "
         "numeric linear with dense/sparse matrices), a model file with a phs:, bondgraph: "
         "or network: section, or a DescriptorPHS that has an explicit form (.to_phs())")


@dataclass(frozen=True)
class Variable:
    """One FMI variable: its model ``name``, SI ``unit`` (pint notation, ``""`` none) and
    a ``description`` in words."""

    name: str
    unit: str = ""
    description: str = ""


@dataclass
class FmuModel:
    """The model behind an FMU (see the module docstring).

    ``hamiltonian`` and ``matrices`` (``J R G P M S``) are SymPy objects in the state
    symbols ``state_symbols`` and the parameter symbols ``parameter_symbols[j]`` (all
    symbols of one parameter name, grouped), or ``None`` for a numeric linear system,
    which gives ``numeric`` (``Q`` and the matrices, NumPy/SciPy) instead.
    """

    name: str
    states: list[Variable]
    inputs: list[Variable]
    outputs: list[Variable]
    parameters: list[Variable]
    parameter_values: list[float]
    start: list[float]
    state_symbols: list[sp.Symbol] = field(default_factory=list)
    parameter_symbols: list[tuple[sp.Symbol, ...]] = field(default_factory=list)
    hamiltonian: sp.Expr | None = None
    matrices: dict[str, sp.MatrixBase] | None = None
    numeric: dict[str, Any] | None = None
    #: start values of the inputs (held until the importer sets them)
    input_start: list[float] = field(default_factory=list)
    #: parameters without a value (modulated): inputs of the FMU, start 0
    modulated: set[str] = field(default_factory=set)
    #: total degree of a polynomial H (None: not a polynomial), for the quadrature nodes
    degree: int | None = 2
    t_end: float | None = None

    @property
    def n(self) -> int:
        return len(self.states)

    @property
    def m(self) -> int:
        return len(self.inputs)


def explicit_system(system: Any) -> PHS:
    """``system`` as an explicit :class:`PHS`, or a :class:`ModelError` saying what can be
    exported and what to do."""
    if isinstance(system, PHS):
        return system
    if isinstance(system, DescriptorPHS):
        try:
            return system.to_phs()
        except NoExplicitFormError as err:
            raise ModelError(
                f"this descriptor system has no explicit form, so it cannot be exported as an "
                f"FMU ({err}); {_WHAT}") from None
    kind = type(system).__name__
    raise ModelError(f"cannot export a {kind} as an FMU: {_WHAT}. A mechanism or a "
                     "FunctionPHS (energy given by Python functions) has no formula to write "
                     "as C code; build the model as a symbolic PHS or a bond graph instead")


#: the most states an FMU takes: its co-simulation step is a dense Newton/LU step that
#: holds five n × n work matrices (160 MB at 2000 states) and costs O(n³) per iteration
MAX_STATES = 2000


def fmu_model(system: Any, start: Any = None, u: Any = None) -> FmuModel:
    """The :class:`FmuModel` of ``system`` with the initial state ``start`` and the start
    values ``u`` of the inputs (each a sequence in the order of the states/inputs, or a
    mapping by name; missing entries start at 0)."""
    phs = explicit_system(system)
    if phs.n_states > MAX_STATES:
        raise ModelError(
            f"{phs.name or 'the model'} has {phs.n_states} states; an FMU takes at most "
            f"{MAX_STATES} (its step is a dense Newton/LU step, O(n³)): reduce the model "
            "first, e.g. porthamiltonian.reduce(system, order=20) (docs/reduction.md)")
    q = quantities_of(phs) or quantities_of(system)
    states = [_state_variable(s, q) for s in phs.states]
    inputs = [_port_variable(u, q, "input", phs.outputs[k]) for k, u in enumerate(phs.inputs)]
    outputs = [_port_variable(y, q, "output", phs.inputs[k]) for k, y in enumerate(phs.outputs)]
    model = FmuModel(name=str(phs.name or getattr(system, "name", "") or ""),
                     states=states, inputs=inputs, outputs=outputs, parameters=[],
                     parameter_values=[], start=_start(start, phs.states, "start", "state"),
                     input_start=_start(u, phs.inputs, "u", "input"))
    if phs.symbolic:
        _symbolic(phs, model)
    else:
        _numeric(phs, model)
    return model


def _symbolic(phs: PHS, model: FmuModel) -> None:
    """Parameters with numeric values stay symbols (one FMU parameter per name); values
    that are expressions of others are put in, as :meth:`PHS.compile` does.  A parameter
    without a value (a switch a model file modulates) becomes an input of the FMU."""
    free = [k for k in phs.free_parameters() if phs.parameters.get(k) is None]
    if free:
        try:
            phs = phs.with_parameters(dict.fromkeys(free, 0.0))
        except ModelError as err:
            raise ModelError(f"the parameters {', '.join(free)} have no value, and 0 is not "
                             f"admissible ({err}); give them values with "
                             ".with_parameters(...) before exporting an FMU") from None
    model.modulated = set(free)
    source = phs.compile().source
    assert source is not None
    by_name: dict[str, list[sp.Symbol]] = {}
    values: dict[str, float] = {}
    for s, v in zip(source.parameters, source.values, strict=True):
        by_name.setdefault(s.name, []).append(s)
        values[s.name] = float(v)
    for name, v in values.items():
        if not math.isfinite(v):
            raise ModelError(f"parameter {name} = {v}: an FMU parameter needs a finite start "
                             "value; give it one with .with_parameters(...)")
    model.parameters = [
        Variable(name, "", f"modulated parameter {name} (no value in the model): an input "
                           "of the FMU, held over a communication step" if name in free
                 else f"parameter {name} of the model (tunable)")
        for name in by_name]
    model.parameter_values = [values[name] for name in by_name]
    model.parameter_symbols = [tuple(by_name[name]) for name in by_name]
    model.state_symbols = list(source.states)
    model.hamiltonian = sp.sympify(source.hamiltonian)
    model.matrices = {k: sp.Matrix(A) for k, A in source.matrices.items()}
    try:
        model.degree = int(sp.Poly(model.hamiltonian, *model.state_symbols).total_degree())
    except (sp.PolynomialError, sp.GeneratorsNeeded, ValueError):
        model.degree = None


def _numeric(phs: PHS, model: FmuModel) -> None:
    mats = {k: _finite(A, k) for k, A in phs.matrices().items()}
    mats["Q"] = _finite(phs.Q, "Q")
    model.numeric = mats
    model.degree = 2


def _finite(A: Any, name: str) -> Any:
    data = A.data if sps.issparse(A) else np.asarray(A, dtype=float)
    if not np.all(np.isfinite(data)):
        raise ModelError(f"matrix {name} has entries that are not finite; an FMU needs numbers")
    return sps.csr_matrix(A, dtype=float) if sps.issparse(A) else np.asarray(A, dtype=float)


def _start(values: Any, names: tuple[str, ...], arg: str, what: str) -> list[float]:
    """Start values over ``names`` from ``None`` (zeros), a mapping by name (missing: 0)
    or a sequence of matching length."""
    n = len(names)
    if values is None:
        return [0.0] * n
    if isinstance(values, Mapping):
        unknown = sorted(set(map(str, values)) - set(names))
        if unknown:
            raise ModelError(f"{arg}= names {', '.join(unknown)}, which "
                             f"{'is not' if len(unknown) == 1 else 'are not'} "
                             f"{'a ' + what if len(unknown) == 1 else what + 's'}; the "
                             f"{what}s are {', '.join(names) or 'none'}")
        items = [values.get(s, 0.0) for s in names]
    else:
        items = list(np.ravel(np.asarray(values, dtype=object)))
        if len(items) != n:
            raise ModelError(f"{arg}= has {len(items)} values for {n} {what}s "
                             f"({', '.join(names)}); give one per {what} or a mapping")
    try:
        out = [float(v) for v in items]
    except (TypeError, ValueError):
        raise ModelError(f"{arg}= values must be numbers (one per {what}); a start value "
                         "is a constant") from None
    if not all(math.isfinite(v) for v in out):
        raise ModelError(f"{arg}= values must be finite numbers")
    return out


def _state_variable(name: str, q: Any) -> Variable:
    info = q.states.get(name) if q is not None else None
    if info is None:
        return Variable(name, "", f"state {name} (energy variable)")
    return Variable(name, info.quantity.unit,
                    f"{info.quantity.kind} of {info.element} (state; its co-energy "
                    f"dH/d{name} is the {info.coenergy.kind})")


def _port_variable(name: str, q: Any, role: str, partner: str) -> Variable:
    qty = q.ports.get(name) if q is not None else None
    kind = qty.kind if qty is not None else ""
    unit = qty.unit if qty is not None else ""
    what = (f"input u of port {name}" if role == "input"
            else f"output y of the port whose input is {partner}")
    return Variable(name, unit, f"{kind}, {what}" if kind else what)
