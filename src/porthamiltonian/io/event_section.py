r"""``simulate.events``: state events of a model file, zero crossings of an expression.

::

    simulate:
      events:
        - name: floor                 # optional; names the event in results and messages
          when: "q"                   # g(t, x, y): the event is a zero crossing of g
          direction: falling          # rising (− → +), falling (+ → −) or both (default)
          terminal: true              # stop the run at it (or a count: stop at the k-th)

``when`` is read with the safe parser (:mod:`porthamiltonian.expr`) in the
parameters, the time ``t`` (s), the states by name (``q``, ``C1[0]``), the outputs
as ``y.<name>`` and the inputs as ``u.<name>`` (the prefixes say which of a port's two
variables is meant, as the CSV columns ``u:``/``y:`` do: the electrical source ``u`` of a
bond graph has the input ``u.u`` and the output ``y.u.i``, its current).  The crossings
are located by :mod:`porthamiltonian.simulate.problem.events`.

The checked section is a list of :class:`EventSpec`.  Names are checked at load time
when the model section defines them (bond graphs, ``phs``); otherwise (networks) when
the simulation is set up, against the compiled system (:func:`event_names`), with the
same message and line.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sympy

from ..errors import ExpressionError
from ..expr import parse_expression, state_symbol
from .schema import Checker, KeyPath

__all__ = ["EventSpec", "EVENT_KEYS", "check_events", "event_names", "parse_event"]

EVENT_KEYS = ("name", "when", "direction", "terminal")
_DIRECTIONS = {"rising": 1, "falling": -1, "both": 0, 1: 1, -1: -1, 0: 0}


@dataclass(frozen=True)
class EventSpec:
    """A checked event of a model file.

    Attributes
    ----------
    name:
        The event's name (``events[k]`` when none was given).
    text:
        The ``when`` expression as written.
    direction:
        ``+1`` rising crossings only, ``−1`` falling only, ``0`` both.
    terminal:
        ``0``: record only; ``k ≥ 1``: stop the run at the k-th occurrence.
    where:
        ``"<file>:<line>: simulate.events[k] (name).when"``, the start of any message
        about the expression.
    expr:
        The parsed expression when the names were known at load time, else ``None``.
    """

    name: str
    text: Any
    direction: int
    terminal: int
    where: str
    expr: sympy.Expr | None = None


def event_names(parameters: Mapping[str, sympy.Expr], states: Sequence[str],
                inputs: Sequence[str], outputs: Sequence[str]) -> dict[str, sympy.Expr]:
    """The identifiers an event expression may use, mapped to their symbols."""
    names: dict[str, sympy.Expr] = {f"y.{o}": state_symbol(f"y.{o}") for o in outputs}
    names.update({f"u.{i}": state_symbol(f"u.{i}") for i in inputs})
    names.update(parameters)
    names.update({s: state_symbol(s) for s in states})
    return names


def parse_event(spec: EventSpec, names: Mapping[str, sympy.Expr]) -> sympy.Expr:
    """Parse ``spec.when``; raises :class:`ExpressionError` starting with ``spec.where``."""
    try:
        return parse_expression(spec.text, names, where=spec.where, allow_t=True)
    except ExpressionError as err:
        dotted = sorted(n for n in names if "." in n)
        if "attribute access" not in str(err) or not dotted:
            raise
        shown = ", ".join(dotted[:20]) + (f", ... ({len(dotted) - 20} more)"
                                          if len(dotted) > 20 else "")
        raise ExpressionError(f"{err}; the names with a dot here are: {shown}") from None


def check_events(ck: Checker, value: Any, path: KeyPath, label: str,
                 names: Mapping[str, sympy.Expr] | None) -> list[EventSpec]:
    """Check ``simulate.events``; ``names`` from :func:`event_names`, ``None`` if unknown."""
    out: list[EventSpec] = []
    seen: set[str] = set()
    for k, item in enumerate(ck.sequence(value, path, label) or []):
        kpath, klabel = (*path, k), f"{label}[{k}]"
        entry = ck.mapping(item, kpath, klabel)
        if entry is None:
            continue
        name = entry.get("name", f"events[{k}]")
        if "name" in entry:
            if not isinstance(name, str) or not name.strip():
                ck.error((*kpath, "name"), f"{klabel}.name", f"must be text, got {name!r}")
                continue
            klabel = f"{klabel} ({name})"
            if name in seen:
                ck.error((*kpath, "name"), f"{klabel}.name",
                         f"two events are called {name!r}; give each its own name")
            seen.add(name)
        if not ck.keys(entry, kpath, klabel, EVENT_KEYS, ("when",), "in an event"):
            continue
        direction = entry.get("direction", "both")
        key = direction.strip().lower() if isinstance(direction, str) else direction
        if isinstance(key, bool) or key not in _DIRECTIONS:
            ck.error((*kpath, "direction"), f"{klabel}.direction",
                     f"{direction!r} is not a direction; use rising (− to +), falling (+ to −) "
                     "or both")
            continue
        terminal = entry.get("terminal", False)
        if isinstance(terminal, bool):
            count = int(terminal)
        elif isinstance(terminal, int) and terminal >= 1:
            count = terminal
        else:
            ck.error((*kpath, "terminal"), f"{klabel}.terminal",
                     f"use true/false, or a count k ≥ 1 to stop at the k-th occurrence; got "
                     f"{terminal!r}")
            continue
        spec = EventSpec(name, entry["when"], _DIRECTIONS[key], count,
                         ck.locate((*kpath, "when"), f"{klabel}.when"))
        expr = None
        if names is not None:
            try:
                expr = parse_event(spec, names)
            except ExpressionError as err:
                ck.problems.append(str(err))
                continue
        out.append(EventSpec(spec.name, spec.text, spec.direction, spec.terminal, spec.where,
                             expr))
    return out
