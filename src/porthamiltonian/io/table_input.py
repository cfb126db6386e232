"""Tabulated inputs of a model file: ``simulate.inputs.<name>: {csv: FILE, ...}``.

::

    simulate:
      inputs:
        u: {csv: supply.csv, column: volts, interpolation: previous}

``csv`` is the file, relative to the model file's folder (to the working directory
for a model given as text), and it must lie in that folder unless the user allows
another (``--allow-path DIR``, :func:`.limits.allowing`): a model file from someone
else reads nothing else on the machine; ``column`` the signal column (default: the column named
like the input, else the file's only signal column); ``interpolation`` is ``linear``
(default) or ``previous`` (zero-order hold: the value of the last sample at or before
``t``, and the sample times become step boundaries).  The file format is that of
:class:`porthamiltonian.simulate.Tabulated` (a header row; the time column named
``t`` or ``time``, else the first).  The file is read when the model is checked, so
that ``porthamiltonian validate`` reports a missing file or column with its line.
"""

from __future__ import annotations

import pathlib
from typing import TYPE_CHECKING, Any

from ..errors import ModelError
from .limits import check_inside, current
from .schema import Checker, KeyPath

if TYPE_CHECKING:
    from ..simulate.problem.tabulated import Tabulated

__all__ = ["TABLE_KEYS", "check_table"]

TABLE_KEYS = ("csv", "column", "interpolation")
_KINDS = ("linear", "previous")


def check_table(ck: Checker, value: dict[Any, Any], path: KeyPath, label: str, input_name: str,
                base: pathlib.Path | None) -> Tabulated | None:
    """The one-column table of input ``input_name`` that ``value`` describes, or ``None``
    (with the problem reported)."""
    if not ck.keys(value, path, label, TABLE_KEYS, ("csv",), "in a tabulated input"):
        return None
    file, column = value["csv"], value.get("column")
    kind = value.get("interpolation", "linear")
    if not isinstance(file, str) or not file.strip():
        ck.error((*path, "csv"), f"{label}.csv", f"give the CSV file's path as text, got {file!r}")
        return None
    if kind not in _KINDS:
        ck.error((*path, "interpolation"), f"{label}.interpolation",
                 f"{kind!r} is not an interpolation; use linear or previous (zero-order hold)")
        return None
    if column is not None and not isinstance(column, str):
        ck.error((*path, "column"), f"{label}.column",
                 f"give the column's header as text, got {column!r}")
        return None
    where = pathlib.Path(file)
    folder = base if base is not None else pathlib.Path.cwd()
    if not where.is_absolute():
        where = folder / where
    outside = check_inside(where, folder)
    if outside is not None:
        ck.error((*path, "csv"), f"{label}.csv", outside)
        return None
    if not where.is_file():
        ck.error((*path, "csv"), f"{label}.csv",
                 f"no file {str(where)!r}; the path is relative to the model file's folder")
        return None
    from ..simulate.problem.tabulated import Tabulated  # here: the simulator loads SciPy

    size, limit = where.stat().st_size, current().table_bytes
    if size > limit:
        ck.error((*path, "csv"), f"{label}.csv",
                 f"{where} has {size / 1e6:.1f} MB, more than the limit of {limit / 1e6:g} MB "
                 "(--limit table_mb=N raises it)")
        return None
    try:
        table = Tabulated.from_csv(where, kind=kind)
    except ModelError as err:
        ck.error((*path, "csv"), f"{label}.csv", str(err))
        return None
    if column is None:
        if input_name in table.names:
            column = input_name
        elif len(table.names) == 1:
            column = table.names[0]
        else:
            ck.error(path, label, f"{where} has no column {input_name!r} and several signal "
                     f"columns ({', '.join(table.names)}); choose one with column:")
            return None
    if column not in table.names:
        ck.error((*path, "column"), f"{label}.column",
                 f"{where} has no signal column {column!r}; its signal columns are: "
                 f"{', '.join(table.names) or '(none)'}")
        return None
    return table.column(column)
