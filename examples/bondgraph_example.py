"""Shared steps of the bond-graph worked examples (``python examples/<name>.py``).

``load(name)`` reads ``examples/models/<name>.yaml`` and generates its explicit
port-Hamiltonian model (parameters kept as symbols, their values attached);
``show(system)`` prints ``J, R, G, P, M, S`` and ``H``; ``run(model, system)``
simulates it with the model's ``simulate:`` section
(:func:`porthamiltonian.simulate`, implicit midpoint unless the file says otherwise).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sympy as sp

import porthamiltonian as ph
from porthamiltonian.bondgraph import BondGraph, analyze_causality, to_phs
from porthamiltonian.io import load_model

MODELS = Path(__file__).resolve().parent / "models"


def load(name: str) -> tuple[Any, ph.PHS]:
    """The loaded model file and its generated explicit PHS."""
    model = load_model(MODELS / f"{name}.yaml")
    bg = BondGraph.from_model(model)
    bg.check()
    print(analyze_causality(bg).explain())
    return model, to_phs(bg)


def show(system: ph.PHS) -> None:
    """Print the state, ports, the six matrices and the Hamiltonian."""
    print(f"\n{system.name}: x = {list(system.states)}, u = {list(system.inputs)}, "
          f"y = {list(system.outputs)}")
    for key, A in system.matrices().items():
        print(f"{key} =")
        sp.pprint(sp.Matrix(A), use_unicode=True, wrap_line=False)
    print("H =", system.hamiltonian)


def run(model: Any, system: ph.PHS, **overrides: Any) -> Any:
    """Simulate ``system`` with the ``simulate:`` section of ``model`` (overridable)."""
    sim = dict(model.simulate or {})
    values = model.parameter_values()
    inputs = {k: e.xreplace(values) for k, e in (sim.get("inputs") or {}).items()}
    args = {"x0": dict(sim.get("initial") or {}), "u": inputs or None,
            "method": sim.get("method") or "midpoint", "dt": sim.get("dt")}
    args.update(overrides)
    t_span = (float(sim.get("t_start") or 0.0), float(sim["t_end"]))
    res = ph.simulate(system, t_span, **args)
    print(f"simulated {res.nsteps} steps ({res.method}); max |power residual| = "
          f"{abs(res.power_residual).max():.2e} J")
    return res


def value(model: Any, name: str) -> float:
    """The numeric value of a parameter of the model file."""
    return float(model.parameters[name])
