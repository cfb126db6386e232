"""Names of states, inputs, outputs and ports.

A scalar variable is named after its element (``C1``); a component of a
k-dimensional (multi-bond) element is named ``C1[0]`` ... ``C1[k-1]``
(docs/design.md).  These helpers expand and group such names.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from .errors import ModelError

_INDEXED = re.compile(r"^(?P<base>[A-Za-z_][A-Za-z0-9_.]*)\[(?P<index>\d+)\]$")
_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_.]*$")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*(?:\[\d+\])?\Z")  # plain or indexed


def split_index(name: str) -> tuple[str, int | None]:
    """Return ``(base, index)`` for ``"C1[2]"`` and ``(name, None)`` for ``"C1"``."""
    m = _INDEXED.match(name)
    if m:
        return m.group("base"), int(m.group("index"))
    return name, None


def expand(name: str, dim: int = 1) -> list[str]:
    """Scalar names of a variable of dimension ``dim``: ``["C1"]`` or ``["C1[0]", ...]``."""
    if dim == 1:
        return [name]
    return [f"{name}[{k}]" for k in range(dim)]


#: the energy variable a storage's qualified state is named after: ``C1.q`` (a C's
#: generalized displacement), ``L1.p`` (an I's generalized momentum)
STATE_SUFFIX = {"C": "q", "I": "p"}


def qualified_state(element: str, kind: str) -> str:
    """The qualified name of a storage's state: ``("La", "I")`` → ``"La.p"``,
    ``("C1", "C")`` → ``"C1.q"``.

    A bond-graph storage's state is named like the element (``La``) unless a parameter
    has that name; then it is the qualified name, so that the state and the parameter
    stay two names (docs/model-files.md, "Names").  The qualified name always denotes
    the state in the element fields of a bond graph.
    """
    return f"{element}.{STATE_SUFFIX[kind]}"


def check_names(names: Sequence[str], what: str) -> tuple[str, ...]:
    """Validate a list of scalar names: well formed and unique.

    Raises :class:`ModelError` naming the offending entry of ``what``
    (e.g. ``"states"``).
    """
    # fast path (a 10⁵-state discretization): one pass of C-level checks
    if (all(type(n) is str for n in names) and all(map(_NAME.match, names))
            and len(set(names)) == len(names)):
        return tuple(names)
    seen: set[str] = set()
    out = []
    for i, name in enumerate(names):
        if not isinstance(name, str):
            raise ModelError(
                f"{what}[{i}] = {name!r} is not a string; give each {what[:-1]} a name"
            )
        if not (_PLAIN.match(name) or _INDEXED.match(name)):
            raise ModelError(
                f"{what}[{i}] = {name!r} is not a valid name; use letters, digits, '_' "
                "and an optional index like 'C1[0]'"
            )
        if name in seen:
            raise ModelError(f"{what}: the name {name!r} appears twice; names must be unique")
        seen.add(name)
        out.append(name)
    return tuple(out)


def group(names: Iterable[str]) -> dict[str, list[int]]:
    """Group scalar names by base name, in order of first appearance.

    ``group(["a", "b[0]", "b[1]"]) == {"a": [0], "b": [1, 2]}`` (positions in the list).
    """
    groups: dict[str, list[int]] = {}
    for pos, name in enumerate(names):
        base, _ = split_index(name)
        groups.setdefault(base, []).append(pos)
    return groups


def resolve(selector: str, names: Sequence[str], what: str) -> list[int]:
    """Positions of the scalar names that ``selector`` designates.

    ``selector`` is a scalar name (``"b[1]"``) or a base name of a multi-dimensional
    variable (``"b"`` → every ``b[k]``).  Unknown names raise :class:`ModelError`
    listing the available ones.
    """
    if selector in names:
        return [list(names).index(selector)]
    positions = group(names).get(selector)
    if positions:
        return positions
    available = ", ".join(sorted(group(names))) or "(none)"
    raise ModelError(f"unknown {what} {selector!r}; available {what}s: {available}")


def parameter_values(values: Mapping[str, Any] | None, keywords: Mapping[str, Any],
                     known: Iterable[str], owner: str) -> dict[str, Any]:
    """The new parameter values of ``with_parameters(values, **keywords)`` (keywords
    last); a name not in ``known`` raises :class:`ModelError` listing ``owner``'s
    parameters (``owner``: "the system", "the bond graph", ...)."""
    merged = {**(values or {}), **keywords}
    names = sorted(known)
    unknown = sorted(set(merged) - set(names))
    if unknown:
        raise ModelError(f"unknown parameter(s) {', '.join(unknown)}; {owner}'s parameters "
                         f"are: {', '.join(names) or '(none)'}")
    return merged


def listing(names: Sequence[str], cap: int = 40, empty: str = "(none)") -> str:
    """``names`` joined by commas, the first ``cap`` of them and a count of the rest
    (error messages about models with 10⁵ states stay readable)."""
    names = list(names)
    if not names:
        return empty
    more = f", … ({len(names) - cap} more)" if len(names) > cap else ""
    return ", ".join(names[:cap]) + more
