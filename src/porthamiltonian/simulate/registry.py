"""The method registry: ``METHODS = {name: method class}``, as SciPy's ``solve_ivp`` has.

Every entry honours the contract of :mod:`.method` (``name``, ``order``, ``problems``,
``energy``, ``solve``).  ``simulate(..., method=...)`` takes a registered name or a method
class itself; :func:`register_method` adds a user's own class under its name, after which
the contract tests (``tests/simulate/test_method_contract.py``) cover it like ours.

=====================  =====  ========  ====================================================
name                   order  problems  exact energy balance
=====================  =====  ========  ====================================================
``auto`` (default)     2      ODE, DAE  any H: midpoint for quadratic H, else the discrete
                                        gradient (:mod:`.auto`)
``midpoint``           2      ODE, DAE  quadratic H (symplectic)
``discrete_gradient``  2      ODE, DAE  any H (Gonzalez 1996)
``avf``                2      ODE       any H (Quispel & McLaren 2008)
``avf4``, ``avf6``     4, 6   ODE       any H (AVF composed: Yoshida 1990, Kahan & Li
                                        1997; backward substeps, see
                                        :mod:`.ode.composition`)
``gauss1``–``gauss6``  2s     ODE       quadratic H (Gauss–Legendre collocation)
``rk4``                4      ODE       none
``ida``                ≤ 5    DAE       none (SUNDIALS IDA, variable-order BDF)
SciPy ``RK45`` …       —      ODE       none (``solve_ivp``: RK45, DOP853, Radau, BDF,
                                        LSODA, RK23)
=====================  =====  ========  ====================================================
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, MutableMapping
from typing import Any

from ..errors import ModelError
from .method import ENERGY_CLASSES, Method
from .problem.problem import PROBLEM_KINDS

__all__ = ["METHODS", "MethodRegistry", "register_method", "check_method", "resolve_method",
           "methods_for"]

_SCIPY = ("RK45", "DOP853", "Radau", "BDF", "LSODA", "RK23")
_ODE, _DAE, _BOTH = frozenset({"ode"}), frozenset({"dae"}), frozenset({"ode", "dae"})
#: where the built-in methods live: name -> (module, attribute, the problems it solves);
#: the attribute is the class, or a tuple of classes holding the one of that name.  The
#: problems are the class's own (``tests/simulate/test_method_contract.py`` checks it),
#: so that a method is checked against a problem without importing it
_BUILT_IN: dict[str, tuple[str, str, frozenset[str]]] = {
    "auto": (".auto", "Auto", _BOTH), "midpoint": (".ode.midpoint", "Midpoint", _BOTH),
    "discrete_gradient": (".ode.discrete_gradient", "DiscreteGradient", _BOTH),
    "avf": (".ode.discrete_gradient", "AVF", _ODE),
    "avf4": (".ode.composition", "AVF4", _ODE), "avf6": (".ode.composition", "AVF6", _ODE),
    **{f"gauss{s}": (".ode.gauss", "GAUSS_METHODS", _ODE) for s in range(1, 7)},
    "rk4": (".ode.explicit", "RK4", _ODE), "ida": (".dae.ida", "IDA", _DAE),
    **{name: (".ode.scipy_ivp", "SCIPY_CLASSES", _ODE) for name in _SCIPY},
}


class MethodRegistry(MutableMapping[str, type[Method]]):
    """``{name: method class}``, whose built-in classes are imported when first looked
    up: naming or checking a method (``validate`` does) loads neither the other methods
    nor their compiled kernels (and Numba)."""

    def __init__(self, entries: dict[str, tuple[str, str, frozenset[str]]]) -> None:
        self._entries: dict[str, tuple[str, str, frozenset[str]] | type[Method]] = \
            dict(entries)

    def __getitem__(self, name: str) -> type[Method]:
        entry = self._entries[name]
        if isinstance(entry, tuple):
            found = getattr(importlib.import_module(entry[0], __package__), entry[1])
            entry = found if isinstance(found, type) else \
                next(cls for cls in found if cls.name == name)
            self._entries[name] = entry
        return entry

    def problems_of(self, name: str) -> frozenset[str]:
        """The problem kinds (``"ode"``, ``"dae"``) method ``name`` solves, without
        importing a built-in method; ``KeyError`` for an unknown name."""
        entry = self._entries[name]
        return entry[2] if isinstance(entry, tuple) else frozenset(entry.problems)

    def __setitem__(self, name: str, cls: type[Method]) -> None:
        self._entries[name] = cls

    def __delitem__(self, name: str) -> None:
        del self._entries[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __contains__(self, name: object) -> bool:  # Mapping's would import the method
        return name in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def __repr__(self) -> str:
        return f"MethodRegistry({', '.join(self._entries)})"


#: every registered method, by name
METHODS: MethodRegistry = MethodRegistry(_BUILT_IN)


def _check_class(cls: Any) -> type[Method]:
    """``cls`` if it honours the method contract, else a :class:`ModelError` naming what
    is missing."""
    if not (isinstance(cls, type) and issubclass(cls, Method)):
        raise ModelError(f"a method must be a subclass of porthamiltonian.simulate.Method "
                         f"(or OneStepMethod), got {cls!r}")
    problems = set(getattr(cls, "problems", ()))
    bad = [p for p in problems if p not in PROBLEM_KINDS]
    if not cls.name or not problems or bad or cls.energy not in ENERGY_CLASSES \
            or int(cls.order) < 1:
        raise ModelError(f"method class {cls.__name__}: set name (non-empty), order (≥ 1), "
                         f"problems (a subset of {sorted(PROBLEM_KINDS)}) and energy (one of "
                         f"{', '.join(ENERGY_CLASSES)})")
    if "dae" in problems and getattr(cls, "dae_step", "solve") is None:
        raise ModelError(f"method class {cls.__name__} lists 'dae' in problems but has no "
                         "dae_step")
    return cls


def register_method(cls: type[Method], *, replace: bool = False) -> type[Method]:
    """Add ``cls`` to :data:`METHODS` under ``cls.name`` (usable as a decorator).

    A name already taken raises :class:`ModelError` unless ``replace=True``.
    """
    cls = _check_class(cls)
    if cls.name in METHODS and METHODS[cls.name] is not cls and not replace:
        raise ModelError(f"a method named {cls.name!r} is already registered; pass "
                         "replace=True to replace it")
    METHODS[cls.name] = cls
    return cls


def methods_for(kind: str) -> list[str]:
    """Names of the registered methods that solve problems of ``kind``."""
    return [name for name in METHODS if kind in METHODS.problems_of(name)]


def check_method(method: Any, kind: str) -> None:
    """:class:`ModelError` for an unknown method name, a class that breaks the method
    contract, or a method that cannot solve a problem of ``kind``; a registered name is
    checked without importing its method."""
    if isinstance(method, str):
        if method not in METHODS:
            raise ModelError(f"unknown simulation method {method!r}; choose one of "
                             f"{', '.join(METHODS)}")
        name, problems = method, METHODS.problems_of(method)
    else:
        cls = _check_class(method)
        name, problems = cls.name, frozenset(cls.problems)
    if kind not in problems:
        if kind == "dae":
            raise ModelError(f"method {name!r} cannot simulate a DescriptorPHS (a DAE); "
                             f"choose one of {', '.join(methods_for('dae'))}, or reduce the "
                             "system with system.to_phs() when an explicit form exists")
        raise ModelError(f"method {name!r} cannot simulate {PROBLEM_KINDS[kind]}; choose "
                         f"one of {', '.join(methods_for(kind))}")


def resolve_method(method: Any, kind: str) -> type[Method]:
    """The method class for ``method`` (a registered name or a class) on a problem of
    ``kind``; :class:`ModelError` for an unknown name or a method that cannot solve it."""
    check_method(method, kind)
    return METHODS[method] if isinstance(method, str) else method
