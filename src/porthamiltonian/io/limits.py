"""Limits on what a model file may ask for, so that reading one is bounded in time and memory.

A model file may come from someone else: every resource it can claim has a limit with a
clear error, and each limit can be raised by the user who means it — from Python with
``load_model(path, limits={"file_mb": 50})`` (or :func:`raised`), from the command line
with ``--limit file_mb=50`` (repeatable), or for a whole session with the environment
variable ``PORTHAMILTONIAN_LIMITS="file_mb=50,nodes=5000000"``.  docs/model-files.md,
"Limits and safety", lists them.

==================  =========  ==========================================================
name                default    what it bounds
==================  =========  ==========================================================
``file_mb``         5          size of a model file (MB); only regular files are read
``nodes``           1 000 000  values in the document after expanding YAML aliases
``dimension``       100        ``dim:`` of a multi-bond element (its symbolic blocks grow as dim²)
``table_mb``        50         size of a CSV input table (MB)
==================  =========  ==========================================================

Files a model refers to (CSV input tables) are read only inside the model file's folder
(the working directory for a model given as text); further folders are allowed with
``--allow-path DIR`` or ``load_model(path, allow_paths=[DIR])`` (:func:`allowing`).

Expression limits (length, nesting, exponents, digits) are in
:mod:`porthamiltonian.expr`; the number of simulation steps is the simulator's
``max_steps`` (``--max-steps``).
"""

from __future__ import annotations

import os
import pathlib
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from typing import Any

from ..errors import ModelError
from ..expr import shorten

__all__ = ["Limits", "current", "raised", "parse_limits", "excerpt", "allowing",
           "check_inside"]


@dataclass(frozen=True)
class Limits:
    """The limits in force (see the module docstring for meanings and defaults)."""

    file_mb: float = 5.0
    nodes: int = 1_000_000
    dimension: int = 100
    table_mb: float = 50.0

    @property
    def file_bytes(self) -> int:
        return int(self.file_mb * 1_000_000)

    @property
    def table_bytes(self) -> int:
        return int(self.table_mb * 1_000_000)

    def with_values(self, values: Mapping[str, Any]) -> Limits:
        """These limits with some replaced (names checked, values positive numbers)."""
        known = {f.name: f.type for f in fields(self)}
        out: dict[str, Any] = {}
        for name, value in values.items():
            if name not in known:
                raise ModelError(f"unknown limit {name!r}; the limits are: {', '.join(known)}")
            try:
                number = float(value)
            except (TypeError, ValueError):
                raise ModelError(f"limit {name} must be a number, got {value!r}") from None
            if not number > 0:
                raise ModelError(f"limit {name} must be positive, got {value!r}")
            out[name] = int(number) if name in ("nodes", "dimension") else number
        return replace(self, **out)


def parse_limits(items: Any) -> dict[str, str]:
    """``["file_mb=50", "nodes=2e6"]`` or ``"file_mb=50,nodes=2e6"`` → a dict."""
    if not items:
        return {}
    parts = items.split(",") if isinstance(items, str) else [p for i in items for p in
                                                               str(i).split(",")]
    out = {}
    for part in parts:
        name, eq, value = part.strip().partition("=")
        if not eq or not name.strip():
            raise ModelError(f"a limit is NAME=VALUE (e.g. file_mb=50), got {part!r}")
        out[name.strip()] = value.strip()
    return out


_ACTIVE: list[Limits] = []


def current() -> Limits:
    """The limits in force: the innermost :func:`raised`, else the environment's."""
    if _ACTIVE:
        return _ACTIVE[-1]
    return Limits().with_values(parse_limits(os.environ.get("PORTHAMILTONIAN_LIMITS", "")))


@contextmanager
def raised(values: Mapping[str, Any] | Limits | None) -> Iterator[Limits]:
    """Within the block, the given limits replace the defaults."""
    limits = values if isinstance(values, Limits) else current().with_values(values or {})
    _ACTIVE.append(limits)
    try:
        yield limits
    finally:
        _ACTIVE.pop()


def excerpt(value: Any, limit: int = 60) -> str:
    """A short quotation of a user's value for an error message (never the whole of a
    large or alias-expanded value)."""
    if isinstance(value, (list, tuple, dict)):
        kind = type(value).__name__
        return f"<a {kind} of {len(value)} entries>"
    return shorten(repr(value) if not isinstance(value, str) else value, limit)


_ALLOWED: list[tuple[pathlib.Path, ...]] = []


@contextmanager
def allowing(paths: Iterable[str | pathlib.Path] | None) -> Iterator[None]:
    """Within the block, files under ``paths`` may be read too (besides the model's folder)."""
    extra = tuple(pathlib.Path(p).expanduser().resolve() for p in (paths or ()))
    _ALLOWED.append((*(_ALLOWED[-1] if _ALLOWED else ()), *extra))
    try:
        yield
    finally:
        _ALLOWED.pop()


def check_inside(file: pathlib.Path, folder: pathlib.Path) -> str | None:
    """``None`` if ``file`` (links resolved) lies in ``folder`` or an allowed folder, else
    the reason it may not be read."""
    target = file.expanduser().resolve()
    roots = (folder.resolve(), *(_ALLOWED[-1] if _ALLOWED else ()))
    if any(target == r or r in target.parents for r in roots):
        return None
    return (f"{str(file)!r} is outside the model's folder {str(folder.resolve())!r}; a model "
            "file may only read files in its own folder — allow another folder with "
            "--allow-path DIR (Python: load_model(..., allow_paths=[DIR]))")
