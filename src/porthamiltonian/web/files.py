"""The one folder the workbench may read and write: model files by name, nothing else.

The browser names a file (``rlc.yaml``, ``sub/motor.yaml``); :meth:`Workspace.resolve`
turns the name into a path and refuses, with a :class:`~porthamiltonian.errors.ModelError`
saying why, anything that is not a model file inside the root folder: absolute paths,
``..`` segments, links that lead outside (resolved before the check), hidden files, and
suffixes other than ``.yaml``, ``.yml`` and ``.json``.  The root is the folder of the
model given to ``porthamiltonian serve`` or the working directory.

Reading goes through :func:`porthamiltonian.io.load_model` (the safe YAML loader and the
size limits of the command line: a model file never runs code); writing is a
replacement through a temporary file in the same folder, so a failed write never leaves
half a model behind.
"""

from __future__ import annotations

import os
import pathlib
import tempfile

from ..errors import ModelError

__all__ = ["Workspace", "MODEL_SUFFIXES"]

#: the files the workbench opens and saves
MODEL_SUFFIXES = (".yaml", ".yml", ".json")


class Workspace:
    """Model files under ``root`` (a folder), by their names relative to it."""

    def __init__(self, root: str | pathlib.Path) -> None:
        self.root = pathlib.Path(root).expanduser().resolve()
        if not self.root.is_dir():
            raise ModelError(f"the workbench folder {str(self.root)!r} is not a folder")

    def resolve(self, name: str) -> pathlib.Path:
        """The path of the model file ``name``; :class:`ModelError` unless it is a model
        file inside the root folder."""
        if not isinstance(name, str) or not name.strip():
            raise ModelError("give a file name, e.g. model.yaml")
        name = name.strip()
        where = f"the workbench folder {str(self.root)!r}"
        if "\0" in name or pathlib.PurePath(name).is_absolute() or name.startswith("~"):
            raise ModelError(f"{name!r}: give a file name relative to {where}, not an "
                             "absolute path; the workbench reads and writes only there")
        parts = pathlib.PurePath(name.replace("\\", "/")).parts
        if ".." in parts:
            raise ModelError(f"{name!r}: '..' is not allowed; the workbench reads and "
                             f"writes only in {where}")
        if any(p.startswith(".") for p in parts):
            raise ModelError(f"{name!r}: hidden files and folders are not opened or saved")
        if pathlib.PurePath(name).suffix.lower() not in MODEL_SUFFIXES:
            raise ModelError(f"{name!r}: a model file ends in {', '.join(MODEL_SUFFIXES)}")
        path = (self.root / pathlib.PurePath(*parts)).resolve()
        if self.root not in path.parents:  # a link inside the folder that leads out
            raise ModelError(f"{name!r} leads outside {where} (through a link); the "
                             "workbench reads and writes only there")
        return path

    def names(self) -> list[str]:
        """The model files in the root folder and its sub-folders (not hidden ones)."""
        out = []
        for dirpath, dirnames, filenames in os.walk(self.root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for f in sorted(filenames):
                rel = pathlib.Path(dirpath, f).relative_to(self.root)
                if rel.suffix.lower() in MODEL_SUFFIXES and not f.startswith("."):
                    out.append(rel.as_posix())
            if len(out) > 500:  # a huge folder: the list is a convenience, not a catalogue
                break
        return out

    def read(self, name: str) -> tuple[str, pathlib.Path]:
        """The text of the model file ``name`` (size-limited as ``load_model`` reads) and
        its path."""
        from ..io.limits import current

        path = self.resolve(name)
        if not path.is_file():
            raise ModelError(f"{name!r}: no such model file in {str(self.root)!r}")
        limit = current().file_bytes
        with open(path, "rb") as fh:
            raw = fh.read(limit + 1)
        if len(raw) > limit:
            raise ModelError(f"{name!r} is larger than the limit of {limit / 1e6:g} MB "
                             "(PORTHAMILTONIAN_LIMITS=file_mb=N raises it)")
        try:
            return raw.decode("utf-8"), path
        except UnicodeDecodeError:
            raise ModelError(f"{name!r} is not UTF-8 text") from None

    def write(self, name: str, text: str) -> pathlib.Path:
        """Write ``text`` to the model file ``name`` (replacing it whole)."""
        path = self.resolve(name)
        if not path.parent.is_dir():
            raise ModelError(f"{name!r}: the folder {path.parent.name!r} does not exist")
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".workbench-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, path)
        except OSError as err:
            pathlib.Path(tmp).unlink(missing_ok=True)
            raise ModelError(f"{name!r}: cannot write it ({err.strerror or err})") from None
        return path
