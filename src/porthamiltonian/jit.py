r"""Just-in-time compilation with Numba, and the switch that turns it off.

The simulation kernels (:mod:`porthamiltonian.simulate.kernels`) and the mechanism
residuals are plain Python functions over NumPy arrays and scalars.  When Numba
(https://numba.pydata.org) is importable they are compiled to machine code on first use
and the machine code is cached on disk, so a later run of the same model structure
starts warm; otherwise the same functions run as they are (the pure-NumPy engine).

Turn the compiler off with the environment variable ``PORTHAMILTONIAN_JIT=0`` (or
``off``/``false``/``no``), or per run with ``simulate(..., engine="numpy")``;
``PORTHAMILTONIAN_JIT=always`` makes ``engine="auto"`` compile every run it can, even
a short one before the steps are built on this machine.
Generated model kernels are written to :func:`cache_dir` — ``$PORTHAMILTONIAN_CACHE``
if set, else ``$XDG_CACHE_HOME/porthamiltonian`` (``~/.cache/porthamiltonian``); delete
the folder to force a recompilation.

Numba is imported only when a kernel is first needed, never by ``import
porthamiltonian``.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["enabled", "always", "cache_dir", "njit", "ENV_VAR", "CACHE_ENV"]

#: environment variable: "0", "off", "false" or "no" disables the compiler
ENV_VAR = "PORTHAMILTONIAN_JIT"
#: environment variable: folder of generated kernels (and of Numba's cache for them)
CACHE_ENV = "PORTHAMILTONIAN_CACHE"

F = TypeVar("F", bound=Callable[..., Any])


def _switched_off() -> bool:
    return os.environ.get(ENV_VAR, "").strip().lower() in {"0", "off", "false", "no"}


@functools.lru_cache(maxsize=1)
def _numba() -> Any:
    try:
        import numba
    except ImportError:  # the pure-NumPy engine then runs the same functions
        return None
    return numba


def always() -> bool:
    """``PORTHAMILTONIAN_JIT=always``: compile whenever possible."""
    return os.environ.get(ENV_VAR, "").strip().lower() == "always"


def enabled() -> bool:
    """Whether kernels are compiled: Numba is installed and ``PORTHAMILTONIAN_JIT`` does
    not switch it off."""
    if _switched_off():
        return False
    # asked before any kernel is needed (a mechanism picks its engine when built, which
    # ``validate`` does): whether Numba is installed, without importing it (0.3 s)
    if "numba" not in sys.modules and _numba.cache_info().currsize == 0:
        return importlib.util.find_spec("numba") is not None
    return _numba() is not None


def cache_dir() -> Path:
    """The folder of generated kernels (created on demand by the code that writes)."""
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "porthamiltonian"


def njit(func: F | None = None, *, fastmath: bool | set[str] = False) -> Any:
    """Compile ``func`` in nopython mode with an on-disk cache when :func:`enabled`;
    otherwise return it unchanged.  The decision is taken when ``func`` is defined, i.e.
    when its module is first imported.  ``@njit`` or ``@njit(fastmath={"reassoc"})``
    (Numba's floating-point relaxations, for kernels whose sums may be reordered)."""
    def decorate(f: F) -> F:
        numba = _numba() if enabled() else None
        if numba is None:  # switched off, or installed but not importable
            return f
        # error_model="numpy": a division by zero gives inf/nan (the callers test for it)
        # instead of a check and a Python exception at every division
        return numba.njit(cache=True, nogil=True, error_model="numpy",  # type: ignore[no-any-return]
                          fastmath=fastmath)(f)

    return decorate if func is None else decorate(func)
