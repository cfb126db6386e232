"""``porthamiltonian export MODEL --fmu FILE.fmu [--kind me|cs]`` and ``--matrices FILE.mat``
(docs/cli.md, docs/export.md).

Builds the model file's explicit port-Hamiltonian system (a ``phs``, ``bondgraph`` or
``network`` section) and writes it as a Functional Mock-up Unit: FMI 3.0 (``--fmi 2``
for 2.0), Co-Simulation (default) or Model Exchange.  From the ``simulate:`` section
come the start values of the states (``initial``), the internal co-simulation step
(``dt``, unless ``--dt``), the method (``method`` when it is ``midpoint`` or
``discrete_gradient``, unless ``--method``), the start values of the inputs that are
constants (``inputs``) and the default experiment's stop time (``t_end``).  A parameter
without a value (a switch ``simulate.modulation`` drives) becomes an input of the FMU.
Without a C compiler, or with ``--no-compile``, the FMU carries its C sources only, and
a ``warning:`` line says so.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from typing import Any

from ..errors import ModelError
from ..io.schema import plural

__all__ = ["run_command"]


def run_command(args: argparse.Namespace) -> int:
    """Write the FMU and/or the matrices; user errors raise :class:`ModelError` (exit 2 in
    ``cli.main``)."""
    if not args.fmu and not args.matrices:
        raise ModelError("say what to export: --fmu FILE.fmu and/or --matrices FILE.mat|.npz")
    if args.fmu and not str(args.fmu).lower().endswith(".fmu"):
        raise ModelError(f"--fmu {args.fmu}: an FMU file name ends in .fmu")
    if args.matrices and not str(args.matrices).lower().endswith((".mat", ".npz")):
        raise ModelError(f"--matrices {args.matrices}: give FILE.mat (MATLAB) or FILE.npz "
                         "(NumPy)")
    from ..io import load_model
    from ..io.simulation import explicit_if_possible

    model = load_model(args.model)
    if model.kind == "mechanism":
        raise ModelError(f"{args.model}: a mechanism section cannot be exported (its pH-DAE "
                         "is assembled numerically, with no formula to write as C code or "
                         "constant matrices); export a model with a phs, bondgraph or "
                         "network section")
    from ..io.build import build_system

    system = explicit_if_possible(build_system(model))
    report: dict[str, Any] = {}
    if args.matrices:
        report.update(_matrices(args, system))
    if args.fmu:
        report.update(_fmu(args, model, system))
    if args.json:
        print(json.dumps(report, indent=2))
    return 0


def _matrices(args: argparse.Namespace, system: Any) -> dict[str, Any]:
    """Write the linear pH matrices (the benchmark collection's layout, docs/export.md)."""
    from ..export.matrices import save_matrices
    from ..linear_ph import linear_ph

    lin = linear_ph(system)  # a nonlinear model: a ModelError pointing to linearize
    path = save_matrices(lin, args.matrices)
    if not args.json:
        print(f"wrote {path}: E, J, R, Q, G, P, S, N of {plural(lin.n_states, 'state')} and "
              f"{plural(lin.n_inputs, 'port')}" + (" (E singular: a descriptor system)"
                                                   if lin.descriptor else ""))
    return {"matrices": str(path), "n_states": lin.n_states}


def _fmu(args: argparse.Namespace, model: Any, system: Any) -> dict[str, Any]:
    """Write the FMU (docs/export.md, "FMUs"); the report's keys (docs/cli.md)."""
    from ..export.fmu import export_fmu

    sim: dict[str, Any] = model.simulate or {}
    method = args.method or (sim.get("method") if sim.get("method") in
                             ("midpoint", "discrete_gradient") else "midpoint")
    dt = args.dt if args.dt is not None else sim.get("dt")
    inputs, varying = _constant_inputs(model, sim, list(system.inputs))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        done = export_fmu(system, args.fmu, kind=args.kind, fmi=args.fmi, method=method,
                          dt=None if dt is None else float(dt),
                          start=dict(sim.get("initial") or {}), u=inputs,
                          compile=not args.no_compile, name=model.name or None,
                          t_end=sim.get("t_end"))
    for w in caught:
        print(f"warning: {w.message}", file=sys.stderr)
    for name in done.modulated:
        print(f"note: the parameter {name} has no value in the model file"
              + (" (simulate.modulation drives it)" if name in (sim.get("modulation") or {})
                 else "") + "; it is an input of the FMU, which the importer sets",
              file=sys.stderr)
    if varying:
        print(f"note: the inputs {', '.join(varying)} vary in time in the model file; in the "
              "FMU they start at 0 and the importer sets them", file=sys.stderr)
    report: dict[str, Any] = {
        "fmu": str(done.path), "model_identifier": done.identifier, "fmi": done.fmi,
        "kind": done.kind, "method": done.method if done.kind == "cs" else None,
        "dt": None if dt is None else float(dt), "binary": done.binary,
        "states": list(done.states), "inputs": list(done.inputs),
        "outputs": list(done.outputs), "parameters": list(done.parameters),
        "modulated": list(done.modulated),
    }
    if args.json:
        return report
    kind = "Co-Simulation" if done.kind == "cs" else "Model Exchange"
    step = (f", {done.method} step" + (f" of at most {float(dt):g} s" if dt else "")
            if done.kind == "cs" else "")
    counts = ", ".join(plural(len(v), w) for v, w in ((done.states, "state"),
                                                       (done.inputs, "input"),
                                                       (done.parameters, "tunable parameter"),
                                                       (done.modulated, "modulated parameter")
                                                       ) if v or w != "modulated parameter")
    print(f"wrote {done.path}: FMI {done.fmi} {kind}{step}; {counts}")
    if done.binary:
        print(f"  binary for this machine: {done.binary}; C sources in sources/")
    else:
        print("  C sources only (sources/, buildDescription.xml): the importer builds them")
    return report


def _constant_inputs(model: Any, sim: dict[str, Any], names: list[str]
                     ) -> tuple[dict[str, float], list[str]]:
    """The inputs of ``simulate.inputs`` that are constants (the FMU's start values), and
    the names of those that are not (expressions of t, tables)."""
    import sympy as sp

    values = model.parameter_values()
    constant: dict[str, float] = {}
    varying: list[str] = []
    for name, signal in (sim.get("inputs") or {}).items():
        if name not in names:
            continue
        if isinstance(signal, sp.Basic):
            signal = signal.xreplace(values)
        try:
            constant[name] = float(signal)
        except (TypeError, ValueError):
            varying.append(name)
    return constant, varying

