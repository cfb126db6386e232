"""The sub-graphs of a bond-graph model file (``bondgraph.include``), built as
:meth:`BondGraph.include` builds them.

The file's checks (:mod:`porthamiltonian.io.bondgraph_include`) give, per include, the
included model (its bound parameters left symbolic) and the bindings of those parameters
(its symbol → a value in the including file's parameters).  Here each included model is
built into a graph of its own, its bound parameters replaced by their bindings, and
included under its name; the instance's other parameters take the including model's
values (the checks put them there), so :meth:`BondGraph.include` finds no clash.
"""

from __future__ import annotations

from typing import Any

__all__ = ["add_includes", "expose_ports"]


def add_includes(bg: Any, section: dict[str, Any]) -> None:
    """Include the sub-graphs of the checked ``section`` into the
    :class:`~porthamiltonian.bondgraph.BondGraph` ``bg`` (before its own bonds, which may
    end at their ports ``m1.elec``; the graph's module imports this one)."""
    for inc in section.get("include") or ():
        sub = type(bg).from_model(inc["model"], storage_check=False)
        sub.state_names()  # a storage named like a bound parameter keeps its state name
        bind = inc["bind"]
        bound = {s.name for s in bind}
        for el in sub.elements.values():
            el.params = {k: (v.xreplace(bind) if hasattr(v, "xreplace") else v)
                         for k, v in el.params.items()}
        sub.parameters = {q: bg.parameters[q] for q in sub.parameters if q not in bound}
        bg.include(inc["name"], sub)


def expose_ports(bg: Any, section: dict[str, Any]) -> None:
    """Expose the junctions of the section's ``ports:``."""
    for port, junction in (section.get("ports") or {}).items():
        bg.expose(port, junction)
