"""Deprecated module paths of the flat ``simulate/`` (before the split by problem kind),
kept importable for one release: ``import porthamiltonian.simulate.newton`` still works,
warns with :class:`DeprecationWarning`, and names the new module.

Each old module becomes a proxy whose attributes are looked up in its new home(s).
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
import types
import warnings
from typing import Any

__all__ = ["MOVED", "install"]

_PACKAGE = "porthamiltonian.simulate"

#: old submodule of ``simulate`` → the modules (relative to ``porthamiltonian``) now
#: holding its names, first match wins
MOVED: dict[str, tuple[str, ...]] = {
    "base": ("simulate.problem.dynamics", "simulate.method"),
    "inputs": ("simulate.problem.inputs",),
    "tabulated": ("simulate.problem.tabulated",),
    "modulation": ("simulate.problem.modulation",),
    "events": ("simulate.problem.events",),
    "midpoint": ("simulate.ode.midpoint",),
    "discrete_gradient": ("simulate.ode.discrete_gradient",),
    "gauss": ("simulate.ode.gauss",),
    "gauss_coefficients": ("simulate.ode.gauss_coefficients",),
    "explicit": ("simulate.ode.explicit",),
    "lti": ("simulate.ode.lti",),
    "scipy_ivp": ("simulate.ode.scipy_ivp",),
    "driver": ("simulate.ode.loop", "simulate.ode.stepping"),
    "dae_midpoint": ("simulate.dae.midpoint",),
    "dae_init": ("simulate.dae.initialize",),
    "dae_ida": ("simulate.dae.ida",),
    "dae_run": ("simulate._moved", "simulate.dae.loop"),
    "dae_compiled": ("compiled.descriptor",),
    "newton": ("simulate.linalg.newton",),
    "ida": ("simulate.linalg.sundials",),
    "recorder": ("simulate.output.recorder",),
    "result": ("simulate.output.result",),
    "dae_result": ("simulate.output.dae_result",),
    "plot": ("simulate.output.plot",),
    "progress": ("simulate.output.progress",),
    "functional": ("functional",),
    "affine": ("compiled.affine",),
}


def simulate_descriptor(system: Any, t_span: Any, x0: Any = None, u: Any = None,
                        method: str = "midpoint", dt: float | None = None,
                        **options: Any) -> Any:
    """Deprecated: :func:`porthamiltonian.simulate` simulates a descriptor PHS itself."""
    warnings.warn("simulate_descriptor is deprecated; call porthamiltonian.simulate (one entry "
                  "point for every model kind)", DeprecationWarning, stacklevel=2)
    from .run import simulate

    return simulate(system, t_span, x0, u, method, dt, **options)


class _Alias(types.ModuleType):
    def __init__(self, name: str, homes: tuple[str, ...]) -> None:
        super().__init__(name, f"Deprecated alias of {', '.join(homes)}.")
        self._homes = homes

    def __getattr__(self, attr: str) -> Any:
        for home in self._homes:
            module = importlib.import_module(f"porthamiltonian.{home}")
            if hasattr(module, attr):
                return getattr(module, attr)
        raise AttributeError(f"{self.__name__} (moved to {', '.join(self._homes)}) has no "
                             f"attribute {attr!r}")


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        head, _, tail = fullname.rpartition(".")
        if head != _PACKAGE or tail not in MOVED:
            return None
        return importlib.machinery.ModuleSpec(fullname, self)

    def create_module(self, spec: Any) -> types.ModuleType:
        homes = MOVED[spec.name.rpartition(".")[2]]
        new = ", ".join(f"porthamiltonian.{h}" for h in homes if h != "simulate._moved")
        warnings.warn(f"{spec.name} is deprecated and will be removed in the next release; "
                      f"import from {new}", DeprecationWarning, stacklevel=2)
        return _Alias(spec.name, homes)

    def exec_module(self, module: types.ModuleType) -> None:
        return None


def install() -> None:
    """Make the old module paths importable (once)."""
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        sys.meta_path.append(_Finder())
