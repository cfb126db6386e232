r"""Compile a model: its functions (:mod:`.codegen`) written to the kernel cache as a
module of Numba C callbacks, imported, and handed to the steps (:mod:`.steps`).

The steps are compiled once per machine — they take the model's functions as
arguments (first-class function values of fixed signatures), so they do not depend on
the model — and cached by Numba beside the package.  A model's own functions are small
and compiled once per *structure*: the module's file name is a hash of its source
(model functions, Numba and Python versions), parameters are arguments (a model and
``model.with_parameters(...)`` share it), and Numba caches the machine code beside the
file (:func:`porthamiltonian.jit.cache_dir`).  :class:`Kernels` reports the seconds
spent compiling or loading as ``compile_time``.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ... import jit
from ...compiled import SymbolicSource
from . import steps
from .codegen import model_source

__all__ = ["Kernels", "kernels_for"]

#: Numba signatures of the model functions (contiguous float64 vectors and matrices)
_SIGNATURES = {
    "ham": "float64(float64[::1], float64[::1])",
    "grad": "void(float64[::1], float64[::1], float64[::1])",
    "grad_line": "void(float64[::1], float64[::1], float64[::1], float64[::1], "
                 "float64[:, ::1])",
    "hess": "void(float64[::1], float64[::1], float64[:, ::1])",
    "jr": "void(float64[::1], float64[::1], float64[:, ::1])",
    "gmp": "void(float64[::1], float64[::1], float64[:, ::1])",
    "ports": "void(float64[::1], float64[::1], float64[:, ::1], float64[:, ::1], "
             "float64[:, ::1], float64[:, ::1], float64[:, ::1])",
    "jacf": "void(float64[::1], float64[::1], float64[::1], float64[:, ::1])",
}

_NAMES = tuple(_SIGNATURES)
# the steps take the model's functions as first-class values on purpose (one compilation
# for every model); Numba calls that feature experimental at every compilation
warnings.filterwarnings("ignore", message="First-class function type feature is experimental")
_LOADED: dict[str, tuple[Any, ...]] = {}
#: (model module, method kind, stages, inputs) already warmed up in this process
_WARMED: set[tuple[Path, int, int, int]] = set()


@dataclass
class Kernels:
    """A model's compiled functions (the ``fns`` argument of :mod:`.steps`) and its
    parameter vector."""

    fns: tuple[Any, ...]
    parameters: np.ndarray
    path: Path
    #: seconds spent compiling (or loading from the on-disk caches) so far
    compile_time: float = 0.0

    def warm_up(self, kind: int, n: int, m: int, stages: int) -> None:
        """Compile (or load) the steps for these argument types now — a block of zero
        steps is enough — so that the run time excludes it."""
        key = (self.path, kind, stages, m)
        if key in _WARMED:  # a Kernels is made per run; the compiled code is per process
            return
        t0 = time.perf_counter()
        N = n * stages
        meth = (np.zeros(1), np.ones(1), np.zeros((stages, stages)), np.zeros(stages),
                np.zeros(3))
        steps.block(self.fns, kind, np.zeros((1, n)), np.zeros((0, stages, m)), 1.0,
                    self.parameters, meth, np.zeros((N, N)), np.zeros(N, dtype=np.int64),
                    np.array([np.nan, 0.0, 1.0]), 1e-12, 20, np.zeros((0, 3)),
                    np.zeros(2, dtype=np.int64))
        steps.single_step(self.fns, kind, np.zeros(n), 1.0, np.zeros((stages, m)),
                          self.parameters, meth, np.zeros((N, N)), np.zeros(N, dtype=np.int64),
                          np.array([np.nan, 1.0, 1.0]), 1e-12, 0, np.zeros(n), np.zeros(3),
                          np.zeros(2, dtype=np.int64))
        z = np.zeros(0)
        steps.points(self.fns, np.zeros((0, n)), np.zeros((0, m)), self.parameters,
                     np.zeros((0, m)), z, z, z, z)
        self.compile_time += time.perf_counter() - t0
        _WARMED.add(key)
        marker = steps_marker()
        if not marker.exists():
            marker.parent.mkdir(parents=True, exist_ok=True)
            marker.write_text(f"compiled in {self.compile_time:.1f} s\n", encoding="utf-8")


def steps_marker() -> Path:
    """A file that exists once the steps (:mod:`.steps`) have been compiled on this
    machine for this version of them, Numba and Python (they are then in Numba's cache)."""
    numba = jit._numba()
    text = Path(steps.__file__).read_text(encoding="utf-8")
    stamp = f"{text}{numba.__version__}{sys.version_info[:2]}"
    return jit.cache_dir() / f"steps-{hashlib.sha256(stamp.encode()).hexdigest()[:16]}.ready"


def precompile() -> float:
    """Compile the steps now (once per machine) with a one-state model; returns the
    seconds it took."""
    import sympy as sp

    x = sp.Symbol("x")
    zero = sp.zeros(1, 0)
    model = SymbolicSource((x,), (), (), x**4 / 4, {
        "J": sp.zeros(1, 1), "R": sp.ones(1, 1), "G": zero, "P": zero, "M": sp.zeros(0, 0),
        "S": sp.zeros(0, 0)}, 0)
    kernels = kernels_for(model)
    kernels.warm_up(steps.GONZALEZ, 1, 0, 1)
    return kernels.compile_time


def kernels_for(form: SymbolicSource) -> Kernels:
    """The compiled functions of a model (generated, written and compiled once per
    structure and process; loaded from the disk cache in later processes)."""
    t0 = time.perf_counter()
    source = _module_source(form)
    key = hashlib.sha256(source.encode()).hexdigest()[:20]
    path = _write(source, key)
    fns = load_generated(path, f"porthamiltonian_kernel_{key}", _NAMES)
    return Kernels(fns, np.asarray(form.values, dtype=float), path,
                   compile_time=time.perf_counter() - t0)


def load_generated(path: Path, name: str, functions: tuple[str, ...]) -> tuple[Any, ...]:
    """The ``functions`` of the generated module at ``path``, imported once per process
    as ``name`` (Numba compiles them, or loads their machine code from its cache)."""
    fns = _LOADED.get(name)
    if fns is None:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # Numba's cache finds functions through their module
        spec.loader.exec_module(module)
        fns = _LOADED[name] = tuple(getattr(module, f) for f in functions)
    return fns


def _module_source(form: SymbolicSource) -> str:
    numba = jit._numba()
    stamp = (f"# generated by porthamiltonian for Numba {numba.__version__} on Python "
             f"{sys.version_info.major}.{sys.version_info.minor}; do not edit\n")
    # numpy error model: 1/0 is inf (caught by the steps' NaN/Inf checks); the python one
    # raises, which a cfunc can only print and ignore
    options = 'cache=True, error_model="numpy"'
    compiled = "\n".join(f"{f} = cfunc({_SIGNATURES[f]!r}, {options})({f})" for f in _NAMES)
    return (stamp + "import math\n\nfrom numba import cfunc\n\n\n" + model_source(form)
            + "\n\n" + compiled + "\n")


def _write(source: str, key: str) -> Path:
    """The module file in the kernel cache (a temporary folder when that is not
    writable), written atomically so that concurrent runs never read half a file."""
    for folder in (jit.cache_dir() / "kernels", Path(tempfile.gettempdir()) / "ph-kernels"):
        path = folder / f"k{key}.py"
        if path.exists():
            return path
        try:
            folder.mkdir(parents=True, exist_ok=True)
            tmp = folder / f".k{key}.{os.getpid()}.tmp"
            tmp.write_text(source, encoding="utf-8")
            os.replace(tmp, path)
            return path
        except OSError:
            continue
    raise OSError("no writable folder for compiled kernels; set PORTHAMILTONIAN_CACHE")
