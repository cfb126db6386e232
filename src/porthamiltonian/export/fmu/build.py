"""Compiling the FMU's C sources for this machine, and writing the zip.

The shared library goes where the standard says an importer looks for it: FMI 3.0
``binaries/<architecture>-<os>/<modelIdentifier>.<ext>`` (§2.5.1, e.g.
``x86_64-linux``), FMI 2.0 ``binaries/<os><bits>/`` (§2.3, e.g. ``linux64``).  The
compiler is ``$CC``, else the first of ``cc``, ``gcc``, ``clang`` on the ``PATH``
(GCC/Clang command line); without one the FMU carries its sources only.  A compiler
failure is a :class:`~porthamiltonian.errors.ModelError` quoting its first error line.
"""

from __future__ import annotations

import os
import platform
import shlex
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from ...errors import ModelError

__all__ = ["find_compiler", "platform_folder", "library_suffix", "compile_library",
           "write_zip"]


def find_compiler() -> list[str] | None:
    """The C compiler command (``$CC`` split like a shell would), or ``None``."""
    cc = os.environ.get("CC", "").strip()
    if cc:
        cmd = shlex.split(cc)
        return cmd if shutil.which(cmd[0]) else None
    for name in ("cc", "gcc", "clang"):
        path = shutil.which(name)
        if path:
            return [path]
    return None


def _machine() -> tuple[str, str]:
    """(architecture, operating system) in FMI 3.0 words."""
    arch = platform.machine().lower()
    arch = {"amd64": "x86_64", "x64": "x86_64", "arm64": "aarch64", "i686": "x86",
            "i386": "x86"}.get(arch, arch)
    osname = {"linux": "linux", "darwin": "darwin", "win32": "windows",
              "cygwin": "windows"}.get(sys.platform, sys.platform)
    return arch, osname


def platform_folder(fmi: str) -> str:
    """``binaries/`` sub-folder of this machine: ``x86_64-linux`` (FMI 3.0),
    ``linux64`` (FMI 2.0)."""
    arch, osname = _machine()
    if fmi == "3.0":
        return f"{arch}-{osname}"
    bits = "64" if sys.maxsize > 2**32 else "32"
    return {"windows": "win", "darwin": "darwin", "linux": "linux"}.get(osname, osname) + bits


def library_suffix() -> str:
    _, osname = _machine()
    return {"windows": ".dll", "darwin": ".dylib"}.get(osname, ".so")


def compile_library(sources: dict[str, str], identifier: str, compiler: list[str]) -> bytes:
    """Compile the C files of ``sources`` (name → text) into a shared library; its
    bytes.  Raises :class:`ModelError` with the compiler's first error line."""
    with tempfile.TemporaryDirectory(prefix="phx-fmu-") as tmp:
        folder = Path(tmp)
        for name, text in sources.items():
            (folder / name).write_text(text, encoding="utf-8")
        out = folder / f"{identifier}{library_suffix()}"
        # an undeclared function must stop the build, not become an int-valued guess
        cmd = [*compiler, "-shared", "-fPIC", "-O2", "-std=c99", "-fvisibility=hidden",
               "-Werror=implicit-function-declaration",
               "-o", str(out), *sorted(n for n in sources if n.endswith(".c")), "-lm"]
        if _machine()[1] == "windows":  # no -fPIC/-lm for MinGW
            cmd = [c for c in cmd if c not in ("-fPIC", "-lm")]
        try:
            run = subprocess.run(cmd, cwd=folder, capture_output=True, text=True,
                                 timeout=600, check=False)
        except (OSError, subprocess.TimeoutExpired) as err:
            raise ModelError(f"the C compiler {compiler[0]} could not be run ({err}); set "
                             "CC to a working C compiler or export with compile=False "
                             "(--no-compile): the FMU then carries its sources only") from None
        if run.returncode != 0 or not out.exists():
            raise ModelError(f"compiling the FMU's C code failed: {_first_error(run.stderr)} "
                             f"(compiler {compiler[0]}); export with compile=False "
                             "(--no-compile) to get the sources, or report the model")
        return out.read_bytes()


def _first_error(text: str) -> str:
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    for ln in lines:
        if "error" in ln.lower():
            return ln[:300]
    return (lines[0][:300] if lines else "no message")


def write_zip(path: Path, files: dict[str, bytes]) -> None:
    """Write the FMU archive atomically (a half-written FMU never replaces a good one)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name, suffix=".part", dir=path.parent)
    os.close(fd)
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as z:
            for name, data in files.items():
                z.writestr(name, data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
