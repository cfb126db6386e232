"""Building blocks for checking a model file: typed getters that collect problems.

A :class:`Checker` walks the plain data of a model file and records every
problem it finds instead of stopping at the first, so that ``porthamiltonian
validate`` can list them all.  Each message has the form::

    model.yaml:12: bondgraph.elements[2] (C1): unknown key 'cc'; allowed keys ...

``<source>:<line>: `` comes from the key path (the line is the nearest known
one walking up the path; it is left out for data that did not come from a
file), then a *label* saying where in the model the problem is, then what is
wrong and how to fix it.  The getters return ``None`` when the value is bad, so
that a caller can carry on checking the rest.
"""

from __future__ import annotations

import keyword
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import sympy

from ..errors import ExpressionError
from ..expr import RESERVED, parse_expression, shorten
from .limits import excerpt
from .units import UnitError, convert, split_quantity
from .yamlmarks import KeyPath

__all__ = ["Checker", "KeyPath", "Section", "SectionValidator", "label_of", "plural"]

#: longest problem message: an error quotes a short excerpt of the input, never all of it
MAX_MESSAGE = 300


def plural(count: int, word: str) -> str:
    """``plural(1, "row") == "1 row"``, ``plural(2, "entry") == "2 entries"``."""
    if count == 1:
        return f"{count} {word}"
    return f"{count} {word[:-1]}ies" if word.endswith("y") else f"{count} {word}s"


@dataclass
class Section:
    """A checked model section.

    Attributes
    ----------
    data:
        The section as plain data with every expression parsed into SymPy.
    states, inputs, outputs:
        Scalar state, input and output names the section defines (``C1``, ``C1[0]``),
        used to check the ``simulate`` section; ``None`` when not determinable
        before the model is compiled.
    velocities:
        Names that take initial velocities (``simulate.velocities``): a mechanism's
        joint coordinates; ``None`` for models whose initial state is their state.
    fields:
        Names that take initial *fields* (``simulate.initial: {v: "sin(pi*x)"}``):
        expressions of the coordinates x, y, z (m) and the parameters, one per
        component (a list for a vector field), of a ``distributed`` model; ``None``
        for other models.  Name -> number of components.
    """

    data: dict[str, Any]
    states: list[str] | None = None
    inputs: list[str] | None = None
    outputs: list[str] | None = None
    velocities: list[str] | None = None
    fields: dict[str, int] | None = None


#: A section validator: ``(checker, raw value, key path) -> Section``.  It reports
#: problems through the checker and returns its best effort even when there are some.
SectionValidator = Callable[["Checker", Any, "KeyPath"], Section]


def label_of(path: KeyPath) -> str:
    """``("bondgraph", "elements", 2, "c")`` -> ``"bondgraph.elements[2].c"``."""
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "model"


class Checker:
    """Collects problems about one model document.

    Parameters
    ----------
    source:
        Name of the document in messages (file path, ``"<string>"``, ``"<dict>"``).
    lines:
        Key path -> 1-based line (see :mod:`.yamlmarks`); empty for plain data.

    Attributes
    ----------
    problems:
        Messages found so far, in order.
    symbols:
        Parameter name -> symbol, once the parameters are checked.
    values:
        Parameter name -> value (a number, an expression in symbolic
        parameters, or the symbol itself when symbolic).
    quantities:
        Key path -> :class:`~.units.Given` for every value written with a unit
        (``10 mH``); :meth:`expression` returns its SI value.
    units:
        Parameter name -> dimension (:class:`~.units.Dim`) of the parameters whose
        value has a unit, directly or through other parameters.
    """

    def __init__(self, source: str, lines: Mapping[KeyPath, int] | None = None) -> None:
        self.source = source
        self.lines = dict(lines or {})
        self.problems: list[str] = []
        self.symbols: dict[str, sympy.Symbol] = {}
        self.values: dict[str, sympy.Expr] = {}
        self.quantities: dict[KeyPath, Any] = {}
        self.units: dict[str, Any] = {}
        #: the model file being checked (``None`` for text or data), the folder its
        #: ``bondgraph.include`` files are read from, and the reader of an included file
        #: (set by :mod:`.model`; :mod:`.bondgraph_include`)
        self.path: Any = None
        self.folder: Any = None
        self.include_loader: Any = None

    # -- reporting ----------------------------------------------------------------------
    def line(self, path: KeyPath) -> int | None:
        """Line of ``path``, or of its nearest ancestor that has one."""
        path = tuple(path)
        while path:
            if path in self.lines:
                return self.lines[path]
            path = path[:-1]
        return self.lines.get(())

    def locate(self, path: KeyPath, message: str) -> str:
        """``"<source>:<line>: <message>"`` (no line for data that did not come from text)."""
        line = self.line(path)
        prefix = f"{self.source}:{line}: " if line is not None else f"{self.source}: "
        return prefix + message

    def report(self, path: KeyPath, message: str) -> None:
        """Record ``message`` (which already starts with its label) at ``path``; a message
        quoting a long value of the user's is cut to :data:`MAX_MESSAGE` characters."""
        self.problems.append(self.locate(path, shorten(message, MAX_MESSAGE)))

    def error(self, path: KeyPath, label: str, message: str) -> None:
        """Record ``"<label>: <message>"`` at ``path``."""
        self.report(path, f"{label}: {message}")

    # -- structure ----------------------------------------------------------------------
    def mapping(self, value: Any, path: KeyPath, label: str) -> dict[Any, Any] | None:
        """``value`` if it is a mapping, else a problem and ``None``."""
        if isinstance(value, dict):
            return value
        self.error(path, label, f"expected a mapping (key: value pairs), got {_kind(value)}")
        return None

    def sequence(self, value: Any, path: KeyPath, label: str) -> list[Any] | None:
        """``value`` if it is a list, else a problem and ``None``."""
        if isinstance(value, list):
            return value
        self.error(path, label, f"expected a list, got {_kind(value)}")
        return None

    def keys(
        self,
        value: Mapping[Any, Any],
        path: KeyPath,
        label: str,
        allowed: Iterable[str],
        required: Iterable[str] = (),
        what: str = "here",
    ) -> bool:
        """Report unknown and missing keys; return whether there were none."""
        allowed = list(allowed)
        ok = True
        for key in value:
            if key not in allowed:
                self.error(
                    (*path, key),
                    label,
                    f"unknown key {key!r}; allowed keys {what}: {', '.join(allowed)}",
                )
                ok = False
        for key in required:
            if key not in value:
                self.error(path, label, f"missing key {key!r}")
                ok = False
        return ok

    def identifier(self, value: Any, path: KeyPath, label: str, what: str) -> str | None:
        """A name usable in expressions: a Python identifier, not a keyword or reserved name."""
        if not isinstance(value, str):
            hint = ""
            if isinstance(value, bool) or value is None:
                hint = " (YAML reads yes/no/on/off/true/false/null as values; quote the name)"
            self.error(path, label, f"the {what} name must be text, got {value!r}{hint}")
            return None
        if not value.isidentifier() or keyword.iskeyword(value) or value.startswith("__"):
            self.error(
                path,
                label,
                f"{value!r} is not a valid {what} name; use letters, digits "
                "and '_', starting with a letter",
            )
            return None
        normal = unicodedata.normalize("NFKC", value)
        if normal != value:  # expressions read 'ｋ' as 'k' (Python folds identifiers)
            self.error(
                path,
                label,
                f"{value!r} is written with compatibility characters (full-width or "
                f"similar) that expressions read as {normal!r}, so it would be "
                f"indistinguishable from {normal!r}; write {normal!r}",
            )
            return None
        if value in RESERVED:
            self.error(
                path,
                label,
                f"{value!r} cannot be a {what} name: it is reserved for the "
                "time 't', 'pi' or a function; choose another name",
            )
            return None
        return value

    # -- values -------------------------------------------------------------------------
    def expression(
        self,
        value: Any,
        path: KeyPath,
        label: str,
        names: Mapping[str, sympy.Expr],
        *,
        allow_t: bool = False,
    ) -> sympy.Expr | None:
        """Parse an expression with the safe parser; a problem and ``None`` if bad.

        A number with a unit (``"10 mH"``, ``{value: 10, unit: mH}``, :mod:`.units`) is
        converted to SI and recorded in :attr:`quantities` under ``path``.
        """
        if isinstance(value, (str, dict)):
            try:
                written = split_quantity(value)
                if written is not None:
                    given = convert(*written, text=value if isinstance(value, str) else None)
                    self.quantities[tuple(path)] = given
                    return sympy.Float(given.si)
            except UnitError as err:
                self.error(path, label, str(err))
                return None
        try:
            return parse_expression(value, names, where=label, allow_t=allow_t)
        except ExpressionError as err:
            self.report(path, str(err))
            return None

    def number(
        self, value: Any, path: KeyPath, label: str, *, positive: bool = False
    ) -> float | None:
        """A real number; text such as ``"1e-3"`` or ``"10*tau"`` (numeric parameters) too."""
        expr = self.expression(value, path, label, self.values)
        if expr is None:
            return None
        if not expr.is_number:
            free = ", ".join(sorted(str(s) for s in expr.free_symbols))
            self.error(
                path,
                label,
                f"must be a number, but depends on symbolic parameter(s) "
                f"{free}; give them values under 'parameters'",
            )
            return None
        result = float(expr)
        if positive and not result > 0:
            self.error(path, label, f"must be positive, got {result:g}")
            return None
        return result

    def matrix(
        self,
        value: Any,
        path: KeyPath,
        label: str,
        names: Mapping[str, sympy.Expr],
        shape: tuple[int, int],
        *,
        allow_scalar: bool = False,
        explain: str = "",
    ) -> sympy.ImmutableMatrix | None:
        """A matrix given as a list of rows, of exactly ``shape``.

        With ``allow_scalar`` a single expression ``a`` means ``a`` times the
        identity (for square shapes).  ``explain`` says where the shape comes
        from (``"3 states"``) in the message.
        """
        rows, cols = shape
        why = f" ({explain})" if explain else ""
        if allow_scalar and not isinstance(value, list):
            scalar = self.expression(value, path, label, names)
            return None if scalar is None else sympy.ImmutableMatrix(scalar * sympy.eye(rows))
        if not isinstance(value, list):
            self.error(
                path,
                label,
                f"expected a {rows}×{cols} matrix{why} as a list of rows, got {_kind(value)}",
            )
            return None
        if not value and (rows == 0 or cols == 0):
            return sympy.ImmutableMatrix.zeros(rows, cols)
        if len(value) != rows:
            self.error(
                path,
                label,
                f"must be {rows}×{cols}{why}, but has {plural(len(value), 'row')}",
            )
            return None
        entries: list[list[sympy.Expr]] = []
        ok = True
        for i, row in enumerate(value):
            if not isinstance(row, list) or len(row) != cols:
                got = plural(len(row), "entry") if isinstance(row, list) else _kind(row)
                self.error(
                    (*path, i),
                    f"{label}[{i}]",
                    f"row {i} must have {plural(cols, 'entry')}{why}, got {got}",
                )
                ok = False
                continue
            parsed = [
                self.expression(v, (*path, i, j), f"{label}[{i}][{j}]", names)
                for j, v in enumerate(row)
            ]
            ok = ok and all(p is not None for p in parsed)
            entries.append(parsed)  # type: ignore[arg-type]
        if not ok:
            return None
        return sympy.ImmutableMatrix(rows, cols, [e for row in entries for e in row])


def _kind(value: Any) -> str:
    if value is None:
        return "nothing (null)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    return f"{type(value).__name__} {excerpt(repr(value))}"
