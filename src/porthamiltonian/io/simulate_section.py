"""The optional ``simulate`` section: time span, method, input signals, initial state.

::

    simulate:
      t_end: 1.0                      # s, required, > t_start
      t_start: 0.0                    # s, default 0
      dt: 1.0e-4                      # s, optional step
      method: midpoint                # optional; the simulator checks the name
      inputs:                         # input name -> expression in t and parameters,
        u: "sin(2*pi*50*t)"           #   or a CSV table (io.table_input):
        w: {csv: wind.csv, column: speed, interpolation: previous}
      initial: {C1: 0.0, L1: 0.0}     # state name -> number (or list for a multi-bond state)
                                      #   a storage's name for its state ("La" for "La.p");
                                      #   a distributed model's field -> expression of x, y, z
      velocities: {pivot: 0.0}        # mechanisms only: joint -> velocity (io.mechanism_section)
      modulation:                     # parameter name -> piecewise-constant signal
        S: {pwm: {period: 5.0e-5, duty: 0.4}}         # 1 for duty·period, then 0
        K: {times: [0.0, 0.01], values: [0.0, 1.0]}  # value k from times[k] on
      events:                         # zero crossings of expressions (io.event_section)
        - {name: empty, when: "q", direction: falling, terminal: true}

Times may be written as numeric expressions in the parameters (``"10*tau"``).
Times and initial values may carry units (``2 ms``, ``1 mC``; :mod:`.unit_checks`).
The checked section is ``{"t_start": float, "t_end": float, "dt": float | None,
"method": str | None, "inputs": {name: sympy.Expr in T and parameter symbols, or a
one-column Tabulated}, "initial": {scalar state name: float, or a distributed model's
field name: ("field", [sympy.Expr in x, y, z, one per component])}, "velocities": {scalar
name: float}, "modulation": {parameter name: ("pwm", period, duty, t0) | ("piecewise",
times, values)}, "events": [EventSpec]}``.
A modulated parameter is one of the model's parameters, declared without a value
(``S: null``).  Input and state names are checked
against the model when it defines them; a multi-bond input or state may be given
by its base name with a list of k values.
"""

from __future__ import annotations

import pathlib
from typing import Any

import sympy

from ..naming import group, split_index
from .event_section import check_events, event_names
from .schema import Checker, KeyPath, Section, label_of
from .table_input import check_table
from .unit_checks import check_simulate_units

__all__ = ["SIMULATE_KEYS", "check_simulate"]

SIMULATE_KEYS = ("t_end", "t_start", "dt", "method", "inputs", "initial", "velocities",
                 "modulation", "events")


def check_simulate(
    ck: Checker,
    value: Any,
    path: KeyPath,
    model: Section,
    base: pathlib.Path | None = None,
) -> dict[str, Any] | None:
    """Check a ``simulate`` section against the names of the checked model section
    (its ``states``, ``inputs``, ``outputs``, ``velocities``; ``None``: not known before
    compiling); CSV files are found relative to the folder ``base`` (default: the
    working directory)."""
    states, inputs, outputs = model.states, model.inputs, model.outputs
    label = label_of(path)
    section = ck.mapping(value, path, label)
    if section is None:
        return None
    ck.keys(section, path, label, SIMULATE_KEYS, ("t_end",), "in a simulate section")
    out: dict[str, Any] = {
        "t_start": 0.0,
        "t_end": None,
        "dt": None,
        "method": None,
        "inputs": {},
        "initial": {},
        "velocities": {},
        "modulation": {},
        "events": [],
    }
    if "t_start" in section:
        out["t_start"] = ck.number(section["t_start"], (*path, "t_start"), f"{label}.t_start")
    if "t_end" in section:
        out["t_end"] = ck.number(
            section["t_end"], (*path, "t_end"), f"{label}.t_end", positive=True
        )
    start, end = out["t_start"], out["t_end"]
    if start is not None and end is not None and not end > start:
        ck.error(
            (*path, "t_end"), f"{label}.t_end", f"t_end ({end:g}) must be after t_start ({start:g})"
        )
    if "dt" in section:
        out["dt"] = ck.number(section["dt"], (*path, "dt"), f"{label}.dt", positive=True)
    if "method" in section:
        method = section["method"]
        if isinstance(method, str) and method.strip():
            out["method"] = method.strip()
        else:
            ck.error(
                (*path, "method"), f"{label}.method", f"the method must be a name, got {method!r}"
            )
    if "inputs" in section:
        out["inputs"] = _signals(
            ck, section["inputs"], (*path, "inputs"), f"{label}.inputs", inputs, base
        )
        _covers(ck, out, (*path, "inputs"), f"{label}.inputs")
    if "initial" in section:
        out["initial"] = _initial(
            ck, section["initial"], (*path, "initial"), f"{label}.initial", states,
            _storage_aliases(model.data), model.fields
        )
    if "velocities" in section:
        vpath, vlabel = (*path, "velocities"), f"{label}.velocities"
        if model.velocities is None:
            ck.error(vpath, vlabel, "only a mechanism model takes joint velocities; give the "
                     "initial state under initial")
        else:
            out["velocities"] = _per_name(ck, section["velocities"], vpath, vlabel,
                                          model.velocities, "joint",
                                          lambda name, entry, p, lab: ck.number(entry, p, lab))
    if "modulation" in section:
        out["modulation"] = _modulation(
            ck, section["modulation"], (*path, "modulation"), f"{label}.modulation"
        )
    if "events" in section:
        known = None
        if None not in (states, inputs, outputs):
            known = event_names(ck.symbols, states, inputs, outputs)  # type: ignore[arg-type]
        out["events"] = check_events(ck, section["events"], (*path, "events"),
                                     f"{label}.events", known)
    check_simulate_units(ck, section, path, model.data)
    return out


def _covers(ck: Checker, out: dict[str, Any], path: KeyPath, label: str) -> None:
    """A table must cover the simulated time span (no silent extrapolation)."""
    start, end = out["t_start"], out["t_end"]
    for name, signal in out["inputs"].items():
        if isinstance(signal, sympy.Basic) or None in (start, end):
            continue
        if signal.start > start or signal.end < end:
            ck.error((*path, name.split("[")[0]), f"{label}.{name}",
                     f"{signal.source} covers t = {signal.start:g} … {signal.end:g} s, not the "
                     f"simulated {start:g} … {end:g} s; extend the table")


def _modulation(ck: Checker, value: Any, path: KeyPath, label: str) -> dict[str, tuple]:
    """``{name: ("pwm", period, duty, t0) | ("piecewise", times, values)}``."""
    out: dict[str, tuple] = {}
    for name, spec in (ck.mapping(value, path, label) or {}).items():
        kpath, klabel = (*path, name), f"{label}.{name}"
        if ck.symbols and name not in ck.symbols:
            ck.error(kpath, klabel, f"{name!r} is not a parameter of the model; declare it "
                     f"under parameters: without a value ({name}: null)")
            continue
        spec = ck.mapping(spec, kpath, klabel)
        if spec is None:
            continue
        if "pwm" in spec:
            ck.keys(spec, kpath, klabel, ("pwm",), ("pwm",), "in a modulation")
            pwm = ck.mapping(spec["pwm"], (*kpath, "pwm"), f"{klabel}.pwm") or {}
            ck.keys(pwm, (*kpath, "pwm"), f"{klabel}.pwm", ("period", "duty", "t0"),
                    ("period", "duty"), "in a pwm signal")
            period = ck.number(pwm.get("period"), (*kpath, "pwm", "period"),
                               f"{klabel}.pwm.period", positive=True) if "period" in pwm else None
            duty = ck.number(pwm.get("duty"), (*kpath, "pwm", "duty"),
                             f"{klabel}.pwm.duty") if "duty" in pwm else None
            t0 = ck.number(pwm["t0"], (*kpath, "pwm", "t0"), f"{klabel}.pwm.t0") \
                if "t0" in pwm else 0.0
            if duty is not None and not 0.0 <= duty <= 1.0:
                ck.error((*kpath, "pwm", "duty"), f"{klabel}.pwm.duty",
                         f"the duty ratio must be in [0, 1], got {duty:g}")
            elif None not in (period, duty, t0):
                out[name] = ("pwm", period, duty, t0)
            continue
        ck.keys(spec, kpath, klabel, ("times", "values"), ("times", "values"),
                "in a piecewise-constant signal (or give pwm:)")
        times = ck.sequence(spec.get("times"), (*kpath, "times"), f"{klabel}.times")
        values = ck.sequence(spec.get("values"), (*kpath, "values"), f"{klabel}.values")
        if times is None or values is None:
            continue
        t = [ck.number(v, (*kpath, "times", k), f"{klabel}.times[{k}]")
             for k, v in enumerate(times)]
        v = [ck.number(x, (*kpath, "values", k), f"{klabel}.values[{k}]")
             for k, x in enumerate(values)]
        if len(t) != len(v) or not t:
            ck.error(kpath, klabel, f"give as many values as times (got {len(v)} values for "
                     f"{len(t)} times)")
        elif any(a is None for a in t + v):
            continue
        elif any(b <= a for a, b in zip(t, t[1:], strict=False)):
            ck.error((*kpath, "times"), f"{klabel}.times", "the times must increase")
        else:
            out[name] = ("piecewise", t, v)
    return out


def _targets(
    ck: Checker, name: Any, path: KeyPath, label: str, known: list[str] | None, what: str
) -> list[str] | None:
    """Scalar names ``name`` designates: itself, or all ``name[k]`` of a multi-bond one."""
    if not isinstance(name, str):
        ck.error(path, label, f"the {what} name must be text, got {name!r}")
        return None
    if known is None or name in known:
        return [name]
    groups = group(known)
    if name in groups and len(groups[name]) > 1:
        return [known[i] for i in groups[name]]
    ck.error(
        path,
        label,
        f"unknown {what} {name!r}; the model's {what}s are: {', '.join(known) or '(none)'}",
    )
    return None


def _signals(
    ck: Checker, value: Any, path: KeyPath, label: str, inputs: list[str] | None,
    base: pathlib.Path | None,
) -> dict[str, Any]:
    def parse(name: str, entry: Any, p: KeyPath, lab: str) -> Any:
        if isinstance(entry, dict):
            return check_table(ck, entry, p, lab, name, base)
        return ck.expression(entry, p, lab, ck.symbols, allow_t=True)

    return _per_name(ck, value, path, label, inputs, "input", parse)


def _initial(
    ck: Checker, value: Any, path: KeyPath, label: str, states: list[str] | None,
    aliases: dict[str, str] | None = None, fields: dict[str, int] | None = None,
) -> dict[str, Any]:
    def parse(name: str, entry: Any, p: KeyPath, lab: str) -> Any:
        if fields and name in fields:
            return _field(ck, entry, p, lab, fields[name])
        if fields is not None and "[" not in name:  # neither a field nor one state
            ck.error(p, lab, f"unknown field {name!r}; the model's fields: "
                     f"{', '.join(fields)} (or one state by name, such as p[3])")
            return None
        return ck.number(entry, p, lab)

    return _per_name(ck, value, path, label, states, "state", parse, aliases)


#: the coordinates an initial field is written in (m)
COORDINATES = ("x", "y", "z")


def _field(ck: Checker, entry: Any, path: KeyPath, label: str, components: int
           ) -> tuple[str, list[sympy.Expr]] | None:
    """An initial field of a distributed model: ``("field", [expr, ...])``, one
    expression of x, y, z and the parameters per component."""
    clash = [c for c in COORDINATES if c in ck.symbols]
    if clash:
        ck.error(path, label, f"initial fields are written in the coordinates x, y, z, but "
                 f"{', '.join(clash)} is a parameter; rename the parameter")
        return None
    entries = entry if isinstance(entry, list) else [entry]
    if len(entries) != components:
        ck.error(path, label, f"give {components} expression(s) of x, y, z (one per "
                 f"component of the field), got {len(entries)}")
        return None
    names = {**ck.symbols, **{c: sympy.Symbol(c, real=True) for c in COORDINATES}}
    exprs = [ck.expression(e, (*path, k) if isinstance(entry, list) else path,
                           f"{label}[{k}]" if isinstance(entry, list) else label, names)
             for k, e in enumerate(entries)]
    if any(e is None for e in exprs):
        return None
    return ("field", exprs)  # type: ignore[list-item]


def _storage_aliases(section: dict[str, Any]) -> dict[str, str]:
    """Storage name -> the base name of its state where they differ (a bond-graph storage
    named like a parameter has the state ``La.p``; ``initial: {La: ...}`` means it)."""
    out: dict[str, str] = {}
    for e in section.get("elements", []) if isinstance(section, dict) else []:
        states = e.get("states") or []
        if states and split_index(states[0])[0] != e["name"]:
            out[e["name"]] = split_index(states[0])[0]
    return out


def _per_name(ck: Checker, value: Any, path: KeyPath, label: str, known: list[str] | None,
              what: str, parse: Any, aliases: dict[str, str] | None = None) -> dict[str, Any]:
    """``{name: entry}`` → ``{scalar name: parse(name, entry, path, label)}``; a multi-bond
    name takes a list."""
    out: dict[str, Any] = {}
    for name, entry in (ck.mapping(value, path, label) or {}).items():
        kpath, klabel = (*path, name), f"{label}.{name}"
        targets = _targets(ck, (aliases or {}).get(name, name), kpath, klabel, known, what)
        if targets is None:
            continue
        values = _spread(ck, entry, kpath, klabel, targets)
        if values is None:
            continue
        for target, (vpath, vlabel, text) in zip(targets, values, strict=True):
            parsed = parse(target, text, vpath, vlabel)
            if parsed is not None:
                out[target] = parsed
    return out


def _spread(
    ck: Checker, value: Any, path: KeyPath, label: str, targets: list[str]
) -> list[tuple[KeyPath, str, Any]] | None:
    """Pair each target name with its value: one value, or a list of len(targets)."""
    if len(targets) == 1:
        return [(path, label, value)]
    if not isinstance(value, list) or len(value) != len(targets):
        ck.error(
            path, label, f"give a list of {len(targets)} values (one per {', '.join(targets)})"
        )
        return None
    return [((*path, k), f"{label}[{k}]", v) for k, v in enumerate(value)]
