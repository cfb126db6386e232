"""``validate --watch``: check model files again whenever one of them, or a file of their
folders (included sub-graphs, CSV tables), changes.

The command's imports are paid once: a re-check of a plain file then takes milliseconds
(docs/cli.md, "Start-up"), which is what an edit-and-save loop needs.  Changes are found
by polling each watched file's modification time and size every ``interval`` seconds
(no platform file-notification API: nothing to install, the same on every system).
"""

from __future__ import annotations

import os
import pathlib
import sys
import time
from collections.abc import Callable, Iterable, Sequence

__all__ = ["watch", "watched_files"]

#: the files a model may read besides itself: sub-graphs, tables, other model files
_SUFFIXES = (".yaml", ".yml", ".json", ".csv")


def watched_files(models: Iterable[str]) -> list[pathlib.Path]:
    """The models and the files of their folders a model may read (sorted)."""
    found: set[pathlib.Path] = set()
    for model in models:
        path = pathlib.Path(model)
        found.add(path)
        folder = path.parent if str(path.parent) else pathlib.Path(".")
        try:
            found.update(p for p in folder.iterdir() if p.suffix in _SUFFIXES and p.is_file())
        except OSError:  # a missing folder: the check itself says so
            pass
    return sorted(found)


def _stamps(files: Sequence[pathlib.Path]) -> dict[pathlib.Path, tuple[int, int] | None]:
    stamps: dict[pathlib.Path, tuple[int, int] | None] = {}
    for f in files:
        try:
            st = os.stat(f)
            stamps[f] = (st.st_mtime_ns, st.st_size)
        except OSError:
            stamps[f] = None
    return stamps


def watch(models: Sequence[str], check: Callable[[], int], interval: float,
          rounds: int | None = None) -> int:
    """Run ``check`` (one round over ``models``; its exit status), then again after every
    change, until interrupted (Ctrl-C: status 0) or after ``rounds`` rounds (the last
    round's status)."""
    status, done = check(), 1
    files = watched_files(models)
    last = _stamps(files)
    _waiting(len(files))
    try:
        while rounds is None or done < rounds:
            time.sleep(interval)
            files = watched_files(models)  # a file added to a folder is watched too
            now = _stamps(files)
            if now == last:
                continue
            last = now
            print(f"-- {time.strftime('%H:%M:%S')}: changed, checking again", file=sys.stderr)
            status, done = check(), done + 1
            _waiting(len(files))
    except KeyboardInterrupt:
        return 0
    return status


def _waiting(count: int) -> None:
    print(f"-- watching {count} file{'s' if count != 1 else ''} (Ctrl-C stops)",
          file=sys.stderr, flush=True)
