"""``porthamiltonian modes MODEL [--count K] [--json]``: undamped natural frequencies.

The ``K`` lowest non-zero undamped natural frequencies of the model file's system
(:func:`porthamiltonian.analysis.natural_frequencies`: damping ignored, rigid-body and
other zero modes excluded), lowest first.  A linear model needs no operating point; a
nonlinear one is linearized at an equilibrium at zero input: ``simulate.initial`` when
the system is at rest there, else the equilibrium nearest it (nearest the zero state
when the file gives no ``initial``); ``linearized_at`` says which.  A model
with fewer oscillating modes than ``K`` lists those it has — none (an empty list) for an
RC circuit.  ``--json`` prints one object (docs/cli.md); otherwise a table.
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
from typing import Any

from ..errors import ModelError

__all__ = ["run_command"]


def run_command(args: argparse.Namespace) -> int:
    """Print the frequencies; user errors raise :class:`ModelError` (exit 2 in ``cli.main``)."""
    count = args.count
    if count < 1:
        raise ModelError(f"--count {count}: ask for at least 1 natural frequency")
    from ..analysis.natural import natural_frequencies
    from ..io import load_model
    from ..io.simulation import simulation_system

    model = load_model(args.model)
    if model.kind == "mechanism":
        raise ModelError(f"{args.model}: natural frequencies of a mechanism section are not "
                         "available (its pH-DAE has state-dependent constraints and no "
                         "linearization); use a model with a phs, bondgraph or network section")
    system = simulation_system(model)
    x0, at = _operating_point(model, system)
    omega = natural_frequencies(system, count, x0=x0, allow_fewer=True)
    hz = [float(w) / (2 * math.pi) for w in omega]
    name = model.name or pathlib.Path(args.model).stem
    if args.json:
        print(json.dumps({"model": name, "frequencies_hz": hz,
                          "rad_per_s": [float(w) for w in omega], "count": len(hz),
                          "linearized_at": at}, indent=2))
        return 0
    _table(name, list(omega), at)
    return 0


def _operating_point(model: Any, system: Any) -> tuple[Any, dict[str, float] | None]:
    """``(x0, {state: value})`` for a nonlinear model; ``(None, None)`` for a linear one
    (the operating point is then irrelevant)."""
    from ..linear_ph import linear_ph

    try:
        linear_ph(system)
        return None, None
    except ModelError:
        pass
    from ..analysis.linear import operating_point
    from ..simulate.problem.problem import initial_state

    initial = dict((model.simulate or {}).get("initial") or {})
    states = list(system.states)
    guess = initial_state(initial, states) if initial else None
    x0 = operating_point(system, x_guess=guess)  # = simulate.initial when at rest there
    x0[abs(x0) <= 1e-12 * max(1.0, float(abs(x0).max(initial=0.0)))] = 0.0  # round-off
    return x0, {s: float(v) for s, v in zip(states, x0, strict=True)}


def _table(name: str, omega: list[float], at: dict[str, float] | None) -> None:
    where = "" if at is None else " (linearized at " + ", ".join(
        f"{s} = {v:g}" for s, v in at.items()) + ")"
    if not omega:
        print(f"{name}: no oscillating mode{where}")
        return
    print(f"{name}: undamped natural frequencies{where}")
    print(f"{'mode':>4}  {'f (Hz)':>14}  {'ω (rad/s)':>14}  {'period (s)':>14}")
    for i, w in enumerate(omega, start=1):
        print(f"{i:>4}  {w / (2 * math.pi):>14.6g}  {w:>14.6g}  {2 * math.pi / w:>14.6g}")
